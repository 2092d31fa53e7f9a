// All state of the embedded reference server, in memory. One method per bridge method, named
// exactly as the method (so the dispatcher is a table lookup), taking already-validated params and
// returning the model object. Every method is synchronous: no read and write of the state is ever
// separated by an await, so concurrent clients cannot interleave inside one call.
//
// Every method checks all of its preconditions before it changes anything: a method that throws a
// `BadRequestError` (-> 400) leaves the state exactly as it was. Values handed in (metadata,
// arguments, result, properties) are copied on the way in and every returned object is a fresh
// copy, so neither a caller of the dispatcher nor a mutated response can change stored data.
//
// Where bridge-protocol.md is silent, the choices are commented where they are implemented and
// summarised here:
// - Timestamps are `Date.toISOString()` (UTC, "Z", millisecond precision). Within a session the
//   message timestamps never decrease, even if the clock steps back (a message gets
//   max(now, previous)); likewise updated_at >= created_at and completed_at >= started_at.
// - A session exists from its first add_message until clear_session / clear_all_data. Deleting all
//   of its messages leaves it listed with message_count 0.
// - get_conversation of an unknown session answers an empty conversation whose id is derived from
//   the session id (a name-based UUID v5 in a namespace drawn per store and per clear_all_data), so
//   it is stable across calls and kept when the first message arrives, without creating the session
//   (list_sessions does not show it) and without storing anything per id read. Clearing a session
//   that existed moves it to a fresh id.
// - Sizes (400 beyond them): identifiers (session_id and every *_id) at most MAX_ID_CHARS
//   characters, entity names MAX_NAME_CHARS, entity descriptions MAX_TEXT_CHARS, search queries
//   (and get_similar_traces' task) MAX_QUERY_CHARS; get_related_entities follows at most
//   MAX_RELATED_DEPTH hops.
// - get_conversation with limit returns the most recent `limit` messages in chronological order.
// - list_sessions / list_traces: ascending by created_at / started_at (ties: creation order); a
//   limit keeps the first ones. Searches have no default limit.
// - Traces are not sessions: start_trace does not make a session appear in list_sessions.
// - add_step / record_tool_call on a completed trace are allowed; complete_trace may be called
//   again and overwrites outcome, success (absent -> null) and completed_at.
import { randomUUID } from 'node:crypto';
import { uuidV5 } from '../name-uuid.js';
import type { z } from 'zod';
import type {
  Conversation, Entity, Fact, Message, MethodName, Preference, ReasoningStep, ReasoningTrace,
  PlatinumMethodName, Relationship, SessionInfo, ToolCall, ToolStats,
} from '../../protocols/bridge/index.js';
import { METHODS } from '../../protocols/bridge/index.js';
import { fieldTokens, rank, type DocTokens } from './search.js';
import { PROTOCOL_VERSION } from '../../protocols/bridge/version.js';

/** Validated parameters of a method (the output of `METHODS[m].params`). */
export type Params<M extends MethodName> = z.output<(typeof METHODS)[M]['params']>;

/**
 * The contract of a store: one handler per bridge method, taking its validated params. The result
 * is typed `unknown` here because `METHODS[m].kind` is widened to `ResponseKind` in
 * src/protocols/bridge/methods.ts (so `ResultOf<M>` cannot tell a list from an object); MemoryStore's own
 * signatures carry the precise model types.
 */
export type StoreHandlers = { [M in Exclude<MethodName, PlatinumMethodName>]: (params: Params<M>) => unknown } & {
  // Platinum is optional: MemoryStore is the Bronze–Gold reference and leaves these out (the
  // dispatcher answers 501); HostedStore (src/servers/hosted/store.ts) implements them.
  [M in PlatinumMethodName]?: (params: Params<M>) => unknown;
};

/**
 * A precondition failed: the request names something that must exist but does not, or is
 * inconsistent. Maps to 400 `{"error": "<param>: <detail>"}`.
 */
export class BadRequestError extends Error {
  constructor(readonly param: string, readonly detail: string) {
    super(`${param}: ${detail}`);
    // Stryker disable next-line StringLiteral: equivalent: the class name never reaches the wire
    this.name = 'BadRequestError';
  }
}

