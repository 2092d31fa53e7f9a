// Shared by the hosted scenarios: how an answer is judged (2xx, JSON, refused), how the data of a
// scenario is made (conversations, entities, steps, keys, tokens) and one valid request per
// endpoint of the document's tables over that data.
//
// Readings of what the document does not show, accepted here once for every scenario:
// - silent: a refused credential may be answered 401 or 403;
// - silent: creation may answer 200 or 201 (any 2xx), deletion 200, 202 or 204 with or without a body;
// - silent: error bodies (shape, fields) are not judged;
// - silent: extra fields are allowed everywhere (they must still be camelCase);
// - silent: request bodies beyond the shown fields use the established clients' names, and where two
//   readings are common both are sent (entity `type` and `entityType`; the exchange's `subjectToken`
//   and RFC 8693's `subject_token`; the refresh's `refreshToken` and `refresh_token`; the query's
//   `cypher` (the clients') and `query`; list_steps' `conversation_id` (the clients') and
//   `conversationId`). The official clients' names come first (clients/typescript/src/transport/rest.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { snippet, statusLine } from '../../src/profiles/bridge/classify.js';
import { AssertionFailure } from '../../src/engine/faults.js';
import { NO_CREDENTIAL, type Answer, type Credential, type HostedContext } from '../../src/profiles/hosted/context.js';
import type { HttpMethod } from '../../src/protocols/hosted/document.js';

type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const is2xx = (a: Answer): boolean => a.status >= 200 && a.status < 300;
/** silent: 401 or 403 for a refused credential. */
export const isRefusal = (a: Answer): boolean => a.status === 401 || a.status === 403;

/** A fresh name for this scenario's data: tck-<what>-<8 hex>. */
export const uid = (what: string): string => `tck-${what}-${randomUUID().slice(0, 8)}`;

/** "200 OK {"conversations":[…]…}": an answer in a few words (the report scrubs any secret in it). */
export function said(a: Answer): string {
  return `${statusLine(a.status)}${a.text.trim() === '' ? ' with an empty body' : ` ${snippet(a.text, 160)}`}`;
}

/** Fails the scenario: the message starts with the rule it breaks. */
export function fail(rule: string, message: string, expected?: unknown, actual?: unknown): never {
  throw new AssertionFailure(`${rule}: ${message}`, expected, actual);
}

/** A 2xx answer, else the scenario fails naming `rule`. */
export function ok(a: Answer, rule: string): Answer {
  if (!is2xx(a)) fail(rule, `${a.operation} (${a.request}): expected a 2xx answer, got ${said(a)}`, '2xx', a.status);
  return a;
}

/** A 2xx answer whose body is a JSON object. */
export function object(a: Answer, rule: string): Json {
  ok(a, rule);
  if (!a.isJson || !isObject(a.json)) fail(rule, `${a.operation} (${a.request}): expected a JSON object, got ${said(a)}`, 'a JSON object', a.text);
  return a.json;
}

/** A string field of an object, else the scenario fails naming `rule`. */
export function stringField(body: Json, field: string, rule: string, where: string): string {
  const v = body[field];
  if (typeof v !== 'string' || v === '') fail(rule, `${where}: expected a non-empty string ${field}, got ${JSON.stringify(v) ?? 'nothing'}`, 'a string', v);
  return v;
}

/** The items of a list answer. silent: a bare array, or an object holding one array (keys, items, data, …). */
export function listItems(json: unknown, preferred: string[]): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (!isObject(json)) return undefined;
  for (const name of preferred) if (Array.isArray(json[name])) return json[name];
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Whether a JSON value holds `text` as a string anywhere (an answer "shows" a value). */
export function holds(json: unknown, text: string): boolean {
  if (typeof json === 'string') return json === text;
  if (Array.isArray(json)) return json.some((v) => holds(v, text));
  return isObject(json) && Object.values(json).some((v) => holds(v, text));
}

// ------------------------------------------------------------------ making data

