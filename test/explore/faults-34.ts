// Issue 34 (histories, namesakes, limits beside filters): stateful faults written BEFORE explore's
// default generator repeated a read around a write, drew namesake keys or control characters in
// content. Each breaks one stated sentence (`breaks`) only after a particular history: a read cached
// by its arguments that a write does not invalidate, a lookup key compared after case-folding,
// normalisation or as a LIKE pattern, a store that cuts content at NUL, a limit applied before the
// filter beside it. Whether the fixed suites catch each one is measured (faults.test.ts).
import { MemoryStore, type Params } from '../../src/servers/bridge/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import type { Conversation, Entity, Message, Preference, ReasoningTrace, ToolStats } from '../../src/protocols/bridge/index.js';
import type { Wrap } from '../harness/variants.js';
import type { Fault } from './faults-22.js';

/** get_conversation answers from a cache keyed by (session_id, limit): add_message, clear_session and clear_all_data refresh it, delete_message does not. */
class ConversationCacheMissesDelete extends MemoryStore {
  #cache = new Map<string, Conversation>();
  #drop(session: string) {
    for (const k of [...this.#cache.keys()]) if (JSON.parse(k)[0] === session) this.#cache.delete(k);
  }
  override add_message(p: Params<'add_message'>): Message {
    this.#drop(p.session_id);
    return super.add_message(p);
  }
  override clear_session(p: Params<'clear_session'>) {
    this.#drop(p.session_id);
    super.clear_session(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override get_conversation(p: Params<'get_conversation'>): Conversation {
    const key = JSON.stringify([p.session_id, p.limit ?? null]);
    const hit = this.#cache.get(key);
    if (hit !== undefined) return structuredClone(hit);
    const c = super.get_conversation(p);
    this.#cache.set(key, structuredClone(c));
    return c;
  }
}

/** clear_session compares session ids without regard to case (a case-insensitive collation on its DELETE). */
class ClearSessionIgnoresCase extends MemoryStore {
  override clear_session(p: Params<'clear_session'>) {
    for (const sid of [...this.sessions.keys()]) if (sid !== p.session_id && sid.toLowerCase() === p.session_id.toLowerCase()) super.clear_session({ session_id: sid });
    super.clear_session(p);
  }
}

/** clear_session deletes with an unescaped LIKE: `_` and `%` in the id it is sent match any character(s). */
class ClearSessionByLike extends MemoryStore {
  override clear_session(p: Params<'clear_session'>) {
    const pattern = new RegExp(`^${[...p.session_id].map((ch) => (ch === '_' ? '.' : ch === '%' ? '.*' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`, 'su');
    for (const sid of [...this.sessions.keys()]) if (sid !== p.session_id && pattern.test(sid)) super.clear_session({ session_id: sid });
    super.clear_session(p);
  }
}

/** Session ids brought to Unicode normal form NFC on the way in (the answer still shows the id as sent). */
const sessionsNormalised: Wrap = (next) => async (method, body: any) => {
  if (typeof body?.session_id !== 'string') return next(method, body);
  const res = await next(method, { ...body, session_id: body.session_id.normalize('NFC') });
  if (res.status === 200 && method === 'get_conversation') return { ...res, body: { ...(res.body as any), session_id: body.session_id } };
  return res;
};

/** Message content is kept as a C string: what follows a NUL is lost (add_message still answers what it was sent). */
class ContentCutAtNul extends MemoryStore {
  override add_message(p: Params<'add_message'>): Message {
    const m = super.add_message({ ...p, content: p.content.split('\u0000')[0]! });
    return { ...m, content: p.content };
  }
}

/** get_similar_traces takes the `limit` most similar traces first, then drops the unsuccessful ones (success_only). */
class SimilarLimitBeforeSuccess extends MemoryStore {
  override get_similar_traces(p: Params<'get_similar_traces'>): ReasoningTrace[] {
    const top = super.get_similar_traces({ ...p, success_only: false });
    return p.success_only === true ? top.filter((t) => t.success === true) : top;
  }
}

/** search_messages ranks every message and takes `limit`, then keeps those of the session asked for. */
class SearchLimitBeforeSession extends MemoryStore {
  override search_messages(p: Params<'search_messages'>): Message[] {
    if (p.session_id == null) return super.search_messages(p);
    const own = new Set((this.sessions.get(p.session_id)?.messages ?? []).map((r) => r.message.id));
    return super.search_messages({ ...p, session_id: null }).filter((m) => own.has(m.id));
  }
}

/** search_preferences ranks every preference and takes `limit`, then keeps those of the category asked for. */
class PreferencesLimitBeforeCategory extends MemoryStore {
  override search_preferences(p: Params<'search_preferences'>): Preference[] {
    if (p.category == null) return super.search_preferences(p);
    return super.search_preferences({ ...p, category: null }).filter((x) => x.category === p.category);
  }
}

/** get_entity_by_name remembers the names it found nothing for; only clear_all_data forgets them (add_entity does not). */
class NameMissCached extends MemoryStore {
  #misses = new Set<string>();
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#misses.clear();
    super.clear_all_data(p);
  }
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    if (this.#misses.has(p.name)) return null;
    const e = super.get_entity_by_name(p);
    if (e === null) this.#misses.add(p.name);
    return e;
  }
}

/** get_tool_stats answers from a cache keyed by tool_name that trace writes refresh and record_tool_call does not. */
class ToolStatsCacheMissesCalls extends MemoryStore {
  #cache = new Map<string, ToolStats[]>();
  override start_trace(p: Params<'start_trace'>) {
    this.#cache.clear();
    return super.start_trace(p);
  }
  override add_step(p: Params<'add_step'>) {
    this.#cache.clear();
    return super.add_step(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override get_tool_stats(p: Params<'get_tool_stats'>): ToolStats[] {
    const key = p.tool_name ?? '';
    const hit = this.#cache.get(key) ?? super.get_tool_stats(p);
    this.#cache.set(key, hit);
    return structuredClone(hit);
  }
}

/** get_related_entities answers from a cache that add_relationship refreshes and merge_duplicate_entities does not. */
class RelatedCacheMissesMerge extends MemoryStore {
  #cache = new Map<string, Entity[]>();
  override add_relationship(p: Params<'add_relationship'>) {
    this.#cache.clear();
    return super.add_relationship(p);
  }
  override add_entity(p: Params<'add_entity'>) {
    this.#cache.clear();
    return super.add_entity(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    const key = JSON.stringify([p.entity_id, p.relationship_type ?? null, p.depth ?? null]);
    const hit = this.#cache.get(key) ?? super.get_related_entities(p);
    this.#cache.set(key, hit);
    return structuredClone(hit);
  }
}

type Json = Record<string, any>;

/** list_steps answers from a cache per conversation that record_step does not refresh. */
class StepsCacheMissesRecord extends HostedStore {
  #cache = new Map<string, Json[]>();
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override list_steps(p: Params<'list_steps'>): Json[] {
    const hit = this.#cache.get(p.conversation_id) ?? super.list_steps(p);
    this.#cache.set(p.conversation_id, hit);
    return structuredClone(hit);
  }
}

/** get_entity answers from a cache per entity that delete_entity clears and update_entity does not refresh. */
class EntityCacheMissesUpdate extends HostedStore {
  #cache = new Map<string, Entity>();
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override delete_entity(p: Params<'delete_entity'>): void {
    this.#cache.delete(p.entity_id);
    super.delete_entity(p);
  }
  override get_entity(p: Params<'get_entity'>): Entity {
    const hit = this.#cache.get(p.entity_id) ?? super.get_entity(p);
    this.#cache.set(p.entity_id, hit);
    return structuredClone(hit);
  }
}

export const FAULTS_34: Fault[] = [
  { name: 'get_conversation cached by (session, limit) across delete_message', make: () => ({ store: new ConversationCacheMissesDelete() }), breaks: ['SPEC-2.5.2'], caughtBy: ['SCN-B-010', 'SCN-B-160'] },
  { name: 'clear_session matches session ids case-insensitively', make: () => ({ store: new ClearSessionIgnoresCase() }), breaks: ['SPEC-2.6.2', 'SPEC-1.1.3', 'SPEC-2.3.1', 'SPEC-2.4.1'], caughtBy: ['SCN-B-163'] },
  { name: 'clear_session matches session ids as a LIKE pattern', make: () => ({ store: new ClearSessionByLike() }), breaks: ['SPEC-2.6.2', 'SPEC-1.1.3', 'SPEC-2.3.1', 'SPEC-2.4.1'] },
  { name: 'session ids normalised to NFC', make: () => ({ wrap: sessionsNormalised }), breaks: ['SPEC-1.1.3', 'SPEC-2.2.4', 'SPEC-2.6.2', 'SPEC-2.3.2', 'SPEC-2.4.1'] },
  { name: 'message content cut at NUL', make: () => ({ store: new ContentCutAtNul() }), breaks: ['SPEC-2.2.7', 'SPEC-1.1.14'], caughtBy: ['SCN-B-164'] },
  { name: 'get_similar_traces(success_only, limit) limits before it filters', make: () => ({ store: new SimilarLimitBeforeSuccess() }), breaks: ['SPEC-5.4.1', 'BRIDGE-METHOD-get_similar_traces'], caughtBy: ['SCN-G-162'] },
  { name: 'search_messages(session_id, limit) limits before it filters', make: () => ({ store: new SearchLimitBeforeSession() }), breaks: ['SPEC-2.3.1', 'SPEC-2.3.2'], caughtBy: ['SCN-B-056'] },
  { name: 'search_preferences(category, limit) limits before it filters', make: () => ({ store: new PreferencesLimitBeforeCategory() }), breaks: ['SPEC-3.5.1', 'SPEC-3.5.2'], caughtBy: ['SCN-S-166'] },
  { name: 'get_entity_by_name caches a miss across add_entity', make: () => ({ store: new NameMissCached() }), breaks: ['SPEC-3.6.1'], caughtBy: ['SCN-S-160'] },
  { name: 'get_tool_stats cached across record_tool_call', make: () => ({ store: new ToolStatsCacheMissesCalls() }), breaks: ['SPEC-4.7.1'], caughtBy: ['SCN-S-163'] },
  { name: 'get_related_entities cached across merge_duplicate_entities', make: () => ({ store: new RelatedCacheMissesMerge() }), breaks: ['SPEC-5.3.2', 'SPEC-3.7.1', 'SPEC-3.7.2'], caughtBy: ['SCN-G-160'] },
  { name: 'list_steps cached across record_step', make: () => ({ store: new StepsCacheMissesRecord() }), breaks: ['SPEC-V5-5.4.1'], platinum: true, caughtBy: ['SCN-P-150'] },
  { name: 'get_entity cached across update_entity', make: () => ({ store: new EntityCacheMissesUpdate() }), breaks: ['HOSTED-ENDPOINT-get_entity', 'HOSTED-ENDPOINT-update_entity'], platinum: true, caughtBy: ['SCN-P-116', 'SCN-P-160'] },
];
