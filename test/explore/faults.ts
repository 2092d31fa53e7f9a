// Stateful faulty variants of the reference server that no fixed scenario catches (proven in
// test/explore/faults.test.ts): each breaks one rule only after a particular history of calls.
import { MemoryStore, type Params } from '../../src/servers/bridge/index.js';
import type { Message, ReasoningTrace, SessionInfo } from '../../src/protocols/bridge/index.js';
import { explore, type ExploreOptions } from '../../src/explore/run.js';
import type { ExploreSection } from '../../src/report/model.js';
import { mapRequest, withVariant, type VariantOptions, type Wrap } from '../harness/variants.js';
import { reusesDeletedIds } from '../suites/variants/fidelity.js';
import { FAULTS_22, type Fault } from './faults-22.js';
import { FAULTS_34 } from './faults-34.js';
import { PLATINUM_FAULTS } from './platinum-faults.js';

/**
 * The fixed seed of explore's own tests (CI is deterministic; local runs of tck explore draw new
 * ones): 1, unless SEED_OF names another for a fault.
 */
const SEED = 1;
/** Faults tested with another seed than 1 (each entry says why). */
export const SEED_OF: Record<string, number> = {
  // A rare state (an entity renamed to a name no other live entity ever had, then looked up by it):
  // when set_entity_feedback began to draw its required `confirmed` every time (issue 32) the draws
  // of seed 1 moved and no longer reach it in 1 000 sequences; seed 2 does after 182 (seeds 3 and 4: not in 1 000).
  'get_entity_by_name misses a renamed entity': 2,
  // Issue 34's histories and namesakes moved seed 1's draws again: its first finding of each of
  // these is now a consequence another rule sees first (a delete_message answering false for a
  // message the over-matching clear took, add_relationship's answer with the empty map), citing no
  // sentence the fault is listed as breaking; the seed named finds it by a rule that does.
  'session ids are case-folded': 2,
  'session ids are trimmed': 3,
  'an empty map nested in user data is answered as []': 2,
  'delete_message deletes the same content in its session': 4,
  'clear_session matches session ids case-insensitively': 2,
  'session ids normalised to NFC': 2,
  // Missed by seed 1 in 1 000 sequences before issue 34; now seed 1 finds each only after some 450
  // sequences, and shrinks it to 7 commands; seed 3 (tool-call keys: 106 sequences, 3 commands) and
  // seed 2 (per-trace means: 121, 5) find them shorter.
  'tool-call result keys camel-cased on the read path': 3,
  'avg_duration_ms is a mean of per-trace means': 2,
};
/** Explore against a variant: explore's defaults but the seed and a shorter request timeout. */
export const exploreVariant = (variant: VariantOptions, options: Partial<ExploreOptions> = {}): Promise<ExploreSection> =>
  withVariant(variant, (url) => explore({ url, seed: SEED, requestTimeoutMs: 5_000, ...options }));

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

/** clear_session(id) clears every session whose id starts with id (an unescaped LIKE 'id%'). */
class ClearSessionByPrefix extends MemoryStore {
  override clear_session(p: Params<'clear_session'>) {
    for (const sid of [...this.sessions.keys()]) if (sid !== p.session_id && sid.startsWith(p.session_id)) super.clear_session({ session_id: sid });
    super.clear_session(p);
  }
}

/** get_trace_with_steps answers a completed trace from a cache filled by complete_trace. */
class CompletedTraceCached extends MemoryStore {
  #cache = new Map<string, ReasoningTrace>();
  override complete_trace(p: Params<'complete_trace'>): ReasoningTrace {
    const t = super.complete_trace(p);
    this.#cache.set(p.trace_id, t);
    return t;
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#cache.clear();
    super.clear_all_data(p);
  }
  override get_trace_with_steps(p: Params<'get_trace_with_steps'>) {
    return this.#cache.get(p.trace_id) ?? super.get_trace_with_steps(p);
  }
}

/**
 * message_count kept as a counter per session, decremented by every delete_message naming one of the
 * session's messages, found or not: deleting a message twice makes the count drift.
 */
