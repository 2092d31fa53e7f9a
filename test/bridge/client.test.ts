import { afterEach, describe, expect, it } from 'vitest';
import type net from 'node:net';
import { BridgeClient, InvalidTargetError, formatExchange } from '../../src/profiles/bridge/index.js';
import type { CallResult, Exchange, Outcome } from '../../src/profiles/bridge/index.js';
import { answering, closeAll, deadPort, httpServer, onRequest, rawServer } from './servers.js';

const clients: BridgeClient[] = [];
function client(url: string, opts: Partial<ConstructorParameters<typeof BridgeClient>[0]> = {}): BridgeClient {
  const c = new BridgeClient({ url, ...opts });
  clients.push(c);
  return c;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeAll();
});

function expectKind<K extends Outcome['kind']>(r: CallResult, kind: K): Extract<Outcome, { kind: K }> {
  expect(r.outcome.kind, JSON.stringify(r.outcome)).toBe(kind);
  return r.outcome as Extract<Outcome, { kind: K }>;
}

function transport(r: CallResult, failure: string): string {
  const o = expectKind(r, 'transport');
  expect(o.failure, o.reason).toBe(failure);
  expect(r.exchange.transportError).toBe(o.reason);
  return o.reason;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('response kinds', () => {
  it('object: 200 with a JSON object', async () => {
    const s = await answering(200, { id: 'm1', content: 'hi' });
    const r = await client(s.url).call('add_message', { session_id: 's', role: 'user', content: 'hi' });
    const o = expectKind(r, 'object');
    expect(o.value).toEqual({ id: 'm1', content: 'hi' });
    expect(r.exchange.status).toBe(200);
    expect(r.exchange.contentType).toBe('application/json');
    expect(r.exchange.responseText).toBe('{"id":"m1","content":"hi"}');
    expect(r.exchange.responseBytes).toBe(26);
    expect(r.exchange.url).toBe(`${s.url}/add_message`);
  });

  it('list: 200 with a bare JSON array', async () => {
    const s = await answering(200, [{ id: 'a' }, { id: 'b' }]);
    const r = await client(s.url).call('search_messages', { query: 'x' });
    expect(expectKind(r, 'list').value).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('deleted: 200 with {"deleted": bool}', async () => {
    const s = await answering(200, { deleted: false });
    const r = await client(s.url).call('delete_message', { message_id: 'm' });
    expect(expectKind(r, 'deleted').value).toEqual({ deleted: false });
  });

  it('void: 204 with an empty body', async () => {
    const s = await answering(204);
    const r = await client(s.url).call('clear_session', { session_id: 's' });
    expectKind(r, 'void');
    expect(r.exchange.status).toBe(204);
    expect(r.exchange.responseBytes).toBe(0);
  });

  it('null: 200 with the JSON value null for an object-or-null method', async () => {
    const s = await answering(200, 'null');
    const r = await client(s.url).call('get_entity_by_name', { name: 'nobody' });
    expectKind(r, 'null');
  });

  it('error 400 with {"error": string}', async () => {
    const s = await answering(400, { error: 'session_id is required' });
    const r = await client(s.url).call('add_message', {});
    expect(expectKind(r, 'error')).toEqual({ kind: 'error', status: 400, message: 'session_id is required' });
  });

  it('error 500 with {"error": string}', async () => {
    const s = await answering(500, { error: 'database down' });
    const r = await client(s.url).call('clear_all_data');
    expect(expectKind(r, 'error')).toEqual({ kind: 'error', status: 500, message: 'database down' });
  });

  it('expect option overrides the method table; unknown methods default to object', async () => {
    const s = await answering(200, [1]);
    const c = client(s.url);
    expectKind(await c.call('add_message', {}, { expect: 'list' }), 'list');
    const r = await c.call('no_such_method', {});
    expect(expectKind(r, 'violation').reason).toContain('a JSON object expected, got an array');
  });
});

describe('protocol violations', () => {
  it('void method answering 200 with a body', async () => {
    const s = await answering(200, { ok: true });
    const r = await client(s.url).call('teardown');
    expect(expectKind(r, 'violation').reason).toBe('204 expected, got 200 with body {"ok":true}');
  });

  it('list expected, got an object', async () => {
    const s = await answering(200, { messages: [] });
    const r = await client(s.url).call('search_messages', { query: 'q' });
    const o = expectKind(r, 'violation');
    expect(o.reason).toContain('a bare JSON array expected, got an object');
    expect(o.notImplemented).toBeUndefined();
  });

  it('object expected, got null', async () => {
    const s = await answering(200, 'null');
    const r = await client(s.url).call('add_message', { session_id: 's', role: 'user', content: 'c' });
    expect(expectKind(r, 'violation').reason).toBe('a JSON object expected, got null');
  });

  it('400 without {"error": string}', async () => {
    const s = await answering(400, { message: 'bad' });
    const r = await client(s.url).call('add_message', {});
    const reason = expectKind(r, 'violation').reason;
    expect(reason).toContain('400 with {"error": string} expected');
    expect(reason).toContain('{"message":"bad"}');
  });

  it('500 with an HTML body', async () => {
    const s = await answering(500, '<html>oops</html>', { 'content-type': 'text/html' });
    const r = await client(s.url).call('add_message', {});
    expect(expectKind(r, 'violation').reason).toBe('500 with {"error": string} expected, got body <html>oops</html>');
  });

  it('404 is "not implemented"', async () => {
    const s = await answering(404, 'Cannot POST /add_fact', { 'content-type': 'text/plain' });
    const r = await client(s.url).call('add_fact', { subject: 'a', predicate: 'b', obj: 'c' });
    const o = expectKind(r, 'violation');
    expect(o.notImplemented).toBe(true);
    expect(o.reason).toBe('not implemented: 404 Not Found');
  });

  it('501 is "not implemented"', async () => {
    const s = await answering(501, { error: 'nope' });
    const r = await client(s.url).call('get_similar_traces', { task: 't' });
    const o = expectKind(r, 'violation');
    expect(o.notImplemented).toBe(true);
    expect(o.reason).toBe('not implemented: 501 Not Implemented');
  });

  it('418 names the status', async () => {
    const s = await answering(418, { error: 'teapot' });
    const r = await client(s.url).call('add_message', {});
    const o = expectKind(r, 'violation');
    expect(o.reason).toContain("200 expected, got 418 I'm a Teapot");
    expect(o.notImplemented).toBeUndefined();
  });

  it('503 names the status and Retry-After', async () => {
    const s = await answering(503, undefined, { 'retry-after': '7' });
    const r = await client(s.url).call('clear_session', { session_id: 's' });
    expect(expectKind(r, 'violation').reason).toBe(
      '204 expected, got 503 Service Unavailable (Retry-After: 7) with an empty body',
    );
  });
});

describe('transport failures', () => {
  it('refused: nothing listening on the port', async () => {
    const port = await deadPort();
    const r = await client(`http://127.0.0.1:${port}`).call('setup');
    expect(transport(r, 'refused')).toBe(`connection refused at http://127.0.0.1:${port}`);
    expect(r.exchange.status).toBeUndefined();
    expect(r.exchange.url).toBe(`http://127.0.0.1:${port}/setup`);
  });

  it('reset: socket destroyed after a partial response', async () => {
    const s = await rawServer((sock) =>
      onRequest(sock, () => {
        sock.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"id":');
        setTimeout(() => sock.destroy(), 20);
      }),
    );
    const r = await client(s.url).call('add_message', {});
    // The socket closed before the announced Content-Length arrived: said in those terms.
    expect(transport(r, 'reset')).toBe('body cut short: status 200 announced Content-Length 100, but the connection closed after 6 bytes');
  });

  it('reset: socket destroyed before any response', async () => {
    const s = await rawServer((sock) => onRequest(sock, () => sock.destroy()));
    const r = await client(s.url).call('add_message', {});
    expect(transport(r, 'reset')).toContain('before any response');
  });

  it('timeout: no bytes at all', async () => {
    const s = await rawServer(() => {});
    const t0 = Date.now();
    const r = await client(s.url, { timeoutMs: 300 }).call('add_message', {});
    const elapsed = Date.now() - t0;
    expect(transport(r, 'timeout')).toBe('add_message: no response within 0.3 s');
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2000);
  });

  it('timeout: headers then one byte every 200 ms is still bounded overall', async () => {
    const s = await rawServer((sock) =>
      onRequest(sock, () => {
        sock.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
        const iv = setInterval(() => {
          if (sock.destroyed) return clearInterval(iv);
          sock.write('1\r\n \r\n');
        }, 200);
        sock.on('close', () => clearInterval(iv));
      }),
    );
    const t0 = Date.now();
    const r = await client(s.url, { timeoutMs: 700 }).call('add_message', {});
    const elapsed = Date.now() - t0;
    const reason = transport(r, 'timeout');
    expect(reason).toContain('add_message: response not complete within 0.7 s (status 200 received');
    expect(elapsed).toBeLessThan(1500);
    expect(r.exchange.status).toBe(200);
    expect(r.exchange.responseBytes).toBeGreaterThan(0);
  });

  it('per-call timeoutMs overrides the client default', async () => {
    const s = await rawServer(() => {});
    const t0 = Date.now();
    const r = await client(s.url, { timeoutMs: 10_000 }).call('setup', {}, { timeoutMs: 200 });
    expect(transport(r, 'timeout')).toBe('setup: no response within 0.2 s');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('invalid JSON: an HTML page with status 200', async () => {
    const html = '<html><head><title>Welcome to nginx!</title></head><body>' + 'x'.repeat(200) + '</body></html>';
    const s = await answering(200, html, { 'content-type': 'text/html' });
    const r = await client(s.url).call('add_message', {});
    const reason = transport(r, 'invalid-json');
    expect(reason.startsWith('body is not JSON: <html><head><title>Welcome to nginx!')).toBe(true);
    expect(reason.endsWith('…')).toBe(true);
    expect(reason.length).toBeLessThan(120);
    expect(r.exchange.contentType).toBe('text/html');
    expect(r.exchange.responseText).toBe(html);
  });

  it('too large by Content-Length: refused before reading', async () => {
    const s = await rawServer((sock) =>
      onRequest(sock, () => {
        sock.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10000000\r\n\r\n[');
      }),
    );
    const t0 = Date.now();
    const r = await client(s.url, { maxBodyBytes: 1024 }).call('search_messages', { query: 'q' });
    expect(transport(r, 'too-large')).toBe(
      'response body too large: Content-Length 10000000 exceeds the limit of 1024 bytes',
    );
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r.exchange.responseBytes).toBe(0);
  });

  it('too large by streaming: an endless chunked body is aborted at the cap', async () => {
    let written = 0;
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
    const s = await rawServer((sock: net.Socket) =>
      onRequest(sock, () => {
        sock.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n1\r\n[\r\n');
        const pump = () => {
          while (!sock.destroyed && written < 512 * 1024 * 1024) {
            written += frame.length;
            if (!sock.write(frame)) return void sock.once('drain', pump);
          }
        };
        pump();
      }),
    );
    const t0 = Date.now();
    const r = await client(s.url, { maxBodyBytes: 1024 }).call('search_messages', { query: 'q' });
    expect(transport(r, 'too-large')).toContain('more than 1024 bytes received');
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(r.exchange.responseBytes).toBeLessThanOrEqual(1024);
    // The connection is torn down, so the server stops being able to push more.
    for (let i = 0; i < 50 && s.closedSockets === 0; i++) await sleep(20);
    expect(s.closedSockets).toBe(1);
    const after = written;
    await sleep(100);
    expect(written).toBe(after);
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it('redirect 302 is not followed', async () => {
    const target = await answering(200, { ok: true });
    const s = await answering(302, undefined, { location: `${target.url}/elsewhere` });
    const r = await client(s.url).call('setup');
    expect(transport(r, 'redirect')).toBe(
      `redirect 302 Found to ${target.url}/elsewhere not followed: the protocol answers every call directly`,
    );
    expect(r.exchange.status).toBe(302);
    await sleep(50);
    expect(target.seen).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('dns: an unresolvable .invalid host', async () => {
    const r = await client('http://tck-no-such-host.invalid:3001', { timeoutMs: 5000 }).call('setup');
    const reason = transport(r, 'dns');
    expect(reason).toMatch(/^cannot resolve host tck-no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EAI_NODATA)\)$/);
  });
});

describe('requests', () => {
  it('omits null and undefined params and sends content-type application/json', async () => {
    const s = await answering(200, { id: 'x' });
    const r = await client(s.url).call('add_message', {
      session_id: 's',
      role: 'user',
      content: 'c',
      metadata: null,
      extra: undefined,
      nested: { keep: null },
    });
    expectKind(r, 'object');
    expect(s.seen).toHaveLength(1);
    const seen = s.seen[0]!;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/add_message');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({ session_id: 's', role: 'user', content: 'c', nested: { keep: null } });
    expect(r.exchange.requestBody).toEqual({ session_id: 's', role: 'user', content: 'c', nested: { keep: null } });
  });

  it('no params sends {}', async () => {
    const s = await answering(200, { ok: true });
    expectKind(await client(s.url).call('setup'), 'object');
    expect(s.seen[0]!.body).toBe('{}');
  });

  it('honours a base path in the target URL', async () => {
    const s = await answering(204);
    const c = client(`${s.url}/bridge/v1/`);
    expect(c.url).toBe(`${s.url}/bridge/v1`);
    const r = await c.call('clear_all_data');
    expectKind(r, 'void');
    expect(s.seen[0]!.url).toBe('/bridge/v1/clear_all_data');
    expect(r.exchange.url).toBe(`${s.url}/bridge/v1/clear_all_data`);
    expect(formatExchange(r.exchange).split('\n')[0]).toBe('POST /bridge/v1/clear_all_data {}');
  });

  it('sends extra headers but never records their values', async () => {
    const secret = 'Bearer s3cr3t-t0ken-value';
    // The server echoes the credential back, in the body and in an error message.
    const s = await httpServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad token ${String(req.headers.authorization)}` }));
    });
    const c = client(s.url, { headers: { Authorization: secret, 'X-Tenant': 'tenant-42' } });
    const r = await c.call('add_message', { session_id: 's' });
    expect(s.seen[0]!.headers.authorization).toBe(secret);
    expect(s.seen[0]!.headers['x-tenant']).toBe('tenant-42');
    expect(r.exchange.requestHeaders).toEqual({ authorization: '***', 'x-tenant': '***' });
    const text = formatExchange(r.exchange);
    expect(text).toContain('authorization: ***');
    expect(text).toContain('x-tenant: ***');
    for (const leak of ['s3cr3t-t0ken-value', 'tenant-42']) {
      expect(text).not.toContain(leak);
      expect(JSON.stringify(r)).not.toContain(leak);
    }
  });

  it('keeps one connection alive across sequential calls', async () => {
    const s = await answering(200, { id: 'x' });
    const c = client(s.url);
    for (let i = 0; i < 5; i++) expectKind(await c.call('add_message', { session_id: 's', role: 'user', content: `${i}` }), 'object');
    expect(s.seen).toHaveLength(5);
    expect(s.connections).toBe(1);
    expect(c.requestCount).toBe(5);
  });

  it('concurrent calls all complete, on one socket by default and on several when allowed', async () => {
    const s = await httpServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"id":"x"}');
      }, 30);
    });
    const one = client(s.url);
    const r1 = await Promise.all([1, 2, 3].map(() => one.call('add_message', {})));
    expect(r1.map((r) => r.outcome.kind)).toEqual(['object', 'object', 'object']);
    expect(s.connections).toBe(1);
    const many = client(s.url, { connections: 3 });
    const r2 = await Promise.all([1, 2, 3].map(() => many.call('add_message', {})));
    expect(r2.map((r) => r.outcome.kind)).toEqual(['object', 'object', 'object']);
    expect(s.connections).toBe(4);
  });

  it('a violation does not spoil the connection for the next call', async () => {
    let n = 0;
    const s = await httpServer((_req, res) => {
      n++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(n === 1 ? '[]' : '{"id":"ok"}');
    });
    const c = client(s.url);
    expectKind(await c.call('add_message', {}), 'violation');
    expectKind(await c.call('add_message', {}), 'object');
    expect(s.connections).toBe(1);
  });

  it('onExchange sees every exchange in order, transport failures included', async () => {
    const s = await answering(204);
    const port = await deadPort();
    const seen: Exchange[] = [];
    const c = client(s.url, { onExchange: (ex) => seen.push(ex) });
    await c.call('clear_all_data');
    await c.call('teardown');
    const dead = client(`http://127.0.0.1:${port}`, { onExchange: (ex) => seen.push(ex) });
    await dead.call('setup');
    expect(seen.map((e) => [e.method, e.status])).toEqual([
      ['clear_all_data', 204],
      ['teardown', 204],
      ['setup', undefined],
    ]);
    expect(seen[2]!.transportError).toContain('connection refused');
    expect(Number.isNaN(Date.parse(seen[0]!.startedAt))).toBe(false);
    expect(seen[0]!.durationMs).toBeGreaterThan(0);
  });

  it('an exception in onExchange rejects the call instead of hanging it', async () => {
    const s = await answering(200, { id: 'x' });
    const c = client(s.url, {
      onExchange: () => {
        throw new Error('recorder bug');
      },
    });
    await expect(c.call('add_message', {})).rejects.toThrow('recorder bug');
  });

  it('invoke is the typed form of call', async () => {
    const s = await answering(200, { id: 'e' });
    const r = await client(s.url).invoke('add_entity', { name: 'Ada', entity_type: 'PERSON', description: null });
    expectKind(r, 'object');
    expect(JSON.parse(s.seen[0]!.body)).toEqual({ name: 'Ada', entity_type: 'PERSON' });
  });

  it('an unserialisable body is a result, not an exception', async () => {
    const s = await answering(200, {});
    const r = await client(s.url).call('add_message', { n: 10n });
    expect(transport(r, 'other')).toContain('cannot be serialised as JSON');
    expect(s.seen).toHaveLength(0);
  });

  it('keeps long bodies in the exchange up to 64 KiB, and formatExchange cuts at ~2 KB', async () => {
    const big = { items: 'y'.repeat(100 * 1024) };
    const s = await answering(200, big);
    const r = await client(s.url).call('add_message', {});
    expect(expectKind(r, 'object').value).toEqual(big);
    const total = JSON.stringify(big).length;
    expect(r.exchange.responseBytes).toBe(total);
    expect(r.exchange.responseText!.endsWith(`…[truncated: ${total - 64 * 1024} more bytes]`)).toBe(true);
    const text = formatExchange(r.exchange);
    expect(text).toContain(`→ 200 application/json (${total} bytes,`);
    expect(text.length).toBeLessThan(3000);
    expect(text).toMatch(/more characters\]$/);
  });
});

describe('targets', () => {
  it('rejects a non-http URL with a readable error', () => {
    expect(() => new BridgeClient({ url: 'ftp://127.0.0.1:21' })).toThrow(InvalidTargetError);
    expect(() => new BridgeClient({ url: 'ftp://127.0.0.1:21' })).toThrow(
      'invalid target URL: protocol ftp: is not supported (use http: or https:)',
    );
  });

  it('rejects a string that is not a URL', () => {
    expect(() => new BridgeClient({ url: 'localhost:3001/x y' })).toThrow(InvalidTargetError);
    expect(() => new BridgeClient({ url: '127.0.0.1:3001' })).toThrow(/not an absolute URL|protocol/);
  });

  it('rejects credentials in the URL without echoing them', () => {
    let message = '';
    try {
      new BridgeClient({ url: 'http://user:hunter2@127.0.0.1:3001' });
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidTargetError);
      message = (e as Error).message;
    }
    expect(message).toContain('must not carry credentials');
    expect(message).not.toContain('hunter2');
  });

  it('rejects reserved and malformed headers without echoing values', () => {
    expect(() => new BridgeClient({ url: 'http://127.0.0.1:1', headers: { 'Content-Type': 'text/plain' } })).toThrow(
      'header #1 (content-type) cannot be set: the bridge client manages it',
    );
    expect(() => new BridgeClient({ url: 'http://127.0.0.1:1', headers: { 'X-Key': 'sekrit\r\nX-Evil: 1' } })).toThrow(
      /^header #1 \(x-key\) has control characters in its value$/,
    );
  });

  it('a call after close is a result, not an exception', async () => {
    const s = await answering(204);
    const c = client(s.url);
    await c.close();
    const r = await c.call('clear_all_data');
    expect(transport(r, 'other')).toBe('clear_all_data: the bridge client is closed');
    expect(s.seen).toHaveLength(0);
  });
});
