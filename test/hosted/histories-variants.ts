// Faulty and valid variants of the hosted reference service for the HISTORY and LIMIT dimensions
// (issue 34): what a read answers after the writes that change it (add, bulk add, delete, update,
// merge), read with the identical request before and after, and what a limit keeps beside an order
// or a filter. Written before the scenarios of suites/hosted/histories.ts, which must fail each
// faulty variant with a message naming what is wrong, and pass each valid one.
import type { FaultRow, ValidRow } from '../harness/power.js';
import type { HostedStore, Reply, RouteContext } from '../../src/servers/hosted/index.js';
import { combine, json, mapAnswer, pathOf, replaceHandler, type HostedVariant } from './profile-harness.js';

type Json = Record<string, any>;
const storeOf = (ctx: RouteContext): HostedStore & { relationships: { source_id: string; target_id: string }[] } => ctx.store as never;
const limitOf = (ctx: RouteContext): number | undefined => (ctx.query.get('limit') === null ? undefined : Number(ctx.query.get('limit')));

/** get_conversation_metadata answers from a cache by id that delete_conversation does not reach. */
function metadataCachedPastDelete(): HostedVariant {
  const cache = new Map<string, Reply>();
  return replaceHandler('get_conversation_metadata', async (ctx, original) => {
    const hit = cache.get(ctx.params.id!);
    if (hit !== undefined) return hit;
    const reply = await original(ctx);
    if (reply.status === 200) cache.set(ctx.params.id!, reply);
    return reply;
  });
}

/** get_entity_history keeps every mention it ever answered: those of a deleted conversation's messages stay. */
function historyKeepsDeletedMentions(): HostedVariant {
  const seen = new Map<string, Map<string, unknown>>();
  return mapAnswer('get_entity_history', (body: Json, ctx) => {
    const kept = seen.get(ctx.params.id!) ?? new Map<string, unknown>();
    for (const m of body.mentions as Json[]) kept.set(String(m.messageId), m);
    seen.set(ctx.params.id!, kept);
    return { ...body, mentions: [...kept.values()] };
  });
}

/** A second delete of a conversation (or of an id never used) answers 500. */
const secondDelete500 = replaceHandler('delete_conversation', (ctx, original) =>
  ctx.store.conversationOf(ctx.params.id!) === undefined ? json(500, { error: 'conversation not found' }) : original(ctx));

/** list_conversations takes `limit` of the list in creation order, then sorts what it took newest first. */
const listLimitBeforeSort = replaceHandler('list_conversations', (ctx) => {
  const oldestFirst = ctx.store.listConversations().reverse();
  const limit = limitOf(ctx);
  return json(200, { conversations: (limit === undefined ? oldestFirst : oldestFirst.slice(0, limit)).reverse() });
});

/** list_conversations answers one conversation more than its limit. */
const listLimitPlusOne = replaceHandler('list_conversations', (ctx, original) => {
  const limit = limitOf(ctx);
  if (limit === undefined) return original(ctx);
  return json(200, { conversations: ctx.store.listConversations().slice(0, limit + 1) });
});

/** list_conversations answers from a cache keyed by its URL that delete_conversation empties and create_conversation does not. */
function listCachedPastCreate(): HostedVariant {
  const cache = new Map<string, Reply>();
  return combine(
    replaceHandler('delete_conversation', (ctx, original) => (cache.clear(), original(ctx))),
    replaceHandler('list_conversations', async (ctx, original) => {
      const key = ctx.query.toString();
      if (cache.has(key)) return cache.get(key)!;
      const reply = await original(ctx);
      cache.set(key, reply);
      return reply;
    }),
  );
}

/** `operation` serves one more than the limit it is sent (in the query or the body). */
const limitPlusOne = (operation: string, where: 'query' | 'body'): HostedVariant => replaceHandler(operation, (ctx, original) => {
  const limit = where === 'query' ? limitOf(ctx) : typeof ctx.body.limit === 'number' ? ctx.body.limit : undefined;
  if (limit === undefined) return original(ctx);
  if (where === 'body') return original({ ...ctx, body: { ...ctx.body, limit: limit + 1 } });
  const query = new URLSearchParams(ctx.query);
  query.set('limit', String(limit + 1));
  return original({ ...ctx, query });
});

