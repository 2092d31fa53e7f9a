// Fault 10: status codes the protocol does not use — 301, 404 on a Bronze method, 418, 503 with
// Retry-After (which the kit does not honour: it never waits on the server's say-so).
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, hostile, runAgainst } from './servers.js';

afterEach(cleanUp);

describe('status codes the protocol does not use', () => {
  it('full run: 301, 404, 418 and 503 are each reported in the vendor\'s terms; nothing waits for Retry-After', async () => {
    const server = await hostile(({ method, res }) => {
      switch (method) {
        case 'list_sessions':
          res.writeHead(301, { location: '/v2/list_sessions' }).end();
          return true;
        case 'get_conversation':
          // Answered as this server answers every method it lacks (the reference's 404): a missing method.
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"unknown method: get_conversation"}');
          return true;
        case 'search_messages':
          res.writeHead(418, { 'content-type': 'text/plain' }).end("I'm a teapot");
          return true;
        case 'delete_message':
          res.writeHead(503, { 'retry-after': '3600', 'content-type': 'application/json' }).end('{"error": "maintenance"}');
          return true;
        default:
          return false;
      }
    });
    const { run, report } = await runAgainst(server.url, [...SAFE]);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-B-062')).toMatchObject({
      outcome: 'error',
      message: 'list_sessions: redirect 301 Moved Permanently to /v2/list_sessions not followed: the protocol answers every call directly',
    });
    // A Bronze method answering 404 as a method that does not exist does is "not implemented": a failure of Bronze, not an error.
    expect(byId(report, 'SCN-B-043')).toMatchObject({ outcome: 'failed', notImplemented: true });
    expect(byId(report, 'SCN-B-043').message).toMatch(/^get_conversation: not implemented: 404 Not Found \{"error":"unknown method: get_conversation"\} \(if the method exists, a lookup that finds nothing answers 200 null\)$/);
    expect(byId(report, 'SCN-B-055')).toMatchObject({ outcome: 'error', message: "search_messages: 200 expected, got 418 I'm a Teapot with body I'm a teapot" });
    expect(byId(report, 'SCN-B-070')).toMatchObject({
      outcome: 'error',
      message: 'delete_message: 200 expected, got 503 Service Unavailable (Retry-After: 3600) with body {"error": "maintenance"}',
    });
    expect(byId(report, 'SCN-S-001').outcome).toBe('passed');
    expect(report.achieved).toBeNull();
    // Nothing waits for Retry-After: waiting on 3600 would take an hour, far past this test's bound
    // (a bound on the test, not a timing assertion: the run takes seconds, more on a loaded machine).
  }, 120_000);
});
