// The catalogue of one-rule faulty variants of the Platinum implementation (issue 23): each breaks
// exactly one rule that Volume 5, the hosted document's endpoint table or the BaseAdapter's method
// row states, and nothing else. Written BEFORE the scenarios that catch them were tuned, to measure
// the Platinum suite honestly: `npm run measure:platinum` runs every Platinum scenario against every
// fault and prints, by section, how many the suite catches (../platinum-catalogue.test.ts).
//
// There is at least one fault per Volume 5 sentence and per Platinum method, and faults of the kinds
// small scenarios miss: limits and defaults that show only with dozens of items, Platinum writes read
// through the core methods (and core writes through Platinum reads), what deletes leave behind, and
// tool calls recorded on a Platinum step.
//
// `caught` names the scenario that catches the fault and the message it fails with (the power proof
// of ../platinum.test.ts runs each such pair). A fault without `caught` is one no scenario catches.
import { randomUUID } from 'node:crypto';
import { HostedStore } from '../../../src/servers/hosted/store.js';
import type { Params } from '../../../src/servers/bridge/index.js';
import type { Entity, Message } from '../../../src/protocols/bridge/index.js';
import { mapAnswers, mapRequest, mapResponse, type Wrap } from '../../harness/variants.js';
import { ownLimit } from '../../harness/valid-variants.js';
import { intercept, type V } from './platinum-base.js';

type Section = 'conversation lifecycle' | 'context' | 'entities' | 'provenance' | 'cypher';
export const SECTIONS: readonly Section[] = ['conversation lifecycle', 'context', 'entities', 'provenance', 'cypher'];

interface CatalogueFault {
  id: string;
  section: Section;
  /** The sentences it breaks (clause-map ids). */
  sentences: string[];
  /** The Platinum method whose answer or effect is wrong. */
  method: string;
  fault: string;
  variant: V;
  /** The scenario that catches it and the message it fails with; absent: no scenario catches it. */
  caught?: [scenario: string, message: RegExp];
}

/** count(*) adds the relationships to the rows it counts (PF-Q18). */
class CountStarAddsEdges extends HostedStore {
  override cypher_query(p: Params<'cypher_query'>) {
    const r = super.cypher_query(p) as { columns: string[]; rows: unknown[][] };
    if (!/count\(\*\)/i.test(p.cypher)) return r;
    const edges = (super.cypher_query({ cypher: 'MATCH (a)-[r]->(b) RETURN count(r) AS c', params: {} }) as { rows: number[][] }).rows[0]![0]!;
    return { ...r, rows: r.rows.map((row) => row.map((v) => (typeof v === 'number' ? v + edges : v))) };
  }
}

const w = (wrap: Wrap): V => ({ wrap });
const s = (store: () => HostedStore): V => ({ store });
const json = (status: 400, error: string) => ({ status, body: { error } });

// ---------------------------------------------------------------- stores with one rule broken

/** create_conversation answers the caller's existing conversation of that user instead of a fresh one. */
class ReusedConversation extends HostedStore {
  override create_conversation(p: Params<'create_conversation'>) {
    const mine = this.listConversations().find((c) => c.userId === p.user_id);
    return mine === undefined ? super.create_conversation(p) : this.bridgeConversation(mine);
  }
}

/** recent_messages: the latest 20 messages of every conversation, not of the one asked for. */
class ContextOfEveryone extends HostedStore {
  override get_context(p: Params<'get_context'>) {
    const all = [...this.messages.values()].map((r) => structuredClone(r.message));
    return { ...super.get_context(p), recent_messages: all.slice(-20) };
  }
}

/** recent_messages: the conversation's first 20 messages (the oldest), not its recent ones. */
class ContextOfOldest extends HostedStore {
  override get_context(p: Params<'get_context'>) {
    const all = this.sessions.has(p.conversation_id) ? this.get_conversation({ session_id: p.conversation_id, limit: null }).messages : [];
    return { ...super.get_context(p), recent_messages: all.slice(0, 20) };
  }
}

/** Remembers which messages came through bulk_add_messages (a store that keeps the two paths apart). */
class BulkOnly extends HostedStore {
  protected bulk = new Set<string>();
  override bulk_add_messages(p: Params<'bulk_add_messages'>): Message[] {
    const added = super.bulk_add_messages(p);
    for (const m of added) this.bulk.add(m.id);
    return added;
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    super.clear_all_data(p);
    this.bulk?.clear();
  }
}

/** get_context shows only the messages added with bulk_add_messages (add_message's are missing). */
class ContextOfBulkOnly extends BulkOnly {
  override get_context(p: Params<'get_context'>) {
    const c = super.get_context(p) as { recent_messages: Message[] };
    return { ...c, recent_messages: c.recent_messages.filter((m) => this.bulk.has(m.id)) };
  }
}

/** get_entity_history counts only the messages added with bulk_add_messages. */
class HistoryOfBulkOnly extends BulkOnly {
  override get_entity_history(p: Params<'get_entity_history'>) {
    const h = super.get_entity_history(p) as { mentions: { message_id: string }[] };
    return { ...h, mentions: h.mentions.filter((m) => this.bulk.has(m.message_id)) };
  }
}

const snakeNote = (n: { id: string; conversationId: string; content: string; createdAt: string; windowStart?: string | null; windowEnd?: string | null }) => ({
  id: n.id, conversation_id: n.conversationId, content: n.content, created_at: n.createdAt,
  ...('windowStart' in n ? { window_start: n.windowStart, window_end: n.windowEnd } : {}),
});

/** get_reflections lists the reflections of every conversation. */
class ReflectionsOfEveryone extends HostedStore {
  override get_reflections(_p: Params<'get_reflections'>) {
    return [...this.sessions.keys()].flatMap((id) => this.reflections(id)).map(snakeNote);
  }
}

/** get_observations lists the observations of every conversation. */
class ObservationsOfEveryone extends HostedStore {
  override get_observations(p: Params<'get_observations'>) {
    const all = [...this.sessions.keys()].flatMap((id) => this.observations(id)).map(snakeNote);
    return p.limit == null ? all : all.slice(0, p.limit);
  }
}

/** delete_entity removes the entity but leaves its relationships (edges to nothing in the graph). */
class DeleteKeepsEdges extends HostedStore {
  override deleteEntity(id: string): void {
    const kept = this.relationships;
    super.deleteEntity(id);
    this.relationships = kept;
  }
}

/** delete_entity removes every relationship of the graph, not only the entity's. */
class DeleteDropsAllEdges extends HostedStore {
  override deleteEntity(id: string): void {
    const known = this.entities.has(id);
    super.deleteEntity(id);
    if (known) this.relationships = [];
  }
}

/** get_entity answers the most recently added entity, whatever the id. */
class LatestEntity extends HostedStore {
  override get_entity(p: Params<'get_entity'>): Entity {
    super.get_entity(p);
    return structuredClone([...this.entities.values()].at(-1)!.entity);
  }
}

/** get_trace_by_conversation lists the steps of every conversation. */
class TraceOfEveryone extends HostedStore {
  override get_trace_by_conversation(p: Params<'get_trace_by_conversation'>) {
    const steps = this.listSteps().map((x) => ({ id: x.id, conversation_id: x.conversationId, reasoning: x.reasoning ?? '', action_taken: x.actionTaken ?? '', result: x.result, created_at: x.createdAt }));
    return { ...super.get_trace_by_conversation(p), steps };
  }
}

