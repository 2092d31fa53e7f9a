// Lifecycle and short-term memory (Bronze) of the reference server, over real HTTP.
import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore, startReferenceServer } from '../../src/servers/bridge/index.js';
import { ISO_Z_MS_RE, UUID_RE, ok, post, useReferenceServer } from './helpers.js';

const ref = useReferenceServer();
const { call } = ref;

describe('lifecycle', () => {
  it('setup answers {ok: true} with the protocol version', async () => {
    const r = await post(ref.server.url, 'setup', {});
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toEqual({ ok: true, protocol_version: '0.1.0' });
  });

  it('teardown answers 204 with no body and keeps the data', async () => {
    await call('add_message', { session_id: 's', role: 'user', content: 'kept' });
    const r = await post(ref.server.url, 'teardown', {});
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await call('get_conversation', { session_id: 's' })).messages).toHaveLength(1);
  });

  it('clear_all_data answers 204 and empties everything', async () => {
    await call('add_message', { session_id: 's', role: 'user', content: 'x' });
    const e = await call('add_entity', { name: 'Ada', entity_type: 'PERSON' });
    await call('add_preference', { category: 'ui', preference: 'dark mode' });
    await call('add_fact', { subject: 'a', predicate: 'b', obj: 'c' });
    const t = await call('start_trace', { session_id: 's', task: 'do it' });
    const st = await call('add_step', { trace_id: t.id, thought: 'hm' });
    await call('record_tool_call', { step_id: st.id, tool_name: 'grep', arguments: {} });
    const r = await post(ref.server.url, 'clear_all_data', {});
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(await call('list_sessions')).toEqual([]);
    expect(await call('get_entity_by_name', { name: 'Ada' })).toBeNull();
    expect(await call('search_preferences', { query: 'dark mode' })).toEqual([]);
    expect(await call('list_traces')).toEqual([]);
    expect(await call('get_tool_stats')).toEqual([]);
    expect(await call('get_trace_with_steps', { trace_id: t.id })).toBeNull();
    expect((await post(ref.server.url, 'get_related_entities', { entity_id: e.id })).status).toBe(400);
    expect(ref.server.store.snapshot()).toEqual({ sessions: [], entities: [], preferences: [], facts: [], traces: [], relationships: [] });
  });

  it('an empty body counts as {}', async () => {
    const r = await post(ref.server.url, 'setup', undefined, { raw: '' });
    expect(r.status).toBe(200);
    expect((await post(ref.server.url, 'list_sessions', undefined, { raw: '  \n' })).body).toEqual([]);
  });
});

describe('add_message', () => {
  it('returns the message exactly as sent, with id, timestamp, metadata and embedding null', async () => {
    const content = '  Héllo 👋\n"quoted" \\ <tag> \u0000 end  ';
    const m = await call('add_message', { session_id: 's1', role: 'assistant', content, metadata: { a: [1, { b: null }], c: 'd' } });
    expect(m.id).toMatch(UUID_RE);
    expect(m.role).toBe('assistant');
    expect(m.content).toBe(content);
    expect(m.timestamp).toMatch(ISO_Z_MS_RE);
    expect(m.metadata).toEqual({ a: [1, { b: null }], c: 'd' });
    expect(m.embedding).toBeNull();
  });

  it('defaults metadata to {} and accepts every role, reads null as absent', async () => {
    for (const role of ['user', 'assistant', 'system']) {
      const m = await call('add_message', { session_id: 's', role, content: role, metadata: null });
      expect(m.metadata).toEqual({});
      expect(m.role).toBe(role);
    }
  });

  it("creates the session's conversation on the first message, with a stable id", async () => {
    const before = await call('get_conversation', { session_id: 'new' });
    await call('add_message', { session_id: 'new', role: 'user', content: 'one' });
    const c1 = await call('get_conversation', { session_id: 'new' });
    await call('add_message', { session_id: 'new', role: 'user', content: 'two' });
    const c2 = await call('get_conversation', { session_id: 'new' });
    expect(c1.id).toMatch(UUID_RE);
    expect(c2.id).toBe(c1.id);
    expect(before.id).toBe(c1.id); // the id reserved by the read is kept
    expect(c2.created_at).toBe(c1.created_at);
    expect(c2.session_id).toBe('new');
    expect(c2.title).toBeNull();
    expect(c2.updated_at).toBe(c2.messages[1].timestamp);
  });

  it('keeps insertion order and unique ids', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await call('add_message', { session_id: 's', role: 'user', content: `m${i}` })).id);
    const c = await call('get_conversation', { session_id: 's' });
    expect(c.messages.map((m: { id: string }) => m.id)).toEqual(ids);
    expect(c.messages.map((m: { content: string }) => m.content)).toEqual(ids.map((_, i) => `m${i}`));
    expect(new Set(ids).size).toBe(30);
  });
});

