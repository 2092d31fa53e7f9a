// `tck serve` in front of a hosted service: a bridge Dispatcher that answers each bridge method by
// calling the hosted REST interface (MEMORY_ENDPOINT, Bearer MEMORY_API_KEY) instead of an
// in-memory store, so startBridgeServer can serve it and the bridge suites can test the service.
//
// - Names: the bridge's snake_case parameters become the REST camelCase fields and back; only the
//   fields of the bridge data model are passed back (user data such as metadata is never renamed).
// - Sessions are conversations: a session_id is the conversation id in the REST paths (as the
//   established clients do); the bridge Conversation's UUID `id` is the session id when that is a
//   UUID, else a name-based UUID of it (stable across calls).
// - Parameters are validated as the reference does (400 naming the parameter) before any call.
// - A method with no REST counterpart answers 501 {"error": "<method> has no hosted REST
//   counterpart"}, which the kit reports as not implemented.
// - Upstream answers: 2xx is mapped; 400/404/422 mean the request named something wrong or
//   missing and become a bridge 400 (a 404 where the bridge has a non-error answer, e.g. an
//   unknown session's empty conversation, becomes that answer); anything else (401, 403, 5xx, a
//   body that is not JSON or not of the expected shape, no answer at all) is an upstream failure:
//   502 with the upstream status and body in the error.
import { STATUS_CODES } from 'node:http';
import type { MethodName } from '../../protocols/bridge/index.js';
import { checkRequest, errorResponse, respond, type BridgeResponse, type Dispatcher } from '../bridge/request.js';
import { PROTOCOL_VERSION } from '../../protocols/bridge/version.js';
import { DEFAULT_LIMITS } from '../../util/limits.js';
import { normalizeEndpoint } from '../../protocols/hosted/endpoint.js';
import { uuidV5 } from '../name-uuid.js';
import { isJsonObject as isObject } from '../../util/json.js';
import { bridgeEntityType, hostedEntityType } from '../../protocols/hosted/entity-type.js';

interface ForwarderOptions {
  /** The hosted REST base URL, e.g. https://memory.example.com/v1 (an origin alone gets /v1). */
  endpoint: string;
  /** Sent as `Authorization: Bearer <apiKey>` (an API key or an access token). */
  apiKey?: string;
  /** Bound on each upstream request in milliseconds (default 10000). */
  timeoutMs?: number;
}

/**
 * Bridge method -> the hosted REST calls that answer it, or null when there is no counterpart.
 * The table of docs/hosted.md ("`tck serve` in front of a hosted service") is this table.
 */
export const FORWARD_ROUTES: Readonly<Record<MethodName, string | null>> = {
  setup: 'GET /conversations?limit=1 (a reachability and credential check)',
  teardown: '— (answered by the forwarder)',
  clear_all_data: 'GET /conversations, DELETE /conversations/{id} each; GET /entities, DELETE /entities/{id} each',
  add_message: 'POST /conversations/{session_id}/messages',
  get_conversation: 'GET /conversations/{session_id}/messages?limit=',
  search_messages: 'POST /conversations/{session_id}/search (no session_id: each conversation of GET /conversations)',
  list_sessions: 'GET /conversations?limit=',
  delete_message: null,
  clear_session: 'DELETE /conversations/{session_id}',
  add_entity: 'POST /entities',
  add_preference: null,
  add_fact: null,
  search_entities: 'POST /entities/search',
  search_preferences: null,
  get_entity_by_name: 'GET /entities (exact name, else canonicalName, else a merged name)',
  get_related_entities: 'GET /entities/{entity_id}, GET /entities/graph',
  start_trace: null,
  add_step: null,
  record_tool_call: 'POST /reasoning/tool-calls',
  complete_trace: null,
  get_trace_with_steps: null,
  list_traces: null,
  get_tool_stats: null,
  add_relationship: null,
  merge_duplicate_entities: 'POST /entities/{source_id}/merge',
  get_similar_traces: null,
  // Platinum: each is one hosted operation.
  create_conversation: 'POST /conversations',
  list_conversations: 'GET /conversations?limit=',
  get_conversation_metadata: 'GET /conversations/{conversation_id}',
  delete_conversation: 'DELETE /conversations/{conversation_id}',
  get_context: 'GET /conversations/{conversation_id}/context',
  bulk_add_messages: 'POST /conversations/{conversation_id}/messages/bulk',
  get_observations: 'GET /conversations/{conversation_id}/observations?limit=',
  get_reflections: 'GET /conversations/{conversation_id}/reflections',
  list_entities: 'GET /entities?type=&limit=',
  get_entity: 'GET /entities/{entity_id}',
  update_entity: 'PUT /entities/{entity_id} (then GET /entities/{entity_id} when the answer is not the entity)',
  delete_entity: 'DELETE /entities/{entity_id}',
  set_entity_feedback: 'PUT /entities/{entity_id}/feedback',
  get_entity_history: 'GET /entities/{entity_id}/history',
  merge_entities: 'POST /entities/{source_id}/merge',
  get_entity_graph: 'GET /entities/graph',
  record_step: 'POST /reasoning/steps',
  list_steps: 'GET /reasoning/steps?conversation_id=',
  explain_step: 'GET /reasoning/explain/{step_id}',
  get_trace_by_conversation: 'GET /reasoning/trace/{conversation_id}',
  get_entity_provenance: 'GET /reasoning/provenance/{entity_id}',
  cypher_query: 'POST /query',
};

