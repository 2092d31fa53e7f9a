// Bad input: every rejected request gets the documented status with {"error": string} naming the
// parameter, the server keeps answering and the stored data is unchanged afterwards.
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_BODY_BYTES, MemoryStore, createDispatcher, startBridgeServer, startReferenceServer, type RunningReferenceServer,
} from '../../src/servers/bridge/index.js';
import { ok, post } from './helpers.js';

let server: RunningReferenceServer;
let call: ReturnType<typeof ok>;
const ids: Record<string, string> = {};
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

beforeAll(async () => {
  server = await startReferenceServer();
  call = ok(server.url);
  await call('add_message', { session_id: 'keep', role: 'user', content: 'hello world', metadata: { k: 1 } });
  await call('add_message', { session_id: 'keep', role: 'assistant', content: 'hi there' });
  ids.e1 = (await call('add_entity', { name: 'E1', entity_type: 'PERSON' })).id;
  ids.e2 = (await call('add_entity', { name: 'E2', entity_type: 'OBJECT' })).id;
  await call('add_relationship', { source_id: ids.e1, target_id: ids.e2, relationship_type: 'OWNS' });
  await call('add_preference', { category: 'ui', preference: 'dark mode' });
  await call('add_fact', { subject: 's', predicate: 'p', obj: 'o' });
  ids.trace = (await call('start_trace', { session_id: 'keep', task: 'task' })).id;
  ids.step = (await call('add_step', { trace_id: ids.trace, thought: 't' })).id;
  await call('record_tool_call', { step_id: ids.step, tool_name: 'tool', arguments: {}, duration_ms: 5 });
});
afterAll(() => server.close());

