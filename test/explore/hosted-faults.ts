// Faulty variants of the hosted reference service for `tck explore --hosted` (written before the
// checks that find them): each breaks one rule a sentence states, in a category the hosted profile's
// scenarios meet only by chance — a cache, a delete that forgets part of the data, a limit applied
// at the wrong moment, a cap not enforced, an answer in the wrong order, a stale search index, a
// store that normalises or cuts text, a range not enforced. Built as the hosted profile's variants
// are (test/hosted/profile-harness.ts): the reference's route table edited, or an intercept.
import { combine, mapAnswer, pathOf, replaceHandler, type HostedVariant } from '../hosted/profile-harness.js';
import type { Reply } from '../../src/servers/hosted/index.js';

interface HostedFault {
  name: string;
  variant: () => HostedVariant;
  /** What a finding of this fault says (its message), as a pattern. */
  finds: RegExp;
}

const without = (body: Record<string, unknown>, names: string[]) => Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k)));

/** GET /conversations/{id} answers are cached by URL, and a delete does not invalidate them. */
function metadataCache(): HostedVariant {
  const cache = new Map<string, Reply>();
  return {
    intercept: () => async (request, next) => {
      const path = pathOf(request);
      if (request.method === 'GET' && /^\/v1\/conversations\/[^/]+$/.test(path)) {
        const hit = cache.get(request.url);
        if (hit !== undefined) return structuredClone(hit);
        const reply = await next(request);
        if (reply.status === 200) cache.set(request.url, structuredClone(reply));
        return reply;
      }
      return next(request);
    },
  };
}

/** delete_conversation hides the conversation from the list and its metadata, and keeps its messages. */
function messagesSurviveDelete(): HostedVariant {
  const hidden = new Set<string>();
  return combine(
    replaceHandler('delete_conversation', (ctx) => (hidden.add(ctx.params.id!), { status: 204 })),
    mapAnswer('list_conversations', (b) => ({ ...b, conversations: b.conversations.filter((c: { id: string }) => !hidden.has(c.id)) })),
    replaceHandler('get_conversation_metadata', (ctx, original) => (hidden.has(ctx.params.id!) ? { status: 404, body: { error: 'not found' } } : original(ctx))),
  );
}

/** The second DELETE of a conversation answers 500. */
function secondDelete500(): HostedVariant {
  const deleted = new Set<string>();
  return replaceHandler('delete_conversation', (ctx, original) => {
    if (deleted.has(ctx.params.id!)) return { status: 500, body: { error: 'conversation already deleted' } };
    deleted.add(ctx.params.id!);
    return original(ctx);
  });
}

/** list_conversations takes the first `limit` conversations in storage order (oldest first), then sorts them newest first. */
function listLimitBeforeSort(): HostedVariant {
  return replaceHandler('list_conversations', async (ctx, original) => {
    const limit = ctx.query.get('limit');
    const query = new URLSearchParams(ctx.query);
    query.delete('limit');
    const reply = await original({ ...ctx, query });
    if (limit === null || reply.status !== 200) return reply;
    const all = (reply.body as { conversations: unknown[] }).conversations;
    return { ...reply, body: { conversations: [...all].reverse().slice(0, Number(limit)).reverse() } };
  });
}

/** list_entities applies the limit first, then the type filter. */
function entitiesLimitBeforeType(): HostedVariant {
  return replaceHandler('list_entities', async (ctx, original) => {
    const type = ctx.query.get('type');
    if (type === null) return original(ctx);
    const query = new URLSearchParams(ctx.query);
    query.delete('type');
    const reply = await original({ ...ctx, query });
    if (reply.status !== 200) return reply;
    const listed = (reply.body as { entities: { type?: string }[] }).entities;
    return { ...reply, body: { entities: listed.filter((e) => String(e.type).toLowerCase() === type.toLowerCase()) } };
  });
}

/** search_messages given a threshold ignores its limit. */
const searchIgnoresLimitWithThreshold = (): HostedVariant =>
  replaceHandler('search_messages', (ctx, original) => original(ctx.body.threshold === undefined ? ctx : { ...ctx, body: without(ctx.body, ['limit']) }));

/** bulk_add_messages accepts more than 100 messages: each is added. */
const bulkAccepts101 = (): HostedVariant =>
  replaceHandler('bulk_add_messages', (ctx, original) => {
    const messages = ctx.body.messages;
    if (!Array.isArray(messages) || messages.length <= 100) return original(ctx);
    const added = messages.map((m: { role: 'user'; content: string }) => ctx.store.addMessage(ctx.params.id!, { role: m.role, content: m.content }));
    return { status: 201, body: { conversationId: ctx.params.id!, messages: added } };
  });

/** bulk_add_messages answers its messages newest first. */
const bulkAnswerReversed = (): HostedVariant => mapAnswer('bulk_add_messages', (b) => ({ ...b, messages: [...b.messages].reverse() }));

