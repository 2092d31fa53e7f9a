// The hosted view of the reference store. HostedStore IS a MemoryStore (the bridge dispatcher
// serves the same instance), extended with what only the hosted REST interface has: a userId and
// metadata per conversation, empty conversations, entity update/delete/feedback/history, reasoning
// steps recorded per conversation, and camelCase views of everything. MemoryStore keeps its state
// protected precisely so that subclasses can reach it; nothing in store.ts changes.
//
// Mapping between the two views (the same data):
// - a REST conversation IS a bridge session: its `id` is the session_id (a conversation created
//   over REST gets a fresh UUID as session_id; a session created by the bridge appears over REST
//   under its session_id, with userId null);
// - a REST message IS a bridge message (plus `conversationId`);
// - a REST reasoning step IS a bridge step: reasoning = thought, actionTaken = action,
//   result = observation. Steps recorded over REST go into one trace per conversation (task
//   "conversation <id>"), started on the first step;
// - REST tool calls are bridge tool calls; the entity graph is the bridge's entities and
//   relationships.
//
// Every method checks its preconditions before it changes anything (HostedError leaves the state
// as it was), and is synchronous, like MemoryStore's. clear_all_data and clear_session also forget
// the hosted-only data that belongs to what they remove.
//
// Choices where the hosted document is silent, read from the official clients (docs/hosted.md,
// the operations table): entity types are free-form lower-case strings over REST (PERSON is "person"); an
// entity whose type is none of the bridge's five appears over the bridge as OBJECT with the hosted
// type as its subtype. Entities are extracted from message content added over REST (extract.ts;
// never from the bridge's add_message, whose scenarios count entities). Observations and
// reflections are derived from what is stored, synchronously: one observation per window of ten
// messages and per reasoning step with a result; one reflection per completed trace, plus one over
// the observations once there are two or more. A merge leaves a SAME_AS link (source -> target),
// shown in the entity graph.
//
// The Platinum bridge methods (the established kit's Volume 5) are the snake_case view of the same
// operations, at the end of the class.
import type { Entity, EntityType, Message, ReasoningStep, ReasoningTrace, Relationship, Role, ToolCall } from '../../protocols/bridge/index.js';
import { ENTITY_TYPES, Uuid } from '../../protocols/bridge/index.js';
import { BadRequestError, MAX_NAME_CHARS, MAX_QUERY_CHARS, MAX_TEXT_CHARS, MemoryStore, checkSize, type MemoryStoreOptions, type Params, type StoreSnapshot } from '../bridge/store.js';
import { rank, tokenize } from '../bridge/search.js';
import { extractEntities } from './extract.js';
import { uuidV5 } from '../name-uuid.js';
import { QueryError, runQuery, writeClauseOf, type EdgeView } from './query.js';

/** A request the hosted view refuses: 400 (bad input) or 404 (unknown resource). */
export class HostedError extends Error {
  constructor(readonly status: 400 | 404, message: string) {
    super(message);
    // Stryker disable next-line StringLiteral: equivalent: the name of the error class never reaches the wire (the bridge answers {"error": message})
    this.name = 'HostedError';
  }
}

type Json = Record<string, unknown>;

export interface ConversationView {
  id: string;
  userId: string | null;
  /** The workspace of the key that created it (null: made over the bridge, no key). */
  workspaceId: string | null;
  title: string | null;
  metadata: Json;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

interface MessageView {
  id: string;
  conversationId: string;
  role: Role;
  content: string;
  timestamp: string;
  embedding: number[] | null;
  metadata: Json;
}

interface EntityView {
  id: string;
  name: string;
  /** Free-form, lower-case (the bridge's PERSON is "person"). */
  type: string;
  subtype: string | null;
  description: string | null;
  embedding: number[] | null;
  canonicalName: string | null;
  /** Names of entities merged into this one. */
  aliases: string[];
  feedback: Json | null;
  createdAt: string;
  updatedAt: string | null;
}

interface ToolCallView {
  id: string;
  stepId: string;
  toolName: string;
  arguments: Json;
  result: unknown;
  status: ToolCall['status'];
  durationMs: number | null;
  error: string | null;
}

interface StepView {
  id: string;
  traceId: string;
  conversationId: string;
  stepNumber: number;
  reasoning: string | null;
  actionTaken: string | null;
  result: string | null;
  toolCalls: ToolCallView[];
  createdAt: string;
}

interface TraceView {
  id: string;
  conversationId: string;
  task: string;
  steps: StepView[];
  outcome: string | null;
  success: boolean | null;
  startedAt: string;
  completedAt: string | null;
}

interface HistoryEntry {
  action: 'created' | 'updated' | 'feedback' | 'merged';
  at: string;
  /** updated: {field: {from, to}}; feedback: {feedback}; merged: {sourceId, sourceName}. */
  details: Json;
}

/** The provenance link a merge leaves: the source is the same as the target. */
interface SameAsLink {
  type: 'SAME_AS';
  sourceId: string;
  targetId: string;
  createdAt: string;
}

interface EntityPatch {
  name?: string | undefined;
  /** Free-form (any case). */
  type?: string | undefined;
  subtype?: string | null | undefined;
  description?: string | null | undefined;
  canonicalName?: string | null | undefined;
}

interface StepInput {
  conversationId: string;
  reasoning?: string | null | undefined;
  actionTaken?: string | null | undefined;
  result?: string | null | undefined;
}

interface ConversationAttrs {
  userId: string | null;
  workspaceId: string | null;
  title: string | null;
  metadata: Json;
}

// Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent over HTTP: every answer is serialized, so a copy and the value itself look alike to a client; no caller passes undefined
const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}

/** SPEC-5.1.4: bulk_add_messages takes at most this many messages per call. */
const BULK_MAX = 100;
/** Messages per observation window. */
const OBSERVATION_WINDOW = 10;
/** The workspace a conversation created over the bridge (which has no keys) reports. */
const BRIDGE_WORKSPACE_ID = 'bridge';

interface ObservationView { id: string; conversationId: string; content: string; createdAt: string; windowStart: string | null; windowEnd: string | null }
interface ReflectionView { id: string; conversationId: string; content: string; createdAt: string }
interface MentionView { conversationId: string; messageId: string; content: string; timestamp: string }

/** Namespace of derived record ids (a fixed UUID of this kit). */
const DERIVED_NAMESPACE = '8b0e7c3a-5d2f-4e91-a6c4-b3d2e1f0a9b8';

/** A stable UUID of what a derived record (observation, reflection) is made from. */
function derivedId(...parts: string[]): string {
  // Stryker disable next-line StringLiteral: equivalent in practice: the parts are fixed-length ids and fixed words, so joined without a separator they still give one distinct UUID per derived record
  return uuidV5(DERIVED_NAMESPACE, parts.join('\u0000'));
}

/** The first sentence of a text, at most 120 characters. */
// Stryker disable next-line BlockStatement: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
function gist(text: string): string {
  // Stryker disable next-line StringLiteral,LogicalOperator,MethodExpression,Regex: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
  const first = text.trim().split(/(?<=[.!?])\s/u)[0] ?? '';
  // Stryker disable next-line StringLiteral,MethodExpression,ConditionalExpression,EqualityOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
  return first.length > 120 ? `${first.slice(0, 117)}...` : first;
}

export class HostedStore extends MemoryStore {
  // Hosted-only data, keyed by session id / entity id; forgotten with what it belongs to.
  protected conversationAttrs = new Map<string, ConversationAttrs>();
  protected entityFeedback = new Map<string, { feedback: Json; updatedAt: string }>();
  protected entityHistory = new Map<string, HistoryEntry[]>();
  protected entityUpdatedAt = new Map<string, string>();
  /** The trace that holds the steps recorded over REST for a conversation. */
  protected conversationTrace = new Map<string, string>();
  /** A REST entity type that is none of the bridge's five (lower-case), by entity id. */
  protected entityHostedType = new Map<string, string>();
  /** When each step was recorded (steps added over the bridge fall back to their trace's start). */
  protected stepCreatedAt = new Map<string, string>();
  /** Entities extracted from messages and not yet added explicitly (an add of the same name claims one). */
  protected extracted = new Set<string>();
  /** SAME_AS provenance links left by merges (SPEC-5.3.3), oldest first. */
  protected sameAs: { id: string; sourceId: string; sourceName: string; sourceType: string; targetId: string; at: string }[] = [];