// [method, body, expected error prefix]; every case must answer 400.
const CASES: [string, () => unknown, RegExp][] = [
  ['add_message', () => ({ role: 'user', content: 'x' }), /^session_id: is missing/],
  ['add_message', () => ({ session_id: 'keep', content: 'x' }), /^role: is missing/],
  ['add_message', () => ({ session_id: 'keep', role: 'user' }), /^content: is missing/],
  ['add_message', () => ({ session_id: 'keep', role: 'bogus', content: 'x' }), /^role: "bogus" is not a role \(user, assistant, system\)$/],
  ['add_message', () => ({ session_id: 'keep', role: 'USER', content: 'x' }), /^role: /],
  ['add_message', () => ({ session_id: 7, role: 'user', content: 'x' }), /^session_id: expected string, got 7/],
  ['add_message', () => ({ session_id: 'keep', role: 'user', content: ['x'] }), /^content: /],
  ['add_message', () => ({ session_id: 'keep', role: 'user', content: 'x', metadata: [1] }), /^metadata: /],
  ['add_message', () => ({ session_id: 'keep', role: 'user', content: 'x', metadata: 'm' }), /^metadata: /],
  ['get_conversation', () => ({ session_id: 'keep', limit: -1 }), /^limit: /],
  ['get_conversation', () => ({ session_id: 'keep', limit: 1.5 }), /^limit: /],
  ['get_conversation', () => ({ session_id: 'keep', limit: '2' }), /^limit: /],
  ['get_conversation', () => ({ session_id: 'keep', limit: 1e308 }), /^limit: /],
  ['search_messages', () => ({}), /^query: is missing/],
  ['search_messages', () => ({ query: 'x', threshold: 'high' }), /^threshold: /],
  ['search_messages', () => ({ query: 'x', session_id: {} }), /^session_id: /],
  ['list_sessions', () => ({ limit: true }), /^limit: /],
  ['delete_message', () => ({}), /^message_id: is missing/],
  ['delete_message', () => ({ message_id: 12 }), /^message_id: /],
  ['clear_session', () => ({}), /^session_id: is missing/],
  ['clear_session', () => ({ session_id: null }), /^session_id: /],
  ['add_entity', () => ({ name: 'x', entity_type: 'person' }), /^entity_type: "person" is not a/],
  ['add_entity', () => ({ name: 'x' }), /^entity_type: is missing/],
  ['add_entity', () => ({ entity_type: 'PERSON' }), /^name: is missing/],
  ['add_entity', () => ({ name: 'x', entity_type: 'PERSON', description: 5 }), /^description: /],
  ['add_preference', () => ({ category: 'c' }), /^preference: is missing/],
  ['add_fact', () => ({ subject: 's', predicate: 'p', object: 'o' }), /^obj: is missing/],
  ['search_entities', () => ({ query: 1 }), /^query: /],
  ['search_preferences', () => ({ query: 'q', category: 1 }), /^category: /],
  ['get_entity_by_name', () => ({}), /^name: is missing/],
  ['get_related_entities', () => ({ entity_id: UNKNOWN }), /^entity_id: no entity/],
  ['get_related_entities', () => ({ entity_id: 'abc' }), /^entity_id: "abc" is not a UUID/],
  ['get_related_entities', () => ({ entity_id: ids.e1, depth: 0 }), /^depth: /],
  ['start_trace', () => ({ session_id: 'keep' }), /^task: is missing/],
  ['add_step', () => ({ trace_id: UNKNOWN, thought: 'x' }), /^trace_id: no trace/],
  ['add_step', () => ({ trace_id: ids.trace, thought: 1 }), /^thought: /],
  ['add_step', () => ({}), /^trace_id: is missing/],
  ['record_tool_call', () => ({ step_id: UNKNOWN, tool_name: 't', arguments: {} }), /^step_id: no step/],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't' }), /^arguments: is missing/],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't', arguments: [] }), /^arguments: /],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't', arguments: {}, status: 'ok' }), /^status: "ok" is not a tool-call status/],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't', arguments: {}, status: 'SUCCESS' }), /^status: /],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't', arguments: {}, duration_ms: -5 }), /^duration_ms: /],
  ['record_tool_call', () => ({ step_id: ids.step, tool_name: 't', arguments: {}, duration_ms: 2.5 }), /^duration_ms: /],
  ['complete_trace', () => ({ trace_id: UNKNOWN, success: true }), /^trace_id: no trace/],
  ['complete_trace', () => ({ trace_id: ids.trace, success: 'yes' }), /^success: /],
  ['get_trace_with_steps', () => ({ trace_id: 5 }), /^trace_id: /],
  ['list_traces', () => ({ session_id: 5 }), /^session_id: /],
  ['get_tool_stats', () => ({ tool_name: [] }), /^tool_name: /],
  ['add_relationship', () => ({ source_id: ids.e1, target_id: UNKNOWN, relationship_type: 'R' }), /^target_id: no entity/],
  ['add_relationship', () => ({ source_id: ids.e1, target_id: ids.e2 }), /^relationship_type: is missing/],
  ['add_relationship', () => ({ source_id: ids.e1, target_id: ids.e2, relationship_type: 'R', properties: 'p' }), /^properties: /],
  ['merge_duplicate_entities', () => ({ source_id: UNKNOWN, target_id: ids.e2 }), /^source_id: no entity/],
  ['merge_duplicate_entities', () => ({ source_id: ids.e1, target_id: ids.e1 }), /^target_id: must differ/],
  ['get_similar_traces', () => ({ task: 't', success_only: 'true' }), /^success_only: /],
  ['get_similar_traces', () => ({ task: 't', limit: -2 }), /^limit: /],
];

describe('parameter errors', () => {
  it.each(CASES.map(([m, body, re], i) => [`${i} ${m}`, m, body, re] as const))('%s -> 400', async (_name, method, body, re) => {
    const before = server.store.snapshot();
    const r = await post(server.url, method, body());
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toEqual({ error: expect.any(String) });
    expect(r.body.error).toMatch(re);
    expect(server.store.snapshot()).toEqual(before);
  });

  it('reports every bad parameter of a request', async () => {
    const r = await post(server.url, 'add_message', { role: 'x' });
    expect(r.body.error).toContain('session_id: is missing');
    expect(r.body.error).toContain('role: "x" is not a role');
    expect(r.body.error).toContain('content: is missing');
  });

  it('ignores unknown extra parameters and reads null as absent', async () => {
    const r = await post(server.url, 'get_conversation', { session_id: 'keep', limit: null, extra: { deep: [1] } });
    expect(r.status).toBe(200);
    expect(r.body.messages).toHaveLength(2);
  });
});

