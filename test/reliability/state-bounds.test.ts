// Issue 17, items 3 and 4: reads allocate no lasting state per distinct input, identifiers and
// entity fields have documented size caps (400 beyond them), and entity text is tokenised once,
// at write time, not on every search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ID_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS } from '../../src/servers/bridge/store.js';
import { MemoryStore, createDispatcher, startReferenceServer, type RunningReferenceServer } from '../../src/servers/bridge/index.js';
import { startService, type Service } from '../hosted/helpers.js';
import { seeded } from './helpers.js';

/** The total size of every collection a store holds (Maps, Sets, arrays among its own fields). */
function held(store: object): number {
  let n = 0;
  for (const v of Object.values(store)) {
    if (v instanceof Map || v instanceof Set) n += v.size;
    else if (Array.isArray(v)) n += v.length;
  }
  return n;
}

describe('reads of unknown sessions', () => {
  it('5 000 distinct unknown session ids leave the store holding nothing more; each id is stable', () => {
    const store = new MemoryStore();
    const dispatch = createDispatcher(store);
    const random = seeded(17);
    const before = held(store);
    const first = new Map<string, string>();
    for (let i = 0; i < 5_000; i++) {
      const session_id = `s-${Math.floor(random() * 1e12)}-${i}`;
      const r = dispatch('get_conversation', { session_id });
      expect(r.status).toBe(200);
      if (i < 10) first.set(session_id, (r.body as { id: string }).id);
    }
    expect(held(store)).toBe(before);
    for (const [session_id, id] of first) expect((dispatch('get_conversation', { session_id }).body as { id: string }).id).toBe(id);
    // The id read first is the conversation's once a message arrives.
    const [sid, id] = [...first][0]!;
    store.add_message({ session_id: sid, role: 'user', content: 'hi' });
    expect(store.get_conversation({ session_id: sid }).id).toBe(id);
  });

  it('clearing a session that existed gives the next one under its id a fresh conversation id; clear_all_data too', () => {
    const store = new MemoryStore();
    const a = store.add_message({ session_id: 's', role: 'user', content: 'hi' });
    expect(a).toBeDefined();
    const first = store.get_conversation({ session_id: 's' }).id;
    store.clear_session({ session_id: 's' });
    const second = store.get_conversation({ session_id: 's' }).id;
    expect(second).not.toBe(first);
    store.clear_all_data({});
    expect(store.get_conversation({ session_id: 's' }).id).not.toBe(second);
  });
});

describe('size caps (400 naming the parameter)', () => {
  const dispatch = createDispatcher(new MemoryStore());
  it.each([
    ['get_conversation', { session_id: 'x'.repeat(MAX_ID_CHARS + 1) }, 'session_id'],
    ['delete_message', { message_id: 'x'.repeat(MAX_ID_CHARS + 1) }, 'message_id'],
    ['add_entity', { name: 'x'.repeat(MAX_NAME_CHARS + 1), entity_type: 'PERSON' }, 'name'],
    ['add_entity', { name: 'A', entity_type: 'PERSON', description: 'x'.repeat(MAX_TEXT_CHARS + 1) }, 'description'],
  ])('%s with an oversized %#', (method, params, param) => {
    const r = dispatch(method, params);
    expect(r.status).toBe(400);
    expect((r.body as { error: string }).error).toMatch(new RegExp(`^${param}: is \\d+ characters long`));
  });

  it('at the caps exactly, accepted', () => {
    expect(dispatch('get_conversation', { session_id: 'x'.repeat(MAX_ID_CHARS) }).status).toBe(200);
    expect(dispatch('add_entity', { name: 'x'.repeat(MAX_NAME_CHARS), entity_type: 'PERSON', description: 'y '.repeat(MAX_TEXT_CHARS / 2) }).status).toBe(200);
  });
});

describe('entity tokens are made at write time', () => {
  class Inspectable extends MemoryStore {
    docs() {
      return [...this.entities.values()].map((r) => (r as { doc?: { tokens: unknown } }).doc?.tokens);
    }
  }

  it('search_entities reuses the tokens kept with each entity', () => {
    const store = new Inspectable();
    store.add_entity({ name: 'Alice', entity_type: 'PERSON', description: 'works at Acme' });
    store.add_entity({ name: 'Big', entity_type: 'OBJECT', description: 'word '.repeat(100_000) });
    const made = store.docs();
    expect(made.every((d) => d !== undefined)).toBe(true);
    expect(store.search_entities({ query: 'acme' }).map((e) => e.name)).toEqual(['Alice']);
    expect(store.search_entities({ query: 'alice' }).map((e) => e.name)).toEqual(['Alice']);
    const after = store.docs();
    for (let i = 0; i < made.length; i++) expect(after[i]).toBe(made[i]);
  });

  it('a merge makes the merged name searchable on the target', () => {
    const store = new MemoryStore();
    const a = store.add_entity({ name: 'Robert', entity_type: 'PERSON' });
    const b = store.add_entity({ name: 'Bob', entity_type: 'PERSON' });
    expect(store.search_entities({ query: 'robert' }).map((e) => e.id)).toEqual([a.id]);
    store.merge_duplicate_entities({ source_id: a.id, target_id: b.id });
    expect(store.search_entities({ query: 'robert' }).map((e) => e.id)).toEqual([b.id]);
  });
});

describe('hosted: updates re-index, caps apply, reads allocate nothing', () => {
  let s: Service;
  beforeAll(async () => {
    s = await startService();
  });
  afterAll(() => s.close());

  it('an updated description is what search finds; an oversized one is 400', async () => {
    const e = (await s.call('POST', '/entities', { body: { name: 'Carol', type: 'PERSON', description: 'likes tea' } })).body as { id: string };
    expect((await s.call('PUT', `/entities/${e.id}`, { body: { description: 'likes coffee' } })).status).toBe(200);
    const found = await s.call('POST', '/entities/search', { body: { query: 'coffee' } });
    expect(JSON.stringify(found.body)).toContain(e.id);
    const tea = await s.call('POST', '/entities/search', { body: { query: 'tea' } });
    expect(JSON.stringify(tea.body)).not.toContain(e.id);
    const big = await s.call('PUT', `/entities/${e.id}`, { body: { description: 'x'.repeat(MAX_TEXT_CHARS + 1) } });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^description: /);
  });

  it('reading 500 unknown conversations holds nothing more', async () => {
    const before = held(s.store);
    for (let i = 0; i < 500; i++) await s.call('GET', `/conversations/unknown-${i}/messages`);
    expect(held(s.store)).toBe(before);
  });
});

describe('over HTTP', () => {
  let server: RunningReferenceServer;
  beforeAll(async () => {
    server = await startReferenceServer();
  });
  afterAll(() => server.close());
  it('an oversized session_id is 400 {"error"}', async () => {
    const r = await fetch(`${server.url}/get_conversation`, { method: 'POST', body: JSON.stringify({ session_id: 'z'.repeat(MAX_ID_CHARS + 1) }) });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/^session_id: /);
  });
});
