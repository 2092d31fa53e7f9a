// Long-term memory and reasoning memory (Silver) of the reference server, over real HTTP.
import { beforeEach, describe, expect, it } from 'vitest';
import { ISO_Z_MS_RE, UUID_RE, post, useReferenceServer } from './helpers.js';

const ref = useReferenceServer();
const { call } = ref;

const names = (es: { name: string }[]) => es.map((e) => e.name);

describe('entities', () => {
  it('add_entity returns the full entity for every type', async () => {
    for (const type of ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT', 'OBJECT']) {
      const e = await call('add_entity', { name: `n-${type}`, entity_type: type, description: `a ${type}` });
      expect(e).toEqual({
        id: expect.stringMatching(UUID_RE), name: `n-${type}`, type, subtype: null, description: `a ${type}`,
        embedding: null, canonical_name: null, created_at: expect.stringMatching(ISO_Z_MS_RE),
      });
    }
    expect((await call('add_entity', { name: 'x', entity_type: 'OBJECT' })).description).toBeNull();
  });

  it('rejects lowercase or unknown entity types with 400 naming entity_type', async () => {
    for (const entity_type of ['person', 'Person', 'THING', '', 3]) {
      const r = await post(ref.server.url, 'add_entity', { name: 'x', entity_type });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/^entity_type: /);
    }
    expect(await call('search_entities', { query: 'x' })).toEqual([]);
  });

  it('get_entity_by_name: exact match, else null', async () => {
    const e = await call('add_entity', { name: 'Ada Lovelace', entity_type: 'PERSON' });
    expect(await call('get_entity_by_name', { name: 'Ada Lovelace' })).toEqual(e);
    const miss = await post(ref.server.url, 'get_entity_by_name', { name: 'ada lovelace' });
    expect(miss.status).toBe(200);
    expect(miss.text).toBe('null');
    expect(await call('get_entity_by_name', { name: 'Ada' })).toBeNull();
  });

  it('search_entities over name and description, ranked, with limit', async () => {
    await call('add_entity', { name: 'Acme Corp', entity_type: 'ORGANIZATION', description: 'makes rockets and anvils' });
    await call('add_entity', { name: 'Rocket', entity_type: 'OBJECT' });
    await call('add_entity', { name: 'Berlin', entity_type: 'LOCATION', description: 'capital of Germany' });
    expect(names(await call('search_entities', { query: 'rocket' }))).toEqual(['Rocket']); // "rockets" is another token
    expect(names(await call('search_entities', { query: 'anvils' }))).toEqual(['Acme Corp']);
    expect(names(await call('search_entities', { query: 'germany capital' }))).toEqual(['Berlin']);
    // "Rocket" shares 1 of its 1 tokens (0.71), "Acme Corp" 1 of 2 in its name (0.5).
    expect(names(await call('search_entities', { query: 'acme rocket' }))).toEqual(['Rocket', 'Acme Corp']);
    expect(names(await call('search_entities', { query: 'acme rocket', limit: 1 }))).toEqual(['Rocket']);
    expect(await call('search_entities', { query: 'zebra' })).toEqual([]);
  });
});

describe('preferences and facts', () => {
  it('add_preference and add_fact return their objects', async () => {
    const p = await call('add_preference', { category: 'ui', preference: 'dark mode', context: 'at night' });
    expect(p).toEqual({ id: expect.stringMatching(UUID_RE), category: 'ui', preference: 'dark mode', context: 'at night', embedding: null });
    expect((await call('add_preference', { category: 'ui', preference: 'x' })).context).toBeNull();
    const f = await call('add_fact', { subject: 'Ada', predicate: 'wrote', obj: 'the first program' });
    expect(f).toEqual({ id: expect.stringMatching(UUID_RE), subject: 'Ada', predicate: 'wrote', object: 'the first program', embedding: null });
  });

  it('search_preferences over preference, context and category, category filter exact', async () => {
    await call('add_preference', { category: 'ui', preference: 'dark mode', context: 'in the evening' });
    await call('add_preference', { category: 'food', preference: 'vegetarian meals' });
    await call('add_preference', { category: 'ui-extra', preference: 'large fonts in dark rooms' });
    const prefs = (ps: { preference: string }[]) => ps.map((p) => p.preference);
    expect(prefs(await call('search_preferences', { query: 'dark mode' }))).toEqual(['dark mode', 'large fonts in dark rooms']);
    expect(prefs(await call('search_preferences', { query: 'evening' }))).toEqual(['dark mode']);
    expect(prefs(await call('search_preferences', { query: 'food' }))).toEqual(['vegetarian meals']);
    expect(prefs(await call('search_preferences', { query: 'dark', category: 'ui' }))).toEqual(['dark mode']);
    expect(await call('search_preferences', { query: 'dark', category: 'UI' })).toEqual([]);
    expect(await call('search_preferences', { query: 'dark', limit: 1 })).toHaveLength(1);
    expect(await call('search_preferences', { query: 'pizza' })).toEqual([]);
  });
});

