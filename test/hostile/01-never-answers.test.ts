// Fault 1: a method that never answers (the socket stays open, not one byte comes back).
import { afterEach, describe, expect, it } from 'vitest';
import { FAST, byId, cleanUp, count, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

describe('a method that never answers', () => {
  it('full run: each call to it is an error after the request timeout; everything else is graded', async () => {
    const server = await hostile(({ method }) => method === 'get_tool_stats');
    const { run, report } = await runAgainst(server.url, [...FAST]);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-S-039')).toMatchObject({ outcome: 'error', message: 'get_tool_stats: no response within 0.3 s' });
    expect(report.achieved).toBe('bronze');
    // Scenarios that never call get_tool_stats still run and pass.
    expect(byId(report, 'SCN-B-043').outcome).toBe('passed');
    expect(byId(report, 'SCN-S-001').outcome).toBe('passed');
    expect(byId(report, 'SCN-G-001').outcome).toBe('passed');
    const hit = report.scenarios.filter((s) => s.outcome !== 'passed');
    expect(hit.length).toBeGreaterThan(0);
    for (const s of hit) expect(s).toMatchObject({ outcome: 'error', message: 'get_tool_stats: no response within 0.3 s' });
    expect(count(report, 'passed')).toBe(report.scenarios.length - hit.length);
    expect(count(report, 'not-run')).toBe(0);
    // Bounded: one request timeout per affected scenario, plus the rest of the run.
    expect(run.ms).toBeLessThan(hangGuard(hit.length * 300 + 8_000));
  });

  it('a scenario timeout shorter than the request timeout cancels the hung call; the next scenario is not held up', async () => {
    const server = await hostile(({ method }) => method === 'list_sessions');
    const { run, report } = await runAgainst(server.url, ['--request-timeout', '20000', '--scenario-timeout', '400', '--scenario', 'SCN-B-062', '--scenario', 'SCN-B-063', '--scenario', 'SCN-B-043']);
    expect(run.code).toBe(1);
    expect(report.scenarios.map((s) => [s.id, s.outcome, s.message])).toEqual([
      ['SCN-B-043', 'passed', undefined],
      ['SCN-B-062', 'error', 'scenario did not finish within 0.4 s'],
      ['SCN-B-063', 'error', 'scenario did not finish within 0.4 s'],
    ]);
    expect(run.ms).toBeLessThan(hangGuard(2 * 400 + 4_000));
  });
});
