// Fault 2: a method that answers one byte per second — the body after prompt headers, or the
// whole response, status line included.
import { afterEach, describe, expect, it } from 'vitest';
import { FAST, byId, cleanUp, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

describe('a method that answers one byte per second', () => {
  it('is cut at the request timeout, whether the headers came or not; the other scenarios are graded', async () => {
    const server = await hostile(({ method, res, server }) => {
      if (method === 'get_conversation') {
        // Headers at once, then the body one byte per second.
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '64' }).flushHeaders();
        server.every(1_000, 64, () => res.write('x'));
        return true;
      }
      if (method === 'list_sessions') {
        // Not even the status line comes faster than a byte a second.
        const text = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n[]';
        let i = 0;
        server.every(1_000, text.length, () => res.socket?.write(text[i++]!));
        return true;
      }
      return false;
    });
    const { run, report } = await runAgainst(server.url, [...FAST, '--grep', 'SCN-B-04[34]|SCN-B-05[56]|SCN-B-06[23]']);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-B-043')).toMatchObject({
      outcome: 'error',
      message: expect.stringMatching(/^get_conversation: response not complete within 0\.3 s \(status 200 received, then \d+ bytes? of body\)$/),
    });
    expect(byId(report, 'SCN-B-062')).toMatchObject({ outcome: 'error', message: 'list_sessions: no response within 0.3 s' });
    // search_messages scenarios that call neither method pass.
    expect(byId(report, 'SCN-B-055').outcome).toBe('passed');
    const hit = report.scenarios.filter((s) => s.outcome !== 'passed');
    for (const s of hit) expect(s.message).toMatch(/^(get_conversation|list_sessions): (no response|response not complete) within 0\.3 s/);
    expect(run.ms).toBeLessThan(hangGuard(hit.length * 300 + 6_000));
  });
});
