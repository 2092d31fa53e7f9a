// Issue 14, item 5: JUnit as a real CI consumer reads it (test-results-parser, the parser behind
// testbeats). A run that did not check what it was asked to (unreachable target, interrupted)
// must read as failed there, and every <skipped> must carry its reason.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { normalizeReport } from '../../src/report/load.js';
import { renderJunit } from '../../src/report/render/junit.js';
import { RunUnreachable, runTck } from '../../src/run/run.js';
import { RunStopped } from '../../src/engine/runner.js';
import type { Report } from '../../src/report/model.js';
import { tempDir } from './support.js';

const { parse } = createRequire(import.meta.url)('test-results-parser') as {
  parse(o: { type: 'junit'; files: string[] }): { status: string; failed: number; errors: number; suites: { cases: { name: string; status: string; failure: string }[] }[] };
};
const dir = tempDir('tck-junit-consumer-');

function consume(report: Report, name: string) {
  const path = join(dir, `${name}.xml`);
  const xml = renderJunit(report);
  writeFileSync(path, xml);
  return { xml, parsed: parse({ type: 'junit', files: [path] }) };
}

describe('JUnit in a real consumer', () => {
  it('an unreachable target: the run fails, with the reason, and every <skipped> has a message', async () => {
    const report = await runTck({ url: 'http://127.0.0.1:9', tier: 'bronze', requestTimeoutMs: 2_000 }).then(
      () => expect.unreachable('the run should not reach the target'),
      (err: unknown) => (err instanceof RunUnreachable ? normalizeReport(err.report) : Promise.reject(err)),
    );
    const { xml, parsed } = consume(report, 'unreachable');
    expect(parsed.status).toBe('FAIL');
    const run = parsed.suites[0]!.cases[0]!;
    expect(run).toMatchObject({ name: 'the run checked every selected scenario', status: 'FAIL' });
    expect(run.failure).toMatch(/(\d+) of \1 scenarios not run/);
    expect(xml).not.toMatch(/<skipped\/>/);
    expect(xml.match(/<skipped message="[^"]+"\/>/g)).toHaveLength(report.scenarios.length);
  });

  it('an interrupted run fails too', async () => {
    const controller = new AbortController();
    controller.abort(new RunStopped('interrupted by SIGINT', true));
    const report = normalizeReport(await runTck({ tier: 'bronze', signal: controller.signal }));
    expect(report.interrupted).toBe(true);
    const { parsed } = consume(report, 'interrupted');
    expect(parsed.status).toBe('FAIL');
    expect(parsed.suites[0]!.cases[0]!.failure).toMatch(/^the run was interrupted: \d+ of \d+ scenarios not run/);
  });

  it('a complete passing run has no run case and passes', async () => {
    const report = normalizeReport(await runTck({ tier: 'bronze', grep: 'SCN-B-00[1-3]' }));
    const { parsed, xml } = consume(report, 'passing');
    expect(parsed.status).toBe('PASS');
    expect(xml).not.toMatch(/agent-memory-tck run/);
  });
});