  constructor(options: MemoryStoreOptions = {}) {
    super(options);
  }

  // Stryker disable next-line BlockStatement: timing: iso() dates the step (created_at falls back to its trace's start), the SAME_AS link, feedback and history; no run can tell a step's recording time from its trace's start within the same milliseconds, and the rest is read only by the REST routes
  private iso(): string {
    return this.now().toISOString();
  }

  // ---------------------------------------------------------------- bridge methods that also clear hosted data

  override clear_all_data(params: Params<'clear_all_data'>): void {
    super.clear_all_data(params);
    this.conversationAttrs.clear();
    this.entityFeedback.clear();
    this.entityHistory.clear();
    this.entityUpdatedAt.clear();
    this.conversationTrace.clear();
    this.entityHostedType.clear();
    this.stepCreatedAt.clear();
    this.extracted.clear();
    this.sameAs = [];
  }

  override clear_session(params: Params<'clear_session'>): void {
    super.clear_session(params);
    this.conversationAttrs.delete(params.session_id);
  }

  /** A merge over either view is recorded in the target's history. */
  override merge_duplicate_entities(params: Params<'merge_duplicate_entities'>): Entity {
    // Stryker disable next-line OptionalChaining: silent point error-status: a merge of an unknown source still fails (a TypeError, 500 {"error"} instead of the core's 400); merge_entities checks the id first
    const sourceName = this.entities.get(params.source_id)?.entity.name;
    // Stryker disable next-line StringLiteral: equivalent: the type is only used when the merge succeeds, and then the source exists
    const sourceType = this.entities.has(params.source_id) ? this.restType(params.source_id) : 'object';
    const merged = super.merge_duplicate_entities(params);
    this.extracted.delete(params.source_id);
    // Stryker disable next-line StringLiteral,LogicalOperator: equivalent: the merge succeeded, so the source existed and had a name
    this.sameAs.push({ id: this.newId(), sourceId: params.source_id, sourceName: sourceName ?? '', sourceType, targetId: merged.id, at: this.iso() });
    this.entityHostedType.delete(params.source_id);
    this.entityFeedback.delete(params.source_id);
    this.entityHistory.delete(params.source_id);
    this.entityUpdatedAt.delete(params.source_id);
    const at = this.iso();
    this.entityUpdatedAt.set(merged.id, at);
    // Stryker disable next-line ObjectLiteral,StringLiteral: outside the mutation run: the link in the target's history is read only by the REST routes (history, the REST merge answer); get_entity_graph's SAME_AS edge comes from sameAs above
    const link: SameAsLink = { type: 'SAME_AS', sourceId: params.source_id, targetId: merged.id, createdAt: at };
    // Stryker disable next-line StringLiteral,ObjectLiteral,LogicalOperator: outside the mutation run: the target's history is read only by the REST route of an entity's history
    this.pushHistory(merged.id, { action: 'merged', at, details: { sourceId: params.source_id, sourceName: sourceName ?? null, link } });
    return merged;
  }

  /** Over the bridge too, an entity added on purpose claims the one only extracted under its name (see addEntity). */
  override add_entity(params: Params<'add_entity'>): Entity {
    // Stryker disable next-line MethodExpression: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
    const name = params.name.toLowerCase();
    // Stryker disable next-line ConditionalExpression,ArrayDeclaration,ArrowFunction,MethodExpression,OptionalChaining: silent point entity-extraction: whether an add_entity of a name the messages named claims the extracted entity or makes a second one is the server's (SCN-P-126 checks the answer either way; a failing add_entity is killed); an extracted id always names a live entity (delete, merge and clear forget it), so the optional chaining is equivalent in practice
    if (![...this.extracted].some((id) => this.entities.get(id)?.entity.name.toLowerCase() === name)) return super.add_entity(params);
    const view = this.addEntity({ name: params.name, type: params.entity_type, description: params.description });
    return copy(this.entities.get(view.id)!.entity);
  }

  /** The bridge snapshot plus the hosted-only data (for tests: a refused request changes neither). */
  override snapshot(): StoreSnapshot & { hosted: Json } {
    return {
      ...super.snapshot(),
      hosted: copy({
        conversations: Object.fromEntries(this.conversationAttrs),
        feedback: Object.fromEntries(this.entityFeedback),
        history: Object.fromEntries(this.entityHistory),
        updatedAt: Object.fromEntries(this.entityUpdatedAt),
        conversationTraces: Object.fromEntries(this.conversationTrace),
        hostedTypes: Object.fromEntries(this.entityHostedType),
        stepCreatedAt: Object.fromEntries(this.stepCreatedAt),
        sameAs: this.sameAs,
        extracted: [...this.extracted],
      }),
    };
  }

  // ---------------------------------------------------------------- conversations

  /** Newest first (SPEC-5.1.2; ties: the later created first), optionally only one user's. */
  listConversations(options: { userId?: string | undefined; limit?: number | undefined } = {}): ConversationView[] {
    // Stryker disable next-line MethodExpression,ArrowFunction,ArithmeticOperator: silent point conversation-newest: the order of conversations created in the same millisecond is the server's; and equivalent in practice: the sessions are kept in creation order, so without the sort (or with a comparator that never swaps) the reversed list is already newest first
    let all = [...this.sessions.values()].reverse().sort((a, b) => b.created_ms - a.created_ms).map((s) => this.conversationOf(s.session_id)!);
    // Stryker disable next-line MethodExpression,ArrowFunction,ConditionalExpression,EqualityOperator: outside the mutation run: only the REST route of conversations passes a userId or a limit to listConversations (list_conversations slices by itself)
    if (options.userId !== undefined) all = all.filter((c) => c.userId === options.userId);
    // Stryker disable next-line MethodExpression,ConditionalExpression,EqualityOperator: outside the mutation run: only the REST route of conversations passes a userId or a limit to listConversations (list_conversations slices by itself)
    return options.limit === undefined ? all : all.slice(0, options.limit);
  }

  /** An empty conversation (a session with no messages yet) with a fresh UUID as its id. */
  createConversation(input: { userId: string; title?: string | null | undefined; metadata?: Json | null | undefined; workspaceId?: string | null | undefined }): ConversationView {
    const id = this.newId();
    const now = this.now().getTime();
    // Stryker disable next-line LogicalOperator: not a protocol rule: no sentence says create_conversation keeps its metadata (SPEC-V5-5.1.1 names the id, the user_id and the workspace_id)
    const metadata = copy(input.metadata ?? {});
    // The bridge view's conversation id is the session id too, so both views name it alike.
    this.sessions.set(id, { session_id: id, conversation_id: id, created_ms: now, updated_ms: now, last_ms: now, messages: [] });
    // Stryker disable next-line LogicalOperator: equivalent: create_conversation always passes a workspace id and never a title; bridgeConversation answers "bridge" for a null workspace and the title is null either way
    this.conversationAttrs.set(id, { userId: input.userId, workspaceId: input.workspaceId ?? null, title: input.title ?? null, metadata });
    return this.conversationOf(id)!;
  }

  conversationOf(id: string): ConversationView | undefined {
    const s = this.sessions.get(id);
    // Stryker disable next-line ConditionalExpression: silent point error-status: get_conversation_metadata of an unknown id still fails (a TypeError, 500 {"error"} instead of 400); what get_context answers for an unknown conversation no sentence states
    if (s === undefined) return undefined;
    const attrs = this.conversationAttrs.get(id);
    return {
      id: s.session_id,
      userId: attrs?.userId ?? null,
      // Stryker disable next-line LogicalOperator: equivalent: the workspace is "bridge" and the title null over the bridge either way (bridgeConversation); a session without attributes is made only by the core add_message
      workspaceId: attrs?.workspaceId ?? null,
      // Stryker disable next-line LogicalOperator: equivalent: the workspace is "bridge" and the title null over the bridge either way (bridgeConversation); a session without attributes is made only by the core add_message
      title: attrs?.title ?? null,
      // Stryker disable next-line LogicalOperator: not a protocol rule: no sentence says create_conversation keeps its metadata (SPEC-V5-5.1.1 names the id, the user_id and the workspace_id)
      metadata: copy(attrs?.metadata ?? {}),
      createdAt: new Date(s.created_ms).toISOString(),
      updatedAt: new Date(s.updated_ms).toISOString(),
      messageCount: s.messages.length,
    };
  }