/** list_entities cuts the list to `limit`, then filters it by type. */
const entityLimitBeforeType = replaceHandler('list_entities', (ctx) => {
  const limit = limitOf(ctx);
  const type = ctx.query.get('type');
  const cut = limit === undefined ? ctx.store.listEntities() : ctx.store.listEntities().slice(0, limit);
  return json(200, { entities: type === null ? cut : cut.filter((e) => e.type === type.toLowerCase()) });
});

/** search_messages drops the limit when a threshold is sent. */
const searchLimitIgnoredWithThreshold = replaceHandler('search_messages', (ctx, original) =>
  original(typeof ctx.body.threshold === 'number' ? { ...ctx, body: { ...ctx.body, limit: undefined } } : ctx));

/** bulk_add_messages adds every message it is sent, 101 and more. */
const bulkAcceptsAny = replaceHandler('bulk_add_messages', ({ store, params, body }) => {
  const messages = (body.messages as { role: 'user'; content: string }[]).map((m) => store.addMessage(params.id!, { role: m.role, content: m.content }));
  return json(201, { conversationId: params.id!, messages });
});

/** bulk_add_messages answers the messages it added in the reverse order. */
const bulkAnswerReversed = mapAnswer('bulk_add_messages', (b: Json) => ({ ...b, messages: [...b.messages].reverse() }));

/**
 * The search index of entities keeps the name an entity had before its first rename: a search finds
 * it by that name and no longer by its new one.
 */
function searchIndexKeepsOldName(): HostedVariant {
  const indexed = new Map<string, string>();
  return combine(
    replaceHandler('update_entity', async (ctx, original) => {
      const before = ctx.store.listEntities().find((e) => e.id === ctx.params.id);
      const reply = await original(ctx);
      if (before !== undefined && !indexed.has(before.id)) indexed.set(before.id, before.name);
      return reply;
    }),
    replaceHandler('search_entities', async (ctx, original) => {
      const reply = await original(ctx);
      if (reply.status !== 200) return reply;
      const q = String(ctx.body.query).toLowerCase();
      const hits = ((reply.body as Json).entities as Json[]).filter((e) => !indexed.has(e.id));
      for (const [id, old] of indexed) {
        const e = ctx.store.listEntities().find((x) => x.id === id);
        if (e !== undefined && (old.toLowerCase().includes(q) || q.includes(old.toLowerCase()))) hits.unshift({ ...e, score: 1 });
      }
      return json(200, { entities: hits });
    }),
  );
}

/** `operation` of a conversation answers, once the conversation is deleted, what it answered last while it existed. */
function keptPastDelete(operation: 'get_context' | 'search_messages'): HostedVariant {
  const last = new Map<string, Reply>();
  return replaceHandler(operation, async (ctx, original) => {
    const id = ctx.params.id!;
    if (ctx.store.conversationOf(id) === undefined && last.has(id)) return last.get(id)!;
    const reply = await original(ctx);
    last.set(id, reply);
    return reply;
  });
}

/** search_messages searches the messages a conversation had at its first search only (an index built once). */
function searchIndexBuiltOnce(): HostedVariant {
  const indexed = new Map<string, Set<string>>();
  return replaceHandler('search_messages', async (ctx, original) => {
    const id = ctx.params.id!;
    if (!indexed.has(id)) indexed.set(id, new Set(ctx.store.conversationWithMessages(id).messages.map((m) => m.id)));
    const reply = await original(ctx);
    if (reply.status !== 200) return reply;
    return json(200, { messages: ((reply.body as Json).messages as Json[]).filter((m) => indexed.get(id)!.has(m.id)) });
  });
}

/** search_entities still finds a deleted entity by its name. */
export function entitySearchKeepsDeleted(): HostedVariant {
  const deleted: Json[] = [];
  return combine(
    replaceHandler('delete_entity', (ctx, original) => {
      const e = ctx.store.listEntities().find((x) => x.id === ctx.params.id);
      if (e !== undefined) deleted.push(e);
      return original(ctx);
    }),
    replaceHandler('search_entities', async (ctx, original) => {
      const reply = await original(ctx);
      const hits = deleted.filter((e) => e.name === ctx.body.query).map((e) => ({ ...e, score: 1 }));
      return json(reply.status, { entities: [...(((reply.body as Json).entities as Json[]) ?? []), ...hits] });
    }),
  );
}

/** get_conversation answers the messages newest first. */
const messagesNewestFirst = mapAnswer('get_conversation', (b: Json) => ({ ...b, messages: [...b.messages].reverse() }));

