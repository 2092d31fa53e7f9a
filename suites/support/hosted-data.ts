// The data of a hosted scenario: conversations, entities and reasoning steps, each made through
// the service and deleted after the scenario.
//
// silent: request bodies beyond the shown fields use the established clients' names, and where two
// readings are common both are sent (entity `type` and `entityType`).
import { randomUUID } from 'node:crypto';
import type { Answer, Credential, HostedContext } from '../../src/profiles/hosted/context.js';
import { checkObject, checkString, is2xx, isObject, type Json } from './http-answers.js';

/** A fresh name for this scenario's data: tck-<what>-<8 hex>. */
export const uid = (what: string): string => `tck-${what}-${randomUUID().slice(0, 8)}`;

/**
 * When `a` is a 2xx answer carrying an id (a creation, perhaps one that should have been refused),
 * that resource under `collection` is deleted after the scenario (with `as`, when given).
 */
export function deleteIfCreated(ctx: HostedContext, a: Answer, collection: '/conversations' | '/auth/api-keys', as?: Credential): void {
  if (is2xx(a) && isObject(a.json) && typeof a.json.id === 'string') ctx.defer('DELETE', `${collection}/${encodeURIComponent(a.json.id)}`, as);
}

/** POST /conversations {userId}: the new conversation (deleted after the scenario). */
export async function newConversation(ctx: HostedContext, rule = 'HOSTED-ENDPOINT-create_conversation', as?: Credential): Promise<{ id: string; userId: string; body: Json }> {
  const userId = uid('user');
  const body = checkObject(await ctx.call('POST', '/conversations', { body: { userId }, ...(as ? { as } : {}) }), rule);
  const id = checkString(body, 'id', rule, 'create_conversation');
  // Deleted with the credential that made it: another workspace's credential reaches it not.
  ctx.defer('DELETE', `/conversations/${encodeURIComponent(id)}`, as);
  return { id, userId, body };
}

/** POST /entities: a new entity of type PERSON (deleted after the scenario). */
export async function newEntity(ctx: HostedContext, rule = 'HOSTED-ENDPOINT-add_entity', name = uid('entity'), as?: Credential): Promise<{ id: string; name: string; body: Json }> {
  // silent: the body of add_entity; `type` and `entityType` are both common readings.
  const body = checkObject(await ctx.call('POST', '/entities', { body: entityBody(name), ...(as ? { as } : {}) }), rule);
  const id = checkString(body, 'id', rule, 'add_entity');
  ctx.defer('DELETE', `/entities/${encodeURIComponent(id)}`, as);
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

