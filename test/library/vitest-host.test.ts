// docs/library.md's example, running: a vendor's own vitest file hosting the kit, one `test`
// per scenario. The kit runs once (beforeAll); each test reports its scenario's verdict, with the
// kit's message (and the report holds the exchanges and a repro script of each failure).
//
// In a vendor's project the import is `from 'agent-memory-tck'`, and `url` points at their
// conformance server. Here: a small subset against the embedded reference server, to stay fast.
import { beforeAll, describe, expect, test } from 'vitest';
import { ALL_SCENARIOS, runTck, selectScenarios, type Report, type Selection } from '../../src/index.js';

const url = process.env.TCK_EXAMPLE_URL; // unset: the embedded reference server
const selection: Selection = { tier: 'bronze', grep: 'get_conversation' };

describe('agent-memory conformance: Bronze, get_conversation', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runTck({ ...(url ? { url } : {}), ...selection });
  }, 120_000);

  for (const scenario of selectScenarios(ALL_SCENARIOS, selection)) {
    test(`${scenario.id} ${scenario.title}`, (ctx) => {
      const result = report.scenarios.find((r) => r.id === scenario.id)!;
      if (result.outcome === 'skipped' || result.outcome === 'not-run') ctx.skip(result.message);
      expect(result.outcome, `${result.clauses.join(', ')}: ${result.message}`).toBe('passed');
    });
  }

  test('the report is the one report.json holds; a subset reaches no tier, its selection passed', () => {
    expect(report.format).toBe('agent-memory-tck/report');
    expect(report.achieved).toBeNull();
    expect(report.narrowed).toMatchObject({ passed: true });
    expect(report.success).toBe(true);
  });
});