/** get_entity_history leaves out the messages a bulk add wrote (its mention index is fed by add_message only). */
function historyIgnoresBulk(): HostedVariant {
  const bulk = new Set<string>();
  return combine(
    mapAnswer('bulk_add_messages', (b: Json) => {
      for (const m of b.messages as Json[]) bulk.add(m.id);
      return b;
    }),
    mapAnswer('get_entity_history', (b: Json) => ({ ...b, mentions: (b.mentions as Json[]).filter((m) => !bulk.has(m.messageId)) })),
  );
}

/** update_entity clears the description when the request sends none (a full replacement). */
const updateClearsUnsent = replaceHandler('update_entity', (ctx, original) => original({ ...ctx, body: { description: null, ...ctx.body } }));

/** get_entity_history lists the mentions of the conversation of its first mention only. */
const historyFirstConversationOnly = mapAnswer('get_entity_history', (b: Json) => {
  const first = (b.mentions as Json[])[0]?.conversationId;
  return { ...b, mentions: (b.mentions as Json[]).filter((m) => m.conversationId === first) };
});

/**
 * add_entity (and update_entity) accept `relationships: [{targetId, type}]` and make them (the
 * independent hosted service's reading: the document shows no way to make a relationship).
 */
const relationshipsOnAdd: HostedVariant = combine(
  ...['add_entity', 'update_entity'].map((op) => replaceHandler(op, async (ctx, original) => {
    const reply = await original(ctx);
    const rels = ctx.body.relationships;
    if (reply.status >= 300 || !Array.isArray(rels)) return reply;
    const id = (reply.body as Json).id as string;
    for (const r of rels as Json[]) ctx.store.add_relationship({ source_id: id, target_id: String(r.targetId), relationship_type: String(r.type ?? 'RELATED_TO'), properties: {} });
    return op === 'add_entity' ? json(reply.status, ctx.store.entityWithRelationships(id)) : reply;
  })),
);

/** With relationships made as relationshipsOnAdd, a merge drops every relationship of its source. */
const mergeDropsSourceRelationships = combine(relationshipsOnAdd, replaceHandler('merge_entities', (ctx, original) => {
  const s = storeOf(ctx);
  const source = ctx.params.id!;
  s.relationships = s.relationships.filter((r) => r.source_id !== source && r.target_id !== source);
  return original(ctx);
}));

/** With relationships made as relationshipsOnAdd, delete_entity leaves the relationships that touched the entity in the graph. */
const deleteKeepsRelationships = combine(relationshipsOnAdd, replaceHandler('delete_entity', (ctx, original) => {
  const s = storeOf(ctx);
  const before = [...s.relationships];
  const reply = original(ctx);
  s.relationships = before;
  return reply;
}));

/** With relationships made as relationshipsOnAdd, a merge whose source was itself the target of a merge drops the source's relationships. */
function chainedMergeDropsRelationships(): HostedVariant {
  const targets = new Set<string>();
  return combine(relationshipsOnAdd, replaceHandler('merge_entities', (ctx, original) => {
    const s = storeOf(ctx);
    const source = ctx.params.id!;
    if (targets.has(source)) s.relationships = s.relationships.filter((r) => r.source_id !== source && r.target_id !== source);
    targets.add(String(ctx.body.targetId));
    return original(ctx);
  }));
}

/** Every 2xx GET is answered from a cache keyed by its URL (and credential), emptied by PUT and DELETE but not by POST. */
function getCacheKeptPastAdd(): HostedVariant {
  const cache = new Map<string, Reply>();
  return {
    intercept: () => async (request, next) => {
      if (request.method === 'PUT' || request.method === 'DELETE') cache.clear();
      const key = `${request.authorization ?? ''} ${request.url}`;
      if (request.method === 'GET' && request.url.startsWith('/v1/') && cache.has(key)) return cache.get(key)!;
      const reply = await next(request);
      if (request.method === 'GET' && request.url.startsWith('/v1/') && reply.status === 200) cache.set(key, reply);
      return reply;
    },
  };
}

// ------------------------------------------------------------------ other readings the histories scenarios must pass

/** A merge keeps its source, marked mergedInto, in the list and in reads by id (the independent service's and the established package's reading). */
const mergeKeepsSourceMarked: HostedVariant = (() => {
  const merged = new Map<string, Json>();
  return combine(
    replaceHandler('merge_entities', async (ctx, original) => {
      const before = ctx.store.listEntities().find((e) => e.id === ctx.params.id);
      const reply = await original(ctx);
      if (reply.status === 200 && before !== undefined) merged.set(before.id, { ...before, mergedInto: String(ctx.body.targetId) });
      return reply;
    }),
    mapAnswer('list_entities', (b: Json) => ({ entities: [...b.entities, ...merged.values()] })),
    replaceHandler('get_entity', (ctx, original) => merged.get(ctx.params.id!) !== undefined ? json(200, merged.get(ctx.params.id!)) : original(ctx)),
  );
})();