  conversation(id: string): ConversationView {
    const c = this.conversationOf(id);
    if (c === undefined) throw new HostedError(404, `no conversation with id ${JSON.stringify(id)}`);
    return c;
  }

  /** Idempotent (SPEC-5.1.3): an unknown or already deleted conversation is fine. */
  deleteConversation(id: string): void {
    this.clear_session({ session_id: id });
  }

  /**
   * The conversation with its messages; limit keeps the most recent ones (as get_conversation).
   * An unknown (or deleted) conversation has no messages: `{id, messages: []}`, as the clients read it.
   */
  conversationWithMessages(id: string, limit?: number): Partial<ConversationView> & { id: string; messages: MessageView[] } {
    const c = this.conversationOf(id);
    // Stryker disable next-line ConditionalExpression,ObjectLiteral,ArrayDeclaration: not a protocol rule: no sentence says what get_context answers for a conversation that does not exist (the reference three empty lists, these mutants a 500 {"error"} or the same)
    if (c === undefined) return { id, messages: [] };
    // Stryker disable next-line LogicalOperator: silent point context-recent-window: how many recent messages get_context answers is the server's, the latest one included
    const conv = this.get_conversation({ session_id: id, limit: limit ?? null });
    return { ...c, messages: conv.messages.map((m) => messageView(m, id)) };
  }

  /**
   * Adds a message; a conversation that does not exist yet is created (as the bridge does). The
   * entities named in its content are extracted into the store (an existing one is not repeated).
   */
  addMessage(id: string, input: { role: Role; content: string; metadata?: Json | null | undefined }): MessageView {
    const view = messageView(this.add_message({ session_id: id, role: input.role, content: input.content, metadata: input.metadata ?? null }), id);
    this.extractFrom(input.content);
    return view;
  }

  /** All or nothing: at most BULK_MAX, validated before any is added, so no add can fail midway. */
  addMessages(id: string, inputs: { role: Role; content: string; metadata?: Json | null | undefined }[]): MessageView[] {
    // Stryker disable next-line StringLiteral,ConditionalExpression: equivalent: the bridge's parameter schema refuses more than 100 messages (400) before the store is called (methods.ts, SPEC-5.1.4); and the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (inputs.length > BULK_MAX) throw new HostedError(400, `messages: at most ${BULK_MAX} per call, got ${inputs.length}`);
    return inputs.map((m) => this.addMessage(id, m));
  }

  /** An unknown conversation has no messages to find. */
  searchMessages(id: string, input: { query: string; limit?: number | undefined; threshold?: number | undefined }): (MessageView & { score: number })[] {
    checkSize('query', input.query, MAX_QUERY_CHARS);
    const recs = this.sessions.get(id)?.messages ?? [];
    // The score is the share of the query's words the message holds, so the clients' default
    // threshold (0.7) keeps a message that has them all.
    const words = tokenize(input.query);
    const hits = rank(input.query, recs, (r) => r.doc)
      .map((h) => ({ rec: h.item, score: [...words].filter((w) => h.item.doc.some((set) => set.has(w))).length / words.size }))
      .filter((h) => input.threshold === undefined || h.score >= input.threshold)
      .sort((a, b) => b.score - a.score);
    return hits.slice(0, input.limit).map((h) => ({ ...messageView(copy(h.rec.message), id), score: h.score }));
  }

  /**
   * The three-tier context (SPEC-5.2.1): reflections, observations and the recent messages (limit,
   * default 20), plus the entities those messages mention and the conversation's steps. An unknown
   * conversation has an empty context.
   */
  context(id: string, limit = 20): {
    conversationId: string; reflections: ReflectionView[]; observations: ObservationView[]; recentMessages: MessageView[];
    entities: EntityView[]; steps: StepView[];
  } {
    const { messages } = this.conversationWithMessages(id, limit);
    // Stryker disable next-line ArrowFunction,StringLiteral: outside the mutation run: the entities and steps of a context are read only by the REST route of the context; get_context answers reflections, observations and recent messages
    const text = messages.map((m) => m.content).join('\n');
    // Stryker disable next-line MethodExpression,ArrayDeclaration,ArrowFunction,ConditionalExpression,LogicalOperator: outside the mutation run: the entities and steps of a context are read only by the REST route of the context; get_context answers reflections, observations and recent messages
    const entities = [...this.entities.values()].filter((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && mentions(text, n))).map((r) => this.entityView(r.entity.id));
    return {
      conversationId: id, reflections: this.reflections(id), observations: this.observations(id), recentMessages: messages,
      // Stryker disable next-line MethodExpression,UnaryOperator: outside the mutation run: the entities and steps of a context are read only by the REST route of the context; get_context answers reflections, observations and recent messages
      entities, steps: this.listSteps(id).slice(-limit),
    };
  }

