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
import type { Entity, EntityType, Message, ReasoningStep, ReasoningTrace, Relationship, Role, ToolCall } from '../../protocols/bridge/index.js';
import { ENTITY_TYPES } from '../../protocols/bridge/index.js';
import { rank } from '../bridge/search.js';
import { MAX_NAME_CHARS, MAX_TEXT_CHARS, MemoryStore, checkSize, type MemoryStoreOptions, type Params, type StoreSnapshot } from '../bridge/store.js';

/** A request the hosted view refuses: 400 (bad input) or 404 (unknown resource). */
export class HostedError extends Error {
  constructor(readonly status: 400 | 404, message: string) {
    super(message);
    this.name = 'HostedError';
  }
}

type Json = Record<string, unknown>;

interface ConversationView {
  id: string;
  userId: string | null;
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

export interface EntityView {
  id: string;
  name: string;
  type: EntityType;
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

export interface EdgeView {
  id: string;
  sourceId: string;
  targetId: string;
  relationshipType: string;
  properties: Json;
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

interface EntityPatch {
  name?: string | undefined;
  type?: EntityType | undefined;
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
  title: string | null;
  metadata: Json;
}

const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}

export class HostedStore extends MemoryStore {
  // Hosted-only data, keyed by session id / entity id; forgotten with what it belongs to.
  protected conversationAttrs = new Map<string, ConversationAttrs>();
  protected entityFeedback = new Map<string, { feedback: Json; updatedAt: string }>();
  protected entityHistory = new Map<string, HistoryEntry[]>();
  protected entityUpdatedAt = new Map<string, string>();
  /** The trace that holds the steps recorded over REST for a conversation. */
  protected conversationTrace = new Map<string, string>();

  constructor(options: MemoryStoreOptions = {}) {
    super(options);
  }

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
  }

  override clear_session(params: Params<'clear_session'>): void {
    super.clear_session(params);
    this.conversationAttrs.delete(params.session_id);
  }