describe('deeply nested values', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  it.each([
    ['add_message', (v: string) => `{"session_id": "keep", "role": "user", "content": "x", "metadata": {"a": ${v}}}`, /^metadata: nested more than 512 levels deep$/],
    ['add_message', (v: string) => `{"session_id": "keep", "role": ${v}, "content": "x"}`, /^role: nested more than/],
    ['add_message', (v: string) => `{"session_id": ${v}, "role": "user", "content": "x"}`, /^session_id: nested more than/],
    ['record_tool_call', (v: string) => `{"step_id": "${UNKNOWN}", "tool_name": "t", "arguments": {}, "result": ${v}}`, /^result: nested more than/],
  ] as const)('%s with a value nested 100 000 levels deep -> 400 (not 500)', async (method, body, re) => {
    const before = server.store.snapshot();
    for (const n of [513, 100_000]) {
      const r = await post(server.url, method, undefined, { raw: body(deep(n)) });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(re);
    }
    expect(server.store.snapshot()).toEqual(before);
  });

  it('512 levels are stored and read back; a deep unknown parameter is refused too (issue 25: it was parsed, then ignored)', async () => {
    const junk = await post(server.url, 'add_message', undefined, {
      raw: `{"session_id": "deep", "role": "user", "content": "x", "metadata": {"a": ${deep(511)}}, "junk": ${deep(100_000)}}`,
    });
    expect(junk.status).toBe(400);
    expect(junk.body.error).toBe('junk: nested more than 512 levels deep');
    const r = await post(server.url, 'add_message', undefined, {
      raw: `{"session_id": "deep", "role": "user", "content": "x", "metadata": {"a": ${deep(511)}}, "junk": ${deep(512)}}`,
    });
    expect(r.status).toBe(200);
    const conv = await call('get_conversation', { session_id: 'deep' });
    expect(JSON.stringify(conv.messages[0].metadata)).toBe(`{"a":${deep(511)}}`);
    await call('clear_session', { session_id: 'deep' });
  });
});

describe('body errors', () => {
  const bodies: [string, string | Uint8Array, RegExp][] = [
    ['invalid JSON', '{"session_id": ', /^body is not valid JSON: /],
    ['trailing garbage', '{"a":1} x', /^body is not valid JSON: /],
    ['an array', '[{"session_id": "keep"}]', /^body must be a JSON object of parameters, got an array$/],
    ['a number', '42', /got a number$/],
    ['null', 'null', /got null$/],
    ['a string', '"x"', /got a string$/],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), /^body is not valid UTF-8$/],
  ];
  it.each(bodies)('%s -> 400', async (_name, raw, re) => {
    const before = server.store.snapshot();
    for (const method of ['add_message', 'clear_all_data', 'setup']) {
      const r = await post(server.url, method, undefined, { raw });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(re);
    }
    expect(server.store.snapshot()).toEqual(before);
  });
});