/** list_entities newest first (order and page are not shown). */
const entitiesNewestFirst = replaceHandler('list_entities', async (ctx, original) => {
  const limit = limitOf(ctx);
  const query = new URLSearchParams(ctx.query);
  query.delete('limit');
  const reply = await original({ ...ctx, query });
  const all = [...((reply.body as Json).entities as Json[])].reverse();
  return json(200, { entities: limit === undefined ? all : all.slice(0, limit) });
});

/** A bulk add of more than 100 keeps the first 100 and answers them (silent point bulk-cap-over). */
const bulkKeepsFirstHundred = replaceHandler('bulk_add_messages', (ctx, original) => {
  const messages = ctx.body.messages;
  return original(Array.isArray(messages) && messages.length > 100 ? { ...ctx, body: { ...ctx.body, messages: messages.slice(0, 100) } } : ctx);
});

/** get_conversation_metadata of a deleted conversation answers 200 {id, deleted: true}; the list and messages forget it. */
function deletedConversationMarked(): HostedVariant {
  const deleted = new Set<string>();
  return combine(
    replaceHandler('delete_conversation', (ctx, original) => {
      if (ctx.store.conversationOf(ctx.params.id!) !== undefined) deleted.add(ctx.params.id!);
      return original(ctx);
    }),
    replaceHandler('get_conversation_metadata', (ctx, original) => (deleted.has(ctx.params.id!) ? json(200, { id: ctx.params.id!, deleted: true }) : original(ctx))),
  );
}

/** A conversation read by id, messages, context and search of an unknown or deleted id answer 404. */
const unknownConversation404 = combine(
  ...['get_conversation', 'get_context', 'search_messages'].map((op) => replaceHandler(op, (ctx, original) => (ctx.store.conversationOf(ctx.params.id!) === undefined ? json(404, { error: 'no such conversation' }) : original(ctx)))),
);

/** delete_entity also deletes every other entity of the same name (ignoring case). */
const deleteTakesNamesakes = replaceHandler('delete_entity', (ctx, original) => {
  const e = ctx.store.listEntities().find((x) => x.id === ctx.params.id);
  if (e !== undefined) for (const other of ctx.store.listEntities()) if (other.id !== e.id && other.name.toLowerCase() === e.name.toLowerCase()) ctx.store.deleteEntity(other.id);
  return original(ctx);
});

/** get_conversation_metadata answers the first conversation of the userId of the one asked for. */
const metadataByUser = replaceHandler('get_conversation_metadata', (ctx, original) => {
  const asked = ctx.store.conversationOf(ctx.params.id!);
  if (asked === undefined) return original(ctx);
  const first = ctx.store.listConversations().reverse().find((c) => c.userId === asked.userId)!;
  return json(200, first);
});