describe('timestamps with an injected clock', () => {
  it('never decrease within a session when the clock steps back; completed_at >= started_at', async () => {
    const times = [Date.UTC(2025, 0, 1, 12), Date.UTC(2025, 0, 1, 11), Date.UTC(2025, 0, 1, 13), Date.UTC(2024, 0, 1)];
    let i = 0;
    let n = 0;
    const store = new MemoryStore({
      now: () => new Date(times[Math.min(i++, times.length - 1)]!),
      newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    });
    const s = await startReferenceServer({ store });
    try {
      const c = ok(s.url);
      const a = await c('add_message', { session_id: 's', role: 'user', content: 'a' }); // 12:00
      const b = await c('add_message', { session_id: 's', role: 'user', content: 'b' }); // clock says 11:00
      const d = await c('add_message', { session_id: 's', role: 'user', content: 'c' }); // 13:00
      expect(a.id).toBe('00000000-0000-4000-8000-000000000001');
      expect(a.timestamp).toBe('2025-01-01T12:00:00.000Z');
      expect(b.timestamp).toBe('2025-01-01T12:00:00.000Z');
      expect(d.timestamp).toBe('2025-01-01T13:00:00.000Z');
      i = 2;
      const t = await c('start_trace', { session_id: 's', task: 't' }); // 13:00
      const done = await c('complete_trace', { trace_id: t.id }); // clock says 2024
      expect(t.started_at).toBe('2025-01-01T13:00:00.000Z');
      expect(done.completed_at).toBe('2025-01-01T13:00:00.000Z');
    } finally {
      await s.close();
    }
  });
});

