// Histories (issue 34): a read, a write that changes what it answers (or, aimed at a namesake of
// its key, one that must not), and the same read again with identical arguments. A read cached by
// its arguments and not invalidated by a write shows only this way; a key compared after folding
// case, normalising or as a LIKE pattern shows when the write names a namesake of the read's key;
// a limit applied before the filter beside it shows when the write adds a match outside the filter
// first and one inside it second. The commands themselves are in commands.ts (HistoryCommand); this
// file says which writes change which read, and aims a write at the read's objects and keys.
import type { MethodName } from '../protocols/bridge/index.js';
import type { ExploreModel, RefKind } from './model.js';
import { NAMES } from './values.js';

/**
 * For each read, the writes that change its answer (the model's state after them is what the read
 * is judged against). clear_all_data changes every read; it is drawn around two of them only, since
 * it also empties the store the rest of the sequence builds on.
 */
export const CHANGED_BY: Partial<Record<MethodName, readonly MethodName[]>> = {
  get_conversation: ['add_message', 'delete_message', 'clear_session'],
  search_messages: ['add_message', 'delete_message', 'clear_session'],
  list_sessions: ['add_message', 'delete_message', 'clear_session', 'clear_all_data'],
  get_entity_by_name: ['add_entity', 'merge_duplicate_entities', 'update_entity', 'delete_entity', 'merge_entities', 'clear_all_data'],
  search_entities: ['add_entity', 'merge_duplicate_entities', 'update_entity', 'delete_entity'],
  get_related_entities: ['add_relationship', 'merge_duplicate_entities', 'merge_entities', 'add_entity'],
  search_preferences: ['add_preference'],
  get_trace_with_steps: ['add_step', 'record_tool_call', 'complete_trace'],
  list_traces: ['start_trace', 'add_step', 'record_tool_call', 'complete_trace', 'clear_session'],
  get_tool_stats: ['record_tool_call'],
  get_similar_traces: ['start_trace', 'complete_trace'],
  list_conversations: ['create_conversation', 'delete_conversation'],
  get_context: ['bulk_add_messages', 'record_step'],
  list_entities: ['add_entity', 'update_entity', 'delete_entity', 'merge_entities'],
  get_entity: ['update_entity', 'set_entity_feedback', 'merge_entities', 'delete_entity'],
  get_entity_graph: ['add_entity', 'add_relationship', 'update_entity', 'delete_entity', 'merge_entities'],
  list_steps: ['record_step'],
  get_trace_by_conversation: ['record_step', 'record_tool_call'],
  explain_step: ['record_tool_call'],
  get_entity_provenance: ['record_step'],
};

/** One write of a planned history: `outside` aims it at a namesake of the read's filter (a match the filter must leave out). */
export interface Planned {
  method: MethodName;
  outside?: true;
  set?: Record<string, unknown>;
}

/**
 * Reads with a filter beside their limit: the writes that add a match outside the filter, then one
 * inside it (the read then runs with the filter and limit 1, so a limit taken before the filter
 * leaves out the match inside).
 */
export const LIMIT_FILTER: Partial<Record<MethodName, { filter: string; set?: Record<string, unknown>; writes: readonly Planned[] }>> = {
  search_messages: { filter: 'session_id', writes: [{ method: 'add_message', outside: true }, { method: 'add_message' }] },
  search_preferences: { filter: 'category', writes: [{ method: 'add_preference', outside: true }, { method: 'add_preference' }] },
  list_traces: { filter: 'session_id', writes: [{ method: 'start_trace', outside: true }, { method: 'start_trace' }] },
  // An unfinished trace of the task (not successful), then a successful one.
  get_similar_traces: { filter: 'success_only', set: { success_only: true }, writes: [{ method: 'start_trace' }, { method: 'start_trace' }, { method: 'complete_trace', set: { success: true } }] },
};

/** A reference the history names itself (a model id), not an index into the live objects. */
export interface Pinned {
  pinned: string;
}
export const isPinned = (v: unknown): v is Pinned => typeof v === 'object' && v !== null && typeof (v as Pinned).pinned === 'string';

/**
 * Namesakes of a key: the same key in another case, the other Unicode normal form, with a trailing
 * space or without it, with a LIKE wildcard in it, with a control character, one character shorter
 * or longer (a prefix: LIKE 'key%'). Each is another key: a store must keep them apart.
 */
export function namesakes(key: string): string[] {
  const out = [key.toLowerCase(), key.toUpperCase(), key.normalize('NFD'), key.normalize('NFC'), key.endsWith(' ') ? key.trimEnd() : `${key} `, key.replace(/[-.]/, '_'), `${key}%`, `${key}\u0001`, key.slice(0, -1), `${key}0`];
  return [...new Set(out)].filter((k) => k !== key && k.length > 0);
}

/** Which field of a write holds the text a read searches for (its query or task). */
const QUERIED: Partial<Record<MethodName, string>> = { add_message: 'content', add_entity: 'name', add_preference: 'preference', start_trace: 'task', update_entity: 'name' };

/** Keys a write shares with a read by name (session_id, name, category …), copied from the read's arguments. */
const KEYS = ['session_id', 'name', 'category', 'tool_name', 'task', 'relationship_type'];

/**
 * A write's drawn parameters aimed at the read that ran before it (`read`: the model's parameters it
 * ran with): shared keys copied (or, `outside`, replaced by a namesake), the searched text written
 * into the write's text, references to the objects the read named, and a message or a step of the
 * session or trace it read. `refOf` says which parameters are references and of what kind.
 */
