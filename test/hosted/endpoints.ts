// One valid request per endpoint of the document's tables (exchange and refresh aside), over
// seeded data, in an order in which every one succeeds.
import type { Service } from './helpers.js';

/** The document's tables, as written there (relative to /v1). */
export const DOCUMENT_ENDPOINTS: readonly [string, string, string][] = [
  ['GET', '/conversations', 'list_conversations'],
  ['POST', '/conversations', 'create_conversation'],
  ['GET', '/conversations/{id}', 'get_conversation_metadata'],
  ['DELETE', '/conversations/{id}', 'delete_conversation'],
  ['GET', '/conversations/{id}/messages', 'get_conversation'],
  ['POST', '/conversations/{id}/messages', 'add_message'],
  ['POST', '/conversations/{id}/messages/bulk', 'bulk_add_messages'],
  ['POST', '/conversations/{id}/search', 'search_messages'],
  ['GET', '/conversations/{id}/context', 'get_context'],
  ['GET', '/conversations/{id}/observations', 'get_observations'],
  ['GET', '/conversations/{id}/reflections', 'get_reflections'],
  ['GET', '/entities', 'list_entities'],
  ['POST', '/entities', 'add_entity'],
  ['GET', '/entities/{id}', 'get_entity'],
  ['PUT', '/entities/{id}', 'update_entity'],
  ['DELETE', '/entities/{id}', 'delete_entity'],
  ['PUT', '/entities/{id}/feedback', 'set_entity_feedback'],
  ['GET', '/entities/{id}/history', 'get_entity_history'],
  ['POST', '/entities/{id}/merge', 'merge_entities'],
  ['GET', '/entities/graph', 'get_entity_graph'],
  ['POST', '/entities/search', 'search_entities'],
  ['POST', '/reasoning/steps', 'record_step'],
  ['GET', '/reasoning/steps', 'list_steps'],
  ['GET', '/reasoning/explain/{step}', 'explain_step'],
  ['POST', '/reasoning/tool-calls', 'record_tool_call'],
  ['GET', '/reasoning/trace/{conv}', 'get_trace_by_conversation'],
  ['GET', '/reasoning/provenance/{entity}', 'get_entity_provenance'],
  ['POST', '/query', 'cypher_query'],
  ['GET', '/auth/api-keys', 'list_api_keys'],
  ['POST', '/auth/api-keys', 'create_api_key'],
  ['DELETE', '/auth/api-keys/{id}', 'revoke_api_key'],
  ['GET', '/auth/api-keys/{id}/reveal', 'reveal_api_key'],
  ['POST', '/auth/refresh', 'refresh_access_token'],
  ['POST', '/auth/exchange', 'token_exchange'],
];

/** Operations that read although they are POSTs (searches and read-only queries). */
export const READING_POSTS = new Set(['search_messages', 'search_entities', 'cypher_query']);

interface EndpointRequest {
  operation: string;
  method: string;
  path: string;
  body?: unknown;
}

/** Seeds data and returns one valid request per protected endpoint. */
export async function seededRequests(s: Service): Promise<EndpointRequest[]> {
  const { store, hosted } = s;
  const conv = store.createConversation({ userId: 'user-1' });
  store.addMessage(conv.id, { role: 'user', content: 'Alice works at Acme' });
  const alice = store.addEntity({ name: 'Alice', type: 'PERSON' });
  const bob = store.addEntity({ name: 'Bob', type: 'PERSON' });
  const acme = store.addEntity({ name: 'Acme', type: 'ORGANIZATION' });
  const step = store.recordStep({ conversationId: conv.id, reasoning: 'Alice mentioned Acme', actionTaken: 'lookup', result: 'Acme is a company' });
  const spare = await hosted.keys.issue({ label: 'spare', scopes: ['read'], workspaceId: hosted.workspaceId });
  const c = `/conversations/${conv.id}`;
  return [
    { operation: 'list_conversations', method: 'GET', path: '/conversations' },
    { operation: 'create_conversation', method: 'POST', path: '/conversations', body: { userId: 'user-2' } },
    { operation: 'get_conversation_metadata', method: 'GET', path: c },
    { operation: 'get_conversation', method: 'GET', path: `${c}/messages` },
    { operation: 'add_message', method: 'POST', path: `${c}/messages`, body: { role: 'user', content: 'Bob joined Acme' } },
    { operation: 'bulk_add_messages', method: 'POST', path: `${c}/messages/bulk`, body: { messages: [{ role: 'assistant', content: 'Noted' }] } },
    { operation: 'search_messages', method: 'POST', path: `${c}/search`, body: { query: 'Acme' } },
    { operation: 'get_context', method: 'GET', path: `${c}/context` },
    { operation: 'get_observations', method: 'GET', path: `${c}/observations` },
    { operation: 'get_reflections', method: 'GET', path: `${c}/reflections` },
    { operation: 'list_entities', method: 'GET', path: '/entities' },
    { operation: 'add_entity', method: 'POST', path: '/entities', body: { name: 'Carol', type: 'PERSON' } },
    { operation: 'get_entity', method: 'GET', path: `/entities/${alice.id}` },
    { operation: 'update_entity', method: 'PUT', path: `/entities/${alice.id}`, body: { description: 'an engineer' } },
    { operation: 'set_entity_feedback', method: 'PUT', path: `/entities/${alice.id}/feedback`, body: { rating: 1 } },
    { operation: 'get_entity_history', method: 'GET', path: `/entities/${alice.id}/history` },
    { operation: 'get_entity_graph', method: 'GET', path: '/entities/graph' },
    { operation: 'search_entities', method: 'POST', path: '/entities/search', body: { query: 'Alice' } },
    { operation: 'record_step', method: 'POST', path: '/reasoning/steps', body: { conversationId: conv.id, reasoning: 'r', actionTaken: 'a', result: 'x' } },
    { operation: 'list_steps', method: 'GET', path: '/reasoning/steps' },
    { operation: 'explain_step', method: 'GET', path: `/reasoning/explain/${step.id}` },
    { operation: 'record_tool_call', method: 'POST', path: '/reasoning/tool-calls', body: { stepId: step.id, toolName: 'search', arguments: { q: 'Acme' } } },
    { operation: 'get_trace_by_conversation', method: 'GET', path: `/reasoning/trace/${conv.id}` },
    { operation: 'get_entity_provenance', method: 'GET', path: `/reasoning/provenance/${alice.id}` },
    { operation: 'cypher_query', method: 'POST', path: '/query', body: { query: 'MATCH (e:Entity) RETURN e.name' } },
    { operation: 'list_api_keys', method: 'GET', path: '/auth/api-keys' },
    { operation: 'create_api_key', method: 'POST', path: '/auth/api-keys', body: { label: 'ci', scopes: ['read'], workspaceId: hosted.workspaceId } },
    { operation: 'reveal_api_key', method: 'GET', path: `/auth/api-keys/${spare.view.id}/reveal` },
    { operation: 'merge_entities', method: 'POST', path: `/entities/${bob.id}/merge`, body: { targetId: alice.id } },
    { operation: 'delete_entity', method: 'DELETE', path: `/entities/${acme.id}` },
    { operation: 'delete_conversation', method: 'DELETE', path: c },
    { operation: 'revoke_api_key', method: 'DELETE', path: `/auth/api-keys/${spare.view.id}` },
  ];
}
