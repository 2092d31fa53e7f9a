// One valid request per endpoint of the document's tables, over data made for it, and how a
// planned request is sent; the resource and credential scenarios judge the answers.
//
// silent: request bodies use the official clients' names first (clients/typescript/src/transport/rest.ts);
// where two readings are common both are sent (the query's `cypher` (with params) and `query`;
// list_steps' `conversation_id` and `conversationId`).
import type { Answer, Credential, HostedContext } from '../../src/profiles/hosted/context.js';
import type { HttpMethod } from '../../src/protocols/hosted/document.js';
import { check2xx, checkObject, checkString, is2xx, isObject, type Json } from './http-answers.js';
import { entityBody, newConversation, newEntity, stepBody, uid } from './hosted-data.js';
import { newKey } from './hosted-credentials.js';

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
const FAMILIES: readonly Family[] = ['conversations', 'entities', 'reasoning', 'query and credentials'];

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
      check2xx(await ctx.call('POST', `/conversations/${seg(conv.id)}/messages`, { body: { role: 'user', content: 'Alice works at Acme' }, ...(as ? { as } : {}) }), 'HOSTED-ENDPOINT-add_message');
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
      const step = checkObject(await ctx.call('POST', '/reasoning/steps', { body: stepBody(conv.id, entity.name), ...(as ? { as } : {}) }), 'HOSTED-ENDPOINT-record_step');
      const stepId = checkString(step, 'id', 'HOSTED-ENDPOINT-record_step', 'record_step');
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

