// The console's three levels on a failing run: default (every scenario, each failure's details),
// --failures-only (no passed lines, each failure with its details) and --quiet (the table, the
// totals and the verdict); and the closing totals line.
import { describe, expect, it } from 'vitest';
import { selectScenarios, type Selection } from '../../src/engine/select.js';
import { normalizeReport } from '../../src/report/load.js';
import { ConsoleReporter, type ConsoleOptions } from '../../src/report/render/console.js';
import { totalsLine } from '../../src/report/render/totals.js';
import { runTck } from '../../src/run/run.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { withVariant } from '../harness/variants.js';
import { keepsDeleted } from './support.js';

const SELECTION: Selection = { tier: 'bronze', scenarios: ['SCN-B-070', 'SCN-B-071'] };

async function consoleText(options: Omit<ConsoleOptions, 'stream'>): Promise<string> {
  let text = '';
  const reporter = new ConsoleReporter({ ...options, live: false, stream: { write: (s: string) => ((text += s), true) } });
  reporter.begin(selectScenarios(ALL_SCENARIOS, SELECTION));
  const report = await withVariant({ wrap: keepsDeleted }, (url) =>
    runTck({ url, ...SELECTION, onStart: (s) => reporter.onStart(s), onResult: (r) => reporter.onResult(r) }),
  );
  reporter.onEnd(normalizeReport(report));
  return text;
}

describe('console output levels', () => {
  it('default: the passed line, the failure line and its details, the totals', async () => {
    const text = await consoleText({});
    expect(text).toMatch(/^PASS {4}SCN-B-070 /m);
    expect(text).toMatch(/^FAIL {4}SCN-B-071 /m);
    expect(text).toContain('Failures (1)');
    expect(text).toMatch(/\n2 scenarios: 1 passed, 1 failed \(1 cause\) in \d+\.\d s\n/);
  });
  it('--failures-only: no passed line, the failure with its details, the table, the totals', async () => {
    const text = await consoleText({ failuresOnly: true });
    expect(text).not.toMatch(/SCN-B-070/);
    expect(text).toMatch(/^FAIL {4}SCN-B-071 /m);
    expect(text).toContain('Failures (1)');
    expect(text).toMatch(/diff \(- expected, \+ actual\)/);
    expect(text).toMatch(/^bronze +1 +1 /m);
    expect(text).toMatch(/\n2 scenarios: 1 passed, 1 failed \(1 cause\) in \d+\.\d s\n/);
  });
  it('--quiet: no scenario at all, only the table, the totals and the verdict', async () => {
    const text = await consoleText({ quiet: true });
    expect(text).not.toMatch(/SCN-B-07/);
    expect(text).not.toContain('Failures (1)');
    expect(text).toMatch(/\n2 scenarios: 1 passed, 1 failed \(1 cause\) in \d+\.\d s\n/);
  });
});

describe('the totals line', () => {
  const report = (outcomes: string[], durationMs: number) =>
    ({ scenarios: outcomes.map((outcome) => ({ outcome })), durationMs }) as unknown as Parameters<typeof totalsLine>[0];
  it('counts every outcome that occurred, passed always, and the duration', () => {
    expect(totalsLine(report(['passed', 'passed', 'failed', 'error', 'not-run'], 1_420))).toBe('5 scenarios: 2 passed, 1 failed, 1 error, 1 not run in 1.4 s');
    expect(totalsLine(report(['failed'], 61_700))).toBe('1 scenario: 0 passed, 1 failed in 62 s');
  });
});