/** A failed upstream exchange, its message fully formed; `status` is the upstream's, if one came. */
class UpstreamFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** A bridge-level refusal raised by a handler (400 naming the parameter). */
class Refused extends Error {}

type Json = Record<string, unknown>;
type Query = Record<string, string | number | null | undefined>;

const SNIPPET = 500;
const snippet = (text: string) => (text.length <= SNIPPET ? text : `${text.slice(0, SNIPPET)}…`);
const statusLine = (status: number) => `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const seg = (value: string) => encodeURIComponent(value);

/** Namespace of the name-based conversation ids (a fixed UUID of this kit). */
const CONVERSATION_NAMESPACE = '3f1c6a52-e8b9-4a0d-9d1e-2b7c5a4f8e60';

/** The bridge Conversation id of a session: the session id when it is a UUID, else a v5 UUID of it. */
function conversationIdOf(sessionId: string): string {
  if (UUID.test(sessionId)) return sessionId.toLowerCase();
  return uuidV5(CONVERSATION_NAMESPACE, sessionId);
}

// ---------------------------------------------------------------- REST -> bridge

function need(value: unknown, what: string): Json {
  if (!isObject(value)) throw new UpstreamFailure(`upstream answered ${what} that is not a JSON object: ${snippet(JSON.stringify(value) ?? '(empty)')}`);
  return value;
}

/** A list answered bare or wrapped in {field: […]}. */
function listOf(body: unknown, field: string, what: string): Json[] {
  const list = Array.isArray(body) ? body : isObject(body) ? body[field] : undefined;
  if (!Array.isArray(list)) throw new UpstreamFailure(`upstream answered ${what} without a ${field} array: ${snippet(JSON.stringify(body) ?? '(empty)')}`);
  return list.map((item) => need(item, `an item of ${field}`));
}

const orNull = (v: unknown) => (v === undefined ? null : v);

function toMessage(m: Json) {
  return { id: m.id, role: m.role, content: m.content, timestamp: m.timestamp ?? m.createdAt, embedding: orNull(m.embedding), metadata: m.metadata ?? {} };
}

/**
 * Hosted types are free-form and lower-case: one that names a bridge type (or a synonym) is that
 * type; any other is OBJECT with the hosted type kept as its subtype.
 */
function toEntity(e: Json) {
  const hosted = e.type ?? e.entityType;
  const type = typeof hosted === 'string' ? bridgeEntityType(hosted) : hosted;
  const freeForm = typeof hosted === 'string' && type === 'OBJECT' && hostedEntityType(hosted) !== 'object' ? hostedEntityType(hosted) : undefined;
  return {
    id: e.id, name: e.name, type, subtype: orNull(e.subtype ?? freeForm), description: orNull(e.description),
    embedding: orNull(e.embedding), canonical_name: orNull(e.canonicalName), created_at: e.createdAt,
  };
}

function toToolCall(c: Json) {
  return {
    id: c.id, tool_name: c.toolName, arguments: c.arguments ?? {}, result: orNull(c.result), status: c.status,
    duration_ms: orNull(c.durationMs), error: orNull(c.error), ...(c.stepId !== undefined ? { step_id: c.stepId } : {}),
  };
}

function toPlatinumConversation(c: Json) {
  return {
    id: c.id, session_id: c.id, messages: [], title: orNull(c.title), created_at: c.createdAt, updated_at: orNull(c.updatedAt),
    user_id: orNull(c.userId), workspace_id: orNull(c.workspaceId), metadata: c.metadata ?? {},
  };
}

function toObservation(o: Json, conversationId: string) {
  return { id: o.id, conversation_id: o.conversationId ?? conversationId, content: o.content, window_start: orNull(o.windowStart), window_end: orNull(o.windowEnd), created_at: o.createdAt };
}

function toReflection(r: Json, conversationId: string) {
  return { id: r.id, conversation_id: r.conversationId ?? conversationId, content: r.content, created_at: r.createdAt };
}

function toStep(s: Json) {
  return { id: s.id, conversation_id: s.conversationId, reasoning: s.reasoning ?? '', action_taken: s.actionTaken ?? '', result: orNull(s.result), created_at: s.createdAt };
}

/** Null parameters are left out of REST bodies (request rule 4 of the bridge, kept upstream). */
function compact(body: Json): Json {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined && v !== null));
}

// ---------------------------------------------------------------- the forwarder

export function createForwarder(options: ForwarderOptions): Dispatcher {
  const base = normalizeEndpoint(options.endpoint);
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey !== undefined && options.apiKey !== '') headers.authorization = `Bearer ${options.apiKey}`;

  /** One upstream exchange: the status and the parsed JSON body (undefined when empty). */
  async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: { query?: Query; body?: Json } = {}) {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== null) search.set(k, String(v));
    const qs = search.toString();
    const what = `${method} ${new URL(base).pathname.replace(/\/$/, '')}${path}${qs ? `?${qs}` : ''}`;
    let res: Response;
    try {
      res = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
        method,
        headers: opts.body !== undefined ? { ...headers, 'content-type': 'application/json' } : headers,
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : cause?.code ?? cause?.message ?? (err as Error).message;
      throw new UpstreamFailure(`upstream ${what} failed: ${reason}`);
    }
    const text = await res.text();
    if (res.status < 200 || res.status > 299) {
      throw new UpstreamFailure(`upstream ${what} answered ${statusLine(res.status)}${text ? `: ${snippet(text)}` : ''}`, res.status);
    }
    if (text.trim() === '') return { status: res.status, body: undefined as unknown };
    try {
      return { status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new UpstreamFailure(`upstream ${what} answered ${statusLine(res.status)} with a body that is not JSON: ${snippet(text)}`);
    }
  }

  /** Like call, but a 404 resolves to undefined (the resource does not exist). */
  async function callOrMissing(method: 'GET' | 'POST' | 'DELETE', path: string, opts: { query?: Query; body?: Json } = {}) {
    try {
      return await call(method, path, opts);
    } catch (err) {
      if (err instanceof UpstreamFailure && err.status === 404) return undefined;
      throw err;
    }
  }

  async function conversations(limit?: number | null): Promise<Json[]> {
    return listOf((await call('GET', '/conversations', { query: { limit } })).body, 'conversations', 'the conversation list');
  }

  async function entities(): Promise<Json[]> {
    return listOf((await call('GET', '/entities')).body, 'entities', 'the entity list');
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- params are validated against METHODS[m].params before a handler runs
  type Handler = (p: any) => Promise<unknown>;
  const handlers: Partial<Record<MethodName, Handler>> = {
    setup: async () => {
      await call('GET', '/conversations', { query: { limit: 1 } });
      return { ok: true, protocol_version: PROTOCOL_VERSION };
    },
    teardown: async () => undefined,
    // The hosted interface has no global clear: every conversation and entity the credential can
    // see is deleted (reasoning steps cannot be deleted over REST and stay).
    // A service that pages its lists is listed again until nothing is left (or nothing goes).
    clear_all_data: async () => {
      for (const [list, path] of [[conversations, '/conversations'], [entities, '/entities']] as const) {
        for (let round = 0, left = await list(); left.length > 0 && round < 100; round++) {
          for (const item of left) await callOrMissing('DELETE', `${path}/${seg(String(item.id))}`);
          const next = await list();
          if (next.length >= left.length && next.every((n) => left.some((l) => l.id === n.id))) break;
          left = next;
        }
      }
    },

    add_message: async (p) =>
      toMessage(need((await call('POST', `/conversations/${seg(p.session_id)}/messages`, { body: compact({ role: p.role, content: p.content, metadata: p.metadata }) })).body, 'a message')),
    get_conversation: async (p) => {
      const got = await callOrMissing('GET', `/conversations/${seg(p.session_id)}/messages`, { query: { limit: p.limit } });
      const meta = got !== undefined && isObject(got.body) ? got.body : {};
      let messages = got === undefined ? [] : listOf(got.body, 'messages', 'the conversation').map(toMessage);
      // The bridge leaves which messages a limit keeps open; an upstream that ignores it is cut here.
      if (p.limit != null && messages.length > p.limit) messages = p.limit === 0 ? [] : messages.slice(-p.limit);
      return {
        id: conversationIdOf(p.session_id),
        session_id: p.session_id,
        messages,
        title: orNull(meta.title),
        created_at: meta.createdAt ?? new Date().toISOString(),
        updated_at: orNull(meta.updatedAt),
      };
    },
    search_messages: async (p) => {
      const body = compact({ query: p.query, limit: p.limit, threshold: p.threshold });
      const ids = p.session_id != null ? [p.session_id as string] : (await conversations()).map((c) => String(c.id));
      const hits: Json[] = [];
      for (const id of ids) {
        const got = await callOrMissing('POST', `/conversations/${seg(id)}/search`, { body });
        if (got !== undefined) hits.push(...listOf(got.body, 'messages', 'the search result'));
      }
      // Across conversations, by score when the service gives one (stable: ties keep their order).
      if (ids.length > 1 && hits.every((h) => typeof h.score === 'number')) hits.sort((a, b) => (b.score as number) - (a.score as number));
      return (p.limit != null ? hits.slice(0, p.limit) : hits).map(toMessage);
    },
    list_sessions: async (p) => {
      const out = [];
      for (const c of await conversations(p.limit)) {
        let count = c.messageCount;
        if (typeof count !== 'number') {
          const got = await callOrMissing('GET', `/conversations/${seg(String(c.id))}/messages`);
          count = got === undefined ? 0 : listOf(got.body, 'messages', 'the conversation').length;
        }
        out.push({ session_id: c.id, message_count: count, created_at: c.createdAt, updated_at: orNull(c.updatedAt) });
      }
      return p.limit != null ? out.slice(0, p.limit) : out;
    },
    clear_session: async (p) => {
      await callOrMissing('DELETE', `/conversations/${seg(p.session_id)}`);
    },

    add_entity: async (p) =>
      toEntity(need((await call('POST', '/entities', { body: compact({ name: p.name, entityType: p.entity_type, description: p.description }) })).body, 'an entity')),
    search_entities: async (p) =>
      listOf((await call('POST', '/entities/search', { body: compact({ query: p.query, limit: p.limit }) })).body, 'entities', 'the search result').map(toEntity),
    get_entity_by_name: async (p) => {
      const all = await entities();
      const hit = all.find((e) => e.name === p.name) ?? all.find((e) => e.canonicalName === p.name) ??
        all.find((e) => Array.isArray(e.aliases) && e.aliases.includes(p.name));
      return hit === undefined ? null : toEntity(hit);
    },
    // Both directions, breadth-first, up to depth (default 1), as the reference reads "related".
    get_related_entities: async (p) => {
      if ((await callOrMissing('GET', `/entities/${seg(p.entity_id)}`)) === undefined) throw new Refused(`entity_id: no entity with id ${JSON.stringify(p.entity_id)}`);
      const graph = need((await call('GET', '/entities/graph')).body, 'the entity graph');
      const nodes = new Map(listOf(graph, 'nodes', 'the entity graph').map((n) => [String(n.id), n]));
      const edges = listOf(graph, 'edges', 'the entity graph')
        .filter((e) => p.relationship_type == null || (e.relationshipType ?? e.type) === p.relationship_type);
      const seen = new Set<string>([p.entity_id]);
      const out: Json[] = [];
      let frontier = new Set<string>([p.entity_id]);
      for (let level = 0; level < (p.depth ?? 1) && frontier.size > 0; level++) {
        const next = new Set<string>();
        for (const e of edges) {
          for (const [from, to] of [[String(e.sourceId), String(e.targetId)], [String(e.targetId), String(e.sourceId)]] as const) {
            if (frontier.has(from) && !seen.has(to)) {
              seen.add(to);
              next.add(to);
              const n = nodes.get(to);
              if (n !== undefined) out.push(toEntity(n));
            }
          }
        }
        frontier = next;
      }
      return out;
    },
    // The merge answers {sourceId, targetId, status} (SPEC-5.3.3), with the merged entity as `entity`
    // when the service gives it, else read from GET /entities/{targetId}; an entity answered
    // directly (with an id) is taken as it is.
    merge_duplicate_entities: async (p) => {
      const merged = need((await call('POST', `/entities/${seg(p.source_id)}/merge`, { body: compact({ targetId: p.target_id, canonicalName: p.canonical_name }) })).body, 'a merge result');
      if (isObject(merged.entity)) return toEntity(merged.entity);
      if (merged.id !== undefined) return toEntity(merged);
      return toEntity(need((await call('GET', `/entities/${seg(String(merged.targetId ?? p.target_id))}`)).body, 'an entity'));
    },

    // ---------------------------------------------------------------- Platinum
    create_conversation: async (p) =>
      toPlatinumConversation(need((await call('POST', '/conversations', { body: compact({ userId: p.user_id, metadata: p.metadata }) })).body, 'a conversation')),
    list_conversations: async (p) => (await conversations(p.limit)).map(toPlatinumConversation),
    get_conversation_metadata: async (p) =>
      toPlatinumConversation(need((await call('GET', `/conversations/${seg(p.conversation_id)}`)).body, 'a conversation')),
    delete_conversation: async (p) => {
      await callOrMissing('DELETE', `/conversations/${seg(p.conversation_id)}`);
    },
    get_context: async (p) => {
      const c = need((await call('GET', `/conversations/${seg(p.conversation_id)}/context`)).body, 'a context');
      const list = (field: string) => (Array.isArray(c[field]) ? (c[field] as unknown[]).map((x) => need(x, `an item of ${field}`)) : []);
      return {
        reflections: list('reflections').map((r) => toReflection(r, p.conversation_id)),
        observations: list('observations').map((o) => toObservation(o, p.conversation_id)),
        recent_messages: list('recentMessages').map(toMessage),
      };
    },
    bulk_add_messages: async (p) =>
      listOf((await call('POST', `/conversations/${seg(p.conversation_id)}/messages/bulk`, {
        body: { messages: (p.messages as Json[]).map((m) => compact({ role: m.role, content: m.content, metadata: m.metadata })) },
      })).body, 'messages', 'the bulk answer').map(toMessage),
    get_observations: async (p) =>
      listOf((await call('GET', `/conversations/${seg(p.conversation_id)}/observations`, { query: { limit: p.limit } })).body, 'observations', 'the observations')
        .map((o) => toObservation(o, p.conversation_id)),
    get_reflections: async (p) =>
      listOf((await call('GET', `/conversations/${seg(p.conversation_id)}/reflections`)).body, 'reflections', 'the reflections').map((r) => toReflection(r, p.conversation_id)),
    list_entities: async (p) =>
      listOf((await call('GET', '/entities', { query: { type: p.type == null ? undefined : String(p.type).toLowerCase(), limit: p.limit } })).body, 'entities', 'the entity list').map(toEntity),
    get_entity: async (p) => toEntity(need((await call('GET', `/entities/${seg(p.entity_id)}`)).body, 'an entity')),
    update_entity: async (p) => {
      const got = (await call('PUT', `/entities/${seg(p.entity_id)}`, { body: compact({ name: p.name, description: p.description }) })).body;
      // The live service answers {status: "updated"}; the entity is then read back (as the clients do).
      const entity = isObject(got) && got.id !== undefined ? got : need((await call('GET', `/entities/${seg(p.entity_id)}`)).body, 'an entity');
      return toEntity(entity);
    },
    delete_entity: async (p) => {
      await callOrMissing('DELETE', `/entities/${seg(p.entity_id)}`);
    },
    set_entity_feedback: async (p) => {
      const r = need((await call('PUT', `/entities/${seg(p.entity_id)}/feedback`, { body: compact({ userScore: p.user_score, confirmed: p.confirmed ?? false }) })).body, 'a feedback answer');
      return { id: r.id, updated: r.updated };
    },
    get_entity_history: async (p) => {
      const h = need((await call('GET', `/entities/${seg(p.entity_id)}/history`)).body, 'a history');
      const mentions = Array.isArray(h.mentions) ? h.mentions.map((m) => need(m, 'a mention')) : [];
      return {
        entity_id: h.entityId ?? p.entity_id,
        mentions: mentions.map((m) => ({ conversation_id: m.conversationId, message_id: orNull(m.messageId), content: m.content ?? '', timestamp: m.timestamp })),
      };
    },
    merge_entities: async (p) => {
      const r = need((await call('POST', `/entities/${seg(p.source_id)}/merge`, { body: { targetId: p.target_id } })).body, 'a merge answer');
      return { source_id: r.sourceId, target_id: r.targetId, status: r.status };
    },
    get_entity_graph: async () => {
      const g = need((await call('GET', '/entities/graph')).body, 'the entity graph');
      return {
        nodes: listOf(g, 'nodes', 'the entity graph').map((n) => ({ id: n.id, name: n.name, type: toEntity(n).type })),
        edges: listOf(g, 'edges', 'the entity graph').map((e) => ({ id: e.id, source: e.source ?? e.sourceId, target: e.target ?? e.targetId, type: e.type ?? e.relationshipType })),
      };
    },
    record_step: async (p) =>
      toStep(need((await call('POST', '/reasoning/steps', { body: compact({ conversationId: p.conversation_id, reasoning: p.reasoning, actionTaken: p.action_taken, result: p.result }) })).body, 'a step')),
    list_steps: async (p) =>
      listOf((await call('GET', '/reasoning/steps', { query: { conversation_id: p.conversation_id } })).body, 'steps', 'the steps').map(toStep),
    explain_step: async (p) => {
      const x = need((await call('GET', `/reasoning/explain/${seg(p.step_id)}`)).body, 'an explanation');
      return {
        ...toStep(x),
        tool_calls: listOf(x, 'toolCalls', 'the explanation').map(toToolCall),
        influenced_entities: listOf(x, 'influencedEntities', 'the explanation').map(toEntity),
      };
    },
    get_trace_by_conversation: async (p) => {
      const t = need((await call('GET', `/reasoning/trace/${seg(p.conversation_id)}`)).body, 'a trace');
      return {
        conversation_id: t.conversationId ?? p.conversation_id,
        steps: listOf(t, 'steps', 'the trace').map(toStep),
        tool_calls: listOf(t, 'toolCalls', 'the trace').map(toToolCall),
      };
    },
    get_entity_provenance: async (p) => {
      const r = need((await call('GET', `/reasoning/provenance/${seg(p.entity_id)}`)).body, 'a provenance');
      // `steps`, or the live service's `provenance`.
      return { entity_id: r.entityId ?? p.entity_id, steps: listOf(r, Array.isArray(r.steps) ? 'steps' : 'provenance', 'the provenance').map(toStep) };
    },
    cypher_query: async (p) => {
      const r = need((await call('POST', '/query', { body: { cypher: p.cypher, params: p.params ?? {} } })).body, 'a query result');
      return { columns: r.columns, rows: r.rows, ...(r.stats !== undefined ? { stats: r.stats } : {}) };
    },

    record_tool_call: async (p) =>
      toToolCall(need((await call('POST', '/reasoning/tool-calls', {
        body: compact({
          stepId: p.step_id, toolName: p.tool_name, arguments: p.arguments, result: p.result,
          status: p.status, durationMs: p.duration_ms, error: p.error,
        }),
      })).body, 'a tool call')),
  };

  return async (method: string, body: unknown): Promise<BridgeResponse> => {
    const request = checkRequest(method, body, (m) => (handlers[m] === undefined ? `${m} has no hosted REST counterpart` : undefined));
    if (!request.ok) return request.response;
    const handler = handlers[request.method]!;
    try {
      return respond(request.method, await handler(request.value));
    } catch (err) {
      if (err instanceof Refused) return errorResponse(400, err.message);
      if (err instanceof UpstreamFailure) {
        const refused = err.status === 400 || err.status === 404 || err.status === 422;
        return errorResponse(refused ? 400 : 502, `${method}: ${err.message}`);
      }
      return errorResponse(500, `internal error in ${method}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}