class CountDriftsOnRepeatedDelete extends MemoryStore {
  #owner = new Map<string, string>();
  #counts = new Map<string, number>();
  override add_message(p: Params<'add_message'>): Message {
    const m = super.add_message(p);
    this.#owner.set(m.id, p.session_id);
    this.#counts.set(p.session_id, (this.#counts.get(p.session_id) ?? 0) + 1);
    return m;
  }
  override delete_message(p: Params<'delete_message'>) {
    const sid = this.#owner.get(p.message_id);
    if (sid !== undefined) this.#counts.set(sid, (this.#counts.get(sid) ?? 0) - 1);
    return super.delete_message(p);
  }
  override clear_session(p: Params<'clear_session'>) {
    for (const [id, sid] of this.#owner) if (sid === p.session_id) this.#owner.delete(id);
    this.#counts.delete(p.session_id);
    super.clear_session(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#owner.clear();
    this.#counts.clear();
    super.clear_all_data(p);
  }
  override list_sessions(p: Params<'list_sessions'>): SessionInfo[] {
    return super.list_sessions(p).map((s) => ({ ...s, message_count: Math.max(0, this.#counts.get(s.session_id) ?? 0) }));
  }
}

/** Tool stats grouped by tool name under a case-insensitive collation ("search" and "Search" as one). */
class ToolStatsCaseInsensitive extends MemoryStore {
  override get_tool_stats(p: Params<'get_tool_stats'>) {
    const all = this.traces;
    const fold = (r: (typeof all extends Map<string, infer R> ? R : never)) => ({
      ...r, trace: { ...r.trace, steps: r.trace.steps.map((st) => ({ ...st, tool_calls: st.tool_calls.map((c) => ({ ...c, tool_name: c.tool_name.toLowerCase() })) })) },
    });
    this.traces = new Map([...all].map(([id, r]) => [id, fold(r)]));
    try {
      return super.get_tool_stats(p.tool_name == null ? p : { ...p, tool_name: p.tool_name.toLowerCase() });
    } finally {
      this.traces = all;
    }
  }
}

/** get_related_entities applies relationship_type to the first hop only. */
class TypeFilterFirstHopOnly extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>) {
    const first = super.get_related_entities({ ...p, depth: 1 });
    if (p.relationship_type == null || (p.depth ?? 1) <= 1) return first;
    const seen = new Set([p.entity_id, ...first.map((e) => e.id)]);
    const out = [...first];
    for (const e of first) {
      for (const n of super.get_related_entities({ entity_id: e.id, depth: (p.depth ?? 1) - 1, relationship_type: null })) {
        if (!seen.has(n.id)) {
          seen.add(n.id);
          out.push(n);
        }
      }
    }
    return out;
  }
}

/**
 * The faults explore found before any fixed scenario did (issues 10 and 12); four of them issue 12
 * then gave fixed scenarios of their own (caughtBy), one more the coverage matrix of issue 34
 * (SCN-B-150, session ids of every string class); the rest no fixed scenario catches.
 */
const EARLIER: Fault[] = [
  { name: 'order breaks after a delete (the next message is listed first)', make: () => ({ store: new ReorderAfterDelete() }), breaks: ['SPEC-2.2.1', 'SPEC-2.5.4'], caughtBy: ['SCN-B-160'] },
  { name: 'ids of deleted messages are reused', make: () => ({ store: reusesDeletedIds() }), breaks: ['SPEC-2.8.1'], caughtBy: ['SCN-B-138'] },
  { name: 'session ids are case-folded', make: () => ({ wrap: caseFolded }), breaks: ['SPEC-1.1.3', 'SPEC-2.4.1'], caughtBy: ['SCN-B-139', 'SCN-B-163'] },
  { name: 'a merge drops the incoming edges of the source', make: () => ({ store: new MergeDropsIncoming() }), breaks: ['SPEC-5.3.2'], caughtBy: ['SCN-G-104'] },
  { name: 'nested false / 0 / "" dropped from metadata', make: () => ({ wrap: nestedFalsyDropped }), breaks: ['SPEC-2.1.12', 'SPEC-2.1.5'] },
  { name: 'tool stats count only the first step of a trace', make: () => ({ store: new StatsFirstStepOnly() }), breaks: ['SPEC-4.7.1'], caughtBy: ['SCN-S-114'] },
  { name: 'list_sessions(limit) counts cleared sessions', make: () => ({ store: new LimitCountsClearedSessions() }), breaks: ['SPEC-2.4.1', 'SPEC-2.4.5'] },
  { name: 'session ids are trimmed', make: () => ({ wrap: trimmed }), breaks: ['SPEC-1.1.3'], caughtBy: ['SCN-B-150', 'SCN-B-163'] },
  { name: 'get_conversation(limit) counts deleted messages against the limit', make: () => ({ store: new LimitCountsDeleted() }), breaks: ['SPEC-2.2.2'], caughtBy: ['SCN-B-137', 'SCN-B-160'] },
  { name: 'list_traces(session_id) matches sessions case-insensitively', make: () => ({ store: new TracesCaseInsensitive() }), breaks: ['SPEC-4.6.2'], caughtBy: ['SCN-S-164'] },
  { name: 'steps added after complete_trace are numbered from 1 again', make: () => ({ store: new StepsRestartAfterComplete() }), breaks: ['SPEC-4.2.2'] },
  { name: 'clear_session clears every session whose id starts with it', make: () => ({ store: new ClearSessionByPrefix() }), breaks: ['SPEC-2.6.2', 'SPEC-2.4.1'], caughtBy: ['SCN-B-163'] },
  { name: 'get_trace_with_steps answers a completed trace from a stale cache', make: () => ({ store: new CompletedTraceCached() }), breaks: ['SPEC-4.5.1'] },
  { name: 'message_count drifts when a message is deleted twice', make: () => ({ store: new CountDriftsOnRepeatedDelete() }), breaks: ['SPEC-2.4.7'] },
  { name: 'tool stats group tool names case-insensitively', make: () => ({ store: new ToolStatsCaseInsensitive() }), breaks: ['SPEC-4.7.1'] },
  { name: 'get_related_entities applies relationship_type to the first hop only', make: () => ({ store: new TypeFilterFirstHopOnly() }), breaks: ['SPEC-3.7.3'] },
];

/** Every stateful fault explore is measured against: the earlier ones, issue 22's, the Platinum ones and issue 34's (histories, namesakes, limits beside filters). */
export const FAULTS: Fault[] = [...EARLIER, ...FAULTS_22, ...PLATINUM_FAULTS, ...FAULTS_34];
