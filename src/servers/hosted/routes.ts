// Every endpoint of hosted-rest-api.md's tables, under /v1: method, path, operation, the scope it
// needs and its handler. camelCase on the wire (the token fields of exchange and refresh excepted).
//
// Choices where the document says "not shown" (one line each at the handler):
// - Bodies: JSON objects; unknown fields are ignored. Lists are wrapped: {conversations},
//   {messages}, {entities}, {steps}, {keys}. Creation answers 201, deletion 204 with no body.
// - Query parameters are accepted in camelCase and snake_case (the established clients send
//   snake_case: user_id, conversation_id, workspace_id); `limit` is an integer >= 0.
// - Errors: {"error": "<what>"}: 400 bad input (naming the field), 404 unknown resource, plus the
//   credential answers of http.ts (401, 403).
// - Memory data is partitioned by workspace: `ctx.store` is the store of the caller's workspace
//   (workspaces.ts), so every read, list, search, graph and query sees that workspace only, and
//   another workspace's id is an unknown id. A conversation carries the workspaceId of the key
//   that created it; one made over the bridge (which acts in the first workspace) shows the caller's.
// - Where the document shows nothing, the answers are those the official clients parse
//   (clients/typescript/src/transport/rest.ts and the other clients of the established kit): see
//   the operations table of docs/hosted.md and test/hosted/client-compat.test.ts.
import { z } from 'zod';
import { JsonObject, Role, TOOL_CALL_STATUSES, validate } from '../../protocols/bridge/index.js';
import { ApiKeyRegistry, SCOPES, isRefusal, isScope, type Principal, type Refusal, type Scope } from './credentials.js';
import type { TokenResponse, TokenService } from './oauth.js';
import { TOKEN_EXCHANGE_GRANT } from './oauth.js';
import { QueryError, runQuery, writeClauseOf } from './query.js';
import { HostedError, type ConversationView, type HostedStore } from './store.js';
import { hollowFreeForm, keepFreeForm } from '../free-form.js';
import type { WorkspaceStores } from './workspaces.js';

export interface Reply {
  status: number;
  /** JSON body; undefined means no body (204). */
  body?: unknown;
  headers?: Record<string, string>;
}

interface HostedServices {
  /** The store of the caller's workspace (docs/isolation.md). */
  store: HostedStore;
  /** Every workspace's store (the caller's is `store`; a handler reaches no other). */
  stores: WorkspaceStores;
  keys: ApiKeyRegistry;
  tokens: TokenService;
}

export interface RouteContext extends HostedServices {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** Undefined only on the public routes (exchange and refresh). */
  principal?: Principal;
  /** The Bearer credential of the request, if any (exchange and refresh may carry theirs there). */
  bearer?: string;
}

export type Access = Scope | 'public' | ((body: Record<string, unknown>) => Scope);

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to /v1; `:name` is a path parameter. */
  path: string;
  /** The operation name of the document's tables (token_exchange for POST /auth/exchange). */
  operation: string;
  access: Access;
  handler: (ctx: RouteContext) => Reply | Promise<Reply>;
}

const ok = (body: unknown): Reply => ({ status: 200, body });
const created = (body: unknown): Reply => ({ status: 201, body });
const noContent: Reply = { status: 204 };
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
// Stryker disable next-line ObjectLiteral: silent (hosted): valid variant "errors answer an empty object": the body of an error is not shown (hosted-rest-api.md, "Errors")
const refusal = (r: Refusal): Reply => ({ status: r.status, body: { error: r.error } });

/** Validates a body against a schema; a failure is a 400 naming each field. */
function input<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const v = validate(schema, hollowFreeForm(schema, body));
  // Stryker disable next-line ConditionalExpression,StringLiteral: advisory ADV-refuse-invalid-input: without the validation a conversation without userId is created (SCN-H-007 notes it), and other bad input is answered 500, a refusal all the same; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  if (!v.ok) throw new HostedError(400, v.issues.join('; '));
  return keepFreeForm(schema, body, v.value as z.output<S>);
}

