// Gold tier of the reference server (relationships, merge, similar traces), over real HTTP.
import { describe, expect, it } from 'vitest';
import { UUID_RE, post, useReferenceServer } from './helpers.js';

const ref = useReferenceServer();
const { call } = ref;

const names = (es: { name: string }[]) => es.map((e) => e.name).sort();

async function entities(...ns: string[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const n of ns) ids[n] = (await call('add_entity', { name: n, entity_type: 'PERSON' })).id;
  return ids;
}

describe('add_relationship', () => {
  it('returns the relationship; properties default to {}', async () => {
    const ids = await entities('A', 'B');
    const r = await call('add_relationship', { source_id: ids.A, target_id: ids.B, relationship_type: 'KNOWS', properties: { since: 2020, tags: ['x'] } });
    expect(r).toEqual({ id: expect.stringMatching(UUID_RE), source_id: ids.A, target_id: ids.B, relationship_type: 'KNOWS', properties: { since: 2020, tags: ['x'] } });
    expect((await call('add_relationship', { source_id: ids.B, target_id: ids.A, relationship_type: 'KNOWS' })).properties).toEqual({});
  });

  it('answers 400 naming the unknown end and stores nothing', async () => {
    const ids = await entities('A');
    const unknown = '00000000-0000-4000-8000-000000000000';
    const r1 = await post(ref.server.url, 'add_relationship', { source_id: unknown, target_id: ids.A, relationship_type: 'KNOWS' });
    expect(r1.status).toBe(400);
    expect(r1.body.error).toMatch(/^source_id: /);
    const r2 = await post(ref.server.url, 'add_relationship', { source_id: ids.A, target_id: unknown, relationship_type: 'KNOWS' });
    expect(r2.body.error).toMatch(/^target_id: /);
    expect(ref.server.store.snapshot().relationships).toEqual([]);
  });
});

describe('merge_duplicate_entities', () => {
  it('keeps the target, moves relationships of both directions, removes the source', async () => {
    const ids = await entities('Bob Smith', 'Robert Smith', 'Alice', 'Acme', 'Carol');
    const rel = (s: string, t: string, relationship_type: string) =>
      call('add_relationship', { source_id: ids[s], target_id: ids[t], relationship_type });
    await rel('Bob Smith', 'Alice', 'KNOWS'); // outgoing of the source
    await rel('Acme', 'Bob Smith', 'EMPLOYS'); // incoming of the source
    await rel('Robert Smith', 'Carol', 'KNOWS'); // the target's own
    await rel('Bob Smith', 'Robert Smith', 'SAME_AS'); // becomes a self-loop: dropped
    const merged = await call('merge_duplicate_entities', { source_id: ids['Bob Smith'], target_id: ids['Robert Smith'], canonical_name: 'Robert Smith' });
    expect(merged).toMatchObject({ id: ids['Robert Smith'], name: 'Robert Smith', canonical_name: 'Robert Smith' });
    expect(names(await call('get_related_entities', { entity_id: ids['Robert Smith'] }))).toEqual(['Acme', 'Alice', 'Carol']);
    expect(names(await call('get_related_entities', { entity_id: ids.Acme, relationship_type: 'EMPLOYS' }))).toEqual(['Robert Smith']);
    expect(names(await call('get_related_entities', { entity_id: ids.Alice }))).toEqual(['Robert Smith']);
    // The source is gone; its name resolves to the target.
    expect((await call('get_entity_by_name', { name: 'Bob Smith' })).id).toBe(ids['Robert Smith']);
    expect((await post(ref.server.url, 'get_related_entities', { entity_id: ids['Bob Smith'] })).status).toBe(400);
    const rels = ref.server.store.snapshot().relationships;
    expect(rels).toHaveLength(3);
    for (const r of rels) {
      expect(r.source_id).not.toBe(ids['Bob Smith']);
      expect(r.target_id).not.toBe(ids['Bob Smith']);
      expect(r.source_id).not.toBe(r.target_id);
    }
    expect(ref.server.store.snapshot().entities.map((e) => e.name).sort()).toEqual(['Acme', 'Alice', 'Carol', 'Robert Smith']);
  });

  it('without canonical_name leaves it null; a merged name also resolves through a chain', async () => {
    const ids = await entities('A1', 'A2', 'A3');
    expect((await call('merge_duplicate_entities', { source_id: ids.A1, target_id: ids.A2 })).canonical_name).toBeNull();
    await call('merge_duplicate_entities', { source_id: ids.A2, target_id: ids.A3, canonical_name: 'A' });
    for (const name of ['A1', 'A2', 'A3', 'A']) expect((await call('get_entity_by_name', { name })).id).toBe(ids.A3);
  });

  it('answers 400 for unknown ids and for source == target, changing nothing', async () => {
    const ids = await entities('X', 'Y');
    await call('add_relationship', { source_id: ids.X, target_id: ids.Y, relationship_type: 'R' });
    const before = ref.server.store.snapshot();
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [body, param] of [
      [{ source_id: unknown, target_id: ids.Y }, 'source_id'],
      [{ source_id: ids.X, target_id: unknown }, 'target_id'],
      [{ source_id: ids.X, target_id: ids.X }, 'target_id'],
      [{ source_id: ids.X, target_id: 'nope' }, 'target_id'],
    ] as const) {
      const r = await post(ref.server.url, 'merge_duplicate_entities', body);
      expect(r.status).toBe(400);
      expect(r.body.error.startsWith(`${param}: `)).toBe(true);
    }
    expect(ref.server.store.snapshot()).toEqual(before);
  });
});

describe('get_similar_traces', () => {
  it('ranks by task similarity, drops unrelated ones, honours success_only and limit', async () => {
    const mk = async (task: string, success?: boolean) => {
      const t = await call('start_trace', { session_id: 's', task });
      return success === undefined ? t : call('complete_trace', { trace_id: t.id, success });
    };
    const exact = await mk('book a flight to Paris', false);
    const close = await mk('book a cheap flight to Rome', true);
    const far = await mk('book a table', true);
    await mk('summarise the quarterly report', true);
    const open = await mk('flight to Paris'); // success null
    const tasks = (ts: { task: string }[]) => ts.map((t) => t.task);
    expect(tasks(await call('get_similar_traces', { task: 'book a flight to Paris' }))).toEqual([
      exact.task, open.task, close.task, far.task,
    ]);
    expect(tasks(await call('get_similar_traces', { task: 'book a flight to Paris', success_only: true }))).toEqual([close.task, far.task]);
    expect(tasks(await call('get_similar_traces', { task: 'book a flight to Paris', success_only: true, limit: 1 }))).toEqual([close.task]);
    expect(tasks(await call('get_similar_traces', { task: 'book a flight to Paris', success_only: false, limit: 2 }))).toEqual([exact.task, open.task]);
    expect(await call('get_similar_traces', { task: 'quantum chromodynamics' })).toEqual([]);
    const full = (await call('get_similar_traces', { task: 'quarterly report' }))[0];
    expect(full.steps).toEqual([]);
    expect(full.success).toBe(true);
  });
});