/** record_step keeps only the latest step of a conversation: a new step replaces the previous ones. */
class LatestStepOnly extends HostedStore {
  override record_step(p: Params<'record_step'>) {
    const r = super.record_step(p);
    const rec = this.traces.get(this.conversationTrace.get(p.conversation_id)!)!;
    for (const old of rec.trace.steps.slice(0, -1)) this.steps.delete(old.id);
    rec.trace.steps = rec.trace.steps.slice(-1);
    return r;
  }
}

/** The query console keeps a deleted entity in the graph it reads. */
class CypherSeesDeleted extends HostedStore {
  protected gone: ReturnType<HostedStore['entityView']>[] = [];
  override deleteEntity(id: string): void {
    if (this.entities.has(id)) this.gone.push(this.entityView(id));
    super.deleteEntity(id);
  }
  override liveGraph() {
    const g = super.liveGraph();
    return { ...g, nodes: [...g.nodes, ...this.gone] };
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    super.clear_all_data(p);
    this.gone = [];
  }
}

/** The query console reads the names entities had before update_entity. */
class CypherSeesOldNames extends HostedStore {
  protected oldName = new Map<string, string>();
  override update_entity(p: Params<'update_entity'>): Entity {
    const before = this.entities.get(p.entity_id)?.entity.name;
    if (before !== undefined && !this.oldName.has(p.entity_id)) this.oldName.set(p.entity_id, before);
    return super.update_entity(p);
  }
  override liveGraph() {
    const g = super.liveGraph();
    return { ...g, nodes: g.nodes.map((n) => ({ ...n, name: this.oldName.get(n.id) ?? n.name })) };
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    super.clear_all_data(p);
    this.oldName?.clear();
  }
}

/** clear_all_data forgets the core data but keeps the conversations create_conversation made (PF-C18, from a mutation survivor). */
class ClearKeepsConversations extends HostedStore {
  override clear_all_data(p: Params<'clear_all_data'>): void {
    const kept = [...this.conversationAttrs].map(([id, attrs]) => [this.sessions.get(id)!, attrs] as const);
    super.clear_all_data(p);
    for (const [session, attrs] of kept) {
      this.sessions.set(session.session_id, { ...session, messages: [] });
      this.conversationAttrs.set(session.session_id, attrs);
    }
  }
}

/** list_conversations reads the Platinum attributes of every session, so a session the core add_message started makes it fail (PF-C19, from a mutation survivor). */
class ListFailsOnCoreSession extends HostedStore {
  override list_conversations(p: Params<'list_conversations'>) {
    const bare = [...this.sessions.keys()].find((id) => !this.conversationAttrs.has(id));
    if (bare !== undefined) throw new TypeError(`Cannot read properties of undefined (reading 'userId') for session ${bare}`);
    return super.list_conversations(p);
  }
}

/** The names (lower-case) of the entities the store extracted from messages and nobody added yet. */
const extractedNames = (store: HostedStore & { extracted: Set<string> }) => new Set([...store.extracted].map((id) => store.get_entity({ entity_id: id }).name.toLowerCase()));

/** add_entity of a name a message already named fails (PF-E21, from mutation survivors: the claim of an extracted entity recursing or reading nothing). */
class AddOfExtractedNameFails extends HostedStore {
  override add_entity(p: Params<'add_entity'>): Entity {
    if (extractedNames(this as never).has(p.name.toLowerCase())) throw new RangeError('Maximum call stack size exceeded');
    return super.add_entity(p);
  }
}

/** add_entity of a name a message already named answers (and keeps) no description (PF-E22, from a mutation survivor: `input.description ?? null` as `&& null`). */
class AddOfExtractedNameDropsDescription extends HostedStore {
  override add_entity(p: Params<'add_entity'>): Entity {
    if (!extractedNames(this as never).has(p.name.toLowerCase())) return super.add_entity(p);
    const e = super.add_entity(p);
    this.entities.get(e.id)!.entity.description = null;
    return { ...e, description: null };
  }
}

/** get_reflections (and get_context) answer an empty object for each completed trace of the conversation (PF-X09, from a mutation survivor). */
class EmptyReflectionOfTrace extends HostedStore {
  override reflections(id: string) {
    const done = this.list_traces({ session_id: id } as Params<'list_traces'>).filter((t) => t.completed_at != null).length;
    return super.reflections(id).map((r, i) => (i < done ? ({} as typeof r) : r));
  }
}

// ---------------------------------------------------------------- wraps with one rule broken

/** A second delete of the same conversation answers 400 {"error"}. */
function stateDelete(): Wrap {
  return (next) => {
    const deleted = new Set<string>();
    return (m, b: any) => {
      if (m !== 'delete_conversation') return next(m, b);
      if (deleted.has(b.conversation_id)) return { status: 400, body: { error: 'conversation_id: already deleted' } };
      deleted.add(b.conversation_id);
      return next(m, b);
    };
  };
}

/** Takes any number of messages, 100 at a time. */
function splitBulk(): Wrap {
  return (next) => async (m, b: any) => {
    if (m !== 'bulk_add_messages' || b.messages.length <= 100) return next(m, b);
    const out: unknown[] = [];
    for (let i = 0; i < b.messages.length; i += 100) out.push(...((await next(m, { ...b, messages: b.messages.slice(i, i + 100) })).body as unknown[]));
    return { status: 200, body: out };
  };
}


/** delete_conversation hides the conversation (list, metadata) but deletes nothing, its messages included. */
function deleteHidesOnly(): Wrap {
  return (next) => {
    const hidden = new Set<string>();
    return async (m, b: any) => {
      if (m === 'delete_conversation') {
        hidden.add(b.conversation_id);
        return { status: 204 };
      }
      if ((m === 'get_conversation_metadata' || m === 'get_context') && hidden.has(b.conversation_id)) {
        return m === 'get_context' ? { status: 200, body: { reflections: [], observations: [], recent_messages: [] } } : json(400, 'conversation_id: deleted');
      }
      const res = await next(m, b);
      if (m === 'list_conversations' && res.status === 200) return { ...res, body: (res.body as { id: string }[]).filter((c) => !hidden.has(c.id)) };
      return res;
    };
  };
}

/** delete_conversation also deletes every other conversation of the same user. */
function deleteWholeUser(): Wrap {
  return (next) => async (m, b: any) => {
    if (m !== 'delete_conversation') return next(m, b);
    const meta = await next('get_conversation_metadata', { conversation_id: b.conversation_id });
    const res = await next(m, b);
    if (meta.status !== 200) return res;
    const user = (meta.body as { user_id: string }).user_id;
    for (const c of (await next('list_conversations', {})).body as { id: string; user_id: string }[]) {
      if (c.user_id === user) await next('delete_conversation', { conversation_id: c.id });
    }
    return res;
  };
}

/** get_conversation_metadata keeps answering a conversation after it was deleted (a stale cache). */
function staleMetadata(): Wrap {
  return (next) => {
    const cache = new Map<string, unknown>();
    return async (m, b: any) => {
      const res = await next(m, b);
      if ((m === 'create_conversation' || m === 'get_conversation_metadata') && res.status === 200) cache.set((res.body as { id: string }).id, res.body);
      if (m === 'get_conversation_metadata' && res.status !== 200 && cache.has(b.conversation_id)) return { status: 200, body: cache.get(b.conversation_id) };
      return res;
    };
  };
}

