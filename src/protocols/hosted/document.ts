// What the hosted profile checks against: the endpoint tables of hosted-rest-api.md ("Endpoints",
// under the base URL /v1), its discovery paths, and the naming rule of its field table. Kept here,
// apart from the reference service's routes, so the profile judges a service by the document and
// not by how the kit's own service happens to be built.

/** The methods the kit sends: the document's four, and PATCH, which no endpoint of the document has (sent to see how a wrong method is answered). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

interface DocumentEndpoint {
  method: HttpMethod;
  /** As the document writes it, relative to the base URL: `/conversations/{id}/messages`. */
  path: string;
  /** The operation name of the tables (`token_exchange` for POST /auth/exchange, which has none there). */
  operation: string;
  /** The table it is listed in. */
  section: 'conversations' | 'entities' | 'reasoning' | 'query and credentials';
}

const table = (section: DocumentEndpoint['section'], rows: string): DocumentEndpoint[] =>
  rows
    .trim()
    .split('\n')
    .map((row) => {
      const [method, path, operation] = row.trim().split(/\s+/) as [HttpMethod, string, string];
      return { method, path, operation, section };
    });

/** Every endpoint of the document's four tables, in the document's order. */
export const DOCUMENT_ENDPOINTS: readonly DocumentEndpoint[] = [
  ...table('conversations', `
    GET    /conversations                       list_conversations
    POST   /conversations                       create_conversation
    GET    /conversations/{id}                  get_conversation_metadata
    DELETE /conversations/{id}                  delete_conversation
    GET    /conversations/{id}/messages         get_conversation
    POST   /conversations/{id}/messages         add_message
    POST   /conversations/{id}/messages/bulk    bulk_add_messages
    POST   /conversations/{id}/search           search_messages
    GET    /conversations/{id}/context          get_context
    GET    /conversations/{id}/observations     get_observations
    GET    /conversations/{id}/reflections      get_reflections`),
  ...table('entities', `
    GET    /entities                            list_entities
    POST   /entities                            add_entity
    GET    /entities/{id}                       get_entity
    PUT    /entities/{id}                       update_entity
    DELETE /entities/{id}                       delete_entity
    PUT    /entities/{id}/feedback              set_entity_feedback
    GET    /entities/{id}/history               get_entity_history
    POST   /entities/{id}/merge                 merge_entities
    GET    /entities/graph                      get_entity_graph
    POST   /entities/search                     search_entities`),
  ...table('reasoning', `
    POST   /reasoning/steps                     record_step
    GET    /reasoning/steps                     list_steps
    GET    /reasoning/explain/{step}            explain_step
    POST   /reasoning/tool-calls                record_tool_call
    GET    /reasoning/trace/{conv}              get_trace_by_conversation
    GET    /reasoning/provenance/{entity}       get_entity_provenance`),
  ...table('query and credentials', `
    POST   /query                               cypher_query
    GET    /auth/api-keys                       list_api_keys
    POST   /auth/api-keys                       create_api_key
    DELETE /auth/api-keys/{id}                  revoke_api_key
    GET    /auth/api-keys/{id}/reveal           reveal_api_key
    POST   /auth/refresh                        refresh_access_token
    POST   /auth/exchange                       token_exchange`),
];

/** The token endpoints: their credential is the token they are given, not a Bearer credential. */
export const TOKEN_OPERATIONS: ReadonlySet<string> = new Set(['token_exchange', 'refresh_access_token']);

/** The discovery documents, at the service origin (Authentication, rule 8). */
export const DISCOVERY = {
  protectedResource: '/.well-known/oauth-protected-resource',
  authorizationServer: '/.well-known/oauth-authorization-server',
  jwks: '/.well-known/jwks.json',
} as const;

/**
 * The operation a request is for (`GET /conversations/abc/messages` -> get_conversation), the
 * most literal pattern winning (/entities/graph is the graph, not an entity); undefined when the
 * document has no such endpoint.
 */
export function operationOf(method: string, path: string): string | undefined {
  const segments = path.split('?')[0]!.split('/').filter((s) => s !== '');
  let best: { operation: string; literals: number } | undefined;
  for (const e of DOCUMENT_ENDPOINTS) {
    if (e.method !== method) continue;
    const pattern = e.path.split('/').filter((s) => s !== '');
    if (pattern.length !== segments.length) continue;
    let literals = 0;
    const fits = pattern.every((p, i) => (p.startsWith('{') ? true : p === segments[i] && ++literals > 0));
    if (fits && (best === undefined || literals > best.literals)) best = { operation: e.operation, literals };
  }
  return best?.operation;
}

/** `lowerCamelCase`: a lowercase letter, then letters and digits. */
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;

/**
 * Fields whose value is the caller's own data (metadata, tool arguments and results, relationship
 * properties, feedback, query parameters and records keyed by the query's columns): the names
 * inside are not field names of the interface.
 */
const CALLER_DATA = new Set(['metadata', 'arguments', 'result', 'properties', 'feedback', 'parameters', 'params', 'records', 'row', 'rows']);

/**
 * The members of a token response, snake_case by OAuth (RFC 6749 §5.1, RFC 8693 §2.2.1): the
 * document's "token fields" (access_token, refresh_token, expires_in) and their companions.
 */
const TOKEN_FIELDS: ReadonlySet<string> = new Set([
  'access_token', 'refresh_token', 'expires_in', 'token_type', 'scope', 'id_token', 'issued_token_type',
  'refresh_token_expires_in', 'error', 'error_description', 'error_uri',
]);

/**
 * Every field name of a JSON value that is not camelCase, as a JSON path ($.conversations[0].user_id).
 * `tokenResponse`: the answer of the exchange or the refresh, whose top-level token fields are snake_case.
 */
export function nonCamelFields(value: unknown, tokenResponse = false, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonCamelFields(v, false, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const bad: string[] = [];
  for (const [name, inner] of Object.entries(value)) {
    const where = `${path}.${name}`;
    if (!CAMEL.test(name) && !(tokenResponse && TOKEN_FIELDS.has(name))) bad.push(where);
    if (!CALLER_DATA.has(name)) bad.push(...nonCamelFields(inner, false, where));
  }
  return bad;
}

/** The parts of hosted-rest-api.md the hosted profile checks, each graded on its own. */
export const HOSTED_GROUPS = ['resources', 'credentials', 'discovery'] as const;
export type HostedGroup = (typeof HOSTED_GROUPS)[number];