/** search_entities matches the name each entity was added with: a rename never reaches the search index. */
function searchKeepsOldName(): HostedVariant {
  const indexed = new Map<string, string>();
  return combine(
    mapAnswer('add_entity', (b) => (indexed.set(b.id, b.name), b)),
    replaceHandler('search_entities', async (ctx, original) => {
      const reply = await original({ ...ctx, body: { ...ctx.body, limit: 10_000 } });
      if (reply.status !== 200) return reply;
      const query = String(ctx.body.query ?? '').toLowerCase();
      const all = ctx.store.listEntities();
      const hits = all.filter((e) => (indexed.get(e.id) ?? String(e.name)).toLowerCase().includes(query));
      const limit = typeof ctx.body.limit === 'number' ? ctx.body.limit : 10;
      return { ...reply, body: { entities: hits.slice(0, limit) } };
    }),
  );
}

/** Message content is stored NFKC-normalised (ﬁ becomes fi, ① becomes 1, Ａ becomes A, ™ becomes TM). */
function nfkcContent(): HostedVariant {
  const norm = (m: unknown) => (m !== null && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string' ? { ...m, content: (m as { content: string }).content.normalize('NFKC') } : m);
  return combine(
    replaceHandler('add_message', (ctx, original) => original({ ...ctx, body: norm(ctx.body) as Record<string, unknown> })),
    replaceHandler('bulk_add_messages', (ctx, original) => original({ ...ctx, body: Array.isArray(ctx.body.messages) ? { ...ctx.body, messages: ctx.body.messages.map(norm) } : ctx.body })),
  );
}

/** Message content is cut at 10 000 characters (a VARCHAR(10000) column). */
function contentCut(): HostedVariant {
  const cut = (m: unknown) => (m !== null && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string' ? { ...m, content: (m as { content: string }).content.slice(0, 10_000) } : m);
  return combine(
    replaceHandler('add_message', (ctx, original) => original({ ...ctx, body: cut(ctx.body) as Record<string, unknown> })),
    replaceHandler('bulk_add_messages', (ctx, original) => original({ ...ctx, body: Array.isArray(ctx.body.messages) ? { ...ctx.body, messages: ctx.body.messages.map(cut) } : ctx.body })),
  );
}

/** set_entity_feedback accepts a userScore outside [0, 1] (50 is taken as 50). */
const feedbackAcceptsAnyScore = (): HostedVariant =>
  replaceHandler('set_entity_feedback', (ctx, original) => {
    const score = ctx.body.userScore;
    if (typeof score === 'number' && (score < 0 || score > 1)) return { status: 200, body: { id: ctx.params.id!, updated: true, userScore: score } };
    return original(ctx);
  });

/** userId is kept lower-cased (a case-insensitive column): the namesakes u-… and U-… become one user. */
const userIdLowerCased = (): HostedVariant =>
  replaceHandler('create_conversation', (ctx, original) => original(typeof ctx.body.userId === 'string' ? { ...ctx, body: { ...ctx.body, userId: ctx.body.userId.toLowerCase() } } : ctx));

/** list_entities shows each entity under the name it was added with (a list cache a rename does not reach). */
function listShowsAddedName(): HostedVariant {
  const added = new Map<string, string>();
  return combine(
    mapAnswer('add_entity', (b) => (added.set(b.id, b.name), b)),
    mapAnswer('list_entities', (b) => ({ ...b, entities: b.entities.map((e: { id: string; name: string }) => ({ ...e, name: added.get(e.id) ?? e.name })) })),
  );
}

export const HOSTED_FAULTS: readonly HostedFault[] = [
  { name: 'conversation metadata cached, not invalidated on delete', variant: metadataCache, finds: /get_conversation_metadata .* after delete_conversation/ },
  { name: 'messages survive delete_conversation', variant: messagesSurviveDelete, finds: /get_conversation .* after delete_conversation still reads/ },
  { name: 'the second delete of a conversation answers 500', variant: secondDelete500, finds: /delete_conversation .* again answered 500/ },
  { name: 'list_conversations applies the limit before sorting newest first', variant: listLimitBeforeSort, finds: /list_conversations .* newest first/ },
  { name: 'list_entities applies the limit before the type filter', variant: entitiesLimitBeforeType, finds: /list_entities .* type/ },
  { name: 'search_messages ignores its limit when given a threshold', variant: searchIgnoresLimitWithThreshold, finds: /search_messages .* limit/ },
  { name: 'bulk_add_messages accepts 101 messages', variant: bulkAccepts101, finds: /bulk_add_messages .* 100/ },
  { name: 'bulk_add_messages answers its messages reversed', variant: bulkAnswerReversed, finds: /bulk_add_messages .* not in the order sent/ },
  { name: 'the search index keeps the old name after a rename', variant: searchKeepsOldName, finds: /search_entities .* new name/ },
  { name: 'message content stored NFKC-normalised', variant: nfkcContent, finds: /NFKC-normalised/ },
  { name: 'message content cut at 10 000 characters', variant: contentCut, finds: /cut at 10000 characters/ },
  { name: 'userId kept lower-cased', variant: userIdLowerCased, finds: /userId/ },
  { name: 'list_entities shows the name an entity was added with', variant: listShowsAddedName, finds: /list_entities .* name/ },
  { name: 'feedback accepts a userScore of 50', variant: feedbackAcceptsAnyScore, finds: /set_entity_feedback .* userScore/ },
];