describe('get_related_entities', () => {
  let ids: Record<string, string>;
  beforeEach(async () => {
    ids = {};
    for (const n of ['A', 'B', 'C', 'D', 'E', 'F']) ids[n] = (await call('add_entity', { name: n, entity_type: 'PERSON' })).id;
    const rel = (s: string, t: string, relationship_type: string) =>
      call('add_relationship', { source_id: ids[s], target_id: ids[t], relationship_type });
    await rel('A', 'B', 'KNOWS'); // A -> B
    await rel('C', 'A', 'WORKS_WITH'); // C -> A (incoming for A)
    await rel('B', 'D', 'KNOWS'); // 2 hops from A
    await rel('D', 'E', 'KNOWS'); // 3 hops
    await rel('B', 'A', 'KNOWS'); // duplicate neighbour, reverse direction
  });

  it('follows edges in both directions, depth 1 by default, no start, no duplicates', async () => {
    expect(names(await call('get_related_entities', { entity_id: ids.A }))).toEqual(['B', 'C']);
    expect(names(await call('get_related_entities', { entity_id: ids.B }))).toEqual(['A', 'D']);
    expect(await call('get_related_entities', { entity_id: ids.F })).toEqual([]);
  });

  it('filters by relationship type', async () => {
    expect(names(await call('get_related_entities', { entity_id: ids.A, relationship_type: 'KNOWS' }))).toEqual(['B']);
    expect(names(await call('get_related_entities', { entity_id: ids.A, relationship_type: 'WORKS_WITH' }))).toEqual(['C']);
    expect(await call('get_related_entities', { entity_id: ids.A, relationship_type: 'knows' })).toEqual([]);
  });

  it('goes up to depth hops, breadth first', async () => {
    expect(names(await call('get_related_entities', { entity_id: ids.A, depth: 2 }))).toEqual(['B', 'C', 'D']);
    expect(names(await call('get_related_entities', { entity_id: ids.A, depth: 3 }))).toEqual(['B', 'C', 'D', 'E']);
    expect(names(await call('get_related_entities', { entity_id: ids.A, depth: 99 }))).toEqual(['B', 'C', 'D', 'E']);
    expect(names(await call('get_related_entities', { entity_id: ids.C, depth: 2, relationship_type: 'KNOWS' }))).toEqual([]);
    expect(names(await call('get_related_entities', { entity_id: ids.E, depth: 2 }))).toEqual(['D', 'B']);
  });

  it('answers 400 for an unknown entity id and for depth < 1', async () => {
    const r = await post(ref.server.url, 'get_related_entities', { entity_id: '00000000-0000-4000-8000-000000000000' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^entity_id: no entity/);
    expect((await post(ref.server.url, 'get_related_entities', { entity_id: ids.A, depth: 0 })).body.error).toMatch(/^depth: /);
  });
});

describe('reasoning traces', () => {
  it('start_trace returns an open trace', async () => {
    const t = await call('start_trace', { session_id: 's', task: 'plan a trip' });
    expect(t).toEqual({
      id: expect.stringMatching(UUID_RE), session_id: 's', task: 'plan a trip', steps: [], outcome: null,
      success: null, started_at: expect.stringMatching(ISO_Z_MS_RE), completed_at: null,
    });
    expect(await call('list_sessions')).toEqual([]); // a trace is not a conversation session
  });

  it('add_step numbers steps from 1 per trace; absent fields are null', async () => {
    const t1 = await call('start_trace', { session_id: 's', task: 'a' });
    const t2 = await call('start_trace', { session_id: 's', task: 'b' });
    const s1 = await call('add_step', { trace_id: t1.id, thought: 'think', action: 'act', observation: 'see' });
    const s2 = await call('add_step', { trace_id: t1.id });
    const o1 = await call('add_step', { trace_id: t2.id, action: 'x' });
    expect(s1).toEqual({ id: expect.stringMatching(UUID_RE), trace_id: t1.id, step_number: 1, thought: 'think', action: 'act', observation: 'see', tool_calls: [] });
    expect(s2).toMatchObject({ step_number: 2, thought: null, action: null, observation: null });
    expect(o1).toMatchObject({ step_number: 1, trace_id: t2.id });
  });

  it('record_tool_call returns the call with defaults', async () => {
    const t = await call('start_trace', { session_id: 's', task: 'a' });
    const st = await call('add_step', { trace_id: t.id });
    const c1 = await call('record_tool_call', { step_id: st.id, tool_name: 'search', arguments: { q: 'x', n: [1, 2] } });
    expect(c1).toEqual({ id: expect.stringMatching(UUID_RE), tool_name: 'search', arguments: { q: 'x', n: [1, 2] }, result: null, status: 'success', duration_ms: null, error: null });
    const c2 = await call('record_tool_call', {
      step_id: st.id, tool_name: 'fetch', arguments: {}, result: { rows: [1] }, status: 'timeout', duration_ms: 1500, error: 'took too long',
    });
    expect(c2).toMatchObject({ result: { rows: [1] }, status: 'timeout', duration_ms: 1500, error: 'took too long' });
    for (const result of ['text', 42, [1, 'a'], false]) {
      expect((await call('record_tool_call', { step_id: st.id, tool_name: 'r', arguments: {}, result })).result).toEqual(result);
    }
  });

  it('complete_trace sets outcome, success and completed_at and returns the full trace', async () => {
    const t = await call('start_trace', { session_id: 's', task: 'a' });
    const st = await call('add_step', { trace_id: t.id, thought: 'go' });
    const tc = await call('record_tool_call', { step_id: st.id, tool_name: 'calc', arguments: { x: 1 } });
    const done = await call('complete_trace', { trace_id: t.id, outcome: 'done', success: true });
    expect(done).toMatchObject({ id: t.id, outcome: 'done', success: true, started_at: t.started_at });
    expect(done.completed_at).toMatch(ISO_Z_MS_RE);
    expect(done.completed_at >= done.started_at).toBe(true);
    expect(done.steps).toEqual([{ ...st, tool_calls: [tc] }]);
    const failed = await call('complete_trace', { trace_id: (await call('start_trace', { session_id: 's', task: 'b' })).id, success: false });
    expect(failed).toMatchObject({ outcome: null, success: false });
  });

  it('get_trace_with_steps returns steps and tool calls in order; unknown -> 200 null', async () => {
    const t = await call('start_trace', { session_id: 's', task: 'a' });
    const steps = [];
    for (let i = 0; i < 3; i++) {
      const st = await call('add_step', { trace_id: t.id, thought: `t${i}` });
      const calls = [];
      for (let j = 0; j < 3; j++) calls.push(await call('record_tool_call', { step_id: st.id, tool_name: `tool${j}`, arguments: { i, j } }));
      steps.push({ ...st, tool_calls: calls });
    }
    const got = await call('get_trace_with_steps', { trace_id: t.id });
    expect(got).toEqual({ ...t, steps });
    for (const trace_id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const r = await post(ref.server.url, 'get_trace_with_steps', { trace_id });
      expect(r.status).toBe(200);
      expect(r.body).toBeNull();
    }
  });

  it('list_traces filters by session, orders by start, honours limit', async () => {
    const a1 = await call('start_trace', { session_id: 'a', task: '1' });
    const b1 = await call('start_trace', { session_id: 'b', task: '2' });
    const a2 = await call('start_trace', { session_id: 'a', task: '3' });
    await call('add_step', { trace_id: a2.id, thought: 'x' });
    const ids = (ts: { id: string }[]) => ts.map((t) => t.id);
    expect(ids(await call('list_traces'))).toEqual([a1.id, b1.id, a2.id]);
    expect(ids(await call('list_traces', { session_id: 'a' }))).toEqual([a1.id, a2.id]);
    expect(ids(await call('list_traces', { limit: 2 }))).toEqual([a1.id, b1.id]);
    expect(await call('list_traces', { session_id: 'zzz' })).toEqual([]);
    expect((await call('list_traces', { session_id: 'a' }))[1].steps).toHaveLength(1);
  });

  it('get_tool_stats counts exactly', async () => {
    const t = await call('start_trace', { session_id: 's', task: 'a' });
    const st = await call('add_step', { trace_id: t.id });
    const rec = (tool_name: string, status: string, duration_ms?: number) =>
      call('record_tool_call', { step_id: st.id, tool_name, arguments: {}, status, ...(duration_ms === undefined ? {} : { duration_ms }) });
    await rec('search', 'success', 100);
    await rec('search', 'success', 200);
    await rec('search', 'failure', 600);
    await rec('search', 'pending');
    await rec('fetch', 'error', 10);
    await rec('fetch', 'timeout');
    await rec('fetch', 'cancelled');
    await rec('fetch', 'success', 20);
    expect(await call('get_tool_stats')).toEqual([
      { name: 'fetch', total_calls: 4, successful_calls: 1, failed_calls: 2, success_rate: 0.25, avg_duration_ms: 15 },
      { name: 'search', total_calls: 4, successful_calls: 2, failed_calls: 1, success_rate: 0.5, avg_duration_ms: 300 },
    ]);
    expect(await call('get_tool_stats', { tool_name: 'search' })).toEqual([
      { name: 'search', total_calls: 4, successful_calls: 2, failed_calls: 1, success_rate: 0.5, avg_duration_ms: 300 },
    ]);
    expect(await call('get_tool_stats', { tool_name: 'nope' })).toEqual([]);
    await rec('idle', 'pending');
    expect(await call('get_tool_stats', { tool_name: 'idle' })).toEqual([
      { name: 'idle', total_calls: 1, successful_calls: 0, failed_calls: 0, success_rate: 0, avg_duration_ms: null },
    ]);
  });
});