export interface MemoryStoreOptions {
  /** The clock (default: the real one). */
  now?: () => Date;
  /** The identifier factory (default: crypto.randomUUID). Must return UUID strings. */
  newId?: () => string;
}

/** All stored data (see MemoryStore.snapshot). */
export interface StoreSnapshot {
  sessions: { session_id: string; conversation_id: string; created_at: string; updated_at: string; messages: Message[] }[];
  entities: (Entity & { aliases: string[] })[];
  preferences: Preference[];
  facts: Fact[];
  traces: ReasoningTrace[];
  relationships: Relationship[];
}


interface MessageRec {
  message: Message;
  session: SessionRec;
  doc: DocTokens;
}

interface SessionRec {
  session_id: string;
  conversation_id: string;
  created_ms: number;
  updated_ms: number;
  /** The latest timestamp handed out in this session (messages, updates). */
  last_ms: number;
  messages: MessageRec[];
}

interface EntityRec {
  entity: Entity;
  /** Names of entities merged into this one; get_entity_by_name resolves them here. */
  aliases: string[];
  /** The search tokens of its names and description, and what they were made from (see entityTokens). */
  doc?: { name: string; description: string | null; canonical: string | null; aliases: number; tokens: DocTokens };
}

interface PreferenceRec {
  preference: Preference;
  doc: DocTokens;
}

interface TraceRec {
  trace: ReasoningTrace;
  started_ms: number;
  doc: DocTokens;
}

interface StepRec {
  step: ReasoningStep;
  trace: TraceRec;
}

/** Longest identifier (session_id, every *_id) a request may carry. */
export const MAX_ID_CHARS = 1024;
/** Longest entity name. */
export const MAX_NAME_CHARS = 4096;
/** Longest entity description. */
export const MAX_TEXT_CHARS = 1024 * 1024;
/** Longest search query (and get_similar_traces task): its words are looked up in every candidate. */
export const MAX_QUERY_CHARS = 16_384;
/** Most hops get_related_entities follows (its walk is linear in the graph at any depth; the bound refuses the absurd). */
export const MAX_RELATED_DEPTH = 1_000;

/** A 400 for a string parameter longer than `max` characters. */
// Stryker disable next-line BlockStatement: not a protocol rule: the size limits are the reference's own robustness limits (unit-tested in test/reference)
export function checkSize(param: string, value: string | null | undefined, max: number): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not a protocol rule: the size limits are the reference's own robustness limits (unit-tested in test/reference)
  if (value != null && value.length > max) throw new BadRequestError(param, `is ${value.length} characters long; at most ${max} are accepted`);
}

/** Statuses counted as failed by get_tool_stats; pending and cancelled count in total only. */
const FAILED_STATUSES: ReadonlySet<string> = new Set(['failure', 'error', 'timeout']);

/**
 * A deep copy of a JSON value (plain objects, arrays, primitives), so the state never shares
 * objects with callers. Much faster than structuredClone for the many small objects of a store.
 * An own "__proto__" key (JSON.parse makes one) stays an own data property.
 */
function copy<T>(value: T): T {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent over HTTP: every answer is serialised, so a shared object never reaches a client
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = copy((value as Record<string, unknown>)[key]);
    // Stryker disable next-line BooleanLiteral: equivalent: writable and configurable are unobservable once the value is serialised (enumerable is checked: SCN-B-142)
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}

export class MemoryStore implements StoreHandlers {
  readonly now: () => Date;
  readonly newId: () => string;

