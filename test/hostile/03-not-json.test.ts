// Fault 3: a body that is not JSON, an HTML page (a proxy's error page), the wrong content type.
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

const PROXY_PAGE = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>\r\n</html>\r\n';

describe('a body that is not JSON, HTML, or the wrong content type', () => {
  it('each is an error naming the method and showing the start of the body; JSON under another content type is judged on its content', async () => {
    const server = await hostile(({ method, res, reference }) => {
      switch (method) {
        case 'get_conversation': // 200, HTML
          res.writeHead(200, { 'content-type': 'text/html' }).end(PROXY_PAGE);
          return true;
        case 'search_messages': // a proxy's error status and page
          res.writeHead(502, { 'content-type': 'text/html' }).end(PROXY_PAGE);
          return true;
        case 'delete_message': // claims JSON, is not
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"deleted": true,');
          return true;
        case 'list_sessions': // correct JSON under a wrong content type
          void reference().then((r) => res.writeHead(r.status, { 'content-type': 'text/html; charset=latin1' }).end(JSON.stringify(r.body)));
          return true;
        default:
          return false;
      }
    });
    const { run, report } = await runAgainst(server.url, [...SAFE]);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-B-043')).toMatchObject({ outcome: 'error', message: 'get_conversation: body is not JSON: <html> <head><title>502 Bad Gateway</title></head> <body><center><h1>502 Bad Gat…' });
    expect(byId(report, 'SCN-B-055')).toMatchObject({
      outcome: 'error',
      message: expect.stringMatching(/^search_messages: 200 expected, got 502 Bad Gateway with body <html> <head><title>502 Bad Gateway/),
    });
    expect(byId(report, 'SCN-B-070')).toMatchObject({ outcome: 'error', message: 'delete_message: body is not JSON: {"deleted": true,' });
    // Untouched methods are graded as usual.
    expect(byId(report, 'SCN-S-001').outcome).toBe('passed');
    expect(byId(report, 'SCN-B-027').outcome).toBe('passed');
    // The content type is not judged: the protocol's rules are about status and body.
    expect(byId(report, 'SCN-B-062').outcome).toBe('passed');
    expect(run.ms).toBeLessThan(hangGuard(10_000));
  });
});
