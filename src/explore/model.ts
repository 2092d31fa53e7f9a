// The model explore checks a server against: the embedded reference store, driven in-process
// (it generates the references of a sequence and knows the state every write must leave), plus
// what explore learns about the server while a sequence runs and what the protocol leaves open.
// The oracle (oracle.ts) asks the model for the expected state and checks only the rules of
// rules.ts against it; it never demands that an answer equal the model's.
import { MemoryStore, type BridgeResponse } from '../servers/bridge/index.js';
import { BadRequestError, type StoreSnapshot } from '../servers/bridge/store.js';
import { respond } from '../servers/bridge/request.js';
import { HostedStore } from '../servers/hosted/store.js';
import { isMethodName } from '../protocols/bridge/index.js';
import { Violation } from './rules.js';

/** The kinds of object a command can refer to, and where the model keeps them. */
export type RefKind = 'message' | 'entity' | 'anyEntity' | 'trace' | 'step' | 'conversation' | 'anyConversation' | 'agentStep' | 'anyStep';

/**
 * Server id <-> model id, learned when an object is created (silent point 'uuid-version': ids are
 * correlated, never compared). Keys are lower-cased: a server may answer ids in upper-case hex.
 */
class Correlator {
  readonly #toModel = new Map<string, string>();
  readonly #toServer = new Map<string, string>();

  bind(serverId: string, modelId: string, what: string): void {
    const key = serverId.toLowerCase();
    const known = this.#toModel.get(key);
    if (known !== undefined && known !== modelId) {
      throw new Violation('ids.fresh', `${what}: the server handed out id ${serverId} again; it already names another object created earlier in this sequence`);
    }
    this.#toModel.set(key, modelId);
    this.#toServer.set(modelId, serverId);
  }

  toModel(serverId: string): string | undefined {
    return this.#toModel.get(serverId.toLowerCase());
  }

  toServer(modelId: string): string | undefined {
    return this.#toServer.get(modelId);
  }
}

/** A session's conversation as the server showed it, while the session has messages (an epoch). */
interface ConversationSeen {
  id?: string;
  createdAt?: string;
}

/** A Platinum conversation as created (server ids throughout: the model store does not hold them). */
interface PlatinumConversation {
  id: string;
  userId: string;
  createdAt: string | undefined;
  deleted: boolean;
  messages: string[];
  steps: string[];
}

