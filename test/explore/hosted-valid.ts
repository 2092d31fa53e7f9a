// Valid variants of the hosted reference service for `tck explore --hosted`: other readings of what
// the documents leave open, on exactly the points explore's judgements lean on. Explore must find
// nothing against any of them (hosted.test.ts, hosted-found.test.ts), as against every valid variant
// of the hosted profile (test/hosted/profile-variants.ts, VALID).
import { combine, json, mapAnswer, pathOf, replaceHandler, type HostedVariant } from '../hosted/profile-harness.js';

/** silent (conversation-newest): newest by last activity — a conversation written to moves to the front. */
function newestByLastActivity(): HostedVariant {
  const active = new Map<string, number>();
  let tick = 0;
  const touch = (id: string) => active.set(id, ++tick);
  return combine(
    mapAnswer('create_conversation', (b) => (touch(b.id), b)),
    replaceHandler('add_message', async (ctx, original) => (touch(ctx.params.id!), original(ctx))),
    replaceHandler('bulk_add_messages', async (ctx, original) => (touch(ctx.params.id!), original(ctx))),
    replaceHandler('record_step', async (ctx, original) => (typeof ctx.body.conversationId === 'string' && touch(ctx.body.conversationId), original(ctx))),
    replaceHandler('list_conversations', async (ctx, original) => {
      const limit = ctx.query.get('limit');
      const query = new URLSearchParams(ctx.query);
      query.delete('limit');
      const reply = await original({ ...ctx, query });
      if (reply.status !== 200) return reply;
      const all = [...(reply.body as { conversations: { id: string }[] }).conversations].sort((a, b) => (active.get(b.id) ?? 0) - (active.get(a.id) ?? 0));
      return { ...reply, body: { conversations: limit === null ? all : all.slice(0, Number(limit)) } };
    }),
  );
}

/** silent (limit-window): get_conversation(limit) keeps the first N (oldest) messages. */
const messagesLimitKeepsFirst = (): HostedVariant =>
  replaceHandler('get_conversation', async (ctx, original) => {
    const limit = ctx.query.get('limit');
    const reply = await original({ ...ctx, query: new URLSearchParams() });
    if (limit === null || reply.status !== 200) return reply;
    const body = reply.body as { messages: unknown[] };
    return { ...reply, body: { ...body, messages: body.messages.slice(0, Number(limit)) } };
  });

/** silent (bulk-cap-over): a bulk add of more than 100 keeps and answers the first 100. */
const bulkKeepsFirstHundred = (): HostedVariant =>
  replaceHandler('bulk_add_messages', (ctx, original) => {
    const messages = ctx.body.messages;
    return original(Array.isArray(messages) && messages.length > 100 ? { ...ctx, body: { ...ctx.body, messages: messages.slice(0, 100) } } : ctx);
  });

/** silent: where a list sits — messages as a bare array, search hits wrapping their entity. */
const otherShapes = (): HostedVariant =>
  combine(
    mapAnswer('get_conversation', (b) => b.messages),
    mapAnswer('search_entities', (b) => ({ results: b.entities.map((e: { score?: number }) => ({ entity: e, score: e.score ?? 1 })) })),
  );

/** silent (lookup-gone): a deleted conversation's metadata answers 200, marked deleted. */
function softDeletedMetadata(): HostedVariant {
  const gone = new Map<string, unknown>();
  return combine(
    replaceHandler('delete_conversation', async (ctx, original) => {
      const c = ctx.store.conversationOf(ctx.params.id!);
      if (c !== undefined) gone.set(c.id, { ...c, deletedAt: new Date().toISOString() });
      return original(ctx);
    }),
    replaceHandler('get_conversation_metadata', (ctx, original) => (gone.has(ctx.params.id!) ? json(200, gone.get(ctx.params.id!)) : original(ctx))),
  );
}

/** A store that cannot keep NUL or texts past 10 000 characters refuses them (size limits are not shown). */
const refusesWhatItCannotKeep = (): HostedVariant => {
  const cannot = (m: unknown) => m !== null && typeof m === 'object' && typeof (m as { content?: unknown }).content === 'string' && (/\u0000/.test((m as { content: string }).content) || (m as { content: string }).content.length > 10_000);
  return combine(
    replaceHandler('add_message', (ctx, original) => (cannot(ctx.body) ? json(422, { error: 'content cannot be stored' }) : original(ctx))),
    replaceHandler('bulk_add_messages', (ctx, original) => (Array.isArray(ctx.body.messages) && ctx.body.messages.some(cannot) ? json(413, { error: 'too large' }) : original(ctx))),
    replaceHandler('add_entity', (ctx, original) => (/\u0000/.test(String(ctx.body.name)) ? json(400, { error: 'name: NUL' }) : original(ctx))),
  );
};

/** silent (platinum-list-default): list_conversations reads no limit and answers a page of the 3 newest. */
const pageOfThree = (): HostedVariant => ({
  intercept: () => async (request, next) => {
    if (request.method !== 'GET' || pathOf(request) !== '/v1/conversations') return next(request);
    const reply = await next({ ...request, url: pathOf(request) });
    return reply.status === 200 ? { ...reply, body: { conversations: (reply.body as { conversations: unknown[] }).conversations.slice(0, 3) } } : reply;
  },
});

export const HOSTED_EXPLORE_VALID: readonly [string, () => HostedVariant][] = [
  ['list_conversations newest by last activity', newestByLastActivity],
  ['get_conversation(limit) keeps the first N messages', messagesLimitKeepsFirst],
  ['bulk_add_messages keeps the first 100 of a larger batch', bulkKeepsFirstHundred],
  ['messages answered as a bare array, entity search hits wrapping their entity', otherShapes],
  ["a deleted conversation's metadata answers 200 marked deletedAt", softDeletedMetadata],
  ['NUL and texts past 10 000 characters refused', refusesWhatItCannotKeep],
  ['list_conversations reads no limit and answers the 3 newest', pageOfThree],
];