/** POST /conversations {userId}: the new conversation (deleted after the scenario). */
export async function newConversation(ctx: HostedContext, rule = 'HOSTED-ENDPOINT-create_conversation', as?: Credential): Promise<{ id: string; userId: string; body: Json }> {
  const userId = uid('user');
  const body = object(await ctx.call('POST', '/conversations', { body: { userId }, ...(as ? { as } : {}) }), rule);
  const id = stringField(body, 'id', rule, 'create_conversation');
  ctx.defer('DELETE', `/conversations/${encodeURIComponent(id)}`);
  return { id, userId, body };
}

/** POST /entities: a new entity of type PERSON (deleted after the scenario). */
export async function newEntity(ctx: HostedContext, rule = 'HOSTED-ENDPOINT-add_entity', name = uid('entity'), as?: Credential): Promise<{ id: string; name: string; body: Json }> {
  // silent: the body of add_entity; `type` and `entityType` are both common readings.
  const body = object(await ctx.call('POST', '/entities', { body: entityBody(name), ...(as ? { as } : {}) }), rule);
  const id = stringField(body, 'id', rule, 'add_entity');
  ctx.defer('DELETE', `/entities/${encodeURIComponent(id)}`);
  return { id, name, body };
}

export const entityBody = (name: string, description?: string): Json => ({ name, type: 'PERSON', entityType: 'PERSON', ...(description ? { description } : {}) });

/** The reasoning step input of the document: conversationId, reasoning, actionTaken, result. */
export const stepBody = (conversationId: string, about: string): Json => ({
  conversationId,
  reasoning: `${about} was mentioned in the conversation`,
  actionTaken: `looked up ${about}`,
  result: `${about} is a person`,
});

export interface NewKey {
  id: string;
  key: string;
  credential: Credential;
  /** The create answer. */
  body: Json;
  answer: Answer;
}

/**
 * POST /auth/api-keys {label, scopes, workspaceId}: the new key's id and plaintext, and a
 * credential for it; the key is revoked after the scenario (with the credential that made it).
 */
export async function newKey(
  ctx: HostedContext,
  rule = 'HOSTED-ENDPOINT-create_api_key',
  options: { as?: Credential; workspaceId?: string | undefined; scopes?: string[] } = {},
): Promise<NewKey> {
  const workspaceId = options.workspaceId ?? ctx.target.workspaceId;
  if (workspaceId === undefined) ctx.note('the workspace of the run\'s credential is not known (--workspace): create_api_key was sent without workspaceId');
  const as = options.as ?? ctx.target.credential;
  const answer = await ctx.call('POST', '/auth/api-keys', { body: { label: uid('key'), scopes: options.scopes ?? ['read', 'write'], ...(workspaceId !== undefined ? { workspaceId } : {}) }, as });
  const body = object(answer, rule);
  const id = stringField(body, 'id', rule, 'create_api_key');
  const key = stringField(body, 'key', rule, 'create_api_key');
  ctx.defer('DELETE', `/auth/api-keys/${encodeURIComponent(id)}`, as);
  return { id, key, credential: ctx.bearer(key, `the API key created by call ${ctx.exchanges.length - 1}`), body, answer };
}

/** GET /auth/api-keys (with the workspace, when known) and its items. */
export async function listKeys(ctx: HostedContext, rule: string, as?: Credential): Promise<{ answer: Answer; items: unknown[] }> {
  // silent: where list_api_keys takes the workspace identifier: sent as the query parameter workspaceId.
  const ws = ctx.target.workspaceId;
  const answer = ok(await ctx.call('GET', `/auth/api-keys${ws !== undefined ? `?workspaceId=${encodeURIComponent(ws)}` : ''}`, as ? { as } : {}), rule);
  const items = answer.isJson ? listItems(answer.json, ['keys', 'apiKeys', 'items', 'data']) : undefined;
  if (items === undefined) fail(rule, `list_api_keys (${answer.request}): expected a list of keys, got ${said(answer)}`, 'a list of keys', answer.text);
  return { answer, items };
}

// ------------------------------------------------------------------ tokens

/** Skips the scenario when the run has no identity-provider token. */
export function needIdp(ctx: HostedContext): () => Promise<string> {
  if (ctx.target.idpToken === undefined) {
    ctx.skip('no identity-provider token to exchange: pass --idp-token TOKEN (or TCK_IDP_TOKEN); a skipped scenario counts against its group');
  }
  return ctx.target.idpToken;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: unknown;
  body: Json;
  answer: Answer;
  credential: Credential;
}