/** A query parameter by any of its names (camelCase first). */
// Stryker disable next-line BlockStatement: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": query parameters, pagination and filters are not shown
function param(query: URLSearchParams, ...names: string[]): string | undefined {
  // Stryker disable next-line BlockStatement: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": query parameters, pagination and filters are not shown
  for (const n of names) {
    const v = query.get(n);
    // Stryker disable next-line ConditionalExpression: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": query parameters, pagination and filters are not shown
    if (v !== null) return v;
  }
  return undefined;
}

// Stryker disable next-line BlockStatement: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": pagination is not shown
function limitOf(query: URLSearchParams): number | undefined {
  // Stryker disable next-line StringLiteral: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": pagination is not shown
  const raw = query.get('limit');
  // Stryker disable next-line ConditionalExpression: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": pagination is not shown
  if (raw === null) return undefined;
  // Stryker disable next-line ConditionalExpression,Regex,StringLiteral: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": pagination is not shown, nor what a malformed limit (which the kit never sends) gets; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  if (!/^\d+$/.test(raw)) throw new HostedError(400, `limit: ${JSON.stringify(raw)} is not an integer >= 0`);
  return Number(raw);
}

/** Entity types are free-form (the clients send "concept", "person", …); only an empty one is refused. */
function entityTypeOf(value: string, field: string): string {
  // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: not a protocol rule: refusing an empty entity type is the reference's own choice (entity attributes are not shown), and the kit sends none; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  if (value.trim() === '') throw new HostedError(400, `${field}: must not be empty`);
  return value;
}

/** A conversation made over the bridge has no workspace: it shows the caller's. */
function withWorkspace(c: ConversationView, ctx: RouteContext): ConversationView {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: not a protocol rule: a conversation's workspaceId is not shown, and only the bridge makes a conversation without one (the hosted profile makes none)
  return c.workspaceId === null ? { ...c, workspaceId: ctx.principal!.workspaceId } : c;
}

/** The query text: `cypher` (the clients' field) or `query`. */
// Stryker disable next-line BlockStatement: equivalent in practice: the kit sends the same query text as cypher and as query, and no query that writes (a write query with a read-only credential is then refused by the console, 400, instead of by the scope, 403)
function queryText(body: Record<string, unknown>): string | undefined {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent in practice: the kit sends the same query text as cypher and as query, and no query that writes
  return typeof body.cypher === 'string' ? body.cypher : typeof body.query === 'string' ? body.query : undefined;
}

const optString = z.string().nullish();
const MessageInput = z.looseObject({ role: z.unknown().pipe(Role), content: z.string(), metadata: JsonObject.nullish() });
const CreateConversation = z.looseObject({ userId: z.string(), title: optString, metadata: JsonObject.nullish() });
const BulkInput = z.looseObject({ messages: z.array(MessageInput) });
const SearchInput = z.looseObject({ query: z.string(), limit: z.int().min(0).nullish(), threshold: z.number().nullish(), type: optString });
const EntityInput = z.looseObject({ name: z.string(), type: optString, entityType: optString, description: optString, subtype: optString });
const EntityPatchInput = z.looseObject({ name: z.string().optional(), type: optString, entityType: optString, description: optString, subtype: optString, canonicalName: optString });
const MergeInput = z.looseObject({ targetId: z.string(), canonicalName: optString });
const StepInput = z.looseObject({ conversationId: z.string().min(1), reasoning: optString, actionTaken: optString, result: optString });
const ToolCallInput = z.looseObject({
  stepId: z.string(),
  toolName: z.string(),
  arguments: JsonObject.nullish(),
  result: z.unknown().optional(),
  status: z.enum(TOOL_CALL_STATUSES).nullish(),
  durationMs: z.int().min(0).nullish(),
  error: optString,
});
const QueryInput = z.looseObject({ cypher: z.string().optional(), query: z.string().optional(), parameters: JsonObject.nullish(), params: JsonObject.nullish() });
const CreateKeyInput = z.looseObject({ label: z.string().min(1), scopes: z.array(z.string()).min(1), workspaceId: z.string().min(1).nullish() });

