// Faulty variants for the cells of the coverage matrix (issue 34, docs/coverage.md) that no fixed
// scenario covered: written before the scenarios that catch them (SCN-B-150, SCN-B-151, SCN-S-150,
// SCN-G-150), one per value class of a key and per history kind. Each keeps every other rule: it
// changes only what a storage engine, a cache or a merge of that kind would change.
import { MemoryStore, type Params } from '../../../src/servers/bridge/index.js';
import type { FaultRow } from '../../harness/power.js';
import type { V } from './platinum-base.js';
import type { Dispatch, Wrap } from '../../harness/variants.js';
import { messagesOf, sessionsOf } from './bronze-b.js';

/** Every request's session_id passed through `key` first (the store keeps the key so made). */
const sessionKeys = (key: (id: string) => string): Wrap => (next) => (m, body: any) =>
  next(m, typeof body?.session_id === 'string' ? { ...body, session_id: key(body.session_id) } : body);

/**
 * get_conversation looks its session up with SQL LIKE, the id unescaped: `_` matches any one
 * character and `%` any run, so "tck-a_c" also reads the messages of "tck-abc".
 */
const likeSessions: Wrap = (next) => async (m, body: any) => {
  const res = await next(m, body);
  if (m !== 'get_conversation' || res.status !== 200 || typeof body?.session_id !== 'string') return res;
  const pattern = new RegExp(`^${[...body.session_id].map((c: string) => (c === '%' ? '.*' : c === '_' ? '.' : c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'su');
  const others = (await sessionsOf(next)).filter((s) => s.session_id !== body.session_id && pattern.test(s.session_id));
  const extra = (await Promise.all(others.map((s) => messagesOf(next, s.session_id)))).flat();
  const conv = res.body as { messages: unknown[] };
  return { ...res, body: { ...conv, messages: [...conv.messages, ...extra] } };
};

/** A read (a search, a list, the graph) answered from a cache keyed by its parameters, emptied by clear_all_data only (never by a write). */
const cachedRead = (method: string): Wrap => (next: Dispatch) => {
  const cache = new Map<string, Awaited<ReturnType<Dispatch>>>();
  return async (m, body) => {
    if (m === 'clear_all_data') cache.clear();
    if (m !== method) return next(m, body);
    const key = JSON.stringify(body);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const res = await next(m, body);
    cache.set(key, res);
    return res;
  };
};

/**
 * A merge into an entity that was itself merged into before drops what the earlier merge brought
 * it: merging A into B keeps A's relationships on B, merging B into C then loses them.
 */
class ForgetsInheritedOnMerge extends MemoryStore {
  readonly #inherited = new Set<string>();

  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    const touches = (r: { source_id: string; target_id: string }) => r.source_id === p.source_id || r.target_id === p.source_id;
    this.relationships = this.relationships.filter((r) => !(this.#inherited.has(r.id) && touches(r)));
    const moved = this.relationships.filter(touches).map((r) => r.id);
    const merged = super.merge_duplicate_entities(p);
    for (const id of moved) this.#inherited.add(id);
    return merged;
  }
}

/**
 * get_related_entities gives up on a cycle: a start that lies on a directed cycle (a self-loop
 * included) answers [] (a guard against endless walks, placed where it drops every neighbour).
 */
class WalkGivesUpOnCycles extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>) {
    const outs = (id: string) => this.relationships.filter((r) => r.source_id === id).map((r) => r.target_id);
    const seen = new Set<string>();
    const todo = outs(p.entity_id);
    while (todo.length > 0) {
      const id = todo.pop()!;
      if (id === p.entity_id) return [];
      if (!seen.has(id)) {
        seen.add(id);
        todo.push(...outs(id));
      }
    }
    return super.get_related_entities(p);
  }
}

export const FAULTS: FaultRow[] = [
  ['SCN-B-150', 'get_conversation matches its session id with SQL LIKE (unescaped _ and %)', likeSessions,
    /get_conversation\(session_id="tck-a_c"\) .*\(SPEC-2\.2\.4.*\): expected \["only in tck-a_c"\], got \["only in tck-a_c","only in tck-abc"\]/],
  ['SCN-B-150', 'control characters are stripped from session ids', sessionKeys((s) => s.replace(/[\u0000-\u001f\u007f]/g, '')),
    /get_conversation\(session_id="tck-ctl\\u0001"\) .*: expected \["only in tck-ctl\\u0001"\], got \["only in tck-ctl\\u0001","only in tck-ctl"\]/],
  ['SCN-B-150', 'session ids are trimmed', sessionKeys((s) => s.trim()),
    /get_conversation\(session_id=" tck-pad "\) .*: expected \["only in  tck-pad "\], got \["only in  tck-pad ","only in tck-pad"\]/],
  ['SCN-B-150', 'session ids are stored in a Latin-1 column (other characters become "?")', sessionKeys((s) => s.replace(/[^\u0000-\u00ff]/gu, '?')),
    /get_conversation\(session_id="сессия"\) .*: expected \["only in сессия"\], got \["only in сессия","only in другая"\]/],
  ['SCN-B-151', 'search_messages answers from a cache no write invalidates', cachedRead('search_messages'),
    /search_messages\(query="quokka", session_id="search-rwr", limit=10, threshold=0\) after add_message\("the quokka smiles"\), the same search having answered \[\] before \(SPEC-2\.3\.1.*\): expected the new message [0-9a-f-]{36}, got 0 result\(s\)/],
  ['SCN-S-150', 'search_entities answers from a cache no write invalidates', cachedRead('search_entities'),
    /search_entities\(query="Zephyrine", limit=10\) after add_entity\("Zephyrine"\), the same search having answered \[\] before \(SPEC-3\.4\.1.*\): expected the new entity [0-9a-f-]{36}, got 0 result\(s\)/],
  ['SCN-S-150', 'search_preferences answers from a cache no write invalidates', cachedRead('search_preferences'),
    /search_preferences\(query="marmalade", limit=10\) after add_preference\(.*"marmalade.*\), the same search having answered \[\] before \(SPEC-3\.5\.1.*\): expected the new preference [0-9a-f-]{36}, got 0 result\(s\)/],
  ['SCN-S-151', 'get_related_entities answers [] from a start on a cycle or a self-loop', { store: new WalkGivesUpOnCycles() },
    /get_related_entities\(<A>, depth=1\) where A lies on the cycle A → B → C → A \(SPEC-3\.7\.1: the entities connected to an entity are returned\): missing \["B","D"\]; got \[\]/],
  ['SCN-G-150', 'a merge into an entity merged into before loses what the earlier merge brought it (A → B → C)', { store: new ForgetsInheritedOnMerge() },
    /get_related_entities\(<C>, depth=1\) after merging A into B, then B into C \(SPEC-5\.3\.2.*\): expected Acme \(A's relationship\) and Paris \(B's\), missing \["Acme"\]/],
];

/** The Platinum reads a cache no write invalidates (the proof of ../platinum.test.ts). */
export const PLATINUM_FAULTS: FaultRow<V>[] = [
  ['SCN-P-150', 'list_conversations answers from a cache no write invalidates', { wrap: cachedRead('list_conversations') },
    /list_conversations\(limit=100\) after create_conversation, the same list having been read before: the new conversation [0-9a-f]{8}… is missing/],
  ['SCN-P-150', 'list_steps answers from a cache no write invalidates', { wrap: cachedRead('list_steps') },
    /list_steps\(<the conversation>\) after record_step, the same list having answered 0 step\(s\) before: the new step [0-9a-f]{8}… is missing/],
  ['SCN-P-150', 'get_entity_graph answers from a cache no write invalidates', { wrap: cachedRead('get_entity_graph') },
    /get_entity_graph\(\) after add_entity ×2, the graph having been read before: the nodes of "Ada RWR" and "Analytical Engine RWR" are missing/],
];