  // The state. Protected (not private) so that variant stores in tests can subclass and inspect it.
  protected sessions = new Map<string, SessionRec>();
  /**
   * The namespace of derived conversation ids (see get_conversation): drawn from the id factory
   * when first needed, so a store with a deterministic factory derives deterministic ids; drawn
   * again after clear_all_data.
   */
  protected conversationNamespace: string | undefined;
  /** How often a session id's session was cleared: part of its derived conversation id. Writes only. */
  protected sessionGenerations = new Map<string, number>();
  protected messages = new Map<string, MessageRec>();
  protected entities = new Map<string, EntityRec>();
  protected preferences: PreferenceRec[] = [];
  protected facts: Fact[] = [];
  protected traces = new Map<string, TraceRec>();
  protected steps = new Map<string, StepRec>();
  protected relationships: Relationship[] = [];

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.newId = options.newId ?? (() => randomUUID());
  }

  /** The conversation id a session id has (before and after its first message), derived, not stored. */
  protected conversationIdOf(sessionId: string): string {
    this.conversationNamespace ??= this.newId();
    // Stryker disable next-line LogicalOperator: equivalent: another stable name for the first generation of a session
    return uuidV5(this.conversationNamespace, `${this.sessionGenerations.get(sessionId) ?? 0}:${sessionId}`);
  }

  private nowMs(): number {
    return this.now().getTime();
  }

  // ---------------------------------------------------------------- lifecycle

  setup(_params: Params<'setup'>): { ok: boolean; protocol_version: string } {
    return { ok: true, protocol_version: PROTOCOL_VERSION };
  }

  /** Nothing to release: data stays until clear_all_data (teardown is not a wipe). */
  teardown(_params: Params<'teardown'>): void {}

  clear_all_data(_params: Params<'clear_all_data'>): void {
    this.sessions.clear();
    this.conversationNamespace = undefined;
    this.sessionGenerations.clear();
    this.messages.clear();
    this.entities.clear();
    this.preferences = [];
    // Stryker disable next-line ArrayDeclaration: equivalent: facts are write-only over the protocol (no method reads them back)
    this.facts = [];
    this.traces.clear();
    this.steps.clear();
    // Stryker disable next-line ArrayDeclaration: equivalent: a junk element has no source_id or target_id, so no traversal reaches it
    this.relationships = [];
  }

  // ---------------------------------------------------------------- short-term memory (Bronze)

  add_message(p: Params<'add_message'>): Message {
    // Everything that can fail (copying, the id and clock factories) runs before the first write.
    const metadata = copy(p.metadata ?? {});
    const id = this.newId();
    const now = this.nowMs();
    const existing = this.sessions.get(p.session_id);
    const conversation_id = existing?.conversation_id ?? this.conversationIdOf(p.session_id);
    const session: SessionRec = existing ??
      { session_id: p.session_id, conversation_id, created_ms: now, updated_ms: now, last_ms: now, messages: [] };
    // Non-decreasing timestamps within a session, whatever the clock does.
    // Stryker disable next-line MethodExpression: timing: only a clock stepping back within a session shows it; a run has no controlled clock
    const ms = Math.max(now, session.last_ms);
    const message: Message = {
      id,
      role: p.role,
      content: p.content,
      timestamp: new Date(ms).toISOString(),
      embedding: null,
      metadata,
    };
    const rec: MessageRec = { message, session, doc: fieldTokens([p.content]) };
    // Stryker disable next-line ConditionalExpression: equivalent: re-inserting the same record under its own key changes nothing
    if (existing === undefined) this.sessions.set(p.session_id, session);
    session.last_ms = ms;
    session.updated_ms = ms;
    session.messages.push(rec);
    this.messages.set(id, rec);
    return copy(message);
  }

  get_conversation(p: Params<'get_conversation'>): Conversation {
    const session = this.sessions.get(p.session_id);
    if (session === undefined) {
      // Unknown session: an empty conversation. Its id is derived from the session id, so it is
      // stable across calls and becomes the id of the conversation once a first message arrives;
      // nothing is stored (a read allocates no state) and the session is not created.
      return {
        id: this.conversationIdOf(p.session_id),
        session_id: p.session_id,
        messages: [],
        title: null,
        created_at: new Date(this.nowMs()).toISOString(),
        updated_at: null,
      };
    }
    // limit: the most recent `limit` messages, still in chronological order.
    // Stryker disable next-line ArrayDeclaration,ConditionalExpression: silent point limit-zero (the kit never sends 0); and slice(-undefined) is the whole list
    const recs = p.limit == null ? session.messages : p.limit === 0 ? [] : session.messages.slice(-p.limit);
    return {
      id: session.conversation_id,
      session_id: session.session_id,
      messages: recs.map((r) => copy(r.message)),
      title: null,
      created_at: new Date(session.created_ms).toISOString(),
      updated_at: new Date(session.updated_ms).toISOString(),
    };
  }

  search_messages(p: Params<'search_messages'>): Message[] {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('query', p.query, MAX_QUERY_CHARS);
    let candidates: Iterable<MessageRec>;
    if (p.session_id != null) {
      candidates = this.sessions.get(p.session_id)?.messages ?? [];
    } else {
      candidates = this.messages.values(); // insertion order: ties in score keep it
    }
    return rank(p.query, candidates, (r) => r.doc, { limit: p.limit, threshold: p.threshold })
      .map((h) => copy(h.item.message));
  }

  list_sessions(p: Params<'list_sessions'>): SessionInfo[] {
    // Ascending by created_at; the Map keeps creation order for ties (stable sort).
    // Stryker disable next-line ArithmeticOperator,ArrowFunction,MethodExpression: silent point list-order: the order of list_sessions is the server's
    const all = [...this.sessions.values()].sort((a, b) => a.created_ms - b.created_ms);
    // Stryker disable next-line ConditionalExpression: equivalent: slice(0, undefined) is the whole list
    const picked = p.limit == null ? all : all.slice(0, p.limit);
    return picked.map((s) => ({
      session_id: s.session_id,
      message_count: s.messages.length,
      created_at: new Date(s.created_ms).toISOString(),
      updated_at: new Date(s.updated_ms).toISOString(),
    }));
  }

  delete_message(p: Params<'delete_message'>): { deleted: boolean } {
    const rec = this.messages.get(p.message_id);
    if (rec === undefined) return { deleted: false };
    const session = rec.session;
    const index = session.messages.indexOf(rec);
    // Stryker disable next-line ConditionalExpression: equivalent: a stored message is always in its session's list
    if (index >= 0) session.messages.splice(index, 1);
    this.messages.delete(p.message_id);
    // The session stays (with message_count possibly 0); its update time moves forward.
    // Stryker disable next-line MethodExpression: timing: only a clock stepping back shows it; a run has no controlled clock
    const ms = Math.max(this.nowMs(), session.last_ms);
    session.last_ms = ms;
    session.updated_ms = ms;
    return { deleted: true };
  }

  /** Removes the session, its messages and its conversation; unknown sessions are fine. */
  clear_session(p: Params<'clear_session'>): void {
    const session = this.sessions.get(p.session_id);
    if (session === undefined) return;
    for (const rec of session.messages) this.messages.delete(rec.message.id);
    this.sessions.delete(p.session_id);
    // A session created again under this id gets a fresh conversation id.
    // Stryker disable next-line ArithmeticOperator,LogicalOperator: silent point empty-conversation-id: the conversation id of a cleared session is the server's choice
    this.sessionGenerations.set(p.session_id, (this.sessionGenerations.get(p.session_id) ?? 0) + 1);
  }

  // ---------------------------------------------------------------- long-term memory (Silver)

  add_entity(p: Params<'add_entity'>): Entity {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('name', p.name, MAX_NAME_CHARS);
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('description', p.description, MAX_TEXT_CHARS);
    const entity: Entity = {
      id: this.newId(),
      name: p.name,
      type: p.entity_type,
      subtype: null,
      description: p.description ?? null,
      embedding: null,
      canonical_name: null,
      created_at: new Date(this.nowMs()).toISOString(),
    };
    // Stryker disable next-line ArrayDeclaration: equivalent in practice: a junk alias "Stryker was here" shows only to a lookup or search of exactly that text
    const rec: EntityRec = { entity, aliases: [] };
    this.entityTokens(rec); // tokenised once, at write time
    this.entities.set(entity.id, rec);
    return copy(entity);
  }

  add_preference(p: Params<'add_preference'>): Preference {
    const preference: Preference = {
      id: this.newId(),
      category: p.category,
      preference: p.preference,
      context: p.context ?? null,
      embedding: null,
    };
    this.preferences.push({ preference, doc: fieldTokens([p.preference, p.context, p.category]) });
    return copy(preference);
  }

  add_fact(p: Params<'add_fact'>): Fact {
    const fact: Fact = { id: this.newId(), subject: p.subject, predicate: p.predicate, object: p.obj, embedding: null };
    this.facts.push(fact);
    return copy(fact);
  }

  /** Over name, description, canonical_name and the names of entities merged into it. */
  search_entities(p: Params<'search_entities'>): Entity[] {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('query', p.query, MAX_QUERY_CHARS);
    return rank(
      p.query,
      this.entities.values(),
      (r) => this.entityTokens(r),
      { limit: p.limit },
    ).map((h) => copy(h.item.entity));
  }

  /** Over preference, context and category; `category` filters by exact equality. */
  search_preferences(p: Params<'search_preferences'>): Preference[] {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('query', p.query, MAX_QUERY_CHARS);
    const candidates = p.category == null ? this.preferences : this.preferences.filter((r) => r.preference.category === p.category);
    // Stryker disable next-line ObjectLiteral: advisory ADV-search-preferences-limit: search_preferences then ignores limit, which SCN-S-110 notes
    return rank(p.query, candidates, (r) => r.doc, { limit: p.limit }).map((h) => copy(h.item.preference));
  }

  /**
   * Exact, case-sensitive lookup. Precedence: an entity's own name, then its canonical_name, then
   * the name of an entity merged into it; the oldest entity wins within each.
   */
  get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const all = [...this.entities.values()];
    const hit =
      all.find((r) => r.entity.name === p.name) ??
      // Stryker disable next-line ArrowFunction,ConditionalExpression: silent point entity-name-lookup: whether get_entity_by_name also matches canonical names
      all.find((r) => r.entity.canonical_name === p.name) ??
      // Stryker disable next-line ArrowFunction: silent points entity-name-lookup and merge-source-lookup: whether merged-away names are found
      all.find((r) => r.aliases.includes(p.name));
    return hit === undefined ? null : copy(hit.entity);
  }

  /**
   * Entities reachable from `entity_id` within `depth` hops (default 1), following relationships in
   * both directions (the graph is read as undirected: "related" is symmetric), optionally only those
   * of `relationship_type`. Breadth-first: nearer entities first, then relationship creation order.
   * The start entity and duplicates are excluded. An unknown entity_id is a 400: the method asks
   * about an entity that must exist.
   */
  get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point related-unknown-entity: [] or an error; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (!this.entities.has(p.entity_id)) throw new BadRequestError('entity_id', `no entity with id ${JSON.stringify(p.entity_id)}`);
    const depth = p.depth ?? 1;
    // Stryker disable next-line all: not a protocol rule: the depth bound is the reference's own robustness limit (unit-tested in test/reliability)
    if (depth > MAX_RELATED_DEPTH) throw new BadRequestError('depth', `is ${depth}; at most ${MAX_RELATED_DEPTH} hops are followed (a bound of the reference)`);
    const edges = p.relationship_type == null
      ? this.relationships
      : this.relationships.filter((r) => r.relationship_type === p.relationship_type);
    // Each relationship's two ends, by entity: position 2k is relationship k read from its source,
    // 2k + 1 from its target. Built once; the walk then looks at each relationship at most twice
    // (from each end, when that end is reached), so its cost is linear in the graph at any depth.
    const ends = new Map<string, number[]>();
    const at = (id: string, position: number) => {
      const list = ends.get(id);
      if (list === undefined) ends.set(id, [position]);
      else list.push(position);
    };
    edges.forEach((e, k) => {
      at(e.source_id, 2 * k);
      at(e.target_id, 2 * k + 1);
    });
    // Stryker disable next-line ArrayDeclaration: silent point related-depth: whether the start entity can come back through a cycle
    const visited = new Set<string>([p.entity_id]);
    const out: Entity[] = [];
    let frontier = [p.entity_id];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator,UpdateOperator: silent point related-depth: how far depth reaches (the kit checks direct neighbours only)
    for (let level = 0; level < depth && frontier.length > 0; level++) {
      // In relationship creation order (sources before targets within one), as a scan of every
      // relationship would meet them.
      const positions = frontier.flatMap((id) => ends.get(id) ?? []);
      // Stryker disable next-line ArrowFunction,ArithmeticOperator,MethodExpression: silent point list-order: the order of get_related_entities is the server's
      positions.sort((a, b) => a - b);
      // Stryker disable next-line ArrayDeclaration: equivalent: a junk id in the next frontier has no relationship, so the walk reaches nothing from it
      const next: string[] = [];
      for (const position of positions) {
        const e = edges[position >> 1]!;
        // Stryker disable next-line ConditionalExpression: silent point related-incoming: whether get_related_entities follows incoming relationships (the true mutant follows outgoing ones only)
        const to = position % 2 === 0 ? e.target_id : e.source_id;
        // Stryker disable next-line ConditionalExpression: silent points related-repeats and related-depth: whether a neighbour reached twice is listed again, and whether the start entity can come back
        if (visited.has(to)) continue;
        visited.add(to);
        next.push(to);
        const rec = this.entities.get(to);
        // Stryker disable next-line ConditionalExpression: equivalent: every relationship links live entities (merges re-point them; clears drop both)
        if (rec !== undefined) out.push(copy(rec.entity));
      }
      frontier = next;
    }
    return out;
  }

  // ---------------------------------------------------------------- reasoning memory (Silver)

  start_trace(p: Params<'start_trace'>): ReasoningTrace {
    const started_ms = this.nowMs();
    const trace: ReasoningTrace = {
      id: this.newId(),
      session_id: p.session_id,
      task: p.task,
      steps: [],
      outcome: null,
      success: null,
      started_at: new Date(started_ms).toISOString(),
      completed_at: null,
    };
    this.traces.set(trace.id, { trace, started_ms, doc: fieldTokens([p.task]) });
    return copy(trace);
  }

  add_step(p: Params<'add_step'>): ReasoningStep {
    const rec = this.traceOr400(p.trace_id);
    const step: ReasoningStep = {
      id: this.newId(),
      trace_id: rec.trace.id,
      // Stryker disable next-line ArithmeticOperator: silent point step-base: step numbers may start anywhere, only their order is checked
      step_number: rec.trace.steps.length + 1,
      thought: p.thought ?? null,
      action: p.action ?? null,
      observation: p.observation ?? null,
      tool_calls: [],
    };
    rec.trace.steps.push(step);
    this.steps.set(step.id, { step, trace: rec });
    return copy(step);
  }

  record_tool_call(p: Params<'record_tool_call'>): ToolCall {
    const rec = this.steps.get(p.step_id);
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call fails with a TypeError, answered 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (rec === undefined) throw new BadRequestError('step_id', `no step with id ${JSON.stringify(p.step_id)}`);
    const call: ToolCall = {
      id: this.newId(),
      tool_name: p.tool_name,
      arguments: copy(p.arguments),
      // Stryker disable next-line ConditionalExpression: silent point optional-null-or-omitted: an absent result omitted instead of null
      result: p.result === undefined ? null : copy(p.result),
      status: p.status ?? 'success',
      duration_ms: p.duration_ms ?? null,
      error: p.error ?? null,
    };
    rec.step.tool_calls.push(call);
    return copy(call);
  }

  complete_trace(p: Params<'complete_trace'>): ReasoningTrace {
    const rec = this.traceOr400(p.trace_id);
    rec.trace.outcome = p.outcome ?? null;
    rec.trace.success = p.success ?? null;
    // Stryker disable next-line MethodExpression: timing: completed_at >= started_at holds for a real clock within a scenario
    rec.trace.completed_at = new Date(Math.max(this.nowMs(), rec.started_ms)).toISOString();
    return copy(rec.trace);
  }

  /** Any string is accepted; one that names no trace (UUID or not) gives null. */
  get_trace_with_steps(p: Params<'get_trace_with_steps'>): ReasoningTrace | null {
    const rec = this.traces.get(p.trace_id);
    return rec === undefined ? null : copy(rec.trace);
  }

  list_traces(p: Params<'list_traces'>): ReasoningTrace[] {
    let all = [...this.traces.values()];
    if (p.session_id != null) all = all.filter((r) => r.trace.session_id === p.session_id);
    // Stryker disable next-line ArithmeticOperator,ArrowFunction,MethodExpression: silent point list-order: the order of list_traces is the server's
    all.sort((a, b) => a.started_ms - b.started_ms);
    // Stryker disable next-line ConditionalExpression: equivalent: slice(0, undefined) is the whole list
    const picked = p.limit == null ? all : all.slice(0, p.limit);
    return picked.map((r) => copy(r.trace));
  }

  /**
   * One entry per tool name, sorted by name (code-unit order). failed_calls counts failure, error
   * and timeout; pending and cancelled count in total_calls only. success_rate = successful/total.
   * avg_duration_ms is the mean of the recorded duration_ms values (null when none was recorded).
   */
  get_tool_stats(p: Params<'get_tool_stats'>): ToolStats[] {
    const acc = new Map<string, { total: number; ok: number; failed: number; durations: number; duration_sum: number }>();
    for (const { trace } of this.traces.values()) {
      for (const step of trace.steps) {
        for (const call of step.tool_calls) {
          if (p.tool_name != null && call.tool_name !== p.tool_name) continue;
          let a = acc.get(call.tool_name);
          if (a === undefined) {
            a = { total: 0, ok: 0, failed: 0, durations: 0, duration_sum: 0 };
            acc.set(call.tool_name, a);
          }
          a.total++;
          if (call.status === 'success') a.ok++;
          // Stryker disable next-line ConditionalExpression: silent point tool-stats-unfinished: whether pending and cancelled calls count as failed
          if (FAILED_STATUSES.has(call.status)) a.failed++;
          if (call.duration_ms != null) {
            a.durations++;
            a.duration_sum += call.duration_ms;
          }
        }
      }
    }
    const byName = [...acc.entries()];
    // Stryker disable next-line all: silent point list-order: the order of get_tool_stats is the server's
    byName.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return byName.map(([name, a]) => ({
      name,
      total_calls: a.total,
      successful_calls: a.ok,
      failed_calls: a.failed,
      // Stryker disable next-line ConditionalExpression: equivalent: a tool is listed only once it has a call, so total is never 0
      success_rate: a.total === 0 ? 0 : a.ok / a.total,
      // Stryker disable next-line ConditionalExpression: equivalent: 0 / 0 is NaN, which JSON writes as null
      avg_duration_ms: a.durations === 0 ? null : a.duration_sum / a.durations,
    }));
  }

  // ---------------------------------------------------------------- Gold

  /** Both ends must exist (400 otherwise); a self-relationship is allowed. */
  add_relationship(p: Params<'add_relationship'>): Relationship {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    this.entityOr400('source_id', p.source_id);
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    this.entityOr400('target_id', p.target_id);
    const rel: Relationship = {
      id: this.newId(),
      source_id: p.source_id,
      target_id: p.target_id,
      relationship_type: p.relationship_type,
      properties: copy(p.properties ?? {}),
    };
    this.relationships.push(rel);
    return copy(rel);
  }

  /**
   * Merges `source_id` into `target_id`: the target stays (with canonical_name set when given),
   * every relationship of the source is re-pointed at the target (self-loops that result are
   * dropped), the source is removed and its names (name, canonical_name, own aliases) become
   * aliases of the target, so get_entity_by_name(source name) then finds the target. The target's
   * other fields are kept.
   */
  merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    const source = this.entityOr400('source_id', p.source_id);
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    const target = this.entityOr400('target_id', p.target_id);
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (p.source_id === p.target_id) throw new BadRequestError('target_id', 'must differ from source_id (an entity cannot be merged into itself)');
    // Stryker disable next-line ArrayDeclaration: equivalent: a junk element has no source_id or target_id, so no traversal reaches it
    const kept: Relationship[] = [];
    for (const r of this.relationships) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,LogicalOperator: equivalent: which self-loops a merge keeps is unobservable (get_related_entities never lists the start entity)
      const touched = r.source_id === p.source_id || r.target_id === p.source_id;
      if (r.source_id === p.source_id) r.source_id = p.target_id;
      if (r.target_id === p.source_id) r.target_id = p.target_id;
      // A relationship of the source that now points from the target to itself (it linked source
      // and target, or was a loop of the source) is dropped; a loop the target already had stays.
      // Stryker disable next-line ConditionalExpression: equivalent: which self-loops a merge keeps is unobservable (get_related_entities never lists the start entity)
      if (touched && r.source_id === r.target_id) continue;
      kept.push(r);
    }
    this.relationships = kept;
    // Stryker disable next-line ArrayDeclaration,BlockStatement: silent point merge-source-lookup: whether get_entity_by_name finds the target by a merged-away name
    for (const name of [source.entity.name, source.entity.canonical_name, ...source.aliases]) {
      // Stryker disable next-line BooleanLiteral,ConditionalExpression,EqualityOperator,LogicalOperator: silent point merge-source-lookup; a null or repeated alias changes no lookup
      if (name != null && name !== target.entity.name && !target.aliases.includes(name)) target.aliases.push(name);
    }
    // Stryker disable next-line ConditionalExpression: silent point optional-null-or-omitted: a merge without canonical_name leaves it unset (omitted), as servers that take the parameter as the new value do
    if (p.canonical_name != null) target.entity.canonical_name = p.canonical_name;
    this.entities.delete(p.source_id);
    return copy(target.entity);
  }

  get_similar_traces(p: Params<'get_similar_traces'>): ReasoningTrace[] {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('task', p.task, MAX_QUERY_CHARS);
    let candidates = [...this.traces.values()];
    if (p.success_only === true) candidates = candidates.filter((r) => r.trace.success === true);
    return rank(p.task, candidates, (r) => r.doc, { limit: p.limit }).map((h) => copy(h.item.trace));
  }

  // ---------------------------------------------------------------- inspection

  /**
   * A deep, JSON-serialisable copy of all stored data, in storage order: for tests (a 400 must
   * leave it unchanged), debugging and variant servers. Conversation ids reserved by reads of
   * unknown sessions are not data and are left out.
   */
  // Stryker disable all: not a protocol rule: snapshot() is no protocol method (explore's model, tests and debugging read it)
  snapshot(): StoreSnapshot {
    return copy({
      sessions: [...this.sessions.values()].map((s) => ({
        session_id: s.session_id,
        conversation_id: s.conversation_id,
        created_at: new Date(s.created_ms).toISOString(),
        updated_at: new Date(s.updated_ms).toISOString(),
        messages: s.messages.map((r) => r.message),
      })),
      entities: [...this.entities.values()].map((r) => ({ ...r.entity, aliases: r.aliases })),
      preferences: this.preferences.map((r) => r.preference),
      facts: this.facts,
      traces: [...this.traces.values()].map((r) => r.trace),
      relationships: this.relationships,
    });
  }
  // Stryker restore all

  // ---------------------------------------------------------------- helpers

  /**
   * The search tokens of an entity, kept with it: made at write time and made again only when a
   * field they come from has changed since (a merge or an update replaces the field's string, so
   * comparing references is enough), never on every search.
   */
  protected entityTokens(rec: EntityRec): DocTokens {
    const e = rec.entity;
    const d = rec.doc;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a cache of search tokens; name and description never change after add_entity, and merges always add an alias
    if (d !== undefined && d.name === e.name && d.description === e.description && d.canonical === e.canonical_name && d.aliases === rec.aliases.length) return d.tokens;
    const tokens = fieldTokens([e.name, e.description, e.canonical_name, ...rec.aliases]);
    // Stryker disable next-line LogicalOperator,ObjectLiteral: equivalent: a cache of search tokens (see above)
    rec.doc = { name: e.name, description: e.description ?? null, canonical: e.canonical_name ?? null, aliases: rec.aliases.length, tokens };
    return tokens;
  }

  private traceOr400(id: string): TraceRec {
    const rec = this.traces.get(id);
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call fails with a TypeError, answered 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (rec === undefined) throw new BadRequestError('trace_id', `no trace with id ${JSON.stringify(id)}`);
    return rec;
  }

  private entityOr400(param: string, id: string): EntityRec {
    const rec = this.entities.get(id);
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call fails with a TypeError, answered 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (rec === undefined) throw new BadRequestError(param, `no entity with id ${JSON.stringify(id)}`);
    return rec;
  }
}