/** The workspace a key request names (query or body), which must be the caller's. */
// Stryker disable next-line BlockStatement: silent (hosted): valid variant "the key list shows the caller's workspace whatever the query names": the document does not say a named workspace other than the caller's is refused (reveal's query likewise: valid variant "reveal ignores a workspaceId query")
function sameWorkspace(ctx: RouteContext, named: string | undefined): Refusal | undefined {
  // Stryker disable next-line ConditionalExpression: silent (hosted): valid variant "the key list shows the caller's workspace whatever the query names": the document does not say a named workspace other than the caller's is refused
  if (named === undefined || named === ctx.principal!.workspaceId) return undefined;
  // Stryker disable next-line StringLiteral,ObjectLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown); a refusal of no status is answered 500, a refusal all the same that shows no key (the document shows no status)
  return { status: 403, error: `workspace ${JSON.stringify(named)} is not the caller's workspace` };
}

function tokenReply(r: TokenResponse | Refusal): Reply {
  return isRefusal(r) ? { ...refusal(r), headers: NO_STORE } : { status: 200, body: r, headers: NO_STORE };
}

/** The first present string field among `names` (the document does not name the token fields). */
function tokenField(body: Record<string, unknown>, names: string[]): string | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: silent (hosted): valid variant "the token endpoints read only the camelCase fields (refreshToken, subjectToken)": the document does not name the fields, and the kit sends each token under both of its common names, never empty
  for (const n of names) if (typeof body[n] === 'string' && body[n] !== '') return body[n] as string;
  return undefined;
}

const REFRESH_FIELDS = ['refreshToken', 'refresh_token'];
const IDP_FIELDS = ['subjectToken', 'subject_token', 'idToken', 'id_token', 'identityToken', 'token'];

async function refresh(ctx: RouteContext): Promise<Reply> {
  const token = tokenField(ctx.body, REFRESH_FIELDS) ?? ctx.bearer;
  // Stryker disable next-line ConditionalExpression,StringLiteral: advisory ADV-refusal-4xx: without the test a refresh with no token at all is answered 5xx rather than 401 (SCN-H-058 notes it), never with a token; the text of the refusal is the service's own
  if (token === undefined) return tokenReply({ status: 401, error: 'no refresh token: send it as refreshToken' });
  return tokenReply(await ctx.tokens.refresh(token));
}

