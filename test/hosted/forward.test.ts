// `tck serve` in front of a hosted service: the forwarder maps bridge methods onto the hosted REST
// interface, answers 501 for methods without a counterpart and 502 for upstream failures, and the
// bridge suites run through it against the embedded hosted service reach what the mapping allows.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FORWARD_ROUTES, HostedStore, createForwarder, normalizeEndpoint } from '../../src/servers/hosted/index.js';
import { startBridgeServer, type RunningBridgeServer } from '../../src/servers/bridge/index.js';
import { runTck } from '../../src/run/run.js';
import { METHOD_NAMES } from '../../src/protocols/bridge/index.js';
import { request, startService, type Service } from './helpers.js';

let s: Service | undefined;
let fwd: RunningBridgeServer | undefined;
let upstream: Server | undefined;
afterEach(async () => {
  await fwd?.close();
  await s?.close();
  if (upstream) await new Promise((r) => upstream!.close(r));
  fwd = s = upstream = undefined;
});

const UNMAPPED = METHOD_NAMES.filter((m) => FORWARD_ROUTES[m] === null);

async function forwarding(apiKey?: string) {
  s = await startService({ store: new HostedStore() }); // the real clock: the suites check timestamps against theirs
  fwd = await startBridgeServer(createForwarder({ endpoint: s.hosted.baseUrl, apiKey: apiKey ?? s.hosted.apiKey, timeoutMs: 5_000 }));
  return (method: string, body: unknown = {}) => request(`${fwd!.url}/${method}`, 'POST', { body });
}

