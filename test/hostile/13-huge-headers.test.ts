// Fault 13 (issue 25, item 8): response headers past the client's 16 KiB limit. A status line
// arrived, so the server answers: a protocol error of each call (exit 1), not "cannot reach" (exit
// 3), and no liveness probing of a server that answers every call.
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, cleanUp, count, hangGuard, hostile, runAgainst } from './servers.js';

afterEach(cleanUp);

describe('response headers too large', () => {
  it('on every answer, setup included: exit 1, every scenario an error naming the headers, none "not run"', async () => {
    const server = await hostile(({ res, reference }) => {
      void reference().then((r) => {
        if (res.destroyed) return;
        res.writeHead(r.status, { 'content-type': 'application/json', 'x-padding': 'a'.repeat(20_000) }).end(r.body === undefined ? undefined : JSON.stringify(r.body));
      });
      return true;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE, '--tier', 'bronze', '--grep', 'SCN-B-00[1-5]']);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain('cannot reach');
    expect(report.warnings.join('\n')).toContain('setup: expected 200 {"ok": true}, got');
    expect(count(report, 'not-run')).toBe(0);
    expect(report.scenarios.length).toBeGreaterThan(0);
    for (const s of report.scenarios) {
      expect(s.outcome, s.id).toBe('error');
      expect(s.message, s.id).toContain('response headers too large (the status line arrived');
    }
    expect(run.ms).toBeLessThan(hangGuard(5_000));
  });
});
