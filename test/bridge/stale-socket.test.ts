// A server may close an idle keep-alive connection at any time (RFC 9112 §9.6): the client retries
// once on a fresh connection when a request on a reused socket fails before any response byte, and
// says so in the evidence; a failure on a fresh socket, or after a response began, is not retried.
// Also: a body whose Content-Encoding does not match it is a protocol error of the method.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { BridgeClient, formatExchange } from '../../src/profiles/bridge/index.js';
import { MemoryStore, createDispatcher } from '../../src/servers/bridge/index.js';
import { startHttpVariant } from '../harness/http-variant.js';
import { closeAll, httpServer } from './servers.js';

const clients: BridgeClient[] = [];
const client = (url: string) => {
  const c = new BridgeClient({ url, timeoutMs: 5_000 });
  clients.push(c);
  return c;
};
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(cleanups.splice(0).map((c) => c()));
  await closeAll();
});

const OK = JSON.stringify({ ok: true });

describe('a stale pooled keep-alive socket', () => {
  it('is retried once on a fresh connection, and the retry is in the evidence', async () => {
    // Answers the first request of each connection, then drops the connection on the next one
    // without a byte: what a server that closed the idle socket does to a request already sent.
    const served = new WeakSet<object>();
    const s = await httpServer((req, res) => {
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(OK);
    });
    const c = client(s.url);
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await c.call('setup', {}));
    expect(results.map((r) => r.outcome.kind)).toEqual(['object', 'object', 'object']);
    expect(results[0]!.exchange.retried).toBeUndefined();
    for (const r of results.slice(1)) {
      expect(r.exchange.retried).toMatch(/reused keep-alive connection failed before any response .*; sent again on a fresh connection/);
      expect(r.exchange.transportError).toBeUndefined();
      expect(formatExchange(r.exchange)).toContain('(retried: the reused keep-alive connection');
    }
    expect(s.seen).toHaveLength(5); // 1 + 2 × (dropped + retried)
    expect(s.connections).toBe(3);
  });

  it('is not retried when the socket was fresh', async () => {
    const s = await httpServer((req) => void req.socket.destroy());
    const r = await client(s.url).call('setup', {});
    expect(r.outcome).toMatchObject({ kind: 'transport', failure: 'reset' });
    expect(r.exchange.retried).toBeUndefined();
    expect(s.seen).toHaveLength(1);
  });

  it('is retried at most once', async () => {
    let first = true;
    const s = await httpServer((req, res) => {
      if (!first) return void req.socket.destroy();
      first = false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(OK);
    });
    const c = client(s.url);
    expect((await c.call('setup', {})).outcome.kind).toBe('object');
    const r = await c.call('setup', {});
    expect(r.outcome).toMatchObject({ kind: 'transport', failure: 'reset' });
    expect(r.exchange.retried).toMatch(/reused keep-alive/);
    expect(s.seen).toHaveLength(3);
  });

  it('a server that closes idle connections after 1 ms answers every call', async () => {
    const server = await startHttpVariant(createDispatcher(new MemoryStore()), { keepAliveTimeoutMs: 1 });
    cleanups.push(server.close);
    const c = client(server.url);
    for (let i = 0; i < 40; i++) {
      const r = await c.call('add_message', { session_id: 'idle', role: 'user', content: `m${i}` });
      expect(r.outcome.kind, JSON.stringify(r.outcome)).toBe('object');
      // Let the idle timer fire between some calls, as a slow scenario would (on loopback undici
      // usually sees the close first; the race itself is reproduced deterministically above).
      await new Promise((done) => setTimeout(done, i % 3));
    }
    const conv = await c.call('get_conversation', { session_id: 'idle' });
    expect(conv.outcome.kind === 'object' && (conv.outcome.value['messages'] as unknown[]).length).toBe(40);
  });
});

describe('Content-Encoding', () => {
  it('a body labelled gzip that is not gzip is a protocol error of the method', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(OK);
    });
    const r = await client(s.url).call('setup', {});
    expect(r.outcome.kind).toBe('violation');
    expect(r.outcome.kind === 'violation' && r.outcome.reason).toMatch(/Content-Encoding "gzip", but the body is not gzip data .*expected a body encoded as labelled, or no Content-Encoding/);
  });

  it('a body really encoded as labelled is read', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(OK));
    });
    const r = await client(s.url).call('setup', {});
    expect(r.outcome).toEqual({ kind: 'object', value: { ok: true } });
  });

  it('an unknown coding is a protocol error', async () => {
    const s = await httpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd-custom' });
      res.end(OK);
    });
    const r = await client(s.url).call('setup', {});
    expect(r.outcome.kind === 'violation' && r.outcome.reason).toMatch(/"zstd-custom" is not a content coding the client can read/);
  });
});
