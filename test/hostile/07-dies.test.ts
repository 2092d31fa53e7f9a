// Fault 7: a server that dies after its 40th request, one that restarts a few seconds later, and
// one that stops answering (still accepting connections) after its 40th request.
import { afterAll, describe, expect, it } from 'vitest';
import { SAFE, FAST, cleanUp, count, hostile, runAgainst, hangGuard } from './servers.js';

// The first two tests run concurrently: clean up once the file is done.
afterAll(cleanUp);

describe.concurrent('a server that dies mid-run', () => {
  it('full run: dead after its 40th request; a few scenarios are errors, then the rest is "not run: target unreachable" at once', async () => {
    const server = await hostile(({ n, res, server }) => {
      if (n === 40) res.once('finish', () => void server.kill());
      return false;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE]);
    expect(run.code).toBe(1);
    const errors = report.scenarios.filter((s) => s.outcome === 'error');
    // The scenario that met the dead server, and the few that proved it was not a blip.
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThanOrEqual(3);
    // The first call after the death meets the closed keep-alive socket (reset), later ones a closed port.
    for (const e of errors) expect(e.message).toMatch(new RegExp(`^\\w+: connection (refused|reset) at ${server.url}`));
    const notRun = report.scenarios.filter((s) => s.outcome === 'not-run');
    expect(notRun.length).toBeGreaterThan(150);
    for (const s of notRun) expect(s.message).toBe(`not run: target unreachable (connection refused at ${server.url})`);
    expect(report.warnings.join('\n')).toMatch(
      new RegExp(`the target stopped answering after SCN-\\S+: 3 consecutive calls got no answer, and neither did clear_all_data probes for 0\\.5 s \\(last: connection refused at ${server.url}\\); \\d+ scenarios not run`),
    );
    expect(report.interrupted).toBe(false);
    // Not one request timeout per remaining scenario: the reconnect window once, then done.
    expect(run.ms).toBeLessThan(hangGuard(6_000));
  });

  it('full run: back after 1 s; the run waits for it (--reconnect-window) and grades everything after', async () => {
    const server = await hostile(({ n, res, server }) => {
      if (n === 40) res.once('finish', () => void server.kill().then(() => server.later(1_000, () => void server.restart())));
      return false;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE, '--reconnect-window', '5000']);
    const errors = report.scenarios.filter((s) => s.outcome === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBeLessThanOrEqual(3);
    for (const e of errors) expect(e.message).toMatch(/connection (refused|reset) at/);
    expect(count(report, 'not-run')).toBe(0);
    expect(count(report, 'passed')).toBe(report.scenarios.length - errors.length);
    expect(report.warnings.join('\n')).not.toMatch(/stopped answering/);
    expect(run.ms).toBeGreaterThan(1_000);
    expect(run.ms).toBeLessThan(hangGuard(8_000));
  });
});

// Alone: its subject is a short request timeout, which a busy machine must not meet by accident.
describe('a server that stops answering mid-run', () => {
  it('a server that still accepts connections but stops answering: three timeouts, then one probe window', async () => {
    const server = await hostile(({ n }) => n > 40);
    const { run, report } = await runAgainst(server.url, [...FAST]);
    expect(run.code).toBe(1);
    const errors = report.scenarios.filter((s) => s.outcome === 'error');
    expect(errors).toHaveLength(3);
    for (const e of errors) expect(e.message).toMatch(/^\w+: no response within 0\.3 s$/);
    const notRun = report.scenarios.filter((s) => s.outcome === 'not-run');
    expect(notRun.length).toBeGreaterThan(150);
    expect(notRun[0]!.message).toBe('not run: target unreachable (clear_all_data: no response within 0.3 s)');
    // 3 request timeouts and a 0.5 s window, not 160 of them.
    expect(run.ms).toBeLessThan(hangGuard(3 * 300 + 500 + 5_000));
  });
});
