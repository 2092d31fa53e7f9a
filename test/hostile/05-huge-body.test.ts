// Fault 5: a 50 MB body (announced, and not announced), and a chunked body that never ends.
import { afterAll, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, hostile, runAgainst, stream, hangGuard } from './servers.js';

// The tests of this file run concurrently (none of them races a short timeout): clean up at the end.
afterAll(cleanUp);

const FIFTY_MB = 50 * 1024 * 1024;

describe.concurrent('a 50 MB body and an endless one', () => {
  it('is a protocol error at the default cap of 16 MiB, not a crash; the rest is graded', async () => {
    const server = await hostile(({ method, res }) => {
      if (method === 'get_conversation') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(FIFTY_MB) });
        stream(res, FIFTY_MB, ' ');
        return true;
      }
      if (method === 'search_messages') {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
        stream(res, FIFTY_MB, ' ');
        return true;
      }
      return false;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE, '--scenario', 'SCN-B-043', '--scenario', 'SCN-B-055', '--scenario', 'SCN-B-027']);
    expect(byId(report, 'SCN-B-043')).toMatchObject({
      outcome: 'error',
      message: `get_conversation: response body too large: Content-Length ${FIFTY_MB} exceeds the limit of 16777216 bytes`,
    });
    expect(byId(report, 'SCN-B-055')).toMatchObject({
      outcome: 'error',
      message: 'search_messages: response body too large: more than 16777216 bytes received (the limit); the stream was aborted',
    });
    expect(byId(report, 'SCN-B-027').outcome).toBe('passed');
    expect(run.ms).toBeLessThan(hangGuard(10_000));
  });

  it('an endless chunked body is cut at --max-body', async () => {
    const server = await hostile(({ method, res }) => {
      if (method !== 'list_sessions') return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      stream(res, 2 ** 40, ' '); // never ends for the kit; stops when the kit hangs up
      return true;
    });
    const { run, report } = await runAgainst(server.url, [...SAFE, '--max-body', '1048576', '--grep', 'list_sessions']);
    expect(byId(report, 'SCN-B-062')).toMatchObject({
      outcome: 'error',
      message: 'list_sessions: response body too large: more than 1048576 bytes received (the limit); the stream was aborted',
    });
    // The evidence keeps a bounded part of the body, never the whole.
    const ex = byId(report, 'SCN-B-062').exchanges.at(-1)!;
    expect(ex.responseText!.length).toBeLessThan(70 * 1024);
    expect(run.ms).toBeLessThan(hangGuard(10_000));
  });
});