describe('transport errors', () => {
  it('unknown method path -> 404 naming it', async () => {
    for (const [path, name] of [['foo', 'foo'], ['', ''], ['add_message/x', 'add_message/x'], ['ADD_MESSAGE', 'ADD_MESSAGE'], ['__proto__', '__proto__'], ['toString', 'toString']] as const) {
      const r = await post(server.url, path, { session_id: 'keep', role: 'user', content: 'x' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: `unknown method: ${name}` });
    }
  });

  it('a query string is ignored', async () => {
    expect((await post(server.url, 'setup?x=1', {})).status).toBe(200);
  });

  it('GET, PUT, DELETE -> 405 with Allow: POST', async () => {
    for (const httpMethod of ['GET', 'PUT', 'DELETE'] as const) {
      const r = await post(server.url, 'list_sessions', {}, { httpMethod, check: false });
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('POST');
      expect(r.body).toEqual({ error: expect.any(String) });
    }
  });

  it('a body over 16 MiB -> 413 (declared length or streamed), then the server still answers', async () => {
    const before = server.store.snapshot();
    const big = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
    const r1 = await request(`${server.url}/add_message`, { method: 'POST', body: big });
    expect(r1.statusCode).toBe(413);
    expect(await r1.body.json()).toEqual({ error: expect.any(String) });
    const chunk = Buffer.alloc(1 << 20, 0x20);
    for (let round = 0; round < 5; round++) {
      // Streamed (chunked, no length): the 413 must arrive even though the client is still writing.
      const r2 = await request(`${server.url}/add_message`, {
        method: 'POST',
        body: Readable.from((function* () { for (let i = 0; i < 24; i++) yield chunk; })()),
      });
      expect(r2.statusCode).toBe(413);
      expect(await r2.body.json()).toEqual({ error: expect.any(String) });
    }
    expect((await post(server.url, 'setup', {})).status).toBe(200);
    expect(server.store.snapshot()).toEqual(before);
  });

  it('a body of exactly 16 MiB is accepted', async () => {
    const body = JSON.stringify({ session_id: 'big', role: 'user', content: '' });
    const padded = body + ' '.repeat(MAX_BODY_BYTES - body.length);
    const r = await post(server.url, 'add_message', undefined, { raw: padded });
    expect(r.status).toBe(200);
    await call('clear_session', { session_id: 'big' });
  });

  it('an exception in the dispatcher -> 500 {"error"}, and the server keeps running', async () => {
    const store = new MemoryStore();
    const inner = createDispatcher(store);
    let mode = 'throw';
    const s = await startBridgeServer((method, body) => {
      if (mode === 'throw') throw new Error('boom');
      if (mode === 'reject') return Promise.reject(new Error('async boom'));
      if (mode === 'unserialisable') return { status: 200, body: { n: 1n } };
      return inner(method, body);
    });
    try {
      for (const m of ['throw', 'reject', 'unserialisable']) {
        mode = m;
        const r = await post(s.url, 'setup', {});
        expect(r.status).toBe(500);
        expect(r.body).toEqual({ error: expect.stringContaining('internal error') });
      }
      mode = 'ok';
      expect((await post(s.url, 'setup', {})).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('the dispatcher answers 500 for an exception of the store, 404 for an unknown method', () => {
    const store = new MemoryStore({ newId: () => { throw new Error('no ids today'); } });
    const d = createDispatcher(store);
    expect(d('add_entity', { name: 'x', entity_type: 'PERSON' })).toEqual({ status: 500, body: { error: 'internal error in add_entity: no ids today' } });
    expect(d('add_message', { session_id: 's', role: 'user', content: 'x' }).status).toBe(500);
    expect(store.snapshot().sessions).toEqual([]); // nothing half-written
    expect(d('nope', {})).toEqual({ status: 404, body: { error: 'unknown method: nope' } });
    expect(d('setup', undefined)).toEqual({ status: 200, body: { ok: true, protocol_version: '0.1.0' } });
  });

  it('a deeply nested non-object body -> 400', async () => {
    const r = await post(server.url, 'add_message', undefined, { raw: '['.repeat(100_000) + ']'.repeat(100_000) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/got an array$/);
    const d = createDispatcher(new MemoryStore());
    expect(d('add_message', JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))).status).toBe(400);
  });

  it('keeps the connection alive across 400s', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await post(server.url, 'add_message', undefined, { raw: '{' });
      expect(r.status).toBe(400);
      expect(r.headers.connection).toBe('keep-alive');
    }
  });
});
