// MemoryStore and createDispatcher used directly: isolation of the state from callers, the
// injectable id factory, and the dispatcher's mapping of response kinds.
import { describe, expect, it } from 'vitest';
import { METHODS, METHOD_NAMES } from '../../src/protocols/bridge/index.js';
import { MemoryStore, createDispatcher, startReferenceServer } from '../../src/servers/bridge/index.js';
import { ok } from './helpers.js';

describe('MemoryStore', () => {
  it('never shares objects with its callers', () => {
    const store = new MemoryStore();
    const d = createDispatcher(store);
    const metadata = { nested: { n: 1 } };
    const m = d('add_message', { session_id: 's', role: 'user', content: 'x', metadata }).body as { metadata: { nested: { n: number } } };
    metadata.nested.n = 2; // the caller's input
    m.metadata.nested.n = 3; // the returned copy
    const conv = d('get_conversation', { session_id: 's' }).body as { messages: { metadata: unknown }[] };
    expect(conv.messages[0]!.metadata).toEqual({ nested: { n: 1 } });
    conv.messages.length = 0;
    expect((d('get_conversation', { session_id: 's' }).body as { messages: unknown[] }).messages).toHaveLength(1);
    const snap = store.snapshot();
    snap.sessions.length = 0;
    expect(store.snapshot().sessions).toHaveLength(1);
  });

  it('uses the injected id factory for every id', () => {
    let n = 0;
    const store = new MemoryStore({ newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}` });
    const d = createDispatcher(store);
    const e = d('add_entity', { name: 'x', entity_type: 'PERSON' }).body as { id: string };
    expect(e.id).toBe('00000000-0000-4000-8000-000000000001');
    const m = d('add_message', { session_id: 's', role: 'user', content: 'x' }).body as { id: string };
    expect(m.id).toBe('00000000-0000-4000-8000-000000000002');
    // A conversation id is derived (UUID v5) in a namespace the factory gives: the same factory, the same ids.
    const conversation = (d('get_conversation', { session_id: 's' }).body as { id: string }).id;
    expect(conversation).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    let k = 0;
    const again = new MemoryStore({ newId: () => `00000000-0000-4000-8000-${String(++k).padStart(12, '0')}` });
    again.add_entity({ name: 'x', entity_type: 'PERSON' });
    again.add_message({ session_id: 's', role: 'user', content: 'x' });
    expect(again.get_conversation({ session_id: 's' }).id).toBe(conversation);
  });

  it('keeps an own "__proto__" key of a JSON value intact', async () => {
    const server = await startReferenceServer();
    try {
      const call = ok(server.url);
      const t = await call('start_trace', { session_id: 's', task: 't' });
      const st = await call('add_step', { trace_id: t.id });
      const res = await fetch(`${server.url}/record_tool_call`, {
        method: 'POST',
        body: `{"step_id": "${st.id}", "tool_name": "x", "arguments": {}, "result": {"__proto__": {"polluted": true}, "a": 1}}`,
      });
      const text = await res.text();
      expect(text).toContain('"result":{"__proto__":{"polluted":true},"a":1}');
      expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
      const got = await call('get_trace_with_steps', { trace_id: t.id });
      expect(Object.keys(got.steps[0].tool_calls[0].result)).toEqual(['__proto__', 'a']);
    } finally {
      await server.close();
    }
  });
});

describe('createDispatcher', () => {
  it('maps each response kind: object 200, list 200 array, deleted 200, void 204, object-or-null 200 null', () => {
    const d = createDispatcher(new MemoryStore());
    const minimal: Record<string, unknown> = {
      add_message: { session_id: 's', role: 'user', content: 'c' }, get_conversation: { session_id: 's' }, search_messages: { query: 'q' },
      delete_message: { message_id: 'm' }, clear_session: { session_id: 's' }, add_entity: { name: 'n', entity_type: 'EVENT' },
      add_preference: { category: 'c', preference: 'p' }, add_fact: { subject: 's', predicate: 'p', obj: 'o' }, search_entities: { query: 'q' },
      search_preferences: { query: 'q' }, get_entity_by_name: { name: 'nobody' }, start_trace: { session_id: 's', task: 't' },
      get_trace_with_steps: { trace_id: 'none' }, get_similar_traces: { task: 't' },
    };
    for (const method of METHOD_NAMES) {
      const r = d(method, minimal[method] ?? {});
      // MemoryStore is the Bronze–Gold reference: the optional Platinum methods are not implemented.
      if (METHODS[method].tier === 'platinum') {
        expect({ method, status: r.status, error: (r.body as { error: string }).error }).toEqual({ method, status: 501, error: `not implemented: ${method} (an optional platinum method)` });
        continue;
      }
      if (r.status === 400) continue; // needs existing ids: covered by the HTTP tests
      const kind = METHODS[method].kind;
      if (kind === 'void') expect(r, method).toEqual({ status: 204 });
      else if (kind === 'list') expect(Array.isArray(r.body), method).toBe(true);
      else if (kind === 'deleted') expect(r.body, method).toEqual({ deleted: false });
      else if (kind === 'object-or-null') expect(r, method).toEqual({ status: 200, body: null });
      else expect(typeof r.body, method).toBe('object');
      if (kind !== 'void') expect(r.status, method).toBe(200);
    }
  });
});
