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
// - entity types: the REST form's type is free-form and lower-case ("person", "concept"); the
//   bridge view shows bridgeEntityType of it (protocols/hosted/entity-type.ts): a bridge type by
//   name or synonym, else OBJECT. A type that is not one of the five is kept for the REST view, so
//   "concept" reads back "concept" over REST and OBJECT over the bridge. Upper-case input works.
// - entities are extracted (extract.ts) from the content of messages added over REST — never over
//   the bridge's add_message — unless one of that name exists. An extracted entity is provisional:
//   an entity of the same name added later on purpose (over either view) supersedes it (the
//   extracted one is merged into it, leaving the SAME_AS link), so one name is one entity.
// - deletes are idempotent: an unknown or already-deleted conversation or entity is not an error;
//   a conversation that was never made (or was deleted) reads as empty, not 404.
//
// Every method checks its preconditions before it changes anything (HostedError leaves the state
// as it was), and is synchronous, like MemoryStore's. clear_all_data and clear_session also forget
// the hosted-only data that belongs to what they remove.
import type { Entity, Message, ReasoningStep, ReasoningTrace, Relationship, Role, ToolCall } from '../../protocols/bridge/index.js';
import { bridgeEntityType, hostedEntityType } from '../../protocols/hosted/entity-type.js';
import { MAX_NAME_CHARS, MAX_TEXT_CHARS, MemoryStore, checkSize, type MemoryStoreOptions, type Params, type StoreSnapshot } from '../bridge/store.js';
import { rank, tokenize } from '../bridge/search.js';
import { extractEntities } from './extract.js';

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
  /** The workspace of the credential that made it; null for a session the bridge made. */
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

export interface EntityView {
  id: string;
  name: string;
  /** The hosted (lower-case, free-form) type. */
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

export interface EdgeView {
  id: string;
  /** The established clients' names of the ends and the type ... */
  source: string;
  target: string;
  type: string;
  /** ... and the same under the bridge's names (kept for readers of either). */
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
  createdAt: string;
}

/** An observation or a reflection: a statement generated from what the conversation holds. */
interface NoteView {
  id: string;
  conversationId: string;
  content: string;
  createdAt: string;
  /** What it was made from: a window of messages, a reasoning step, a trace, or the conversation. */
  source: 'messages' | 'step' | 'trace' | 'conversation';
  windowStart?: string;
  windowEnd?: string;
}

interface MentionView {
  conversationId: string;
  messageId: string;
  role: Role;
  content: string;
  timestamp: string;
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

/** The provenance link a merge leaves: the source is the same as the target. */
interface SameAsLink {
  type: 'SAME_AS';
  sourceId: string;
  targetId: string;
  createdAt: string;
}

interface HistoryEntry {
  action: 'created' | 'updated' | 'feedback' | 'merged';
  at: string;
  /** updated: {field: {from, to}}; feedback: {feedback}; merged: {sourceId, sourceName, link}. */
  details: Json;
}

interface EntityPatch {
  name?: string | undefined;
  /** A hosted type, any case. */
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

const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** Messages per observation window. */
const OBSERVATION_WINDOW = 10;

export class HostedStore extends MemoryStore {
  // Hosted-only data, keyed by session id / entity id; forgotten with what it belongs to.
  protected conversationAttrs = new Map<string, ConversationAttrs>();
  protected entityFeedback = new Map<string, { feedback: Json; updatedAt: string }>();
  protected entityHistory = new Map<string, HistoryEntry[]>();
  protected entityUpdatedAt = new Map<string, string>();
  /** The trace that holds the steps recorded over REST for a conversation. */
  protected conversationTrace = new Map<string, string>();
  /** The hosted type of an entity whose type is not one of the bridge's five (e.g. "concept"). */
  protected entityHostedType = new Map<string, string>();
  /** Entities made by extraction and not yet superseded by one added on purpose. */
  protected extracted = new Set<string>();
  /** When each reasoning step was added (the bridge model has no step time). */
  protected stepCreatedAt = new Map<string, string>();

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
    this.entityHostedType.clear();
    this.stepCreatedAt.clear();
    this.extracted.clear();
  }

  /** An entity added on purpose supersedes the extracted entities of its name (merged into it). */
  override add_entity(params: Params<'add_entity'>): Entity {
    const entity = super.add_entity(params);
    const name = params.name.toLowerCase();
    for (const id of [...this.extracted]) {
      if (this.entities.get(id)?.entity.name.toLowerCase() === name) this.merge_duplicate_entities({ source_id: id, target_id: entity.id, canonical_name: null });
    }
    return this.entities.get(entity.id) === undefined ? entity : copy(this.entities.get(entity.id)!.entity);
  }