/** The token fields of an exchange or refresh answer (access_token and refresh_token strings). */
export function tokensOf(ctx: HostedContext, answer: Answer, rule: string): Tokens {
  const body = object(answer, rule);
  const accessToken = stringField(body, 'access_token', rule, answer.operation);
  const refreshToken = stringField(body, 'refresh_token', rule, answer.operation);
  return { accessToken, refreshToken, expiresIn: body.expires_in, body, answer, credential: ctx.bearer(accessToken, `the access token issued by call ${ctx.exchanges.length - 1}`) };
}

/** POST /auth/exchange with a fresh identity-provider token (skips without one). */
export async function exchangeTokens(ctx: HostedContext, rule: string): Promise<Tokens> {
  const mint = needIdp(ctx);
  const subjectToken = await mint();
  // silent: the field of the identity-provider token; RFC 8693's form is sent alongside the camelCase one.
  const answer = await ctx.call('POST', '/auth/exchange', {
    as: NO_CREDENTIAL,
    body: {
      subjectToken,
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    },
  });
  return tokensOf(ctx, answer, rule);
}

/** POST /auth/refresh with a refresh token (and the current access token as Bearer, for services that want one). */
export function refresh(ctx: HostedContext, refreshToken: string, as: Credential = NO_CREDENTIAL): Promise<Answer> {
  // silent: the field of the refresh token (both spellings sent), and whether the call carries a Bearer credential.
  return ctx.call('POST', '/auth/refresh', { as, body: { refreshToken, refresh_token: refreshToken, grant_type: 'refresh_token' } });
}

/** An access token for the run: the given one, else one from the exchange (skips without either). */
export async function someAccessToken(ctx: HostedContext, rule: string): Promise<{ token: string; credential: Credential }> {
  if (ctx.target.accessToken !== undefined) return { token: ctx.target.accessToken, credential: ctx.bearer(ctx.target.accessToken, "the run's access token") };
  const t = await exchangeTokens(ctx, rule);
  return { token: t.accessToken, credential: t.credential };
}

// ------------------------------------------------------------------ one request per endpoint

export interface EndpointRequest {
  operation: string;
  method: HttpMethod;
  path: string;
  body?: Json;
  /** After this request was refused, what must still hold (nothing it asked for happened). */
  unchanged?: {
    /** A resource it would have deleted or merged away: still there. */
    stillThere?: string;
    /** A GET whose answer would show what it asked to write: it does not. */
    notShown?: [path: string, marker: string];
    /** A key it would have revoked: still works. */
    keyWorks?: Credential;
  };
}

export type Family = 'conversations' | 'entities' | 'reasoning' | 'query and credentials';
export const FAMILIES: readonly Family[] = ['conversations', 'entities', 'reasoning', 'query and credentials'];

const seg = encodeURIComponent;

/**
 * Makes the data the endpoints of `family` need (with `as`, default the run's credential) and
 * returns one valid request per endpoint of that table, in an order in which each succeeds
 * (deletions last). The token endpoints are not among them. A request that makes data and fails
 * fails the scenario naming its own endpoint (HOSTED-ENDPOINT-<operation>).
 */
