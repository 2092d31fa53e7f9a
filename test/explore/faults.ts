// Stateful faulty variants of the reference server that no fixed scenario catches (proven in
// test/explore/explore.test.ts): each breaks one rule only after a particular history of calls.
import { MemoryStore, type Params } from '../../src/servers/bridge/index.js';
import type { Message, ReasoningTrace, SessionInfo } from '../../src/protocols/bridge/index.js';
import { mapRequest, type VariantOptions, type Wrap } from '../harness/variants.js';
import { reusesDeletedIds } from '../suites/variants/fidelity.js';

 

/** After a delete in a session, the next message added to it is listed first. */
class ReorderAfterDelete extends MemoryStore {
  #dirty = new Set<string>();
  override delete_message(p: Params<'delete_message'>) {
    const rec = this.messages.get(p.message_id);
    if (rec) this.#dirty.add(rec.session.session_id);
    return super.delete_message(p);
  }
  override add_message(p: Params<'add_message'>): Message {
    const m = super.add_message(p);
    if (this.#dirty.delete(p.session_id)) {
      const list = this.sessions.get(p.session_id)!.messages;
      list.unshift(list.pop()!);
    }
    return m;
  }
}

const SESSION_METHODS = ['add_message', 'get_conversation', 'search_messages', 'clear_session'];
/** Session ids rewritten on the way in (the conversation still shows the id as sent). */
const sessionIds = (rewrite: (id: string) => string): Wrap => (next) => async (method, body: any) => {
  if (!SESSION_METHODS.includes(method) || typeof body?.session_id !== 'string') return next(method, body);
  const res = await next(method, { ...body, session_id: rewrite(body.session_id) });
  if (res.status === 200 && method === 'get_conversation') return { ...res, body: { ...(res.body as any), session_id: body.session_id } };
  return res;
};
const caseFolded = sessionIds((id) => id.toLowerCase());
const trimmed = sessionIds((id) => id.trim());

/** A merge re-points the source's outgoing relationships and drops its incoming ones. */
class MergeDropsIncoming extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    if (this.entities.has(p.source_id) && this.entities.has(p.target_id) && p.source_id !== p.target_id) {
      this.relationships = this.relationships.filter((r) => r.target_id !== p.source_id || r.source_id === p.target_id);
    }
    return super.merge_duplicate_entities(p);
  }
}

/** false, 0 and "" nested inside metadata are dropped (a truthiness test in a serialiser). */
const dropFalsy = (v: any, depth: number): any => {
  if (Array.isArray(v)) return v.map((x) => dropFalsy(x, depth + 1));
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([, x]) => depth === 0 || (x !== false && x !== 0 && x !== '')).map(([k, x]) => [k, dropFalsy(x, depth + 1)]));
};
const nestedFalsyDropped = mapRequest('add_message', (b) => (b?.metadata && typeof b.metadata === 'object' ? { ...b, metadata: dropFalsy(b.metadata, 0) } : b));

/** get_tool_stats counts only the tool calls of each trace's first step. */
class StatsFirstStepOnly extends MemoryStore {
  override get_tool_stats(p: Params<'get_tool_stats'>) {
    const all = this.traces;
    this.traces = new Map([...all].map(([id, r]) => [id, { ...r, trace: { ...r.trace, steps: r.trace.steps.slice(0, 1) } }]));
    try {
      return super.get_tool_stats(p);
    } finally {
      this.traces = all;
    }
  }
}