/** get_context keeps answering what it last answered for a conversation that was since deleted. */
function staleContext(): Wrap {
  return (next) => {
    const cache = new Map<string, { recent_messages: unknown[] }>();
    return async (m, b: any) => {
      const res = await next(m, b);
      if (m !== 'get_context' || res.status !== 200) return res;
      const body = res.body as { recent_messages: unknown[] };
      const before = cache.get(b.conversation_id);
      if (body.recent_messages.length === 0 && before !== undefined && before.recent_messages.length > 0) return { status: 200, body: before };
      cache.set(b.conversation_id, body);
      return res;
    };
  };
}

/** bulk_add_messages stores the batch in reverse order (and answers it in the order sent). */
function bulkStoredReversed(): Wrap {
  return intercept(async (next, m, b) => {
    if (m !== 'bulk_add_messages' || !Array.isArray(b?.messages)) return next(m, b);
    const res = await next(m, { ...b, messages: [...b.messages].reverse() });
    return res.status === 200 ? { ...res, body: (res.body as unknown[]).reverse() } : res;
  });
}

/** bulk_add_messages stores only the first 50 messages of a batch, and answers all of them as added. */
function bulkStoresFifty(): Wrap {
  return intercept(async (next, m, b) => {
    if (m !== 'bulk_add_messages' || !Array.isArray(b?.messages) || b.messages.length <= 50) return next(m, b);
    const res = await next(m, { ...b, messages: b.messages.slice(0, 50) });
    if (res.status !== 200) return res;
    const made = b.messages.slice(50).map((x: { role: string; content: string; metadata?: object }) => ({
      id: randomUUID(), role: x.role, content: x.content, timestamp: new Date().toISOString(), embedding: null, metadata: x.metadata ?? {},
    }));
    return { ...res, body: [...(res.body as unknown[]), ...made] };
  });
}

/** get_entity_history looks for a name without its punctuation ("Node.js" as "Nodejs"), so it misses every mention of such a name. */
function punctuationStripped(): Wrap {
  const names = new Map<string, string>();
  return intercept(async (next, m, b) => {
    const res = await next(m, b);
    if (m === 'add_entity' && res.status === 200) names.set((res.body as { id: string }).id, String(b.name));
    if (m !== 'get_entity_history' || res.status !== 200) return res;
    const stripped = (names.get(b.entity_id) ?? '').replace(/[.*+?^${}()|[\]\\]/g, '').toLowerCase();
    const h = res.body as { mentions: { content: string }[] };
    return { ...res, body: { ...h, mentions: h.mentions.filter((x) => x.content.toLowerCase().includes(stripped)) } };
  });
}

/**
 * Platinum keeps its messages apart: bulk_add_messages and the Platinum reads of a conversation
 * (context, observations, reflections) use a shadow session, so the core methods (get_conversation,
 * search_messages) never see the messages added in bulk, nor the Platinum reads those added one by one.
 */
function bulkInShadowSession(): Wrap {
  const shadow = (id: string) => `shadow-${id}`;
  const PLATINUM_READS = new Set(['bulk_add_messages', 'get_context', 'get_observations', 'get_reflections']);
  return (next) => async (m, b: any) => {
    if (!PLATINUM_READS.has(m) || typeof b?.conversation_id !== 'string') {
      const res = await next(m, b);
      if (m === 'get_entity_history' && res.status === 200) {
        const h = res.body as { mentions: { conversation_id: string }[] };
        return { ...res, body: { ...h, mentions: h.mentions.map((x) => ({ ...x, conversation_id: x.conversation_id.replace(/^shadow-/, '') })) } };
      }
      return res;
    }
    const res = await next(m, { ...b, conversation_id: shadow(b.conversation_id) });
    if (res.status !== 200) return res;
    const back = (x: { conversation_id?: string }) => ({ ...x, conversation_id: b.conversation_id });
    if (m === 'get_observations' || m === 'get_reflections') return { ...res, body: (res.body as object[]).map(back) };
    if (m === 'get_context') {
      const c = res.body as { reflections: object[]; observations: object[] };
      return { ...res, body: { ...c, reflections: c.reflections.map(back), observations: c.observations.map(back) } };
    }
    return res;
  };
}

/** get_conversation_metadata answers the newest conversation, whatever the id. */
function metadataOfNewest(): Wrap {
  return intercept(async (next, m, b) => {
    if (m !== 'get_conversation_metadata') return next(m, b);
    const res = await next(m, b);
    if (res.status !== 200) return res;
    const [newest] = (await next('list_conversations', { limit: 1 })).body as unknown[];
    return { status: 200, body: newest };
  });
}

/** get_observations and get_reflections of a conversation with nothing to observe answer an error instead of []. */
function emptyIsAnError(): Wrap {
  return (next) => async (m, b) => {
    const res = await next(m, b);
    if ((m === 'get_observations' || m === 'get_reflections') && res.status === 200 && (res.body as unknown[]).length === 0) return json(400, 'conversation_id: nothing to observe yet');
    return res;
  };
}

/** delete_entity hides the entity from list_entities and deletes nothing. */
function deleteEntityHidesOnly(): Wrap {
  return (next) => {
    const hidden = new Set<string>();
    return async (m, b: any) => {
      if (m === 'delete_entity') {
        hidden.add(b.entity_id);
        return { status: 204 };
      }
      const res = await next(m, b);
      if (m === 'list_entities' && res.status === 200) return { ...res, body: (res.body as { id: string }[]).filter((e) => !hidden.has(e.id)) };
      return res;
    };
  };
}

/** update_entity answers the entity as updated but stores nothing. */
function updateNotStored(): Wrap {
  return intercept(async (next, m, b) => {
    if (m !== 'update_entity') return next(m, b);
    const now = await next('get_entity', { entity_id: b.entity_id });
    if (now.status !== 200) return now;
    const e = now.body as Entity;
    return { status: 200, body: { ...e, name: b.name ?? e.name, description: b.description ?? e.description } };
  });
}

/** get_entity_by_name keeps the names entities had before update_entity (a stale name index). */
function staleNameIndex(): Wrap {
  return (next) => {
    const renamed = new Map<string, string>(); // new name -> id
    const former = new Map<string, string>(); // old name -> id
    return async (m, b: any) => {
      if (m === 'update_entity' && typeof b?.name === 'string') {
        const before = await next('get_entity', { entity_id: b.entity_id });
        const res = await next(m, b);
        if (res.status === 200 && before.status === 200 && (before.body as Entity).name !== b.name) {
          renamed.set(b.name, b.entity_id);
          former.set((before.body as Entity).name, b.entity_id);
        }
        return res;
      }
      if (m === 'get_entity_by_name' && renamed.has(b.name)) return { status: 200, body: null };
      if (m === 'get_entity_by_name' && former.has(b.name)) return next('get_entity', { entity_id: former.get(b.name) });
      return next(m, b);
    };
  };
}

/** explain_step answers every tool call of the step's conversation, not the step's own. */
function explainWholeTrace(): Wrap {
  return intercept(async (next, m, b) => {
    const res = await next(m, b);
    if (m !== 'explain_step' || res.status !== 200) return res;
    const x = res.body as { conversation_id: string };
    const trace = await next('get_trace_by_conversation', { conversation_id: x.conversation_id });
    return { ...res, body: { ...x, tool_calls: (trace.body as { tool_calls: unknown[] }).tool_calls } };
  });
}