  /**
   * Observations derived from the conversation, oldest first: one per window of ten messages (its
   * roles, the entities it names, the gist of its first message) and one per reasoning step with a
   * result. Ids are stable (derived from what they observe). An unknown conversation has none.
   */
  observations(id: string, limit?: number): ObservationView[] {
    const session = this.sessions.get(id);
    const out: (ObservationView & { at: string })[] = [];
    // Stryker disable next-line LogicalOperator,OptionalChaining,ArrayDeclaration: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number); and no sentence says what get_observations answers for a conversation that does not exist
    const msgs = session?.messages.map((r) => r.message) ?? [];
    // Stryker disable next-line ConditionalExpression,BlockStatement: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    for (let i = 0; i < msgs.length; i += OBSERVATION_WINDOW) {
      // Stryker disable next-line MethodExpression: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const window = msgs.slice(i, i + OBSERVATION_WINDOW);
      const first = window[0]!;
      const last = window[window.length - 1]!;
      // Stryker disable next-line ArrayDeclaration,ArrowFunction,StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const roles = [...new Set(window.map((m) => m.role))].join(', ');
      // Stryker disable next-line ArrowFunction,StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const named = this.entitiesNamedIn(window.map((m) => m.content).join('\n'));
      // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const content = `${window.length} message${window.length === 1 ? '' : 's'} (${roles})` +
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
        (named.length > 0 ? ` naming ${named.join(', ')}` : '') + `; first: "${gist(first.content)}"`;
      // Stryker disable next-line StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      out.push({ id: derivedId('observation', id, first.id), conversationId: id, content, createdAt: last.timestamp, windowStart: first.timestamp, windowEnd: last.timestamp, at: last.timestamp });
    }
    // Stryker disable next-line BlockStatement: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    for (const s of this.listSteps(id)) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      if (s.result === null) continue;
      // Stryker disable next-line StringLiteral,LogicalOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const content = `${s.actionTaken ?? 'step'}: ${s.result}`;
      // Stryker disable next-line StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      out.push({ id: derivedId('observation', id, s.id), conversationId: id, content, createdAt: s.createdAt, windowStart: null, windowEnd: null, at: s.createdAt });
    }
    // Stryker disable next-line UnaryOperator,MethodExpression,ArrowFunction,ConditionalExpression,EqualityOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    const sorted = out.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).map(({ at: _at, ...o }) => o);
    // Stryker disable next-line ConditionalExpression: equivalent: slice(0, undefined) is the whole list
    return limit === undefined ? sorted : sorted.slice(0, limit);
  }

  /**
   * Reflections derived from the conversation: one per completed trace (its task, outcome and
   * success), and, once there are two or more observations, one that condenses them (how many, and
   * the entities named most often).
   */
  reflections(id: string): ReflectionView[] {
    // Stryker disable next-line ArrowFunction,ConditionalExpression: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    const out: ReflectionView[] = this.tracesOf(id).filter((t) => t.completed_at != null)
      .map((t) => ({
        // Stryker disable next-line StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
        id: derivedId('reflection', id, t.id), conversationId: id, createdAt: t.completed_at!,
        // Stryker disable next-line StringLiteral,LogicalOperator,ConditionalExpression,EqualityOperator,BooleanLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
        content: `${t.task}: ${t.outcome ?? 'no outcome'}${t.success === true ? ' (succeeded)' : t.success === false ? ' (failed)' : ''}`,
      }));
    const observations = this.observations(id);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    if (observations.length >= 2) {
      const counts = new Map<string, number>();
      // Stryker disable next-line ArrayDeclaration,LogicalOperator,OptionalChaining,ArrowFunction: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const text = this.sessions.get(id)?.messages.map((r) => r.message.content) ?? [];
      // Stryker disable next-line ArithmeticOperator,LogicalOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      for (const t of text) for (const n of this.entitiesNamedIn(t)) counts.set(n, (counts.get(n) ?? 0) + 1);
      // Stryker disable next-line ArithmeticOperator,MethodExpression,ArrayDeclaration,ArrowFunction,StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
      const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([n, c]) => `${n} (${c})`);
      out.push({
        // Stryker disable next-line StringLiteral: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
        id: derivedId('reflection', id, 'observations'), conversationId: id, createdAt: observations[observations.length - 1]!.createdAt,
        // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
        content: `${observations.length} observations over ${text.length} messages` + (top.length > 0 ? `; most named: ${top.join(', ')}` : ''),
      });
    }
    return out;
  }

  // ---------------------------------------------------------------- entities

  /** `type` compares ignoring case with the REST type (person, concept, …). */
  listEntities(options: { type?: string | undefined; limit?: number | undefined } = {}): EntityView[] {
    let all = [...this.entities.values()];
    if (options.type !== undefined) all = all.filter((r) => this.restType(r.entity.id) === options.type!.toLowerCase());
    // Stryker disable next-line ConditionalExpression: equivalent: slice(0, undefined) is the whole list
    const picked = options.limit === undefined ? all : all.slice(0, options.limit);
    return picked.map((r) => this.entityView(r.entity.id));
  }

  /**
   * Any non-empty type; one of the bridge's five (any case) is stored as that. An entity that was
   * only extracted from messages under the same name (ignoring case) is claimed: it takes the given
   * type and description and keeps its id, so adding what a message already named does not make a
   * second entity of that name.
   */
  // Stryker disable next-line StringLiteral,BlockStatement: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
  addEntity(input: { name: string; type: string; description?: string | null | undefined; subtype?: string | null | undefined }, origin: 'caller' | 'extracted' = 'caller'): EntityView {
    const { bridge, hosted } = splitType(input.type);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,OptionalChaining: silent point entity-extraction: which extracted entity an add of the same name claims is the server's (SCN-P-126 checks the answer; a failing add_entity is killed); extraction itself never meets a known name, and an extracted id always names a live entity (equivalent in practice)
    const claimed = origin === 'caller' ? [...this.extracted].find((id) => this.entities.get(id)?.entity.name.toLowerCase() === input.name.toLowerCase()) : undefined;
    if (claimed !== undefined) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      checkSize('name', input.name, MAX_NAME_CHARS);
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      checkSize('description', input.description, MAX_TEXT_CHARS);
      this.extracted.delete(claimed);
      const e = this.entities.get(claimed)!.entity;
      e.name = input.name;
      e.type = bridge;
      e.description = input.description ?? null;
      // Stryker disable next-line LogicalOperator: equivalent over HTTP: with a bridge type there is no hosted type, so these give undefined where the reference gives null, and an optional field omitted or null is the same answer (BRIDGE-GENERAL-4); a hosted type comes only from the REST routes or extraction
      e.subtype = input.subtype ?? hosted ?? null;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: outside the mutation run: the hosted (non-bridge) type of an entity is read only by the REST routes (restType, the REST type filter)
      if (hosted === undefined) this.entityHostedType.delete(claimed);
      else this.entityHostedType.set(claimed, hosted);
      return this.entityView(claimed);
    }
    // Stryker disable next-line LogicalOperator: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
    const e = this.add_entity({ name: input.name, entity_type: bridge, description: input.description ?? null });
    const rec = this.entities.get(e.id)!.entity;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: outside the mutation run: the hosted (non-bridge) type of an entity is read only by the REST routes (restType, the REST type filter)
    if (hosted !== undefined) this.entityHostedType.set(e.id, hosted);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
    if (origin === 'extracted') this.extracted.add(e.id);
    // Over the bridge, a free-form type shows as OBJECT with the hosted type as its subtype.
    // Stryker disable next-line LogicalOperator: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid); over the bridge only an extracted entity has a hosted type to show as its subtype
    rec.subtype = input.subtype ?? hosted ?? null;
    return this.entityView(e.id);
  }

  /** The REST type of a stored entity: its free-form type, else the bridge type in lower case. */
  protected restType(id: string): string {
    return this.entityHostedType.get(id) ?? this.entities.get(id)!.entity.type.toLowerCase();
  }

  /** Names of stored entities that `text` mentions (name, canonical name or a merged name). */
  protected entitiesNamedIn(text: string): string[] {
    // Stryker disable next-line MethodExpression,ArrayDeclaration,ArrowFunction,ConditionalExpression,LogicalOperator: silent point observations-generated: whether observations and reflections exist and what they say is the server's (SPEC-V5-5.2.2: they MAY be empty; no sentence states their content, windows, order or number)
    return [...this.entities.values()].filter((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && mentions(text, n))).map((r) => r.entity.name);
  }

  /** Adds the entities named in `text` that the store does not hold yet (by any name, ignoring case). */
  // Stryker disable next-line BlockStatement: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
  protected extractFrom(text: string): void {
    // Stryker disable next-line ArrayDeclaration,ArrowFunction,ConditionalExpression,MethodExpression: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
    const known = new Set([...this.entities.values()].flatMap((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases]).filter((n): n is string => n != null).map((n) => n.toLowerCase()));
    // Stryker disable next-line BlockStatement: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
    for (const x of extractEntities(text)) {
      // Stryker disable next-line ConditionalExpression,MethodExpression: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
      if (known.has(x.name.toLowerCase())) continue;
      // Stryker disable next-line MethodExpression: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
      known.add(x.name.toLowerCase());
      // Stryker disable next-line StringLiteral: silent point entity-extraction: the entities a service makes by itself from message content, and how an add_entity of the same name meets them, are the server's (a service that extracts none is valid)
      this.addEntity({ name: x.name, type: x.type, description: 'extracted from message content' }, 'extracted');
    }
  }

  entityView(id: string): EntityView {
    const rec = this.entities.get(id);
    // Stryker disable next-line StringLiteral,ConditionalExpression: equivalent in practice: every bridge method checks the entity id first (entityOrBad), so entityView meets only known ids; and the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (rec === undefined) throw new HostedError(404, `no entity with id ${JSON.stringify(id)}`);
    const e = rec.entity;
    return {
      id: e.id,
      name: e.name,
      type: this.restType(id),
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity)
      subtype: e.subtype ?? null,
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity)
      description: e.description ?? null,
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity)
      embedding: copy(e.embedding ?? null),
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity); get_entity_provenance reads these names too, which is silent point influence-reading
      canonicalName: e.canonical_name ?? null,
      // Stryker disable next-line ArrayDeclaration: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity); get_entity_provenance reads these names too, which is silent point influence-reading
      aliases: [...rec.aliases],
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity)
      feedback: copy(this.entityFeedback.get(id)?.feedback ?? null),
      createdAt: e.created_at,
      // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of an entity is read only by the REST routes; the bridge answers the stored entity itself (bridgeEntity)
      updatedAt: this.entityUpdatedAt.get(id) ?? null,
    };
  }

  /** A partial update (fields left out keep their value); each change is recorded in the history. */
  updateEntity(id: string, patch: EntityPatch): EntityView {
    const before = this.entityView(id);
    const e = this.entities.get(id)!.entity;
    const changes: Json = {};
    const set = <K extends keyof EntityPatch>(field: K, from: unknown, apply: () => void) => {
      const to = patch[field];
      // Stryker disable next-line ConditionalExpression: outside the mutation run: a change to the same value is recorded only in the history and updatedAt, which only the REST routes read
      if (to === undefined || to === from) return;
      // Stryker disable next-line ObjectLiteral: outside the mutation run: an entity's change history, updatedAt and feedback are read only by the REST routes (history, the REST entity view); no bridge method answers them
      changes[field] = { from, to };
      apply();
    };
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('name', patch.name, MAX_NAME_CHARS);
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    checkSize('description', patch.description, MAX_TEXT_CHARS);
    set('name', before.name, () => { e.name = patch.name!; });
    // Stryker disable next-line BlockStatement,StringLiteral: outside the mutation run: update_entity sends only name and description, so type, subtype and canonicalName are changed only by the REST route
    set('type', before.type, () => {
      const { bridge, hosted } = splitType(patch.type!);
      e.type = bridge;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: outside the mutation run: update_entity sends only name and description, so type, subtype and canonicalName are changed only by the REST route
      if (hosted === undefined) this.entityHostedType.delete(id);
      else this.entityHostedType.set(id, hosted);
    });
    // Stryker disable next-line BlockStatement,LogicalOperator,StringLiteral: outside the mutation run: update_entity sends only name and description, so type, subtype and canonicalName are changed only by the REST route
    set('subtype', before.subtype, () => { e.subtype = patch.subtype ?? null; });
    set('description', before.description, () => { e.description = patch.description ?? null; });
    // Stryker disable next-line BlockStatement,LogicalOperator,StringLiteral: outside the mutation run: update_entity sends only name and description, so type, subtype and canonicalName are changed only by the REST route
    set('canonicalName', before.canonicalName, () => { e.canonical_name = patch.canonicalName ?? null; });
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: outside the mutation run: an entity's change history, updatedAt and feedback are read only by the REST routes (history, the REST entity view); no bridge method answers them
    if (Object.keys(changes).length > 0) {
      const at = this.iso();
      this.entityUpdatedAt.set(id, at);
      // Stryker disable next-line ObjectLiteral,StringLiteral: outside the mutation run: an entity's change history, updatedAt and feedback are read only by the REST routes (history, the REST entity view); no bridge method answers them
      this.pushHistory(id, { action: 'updated', at, details: changes });
    }
    return this.entityView(id);
  }

  /**
   * Removes the entity and every relationship that touches it, its merges' SAME_AS links included;
   * idempotent (an unknown id is fine). A merged-away entity, a node of the graph only, is deleted
   * by its id too: the graph's nodes are entities and its edges run between them
   * (hosted-rest-api.md, Entity graph response), so a client clearing by list and delete can empty it.
   */
  deleteEntity(id: string): void {
    this.sameAs = this.sameAs.filter((l) => l.sourceId !== id && l.targetId !== id);
    // Stryker disable next-line ConditionalExpression: equivalent: for an unknown id every statement after the check is a no-op (deletes of absent keys, a filter that keeps everything)
    if (!this.entities.has(id)) return;
    this.entities.delete(id);
    this.entityHostedType.delete(id);
    this.extracted.delete(id);
    this.relationships = this.relationships.filter((r) => r.source_id !== id && r.target_id !== id);
    this.entityFeedback.delete(id);
    this.entityHistory.delete(id);
    this.entityUpdatedAt.delete(id);
  }

  /**
   * The latest feedback replaces the previous one; every feedback is kept in the history. The
   * answer is `{id, updated: true}` (SPEC-5.3.1) with the stored feedback beside it. A userScore,
   * when given, must be a number in [0, 1].
   */
  setFeedback(id: string, feedback: Json): { id: string; updated: true; entityId: string; feedback: Json; updatedAt: string } {
    this.entityView(id);
    // Stryker disable next-line LogicalOperator: equivalent: feedback is write-only over the bridge, and its parameter schema already refuses a user_score outside [0, 1] (methods.ts, SPEC-V5-5.3.1)
    const score = feedback.userScore ?? feedback.user_score;
    // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator,LogicalOperator: equivalent: the bridge's parameter schema refuses a user_score outside [0, 1] before the store is called (methods.ts, SPEC-V5-5.3.1); and the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (score !== undefined && (typeof score !== 'number' || !(score >= 0 && score <= 1))) throw new HostedError(400, `userScore: ${JSON.stringify(score)} is not a number in [0, 1]`);
    const at = this.iso();
    // Stryker disable next-line ObjectLiteral: outside the mutation run: an entity's change history, updatedAt and feedback are read only by the REST routes (history, the REST entity view); no bridge method answers them
    this.entityFeedback.set(id, { feedback: copy(feedback), updatedAt: at });
    // Stryker disable next-line ObjectLiteral,StringLiteral: outside the mutation run: an entity's change history, updatedAt and feedback are read only by the REST routes (history, the REST entity view); no bridge method answers them
    this.pushHistory(id, { action: 'feedback', at, details: { feedback: copy(feedback) } });
    return { id, updated: true, entityId: id, feedback: copy(feedback), updatedAt: at };
  }

  /**
   * Every mention of the entity across conversations (SPEC-5.3.2): each message, in any
   * conversation, whose content names it (name, canonical name or a merged name), oldest first;
   * beside it the entity's own change history, starting with its creation.
   */
  history(id: string): { entityId: string; mentions: MentionView[]; history: HistoryEntry[] } {
    const e = this.entityView(id);
    const created: HistoryEntry = { action: 'created', at: e.createdAt, details: { name: e.name, type: e.type } };
    return { entityId: id, mentions: this.mentionsOf(id), history: [created, ...copy(this.entityHistory.get(id) ?? [])] };
  }

  protected mentionsOf(id: string): MentionView[] {
    const rec = this.entities.get(id)!;
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: equivalent: mentions() answers false for a blank name, so letting blank names through changes nothing
    const names = [rec.entity.name, rec.entity.canonical_name, ...rec.aliases].filter((n): n is string => n != null && n.trim() !== '');
    const out: MentionView[] = [];
    for (const s of this.sessions.values()) {
      for (const { message } of s.messages) {
        // Stryker disable next-line MethodExpression: not a protocol rule: SPEC-V5-5.3.2 asks for every mention of the entity, not whether a message naming only an alias (a merged-away name) or the canonical name is one
        if (names.some((n) => mentions(message.content, n))) out.push({ conversationId: s.session_id, messageId: message.id, content: message.content, timestamp: message.timestamp });
      }
    }
    // Stryker disable next-line UnaryOperator,MethodExpression,ArrowFunction,ConditionalExpression,EqualityOperator: silent point history-mentions-form: the order of the mentions is the server's
    return out.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  }

  /**
   * Merges `sourceId` into `targetId` (the bridge's merge_duplicate_entities), leaving a SAME_AS
   * link from source to target: `{sourceId, targetId, status: "merged", entity: <the target>}`.
   */
  mergeEntity(sourceId: string, input: { targetId: string; canonicalName?: string | null | undefined }): { sourceId: string; targetId: string; status: 'merged'; link: SameAsLink; entity: EntityView } {
    this.entityView(sourceId);
    this.entityView(input.targetId);
    // Stryker disable next-line StringLiteral,ConditionalExpression: equivalent in practice: merge_entities refuses a merge into itself before mergeEntity is called; and the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (sourceId === input.targetId) throw new HostedError(400, 'targetId: must differ from the entity being merged');
    // Stryker disable next-line LogicalOperator: equivalent: merge_entities passes no canonical name, and the core merge reads undefined and null alike
    const merged = this.merge_duplicate_entities({ source_id: sourceId, target_id: input.targetId, canonical_name: input.canonicalName ?? null });
    // The SAME_AS provenance link (SPEC-5.3.3), also in the target's history (action "merged").
    const link = this.entityHistory.get(merged.id)!.at(-1)!.details.link as SameAsLink;
    return { sourceId, targetId: merged.id, status: 'merged', link, entity: this.entityView(merged.id) };
  }

  /** The entity with its outgoing relationships {id, type, targetId, targetName, properties} (get_entity). */
  entityWithRelationships(id: string): EntityView & { relationships: { id: string; type: string; targetId: string; targetName: string | null; properties: Json }[] } {
    const view = this.entityView(id);
    const relationships = this.relationships
      .filter((r) => r.source_id === id)
      .map((r) => ({ id: r.id, type: r.relationship_type, targetId: r.target_id, targetName: this.entities.get(r.target_id)?.entity.name ?? null, properties: copy(r.properties ?? {}) }));
    return { ...view, relationships };
  }

  /**
   * Nodes are the entities, plus each merged-away entity as a node marked `mergedInto`; edges are
   * the relationships plus the SAME_AS links of merges (source -> target).
   */
  graph(): { nodes: (EntityView | { id: string; name: string; type: string; mergedInto: string })[]; edges: EdgeView[] } {
    const live = new Set(this.entities.keys());
    // Stryker disable next-line MethodExpression: equivalent in practice: a merge deletes its source and ids are never reused, so no link's source is live
    const links = this.sameAs.filter((l) => !live.has(l.sourceId));
    return {
      nodes: [...this.listEntities(), ...links.map((l) => ({ id: l.sourceId, name: l.sourceName, type: l.sourceType, mergedInto: l.targetId }))],
      edges: [
        ...this.relationships.map(edgeView),
        // Stryker disable next-line ObjectLiteral: outside the mutation run: the properties of a SAME_AS edge are read only by the REST graph route; get_entity_graph answers id, source, target and type
        ...links.map((l) => edgeView({ id: l.id, source_id: l.sourceId, target_id: l.targetId, relationship_type: 'SAME_AS', properties: { mergedAt: l.at } })),
      ],
    };
  }

  /** The live entities and relationships only (what the query console reads). */
  liveGraph(): { nodes: EntityView[]; edges: EdgeView[] } {
    return { nodes: this.listEntities(), edges: this.relationships.map(edgeView) };
  }

  /** Over name, description, canonical name and merged names, as the bridge's search_entities. */
  searchEntities(input: { query: string; limit?: number | undefined; type?: string | undefined }): (EntityView & { score: number })[] {
    checkSize('query', input.query, MAX_QUERY_CHARS);
    const candidates = [...this.entities.values()].filter((r) => input.type === undefined || this.restType(r.entity.id) === input.type.toLowerCase());
    return rank(input.query, candidates, (r) => this.entityTokens(r), { limit: input.limit })
      .map((h) => ({ ...this.entityView(h.item.entity.id), score: h.score }));
  }

  // ---------------------------------------------------------------- reasoning

  recordStep(input: StepInput): StepView {
    let traceId = this.conversationTrace.get(input.conversationId);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: not a protocol rule: whether record_step keeps a conversation's steps in one trace or several no sentence states (list_steps and get_trace_by_conversation read every trace of the conversation); a dangling trace id cannot occur (clear_all_data forgets both)
    if (traceId === undefined || !this.traces.has(traceId)) {
      // Stryker disable next-line StringLiteral: not a protocol rule: the task of the trace record_step starts is the server's (SPEC-V5-5.4.1 names none)
      traceId = this.start_trace({ session_id: input.conversationId, task: `conversation ${input.conversationId}` }).id;
      this.conversationTrace.set(input.conversationId, traceId);
    }
    const step = this.add_step({ trace_id: traceId, thought: input.reasoning ?? null, action: input.actionTaken ?? null, observation: input.result ?? null });
    this.stepCreatedAt.set(step.id, this.iso());
    return this.stepView(step.id);
  }

  /** Steps of one conversation's traces (or of all traces), in trace then step order. */
  listSteps(conversationId?: string): StepView[] {
    // Stryker disable next-line ConditionalExpression: equivalent: list_traces without a session_id lists every trace, as the other branch does
    // Stryker disable next-line ArrayDeclaration: silent point influence-reading: which entities a step influenced and which steps explain an entity is the server's reading (SPEC-V5-5.4.2, SPEC-V5-5.4.4 name no rule): the steps searched for an entity's provenance
    const traces = conversationId === undefined ? [...this.traces.values()].map((r) => r.trace) : this.tracesOf(conversationId);
    return traces.flatMap((t) => t.steps.map((s) => this.viewOfStep(s, t)));
  }

  stepView(id: string): StepView {
    const rec = this.steps.get(id);
    // Stryker disable next-line StringLiteral,ConditionalExpression: equivalent in practice: explain_step checks the step id first and recordStep views the step it just added; and the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (rec === undefined) throw new HostedError(404, `no reasoning step with id ${JSON.stringify(id)}`);
    return this.viewOfStep(rec.step, rec.trace.trace);
  }

  protected viewOfStep(s: ReasoningStep, t: ReasoningTrace): StepView {
    // Stryker disable next-line LogicalOperator: timing: a step's created_at would be its trace's start; no run can tell it from the recording time within the same milliseconds
    return stepView(s, t, this.stepCreatedAt.get(s.id) ?? t.started_at);
  }

  /**
   * The step's own fields at the top level with its `toolCalls` and `influencedEntities` (the
   * entities its reasoning, action or result names) (SPEC-5.4.2); beside them the trace, the steps
   * before it and a one-paragraph explanation.
   */
  explainStep(id: string): StepView & { influencedEntities: EntityView[]; step: StepView; trace: Omit<TraceView, 'steps'>; previousSteps: StepView[]; explanation: string } {
    const step = this.stepView(id);
    const trace = this.steps.get(id)!.trace.trace;
    // Stryker disable next-line MethodExpression,ArrowFunction,ConditionalExpression,EqualityOperator: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
    const previousSteps = trace.steps.filter((s) => s.step_number < step.stepNumber).map((s) => this.viewOfStep(s, trace));
    // Stryker disable next-line ArrayDeclaration: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
    const parts = [
      // Stryker disable next-line StringLiteral: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
      `Step ${step.stepNumber} of the trace for ${JSON.stringify(trace.task)} (conversation ${trace.session_id}).`,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
      step.reasoning !== null ? `Reasoning: ${step.reasoning}.` : undefined,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
      step.actionTaken !== null ? `Action taken: ${step.actionTaken}.` : undefined,
      // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
      step.result !== null ? `Result: ${step.result}.` : undefined,
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,ArrowFunction: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
      step.toolCalls.length > 0 ? `Tools called: ${step.toolCalls.map((c) => `${c.toolName} (${c.status})`).join(', ')}.` : undefined,
    ];
    const { steps: _steps, ...summary } = traceView(trace);
    // Stryker disable next-line MethodExpression,ArrayDeclaration,ArrowFunction,ConditionalExpression,EqualityOperator,StringLiteral: silent point influence-reading: which entities a step influenced and which steps explain an entity is the server's reading (SPEC-V5-5.4.2, SPEC-V5-5.4.4 name no rule)
    const text = [step.reasoning, step.actionTaken, step.result].filter((t): t is string => t !== null).join('\n');
    // Stryker disable next-line MethodExpression,ArrayDeclaration,ArrowFunction,ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: silent point influence-reading: which entities a step influenced and which steps explain an entity is the server's reading (SPEC-V5-5.4.2, SPEC-V5-5.4.4 name no rule)
    const influenced = [...this.entities.values()].filter((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && n.trim() !== '' && mentions(text, n)))
      .map((r) => this.entityView(r.entity.id));
    // Stryker disable next-line MethodExpression,ArrowFunction,ConditionalExpression,EqualityOperator,StringLiteral: outside the mutation run: the explanation, the previous steps and the trace summary are read only by the REST route of a step's explanation (routes.ts); explain_step answers the step, its tool calls and influenced entities
    return { ...step, influencedEntities: influenced, step, trace: summary, previousSteps, explanation: parts.filter((p) => p !== undefined).join(' ') };
  }

  recordToolCall(input: {
    stepId: string; toolName: string; arguments: Json; result?: unknown;
    status?: ToolCall['status'] | undefined; durationMs?: number | undefined; error?: string | null | undefined;
  }): ToolCallView {
    this.stepView(input.stepId);
    const call = this.record_tool_call({
      step_id: input.stepId,
      tool_name: input.toolName,
      arguments: input.arguments,
      ...(input.result !== undefined ? { result: input.result } : {}),
      status: input.status ?? null,
      duration_ms: input.durationMs ?? null,
      error: input.error ?? null,
    });
    return toolCallView(call, input.stepId);
  }

  /**
   * All steps and tool calls of the conversation (SPEC-5.4.3), over every trace of it (bridge-started
   * ones included), oldest first; the traces themselves beside them. An unknown id has none.
   */
  traceOfConversation(conversationId: string): { conversationId: string; steps: StepView[]; toolCalls: ToolCallView[]; traces: TraceView[] } {
    const steps = this.listSteps(conversationId);
    return { conversationId, steps, toolCalls: steps.flatMap((s) => s.toolCalls), traces: this.tracesOf(conversationId).map(traceView) };
  }

  /** The steps whose reasoning, action or result mention the entity by one of its names. */
  provenance(entityId: string): { entityId: string; steps: StepView[] } {
    const e = this.entityView(entityId);
    // Stryker disable next-line ArrayDeclaration,ArrowFunction,ConditionalExpression,EqualityOperator,MethodExpression,StringLiteral: silent point influence-reading: which entities a step influenced and which steps explain an entity is the server's reading (SPEC-V5-5.4.2, SPEC-V5-5.4.4 name no rule)
    const names = [e.name, e.canonicalName, ...e.aliases].filter((n): n is string => n !== null && n.trim() !== '');
    // Stryker disable next-line MethodExpression,ArrowFunction,ArrayDeclaration,ConditionalExpression,LogicalOperator,EqualityOperator: silent point influence-reading: which entities a step influenced and which steps explain an entity is the server's reading (SPEC-V5-5.4.2, SPEC-V5-5.4.4 name no rule)
    const steps = this.listSteps().filter((s) => [s.reasoning, s.actionTaken, s.result].some((text) => text !== null && names.some((n) => mentions(text, n))));
    return { entityId, steps };
  }

  // ---------------------------------------------------------------- Platinum over the bridge
  // The established kit's Volume 5 methods: the operations above in snake_case, with the bridge's
  // conventions (unknown ids named by a parameter are a 400, BadRequestError; entity types are the
  // bridge's five). Parameters arrive validated by METHODS[m].params.

  create_conversation(p: Params<'create_conversation'>): Json {
    // Stryker disable next-line LogicalOperator: not a protocol rule: no sentence says create_conversation keeps its metadata (SPEC-V5-5.1.1 names the id, the user_id and the workspace_id)
    return this.bridgeConversation(this.createConversation({ userId: p.user_id, metadata: p.metadata ?? null, workspaceId: BRIDGE_WORKSPACE_ID }));
  }

  /**
   * The conversations whose id is a UUID (BRIDGE-GENERAL-1: the bridge view's Conversation.id is
   * one): a session the bridge's add_message named with another string is no Platinum conversation
   * here (tck explore found these listed with ids such as "s-1").
   */
  list_conversations(p: Params<'list_conversations'>): Json[] {
    const all = this.listConversations().filter((c) => Uuid.safeParse(c.id).success);
    return (p.limit == null ? all : all.slice(0, p.limit)).map((c) => this.bridgeConversation(c));
  }

  get_conversation_metadata(p: Params<'get_conversation_metadata'>): Json {
    const c = this.conversationOf(p.conversation_id);
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call still fails, with a TypeError or a HostedError the bridge answers 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (c === undefined) throw new BadRequestError('conversation_id', `no conversation with id ${JSON.stringify(p.conversation_id)}`);
    return this.bridgeConversation(c);
  }

  delete_conversation(p: Params<'delete_conversation'>): void {
    this.deleteConversation(p.conversation_id);
  }

  get_context(p: Params<'get_context'>): Json {
    const c = this.context(p.conversation_id);
    return {
      reflections: c.reflections.map(snakeReflection),
      observations: c.observations.map(snakeObservation),
      recent_messages: c.recentMessages.map((m) => this.bridgeMessage(m.id)),
    };
  }

  bulk_add_messages(p: Params<'bulk_add_messages'>): Message[] {
    const added = this.addMessages(p.conversation_id, p.messages.map((m) => ({ role: m.role, content: m.content, metadata: m.metadata ?? null })));
    return added.map((m) => this.bridgeMessage(m.id));
  }

  get_observations(p: Params<'get_observations'>): Json[] {
    return this.observations(p.conversation_id, p.limit ?? undefined).map(snakeObservation);
  }

  get_reflections(p: Params<'get_reflections'>): Json[] {
    return this.reflections(p.conversation_id).map(snakeReflection);
  }

  list_entities(p: Params<'list_entities'>): Entity[] {
    return this.listEntities({ type: p.type ?? undefined, limit: p.limit ?? undefined }).map((e) => this.bridgeEntity(e.id));
  }

  get_entity(p: Params<'get_entity'>): Entity {
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    return this.bridgeEntity(this.entityOrBad('entity_id', p.entity_id));
  }

  update_entity(p: Params<'update_entity'>): Entity {
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    const id = this.entityOrBad('entity_id', p.entity_id);
    this.updateEntity(id, { name: p.name ?? undefined, description: p.description ?? undefined });
    return this.bridgeEntity(id);
  }

  delete_entity(p: Params<'delete_entity'>): void {
    this.deleteEntity(p.entity_id);
  }

  set_entity_feedback(p: Params<'set_entity_feedback'>): { id: string; updated: boolean } {
    // Stryker disable next-line StringLiteral,ObjectLiteral,LogicalOperator,BooleanLiteral: equivalent: feedback is write-only over the bridge (no method reads user_score or confirmed back; SPEC-V5-5.3.1a asks only for {id, updated}), and the parameter's name is only in the text of an error
    const r = this.setFeedback(this.entityOrBad('entity_id', p.entity_id), { userScore: p.user_score, confirmed: p.confirmed ?? false });
    return { id: r.id, updated: r.updated };
  }

  get_entity_history(p: Params<'get_entity_history'>): Json {
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    const id = this.entityOrBad('entity_id', p.entity_id);
    return {
      entity_id: id,
      // The Conversation's id, a UUID (protocol.md 0.2.0, the BaseAdapter's TCKEntityMention): over
      // REST a conversation is known by its session_id, over the bridge by its Conversation's id.
      mentions: this.mentionsOf(id).map((m) => ({ conversation_id: this.sessions.get(m.conversationId)?.conversation_id ?? m.conversationId, message_id: m.messageId, content: m.content, timestamp: m.timestamp })),
    };
  }

  merge_entities(p: Params<'merge_entities'>): Json {
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    this.entityOrBad('source_id', p.source_id);
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    this.entityOrBad('target_id', p.target_id);
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent points error-status and merge-self: mergeEntity refuses a merge into itself too, with a HostedError the bridge answers 500 {"error"} instead of 400; the text of an error is the server's own
    if (p.source_id === p.target_id) throw new BadRequestError('target_id', 'must differ from source_id (an entity cannot be merged into itself)');
    const r = this.mergeEntity(p.source_id, { targetId: p.target_id });
    return { source_id: r.sourceId, target_id: r.targetId, status: r.status };
  }

  get_entity_graph(_p: Params<'get_entity_graph'>): Json {
    const g = this.graph();
    return {
      // Stryker disable next-line MethodExpression,StringLiteral,ObjectLiteral: not a protocol rule: a merged-away entity shown as a node, its type and merged_into, are the reference's own (SPEC-V5-5.3.4 asks for a node-and-edge view; SCN-P-118 checks the SAME_AS edge)
      nodes: g.nodes.map((n) => ({ id: n.id, name: n.name, type: this.entities.get(n.id)?.entity.type ?? n.type.toUpperCase(), ...('mergedInto' in n ? { merged_into: n.mergedInto } : {}) })),
      edges: g.edges.map((e) => ({ id: e.id, source: e.source, target: e.target, type: e.type })),
    };
  }

  record_step(p: Params<'record_step'>): Json {
    return snakeStep(this.recordStep({ conversationId: p.conversation_id, reasoning: p.reasoning, actionTaken: p.action_taken, result: p.result ?? null }));
  }

  list_steps(p: Params<'list_steps'>): Json[] {
    return this.listSteps(p.conversation_id).map(snakeStep);
  }

  explain_step(p: Params<'explain_step'>): Json {
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call still fails, with a TypeError or a HostedError the bridge answers 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (!this.steps.has(p.step_id)) throw new BadRequestError('step_id', `no step with id ${JSON.stringify(p.step_id)}`);
    const x = this.explainStep(p.step_id);
    return {
      ...snakeStep(x),
      tool_calls: this.steps.get(p.step_id)!.step.tool_calls.map((c) => copy(c)),
      influenced_entities: x.influencedEntities.map((e) => this.bridgeEntity(e.id)),
    };
  }

  get_trace_by_conversation(p: Params<'get_trace_by_conversation'>): Json {
    const steps = this.tracesOf(p.conversation_id).flatMap((t) => t.steps);
    return {
      conversation_id: p.conversation_id,
      steps: this.listSteps(p.conversation_id).map(snakeStep),
      tool_calls: steps.flatMap((s) => s.tool_calls.map((c) => ({ ...copy(c), step_id: s.id }))),
    };
  }

  get_entity_provenance(p: Params<'get_entity_provenance'>): Json {
    // Stryker disable next-line StringLiteral: equivalent: the parameter's name is only in the text of the error (BRIDGE-ERRORS-1 asks only for a string)
    const id = this.entityOrBad('entity_id', p.entity_id);
    return { entity_id: id, steps: this.provenance(id).steps.map(snakeStep) };
  }

  cypher_query(p: Params<'cypher_query'>): Json {
    const write = writeClauseOf(p.cypher);
    // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: the parser refuses every clause outside MATCH, WHERE, RETURN and LIMIT, so a write is refused either way (SCN-P-108, SCN-P-123); the check first names the write in the text of the error
    if (write !== undefined) throw new BadRequestError('cypher', `${write} changes data; the query console is read-only (MATCH, WHERE, RETURN, ORDER BY, SKIP, LIMIT) (SPEC-5.5.1)`);
    let r;
    // (A region, closed before the return: no next-line mark reaches a catch block. It also hides the try block's mutant, which every query kills.)
    // Stryker disable BlockStatement: not a protocol rule: what the console answers to a query outside its subset is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md)
    try {
      r = runQuery(p.cypher, p.params ?? {}, this.liveGraph());
    } catch (err) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: not a protocol rule: what the console answers to a query outside its subset is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md)
      if (err instanceof QueryError) throw new BadRequestError('cypher', err.message);
      throw err;
    }
    // Stryker restore BlockStatement
    return { columns: r.columns, rows: r.rows };
  }

  protected bridgeConversation(c: ConversationView): Json {
    return {
      id: c.id, session_id: c.id, messages: [], title: c.title, created_at: c.createdAt, updated_at: c.updatedAt,
      // Stryker disable next-line LogicalOperator: equivalent in practice: only a session made by the core add_message has no workspace of its own, and no sentence says whether list_conversations shows it, or with which workspace_id
      user_id: c.userId, workspace_id: c.workspaceId ?? BRIDGE_WORKSPACE_ID, metadata: c.metadata, message_count: c.messageCount,
    };
  }

  protected bridgeMessage(id: string): Message {
    return copy(this.messages.get(id)!.message);
  }

  protected bridgeEntity(id: string): Entity {
    return copy(this.entities.get(id)!.entity);
  }

  private entityOrBad(param: string, id: string): string {
    // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: without the check the call still fails, with a TypeError or a HostedError the bridge answers 500 {"error"} instead of 400; and equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (!this.entities.has(id)) throw new BadRequestError(param, `no entity with id ${JSON.stringify(id)}`);
    return id;
  }

  // ---------------------------------------------------------------- helpers

  private tracesOf(conversationId: string): ReasoningTrace[] {
    return this.list_traces({ session_id: conversationId });
  }

  private pushHistory(id: string, entry: HistoryEntry): void {
    const list = this.entityHistory.get(id);
    // Stryker disable next-line ConditionalExpression: outside the mutation run: entityHistory is read only by the REST route of an entity's history (history()), which the run leaves out
    if (list === undefined) this.entityHistory.set(id, [entry]);
    else list.push(entry);
  }
}

