// The HTTP transport both clients stand on (src/profiles/http/transport.ts): its timeouts by phase,
// its body cap (declared, streamed, decoded), its retry of a request lost on a stale pooled
// keep-alive socket, and the evidence it records. Then the hosted client, which gained all this by
// sharing the transport, against a server that closes idle connections after 1 ms: on the code
// before the transport, the tests below failed (every request that reused a connection was lost as
// "connection reset … before any response", 26 of the 28 hosted scenarios ended in that error, and
// a Content-Length over the cap was waited on until the 10 s timeout); now every request is answered.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/engine/evidence.js';
import { HttpTransport, type HttpOutcome } from '../../../src/profiles/http/transport.js';
import { RestClient } from '../../../src/profiles/hosted/client.js';
import { runHostedProfile } from '../../../src/run/hosted.js';
import { closeAll, httpServer, onRequest, rawServer } from '../../bridge/servers.js';
import { idleCloser } from '../../harness/idle-closer.js';
import { expiredTokens, startService, testIdp } from '../../hosted/helpers.js';
import { startHostedServer } from '../../../src/servers/hosted/index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
  await closeAll();
});

function transport(origin: string, options: { timeoutMs?: number; maxBodyBytes?: number; connections?: number } = {}): HttpTransport {
  const t = new HttpTransport({ origin, timeoutMs: 5_000, maxBodyBytes: 1 << 20, connections: 1, name: 'the test client', ...options });
  cleanups.push(() => t.close());
  return t;
}

const newExchange = (operation = 'op'): Exchange => ({ method: operation, url: 'http://test/', requestBody: {}, requestHeaders: {}, durationMs: 0, startedAt: '' });

/** Sends a GET of `path` and returns its outcome with the exchange it filled. */
async function get(t: HttpTransport, path = '/', extra: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<{ outcome: HttpOutcome; exchange: Exchange }> {
  const exchange = newExchange();
  const outcome = await t.send(exchange, { method: 'GET', path, headers: {}, ...extra });
  return { outcome, exchange };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe('timeouts, by phase', () => {
  it('before the status line: "no response within"', async () => {
    const s = await rawServer(() => {});
    const { outcome, exchange } = await get(transport(s.url, { timeoutMs: 200 }));
    expect(outcome).toEqual({ kind: 'transport', failure: 'timeout', reason: 'op: no response within 0.2 s' });
    expect(exchange.status).toBeUndefined();
  });

  it('in the body: the status and the bytes received are named', async () => {
    const s = await rawServer((sock) => onRequest(sock, () => void sock.write('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{"a"')));
    const { outcome, exchange } = await get(transport(s.url, { timeoutMs: 200 }));
    expect(outcome).toEqual({ kind: 'transport', failure: 'timeout', reason: 'op: response not complete within 0.2 s (status 200 received, then 4 bytes of body)' });
    expect(exchange).toMatchObject({ status: 200, responseBytes: 4, responseText: '{"a"' });
  });

  it('a body dribbled faster than any gap timeout is still bounded by the whole-exchange deadline', async () => {
    // One byte every 20 ms: undici's body timeout (a bound on each gap) never fires; the deadline does.
    const s = await rawServer((sock) =>
      onRequest(sock, () => {
        sock.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
        const iv = setInterval(() => (sock.destroyed ? clearInterval(iv) : sock.write('1\r\n \r\n')), 20);
        sock.on('close', () => clearInterval(iv));
      }),
    );
    const { outcome } = await get(transport(s.url, { timeoutMs: 300 }));
    expect(outcome.kind === 'transport' && outcome.reason).toMatch(/^op: response not complete within 0\.3 s \(status 200 received, then \d+ bytes? of body\)$/);
  });

  it("a request's own timeout replaces the transport's", async () => {
    const s = await rawServer(() => {});
    const { outcome } = await get(transport(s.url, { timeoutMs: 60_000 }), '/', { timeoutMs: 150 });
    expect(outcome).toMatchObject({ failure: 'timeout', reason: 'op: no response within 0.15 s' });
  });

  it('cancelling through the signal ends the request, named as such', async () => {
    const s = await rawServer(() => {});
    const ac = new AbortController();
    const pending = get(transport(s.url), '/', { signal: ac.signal });
    await sleep(20);
    ac.abort();
    expect((await pending).outcome).toEqual({ kind: 'transport', failure: 'other', reason: 'op: request cancelled by the kit' });
    // Already aborted: nothing is sent.
    expect((await get(transport(s.url), '/', { signal: ac.signal })).outcome).toMatchObject({ reason: 'op: request cancelled by the kit' });
  });
});

describe('the body cap', () => {
  it('a Content-Length over the cap is refused before its body is read', async () => {
    const s = await rawServer((sock) => onRequest(sock, () => void sock.write('HTTP/1.1 200 OK\r\ncontent-length: 10000000\r\n\r\n[')));
    const { outcome, exchange } = await get(transport(s.url, { maxBodyBytes: 1024 }));
    expect(outcome).toEqual({ kind: 'transport', failure: 'too-large', reason: 'response body too large: Content-Length 10000000 exceeds the limit of 1024 bytes' });
    expect(exchange.responseBytes).toBe(0);
  });

  it('a body without Content-Length is aborted as soon as it passes the cap', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('x'.repeat(1000));
      res.end('x'.repeat(1000));
    });
    const { outcome, exchange } = await get(transport(s.url, { maxBodyBytes: 1500 }));
    expect(outcome).toMatchObject({ failure: 'too-large', reason: 'response body too large: more than 1500 bytes received (the limit); the stream was aborted' });
    expect(exchange.responseBytes).toBeLessThanOrEqual(1500);
  });

  it('a compressed body that decodes past the cap is not decoded whole', async () => {
    const bomb = gzipSync(Buffer.alloc(1 << 20, 0x20));
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const { outcome } = await get(transport(s.url, { maxBodyBytes: 64 * 1024 }));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(outcome).toEqual({ kind: 'undecodable', status: 200, reason: 'Content-Encoding "gzip": the decoded body is larger than the limit of 65536 bytes' });
  });

  it('a body really encoded as labelled is decoded; the evidence keeps what was received', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"ok":true}'));
    });
    const { outcome, exchange } = await get(transport(s.url));
    expect(outcome).toMatchObject({ kind: 'response', status: 200, text: '{"ok":true}' });
    expect(exchange.contentType).toBe('application/json');
  });
});