/** record_tool_call refuses the ids of steps made by record_step (only trace steps take tool calls). */
function toolCallsOnTraceStepsOnly(): Wrap {
  return (next) => {
    const platinumSteps = new Set<string>();
    return async (m, b: any) => {
      if (m === 'record_tool_call' && platinumSteps.has(b.step_id)) return json(400, 'step_id: no such step');
      const res = await next(m, b);
      if (m === 'record_step' && res.status === 200) platinumSteps.add((res.body as { id: string }).id);
      return res;
    };
  };
}

/** get_trace_by_conversation lists only the tool calls of the conversation's first step. */
function traceToolCallsOfFirstStep(): Wrap {
  return mapResponse('get_trace_by_conversation', (t) => {
    const first = t.steps[0]?.id;
    return { ...t, tool_calls: t.tool_calls.filter((c: { step_id?: string }) => c.step_id === first) };
  });
}

/** A write in lower case (create, merge, set, delete, remove) is answered as executed. */
const lowerCaseWrites = intercept((next, m, b) =>
  m === 'cypher_query' && /\b(create|merge|set|delete|remove)\b/.test(b?.cypher ?? '') ? { status: 200, body: { columns: [], rows: [] } } : next(m, b));

/** Only CREATE and DELETE are refused: SET, MERGE and REMOVE are answered as executed. */
const someWritesRun = intercept((next, m, b) => {
  const clauses = String(b?.cypher ?? '').replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
  return m === 'cypher_query' && /\b(SET|MERGE|REMOVE)\b/i.test(clauses) && !/\b(CREATE|DELETE)\b/i.test(clauses) ? { status: 200, body: { columns: [], rows: [] } } : next(m, b);
});

/** Refuses a query with a write keyword outside the literals `literal` finds (a write check that reads some literals as clauses). */
function writeCheckSkipping(literal: RegExp): Wrap {
  return intercept((next, m, b) =>
    m === 'cypher_query' && /\b(create|merge|set|delete|remove)\b/i.test(String(b?.cypher ?? '').replace(literal, "''")) ? json(400, 'cypher: write operations are rejected') : next(m, b));
}

/** A read query whose string values contain a write keyword is refused (the refusal does not skip literals). */
/** A console that refuses, with 400 and `error`, every query matching `pattern`. */
const cypherRefused = (pattern: RegExp, error: string): Wrap =>
  intercept((next, m, b) => (m === 'cypher_query' && pattern.test(String(b?.cypher ?? '')) ? json(400, error) : next(m, b)));
/** A console that reads each query as `rewrite` makes it. */
const cypherRewritten = (rewrite: (cypher: string) => string): Wrap => mapRequest('cypher_query', (b) => ({ ...b, cypher: rewrite(String(b.cypher)) }));

const literalsRefused = cypherRefused(/\b(create|merge|set|delete|remove)\b/i, 'cypher: write operations are rejected');

// ---------------------------------------------------------------- the catalogue

