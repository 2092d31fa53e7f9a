// Issue 17, item 8: a "__proto__" key in user JSON round-trips exactly through both servers, and
// never changes a prototype (Object.prototype stays clean, stored objects stay plain).
import { describe, expect, it } from 'vitest';
import { bothServers } from './helpers.js';

const EVIL = '{"__proto__": {"polluted": 1}, "b": 2}';
const clean = () => expect(({} as Record<string, unknown>).polluted).toBeUndefined();

const servers = bothServers();

async function post(method: string, raw: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${servers.bridge.url}/${method}`, { method: 'POST', body: raw });
  return { status: r.status, text: await r.text() };
}

describe('bridge reference', () => {
  it('add_message metadata with __proto__ round-trips', async () => {
    const added = await post('add_message', `{"session_id": "p", "role": "user", "content": "hi", "metadata": ${EVIL}}`);
    expect(added.status).toBe(200);
    expect(added.text).toContain('"metadata":{"__proto__":{"polluted":1},"b":2}');
    const conv = await post('get_conversation', '{"session_id": "p"}');
    expect(conv.text).toContain('"metadata":{"__proto__":{"polluted":1},"b":2}');
    const parsed = JSON.parse(conv.text) as { messages: { metadata: object }[] };
    expect(Object.keys(parsed.messages[0]!.metadata)).toEqual(['__proto__', 'b']);
    clean();
  });

  it('tool-call arguments and relationship properties with __proto__ round-trip', async () => {
    const trace = JSON.parse((await post('start_trace', '{"session_id": "p", "task": "t"}')).text) as { id: string };
    const step = JSON.parse((await post('add_step', `{"trace_id": "${trace.id}", "thought": "x"}`)).text) as { id: string };
    const call = await post('record_tool_call', `{"step_id": "${step.id}", "tool_name": "t", "arguments": ${EVIL}}`);
    expect(call.status).toBe(200);
    expect(call.text).toContain('"arguments":{"__proto__":{"polluted":1},"b":2}');
    const a = JSON.parse((await post('add_entity', '{"name": "A", "entity_type": "PERSON"}')).text) as { id: string };
    const b = JSON.parse((await post('add_entity', '{"name": "B", "entity_type": "PERSON"}')).text) as { id: string };
    const rel = await post('add_relationship', `{"source_id": "${a.id}", "target_id": "${b.id}", "relationship_type": "KNOWS", "properties": ${EVIL}}`);
    expect(rel.status).toBe(200);
    expect(rel.text).toContain('"properties":{"__proto__":{"polluted":1},"b":2}');
    clean();
  });
});

describe('hosted reference', () => {
  it('conversation and message metadata with __proto__ round-trip', async () => {
    const headers = { authorization: `Bearer ${servers.hosted.hosted.apiKey}`, 'content-type': 'application/json' };
    const conv = await fetch(`${servers.hosted.hosted.baseUrl}/conversations`, { method: 'POST', headers, body: `{"userId": "u", "metadata": ${EVIL}}` });
    const convText = await conv.text();
    expect(conv.status).toBe(201);
    expect(convText).toContain('"metadata":{"__proto__":{"polluted":1},"b":2}');
    const id = (JSON.parse(convText) as { id: string }).id;
    const msg = await fetch(`${servers.hosted.hosted.baseUrl}/conversations/${id}/messages`, {
      method: 'POST', headers, body: `{"role": "user", "content": "hi", "metadata": ${EVIL}}`,
    });
    expect(msg.status).toBe(201);
    const list = await fetch(`${servers.hosted.hosted.baseUrl}/conversations/${id}/messages`, { headers });
    expect(await list.text()).toContain('"metadata":{"__proto__":{"polluted":1},"b":2}');
    const again = await fetch(`${servers.hosted.hosted.baseUrl}/conversations/${id}`, { headers });
    expect(await again.text()).toContain('"metadata":{"__proto__":{"polluted":1},"b":2}');
    clean();
  });

  it('a form-encoded __proto__ field pollutes nothing', async () => {
    const r = await fetch(`${servers.hosted.hosted.baseUrl}/auth/refresh`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '__proto__[polluted]=1&refreshToken=x',
    });
    expect(r.status).toBe(401);
    clean();
  });
});
