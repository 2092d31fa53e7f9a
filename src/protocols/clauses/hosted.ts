// The sentences of the hosted document (../shared/spec/hosted-rest-api.md, the hosted REST
// interface), each quoted exactly as it reads (a table row as the row reads);
// test/protocols/clauses.test.ts finds every quote in its section of the document.
//
// Left out as informative, not rules a service can break: the opening paragraph (what the
// document covers), "Clients in several languages wrap it and translate names to their own
// casing." (clients, not the service), "Fields below are those the interface shows…", the pointers
// to the other document, "Key scopes seen are read and write." (what was seen; the scope rows say
// it), "No webhook, stream or event kind is named…", and every "…: not shown." sentence (the
// document is silent there; the silent points are src/engine/silent-points.ts).
import type { Sentence } from './sentence.js';

const hosted = (id: string, section: string, text: string, more: Partial<Sentence> = {}): Sentence => ({ id, doc: 'hosted', section, text, ...more });

const cells = (row: string): string[] => row.split('|').slice(1, -1).map((c) => c.trim());

/** `Message (input)` -> `MessageInput`, `API key (create response)` -> `ApiKeyCreateResponse`. */
const pascal = (name: string): string =>
  name
    .replace(/[()]/g, '')
    .split(/\s+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase())
    .join('');

/** An operation of the tables: `token exchange (not in the operation table; see Authentication)` -> `token_exchange`. */
const operation = (cell: string): string => (cell.startsWith('token exchange') ? 'token_exchange' : cell);

const RESOURCES = 'Resources and their fields';

/** The field table: one sentence per row (HOSTED-RESOURCE-<Resource>.<field>), and each resource's rows as a whole (HOSTED-RESOURCE-<Resource>). */
function resources(rows: readonly string[]): Sentence[] {
  const out: Sentence[] = [];
  const byResource = new Map<string, string[]>();
  for (const row of rows) {
    const resource = cells(row)[0]!;
    byResource.set(resource, [...(byResource.get(resource) ?? []), row]);
  }
  for (const [resource, list] of byResource) {
    const id = `HOSTED-RESOURCE-${pascal(resource)}`;
    const parts = list.map((row) => hosted(`${id}.${cells(row)[1]!}`, RESOURCES, row));
    out.push(hosted(id, RESOURCES, list.join('\n'), { parts: parts.map((p) => p.id) }), ...parts);
  }
  return out;
}

/** An endpoint table: one sentence per row, HOSTED-ENDPOINT-<operation>. */
const endpoints = (section: string, rows: readonly string[]): Sentence[] => rows.map((row) => hosted(`HOSTED-ENDPOINT-${operation(cells(row)[2]!)}`, `Endpoints › ${section}`, row));

const AUTH = 'Authentication';