interface PlatinumMessage {
  conversation: string;
  role: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface PlatinumToolCall {
  id: string;
  tool_name: string;
  arguments: unknown;
  result: unknown;
  status: string;
  duration_ms: number | null;
  error: string | null;
}

interface PlatinumStep {
  conversation: string;
  reasoning: string;
  action_taken: string;
  result: string | null;
  calls: PlatinumToolCall[];
}

/** What the Platinum methods created: kept apart from the bridge's sessions and traces (how the two views meet is open). */
class PlatinumState {
  conversations = new Map<string, PlatinumConversation>();
  messages = new Map<string, PlatinumMessage>();
  steps = new Map<string, PlatinumStep>();
  /** The session_id create_conversation answered for each conversation (silent point conversation-session-id: its own or the id). */
  sessions = new Set<string>();
  /** The workspace_id of the caller's conversations, once one was created. */
  workspace: string | undefined;
  /** SAME_AS links merge_entities must leave (model ids of source and target). */
  links: { source: string; target: string; sourceServer: string; targetServer: string }[] = [];
  /** Entities delete_entity deleted (model ids, in the order deleted): a read may name them again. */
  deletedEntityIds: string[] = [];
}

/** The stores' records, as far as the view below reads them. */
interface Recs {
  sessions: Map<string, { session_id: string; conversation_id: string; created_ms: number; updated_ms: number; messages: { message: StoreSnapshot['sessions'][number]['messages'][number] }[] }>;
  entities: Map<string, { entity: StoreSnapshot['entities'][number]; aliases: string[] }>;
  preferences: { preference: StoreSnapshot['preferences'][number] }[];
  facts: StoreSnapshot['facts'];
  traces: Map<string, { trace: StoreSnapshot['traces'][number] }>;
  steps: Map<string, unknown>;
  relationships: StoreSnapshot['relationships'];
}

/**
 * The model follows a choice the server made where the documents leave it open: the traces of a
 * cleared session removed with it (silent point clear-session-traces), an entity add_entity made
 * that the server answered with one it had (add-entity-existing).
 */
function forgetTraces(r: Recs, sessionId: string): void {
  for (const [id, t] of [...r.traces]) {
    if (t.trace.session_id !== sessionId) continue;
    for (const st of t.trace.steps) r.steps.delete(st.id);
    r.traces.delete(id);
  }
}

/**
 * The store's data as a snapshot without copying it (the store's own snapshot() copies all of it,
 * which at every write cost explore more than the call itself). Lists are new arrays, so a later
 * write does not change a view taken before it; the objects in them are the store's own and are
 * only read. A trace's steps are a new array too (add_step pushes onto the stored one).
 */
function viewOf(r: Recs): StoreSnapshot {
  return {
    sessions: [...r.sessions.values()].map((s) => ({
      session_id: s.session_id, conversation_id: s.conversation_id,
      created_at: '', updated_at: '',
      messages: s.messages.map((m) => m.message),
    })),
    entities: [...r.entities.values()].map((e) => ({ ...e.entity, aliases: [...e.aliases] })),
    preferences: r.preferences.map((p) => p.preference),
    facts: [...r.facts],
    traces: [...r.traces.values()].map((t) => ({ ...t.trace, steps: t.trace.steps.map((st) => ({ ...st, tool_calls: [...st.tool_calls] })) })),
    relationships: r.relationships.map((x) => ({ ...x })),
  };
}

class ModelStore extends MemoryStore {
  view(): StoreSnapshot {
    return viewOf(this as unknown as Recs);
  }
}

class HostedModelStore extends HostedStore {
  view(): StoreSnapshot {
    return viewOf(this as unknown as Recs);
  }
}

/** How many recently named objects the model remembers. */
const RECENT_KEPT = 16;

export class ExploreModel {
  /** HostedStore when Platinum methods are drawn (it implements their entity operations). */
  readonly store: ModelStore | HostedModelStore;
  readonly ids = new Correlator();
  /** The server's step_number of each step (by model step id), for 'step-base'. */
  readonly stepNumbers = new Map<string, number>();
  /** Every message id ever created (delete_message may name a deleted one: {deleted: false}). */
  readonly everyMessage: string[] = [];
  /** The timestamp the server gave each message when it was added (model message id). */
  readonly messageTimes = new Map<string, string>();
  /** Session ids the sequence named since the last clear_all_data (a session without messages may be listed). */
  readonly named = new Set<string>();
  /** Per session: its conversation as seen while it has had messages without interruption. */
  readonly conversations = new Map<string, ConversationSeen>();
  /** Entities whose description a merge made open ('merge-description'), by model id. */
  readonly descriptionOpen = new Set<string>();
  /** canonical_name values a merge set explicitly, by model id (otherwise it is open: 'canonical-name'). */
  readonly canonical = new Map<string, string>();
  /** Names an entity had before update_entity renamed it: a lookup may still find it, or not. */
  readonly formerNames = new Map<string, Set<string>>();
  /** Entities merge_entities touched (model ids): whether the source stays and where relationships go is open. */
  readonly fuzzy = new Set<string>();
  /** Server ids (lower case) of entities merge_entities merged away: they may still show. */
  readonly fuzzyServer = new Set<string>();
  /** Server ids (lower case) of entities any merge merged away: the entity graph may show them as merged nodes. */
  readonly mergedAway = new Set<string>();
  /** The content of every bridge message ever added (model id), for the mentions of get_entity_history. */
  readonly messageText = new Map<string, string>();
  /** Entities deleted by delete_entity (server ids): no read may show them again. */
  readonly deletedEntities = new Set<string>();
  /**
   * The server may have extracted entities from message content (hosted document; silent point
   * entity-extraction): bulk_add_messages ran, or, on a target with the Platinum methods, add_message.
   */
  foreignEntities = false;
  /** The target answers the Platinum methods (a hosted service). */
  readonly hosted: boolean;
  readonly platinum = new PlatinumState();
  /** Model ids of the objects the latest calls named or created, the latest last (at most RECENT_KEPT). */
  readonly recent: string[] = [];
  #snap: StoreSnapshot | undefined;