export const HISTORY_FAULTS: FaultRow<HostedVariant>[] = [
  ['SCN-H-220', 'every GET is answered from a cache keyed by its URL that an add does not empty', getCacheKeptPastAdd(),
    /^HOSTED-READBACK: get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\), the same request as before add_message, does not read back the message just added/],
  ['SCN-H-220', 'search_messages searches the messages a conversation had at its first search only', searchIndexBuiltOnce(),
    /^HOSTED-READBACK: search_messages \(POST \/v1\/conversations\/[\w-]+\/search\), the same request as before add_message, does not find the message just added, which holds the word searched \(zq\w+\), though the same search found the earlier messages/],
  ['SCN-H-221', 'get_conversation_metadata answers from a cache delete_conversation does not reach', metadataCachedPastDelete(),
    /^SPEC-V3-delete_conversation: get_conversation_metadata \(GET \/v1\/conversations\/[\w-]+\) after delete_conversation answered 200 with the conversation itself/],
  ['SCN-H-221', 'get_context of a deleted conversation answers its last context', keptPastDelete('get_context'),
    /^SPEC-V3-delete_conversation: get_context \(GET \/v1\/conversations\/[\w-]+\/context\), the same request as before delete_conversation, still shows 2 of its messages a second after the delete/],
  ['SCN-H-221', 'search_messages of a deleted conversation answers its last search', keptPastDelete('search_messages'),
    /^SPEC-V3-delete_conversation: search_messages \(POST \/v1\/conversations\/[\w-]+\/search\), the same request as before delete_conversation, still shows 2 of its messages/],
  ['SCN-H-221', 'the mentions of a deleted conversation\'s messages stay in the entity\'s history', historyKeepsDeletedMentions(),
    /^SPEC-V3-delete_conversation: get_entity_history \(GET \/v1\/entities\/[\w-]+\/history\), the same request as before delete_conversation, still shows 2 mention\(s\) of the deleted conversation's messages/],
  ['SCN-H-222', 'a second delete of a conversation answers 500', secondDelete500,
    /^SPEC-V5-5\.1\.3: delete_conversation \(DELETE \/v1\/conversations\/[\w-]+\) a second time answered 500/],
  ['SCN-H-223', 'list_conversations applies the limit before sorting newest first', listLimitBeforeSort,
    /^SPEC-V5-5\.1\.2: list_conversations \(GET \/v1\/conversations\?limit=2\): expected the 2 newest conversations first, newest first/],
  ['SCN-H-223', 'list_conversations answers one more than its limit', listLimitPlusOne,
    /^SPEC-V5-5\.1\.2: list_conversations \(GET \/v1\/conversations\?limit=1\) answered 2 conversations, fewer than the 3 of \?limit=100 but more than the limit 1/],
  ['SCN-H-223', 'list_conversations answers from a URL cache that a creation does not reach', listCachedPastCreate(),
    /^SPEC-V5-5\.1\.2: list_conversations \(GET \/v1\/conversations\?limit=100\), the same request as before create_conversation, does not list 1 of the 3 conversations just created/],
  ['SCN-H-224', 'bulk_add_messages accepts 101 messages and stores them all', bulkAcceptsAny,
    /^SPEC-V5-5\.1\.4: bulk_add_messages \(POST \/v1\/conversations\/[\w-]+\/messages\/bulk\) of 101 messages answered 201, and get_conversation reads back 101 of them: the cap is 100/],
  ['SCN-H-224', 'bulk_add_messages answers its messages in reverse order', bulkAnswerReversed,
    /^SPEC-V5-5\.1\.4: bulk_add_messages \(POST \/v1\/conversations\/[\w-]+\/messages\/bulk\) of 100 messages answered them out of insertion order: position 0 holds .*bulk 099", expected .*bulk 000"/],
  ['SCN-H-224', 'get_conversation answers the messages newest first', messagesNewestFirst,
    /^SPEC-V5-5\.1\.4: get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\?limit=100\) after a bulk add of 100 reads them out of insertion order: ".* bulk 098" after ".* bulk 099"/],
  ['SCN-H-225', 'search_messages ignores the limit when a threshold is sent', searchLimitIgnoredWithThreshold,
    /^SPEC-2\.3\.3: search_messages \(POST \/v1\/conversations\/[\w-]+\/search\) with limit 2 and threshold 0\.5 answered 6 results, and with limit 2 alone 2/],
  ['SCN-H-225', 'get_conversation answers one message more than its limit', limitPlusOne('get_conversation', 'query'),
    /^SPEC-2\.2\.2: get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\?limit=2\) answered 3 of the 6 messages/],
  ['SCN-H-225', 'search_messages answers one result more than its limit', limitPlusOne('search_messages', 'body'),
    /^SPEC-2\.3\.3: search_messages \(POST \/v1\/conversations\/[\w-]+\/search\) with limit 2 answered 3 results, fewer than the 6 with limit 100/],
  ['SCN-H-225', 'search_entities answers one result more than its limit', limitPlusOne('search_entities', 'body'),
    /^SPEC-3\.4\.2: search_entities \(POST \/v1\/entities\/search\) with limit 2 answered 3 of the 5 entities/],
  ['SCN-H-226', 'list_entities answers one more than its limit', limitPlusOne('list_entities', 'query'),
    /^SPEC-V3-list_entities: list_entities \(GET \/v1\/entities\?limit=3\) answered 4 entities, fewer than the \d+ of \?limit=100 but more than the limit 3/],
  ['SCN-H-226', 'list_entities cuts to the limit before filtering by type', entityLimitBeforeType,
    /^SPEC-V3-list_entities: list_entities \(GET \/v1\/entities\?type=EVENT&limit=3\) answered [0-2] entit(y|ies), with 4 entities of type EVENT stored/],
  ['SCN-H-227', 'the entity search index keeps the name an entity had before a rename', searchIndexKeepsOldName(),
    /^SPEC-3\.4\.1: search_entities \(POST \/v1\/entities\/search\) for the new name .* does not find the renamed entity/],
  ['SCN-H-227', 'update_entity clears the description a rename does not send', updateClearsUnsent,
    /^SPEC-V3-update_entity: get_entity \(GET \/v1\/entities\/[\w-]+\) after a rename that sent no description no longer shows it/],
  ['SCN-H-228', 'a GET cache keyed by URL: a deleted entity still reads back by id', getCacheKeptPastAddAndDelete(),
    /^SPEC-V3-delete_entity: get_entity \(GET \/v1\/entities\/[\w-]+\) after delete_entity answered 200 with the entity itself/],
  ['SCN-H-228', 'search_entities still finds a deleted entity by its name', entitySearchKeepsDeleted(),
    /^SPEC-V3-delete_entity: search_entities \(POST \/v1\/entities\/search\), the same request as before delete_entity, still finds the deleted entity [\w-]+, unmarked, a second after the delete/],
  ['SCN-H-228', 'delete_entity leaves the relationships that touched the entity', deleteKeepsRelationships,
    /^SPEC-V3-delete_entity: get_entity_graph \(GET \/v1\/entities\/graph\), the same request as before delete_entity, still holds 1 edge\(s\) to the deleted entity/],
  ['SCN-H-229', 'a merge drops the relationships its source gained by an earlier merge', chainedMergeDropsRelationships(),
    /^SPEC-5\.3\.2: after merging [\w-]+ into [\w-]+, then [\w-]+ into [\w-]+, the graph has no MENTORS edge between/],
  ['SCN-H-229', 'a merge drops the relationships of its source', mergeDropsSourceRelationships,
    /^SPEC-5\.3\.2: after merging .* into .*, the graph has no KNOWS edge between the target .* and .*, a relationship of the source/],
  ['SCN-H-230', 'get_entity_history lists the mentions of one conversation only', historyFirstConversationOnly,
    /^SPEC-V5-5\.3\.2: get_entity_history \(GET \/v1\/entities\/[\w-]+\/history\) shows the mention written in the first conversation but not the same mention written in conversation [\w-]+/],
  ['SCN-H-230', 'get_entity_history leaves out the messages of bulk adds', historyIgnoresBulk(),
    /^SPEC-V5-5\.3\.2: get_entity_history \(GET \/v1\/entities\/[\w-]+\/history\) shows the mention written in the first conversation but not the same mention written in conversation [\w-]+ by bulk_add_messages/],
  ['SCN-H-231', 'deleting one of two entities of one name deletes both', deleteTakesNamesakes,
    /^SPEC-V3-delete_entity: get_entity \(GET \/v1\/entities\/[\w-]+\) of the namesake not deleted answered 404/],
  ['SCN-H-231', 'a conversation read by id answers the first conversation of its user', metadataByUser,
    /^HOSTED-READBACK: get_conversation_metadata \(GET \/v1\/conversations\/[\w-]+\) answered the conversation [\w-]+, another conversation of the same userId/],
];