export const HOSTED_SENTENCES: readonly Sentence[] = [
  // What the service does
  hosted('HOSTED-READBACK', 'What the service does', 'The service stores memory for software agents.'),
  hosted(
    'HOSTED-SERVICE-1',
    'What the service does',
    'Short-term memory: conversations and the messages inside them, with search over messages, a context view, observations and reflections per conversation.',
    { via: ['HOSTED-ENDPOINT-get_conversation', 'HOSTED-ENDPOINT-add_message', 'HOSTED-ENDPOINT-search_messages', 'HOSTED-ENDPOINT-get_context', 'HOSTED-ENDPOINT-get_observations', 'HOSTED-ENDPOINT-get_reflections'] },
  ),
  hosted('HOSTED-SERVICE-2a', 'What the service does', 'Long-term memory: entities (for example people and organizations) that the service extracts automatically from message content, kept as a graph.'),
  hosted('HOSTED-SERVICE-2b', 'What the service does', 'Entities can be added, updated, deleted, merged, searched, given feedback and inspected by history.', {
    via: ['HOSTED-ENDPOINT-add_entity', 'HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-delete_entity', 'HOSTED-ENDPOINT-merge_entities', 'HOSTED-ENDPOINT-search_entities', 'HOSTED-ENDPOINT-set_entity_feedback', 'HOSTED-ENDPOINT-get_entity_history'],
  }),
  hosted('HOSTED-SERVICE-3a', 'What the service does', 'Reasoning memory: reasoning steps and tool calls recorded under a conversation.', {
    via: ['HOSTED-ENDPOINT-record_step', 'HOSTED-ENDPOINT-record_tool_call'],
  }),
  hosted('HOSTED-SERVICE-3b', 'What the service does', 'A step can be explained, a trace can be fetched per conversation, and the provenance of an entity can be asked for.', {
    via: ['HOSTED-ENDPOINT-explain_step', 'HOSTED-ENDPOINT-get_trace_by_conversation', 'HOSTED-ENDPOINT-get_entity_provenance'],
  }),
  hosted('HOSTED-SERVICE-4', 'What the service does', 'A graph query endpoint that takes a query in the graph query language.', { via: ['HOSTED-ENDPOINT-cypher_query'] }),
  hosted('HOSTED-SERVICE-5', 'What the service does', 'Credential management: API keys, a token exchange and a token refresh.', {
    via: ['HOSTED-ENDPOINT-create_api_key', 'HOSTED-ENDPOINT-token_exchange', 'HOSTED-ENDPOINT-refresh_access_token'],
  }),
  hosted('HOSTED-CAMELCASE', 'What the service does', 'The REST interface uses camelCase JSON field names.'),

  // Resources and their fields
  hosted('HOSTED-RESOURCE-casing', RESOURCES, 'All names are camelCase on the wire, except the token fields of the exchange, which are snake_case.'),
  ...resources([
    '| Conversation | id | string identifier |',
    '| Conversation | userId | string; supplied when creating a conversation |',
    '| Conversation | createdAt | timestamp |',
    '| Conversation list response | conversations | array of conversations |',
    '| Message (input) | role | string; values seen: user (the bridge document lists user, assistant, system) |',
    '| Message (input) | content | string |',
    '| Entity | id | string identifier |',
    '| Entity graph response | nodes | array of entities |',
    '| Entity graph response | edges | array of relationships between entities |',
    '| Reasoning step (input) | conversationId | identifier of the conversation the step belongs to |',
    '| Reasoning step (input) | reasoning | string |',
    '| Reasoning step (input) | actionTaken | string |',
    '| Reasoning step (input) | result | string |',
    '| Entity provenance response | steps | array of reasoning steps that explain why the entity exists |',
    '| API key (create input) | label | string |',
    '| API key (create input) | scopes | array of strings; values seen: read, write |',
    '| API key (create input) | workspaceId | workspace identifier |',
    '| API key (create response) | id | string identifier, used to revoke |',
    '| API key (create response) | key | plaintext key, returned only at creation |',
    '| Token exchange response | access_token | string, a short-lived signed token |',
    '| Token exchange response | refresh_token | string |',
    '| Token exchange response | expires_in | number |',
  ]),

  // States and transitions: the API key lifecycle
  hosted('HOSTED-KEYSTATE-1', 'States and transitions', '| (none) | POST /auth/api-keys | caller authenticated | active | plaintext key is returned once in the response |'),
  hosted('HOSTED-KEYSTATE-2', 'States and transitions', '| active | 90 days elapse after issue | none | expired | key no longer accepted is implied by expiry |', {
    unchecked: 'a run cannot wait 90 days; the lifetime a service states for a key is HOSTED-LIMIT-key-lifetime',
  }),
  hosted('HOSTED-KEYSTATE-3', 'States and transitions', '| active | DELETE /auth/api-keys/{id} | none | revoked | revocation is immediate |'),
  hosted('HOSTED-KEYSTATE-dashboard', 'States and transitions', 'A key issued through the dashboard follows the same 90-day expiry.', {
    unchecked: 'the kit issues no key through a dashboard, and a run cannot wait 90 days',
  }),

  // Endpoints
  hosted('HOSTED-PATHS-1', 'Endpoints', 'Paths are relative to {base_url}.', { via: ['HOSTED-VERSION-1'] }),
  hosted('HOSTED-PATHS-2', 'Endpoints', 'Every request carries the credential described under Authentication.', { via: ['HOSTED-AUTH-BEARER'] }),
  hosted('HOSTED-PATHS-3', 'Endpoints', 'Request and response bodies are JSON.'),
  hosted('HOSTED-PATHS-4', 'Endpoints', 'Path parameters: {id} is a resource identifier; {step} is a step identifier; {conv} is a conversation identifier; {entity} is an entity identifier.', {
    unchecked: 'it defines the names of the endpoint tables; each endpoint is checked by its row (HOSTED-ENDPOINT-…)',
  }),
  hosted('HOSTED-PATHS-5', 'Endpoints', 'The literal path /entities/graph is the graph operation, not an entity with an identifier.', { via: ['HOSTED-ENDPOINT-get_entity_graph'] }),
  ...endpoints('Conversations', [
    '| GET | /conversations | list_conversations |',
    '| POST | /conversations | create_conversation |',
    '| GET | /conversations/{id} | get_conversation_metadata |',
    '| DELETE | /conversations/{id} | delete_conversation |',
    '| GET | /conversations/{id}/messages | get_conversation |',
    '| POST | /conversations/{id}/messages | add_message |',
    '| POST | /conversations/{id}/messages/bulk | bulk_add_messages |',
    '| POST | /conversations/{id}/search | search_messages |',
    '| GET | /conversations/{id}/context | get_context |',
    '| GET | /conversations/{id}/observations | get_observations |',
    '| GET | /conversations/{id}/reflections | get_reflections |',
  ]),
  ...endpoints('Entities', [
    '| GET | /entities | list_entities |',
    '| POST | /entities | add_entity |',
    '| GET | /entities/{id} | get_entity |',
    '| PUT | /entities/{id} | update_entity |',
    '| DELETE | /entities/{id} | delete_entity |',
    '| PUT | /entities/{id}/feedback | set_entity_feedback |',
    '| GET | /entities/{id}/history | get_entity_history |',
    '| POST | /entities/{id}/merge | merge_entities |',
    '| GET | /entities/graph | get_entity_graph |',
    '| POST | /entities/search | search_entities |',
  ]),
  ...endpoints('Reasoning', [
    '| POST | /reasoning/steps | record_step |',
    '| GET | /reasoning/steps | list_steps |',
    '| GET | /reasoning/explain/{step} | explain_step |',
    '| POST | /reasoning/tool-calls | record_tool_call |',
    '| GET | /reasoning/trace/{conv} | get_trace_by_conversation |',
    '| GET | /reasoning/provenance/{entity} | get_entity_provenance |',
  ]),
  ...endpoints('Query and credentials', [
    '| POST | /query | cypher_query |',
    '| GET | /auth/api-keys | list_api_keys |',
    '| POST | /auth/api-keys | create_api_key |',
    '| DELETE | /auth/api-keys/{id} | revoke_api_key |',
    '| GET | /auth/api-keys/{id}/reveal | reveal_api_key |',
    '| POST | /auth/refresh | refresh_access_token |',
    '| POST | /auth/exchange | token exchange (not in the operation table; see Authentication) |',
  ]),
  ...[
    '| list_conversations | nothing | object with field conversations (array) |',
    '| create_conversation | object with userId (string) | conversation with id |',
    '| add_message | object with role and content | created message |',
    '| get_context | nothing | the context of the conversation |',
    '| get_entity_graph | nothing | object with nodes and edges |',
    '| record_step | object with conversationId, reasoning, actionTaken, result | the recorded step |',
    '| get_entity_provenance | nothing | object with steps |',
    '| list_api_keys | a workspace identifier | list of keys of that workspace |',
    '| create_api_key | object with label, scopes, workspaceId | object with id and key |',
    '| revoke_api_key | nothing | nothing shown |',
    '| reveal_api_key | nothing | the plaintext of a key; works only for keys created in the same workspace |',
    '| token exchange | an identity provider token | object with access_token, refresh_token, expires_in |',
    '| refresh_access_token | a refresh token | new access token; a rotation |',
  ].map((row) => hosted(`HOSTED-PAYLOAD-${operation(cells(row)[0]!).replace(' ', '_')}`, 'Endpoints › Payload shapes that are shown', row)),

  // Authentication
  hosted('HOSTED-AUTH-BEARER', AUTH, 'Two credential kinds are accepted, both sent as `Authorization: Bearer <credential>` on every request.'),
  hosted(
    'HOSTED-AUTH-KEY',
    AUTH,
    'Static API key: a string that starts with a fixed service prefix followed by an underscore (written <API_KEY>). It is issued in a dashboard or through the key endpoints, and expires 90 days after issue.',
  ),
  hosted('HOSTED-AUTH-TOKEN', AUTH, 'OAuth 2.0 access token (PKCE flow): a short-lived signed token (JWT) written <ACCESS_TOKEN>, with a refresh token.'),
  hosted('HOSTED-AUTH-1', AUTH, 'A valid credential of either kind is used identically on all endpoints.'),
  hosted('HOSTED-AUTH-2', AUTH, 'Key creation returns the plaintext once; it is written <API_KEY> in the field key. The caller must store it at that time.'),
  hosted('HOSTED-AUTH-3', AUTH, 'Revoking a key takes effect immediately.'),
  hosted('HOSTED-AUTH-4', AUTH, 'Reveal works only for keys created in the same workspace as the caller.'),
  hosted('HOSTED-AUTH-5', AUTH, 'Token exchange: POST {base_url}/auth/exchange takes a token from an identity provider and returns access_token, refresh_token and expires_in.'),
  hosted('HOSTED-AUTH-6', AUTH, 'Rotation: before the access token expires, the caller calls the refresh operation with the refresh token to obtain a new access token.'),
  hosted('HOSTED-AUTH-7', AUTH, 'Clients accept either an API key or a callback that supplies a the service access token per request.'),
  hosted('HOSTED-AUTH-8', AUTH, 'Discovery endpoints (GET, at the service origin, not under the versioned prefix):', {
    via: ['HOSTED-DISCOVERY-1', 'HOSTED-DISCOVERY-2', 'HOSTED-DISCOVERY-3'],
  }),
  ...[
    '| /.well-known/oauth-protected-resource | protected-resource metadata per RFC 9728 |',
    '| /.well-known/oauth-authorization-server | authorization server metadata per RFC 8414 |',
    '| /.well-known/jwks.json | signing keys for the JWT access tokens |',
  ].map((row, i) => hosted(`HOSTED-DISCOVERY-${i + 1}`, AUTH, row)),

  // Limits
  hosted('HOSTED-LIMIT-key-lifetime', 'Limits', '| Static API key lifetime | 90 days | API keys |'),

  // Versioning
  hosted('HOSTED-VERSION-1', 'Versioning', 'The version is carried by the path prefix /v1 of {base_url}.'),
  hosted(
    'HOSTED-VERSION-2',
    'Versioning',
    'The REST form uses camelCase field names; the bridge form uses snake_case names for the same data (for example userId versus user_id, conversationId versus conversation_id, createdAt versus created_at).',
    { via: ['HOSTED-CAMELCASE'] },
  ),
];