  override add_step(params: Params<'add_step'>): ReasoningStep {
    const step = super.add_step(params);
    this.stepCreatedAt.set(step.id, this.iso());
    return step;
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
    this.entityHostedType.delete(params.source_id);
    this.extracted.delete(params.source_id);
    const at = this.iso();
    this.entityUpdatedAt.set(merged.id, at);
    const link: SameAsLink = { type: 'SAME_AS', sourceId: params.source_id, targetId: merged.id, createdAt: at };
    this.pushHistory(merged.id, { action: 'merged', at, details: { sourceId: params.source_id, sourceName: sourceName ?? null, link } });
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
        entityTypes: Object.fromEntries(this.entityHostedType),
        stepTimes: Object.fromEntries(this.stepCreatedAt),
        extracted: [...this.extracted],
      }),
    };
  }

  // ---------------------------------------------------------------- conversations

  /** Newest first (SPEC-5.1.2; ties: the later made first), optionally only one user's; limit keeps the newest. */
  listConversations(options: { userId?: string | undefined; limit?: number | undefined } = {}): ConversationView[] {
    let all = [...this.sessions.values()].reverse().sort((a, b) => b.created_ms - a.created_ms).map((s) => this.conversationOf(s.session_id)!);
    if (options.userId !== undefined) all = all.filter((c) => c.userId === options.userId);
    return options.limit === undefined ? all : all.slice(0, options.limit);
  }

  /** An empty conversation (a session with no messages yet) with a fresh UUID as its id. */
  createConversation(
    input: { userId: string; title?: string | null | undefined; metadata?: Json | null | undefined },
    workspaceId: string | null = null,
  ): ConversationView {
    const id = this.newId();
    const now = this.now().getTime();
    const metadata = copy(input.metadata ?? {});
    this.sessions.set(id, { session_id: id, conversation_id: this.newId(), created_ms: now, updated_ms: now, last_ms: now, messages: [] });
    this.conversationAttrs.set(id, { userId: input.userId, workspaceId, title: input.title ?? null, metadata });
    return this.conversationOf(id)!;
  }

  conversationOf(id: string): ConversationView | undefined {
    const s = this.sessions.get(id);
    if (s === undefined) return undefined;
    const attrs = this.conversationAttrs.get(id);
    return {
      id: s.session_id,
      userId: attrs?.userId ?? null,
      workspaceId: attrs?.workspaceId ?? null,
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

  /** Idempotent: an unknown or already-deleted conversation is not an error. */
  deleteConversation(id: string): void {
    this.clear_session({ session_id: id });
  }

  /**
   * The conversation with its messages; limit keeps the most recent ones (as get_conversation).
   * An unknown conversation has no messages (as the bridge's unknown session), and nothing is made.
   */
  conversationWithMessages(id: string, limit?: number): { id: string; messages: MessageView[] } & Partial<ConversationView> {
    const c = this.conversationOf(id);
    if (c === undefined) return { id, messages: [] };
    const conv = this.get_conversation({ session_id: id, limit: limit ?? null });
    return { ...c, messages: conv.messages.map((m) => messageView(m, id)) };
  }

  /**
   * Adds a message; a conversation that does not exist yet is created (as the bridge does), in the
   * caller's workspace. The people, places, organisations and names the content mentions become
   * entities, unless an entity of that name (or canonical or merged name) exists.
   */
  addMessage(id: string, input: { role: Role; content: string; metadata?: Json | null | undefined }, workspaceId: string | null = null): MessageView {
    const found = extractEntities(input.content);
    const message = messageView(this.add_message({ session_id: id, role: input.role, content: input.content, metadata: input.metadata ?? null }), id);
    if (!this.conversationAttrs.has(id)) this.conversationAttrs.set(id, { userId: null, workspaceId, title: null, metadata: {} });
    for (const e of found) {
      if (this.entityNamed(e.name) === undefined) this.extracted.add(this.addEntity({ name: e.name, type: e.type, description: null }).id);
    }
    return message;
  }

  /** All or nothing: the inputs are validated before this is called, so no add can fail midway. */
  addMessages(id: string, inputs: { role: Role; content: string; metadata?: Json | null | undefined }[], workspaceId: string | null = null): MessageView[] {
    return inputs.map((m) => this.addMessage(id, m, workspaceId));
  }

  /**
   * score: the share of the query's words the message holds (1 when it holds them all), so the
   * official clients' default threshold of 0.7 keeps a message that contains the word asked for
   * (the bridge's cosine score would fall below it in any long message); ties: the bridge's
   * ranking. An unknown conversation has no hits.
   */
  searchMessages(id: string, input: { query: string; limit?: number | undefined; threshold?: number | undefined }): (MessageView & { score: number })[] {
    const recs = this.sessions.get(id)?.messages ?? [];
    const words = tokenize(input.query);
    const hits = rank(input.query, recs, (r) => r.doc)
      .map((h) => ({ rec: h.item, score: [...words].filter((w) => h.item.doc.some((set) => set.has(w))).length / words.size }))
      .filter((h) => input.threshold === undefined || h.score >= input.threshold)
      .sort((a, b) => b.score - a.score);
    return hits.slice(0, input.limit).map((h) => ({ ...messageView(copy(h.rec.message), id), score: h.score }));
  }

  /**
   * The three tiers (SPEC-5.2.1): reflections, observations and the recent messages (limit, default
   * 20); also the entities those messages mention. Unknown conversation: empty lists.
   */
  context(id: string, limit = 20): { conversationId: string; reflections: NoteView[]; observations: NoteView[]; recentMessages: MessageView[]; entities: EntityView[] } {
    const { messages } = this.conversationWithMessages(id, limit);
    const text = messages.map((m) => m.content).join('\n');
    const entities = [...this.entities.values()]
      .filter((r) => [r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && mentions(text, n)))
      .map((r) => this.entityView(r.entity.id));
    return { conversationId: id, reflections: this.reflections(id).reflections, observations: this.observations(id).observations, recentMessages: messages, entities };
  }

  /**
   * Observations, oldest first, made from what the conversation holds when asked (so never stale):
   * one per window of OBSERVATION_WINDOW messages (who spoke, and the entities mentioned), and one
   * per reasoning step with a result. limit keeps the most recent ones.
   */
  observations(id: string, limit?: number): { conversationId: string; observations: NoteView[] } {
    const recs = this.sessions.get(id)?.messages ?? [];
    const notes: NoteView[] = [];
    for (let i = 0; i < recs.length; i += OBSERVATION_WINDOW) {
      const window = recs.slice(i, i + OBSERVATION_WINDOW).map((r) => r.message);
      const first = window[0]!;
      const last = window[window.length - 1]!;
      const roles = countBy(window.map((m) => m.role));
      const named = this.entitiesMentionedIn(window.map((m) => m.content).join('\n'));
      notes.push({
        id: `${first.id}:observation`,
        conversationId: id,
        content: `${window.length} message${window.length === 1 ? '' : 's'} (${roles})` +
          (named.length > 0 ? ` mentioning ${named.map((e) => `${e.name} (${e.type})`).join(', ')}` : ' mentioning no known entity') + '.',
        createdAt: last.timestamp,
        source: 'messages',
        windowStart: first.timestamp,
        windowEnd: last.timestamp,
      });
    }
    for (const s of this.listSteps(id)) {
      if (s.result === null) continue;
      const what = s.actionTaken ?? s.reasoning ?? `step ${s.stepNumber}`;
      notes.push({ id: `${s.id}:observation`, conversationId: id, content: `${what}: ${s.result}`, createdAt: s.createdAt, source: 'step' });
    }
    notes.sort((x, y) => x.createdAt.localeCompare(y.createdAt));
    return { conversationId: id, observations: limit === undefined ? notes : limit === 0 ? [] : notes.slice(-limit) };
  }

  /**
   * Reflections, made from what is stored: one over the whole conversation (how many messages,
   * from whom, the entities mentioned most), and one per completed trace (task, outcome, success).
   */
  reflections(id: string): { conversationId: string; reflections: NoteView[] } {
    const recs = this.sessions.get(id)?.messages ?? [];
    const notes: NoteView[] = [];
    if (recs.length > 0) {
      const text = recs.map((r) => r.message.content).join('\n');
      const top = this.entitiesMentionedIn(text)
        .map((e) => ({ e, n: recs.filter((r) => this.nameOf(e).some((name) => mentions(r.message.content, name))).length }))
        .sort((x, y) => y.n - x.n)
        .slice(0, 5);
      notes.push({
        id: `${id}:reflection`,
        conversationId: id,
        content: `The conversation has ${recs.length} message${recs.length === 1 ? '' : 's'} (${countBy(recs.map((r) => r.message.role))})` +
          (top.length > 0 ? `; most mentioned: ${top.map(({ e, n }) => `${e.name} (${n})`).join(', ')}.` : '; no known entity is mentioned.'),
        createdAt: recs[recs.length - 1]!.message.timestamp,
        source: 'conversation',
      });
    }
    for (const t of this.tracesOf(id)) {
      if (t.completed_at == null) continue;
      const verdict = t.success === true ? 'succeeded' : t.success === false ? 'failed' : 'ended';
      notes.push({
        id: t.id,
        conversationId: id,
        content: `${JSON.stringify(t.task)} ${verdict} after ${t.steps.length} step${t.steps.length === 1 ? '' : 's'}${t.outcome != null ? `: ${t.outcome}` : '.'}`,
        createdAt: t.completed_at,
        source: 'trace',
      });
    }
    return { conversationId: id, reflections: notes };
  }

  // ---------------------------------------------------------------- entities

  /** type: a hosted type, any case ("person" and "PERSON" are the same). */
  listEntities(options: { type?: string | undefined; limit?: number | undefined } = {}): EntityView[] {
    let all = [...this.entities.values()].map((r) => this.entityView(r.entity.id));
    if (options.type !== undefined) all = all.filter((e) => e.type === hostedEntityType(options.type!));
    return options.limit === undefined ? all : all.slice(0, options.limit);
  }

  /** type: free-form, any case; the bridge view shows its bridge type (see the header). */
  addEntity(input: { name: string; type: string; description?: string | null | undefined; subtype?: string | null | undefined }): EntityView {
    const e = this.add_entity({ name: input.name, entity_type: bridgeEntityType(input.type), description: input.description ?? null });
    if (input.subtype != null) this.entities.get(e.id)!.entity.subtype = input.subtype;
    this.setHostedType(e.id, input.type);
    return this.entityView(e.id);
  }

  entityView(id: string): EntityView {
    const rec = this.entities.get(id);
    if (rec === undefined) throw new HostedError(404, `no entity with id ${JSON.stringify(id)}`);
    const e = rec.entity;
    return {
      id: e.id,
      name: e.name,
      type: this.entityHostedType.get(id) ?? hostedEntityType(e.type),
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

  /** The entity with its outgoing relationships {id, type, targetId, targetName, properties} (get_entity). */
  entityWithRelationships(id: string): EntityView & { relationships: { id: string; type: string; targetId: string; targetName: string | null; properties: Json }[] } {
    const view = this.entityView(id);
    const relationships = this.relationships
      .filter((r) => r.source_id === id)
      .map((r) => ({ id: r.id, type: r.relationship_type, targetId: r.target_id, targetName: this.entities.get(r.target_id)?.entity.name ?? null, properties: copy(r.properties ?? {}) }));
    return { ...view, relationships };
  }

  /** A partial update (fields left out keep their value); each change is recorded in the history. */
  updateEntity(id: string, patch: EntityPatch): EntityView {
    const before = this.entityView(id);
    const e = this.entities.get(id)!.entity;
    const changes: Json = {};
    const set = <K extends keyof EntityPatch>(field: K, from: unknown, to: unknown, apply: () => void) => {
      if (to === undefined || to === from) return;
      changes[field] = { from, to };
      apply();
    };
    checkSize('name', patch.name, MAX_NAME_CHARS);
    checkSize('description', patch.description, MAX_TEXT_CHARS);
    set('name', before.name, patch.name, () => { e.name = patch.name!; });
    set('type', before.type, patch.type === undefined ? undefined : hostedEntityType(patch.type), () => {
      e.type = bridgeEntityType(patch.type!);
      this.setHostedType(id, patch.type!);
    });
    set('subtype', before.subtype, patch.subtype, () => { e.subtype = patch.subtype ?? null; });
    set('description', before.description, patch.description, () => { e.description = patch.description ?? null; });
    set('canonicalName', before.canonicalName, patch.canonicalName, () => { e.canonical_name = patch.canonicalName ?? null; });
    if (Object.keys(changes).length > 0) {
      const at = this.iso();
      this.entityUpdatedAt.set(id, at);
      this.pushHistory(id, { action: 'updated', at, details: changes });
    }
    return this.entityView(id);
  }

  /** Removes the entity and every relationship that touches it; idempotent (an unknown id is fine). */
  deleteEntity(id: string): void {
    if (!this.entities.has(id)) return;
    this.entities.delete(id);
    this.relationships = this.relationships.filter((r) => r.source_id !== id && r.target_id !== id);
    this.entityFeedback.delete(id);
    this.entityHistory.delete(id);
    this.entityUpdatedAt.delete(id);
    this.entityHostedType.delete(id);
    this.extracted.delete(id);
  }

  /**
   * The latest feedback replaces the previous one; every feedback is kept in the history. Answers
   * {id, updated: true} (SPEC-5.3.1), plus what was stored.
   */
  setFeedback(id: string, feedback: Json): { id: string; updated: true; entityId: string; feedback: Json; updatedAt: string } {
    this.entityView(id);
    const at = this.iso();
    this.entityFeedback.set(id, { feedback: copy(feedback), updatedAt: at });
    this.pushHistory(id, { action: 'feedback', at, details: { feedback: copy(feedback) } });
    return { id, updated: true, entityId: id, feedback: copy(feedback), updatedAt: at };
  }

  /**
   * mentions: every message, in any conversation, whose content names the entity (its name,
   * canonical name or a merged name), oldest first (SPEC-5.3.2); history: the entity's own changes,
   * oldest first, starting with its creation.
   */
  history(id: string): { entityId: string; mentions: MentionView[]; history: HistoryEntry[] } {
    const e = this.entityView(id);
    const names = this.nameOf(e);
    const found: MentionView[] = [];
    for (const s of this.sessions.values()) {
      for (const { message: m } of s.messages) {
        if (names.some((n) => mentions(m.content, n))) found.push({ conversationId: s.session_id, messageId: m.id, role: m.role, content: m.content, timestamp: m.timestamp });
      }
    }
    found.sort((x, y) => x.timestamp.localeCompare(y.timestamp));
    const created: HistoryEntry = { action: 'created', at: e.createdAt, details: { name: e.name, type: e.type } };
    return { entityId: id, mentions: found, history: [created, ...copy(this.entityHistory.get(id) ?? [])] };
  }

  /**
   * Merges `sourceId` into `targetId` (the bridge's merge_duplicate_entities: the source's names
   * become the target's aliases, its relationships move to the target, the source is gone). The
   * SAME_AS provenance link from the source to the target (SPEC-5.3.3) is the answer's `link` and
   * stays in the target's history (action "merged", details.link).
   */
  mergeEntity(sourceId: string, input: { targetId: string; canonicalName?: string | null | undefined }): { sourceId: string; targetId: string; status: 'merged'; link: SameAsLink; entity: EntityView } {
    this.entityView(sourceId);
    this.entityView(input.targetId);
    if (sourceId === input.targetId) throw new HostedError(400, 'targetId: must differ from the entity being merged');
    const merged = this.merge_duplicate_entities({ source_id: sourceId, target_id: input.targetId, canonical_name: input.canonicalName ?? null });
    const entry = this.entityHistory.get(merged.id)!.at(-1)!;
    return { sourceId, targetId: merged.id, status: 'merged', link: entry.details.link as SameAsLink, entity: this.entityView(merged.id) };
  }

  graph(): { nodes: EntityView[]; edges: EdgeView[] } {
    return { nodes: this.listEntities(), edges: this.relationships.map(edgeView) };
  }

  /** Over name, description, canonical name and merged names, as the bridge's search_entities; type: any case. */
  searchEntities(input: { query: string; limit?: number | undefined; type?: string | undefined }): (EntityView & { score: number })[] {
    const candidates = [...this.entities.values()].filter((r) => input.type === undefined || this.entityView(r.entity.id).type === hostedEntityType(input.type));
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
    return traces.flatMap((t) => t.steps.map((s) => this.stepOf(s, t)));
  }

  stepView(id: string): StepView {
    const rec = this.steps.get(id);
    if (rec === undefined) throw new HostedError(404, `no reasoning step with id ${JSON.stringify(id)}`);
    return this.stepOf(rec.step, rec.trace.trace);
  }

  private stepOf(s: ReasoningStep, t: ReasoningTrace): StepView {
    return stepView(s, t, this.stepCreatedAt.get(s.id) ?? t.started_at);
  }

  /**
   * The step's fields at top level with its toolCalls, and influencedEntities: the entities its
   * reasoning, action or result names (SPEC-5.4.2); also the trace it belongs to, the steps
   * before it, and a one-paragraph explanation.
   */
  explainStep(id: string): StepView & { influencedEntities: EntityView[]; trace: Omit<TraceView, 'steps'>; previousSteps: StepView[]; explanation: string } {
    const step = this.stepView(id);
    const trace = this.steps.get(id)!.trace.trace;
    const previousSteps = trace.steps.filter((s) => s.step_number < step.stepNumber).map((s) => this.stepOf(s, trace));
    const text = [step.reasoning, step.actionTaken, step.result].filter((t): t is string => t !== null).join('\n');
    const parts = [
      `Step ${step.stepNumber} of the trace for ${JSON.stringify(trace.task)} (conversation ${trace.session_id}).`,
      step.reasoning !== null ? `Reasoning: ${step.reasoning}.` : undefined,
      step.actionTaken !== null ? `Action taken: ${step.actionTaken}.` : undefined,
      step.result !== null ? `Result: ${step.result}.` : undefined,
      step.toolCalls.length > 0 ? `Tools called: ${step.toolCalls.map((c) => `${c.toolName} (${c.status})`).join(', ')}.` : undefined,
    ];
    const { steps: _steps, ...summary } = this.traceOf(trace);
    return { ...step, influencedEntities: this.entitiesMentionedIn(text), trace: summary, previousSteps, explanation: parts.filter((p) => p !== undefined).join(' ') };
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
   * Every step of the conversation's traces (bridge-started ones included), oldest trace first,
   * and every tool call of those steps (each with its stepId) (SPEC-5.4.3); also the traces.
   */
  traceOfConversation(conversationId: string): { conversationId: string; steps: StepView[]; toolCalls: ToolCallView[]; traces: TraceView[] } {
    const traces = this.tracesOf(conversationId).map((t) => this.traceOf(t));
    const steps = traces.flatMap((t) => t.steps);
    return { conversationId, steps, toolCalls: steps.flatMap((s) => s.toolCalls), traces };
  }

  /** The steps whose reasoning, action or result mention the entity by one of its names. */
  provenance(entityId: string): { entityId: string; steps: StepView[] } {
    const names = this.nameOf(this.entityView(entityId));
    const steps = this.listSteps().filter((s) => [s.reasoning, s.actionTaken, s.result].some((text) => text !== null && names.some((n) => mentions(text, n))));
    return { entityId, steps };
  }

  // ---------------------------------------------------------------- helpers

  private tracesOf(conversationId: string): ReasoningTrace[] {
    return this.list_traces({ session_id: conversationId });
  }

  private traceOf(t: ReasoningTrace): TraceView {
    return traceView(t, t.steps.map((s) => this.stepOf(s, t)));
  }

  /** The names an entity is known by: name, canonical name, merged names. */
  private nameOf(e: EntityView): string[] {
    return [e.name, e.canonicalName, ...e.aliases].filter((n): n is string => n !== null && n.trim() !== '');
  }

  /** The entity known by this name (any case), if any. */
  private entityNamed(name: string): EntityView | undefined {
    const wanted = name.toLowerCase();
    for (const r of this.entities.values()) {
      if ([r.entity.name, r.entity.canonical_name, ...r.aliases].some((n) => n != null && n.toLowerCase() === wanted)) return this.entityView(r.entity.id);
    }
    return undefined;
  }

  /** The entities a text names (by any of their names), in creation order. */
  private entitiesMentionedIn(text: string): EntityView[] {
    return [...this.entities.values()].map((r) => this.entityView(r.entity.id)).filter((e) => this.nameOf(e).some((n) => mentions(text, n)));
  }

  /** Records the hosted type when it is not just the bridge type in lower case. */
  private setHostedType(id: string, type: string): void {
    const hosted = hostedEntityType(type);
    if (hosted === hostedEntityType(bridgeEntityType(type))) this.entityHostedType.delete(id);
    else this.entityHostedType.set(id, hosted);
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

/** "2 user, 1 assistant": how many of each value, in first-seen order. */
function countBy(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} ${v}`).join(', ');
}

function edgeView(r: Relationship): EdgeView {
  return { id: r.id, source: r.source_id, target: r.target_id, type: r.relationship_type, sourceId: r.source_id, targetId: r.target_id, relationshipType: r.relationship_type, properties: copy(r.properties ?? {}) };
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

function stepView(s: ReasoningStep, t: ReasoningTrace, createdAt: string): StepView {
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

function traceView(t: ReasoningTrace, steps: StepView[]): TraceView {
  return {
    id: t.id,
    conversationId: t.session_id,
    task: t.task,
    steps,
    outcome: t.outcome ?? null,
    success: t.success ?? null,
    startedAt: t.started_at,
    completedAt: t.completed_at ?? null,
  };
}