/** Every GET answered from a URL-keyed cache that nothing empties (deletes included). */
function getCacheKeptPastAddAndDelete(): HostedVariant {
  const cache = new Map<string, Reply>();
  return {
    intercept: () => async (request, next) => {
      const key = `${request.authorization ?? ''} ${request.url}`;
      if (request.method === 'GET' && /^\/v1\/entities\/[^/]+$/.test(pathOf(request)) && cache.has(key)) return cache.get(key)!;
      const reply = await next(request);
      if (request.method === 'GET' && /^\/v1\/entities\/[^/]+$/.test(pathOf(request)) && reply.status === 200) cache.set(key, reply);
      return reply;
    },
  };
}

export const HISTORY_VALID: ValidRow<HostedVariant>[] = [
  ['add_entity accepts relationships [{targetId, type}] and makes them', relationshipsOnAdd],
  ['a merge keeps its source, marked mergedInto, in the list and by id', mergeKeepsSourceMarked],
  ['list_entities answers newest first', entitiesNewestFirst],
  ['a bulk add of more than 100 keeps and answers the first 100', bulkKeepsFirstHundred],
  ['a deleted conversation read by id answers 200 {id, deleted: true}', deletedConversationMarked()],
  ['the messages, context and search of an unknown or deleted conversation answer 404', unknownConversation404],
];