export async function endpointRequests(ctx: HostedContext, family: Family, as?: Credential): Promise<EndpointRequest[]> {
  switch (family) {
    case 'conversations': {
      const conv = await newConversation(ctx, undefined, as);
      ok(await ctx.call('POST', `/conversations/${seg(conv.id)}/messages`, { body: { role: 'user', content: 'Alice works at Acme' }, ...(as ? { as } : {}) }), 'HOSTED-ENDPOINT-add_message');
      const c = `/conversations/${seg(conv.id)}`;
      const [userId, one, bulk] = [uid('user'), `Bob joined Acme (${uid('m')})`, `Carol met Bob (${uid('m')})`];
      return [
        { operation: 'list_conversations', method: 'GET', path: '/conversations' },
        { operation: 'create_conversation', method: 'POST', path: '/conversations', body: { userId }, unchanged: { notShown: ['/conversations', userId] } },
        { operation: 'get_conversation_metadata', method: 'GET', path: c },
        { operation: 'get_conversation', method: 'GET', path: `${c}/messages` },
        { operation: 'add_message', method: 'POST', path: `${c}/messages`, body: { role: 'user', content: one }, unchanged: { notShown: [`${c}/messages`, one] } },
        { operation: 'bulk_add_messages', method: 'POST', path: `${c}/messages/bulk`, body: { messages: [{ role: 'user', content: bulk }] }, unchanged: { notShown: [`${c}/messages`, bulk] } },
        { operation: 'search_messages', method: 'POST', path: `${c}/search`, body: { query: 'Acme' } },
        { operation: 'get_context', method: 'GET', path: `${c}/context` },
        { operation: 'get_observations', method: 'GET', path: `${c}/observations` },
        { operation: 'get_reflections', method: 'GET', path: `${c}/reflections` },
        { operation: 'delete_conversation', method: 'DELETE', path: c, unchanged: { stillThere: c } },
      ];
    }
    case 'entities': {
      const [a, b, c] = [await newEntity(ctx, undefined, undefined, as), await newEntity(ctx, undefined, undefined, as), await newEntity(ctx, undefined, undefined, as)];
      const e = (x: { id: string }) => `/entities/${seg(x.id)}`;
      const [name, description, comment] = [uid('entity'), uid('description'), uid('comment')];
      return [
        { operation: 'list_entities', method: 'GET', path: '/entities' },
        { operation: 'add_entity', method: 'POST', path: '/entities', body: entityBody(name), unchanged: { notShown: ['/entities', name] } },
        { operation: 'get_entity', method: 'GET', path: e(a) },
        { operation: 'update_entity', method: 'PUT', path: e(a), body: entityBody(a.name, description), unchanged: { notShown: [e(a), description] } },
        { operation: 'set_entity_feedback', method: 'PUT', path: `${e(a)}/feedback`, body: { userScore: 1, confirmed: true, comment }, unchanged: { notShown: [e(a), comment] } },
        { operation: 'get_entity_history', method: 'GET', path: `${e(a)}/history` },
        { operation: 'get_entity_graph', method: 'GET', path: '/entities/graph' },
        { operation: 'search_entities', method: 'POST', path: '/entities/search', body: { query: a.name } },
        // silent: merge_entities' body; the path's entity is merged into targetId (the established clients' reading).
        { operation: 'merge_entities', method: 'POST', path: `${e(b)}/merge`, body: { targetId: a.id }, unchanged: { stillThere: e(b) } },
        { operation: 'delete_entity', method: 'DELETE', path: e(c), unchanged: { stillThere: e(c) } },
      ];
    }
    case 'reasoning': {
      const conv = await newConversation(ctx, undefined, as);
      const entity = await newEntity(ctx, undefined, undefined, as);
      const step = object(await ctx.call('POST', '/reasoning/steps', { body: stepBody(conv.id, entity.name), ...(as ? { as } : {}) }), 'HOSTED-ENDPOINT-record_step');
      const stepId = stringField(step, 'id', 'HOSTED-ENDPOINT-record_step', 'record_step');
      const other = stepBody(conv.id, uid('subject'));
      return [
        { operation: 'record_step', method: 'POST', path: '/reasoning/steps', body: other, unchanged: { notShown: [`/reasoning/steps?conversationId=${seg(conv.id)}`, String(other.reasoning)] } },
        // silent: list_steps' filter; conversation_id (the clients') and conversationId as query parameters.
        { operation: 'list_steps', method: 'GET', path: `/reasoning/steps?conversation_id=${seg(conv.id)}&conversationId=${seg(conv.id)}` },
        { operation: 'explain_step', method: 'GET', path: `/reasoning/explain/${seg(stepId)}` },
        // silent: record_tool_call's body; the established clients' stepId, toolName, arguments.
        { operation: 'record_tool_call', method: 'POST', path: '/reasoning/tool-calls', body: { stepId, toolName: 'lookup', arguments: { name: entity.name } } },
        { operation: 'get_trace_by_conversation', method: 'GET', path: `/reasoning/trace/${seg(conv.id)}` },
        { operation: 'get_entity_provenance', method: 'GET', path: `/reasoning/provenance/${seg(entity.id)}` },
      ];
    }
    case 'query and credentials': {
      const spare = await newKey(ctx, undefined, { ...(as ? { as } : {}), scopes: ['read'] });
      const ws = ctx.target.workspaceId;
      const keys = `/auth/api-keys${ws !== undefined ? `?workspaceId=${seg(ws)}` : ''}`;
      const label = uid('key');
      return [
        // silent: the query's body and language subset; a plain MATCH … RETURN … LIMIT in cypher (the
        // clients' field, with params) and query.
        { operation: 'cypher_query', method: 'POST', path: '/query', body: { cypher: 'MATCH (n) RETURN n LIMIT 1', query: 'MATCH (n) RETURN n LIMIT 1', params: {} } },
        { operation: 'list_api_keys', method: 'GET', path: keys },
        { operation: 'create_api_key', method: 'POST', path: '/auth/api-keys', body: { label, scopes: ['read'], ...(ws !== undefined ? { workspaceId: ws } : {}) }, unchanged: { notShown: [keys, label] } },
        { operation: 'reveal_api_key', method: 'GET', path: `/auth/api-keys/${seg(spare.id)}/reveal` },
        { operation: 'revoke_api_key', method: 'DELETE', path: `/auth/api-keys/${seg(spare.id)}`, unchanged: { keyWorks: spare.credential } },
      ];
    }
  }
}