/** An upstream that answers every request with `status` and `body`. */
async function fakeUpstream(status: number, body: string): Promise<string> {
  upstream = createServer((_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((r) => upstream!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
}

describe('the forwarder', () => {
  it('has a route or "no counterpart" for each of the 26 bridge methods', () => {
    expect(Object.keys(FORWARD_ROUTES).sort()).toEqual([...METHOD_NAMES].sort());
    expect(UNMAPPED).toEqual(expect.arrayContaining(['delete_message', 'add_preference', 'start_trace', 'add_relationship']));
  });

  it('is the table of docs/hosted.md ("tck serve in front of a hosted service")', () => {
    const readme = readFileSync(new URL('../../docs/hosted.md', import.meta.url), 'utf8');
    const rows = Object.fromEntries([...readme.matchAll(/^\| `(\w+)` \| (.+?) \|$/gm)].filter((m) => m[1]! in FORWARD_ROUTES).map((m) => [m[1], m[2]]));
    expect(rows).toEqual(Object.fromEntries(METHOD_NAMES.map((m) => [m, FORWARD_ROUTES[m] ?? 'no counterpart'])));
  });

  it('answers 501 {"error": "… has no hosted REST counterpart"} for each unmapped method', async () => {
    const call = await forwarding();
    for (const m of UNMAPPED) {
      const r = await call(m, {});
      expect({ m, status: r.status, error: r.body.error }).toEqual({ m, status: 501, error: `${m} has no hosted REST counterpart` });
    }
  });

  it('translates names both ways and keeps user data as it is; sessions are conversations', async () => {
    const call = await forwarding();
    const m = (await call('add_message', { session_id: 'sess-1', role: 'user', content: 'Alice joined Acme', metadata: { user_id: 7, nested: { camelCase: true } } })).body;
    expect(m).toEqual({ id: expect.any(String), role: 'user', content: 'Alice joined Acme', timestamp: expect.any(String), embedding: null, metadata: { user_id: 7, nested: { camelCase: true } } });
    const rest = (await s!.call('GET', '/conversations/sess-1/messages')).body;
    expect(rest.messages).toEqual([expect.objectContaining({ id: m.id, conversationId: 'sess-1', metadata: { user_id: 7, nested: { camelCase: true } } })]);
    const conv = (await call('get_conversation', { session_id: 'sess-1' })).body;
    expect(conv).toMatchObject({ session_id: 'sess-1', messages: [m], id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect((await call('get_conversation', { session_id: 'sess-1' })).body.id).toBe(conv.id);
    expect((await call('list_sessions')).body).toEqual([{ session_id: 'sess-1', message_count: 1, created_at: expect.any(String), updated_at: expect.any(String) }]);
    const e = (await call('add_entity', { name: 'Acme', entity_type: 'ORGANIZATION', description: 'a company' })).body;
    expect(e).toMatchObject({ name: 'Acme', type: 'ORGANIZATION', description: 'a company', canonical_name: null, created_at: expect.any(String) });
    expect((await call('get_entity_by_name', { name: 'Acme' })).body.id).toBe(e.id);
    expect((await call('get_entity_by_name', { name: 'Nobody' })).body).toBeNull();
    expect((await call('search_messages', { query: 'Acme' })).body.map((x: any) => x.id)).toEqual([m.id]);
    expect((await call('clear_session', { session_id: 'sess-1' })).status).toBe(204);
    expect((await s!.call('GET', '/conversations')).body.conversations).toEqual([]);
  });

  it('validates parameters as the reference does, before any upstream call', async () => {
    const call = await forwarding();
    const r = await call('add_message', { session_id: 's', role: 'robot', content: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^role: /);
    expect((await s!.call('GET', '/conversations')).body.conversations).toEqual([]);
  });

  it('an upstream 404 for an id the bridge call named becomes a 400', async () => {
    const call = await forwarding();
    const r = await call('merge_duplicate_entities', { source_id: crypto.randomUUID(), target_id: crypto.randomUUID() });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/merge_duplicate_entities: upstream POST \/v1\/entities\/.*\/merge answered 404/);
  });

  it('an upstream failure is a 502 naming the upstream status and body', async () => {
    const base = await fakeUpstream(500, '{"error":"database on fire"}');
    fwd = await startBridgeServer(createForwarder({ endpoint: base, apiKey: 'nams_secret_value_never_shown' }));
    const r = await request(`${fwd.url}/add_entity`, 'POST', { body: { name: 'A', entity_type: 'PERSON' } });
    expect(r.status).toBe(502);
    expect(r.body.error).toBe('add_entity: upstream POST /v1/entities answered 500 Internal Server Error: {"error":"database on fire"}');
    expect(r.text).not.toContain('nams_secret_value_never_shown');
  });

  it('a refused credential upstream is a 502 with the 401, and so is an upstream that cannot be reached', async () => {
    const call = await forwarding('nams_not_a_key_of_this_service');
    const r = await call('setup');
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/^setup: upstream GET \/v1\/conversations\?limit=1 answered 401 Unauthorized: \{"error":/);
    const base = await fakeUpstream(200, '{}');
    await new Promise((done) => upstream!.close(done));
    upstream = undefined;
    const gone = await startBridgeServer(createForwarder({ endpoint: base }));
    try {
      const r2 = await request(`${gone.url}/list_sessions`, 'POST', { body: {} });
      expect(r2.status).toBe(502);
      expect(r2.body.error).toMatch(/^list_sessions: upstream GET \/v1\/conversations failed: ECONNREFUSED/);
    } finally {
      await gone.close();
    }
  });

  it('an upstream answer of the wrong shape is a 502', async () => {
    const base = await fakeUpstream(200, '{"items": []}');
    fwd = await startBridgeServer(createForwarder({ endpoint: base }));
    const r = await request(`${fwd.url}/list_sessions`, 'POST', { body: {} });
    expect(r.status).toBe(502);
    expect(r.body.error).toMatch(/without a conversations array/);
  });

  it('normalises MEMORY_ENDPOINT', () => {
    expect(normalizeEndpoint('https://memory.example.com')).toBe('https://memory.example.com/v1');
    expect(normalizeEndpoint('https://memory.example.com/v1/')).toBe('https://memory.example.com/v1');
    expect(normalizeEndpoint('http://127.0.0.1:8080/api/v1')).toBe('http://127.0.0.1:8080/api/v1');
    expect(() => normalizeEndpoint('ftp://x')).toThrow(/http or https/);
    expect(() => normalizeEndpoint('https://u:p@x/v1')).toThrow(/credentials/);
    expect(() => normalizeEndpoint('not a url')).toThrow(/not a URL/);
  });
});

describe('the bridge suites through the forwarder, against the embedded hosted service', () => {
  it('pass every scenario the mapped methods allow; the rest fail as not implemented by an unmapped method', async () => {
    await forwarding();
    const report = await runTck({ url: fwd!.url, requestTimeoutMs: 5_000 });
    const notImplemented = report.scenarios.filter((r) => r.outcome === 'failed' && /: not implemented: (404|501)\b/.test(r.message ?? ''));
    const other = report.scenarios.filter((r) => r.outcome !== 'passed' && !notImplemented.includes(r));
    expect(other.map((r) => `${r.id} ${r.outcome}: ${r.message}`)).toEqual([]);
    for (const r of notImplemented) expect(UNMAPPED).toContain(/^\w+/.exec(r.message!)![0]);
    const passed = report.scenarios.filter((r) => r.outcome === 'passed');
    // Every tier has scenarios that need an unmapped method (delete_message, preferences, traces,
    // relationships), so no tier is reached; what can pass does.
    expect(report.achieved).toBeNull();
    expect(passed.length).toBeGreaterThan(report.scenarios.length / 2);
    for (const tier of ['bronze', 'silver', 'gold'] as const) {
      expect(passed.some((r) => r.tier === tier), `no ${tier} scenario passed`).toBe(true);
      expect(notImplemented.some((r) => r.tier === tier), `every ${tier} scenario passed`).toBe(true);
    }
  }, 120_000);
});
