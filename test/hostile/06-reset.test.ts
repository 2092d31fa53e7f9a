// Fault 6: the connection is reset in the middle of a response.
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

describe('a connection reset mid-response', () => {
  it('full run: the affected scenarios are errors naming the reset; the run reconnects and grades the rest', async () => {
    const server = await hostile(({ method, res, server }) => {
      if (method !== 'delete_message') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"dele', () => server.later(20, () => res.socket?.resetAndDestroy()));
      return true;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE]);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-B-070')).toMatchObject({
      outcome: 'error',
      message: expect.stringMatching(new RegExp(`^delete_message: connection reset at ${server.url} after status 200 and \\d+ bytes of body \\((read ECONNRESET|other side closed)\\)$`)),
    });
    const hit = report.scenarios.filter((s) => s.outcome !== 'passed');
    for (const s of hit) expect(s.message).toMatch(/delete_message/);
    expect(byId(report, 'SCN-B-071').outcome).toBe('error');
    expect(byId(report, 'SCN-B-079').outcome).toBe('passed');
    expect(report.achieved).toBeNull();
    expect(run.ms).toBeLessThan(hangGuard(10_000));
  });
});