export function aim(model: ExploreModel, readMethod: MethodName, read: Record<string, unknown>, write: MethodName, drawn: Record<string, unknown>, planned: Omit<Planned, 'method'>, refOf: (param: string) => RefKind | undefined, pick: number): Record<string, unknown> {
  const out: Record<string, unknown> = { ...drawn, ...planned.set };
  // A control character only in a session id (the fixed scenarios hold every server to keeping those, SCN-B-150; no sentence says a name may hold one).
  const other = (v: unknown, key: string) => {
    const all = typeof v === 'string' ? namesakes(v).filter((n) => key === 'session_id' || !/\p{Cc}/u.test(n)) : [];
    return all.length === 0 ? v : all[Math.floor(pick / 4) % all.length];
  };
  // Outside the filter, or (one write in four of a plain history, one clear in two) a namesake of
  // the read's key: a write that must not change the read.
  const aside = planned.outside === true || pick % (write === 'clear_session' ? 2 : 4) === 1;
  const snap = model.snapshot();
  for (const key of KEYS) {
    if (!(key in out)) continue;
    // A read without the key (list_sessions, get_tool_stats …): a key the store holds already.
    const base = typeof read[key] === 'string' ? read[key] : held(snap, key, pick);
    if (base !== undefined) out[key] = aside ? other(base, key) : base;
  }
  const searched = read.query ?? read.task;
  const field = QUERIED[write];
  // A name only from the names explore draws (a query may be empty or 5 000 characters: no name explore sends).
  if (field !== undefined && typeof searched === 'string' && (field !== 'name' || (NAMES as readonly string[]).includes(searched))) out[field] = searched;
  for (const param of Object.keys(out)) {
    const kind = refOf(param);
    if (kind === undefined) continue;
    const id = target(model, readMethod, read, write, param, kind, snap, pick);
    // 'recent': the object the latest calls named or created (RECENT of commands.ts).
    out[param] = id === undefined ? 'recent' : ({ pinned: id } satisfies Pinned);
  }
  return out;
}

/** A value of the key that the store holds now (a session with messages, a recorded tool …), or undefined. */
function held(snap: ReturnType<ExploreModel['snapshot']>, key: string, pick: number): string | undefined {
  const values = key === 'session_id' ? snap.sessions.filter((s) => s.messages.length > 0).map((s) => s.session_id)
    : key === 'tool_name' ? snap.traces.flatMap((t) => t.steps.flatMap((st) => st.tool_calls.map((c) => c.tool_name)))
      : key === 'name' ? snap.entities.map((e) => e.name)
        : key === 'category' ? snap.preferences.map((p) => p.category)
          : key === 'task' ? snap.traces.map((t) => t.task) : [];
  return values.length === 0 ? undefined : values[Math.floor(pick / 16) % values.length];
}

/** The object a write's reference names: one the read named, or one in what it read; undefined: the most recent of its kind. */
function target(model: ExploreModel, readMethod: MethodName, read: Record<string, unknown>, write: MethodName, param: string, kind: RefKind, snap: ReturnType<ExploreModel['snapshot']>, pick: number): string | undefined {
  const live = (kind === 'message' ? snap.sessions.flatMap((s) => s.messages.map((m) => m.id)) : model.pool(kind));
  const of = (ids: readonly string[]) => (ids.length === 0 ? undefined : ids[pick % ids.length]);
  const readEntity = typeof read.entity_id === 'string' ? read.entity_id : undefined;
  if (kind === 'message') {
    const sid = read.session_id;
    return of(typeof sid === 'string' ? snap.sessions.filter((s) => s.session_id === sid).flatMap((s) => s.messages.map((m) => m.id)) : live);
  }
  if (kind === 'entity' || kind === 'anyEntity') {
    const named = readEntity ?? (typeof read.name === 'string' ? snap.entities.find((e) => e.name === read.name)?.id : undefined);
    // A merge: the read's entity is the target (it stays, and gains the source's relationships);
    // the source another live one, one with relationships when there is one (so that the read changes).
    if (param === 'source_id' && (write === 'merge_duplicate_entities' || write === 'merge_entities')) {
      const others = live.filter((id) => id !== named);
      const related = others.filter((id) => snap.relationships.some((r) => (r.source_id === id || r.target_id === id) && r.source_id !== named && r.target_id !== named));
      return of(related.length > 0 ? related : others);
    }
    // A relationship from the read's entity to another one.
    if (param === 'target_id' && write === 'add_relationship') return of(live.filter((id) => id !== named));
    if (named !== undefined && live.includes(named)) return named;
    return undefined;
  }
  if (kind === 'trace') {
    if (typeof read.trace_id === 'string') return read.trace_id;
    if (typeof read.session_id === 'string' && readMethod === 'list_traces') return of(snap.traces.filter((t) => t.session_id === read.session_id).map((t) => t.id));
    return undefined;
  }
  if (kind === 'step' || kind === 'anyStep') {
    if (typeof read.step_id === 'string') return read.step_id;
    if (typeof read.trace_id === 'string') return of(snap.traces.find((t) => t.id === read.trace_id)?.steps.map((s) => s.id) ?? []);
    if (typeof read.conversation_id === 'string') return of([...model.platinum.steps.entries()].filter(([, s]) => s.conversation === read.conversation_id).map(([id]) => id));
    // A step of a trace not completed: a tool call on it must be accepted (completed-trace-writes).
    return of(snap.traces.filter((t) => t.completed_at == null).flatMap((t) => t.steps.map((st) => st.id)));
  }
  if (kind === 'conversation' || kind === 'anyConversation') return typeof read.conversation_id === 'string' ? read.conversation_id : undefined;
  return undefined;
}