/** Every family's requests (each family's data made first). */
export async function allEndpointRequests(ctx: HostedContext, as?: Credential): Promise<EndpointRequest[]> {
  const out: EndpointRequest[] = [];
  for (const f of FAMILIES) out.push(...(await endpointRequests(ctx, f, as)));
  return out;
}

/** Sends one planned request; what a successful creation made is cleaned up after the scenario. */
export async function send(ctx: HostedContext, r: EndpointRequest, as?: Credential): Promise<Answer> {
  const a = await ctx.call(r.method, r.path, { ...(r.body !== undefined ? { body: r.body } : {}), ...(as ? { as } : {}), operation: r.operation });
  const id = is2xx(a) && isObject(a.json) && typeof a.json.id === 'string' ? a.json.id : undefined;
  if (id !== undefined) {
    const cleanup: Record<string, string> = { create_api_key: '/auth/api-keys/', create_conversation: '/conversations/', add_entity: '/entities/' };
    if (cleanup[r.operation] !== undefined) ctx.defer('DELETE', `${cleanup[r.operation]}${seg(id)}`, ctx.target.credential);
  }
  return a;
}

// ------------------------------------------------------------------ made-up credentials

/** Credentials that are no credentials: each must be refused. */
export async function madeUpCredentials(ctx: HostedContext): Promise<Credential[]> {
  const { SignJWT, generateKeyPair } = await import('jose');
  const { privateKey } = await generateKeyPair('ES256');
  const now = Math.floor(Date.now() / 1000);
  // A JWT of the right look, signed by a key nobody published.
  const forged = await new SignJWT({ scope: 'read write' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: randomUUID() })
    .setIssuer(ctx.target.origin)
    .setAudience(ctx.target.origin)
    .setSubject('tck-forger')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(privateKey);
  const prefix = /^([A-Za-z0-9]+)_/.exec(ctx.target.apiKey ?? '')?.[1] ?? 'nams';
  // Every Authorization value sent is scrubbed from the outputs, so the reproduction makes up its own.
  const made = (authorization: string, label: string, repro: string): Credential => ({ authorization, label, repro });
  return [
    made(`Bearer tck-garbage-${randomUUID()}`, 'a made-up Bearer value', `"Bearer tck-garbage-$RANDOM$RANDOM"`),
    made(`Bearer ${prefix}_${randomBytes(32).toString('base64url')}`, `a made-up key of the service's form (${prefix}_…)`, `"Bearer ${prefix}_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"`),
    made(`Basic ${Buffer.from(`tck:${randomUUID()}`).toString('base64')}`, 'another scheme (Basic)', `"Basic $(printf 'tck:%s' "$RANDOM" | base64)"`),
    made(`Bearer ${forged}`, 'a JWT signed by an unpublished key', `"Bearer \${TCK_FORGED_JWT:?set TCK_FORGED_JWT to a JWT signed by a key the service does not know}"`),
  ];
}