export const CATALOGUE: CatalogueFault[] = [
  // 5.1: conversation lifecycle (and get_conversation_metadata, bulk_add_messages)
  { id: 'PF-C01', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.1'], method: 'create_conversation',
    fault: 'create_conversation stores and answers the user_id lower-cased', variant: w(mapRequest('create_conversation', (b) => ({ ...b, user_id: String(b.user_id).toLowerCase() }))), caught: ['SCN-P-110', /user_id of each answer/] },
  { id: 'PF-C02', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.1'], method: 'create_conversation',
    fault: 'workspace_id is derived from the user_id (one workspace per user, not per API key)',
    variant: w(mapAnswers((b, m) => {
      if (!['create_conversation', 'list_conversations', 'get_conversation_metadata'].includes(m)) return b;
      const fix = (c: { user_id?: string }) => ({ ...c, workspace_id: `ws-${c.user_id}` });
      return Array.isArray(b) ? b.map(fix) : fix(b);
    })), caught: ['SCN-P-110', /workspace_id is scoped to the API key, so it must be one value, got 5/] },
  { id: 'PF-C03', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.1'], method: 'create_conversation',
    fault: "create_conversation answers the user's existing conversation instead of a fresh one", variant: s(() => new ReusedConversation()), caught: ['SCN-P-101', /second id must be fresh/] },
  { id: 'PF-C04', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.2'], method: 'list_conversations',
    fault: 'list_conversations(limit=N) keeps the N oldest conversations (listed newest first)',
    variant: w(ownLimit('list_conversations', (list: unknown[], limit) => list.slice(-limit))), caught: ['SCN-P-111', /a limit keeps the newest conversations: .* is not among the 5 newest/] },
  { id: 'PF-C05', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.2'], method: 'list_conversations',
    fault: 'list_conversations answers at most 20 conversations whatever the limit', variant: w(mapResponse('list_conversations', (l) => l.slice(0, 20))), caught: ['SCN-P-111', /list_conversations\(limit=50\) after creating 30: 10 of 30 missing/] },
  { id: 'PF-C06', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.2'], method: 'list_conversations',
    fault: 'list_conversations lists oldest first', variant: w(mapResponse('list_conversations', (l) => l.reverse())), caught: ['SCN-P-111', /newest first, but item \d+/] },
  { id: 'PF-C07', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.3'], method: 'delete_conversation',
    fault: 'a second delete_conversation of the same id is an error', variant: w(stateDelete()), caught: ['SCN-P-003', /delete_conversation: expected success/] },
  { id: 'PF-C08', section: 'conversation lifecycle', sentences: ['SPEC-V3-delete_conversation'], method: 'delete_conversation',
    fault: 'delete_conversation hides the conversation (list, metadata, context) but leaves its messages', variant: w(deleteHidesOnly()), caught: ['SCN-P-112', /the conversation's messages must be deleted with it: message "Orinoco Basin survey note 00"/] },
  { id: 'PF-C09', section: 'conversation lifecycle', sentences: ['SPEC-V3-delete_conversation'], method: 'delete_conversation',
    fault: 'delete_conversation also deletes every other conversation of the same user', variant: w(deleteWholeUser()), caught: ['SCN-P-112', /the other conversations \(one of the same user\): 1 of 2 missing/] },
  { id: 'PF-C10', section: 'conversation lifecycle', sentences: ['SPEC-V3-delete_conversation', 'HOSTED-ENDPOINT-get_conversation_metadata'], method: 'get_conversation_metadata',
    fault: 'get_conversation_metadata keeps answering a deleted conversation', variant: w(staleMetadata()), caught: ['SCN-P-112', /get_conversation_metadata\(.*\) after delete_conversation: expected an error \(400 or 500 \{"error"\}\) or null, got the deleted item itself/] },
  { id: 'PF-C11', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4'], method: 'bulk_add_messages',
    fault: 'bulk_add_messages answers the messages in reverse order', variant: w(mapResponse('bulk_add_messages', (b) => b.reverse())), caught: ['SCN-P-004', /in order/] },
  { id: 'PF-C12', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4', 'SPEC-2.2.1'], method: 'bulk_add_messages',
    fault: 'bulk_add_messages stores the batch in reverse order (its answer is in order)', variant: w(bulkStoredReversed()), caught: ['SCN-P-102', /every message, in insertion order/] },
  { id: 'PF-C13', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4'], method: 'bulk_add_messages',
    fault: 'bulk_add_messages has no cap: 101 messages are all stored', variant: w(splitBulk()), caught: ['SCN-P-102', /messages of that batch stored \(the cap is 100\): expected at most 100 item\(s\), got 101/] },
  { id: 'PF-C14', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4'], method: 'bulk_add_messages',
    fault: 'bulk_add_messages stores only the first 50 messages of a batch (and answers all of them)', variant: w(bulkStoresFifty()), caught: ['SCN-P-102', /every message, in insertion order/] },
  { id: 'PF-C15', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4', 'SPEC-V5-5.2.1'], method: 'bulk_add_messages',
    fault: "Platinum keeps its own messages: bulk-added messages never reach the conversation's session (get_conversation, search), nor add_message's the context",
    variant: w(bulkInShadowSession()), caught: ['SCN-P-113', /the 46 contents, in insertion order/] },
  { id: 'PF-C16', section: 'conversation lifecycle', sentences: ['HOSTED-ENDPOINT-get_conversation_metadata'], method: 'get_conversation_metadata',
    fault: 'get_conversation_metadata answers the newest conversation whatever the id', variant: w(metadataOfNewest()), caught: ['SCN-P-110', /get_conversation_metadata of the conversation of "TCK-Mixed Case"/] },

  { id: 'PF-C17', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.4', 'SPEC-2.2.8'], method: 'bulk_add_messages',
    fault: 'bulk_add_messages drops the metadata of each message (found by mutation testing: `m.metadata ?? null` as `m.metadata && null`)',
    variant: w(mapRequest('bulk_add_messages', (b) => ({ ...b, messages: b.messages.map(({ metadata: _m, ...rest }: { metadata?: unknown }) => rest) }))),
    caught: ['SCN-P-113', /the metadata sent with bulk_add_messages must read back with each message: 20 of 20 differ/] },
  // Found by mutation testing of the hosted store's operations (part D of docs/mutation-triage.md).
  { id: 'PF-C18', section: 'conversation lifecycle', sentences: ['SPEC-V3-clear_all_data', 'SPEC-V5-5.1.2'], method: 'list_conversations',
    fault: 'clear_all_data keeps the conversations create_conversation made (found by mutation testing: the override of clear_all_data emptied)',
    variant: s(() => new ClearKeepsConversations()), caught: ['SCN-P-125', /list_conversations\(limit=100\) after clear_all_data: 12 of the 12 conversations made before it are still listed/] },
  { id: 'PF-C19', section: 'conversation lifecycle', sentences: ['SPEC-V5-5.1.2'], method: 'list_conversations',
    fault: 'list_conversations fails (500) once a session was started by the core add_message (found by mutation testing: `attrs?.userId` as `attrs.userId`)',
    variant: s(() => new ListFailsOnCoreSession()), caught: ['SCN-P-002', /list_conversations/] },

  // 5.2: three-tier context (get_context, get_observations, get_reflections)
  { id: 'PF-X01', section: 'context', sentences: ['SPEC-V5-5.2.1'], method: 'get_context',
    fault: 'get_context answers the latest messages of every conversation as recent_messages', variant: s(() => new ContextOfEveryone()), caught: ['SCN-P-113', /recent_messages are messages of that conversation: "elsewhere 00"/] },
  { id: 'PF-X02', section: 'context', sentences: ['SPEC-V5-5.2.1'], method: 'get_context',
    fault: "get_context answers the conversation's 20 oldest messages as recent_messages", variant: s(() => new ContextOfOldest()), caught: ['SCN-P-113', /recent_messages must hold the latest one, "single last"/] },
  { id: 'PF-X03', section: 'context', sentences: ['SPEC-V5-5.2.1'], method: 'get_context',
    fault: 'get_context leaves out the messages added with add_message (only bulk-added ones)', variant: s(() => new ContextOfBulkOnly()), caught: ['SCN-P-113', /recent_messages must hold the latest one, "single last"/] },
  { id: 'PF-X04', section: 'context', sentences: ['SPEC-V5-5.2.1', 'SPEC-V3-delete_conversation'], method: 'get_context',
    fault: 'get_context keeps answering the recent messages of a deleted conversation (a stale cache)', variant: w(staleContext()), caught: ['SCN-P-112', /after delete_conversation: recent_messages: message .* of the deleted conversation is still a recent message/] },
  { id: 'PF-X05', section: 'context', sentences: ['SPEC-V5-5.2.1', 'SPEC-V3-get_reflections'], method: 'get_reflections',
    fault: 'get_reflections lists the reflections of every conversation', variant: s(() => new ReflectionsOfEveryone()), caught: ['SCN-P-114', /get_reflections\(.*\) of one of two busy conversations: reflections of another conversation/] },
  { id: 'PF-X06', section: 'context', sentences: ['SPEC-V5-5.2.1', 'SPEC-V3-get_observations'], method: 'get_observations',
    fault: 'get_observations lists the observations of every conversation', variant: s(() => new ObservationsOfEveryone()), caught: ['SCN-P-114', /get_observations\(.*\) of one of two busy conversations: observations of another conversation/] },
  { id: 'PF-X07', section: 'context', sentences: ['SPEC-V3-get_observations'], method: 'get_observations',
    fault: 'get_observations ignores limit', variant: w(mapRequest('get_observations', (b) => ({ ...b, limit: undefined }))), caught: ['SCN-P-114', /limit=2\): expected at most 2/] },
  { id: 'PF-X08', section: 'context', sentences: ['SPEC-V5-5.2.2'], method: 'get_observations',
    fault: 'get_observations and get_reflections answer an error, not [], when there is nothing yet', variant: w(emptyIsAnError()), caught: ['SCN-P-006', /get_observations: expected success/] },

  { id: 'PF-X09', section: 'context', sentences: ['SPEC-V5-5.2.1', 'SPEC-V3-get_reflections'], method: 'get_reflections',
    fault: 'the reflection of each completed trace is an empty object (found by mutation testing: the reflection of a trace as `{}`)',
    variant: s(() => new EmptyReflectionOfTrace()), caught: ['SCN-P-114', /get_reflections/] },

  // 5.3: entity feedback, history, merge and graph (and list_entities, get_entity, update_entity, delete_entity)
  { id: 'PF-E01', section: 'entities', sentences: ['SPEC-V5-5.3.1a'], method: 'set_entity_feedback',
    fault: 'set_entity_feedback answers updated: false', variant: w(mapResponse('set_entity_feedback', (b) => ({ ...b, updated: false }))), caught: ['SCN-P-007', /updated/] },
  { id: 'PF-E02', section: 'entities', sentences: ['SPEC-V5-5.3.1b'], method: 'set_entity_feedback',
    fault: 'set_entity_feedback refuses user_score 1 (reads the range as [0, 1))',
    variant: w(intercept((next, m, b) => (m === 'set_entity_feedback' && b?.user_score >= 1 ? json(400, 'user_score: must be below 1') : next(m, b)))), caught: ['SCN-P-007', /set_entity_feedback: expected success, got 400/] },
  { id: 'PF-E03', section: 'entities', sentences: ['SPEC-V5-5.3.1b'], method: 'set_entity_feedback',
    fault: 'set_entity_feedback clamps a user_score outside [0, 1] instead of refusing it',
    variant: w(mapRequest('set_entity_feedback', (b) => ({ ...b, user_score: Math.min(1, Math.max(0, b.user_score)) }))), caught: ['SCN-P-103', /user_score 1\.5/] },
  { id: 'PF-E04', section: 'entities', sentences: ['SPEC-V5-5.3.2'], method: 'get_entity_history',
    fault: 'get_entity_history leaves out the mentions in messages added with add_message', variant: s(() => new HistoryOfBulkOnly()), caught: ['SCN-P-119', /expected exactly 25, got 17: 8 missing \("Kilimanjaro climb note B 00"/] },
  { id: 'PF-E05', section: 'entities', sentences: ['SPEC-V5-5.3.2'], method: 'get_entity_history',
    fault: 'get_entity_history answers at most 10 mentions', variant: w(mapResponse('get_entity_history', (h) => ({ ...h, mentions: h.mentions.slice(0, 10) }))), caught: ['SCN-P-119', /expected exactly 25, got 10/] },
  { id: 'PF-E06', section: 'entities', sentences: ['SPEC-V5-5.3.3'], method: 'merge_entities',
    fault: 'merge_entities leaves no SAME_AS link', variant: w(mapResponse('get_entity_graph', (g) => ({ ...g, edges: g.edges.filter((e: { type: string }) => e.type !== 'SAME_AS') }))), caught: ['SCN-P-105', /SAME_AS edge from source to target: no edge/] },
  { id: 'PF-E07', section: 'entities', sentences: ['SPEC-V5-5.3.3'], method: 'merge_entities',
    fault: 'the SAME_AS link points from the target to the source',
    variant: w(mapResponse('get_entity_graph', (g) => ({ ...g, edges: g.edges.map((e: { type: string; source: string; target: string }) => (e.type === 'SAME_AS' ? { ...e, source: e.target, target: e.source } : e)) }))), caught: ['SCN-P-105', /source and target swapped/] },
  { id: 'PF-E08', section: 'entities', sentences: ['SPEC-V5-5.3.4', 'SPEC-V3-get_entity_graph'], method: 'get_entity_graph',
    fault: 'get_entity_graph answers at most 25 nodes', variant: w(mapResponse('get_entity_graph', (g) => ({ ...g, nodes: g.nodes.slice(0, 25) }))), caught: ['SCN-P-118', /17 have no node with their name/] },
  { id: 'PF-E09', section: 'entities', sentences: ['SPEC-V5-5.3.4', 'SPEC-V3-get_entity_graph'], method: 'get_entity_graph',
    fault: 'get_entity_graph answers at most 25 edges', variant: w(mapResponse('get_entity_graph', (g) => ({ ...g, edges: g.edges.slice(0, 25) }))), caught: ['SCN-P-118', /after 30 add_relationship calls: the edges \(source, target, type\): 5 of 30 missing/] },
  { id: 'PF-E10', section: 'entities', sentences: ['SPEC-V3-delete_entity'], method: 'delete_entity',
    fault: 'delete_entity leaves its relationships (edges to a deleted entity)', variant: s(() => new DeleteKeepsEdges()), caught: ['SCN-P-117', /edges touching it \(its relationships are deleted with it\): edge WORKS_WITH/] },
  { id: 'PF-E11', section: 'entities', sentences: ['SPEC-V3-delete_entity'], method: 'delete_entity',
    fault: 'delete_entity removes every relationship of the graph, not only its own', variant: s(() => new DeleteDropsAllEdges()), caught: ['SCN-P-117', /the 7 relationships that did not touch the deleted entity: 7 of 7 missing/] },
  { id: 'PF-E12', section: 'entities', sentences: ['SPEC-V3-delete_entity', 'HOSTED-ENDPOINT-delete_entity'], method: 'delete_entity',
    fault: 'delete_entity hides the entity from list_entities and deletes nothing', variant: w(deleteEntityHidesOnly()), caught: ['SCN-P-117', /get_entity\(.*\) after delete_entity: expected an error \(400 or 500 \{"error"\}\) or null, got the deleted item itself/] },
  { id: 'PF-E13', section: 'entities', sentences: ['SPEC-V3-list_entities'], method: 'list_entities',
    fault: 'list_entities ignores the type filter', variant: w(mapRequest('list_entities', (b) => ({ ...b, type: undefined }))), caught: ['SCN-P-115', /every entity listed is a PERSON: "TCK Organization 00" .* has type "ORGANIZATION"/] },
  { id: 'PF-E14', section: 'entities', sentences: ['SPEC-V3-list_entities'], method: 'list_entities',
    fault: 'list_entities ignores limit', variant: w(mapRequest('list_entities', (b) => ({ ...b, limit: undefined }))), caught: ['SCN-P-115', /list_entities\(limit=7\) with 40 entities: expected 7 item\(s\), got 40/] },
  { id: 'PF-E15', section: 'entities', sentences: ['SPEC-V3-list_entities'], method: 'list_entities',
    fault: 'list_entities answers at most 20 entities whatever the limit', variant: w(mapResponse('list_entities', (l) => l.slice(0, 20))), caught: ['SCN-P-115', /list_entities\(limit=100\) after adding 40 entities: 20 of 40 missing/] },
  { id: 'PF-E16', section: 'entities', sentences: ['SPEC-V3-get_entity', 'HOSTED-ENDPOINT-get_entity'], method: 'get_entity',
    fault: 'get_entity answers the most recently added entity whatever the id', variant: s(() => new LatestEntity()), caught: ['SCN-P-116', /get_entity\(.*\) of "Quillon Vantress 00" among 12/] },
  { id: 'PF-E17', section: 'entities', sentences: ['SPEC-V3-update_entity', 'HOSTED-ENDPOINT-update_entity'], method: 'update_entity',
    fault: 'update_entity answers the entity as updated but stores nothing', variant: w(updateNotStored()), caught: ['SCN-P-116', /after update_entity\(name\): the stored entity/] },
  { id: 'PF-E18', section: 'entities', sentences: ['SPEC-V3-update_entity'], method: 'update_entity',
    fault: 'update_entity with only a name clears the description', variant: w(mapRequest('update_entity', (b) => ({ ...b, description: b.description ?? '' }))), caught: ['SCN-P-116', /the answer \(description kept\)/] },
  { id: 'PF-E19', section: 'entities', sentences: ['SPEC-V3-update_entity', 'SPEC-3.6.1'], method: 'update_entity',
    fault: 'after update_entity, get_entity_by_name finds the entity by its old name only (a stale name index)', variant: w(staleNameIndex()), caught: ['SCN-P-116', /get_entity_by_name\("Quillon Renamed"\) after update_entity renamed an entity to it: expected .*, got null/] },
  { id: 'PF-E20', section: 'entities', sentences: ['SPEC-V5-5.3.2'], method: 'get_entity_history',
    fault: 'get_entity_history strips the punctuation of a name before it looks for it (found by mutation testing: the regex escape of the name replaced by "")',
    variant: w(punctuationStripped()), caught: ['SCN-P-119', /get_entity_history\("Node\.js"\), a name with punctuation: the messages that name it: 4 of 4 missing/] },

  // Found by mutation testing of the hosted store's operations (part D of docs/mutation-triage.md).
  { id: 'PF-E21', section: 'entities', sentences: ['SPEC-V3-add_entity', 'BRIDGE-METHOD-add_entity'], method: 'add_entity',
    fault: 'add_entity of a name the messages already named fails (found by mutation testing: the claim of an extracted entity recursing)',
    variant: s(() => new AddOfExtractedNameFails()), caught: ['SCN-P-126', /add_entity/] },
  { id: 'PF-E22', section: 'entities', sentences: ['SPEC-V3-add_entity', 'BRIDGE-METHOD-add_entity'], method: 'add_entity',
    fault: 'add_entity of a name the messages already named drops the description (found by mutation testing: `input.description ?? null` as `&& null`)',
    variant: s(() => new AddOfExtractedNameDropsDescription()), caught: ['SCN-P-126', /add_entity\("Marguerite Okafor", PERSON\) after messages that name it/] },

  // 5.4: reasoning provenance (record_step, list_steps, explain_step, get_trace_by_conversation, get_entity_provenance)
  { id: 'PF-P01', section: 'provenance', sentences: ['SPEC-V5-5.4.1'], method: 'record_step',
    fault: 'record_step drops the result', variant: w(mapResponse('record_step', (b) => ({ ...b, result: null }))), caught: ['SCN-P-009', /echoes the step/] },
  { id: 'PF-P02', section: 'provenance', sentences: ['SPEC-V5-5.4.1'], method: 'record_step',
    fault: 'record_step keeps only the latest step of a conversation (a new step replaces the previous ones)', variant: s(() => new LatestStepOnly()), caught: ['SCN-P-120', /expected exactly 25, got 1: 24 missing/] },
  { id: 'PF-P03', section: 'provenance', sentences: ['SPEC-V5-5.4.1', 'SPEC-V3-list_steps'], method: 'list_steps',
    fault: 'list_steps answers at most 20 steps', variant: w(mapResponse('list_steps', (l) => l.slice(0, 20))), caught: ['SCN-P-120', /after 25 record_step calls under it .*: expected exactly 25, got 20/] },
  { id: 'PF-P04', section: 'provenance', sentences: ['SPEC-V5-5.4.3'], method: 'get_trace_by_conversation',
    fault: 'get_trace_by_conversation answers at most 10 steps', variant: w(mapResponse('get_trace_by_conversation', (t) => ({ ...t, steps: t.steps.slice(0, 10) }))), caught: ['SCN-P-120', /get_trace_by_conversation\(.*\): the steps: expected exactly 25, got 10/] },
  { id: 'PF-P05', section: 'provenance', sentences: ['SPEC-V5-5.4.3'], method: 'get_trace_by_conversation',
    fault: 'get_trace_by_conversation answers no tool calls', variant: w(mapResponse('get_trace_by_conversation', (t) => ({ ...t, tool_calls: [] }))), caught: ['SCN-P-121', /the tool calls of its steps: expected exactly 10, got 0/] },
  { id: 'PF-P06', section: 'provenance', sentences: ['SPEC-V5-5.4.3'], method: 'get_trace_by_conversation',
    fault: "get_trace_by_conversation answers the first step's tool calls only", variant: w(traceToolCallsOfFirstStep()), caught: ['SCN-P-121', /the tool calls of its steps: expected exactly 10, got 2/] },
  { id: 'PF-P07', section: 'provenance', sentences: ['SPEC-V5-5.4.3'], method: 'get_trace_by_conversation',
    fault: 'get_trace_by_conversation lists the steps of every conversation', variant: s(() => new TraceOfEveryone()), caught: ['SCN-P-120', /the steps: expected exactly 25, got 37: 12 not expected/] },
  { id: 'PF-P08', section: 'provenance', sentences: ['SPEC-V5-5.4.2'], method: 'explain_step',
    fault: 'explain_step answers no tool calls', variant: w(mapResponse('explain_step', (x) => ({ ...x, tool_calls: [] }))), caught: ['SCN-P-121', /explain_step\("why 0"\): the tool calls: expected exactly 2, got 0/] },
  { id: 'PF-P09', section: 'provenance', sentences: ['SPEC-V5-5.4.2'], method: 'explain_step',
    fault: "explain_step answers every tool call of the step's conversation, not the step's own", variant: w(explainWholeTrace()), caught: ['SCN-P-121', /explain_step\("why 0"\): the tool calls: expected exactly 2, got 10: 8 not expected/] },
  { id: 'PF-P10', section: 'provenance', sentences: ['SPEC-V5-5.4.2'], method: 'explain_step',
    fault: 'explain_step answers the tool calls with their arguments emptied',
    variant: w(mapResponse('explain_step', (x) => ({ ...x, tool_calls: x.tool_calls.map((c: object) => ({ ...c, arguments: {} })) }))), caught: ['SCN-P-121', /tool call lookup_0 as recorded/] },
  { id: 'PF-P11', section: 'provenance', sentences: ['SPEC-V5-5.4.2', 'SPEC-V5-5.4.3'], method: 'record_step',
    fault: 'a step made by record_step takes no tool call (record_tool_call refuses its id)', variant: w(toolCallsOnTraceStepsOnly()), caught: ['SCN-P-121', /record_tool_call: expected success, got 400/] },
  { id: 'PF-P12', section: 'provenance', sentences: ['SPEC-V5-5.4.4'], method: 'get_entity_provenance',
    fault: "get_entity_provenance answers its steps with the reasoning cut to 10 characters",
    variant: w(mapResponse('get_entity_provenance', (p) => ({ ...p, steps: p.steps.map((x: { reasoning: string }) => ({ ...x, reasoning: x.reasoning.slice(0, 10) })) }))), caught: ['SCN-P-107', /as it was recorded/] },
  { id: 'PF-P13', section: 'provenance', sentences: ['SPEC-V5-5.4.4'], method: 'get_entity_provenance',
    fault: 'get_entity_provenance lists a step that does not exist',
    variant: w(mapResponse('get_entity_provenance', (p) => ({
      ...p, steps: [...p.steps, { id: randomUUID(), conversation_id: 'nowhere', reasoning: '', action_taken: '', result: null, created_at: new Date().toISOString() }],
    }))), caught: ['SCN-P-107', /not a step of its conversation/] },

  // 5.5: the Cypher console
  { id: 'PF-Q01', section: 'cypher', sentences: ['SPEC-V5-5.5.1b'], method: 'cypher_query',
    fault: 'cypher_query runs CREATE and DETACH DELETE (answers them as executed)',
    variant: w(intercept((next, m, b) => (m === 'cypher_query' && /CREATE|DELETE/.test(b?.cypher ?? '') ? { status: 200, body: { columns: ['n'], rows: [] } } : next(m, b)))), caught: ['SCN-P-108', /CREATE/] },
  { id: 'PF-Q02', section: 'cypher', sentences: ['SPEC-V5-5.5.1b'], method: 'cypher_query',
    fault: 'cypher_query refuses upper-case writes only: create, merge, set, delete in lower case run', variant: w(lowerCaseWrites), caught: ['SCN-P-123', /with "match \(n\) where n.name = 'Set Theory' set n.name = 'tck-set' return n" \(write operations must be rejected, whatever their case\): expected 400 or 500/] },
  { id: 'PF-Q03', section: 'cypher', sentences: ['SPEC-V5-5.5.1b'], method: 'cypher_query',
    fault: 'cypher_query refuses CREATE and DELETE but runs SET, MERGE and REMOVE', variant: w(someWritesRun), caught: ['SCN-P-123', /\(write operations must be rejected, whatever their case\): expected 400 or 500 with \{"error": string\}, got 200/] },
  { id: 'PF-Q04', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query ignores LIMIT', variant: w(cypherRewritten((c) => c.replace(/\s+LIMIT\s+\d+\s*$/i, ''))), caught: ['SCN-P-122', /LIMIT 3"\) with 40 entities: rows: expected 3 item\(s\), got 40/] },
  { id: 'PF-Q05', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query ignores WHERE', variant: w(cypherRewritten((c) => c.replace(/\bWHERE\b[\s\S]*?(?=\bRETURN\b)/i, ''))), caught: ['SCN-P-122', /name "Cypher Item 17"\) among 40 entities/] },
  { id: 'PF-Q06', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: "cypher_query refuses a read query whose string values hold a write keyword ('Set Theory')", variant: w(literalsRefused), caught: ['SCN-P-123', /'Set Theory' RETURN count\(n\) AS c"\), a read whose value holds a write keyword, must run: rows \(it was refused: 400/] },
  { id: 'PF-Q07', section: 'cypher', sentences: ['SPEC-V5-5.5.1a', 'SPEC-V3-delete_entity'], method: 'cypher_query',
    fault: 'cypher_query still matches a deleted entity', variant: s(() => new CypherSeesDeleted()), caught: ['SCN-P-117', /name "Corvin Ashdale"\) after delete_entity: rows: expected \[\[0\]\], got \[\[1\]\]/] },
  { id: 'PF-Q08', section: 'cypher', sentences: ['SPEC-V5-5.5.1a', 'SPEC-V3-update_entity'], method: 'cypher_query',
    fault: 'cypher_query reads the name an entity had before update_entity', variant: s(() => new CypherSeesOldNames()), caught: ['SCN-P-116', /name = the new name\) after update_entity: expected 1, got 0/] },
  { id: 'PF-Q09', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query answers at most 25 rows (an unasked LIMIT)', variant: w(mapResponse('cypher_query', (r) => ({ ...r, rows: r.rows.slice(0, 25) }))), caught: ['SCN-P-122', /15 names have no row/] },
  { id: 'PF-Q10', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query ignores params', variant: w(mapRequest('cypher_query', (b) => ({ ...b, params: Object.fromEntries(Object.keys(b.params ?? {}).map((k) => [k, null])) }))), caught: ['SCN-P-109', /params/] },
  { id: 'PF-Q13', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query reads a number one digit at a time, so LIMIT 25 is refused (found by mutation testing: \\d+ as \\d in the tokenizer)',
    variant: w(cypherRefused(/\d{2,}/, 'cypher: unexpected "5"')),
    caught: ['SCN-P-122', /cypher_query: expected success, got 400/] },
  { id: 'PF-Q11', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'the write check skips single-quoted literals only: a read whose double-quoted value holds a write keyword is refused (found by mutation testing)',
    variant: w(writeCheckSkipping(/'[^']*'/g)), caught: ['SCN-P-123', /n\.name = \\"Set Theory\\" RETURN count\(n\) AS c"\), a read whose value holds a write keyword, must run: rows.*it was refused: 400/] },
  { id: 'PF-Q12', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'the write check ends a literal at an escaped quote: a read of \'Remove O\\\'Set\' is refused (found by mutation testing)',
    variant: w(writeCheckSkipping(/'[^']*'|"[^"]*"/g)), caught: ['SCN-P-123', /Remove O\\\\'Set' RETURN count\(n\) AS c"\), a read whose value holds a write keyword, must run: rows.*it was refused: 400/] },
  // Found by mutation testing of the console's parser and runQuery (the parts of the subset no scenario sent before SCN-P-124).
  { id: 'PF-Q14', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query refuses every relationship pattern (a console of nodes only)',
    variant: w(cypherRefused(/-\[/, 'cypher: relationship patterns are not supported')),
    caught: ['SCN-P-124', /cypher_query: expected success, got 400/] },
  { id: 'PF-Q15', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query reads (a)<-[r]-(b) as (a)-[r]-(b): an incoming pattern matches both directions',
    variant: w(cypherRewritten((c) => c.replace('<-[', '-['))),
    caught: ['SCN-P-124', /\(y\)<-\[r\]-\(x\) matches what \(x\)-\[r\]->\(y\) matches.*; got \(Ada Graphs\)<-\(Ada Graph\) 1, \(Ada Graph\)->\(Ada Graphs\) 1, \(Ada Graph\)<-\(Ada Graphs\) 1, \(Ada Graphs\)->\(Ada Graph\) 0/] },
  { id: 'PF-Q19', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query ignores the type of a relationship pattern, [r:KNOWS] matching every relationship',
    variant: w(cypherRewritten((c) => c.replace(/\[r:\w+\]/, '[r]'))),
    caught: ['SCN-P-124', /a relationship has one type: \[r:KNOWS\] plus \[r:USES\] from x to y count at most \[r\].*; got KNOWS 1, USES 1, all 1/] },
  { id: 'PF-Q20', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query matches every relationship pattern as outgoing, (a)<-[r]-(b) and (a)-[r]-(b) like (a)-[r]->(b)',
    variant: w(cypherRewritten((c) => c.replace('(a)<-[r]-(b)', '(a)-[r]->(b)').replace('(a)-[r]-(b)', '(a)-[r]->(b)'))),
    caught: ['SCN-P-124', /\(y\)<-\[r\]-\(x\) matches what \(x\)-\[r\]->\(y\) matches.*; got \(Ada Graphs\)<-\(Ada Graph\) 0, \(Ada Graph\)->\(Ada Graphs\) 1/] },
  { id: 'PF-Q21', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query matches an undirected relationship pattern in one direction only',
    variant: w(cypherRewritten((c) => c.replace('(a)-[r]-(b)', '(a)-[r]->(b)'))),
    caught: ['SCN-P-124', /\(x\)-\[r\]-\(y\) and \(y\)-\[r\]-\(x\) match the relationships of both directions between two distinct nodes.*; got \(Ada Graph\)-\(Ada Graphs\) 1, \(Ada Graphs\)-\(Ada Graph\) 0, \(Ada Graph\)->\(Ada Graphs\) 1, \(Ada Graphs\)->\(Ada Graph\) 0/] },
  { id: 'PF-Q22', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query matches an undirected relationship pattern as incoming only (found by mutation testing of runQuery)',
    variant: w(cypherRewritten((c) => c.replace('(a)-[r]-(b)', '(a)<-[r]-(b)'))),
    caught: ['SCN-P-124', /\(x\)-\[r\]-\(y\) and \(y\)-\[r\]-\(x\) match the relationships of both directions.*; got \(Ada Graph\)-\(Ada Graphs\) 0, \(Ada Graphs\)-\(Ada Graph\) 1/] },
  { id: 'PF-Q16', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query keeps the first equality of a WHERE … AND … and drops the rest',
    variant: w(cypherRewritten((c) => c.replace(/ AND n\.name = \$b/, ''))),
    caught: ['SCN-P-124', /WHERE n\.name = \$a AND n\.name = \$b counts the node named both.*; got same 1, different 1/] },
  { id: 'PF-Q17', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query refuses a label in a node pattern, (n:Person)',
    variant: w(cypherRefused(/\(\w+:\w+\)/, 'cypher: labels are not supported')),
    caught: ['SCN-P-124', /cypher_query: expected success, got 400/] },
  { id: 'PF-Q18', section: 'cypher', sentences: ['SPEC-V5-5.5.1a'], method: 'cypher_query',
    fault: 'cypher_query counts count(*) over nodes and relationships together',
    variant: s(() => new CountStarAddsEdges()),
    caught: ['SCN-P-124', /count\(\*\) counts the rows count\(n\) counts.*; got count\(\*\) 15, count\(n\) 8/] },
];