/** After clear_session of a live session, list_sessions(limit) still counts it against the limit. */
class LimitCountsClearedSessions extends MemoryStore {
  #ghosts = 0;
  override clear_session(p: Params<'clear_session'>) {
    if (this.sessions.has(p.session_id)) this.#ghosts++;
    super.clear_session(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#ghosts = 0;
    super.clear_all_data(p);
  }
  override list_sessions(p: Params<'list_sessions'>): SessionInfo[] {
    const all = super.list_sessions({ ...p, limit: null });
    return p.limit == null ? all : all.slice(0, Math.max(0, p.limit - this.#ghosts));
  }
}

/** get_conversation(limit) takes the last N including deleted messages, then drops the deleted. */
class LimitCountsDeleted extends MemoryStore {
  #deleted = new Map<string, number>();
  override delete_message(p: Params<'delete_message'>) {
    const sid = this.messages.get(p.message_id)?.session.session_id;
    const r = super.delete_message(p);
    if (r.deleted && sid !== undefined) this.#deleted.set(sid, (this.#deleted.get(sid) ?? 0) + 1);
    return r;
  }
  override clear_session(p: Params<'clear_session'>) {
    this.#deleted.delete(p.session_id);
    super.clear_session(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#deleted.clear();
    super.clear_all_data(p);
  }
  override get_conversation(p: Params<'get_conversation'>) {
    const c = super.get_conversation(p);
    const gone = this.#deleted.get(p.session_id) ?? 0;
    return p.limit == null || gone === 0 ? c : { ...c, messages: c.messages.slice(Math.min(c.messages.length, gone)) };
  }
}

/** list_traces compares session ids case-insensitively. */
class TracesCaseInsensitive extends MemoryStore {
  override list_traces(p: Params<'list_traces'>): ReasoningTrace[] {
    const all = super.list_traces({ ...p, session_id: null, limit: null });
    const hit = p.session_id == null ? all : all.filter((t) => t.session_id.toLowerCase() === p.session_id!.toLowerCase());
    return p.limit == null ? hit : hit.slice(0, p.limit);
  }
}

/** Steps added after complete_trace are numbered from 1 again. */
class StepsRestartAfterComplete extends MemoryStore {
  #completed = new Map<string, number>();
  override complete_trace(p: Params<'complete_trace'>): ReasoningTrace {
    const t = super.complete_trace(p);
    this.#completed.set(p.trace_id, t.steps.length);
    return t;
  }
  override add_step(p: Params<'add_step'>) {
    const s = super.add_step(p);
    const before = this.#completed.get(p.trace_id);
    if (before === undefined) return s;
    const rec = this.traces.get(p.trace_id)!;
    const stored = rec.trace.steps[rec.trace.steps.length - 1]!;
    stored.step_number = rec.trace.steps.length - before;
    return { ...s, step_number: stored.step_number };
  }
}

/** [name, a fresh faulty variant, explore options beyond the defaults (methods to draw from)]. */
/**
 * [name, the faulty server, the methods explore draws from (default: all), the fixed scenarios that
 * catch it too]. Explore found these before any fixed scenario did; four of them issue 12 then gave
 * fixed scenarios of their own (listed), the rest no fixed scenario catches.
 */
export const FAULTS: [name: string, make: () => VariantOptions, methods?: string[], caughtBy?: string[]][] = [
  ['order breaks after a delete (the next message is listed first)', () => ({ store: new ReorderAfterDelete() }), ['add_message', 'delete_message', 'get_conversation']],
  ['ids of deleted messages are reused', () => ({ store: reusesDeletedIds() }), undefined, ['SCN-B-138']],
  ['session ids are case-folded', () => ({ wrap: caseFolded }), undefined, ['SCN-B-139']],
  ['a merge drops the incoming edges of the source', () => ({ store: new MergeDropsIncoming() }), ['add_entity', 'add_relationship', 'merge_duplicate_entities', 'get_related_entities'], ['SCN-G-104']],
  ['nested false / 0 / "" dropped from metadata', () => ({ wrap: nestedFalsyDropped })],
  ['tool stats count only the first step of a trace', () => ({ store: new StatsFirstStepOnly() })],
  ['list_sessions(limit) counts cleared sessions', () => ({ store: new LimitCountsClearedSessions() })],
  ['session ids are trimmed', () => ({ wrap: trimmed })],
  ['get_conversation(limit) counts deleted messages against the limit', () => ({ store: new LimitCountsDeleted() }), undefined, ['SCN-B-137']],
  ['list_traces(session_id) matches sessions case-insensitively', () => ({ store: new TracesCaseInsensitive() })],
  ['steps added after complete_trace are numbered from 1 again', () => ({ store: new StepsRestartAfterComplete() })],
];
