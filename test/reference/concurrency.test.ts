// 16 clients write at once, each to its own session and to 2 shared sessions: nothing is lost and
// each client's messages keep its order in every session.
import { Agent, request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/servers/bridge/index.js';

const CLIENTS = 16;
const PER_SESSION = 50;
const SHARED = ['shared-a', 'shared-b'];

let server: RunningReferenceServer;
let agent: Agent;

beforeAll(async () => {
  server = await startReferenceServer();
  agent = new Agent({ connections: CLIENTS * 2 });
});
afterAll(async () => {
  await agent.close();
  await server.close();
});

async function post(method: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await request(`${server.url}/${method}`, {
    method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, dispatcher: agent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text === '' ? undefined : JSON.parse(text) };
}

it(`${CLIENTS} concurrent clients lose nothing and keep their order`, async () => {
  const writer = async (client: number) => {
    const own = `own-${client}`;
    // Interleave: own session, then each shared session, PER_SESSION times; one request in flight
    // per client, so the client's own order is well defined.
    for (let i = 0; i < PER_SESSION; i++) {
      for (const session_id of [own, ...SHARED]) {
        const r = await post('add_message', { session_id, role: 'user', content: `c${client}-m${i}`, metadata: { client, i } });
        expect(r.status).toBe(200);
      }
    }
  };
  // And readers at the same time, which must never see a broken state.
  let writing = true;
  const reader = async () => {
    while (writing) {
      const r = await post('list_sessions', {});
      expect(r.status).toBe(200);
      for (const s of r.body) expect(s.message_count).toBeGreaterThanOrEqual(0);
    }
  };
  const readers = [reader(), reader()];
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => writer(c)));
  writing = false;
  await Promise.all(readers);

  const sessions = (await post('list_sessions', {})).body as { session_id: string; message_count: number }[];
  expect(sessions).toHaveLength(CLIENTS + SHARED.length);
  for (const s of sessions) expect(s.message_count).toBe(s.session_id.startsWith('own-') ? PER_SESSION : CLIENTS * PER_SESSION);

  for (let c = 0; c < CLIENTS; c++) {
    const conv = (await post('get_conversation', { session_id: `own-${c}` })).body;
    expect(conv.messages.map((m: { content: string }) => m.content)).toEqual(Array.from({ length: PER_SESSION }, (_, i) => `c${c}-m${i}`));
  }
  for (const session_id of SHARED) {
    const conv = (await post('get_conversation', { session_id })).body;
    expect(conv.messages).toHaveLength(CLIENTS * PER_SESSION);
    const ids = new Set(conv.messages.map((m: { id: string }) => m.id));
    expect(ids.size).toBe(CLIENTS * PER_SESSION);
    let last = '';
    for (const m of conv.messages) {
      expect(m.timestamp >= last).toBe(true);
      last = m.timestamp;
    }
    for (let c = 0; c < CLIENTS; c++) {
      const mine = conv.messages.filter((m: { metadata: { client: number } }) => m.metadata.client === c);
      expect(mine.map((m: { metadata: { i: number } }) => m.metadata.i)).toEqual(Array.from({ length: PER_SESSION }, (_, i) => i));
    }
  }
});
