// Issue 17: what held under outside attack stays pinned, bounded and seeded. Random requests to
// both servers get only 2xx/4xx answers with a JSON {error} for every refusal, a refused request
// changes nothing, no prototype is polluted; concurrent writers lose nothing.
import { describe, expect, it } from 'vitest';
import { METHODS, METHOD_NAMES as ALL_METHOD_NAMES, type MethodName } from '../../src/protocols/bridge/index.js';
import { ROUTES } from '../../src/servers/hosted/routes.js';
import { body, seeded } from '../../bench/fuzz.mjs';
import { bothServers } from './helpers.js';

// The bridge reference (MemoryStore) leaves the optional Platinum methods out (they answer 501): not fuzzed.
const METHOD_NAMES = ALL_METHOD_NAMES.filter((m): m is MethodName => METHODS[m].tier !== 'platinum');

const SEED = 17;
const REQUESTS = 600;

const servers = bothServers();

const polluted = () => Object.keys(Object.prototype).length > 0 || ({} as Record<string, unknown>).polluted !== undefined;

describe(`seeded fuzz (seed ${SEED}, ${REQUESTS} requests each)`, () => {
  it('the bridge reference: no 5xx, JSON errors, a refused request changes nothing', async () => {
    const random = seeded(SEED);
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i++) {
      // Mostly real methods, a few unknown paths; clear_all_data is left out so data builds up.
      const method = random() < 0.95 ? METHOD_NAMES.filter((m) => m !== 'clear_all_data')[Math.floor(random() * (METHOD_NAMES.length - 1))]! : `no_${i}`;
      const before = JSON.stringify(servers.bridge.store.snapshot());
      const r = await fetch(`${servers.bridge.url}/${method}`, { method: 'POST', body: body(random) });
      const text = await r.text();
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(r.status, `${method} #${i}: ${text}`).toBeLessThan(500);
      if (r.status >= 400) {
        expect(JSON.parse(text), `${method} #${i}`).toEqual({ error: expect.any(String) });
        expect(JSON.stringify(servers.bridge.store.snapshot()), `${method} #${i} changed the store`).toBe(before);
      }
    }
    expect(polluted()).toBe(false);
    // The generator reaches both sides: some calls succeed, some are refused.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    expect(statuses.get(400)).toBeGreaterThan(0);
  });

  it('the hosted reference: no 5xx, JSON errors, a refused request changes nothing', async () => {
    const random = seeded(SEED + 1);
    const ids = ['00000000-0000-4000-8000-000000000001', 'x', '%2e%2e', 'graph'];
    for (let i = 0; i < REQUESTS; i++) {
      const route = ROUTES[Math.floor(random() * ROUTES.length)]!;
      if (route.operation === 'revoke_api_key') continue; // would revoke the key the fuzzer uses
      const path = route.path.replace(/:\w+/g, () => ids[Math.floor(random() * ids.length)]!);
      const before = servers.hosted.state();
      const r = await fetch(`${servers.hosted.hosted.baseUrl}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${servers.hosted.hosted.apiKey}`, 'content-type': 'application/json' },
        ...(route.method === 'POST' || route.method === 'PUT' ? { body: body(random) } : {}),
      });
      const text = await r.text();
      expect(r.status, `${route.method} ${path} #${i}: ${text}`).toBeLessThan(500);
      if (r.status >= 400) {
        expect(JSON.parse(text), `${route.method} ${path} #${i}`).toMatchObject({ error: expect.any(String) });
        expect(servers.hosted.state(), `${route.method} ${path} #${i} changed the state`).toBe(before);
      }
    }
    expect(polluted()).toBe(false);
  });
});

describe('concurrency', () => {
  it('16 clients x 40 writes to the bridge reference: every message kept, in order per session', async () => {
    await fetch(`${servers.bridge.url}/clear_all_data`, { method: 'POST', body: '{}' });
    await Promise.all(
      Array.from({ length: 16 }, async (_, c) => {
        for (let i = 0; i < 40; i++) {
          const r = await fetch(`${servers.bridge.url}/add_message`, { method: 'POST', body: JSON.stringify({ session_id: `c${c % 4}`, role: 'user', content: `client ${c} message ${i}` }) });
          expect(r.status).toBe(200);
        }
      }),
    );
    const sessions = servers.bridge.store.snapshot().sessions;
    expect(sessions.map((s) => s.messages.length).reduce((a, b) => a + b, 0)).toBe(16 * 40);
    for (const s of sessions) {
      for (let c = 0; c < 16; c++) {
        const mine = s.messages.map((m) => m.content).filter((t) => t.startsWith(`client ${c} `));
        expect(mine).toEqual(mine.map((_, i) => `client ${c} message ${i}`));
      }
    }
  });

  it('8 clients x 25 writes to the hosted reference: every message kept', async () => {
    const conv = (await servers.hosted.call('POST', '/conversations', { body: { userId: 'u' } })).body as { id: string };
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; i < 25; i++) {
          const r = await servers.hosted.call('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: `c${c} m${i}` } });
          expect(r.status).toBe(201);
        }
      }),
    );
    const list = await servers.hosted.call('GET', `/conversations/${conv.id}/messages`);
    expect(JSON.stringify(list.body).match(/"content":"c\d m\d+"/g)).toHaveLength(200);
  });
});