describe('a stale pooled keep-alive socket', () => {
  it('a server that closes idle connections after 1 ms: each request that finds its connection closed is sent again, once, on a fresh one', async () => {
    const upstream = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const front = await idleCloser(upstream.port, 1);
    cleanups.push(front.close);
    const t = transport(front.origin);
    const results = [];
    for (let i = 0; i < 10; i++) {
      results.push(await get(t));
      await sleep(2);
    }
    expect(results.map((r) => r.outcome.kind)).toEqual(Array(10).fill('response'));
    expect(results[0]!.exchange.retried).toBeUndefined();
    for (const r of results.slice(1)) {
      expect(r.exchange.retried).toMatch(/^the reused keep-alive connection failed before any response \(connection reset at .* before any response .*\); sent again on a fresh connection$/);
    }
    expect(front.stats.dropped).toBe(9);
    expect(upstream.seen).toHaveLength(10); // a dropped request never reached the server
  });

  it('a reset on a fresh connection is not retried', async () => {
    const s = await rawServer((sock) => onRequest(sock, () => sock.destroy()));
    const { outcome, exchange } = await get(transport(s.url));
    expect(outcome).toMatchObject({ kind: 'transport', failure: 'reset' });
    expect(exchange.retried).toBeUndefined();
    expect(s.connections).toBe(1);
  });
});

describe('the hosted client, now on the shared transport', () => {
  it('survives a server that closes idle connections after 1 ms (the retry is in its evidence)', async () => {
    const s = await startService();
    cleanups.push(() => s.close());
    const front = await idleCloser(s.hosted.port, 1);
    cleanups.push(front.close);
    const client = new RestClient({ timeoutMs: 5_000 });
    cleanups.push(() => client.close());
    const statuses: (number | string)[] = [];
    let retried = 0;
    for (let i = 0; i < 10; i++) {
      const r = await client.request({ method: 'GET', url: `${front.origin}/v1/conversations`, operation: 'list_conversations', authorization: `Bearer ${s.hosted.apiKey}` });
      statuses.push(r.outcome.kind === 'answer' ? r.outcome.status : r.outcome.reason);
      if (r.exchange.retried !== undefined) retried++;
      await sleep(2);
    }
    expect(statuses).toEqual(Array(10).fill(200));
    expect(retried).toBeGreaterThan(0);
  });

  it('the whole hosted profile passes through such a server', async () => {
    // The service advertises the front's origin, so its discovery documents name the URL the kit uses.
    let port = 0;
    const front = await idleCloser(() => port, 1);
    cleanups.push(front.close);
    const idp = await testIdp();
    const server = await startHostedServer({ port: 0, identityProviders: [idp.trustedIssuer()], publicUrl: front.origin });
    cleanups.push(() => server.close());
    port = server.port;
    const other = await server.keys.issue({ label: 'other', scopes: ['read', 'write'], workspaceId: `${server.workspaceId}-other` });
    const run = await runHostedProfile({
      url: `${front.origin}/v1`,
      apiKey: server.apiKey,
      otherApiKey: other.key,
      workspaceId: server.workspaceId,
      idpToken: () => idp.mint({ workspaceId: server.workspaceId }),
      ...(await expiredTokens(server, idp)),
      requestTimeoutMs: 5_000,
    });
    const notPassed = run.section.scenarios.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message ?? ''}`);
    expect(notPassed).toEqual([]);
    expect(run.section.scenarios.length).toBeGreaterThan(0);
    expect(front.stats.dropped).toBeGreaterThan(0);
  }, 60_000);

  it('gained the body cap by Content-Length, with the reason the bridge client gives', async () => {
    const s = await rawServer((sock) => onRequest(sock, () => void sock.write('HTTP/1.1 200 OK\r\ncontent-length: 10000000\r\n\r\n[')));
    const client = new RestClient({ maxBodyBytes: 1024 });
    cleanups.push(() => client.close());
    const r = await client.request({ method: 'GET', url: `${s.url}/v1/conversations`, operation: 'list_conversations' });
    expect(r.outcome).toEqual({ kind: 'transport', failure: 'too-large', reason: 'response body too large: Content-Length 10000000 exceeds the limit of 1024 bytes' });
    expect(r.exchange.transportError).toBe(r.outcome.kind === 'transport' ? r.outcome.reason : '');
  });

  it('a body that is not what its Content-Encoding says is a transport failure naming the operation', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end('{"ok":true}');
    });
    const client = new RestClient();
    cleanups.push(() => client.close());
    const r = await client.request({ method: 'GET', url: `${s.url}/v1/conversations`, operation: 'list_conversations' });
    expect(r.outcome.kind === 'transport' && r.outcome.reason).toMatch(/^list_conversations: Content-Encoding "gzip", but the body is not gzip data/);
  });
});