/** Whether `text` mentions `name` as a whole word or phrase, ignoring case. */
function mentions(text: string, name: string): boolean {
  const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Stryker disable next-line ConditionalExpression,StringLiteral,BooleanLiteral: equivalent: every caller passes names that are not blank (mentionsOf and provenance filter them), so the escaped name is never empty
  if (escaped === '') return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

function snakeObservation(o: ObservationView): Json {
  return { id: o.id, conversation_id: o.conversationId, content: o.content, window_start: o.windowStart, window_end: o.windowEnd, created_at: o.createdAt };
}

function snakeReflection(r: ReflectionView): Json {
  return { id: r.id, conversation_id: r.conversationId, content: r.content, created_at: r.createdAt };
}

/** An AgentStep of the bridge view (reasoning and action_taken are strings: absent is ""). */
function snakeStep(s: StepView): Json {
  // Stryker disable next-line StringLiteral: equivalent in practice: record_step requires reasoning and action_taken, so only a core step without a thought or an action reaches the fallback, and no sentence says how list_steps shows it
  return { id: s.id, conversation_id: s.conversationId, reasoning: s.reasoning ?? '', action_taken: s.actionTaken ?? '', result: s.result, created_at: s.createdAt };
}

function messageView(m: Message, conversationId: string): MessageView {
  return {
    id: m.id,
    conversationId,
    role: m.role,
    content: m.content,
    timestamp: m.timestamp,
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a message (its embedding) is read only by the REST routes, which the run leaves out
    embedding: m.embedding ?? null,
    metadata: m.metadata,
  };
}

function edgeView(r: Relationship): EdgeView {
  return {
    // Stryker disable next-line LogicalOperator: silent point cypher-graph-schema: a relationship's properties are read only by the query console, and how relationships are stored is the server's
    id: r.id, sourceId: r.source_id, targetId: r.target_id, relationshipType: r.relationship_type, properties: copy(r.properties ?? {}),
    source: r.source_id, target: r.target_id, type: r.relationship_type,
  };
}

/** A REST type as stored: one of the bridge's five (any case) as itself, else OBJECT plus the lower-case hosted type. */
function splitType(type: string): { bridge: EntityType; hosted?: string } {
  // Stryker disable next-line MethodExpression: outside the mutation run: the bridge sends its five entity types upper-case (validated), so only the REST routes, which the run leaves out, send another case
  const upper = type.trim().toUpperCase();
  // Stryker disable next-line ObjectLiteral,StringLiteral,MethodExpression: outside the mutation run: the bridge sends its five entity types upper-case (validated), so only the REST routes, which the run leaves out, send another type
  return isEntityType(upper) ? { bridge: upper } : { bridge: 'OBJECT', hosted: type.trim().toLowerCase() };
}

function toolCallView(c: ToolCall, stepId: string): ToolCallView {
  // Stryker disable next-line ObjectLiteral,LogicalOperator: outside the mutation run: the REST view of a tool call is read only by the REST routes (the bridge's AgentStep has no tool calls), which the run leaves out
  return {
    id: c.id,
    stepId,
    toolName: c.tool_name,
    arguments: copy(c.arguments),
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a tool call is read only by the REST routes (the bridge's AgentStep has no tool calls), which the run leaves out
    result: copy(c.result ?? null),
    status: c.status,
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a tool call is read only by the REST routes (the bridge's AgentStep has no tool calls), which the run leaves out
    durationMs: c.duration_ms ?? null,
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a tool call is read only by the REST routes (the bridge's AgentStep has no tool calls), which the run leaves out
    error: c.error ?? null,
  };
}

function stepView(s: ReasoningStep, t: ReasoningTrace, createdAt: string = t.started_at): StepView {
  return {
    id: s.id,
    traceId: t.id,
    conversationId: t.session_id,
    stepNumber: s.step_number,
    reasoning: s.thought ?? null,
    actionTaken: s.action ?? null,
    result: s.observation ?? null,
    toolCalls: s.tool_calls.map((c) => toolCallView(c, s.id)),
    createdAt,
  };
}

function traceView(t: ReasoningTrace): TraceView {
  // Stryker disable next-line ObjectLiteral: outside the mutation run: the REST view of a trace is read only by the REST routes, which the run leaves out
  return {
    id: t.id,
    conversationId: t.session_id,
    task: t.task,
    // Stryker disable next-line ArrowFunction: outside the mutation run: the REST view of a trace is read only by the REST routes, which the run leaves out
    steps: t.steps.map((s) => stepView(s, t)),
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a trace is read only by the REST routes, which the run leaves out
    outcome: t.outcome ?? null,
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a trace is read only by the REST routes, which the run leaves out
    success: t.success ?? null,
    startedAt: t.started_at,
    // Stryker disable next-line LogicalOperator: outside the mutation run: the REST view of a trace is read only by the REST routes, which the run leaves out
    completedAt: t.completed_at ?? null,
  };
}