export const ROUTES: readonly Route[] = [
  // ---------------------------------------------------------------- conversations
  {
    method: 'GET', path: '/conversations', operation: 'list_conversations', access: 'read',
    // Stryker disable next-line ObjectLiteral,StringLiteral: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": the filters of list_conversations are not shown
    handler: (ctx) => ok({ conversations: ctx.store.listConversations({ userId: param(ctx.query, 'userId', 'user_id'), limit: limitOf(ctx.query) }).map((c) => withWorkspace(c, ctx)) }),
  },
  {
    method: 'POST', path: '/conversations', operation: 'create_conversation', access: 'write',
    handler: ({ store, body, principal }) => created(store.createConversation({ ...input(CreateConversation, body), workspaceId: principal!.workspaceId })),
  },
  {
    method: 'GET', path: '/conversations/:id', operation: 'get_conversation_metadata', access: 'read',
    handler: (ctx) => ok(withWorkspace(ctx.store.conversation(ctx.params.id!), ctx)),
  },
  {
    // Idempotent (SPEC-5.1.3): an unknown or already deleted conversation also answers 204.
    method: 'DELETE', path: '/conversations/:id', operation: 'delete_conversation', access: 'write',
    handler: ({ store, params }) => (store.deleteConversation(params.id!), noContent),
  },
  {
    // The conversation with its messages; limit keeps the most recent ones. Unknown: {id, messages: []}.
    method: 'GET', path: '/conversations/:id/messages', operation: 'get_conversation', access: 'read',
    handler: ({ store, params, query }) => ok(store.conversationWithMessages(params.id!, limitOf(query))),
  },
  {
    // A conversation id that does not exist yet is created by its first message (as a bridge session).
    method: 'POST', path: '/conversations/:id/messages', operation: 'add_message', access: 'write',
    handler: ({ store, params, body }) => created(store.addMessage(params.id!, input(MessageInput, body))),
  },
  {
    // Body {messages: [{role, content, metadata?}, …]}, at most 100 (SPEC-5.1.4); all are validated before any is added.
    method: 'POST', path: '/conversations/:id/messages/bulk', operation: 'bulk_add_messages', access: 'write',
    handler: ({ store, params, body }) => created({ conversationId: params.id!, messages: store.addMessages(params.id!, input(BulkInput, body).messages) }),
  },
  {
    // Body {query, limit?, threshold?}; each hit carries its score.
    method: 'POST', path: '/conversations/:id/search', operation: 'search_messages', access: 'read',
    handler: ({ store, params, body }) => {
      const q = input(SearchInput, body);
      // Stryker disable next-line ObjectLiteral,LogicalOperator: advisory ADV-search-finds-written: a search given no query finds nothing (SCN-H-013 notes it); the limit and threshold ignored are the reading of the silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)"
      return ok({ messages: store.searchMessages(params.id!, { query: q.query, limit: q.limit ?? undefined, threshold: q.threshold ?? undefined }) });
    },
  },
  {
    // {reflections, observations, recentMessages} (SPEC-5.2.1; limit: recent messages, default 20),
    // plus the entities those messages mention and the steps. Unknown id: the empty context.
    method: 'GET', path: '/conversations/:id/context', operation: 'get_context', access: 'read',
    handler: ({ store, params, query }) => ok(store.context(params.id!, limitOf(query))),
  },
  {
    method: 'GET', path: '/conversations/:id/observations', operation: 'get_observations', access: 'read',
    // Derived from the stored messages and steps; an unknown id has none.
    // Stryker disable next-line ObjectLiteral: silent (hosted): valid variant "get_observations and get_reflections answer an empty object": observations are not shown
    handler: ({ store, params, query }) => ok({ conversationId: params.id!, observations: store.observations(params.id!, limitOf(query)) }),
  },
  {
    method: 'GET', path: '/conversations/:id/reflections', operation: 'get_reflections', access: 'read',
    // Stryker disable next-line ObjectLiteral: silent (hosted): valid variant "get_observations and get_reflections answer an empty object": reflections are not shown
    handler: ({ store, params }) => ok({ conversationId: params.id!, reflections: store.reflections(params.id!) }),
  },

  // ---------------------------------------------------------------- entities
  {
    method: 'GET', path: '/entities', operation: 'list_entities', access: 'read',
    handler: ({ store, query }) => {
      // Stryker disable next-line StringLiteral: silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)": the filters of list_entities are not shown
      const type = param(query, 'type', 'entityType', 'entity_type');
      // Stryker disable next-line ObjectLiteral,ConditionalExpression,StringLiteral: advisory ADV-list-shows-written: a list answered {} lists nothing (SCN-H-014 notes it); the filter and page size ignored are the reading of the silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)"; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      return ok({ entities: store.listEntities({ type: type === undefined ? undefined : entityTypeOf(type, 'type'), limit: limitOf(query) }) });
    },
  },
  {
    // The type is `type` or `entityType` (the established clients send both), free-form; it is
    // answered in lower case (PERSON is "person").
    method: 'POST', path: '/entities', operation: 'add_entity', access: 'write',
    handler: ({ store, body }) => {
      const e = input(EntityInput, body);
      // Stryker disable next-line LogicalOperator: equivalent in practice: the kit sends the same type as type and as entityType (the body of add_entity is not shown)
      const type = e.type ?? e.entityType;
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent in practice: the kit always sends a type (the body of add_entity is not shown); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      if (type == null) throw new HostedError(400, 'type: is missing (required)');
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      return created(store.addEntity({ name: e.name, type: entityTypeOf(type, 'type'), description: e.description, subtype: e.subtype }));
    },
  },
  {
    method: 'GET', path: '/entities/graph', operation: 'get_entity_graph', access: 'read',
    handler: ({ store }) => ok(store.graph()),
  },
  {
    // Body {query, limit?, type?}.
    method: 'POST', path: '/entities/search', operation: 'search_entities', access: 'read',
    handler: ({ store, body }) => {
      const q = input(SearchInput, body);
      // Stryker disable next-line ObjectLiteral,LogicalOperator,ConditionalExpression,StringLiteral: advisory ADV-search-finds-written: a search given no query finds nothing (SCN-H-014 notes it); the limit and type ignored are the reading of the silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)"; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      return ok({ entities: store.searchEntities({ query: q.query, limit: q.limit ?? undefined, type: q.type == null ? undefined : entityTypeOf(q.type, 'type') }) });
    },
  },
  {
    // The entity with its outgoing relationships (the established clients' Entity.relationships).
    method: 'GET', path: '/entities/:id', operation: 'get_entity', access: 'read',
    handler: ({ store, params }) => ok(store.entityWithRelationships(params.id!)),
  },
  {
    // A partial update: fields left out keep their value.
    method: 'PUT', path: '/entities/:id', operation: 'update_entity', access: 'write',
    handler: ({ store, params, body }) => {
      const p = input(EntityPatchInput, body);
      // Stryker disable next-line LogicalOperator: equivalent in practice: the kit sends the same type as type and as entityType (the body of update_entity is not shown)
      const type = p.type ?? p.entityType;
      return ok(store.updateEntity(params.id!, {
        name: p.name,
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent in practice: the kit's updates send the type the entity already has (the body of update_entity is not shown); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
        type: type == null ? undefined : entityTypeOf(type, 'type'),
        // Absent: unchanged; null: cleared.
        subtype: p.subtype,
        description: p.description,
        canonicalName: p.canonicalName,
      }));
    },
  },
  {
    // Idempotent, like conversations: an unknown id also answers 204.
    method: 'DELETE', path: '/entities/:id', operation: 'delete_entity', access: 'write',
    handler: ({ store, params }) => (store.deleteEntity(params.id!), noContent),
  },
  {
    // Any JSON object is feedback (the clients send {userScore, confirmed}; userScore must be in
    // [0, 1]); the latest is shown on the entity. Answer {id, updated: true, …} (SPEC-5.3.1).
    method: 'PUT', path: '/entities/:id/feedback', operation: 'set_entity_feedback', access: 'write',
    handler: ({ store, params, body }) => ok(store.setFeedback(params.id!, body)),
  },
  {
    method: 'GET', path: '/entities/:id/history', operation: 'get_entity_history', access: 'read',
    handler: ({ store, params }) => ok(store.history(params.id!)),
  },
  {
    // The path's entity is merged into body.targetId (the established clients' reading); answer
    // {sourceId, targetId, status: "merged", entity}; a SAME_AS edge source -> target stays in the graph.
    method: 'POST', path: '/entities/:id/merge', operation: 'merge_entities', access: 'write',
    handler: ({ store, params, body }) => ok(store.mergeEntity(params.id!, input(MergeInput, body))),
  },

  // ---------------------------------------------------------------- reasoning
  {
    // conversationId is required; reasoning, actionTaken and result may each be left out.
    method: 'POST', path: '/reasoning/steps', operation: 'record_step', access: 'write',
    handler: ({ store, body }) => created(store.recordStep(input(StepInput, body))),
  },
  {
    method: 'GET', path: '/reasoning/steps', operation: 'list_steps', access: 'read',
    // Stryker disable next-line ObjectLiteral,StringLiteral: advisory ADV-list-shows-written: a list answered {} lists nothing (SCN-H-010 notes it); the filter ignored is the reading of the silent (hosted): valid variant "the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)"
    handler: ({ store, query }) => ok({ steps: store.listSteps(param(query, 'conversationId', 'conversation_id')) }),
  },
  {
    method: 'GET', path: '/reasoning/explain/:step', operation: 'explain_step', access: 'read',
    handler: ({ store, params }) => ok(store.explainStep(params.step!)),
  },
  {
    // Body {stepId, toolName, arguments?, result?, status? (default success), durationMs?, error?}.
    method: 'POST', path: '/reasoning/tool-calls', operation: 'record_tool_call', access: 'write',
    handler: ({ store, body }) => {
      const c = input(ToolCallInput, body);
      return created(store.recordToolCall({
        // Stryker disable next-line LogicalOperator: silent (hosted): valid variant "record_tool_call keeps only the step, the tool name and the result (no arguments, status, duration or error)": tool-call records are not shown
        stepId: c.stepId, toolName: c.toolName, arguments: c.arguments ?? {}, result: c.result,
        // Stryker disable next-line LogicalOperator: silent (hosted): valid variant "record_tool_call keeps only the step, the tool name and the result (no arguments, status, duration or error)": tool-call records are not shown
        status: c.status ?? undefined, durationMs: c.durationMs ?? undefined, error: c.error,
      }));
    },
  },
  {
    // {conversationId, steps, toolCalls} over every trace of the conversation (and `traces`); an id
    // with no traces answers empty lists, not 404.
    method: 'GET', path: '/reasoning/trace/:conv', operation: 'get_trace_by_conversation', access: 'read',
    handler: ({ store, params }) => ok(store.traceOfConversation(params.conv!)),
  },
  {
    // The steps that mention the entity by name, canonical name or a merged name.
    method: 'GET', path: '/reasoning/provenance/:entity', operation: 'get_entity_provenance', access: 'read',
    handler: ({ store, params }) => ok(store.provenance(params.entity!)),
  },

  // ---------------------------------------------------------------- query
  {
    // Body {cypher, params?} (or {query, parameters?}); the read-only subset of query.ts. A query
    // with a clause that changes data needs write, and the read-only console then refuses it (400).
    method: 'POST', path: '/query', operation: 'cypher_query',
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: silent (hosted): valid variant "cypher_query needs the write scope": the meaning of each scope is not shown; the mutants that let every query through with read, or ask a scope of no name for a query that writes, are equivalent in practice (the kit sends no query that writes, and the console refuses one anyway, 400)
    access: (body) => { const text = queryText(body); return text !== undefined && writeClauseOf(text) !== undefined ? 'write' : 'read'; },
    handler: ({ store, body }) => {
      const q = input(QueryInput, body);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: the field named in the text of an error; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      const field = q.cypher !== undefined ? 'cypher' : 'query';
      // Stryker disable next-line LogicalOperator: equivalent in practice: the kit sends the same query text as cypher and as query
      const text = q.cypher ?? q.query;
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent in practice: the kit always sends a query (without one the console fails, 500, a refusal all the same); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      if (text === undefined) throw new HostedError(400, 'cypher: is missing (required)');
      const write = writeClauseOf(text);
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: a query that writes is refused by the console's parser all the same (400: only MATCH … RETURN is read); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      if (write !== undefined) throw new HostedError(400, `${field}: ${write} changes data; the query console is read-only (MATCH, WHERE, RETURN, ORDER BY, SKIP, LIMIT)`);
      let result;
      // (A region, closed before the return: no next-line mark reaches a catch block. It also hides the try block's mutant, which every query kills.)
      // Stryker disable BlockStatement: not a protocol rule: a query the console cannot read is refused 400; without the catch it is refused 500 (the document shows no status), and the kit sends none
      try {
        // Stryker disable next-line LogicalOperator: equivalent in practice: the kit sends params {} and no $parameter (the parameters of a query are not shown)
        result = runQuery(text, q.params ?? q.parameters ?? {}, store.liveGraph());
      } catch (err) {
        // Stryker disable next-line ConditionalExpression,StringLiteral: not a protocol rule: a query the console cannot read is refused 400; without the test it is refused 500 (the document shows no status), and the kit sends none; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
        if (err instanceof QueryError) throw new HostedError(400, `${field}: ${err.message}`);
        throw err;
      }
      // Stryker restore BlockStatement
      return ok(result);
    },
  },

  // ---------------------------------------------------------------- credentials
  {
    // The caller's workspace; a workspace_id/workspaceId naming another one is refused (403).
    method: 'GET', path: '/auth/api-keys', operation: 'list_api_keys', access: 'read',
    handler: (ctx) => {
      // Stryker disable next-line StringLiteral: silent (hosted): valid variant "the key list shows the caller's workspace whatever the query names": the document does not say where the workspace goes in the list request, nor that another one is refused
      const other = sameWorkspace(ctx, param(ctx.query, 'workspaceId', 'workspace_id'));
      return other ? refusal(other) : ok({ workspaceId: ctx.principal!.workspaceId, keys: ctx.keys.list(ctx.principal!.workspaceId) });
    },
  },
  {
    // workspaceId: the caller's (the default). Any other is refused (403), existing or not: a key
    // that could found a workspace nobody owns yet could squat it, and later reveal the keys its
    // real owner creates there. Workspaces come from the bootstrap key, the operator (keys.issue)
    // and the identity provider's workspace_id claim. A caller cannot grant a scope it lacks (403).
    method: 'POST', path: '/auth/api-keys', operation: 'create_api_key', access: 'write',
    handler: async (ctx) => {
      const k = input(CreateKeyInput, ctx.body);
      // Stryker disable next-line ArrowFunction: equivalent: a scope value other than read and write is still refused, 403 by the grant check below instead of 400 (the document shows no status)
      const bad = k.scopes.filter((s) => !isScope(s));
      // Stryker disable next-line ConditionalExpression,ArrowFunction,StringLiteral: equivalent: a scope value other than read and write is still refused, 403 by the grant check below instead of 400 (the document shows no status); the text is the service's own
      if (bad.length > 0) throw new HostedError(400, `scopes: ${bad.map((s) => JSON.stringify(s)).join(', ')} not among ${SCOPES.join(', ')}`);
      const scopes = k.scopes as Scope[];
      const caller = ctx.principal!;
      // Stryker disable next-line LogicalOperator: equivalent in practice: the kit names the caller's workspace whenever it knows it (every embedded run), and the key then lands in the caller's workspace either way
      const workspaceId = k.workspaceId ?? caller.workspaceId;
      // Stryker disable next-line ConditionalExpression,BlockStatement: silent (hosted): valid variant "create_api_key creates a key in any workspace it names": the document's create_api_key takes a workspaceId and does not say it must be the caller's
      if (workspaceId !== caller.workspaceId) {
        // Stryker disable next-line ObjectLiteral,StringLiteral: silent (hosted): valid variant "create_api_key creates a key in any workspace it names": the document's create_api_key takes a workspaceId and does not say it must be the caller's
        return refusal({ status: 403, error: `workspace ${JSON.stringify(workspaceId)} is not the caller's workspace` });
      }
      // Stryker disable next-line ArrowFunction: advisory ADV-grant-wider-scopes: a write-only key then creates a read-write key (SCN-H-022 notes it)
      const missing = scopes.filter((s) => !caller.scopes.has(s));
      // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: advisory ADV-grant-wider-scopes: a write-only key then creates a read-write key (SCN-H-022 notes it); the text of the refusal is the service's own
      if (missing.length > 0) return refusal({ status: 403, error: `the caller cannot grant scopes it does not have: ${missing.join(', ')}` });
      const { view, key } = await ctx.keys.issue({ label: k.label, scopes, workspaceId });
      return { status: 201, body: { ...view, key }, headers: NO_STORE };
    },
  },
  {
    // Immediate: the very next request with the key is refused. Another workspace's key: 404.
    method: 'DELETE', path: '/auth/api-keys/:id', operation: 'revoke_api_key', access: 'write',
    handler: (ctx) => {
      const r = ctx.keys.revoke(ctx.params.id!, ctx.principal!);
      return isRefusal(r) ? refusal(r) : noContent;
    },
  },
  {
    // The key's listing plus its plaintext `key`; another workspace's key: 403.
    method: 'GET', path: '/auth/api-keys/:id/reveal', operation: 'reveal_api_key', access: 'read',
    handler: async (ctx) => {
      // Stryker disable next-line StringLiteral: silent (hosted): valid variant "reveal ignores a workspaceId query": rule 4 is about the key's workspace, which reveal checks; the document gives reveal no query
      const other = sameWorkspace(ctx, param(ctx.query, 'workspaceId', 'workspace_id'));
      // Stryker disable next-line ConditionalExpression: silent (hosted): valid variant "reveal ignores a workspaceId query": rule 4 is about the key's workspace, which reveal checks; the document gives reveal no query
      if (other) return refusal(other);
      const r = await ctx.keys.reveal(ctx.params.id!, ctx.principal!);
      return isRefusal(r) ? refusal(r) : { status: 200, body: r, headers: NO_STORE };
    },
  },
  {
    // The refresh token is the credential: body refreshToken (or refresh_token), else the Bearer value.
    method: 'POST', path: '/auth/refresh', operation: 'refresh_access_token', access: 'public',
    handler: refresh,
  },
  {
    // The identity-provider token is the credential: body subjectToken (or subject_token, idToken,
    // id_token, identityToken, token), else the Bearer value. grant_type=refresh_token refreshes
    // (this is the token endpoint of the authorization-server metadata).
    method: 'POST', path: '/auth/exchange', operation: 'token_exchange', access: 'public',
    handler: async (ctx) => {
      // Stryker disable next-line LogicalOperator: silent (hosted): valid variant "the exchange ignores grant_type (no refresh_token grant at the token endpoint)": the document shows no grant_type, and refresh has its own operation
      const grant = ctx.body.grant_type ?? ctx.body.grantType;
      // Stryker disable next-line ConditionalExpression,StringLiteral: silent (hosted): valid variant "the exchange ignores grant_type (no refresh_token grant at the token endpoint)": the document shows no grant_type, and refresh has its own operation
      if (grant === 'refresh_token') return refresh(ctx);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: silent (hosted): valid variant "the exchange ignores grant_type (no refresh_token grant at the token endpoint)": the document shows no grant_type, and refresh has its own operation (the true mutant, which refuses a request without grant_type, is equivalent in practice: the kit always sends it)
      if (grant !== undefined && grant !== TOKEN_EXCHANGE_GRANT) {
        // Stryker disable next-line ObjectLiteral,StringLiteral: silent (hosted): valid variant "the exchange ignores grant_type (no refresh_token grant at the token endpoint)": the document shows no grant_type, and refresh has its own operation
        return tokenReply({ status: 400, error: `grant_type: ${JSON.stringify(grant)} is not supported (${TOKEN_EXCHANGE_GRANT}, refresh_token)` });
      }
      const token = tokenField(ctx.body, IDP_FIELDS) ?? ctx.bearer;
      // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: with no token the exchange refuses it anyway (401: decodeJwt fails); the text of the refusal is the service's own
      if (token === undefined) return tokenReply({ status: 401, error: 'no identity-provider token: send it as subjectToken' });
      return tokenReply(await ctx.tokens.exchange(token));
    },
  },
];