  /** A merge over either view is recorded in the target's history. */
  override merge_duplicate_entities(params: Params<'merge_duplicate_entities'>): Entity {
    const sourceName = this.entities.get(params.source_id)?.entity.name;
    const merged = super.merge_duplicate_entities(params);
    this.entityFeedback.delete(params.source_id);
    this.entityHistory.delete(params.source_id);
    this.entityUpdatedAt.delete(params.source_id);
    const at = this.iso();
    this.entityUpdatedAt.set(merged.id, at);
    this.pushHistory(merged.id, { action: 'merged', at, details: { sourceId: params.source_id, sourceName: sourceName ?? null } });
    return merged;
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
      }),
    };
  }

  // ---------------------------------------------------------------- conversations

  /** Ascending by creation time (ties: creation order), optionally only one user's. */
  listConversations(options: { userId?: string | undefined; limit?: number | undefined } = {}): ConversationView[] {
    let all = [...this.sessions.values()].sort((a, b) => a.created_ms - b.created_ms).map((s) => this.conversationOf(s.session_id)!);
    if (options.userId !== undefined) all = all.filter((c) => c.userId === options.userId);
    return options.limit === undefined ? all : all.slice(0, options.limit);
  }

  /** An empty conversation (a session with no messages yet) with a fresh UUID as its id. */
  createConversation(input: { userId: string; title?: string | null | undefined; metadata?: Json | null | undefined }): ConversationView {
    const id = this.newId();
    const now = this.now().getTime();
    const metadata = copy(input.metadata ?? {});
    this.sessions.set(id, { session_id: id, conversation_id: this.newId(), created_ms: now, updated_ms: now, last_ms: now, messages: [] });
    this.conversationAttrs.set(id, { userId: input.userId, title: input.title ?? null, metadata });
    return this.conversationOf(id)!;
  }

  conversationOf(id: string): ConversationView | undefined {
    const s = this.sessions.get(id);
    if (s === undefined) return undefined;
    const attrs = this.conversationAttrs.get(id);
    return {
      id: s.session_id,
      userId: attrs?.userId ?? null,
      title: attrs?.title ?? null,
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

  deleteConversation(id: string): void {
    this.conversation(id);
    this.clear_session({ session_id: id });
  }

  /** The conversation with its messages; limit keeps the most recent ones (as get_conversation). */
  conversationWithMessages(id: string, limit?: number): ConversationView & { messages: MessageView[] } {
    const c = this.conversation(id);
    const conv = this.get_conversation({ session_id: id, limit: limit ?? null });
    return { ...c, messages: conv.messages.map((m) => messageView(m, id)) };
  }

  /** Adds a message; a conversation that does not exist yet is created (as the bridge does). */
  addMessage(id: string, input: { role: Role; content: string; metadata?: Json | null | undefined }): MessageView {
    return messageView(this.add_message({ session_id: id, role: input.role, content: input.content, metadata: input.metadata ?? null }), id);
  }

  /** All or nothing: the inputs are validated before this is called, so no add can fail midway. */
  addMessages(id: string, inputs: { role: Role; content: string; metadata?: Json | null | undefined }[]): MessageView[] {
    return inputs.map((m) => this.addMessage(id, m));
  }

  searchMessages(id: string, input: { query: string; limit?: number | undefined; threshold?: number | undefined }): (MessageView & { score: number })[] {
    this.conversation(id);
    const recs = this.sessions.get(id)!.messages;
    return rank(input.query, recs, (r) => r.doc, { limit: input.limit, threshold: input.threshold })
      .map((h) => ({ ...messageView(copy(h.item.message), id), score: h.score }));
  }

  /** Recent messages, the entities they mention, and the conversation's reasoning steps. */
  context(id: string, limit = 20): { conversationId: string; messages: MessageView[]; entities: EntityView[]; steps: StepView[] } {
    const { messages } = this.conversationWithMessages(id, limit);
    const text = messages.map((m) => m.content).join('\n');
    const entities = [...this.entities.values()]
      .filter((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && mentions(text, n)))
      .map((r) => this.entityView(r.entity.id));
    return { conversationId: id, messages, entities, steps: this.listSteps(id).slice(-limit) };
  }

  /** The observations of the conversation's reasoning steps, in order. */
  observations(id: string): { conversationId: string; observations: { stepId: string; traceId: string; stepNumber: number; observation: string }[] } {
    this.conversation(id);
    const observations = this.listSteps(id)
      .filter((s) => s.result !== null)
      .map((s) => ({ stepId: s.id, traceId: s.traceId, stepNumber: s.stepNumber, observation: s.result! }));
    return { conversationId: id, observations };
  }

  /** One reflection per completed trace of the conversation: its task, outcome and success. */
  reflections(id: string): { conversationId: string; reflections: { traceId: string; task: string; outcome: string | null; success: boolean | null; completedAt: string }[] } {
    this.conversation(id);
    const reflections = this.tracesOf(id)
      .filter((t) => t.completed_at != null)
      .map((t) => ({ traceId: t.id, task: t.task, outcome: t.outcome ?? null, success: t.success ?? null, completedAt: t.completed_at! }));
    return { conversationId: id, reflections };
  }

  // ---------------------------------------------------------------- entities

  listEntities(options: { type?: EntityType | undefined; limit?: number | undefined } = {}): EntityView[] {
    let all = [...this.entities.values()];
    if (options.type !== undefined) all = all.filter((r) => r.entity.type === options.type);
    const picked = options.limit === undefined ? all : all.slice(0, options.limit);
    return picked.map((r) => this.entityView(r.entity.id));
  }

  addEntity(input: { name: string; type: EntityType; description?: string | null | undefined; subtype?: string | null | undefined }): EntityView {
    const e = this.add_entity({ name: input.name, entity_type: input.type, description: input.description ?? null });
    if (input.subtype != null) this.entities.get(e.id)!.entity.subtype = input.subtype;
    return this.entityView(e.id);
  }

  entityView(id: string): EntityView {
    const rec = this.entities.get(id);
    if (rec === undefined) throw new HostedError(404, `no entity with id ${JSON.stringify(id)}`);
    const e = rec.entity;
    return {
      id: e.id,
      name: e.name,
      type: e.type,
      subtype: e.subtype ?? null,
      description: e.description ?? null,
      embedding: copy(e.embedding ?? null),
      canonicalName: e.canonical_name ?? null,
      aliases: [...rec.aliases],
      feedback: copy(this.entityFeedback.get(id)?.feedback ?? null),
      createdAt: e.created_at,
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
      if (to === undefined || to === from) return;
      changes[field] = { from, to };
      apply();
    };
    checkSize('name', patch.name, MAX_NAME_CHARS);
    checkSize('description', patch.description, MAX_TEXT_CHARS);
    set('name', before.name, () => { e.name = patch.name!; });
    set('type', before.type, () => { e.type = patch.type!; });
    set('subtype', before.subtype, () => { e.subtype = patch.subtype ?? null; });
    set('description', before.description, () => { e.description = patch.description ?? null; });
    set('canonicalName', before.canonicalName, () => { e.canonical_name = patch.canonicalName ?? null; });
    if (Object.keys(changes).length > 0) {
      const at = this.iso();
      this.entityUpdatedAt.set(id, at);
      this.pushHistory(id, { action: 'updated', at, details: changes });
    }
    return this.entityView(id);
  }

  /** Removes the entity and every relationship that touches it. */
  deleteEntity(id: string): void {
    this.entityView(id);
    this.entities.delete(id);
    this.relationships = this.relationships.filter((r) => r.source_id !== id && r.target_id !== id);
    this.entityFeedback.delete(id);
    this.entityHistory.delete(id);
    this.entityUpdatedAt.delete(id);
  }

  /** The latest feedback replaces the previous one; every feedback is kept in the history. */
  setFeedback(id: string, feedback: Json): { entityId: string; feedback: Json; updatedAt: string } {
    this.entityView(id);
    const at = this.iso();
    this.entityFeedback.set(id, { feedback: copy(feedback), updatedAt: at });
    this.pushHistory(id, { action: 'feedback', at, details: { feedback: copy(feedback) } });
    return { entityId: id, feedback: copy(feedback), updatedAt: at };
  }

  /** Oldest first, starting with the creation. */
  history(id: string): { entityId: string; history: HistoryEntry[] } {
    const e = this.entityView(id);
    const created: HistoryEntry = { action: 'created', at: e.createdAt, details: { name: e.name, type: e.type } };
    return { entityId: id, history: [created, ...copy(this.entityHistory.get(id) ?? [])] };
  }

  /** Merges `sourceId` into `targetId` (the bridge's merge_duplicate_entities); the target is returned. */
  mergeEntity(sourceId: string, input: { targetId: string; canonicalName?: string | null | undefined }): EntityView {
    this.entityView(sourceId);
    this.entityView(input.targetId);
    if (sourceId === input.targetId) throw new HostedError(400, 'targetId: must differ from the entity being merged');
    const merged = this.merge_duplicate_entities({ source_id: sourceId, target_id: input.targetId, canonical_name: input.canonicalName ?? null });
    return this.entityView(merged.id);
  }

  graph(): { nodes: EntityView[]; edges: EdgeView[] } {
    return { nodes: this.listEntities(), edges: this.relationships.map(edgeView) };
  }

  /** Over name, description, canonical name and merged names, as the bridge's search_entities. */
  searchEntities(input: { query: string; limit?: number | undefined; type?: EntityType | undefined }): (EntityView & { score: number })[] {
    const candidates = [...this.entities.values()].filter((r) => input.type === undefined || r.entity.type === input.type);
    return rank(input.query, candidates, (r) => this.entityTokens(r), { limit: input.limit })
      .map((h) => ({ ...this.entityView(h.item.entity.id), score: h.score }));
  }

  // ---------------------------------------------------------------- reasoning

  recordStep(input: StepInput): StepView {
    let traceId = this.conversationTrace.get(input.conversationId);
    if (traceId === undefined || !this.traces.has(traceId)) {
      traceId = this.start_trace({ session_id: input.conversationId, task: `conversation ${input.conversationId}` }).id;
      this.conversationTrace.set(input.conversationId, traceId);
    }
    const step = this.add_step({ trace_id: traceId, thought: input.reasoning ?? null, action: input.actionTaken ?? null, observation: input.result ?? null });
    return this.stepView(step.id);
  }

  /** Steps of one conversation's traces (or of all traces), in trace then step order. */
  listSteps(conversationId?: string): StepView[] {
    const traces = conversationId === undefined ? [...this.traces.values()].map((r) => r.trace) : this.tracesOf(conversationId);
    return traces.flatMap((t) => t.steps.map((s) => stepView(s, t)));
  }

  stepView(id: string): StepView {
    const rec = this.steps.get(id);
    if (rec === undefined) throw new HostedError(404, `no reasoning step with id ${JSON.stringify(id)}`);
    return stepView(rec.step, rec.trace.trace);
  }

  /** The step, the trace it belongs to, the steps before it, and a one-paragraph explanation. */
  explainStep(id: string): { step: StepView; trace: Omit<TraceView, 'steps'>; previousSteps: StepView[]; explanation: string } {
    const step = this.stepView(id);
    const trace = this.steps.get(id)!.trace.trace;
    const previousSteps = trace.steps.filter((s) => s.step_number < step.stepNumber).map((s) => stepView(s, trace));
    const parts = [
      `Step ${step.stepNumber} of the trace for ${JSON.stringify(trace.task)} (conversation ${trace.session_id}).`,
      step.reasoning !== null ? `Reasoning: ${step.reasoning}.` : undefined,
      step.actionTaken !== null ? `Action taken: ${step.actionTaken}.` : undefined,
      step.result !== null ? `Result: ${step.result}.` : undefined,
      step.toolCalls.length > 0 ? `Tools called: ${step.toolCalls.map((c) => `${c.toolName} (${c.status})`).join(', ')}.` : undefined,
    ];
    const { steps: _steps, ...summary } = traceView(trace);
    return { step, trace: summary, previousSteps, explanation: parts.filter((p) => p !== undefined).join(' ') };
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

  /** Every trace of the conversation (bridge-started ones included), oldest first. */
  traceOfConversation(conversationId: string): { conversationId: string; traces: TraceView[] } {
    return { conversationId, traces: this.tracesOf(conversationId).map(traceView) };
  }

  /** The steps whose reasoning, action or result mention the entity by one of its names. */
  provenance(entityId: string): { entityId: string; steps: StepView[] } {
    const e = this.entityView(entityId);
    const names = [e.name, e.canonicalName, ...e.aliases].filter((n): n is string => n !== null && n.trim() !== '');
    const steps = this.listSteps().filter((s) => [s.reasoning, s.actionTaken, s.result].some((text) => text !== null && names.some((n) => mentions(text, n))));
    return { entityId, steps };
  }

  // ---------------------------------------------------------------- helpers

  private tracesOf(conversationId: string): ReasoningTrace[] {
    return this.list_traces({ session_id: conversationId });
  }

  private pushHistory(id: string, entry: HistoryEntry): void {
    const list = this.entityHistory.get(id);
    if (list === undefined) this.entityHistory.set(id, [entry]);
    else list.push(entry);
  }
}

/** Whether `text` mentions `name` as a whole word or phrase, ignoring case. */
function mentions(text: string, name: string): boolean {
  const escaped = name.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (escaped === '') return false;
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

function messageView(m: Message, conversationId: string): MessageView {
  return {
    id: m.id,
    conversationId,
    role: m.role,
    content: m.content,
    timestamp: m.timestamp,
    embedding: m.embedding ?? null,
    metadata: m.metadata,
  };
}

function edgeView(r: Relationship): EdgeView {
  return { id: r.id, sourceId: r.source_id, targetId: r.target_id, relationshipType: r.relationship_type, properties: copy(r.properties ?? {}) };
}

function toolCallView(c: ToolCall, stepId: string): ToolCallView {
  return {
    id: c.id,
    stepId,
    toolName: c.tool_name,
    arguments: copy(c.arguments),
    result: copy(c.result ?? null),
    status: c.status,
    durationMs: c.duration_ms ?? null,
    error: c.error ?? null,
  };
}

function stepView(s: ReasoningStep, t: ReasoningTrace): StepView {
  return {
    id: s.id,
    traceId: t.id,
    conversationId: t.session_id,
    stepNumber: s.step_number,
    reasoning: s.thought ?? null,
    actionTaken: s.action ?? null,
    result: s.observation ?? null,
    toolCalls: s.tool_calls.map((c) => toolCallView(c, s.id)),
  };
}

function traceView(t: ReasoningTrace): TraceView {
  return {
    id: t.id,
    conversationId: t.session_id,
    task: t.task,
    steps: t.steps.map((s) => stepView(s, t)),
    outcome: t.outcome ?? null,
    success: t.success ?? null,
    startedAt: t.started_at,
    completedAt: t.completed_at ?? null,
  };
}