describe('get_conversation', () => {
  it('of an unknown session is an empty conversation and does not create the session', async () => {
    const c = await call('get_conversation', { session_id: 'nobody' });
    expect(c.id).toMatch(UUID_RE);
    expect(c.session_id).toBe('nobody');
    expect(c.messages).toEqual([]);
    expect((await call('get_conversation', { session_id: 'nobody' })).id).toBe(c.id);
    expect(await call('list_sessions')).toEqual([]);
  });

  it('with limit returns the last N messages in chronological order', async () => {
    for (let i = 0; i < 5; i++) await call('add_message', { session_id: 's', role: 'user', content: `m${i}` });
    const contents = async (limit?: number) =>
      (await call('get_conversation', { session_id: 's', ...(limit === undefined ? {} : { limit }) })).messages.map(
        (m: { content: string }) => m.content,
      );
    expect(await contents(2)).toEqual(['m3', 'm4']);
    expect(await contents(1)).toEqual(['m4']);
    expect(await contents(0)).toEqual([]);
    expect(await contents(5)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(await contents(50)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    expect(await contents()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
  });
});

describe('search_messages', () => {
  beforeEach(async () => {
    await call('add_message', { session_id: 'a', role: 'user', content: 'I love Python programming' });
    await call('add_message', { session_id: 'a', role: 'user', content: 'The weather in Paris is sunny' });
    await call('add_message', { session_id: 'b', role: 'user', content: 'python snakes are dangerous' });
    await call('add_message', { session_id: 'b', role: 'assistant', content: 'Python programming' });
  });
  const contents = (ms: { content: string }[]) => ms.map((m) => m.content);

  it('ranks by relevance (best first) across sessions', async () => {
    const r = await call('search_messages', { query: 'python programming' });
    expect(contents(r)).toEqual(['Python programming', 'I love Python programming', 'python snakes are dangerous']);
  });

  it('restricts to one session with session_id', async () => {
    expect(contents(await call('search_messages', { query: 'python', session_id: 'b' }))).toEqual([
      'Python programming', 'python snakes are dangerous',
    ]);
    expect(await call('search_messages', { query: 'python', session_id: 'nope' })).toEqual([]);
  });

  it('honours limit', async () => {
    expect(await call('search_messages', { query: 'python', limit: 2 })).toHaveLength(2);
    expect(await call('search_messages', { query: 'python', limit: 0 })).toEqual([]);
  });

  it('returns nothing for an unrelated query, and at threshold 0.99 only exact matches', async () => {
    expect(await call('search_messages', { query: 'quantum chromodynamics' })).toEqual([]);
    expect(await call('search_messages', { query: 'quantum chromodynamics', threshold: 0.99 })).toEqual([]);
    expect(contents(await call('search_messages', { query: 'python PROGRAMMING!', threshold: 0.99 }))).toEqual(['Python programming']);
    expect(await call('search_messages', { query: 'paris', threshold: 0.99 })).toEqual([]);
    expect(contents(await call('search_messages', { query: 'paris', threshold: 0 }))).toEqual(['The weather in Paris is sunny']);
  });

  it('returns [] on an empty store', async () => {
    await call('clear_all_data');
    expect(await call('search_messages', { query: 'python' })).toEqual([]);
  });
});

describe('list_sessions', () => {
  it('lists sessions in creation order with exact counts, also after deletions', async () => {
    const m1 = await call('add_message', { session_id: 'first', role: 'user', content: '1' });
    await call('add_message', { session_id: 'second', role: 'user', content: '1' });
    await call('add_message', { session_id: 'first', role: 'user', content: '2' });
    await call('add_message', { session_id: 'third', role: 'user', content: '1' });
    let list = await call('list_sessions');
    expect(list.map((s: { session_id: string; message_count: number }) => [s.session_id, s.message_count])).toEqual([
      ['first', 2], ['second', 1], ['third', 1],
    ]);
    expect(list[0].created_at).toBe(m1.timestamp);
    await call('delete_message', { message_id: m1.id });
    list = await call('list_sessions');
    expect(list[0]).toMatchObject({ session_id: 'first', message_count: 1 });
    expect((await call('list_sessions', { limit: 2 })).map((s: { session_id: string }) => s.session_id)).toEqual(['first', 'second']);
    expect(await call('list_sessions', { limit: 0 })).toEqual([]);
  });

  it('keeps a session whose messages were all deleted (count 0) until clear_session', async () => {
    const m = await call('add_message', { session_id: 'solo', role: 'user', content: 'x' });
    await call('delete_message', { message_id: m.id });
    expect(await call('list_sessions')).toMatchObject([{ session_id: 'solo', message_count: 0 }]);
    await call('clear_session', { session_id: 'solo' });
    expect(await call('list_sessions')).toEqual([]);
  });
});

describe('delete_message', () => {
  it('deletes once, then answers deleted: false; the order of the rest is kept', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await call('add_message', { session_id: 's', role: 'user', content: `m${i}` })).id);
    expect(await call('delete_message', { message_id: ids[1] })).toEqual({ deleted: true });
    expect(await call('delete_message', { message_id: ids[1] })).toEqual({ deleted: false });
    const c = await call('get_conversation', { session_id: 's' });
    expect(c.messages.map((m: { content: string }) => m.content)).toEqual(['m0', 'm2', 'm3']);
    expect(await call('search_messages', { query: 'm1' })).toEqual([]);
  });

  it('answers deleted: false for an unknown or non-UUID id', async () => {
    expect(await call('delete_message', { message_id: '00000000-0000-4000-8000-000000000000' })).toEqual({ deleted: false });
    expect(await call('delete_message', { message_id: 'not-a-uuid' })).toEqual({ deleted: false });
  });
});

describe('clear_session', () => {
  it('removes only that session, is idempotent and accepts unknown sessions', async () => {
    await call('add_message', { session_id: 'gone', role: 'user', content: 'secret words' });
    await call('add_message', { session_id: 'kept', role: 'user', content: 'other words' });
    const keptBefore = await call('get_conversation', { session_id: 'kept' });
    const goneId = (await call('get_conversation', { session_id: 'gone' })).id;
    for (let i = 0; i < 2; i++) {
      const r = await post(ref.server.url, 'clear_session', { session_id: 'gone' });
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
    }
    expect((await post(ref.server.url, 'clear_session', { session_id: 'never-existed' })).status).toBe(204);
    expect((await call('get_conversation', { session_id: 'gone' })).messages).toEqual([]);
    expect((await call('get_conversation', { session_id: 'gone' })).id).not.toBe(goneId);
    expect(await call('get_conversation', { session_id: 'kept' })).toEqual(keptBefore);
    expect((await call('list_sessions')).map((s: { session_id: string }) => s.session_id)).toEqual(['kept']);
    expect(await call('search_messages', { query: 'words' })).toHaveLength(1);
  });
});