  constructor(platinum = false) {
    this.hosted = platinum;
    this.store = platinum ? new HostedModelStore() : new ModelStore();
  }

  /** The model's data now (cached until the next call changes it). */
  snapshot(): StoreSnapshot {
    return (this.#snap ??= this.store.view());
  }

  /** A write on the model: its data changes (the parameters are valid: explore drew them from the method table). */
  call(method: string, body: Record<string, unknown>): BridgeResponse {
    this.#snap = undefined;
    return this.read(method, body);
  }

  /**
   * A call of the store's method itself, as its dispatcher would answer it, without the
   * dispatcher's validation of the parameters (explore drew them from the method table).
   */
  read(method: string, body: Record<string, unknown>): BridgeResponse {
    const handler = (this.store as unknown as Record<string, unknown>)[method];
    if (!isMethodName(method) || typeof handler !== 'function') return { status: 501, body: { error: `not implemented: ${method}` } };
    try {
      return respond(method, (handler as (p: unknown) => unknown).call(this.store, body));
    } catch (err) {
      return { status: err instanceof BadRequestError ? 400 : 500, body: { error: err instanceof Error ? err.message : String(err) } };
    }
  }

  /** The server removed a cleared session's traces (clear-session-traces): so does the model. */
  forgetTraces(sessionId: string): void {
    this.#snap = undefined;
    forgetTraces(this.store as unknown as Recs, sessionId);
  }

  /** The server answered add_entity with an entity it had (add-entity-existing): the model's new one goes. */
  forgetEntity(modelId: string): void {
    this.#snap = undefined;
    (this.store as unknown as Recs).entities.delete(modelId);
  }

  /** Whether the trace (model id) is completed. */
  completed(traceId: string): boolean {
    return this.snapshot().traces.find((t) => t.id === traceId)?.completed_at != null;
  }

  /** Live objects of a kind, in creation order; messages: every one ever created. */
  pool(kind: RefKind): string[] {
    const s = this.snapshot();
    const p = this.platinum;
    switch (kind) {
      case 'message':
        return this.everyMessage;
      case 'entity':
        return s.entities.filter((e) => this.ids.toServer(e.id) !== undefined).map((e) => e.id);
      case 'anyEntity':
        return [...this.pool('entity'), ...p.deletedEntityIds];
      case 'trace':
        return s.traces.map((t) => t.id);
      case 'step':
        return s.traces.flatMap((t) => t.steps.map((st) => st.id));
      case 'conversation':
        return [...p.conversations.values()].filter((c) => !c.deleted).map((c) => c.id);
      case 'anyConversation':
        return [...p.conversations.keys()];
      case 'agentStep':
        return [...p.steps.keys()];
      case 'anyStep':
        return [...s.traces.flatMap((t) => t.steps.map((st) => st.id)), ...p.steps.keys()];
    }
  }

  /** The objects a call named or created become the most recent. */
  touched(ids: readonly string[]): void {
    for (const id of ids) {
      const at = this.recent.indexOf(id);
      if (at >= 0) this.recent.splice(at, 1);
      this.recent.push(id);
    }
    if (this.recent.length > RECENT_KEPT) this.recent.splice(0, this.recent.length - RECENT_KEPT);
  }

  /** The server id of a model id (Platinum objects are known by their server ids only). */
  serverId(id: string): string {
    return this.ids.toServer(id) ?? id;
  }

  /** Forget everything (clear_all_data answered 204). */
  cleared(): void {
    this.named.clear();
    this.conversations.clear();
    this.descriptionOpen.clear();
    this.canonical.clear();
    this.formerNames.clear();
    this.fuzzy.clear();
    this.fuzzyServer.clear();
    this.mergedAway.clear();
    this.deletedEntities.clear();
    this.foreignEntities = false;
    Object.assign(this.platinum, new PlatinumState());
  }
}
