// Fault 4: a body cut short — Content-Length promises more than arrives, then the socket closes.
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, count, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

describe('a body cut short', () => {
  it('full run: every add_message is an error saying how much came; scenarios without add_message pass', async () => {
    const server = await hostile(({ method, res }) => {
      if (method !== 'add_message') return false;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id": "5f0c", "session_id": ', () => res.socket?.end());
      return true;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE]);
    expect(run.code).toBe(1);
    const first = byId(report, 'SCN-B-027');
    expect(first.outcome).toBe('error');
    expect(first.message).toBe('add_message: body cut short: status 200 announced Content-Length 1000, but the connection closed after 29 bytes');
    expect(byId(report, 'SCN-S-001').outcome).toBe('passed');
    expect(count(report, 'passed')).toBeGreaterThan(90);
    expect(count(report, 'not-run')).toBe(0);
    expect(run.ms).toBeLessThan(hangGuard(10_000));
  });
});
