// Faulty variants of the hosted reference service that break workspace isolation on one endpoint
// each (docs/isolation.md): the rest of the service keeps every workspace's data apart. Written
// before the checks of suites/hosted/isolation.ts, which must catch every one.
//
// Two kinds of leak, as real services get them wrong:
// - by id: the handler looks the id up in every workspace, and acts in the one that holds it (a
//   read shows another workspace's data; a write or delete changes it);
// - by listing: the handler answers the union of every workspace's answers (a list, a search, the
//   graph, a query).
import type { HostedStore, Reply, RouteContext } from '../../src/servers/hosted/index.js';
import { json, replaceHandler, type HostedVariant } from './profile-harness.js';

type Kind = 'conversation' | 'entity' | 'step';

const exists = (store: HostedStore, kind: Kind, id: string): boolean => {
  try {
    if (kind === 'conversation') return store.conversationOf(id) !== undefined;
    if (kind === 'entity') return store.entityView(id) !== undefined;
    return store.stepView(id) !== undefined;
  } catch {
    return false;
  }
};

/** The store of the workspace holding the id: the caller's first, then any other. */
function ownerOf(ctx: RouteContext, kind: Kind, id: string | undefined): HostedStore {
  if (id === undefined || exists(ctx.store, kind, id)) return ctx.store;
  for (const ws of ctx.stores.workspaces()) if (exists(ctx.stores.of(ws), kind, id)) return ctx.stores.of(ws);
  return ctx.store;
}

/** The operation acts in whichever workspace holds the id `idOf` names. */
const leaksById = (operation: string, kind: Kind, idOf: (ctx: RouteContext) => unknown): HostedVariant =>
  replaceHandler(operation, (ctx, original) => {
    const id = idOf(ctx);
    return original({ ...ctx, store: ownerOf(ctx, kind, typeof id === 'string' ? id : undefined) });
  });

/** The operation answers the union of its answers in every workspace (the arrays of `fields` joined). */
const leaksByListing = (operation: string, fields: string[]): HostedVariant =>
  replaceHandler(operation, async (ctx, original) => {
    const mine = await original(ctx);
    if (mine.status >= 300) return mine;
    const body = structuredClone(mine.body) as Record<string, unknown[]>;
    for (const ws of ctx.stores.workspaces()) {
      const store = ctx.stores.of(ws);
      if (store === ctx.store) continue;
      const theirs = (await original({ ...ctx, store })).body as Record<string, unknown[]>;
      for (const f of fields) body[f] = [...(body[f] ?? []), ...(theirs[f] ?? [])];
    }
    return { ...mine, body } satisfies Reply;
  });

/** A merge whose source is another workspace's entity takes it away from that workspace. */
const mergeTakesAway: HostedVariant = replaceHandler('merge_entities', (ctx, original) => {
  const owner = ownerOf(ctx, 'entity', ctx.params.id);
  if (owner === ctx.store) return original(ctx);
  owner.deleteEntity(ctx.params.id!);
  return json(200, { sourceId: ctx.params.id, targetId: ctx.body.targetId, status: 'merged' });
});

const path = (name: string) => (ctx: RouteContext) => ctx.params[name];
const field = (name: string) => (ctx: RouteContext) => ctx.body[name];

/** [operation, the leak in words, the variant, the message the isolation scenario notes]. */
export const ISOLATION_LEAKS: [operation: string, scenario: string, leak: string, variant: HostedVariant, message: RegExp][] = [
  ['list_conversations', 'SCN-H-060', 'lists every workspace\'s conversations', leaksByListing('list_conversations', ['conversations']), /^SECURITY: list_conversations \(GET \/v1\/conversations\) with .* \(another workspace\) answered 200 .*: it shows ".*", a conversation of the run's workspace/],
  ['get_conversation_metadata', 'SCN-H-060', 'reads another workspace\'s conversation by id', leaksById('get_conversation_metadata', 'conversation', path('id')), /^SECURITY: get_conversation_metadata \(GET \/v1\/conversations\/[\w-]+\) of a conversation of the run's workspace, with .* answered 200 .*: it shows/],
  ['get_conversation', 'SCN-H-060', 'reads another workspace\'s messages', leaksById('get_conversation', 'conversation', path('id')), /^SECURITY: get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\) of the messages of a conversation of the run's workspace.*: it shows "tck-secret-/],
  ['search_messages', 'SCN-H-060', 'searches another workspace\'s conversation', leaksById('search_messages', 'conversation', path('id')), /^SECURITY: search_messages \(POST \/v1\/conversations\/[\w-]+\/search\) of a search in a conversation.*: it shows "tck-secret-/],
  ['get_context', 'SCN-H-060', 'gives another workspace\'s context', leaksById('get_context', 'conversation', path('id')), /^SECURITY: get_context \(GET \/v1\/conversations\/[\w-]+\/context\) .*: it shows "tck-secret-/],
  ['get_observations', 'SCN-H-060', 'gives another workspace\'s observations', leaksById('get_observations', 'conversation', path('id')), /^SECURITY: get_observations \(GET \/v1\/conversations\/[\w-]+\/observations\) .*: it shows "tck-secret-/],
  ['get_reflections', 'SCN-H-060', 'gives another workspace\'s reflections', leaksById('get_reflections', 'conversation', path('id')), /^SECURITY: get_reflections \(GET \/v1\/conversations\/[\w-]+\/reflections\) /],
  ['add_message', 'SCN-H-060', 'adds a message to another workspace\'s conversation', leaksById('add_message', 'conversation', path('id')), /^SECURITY: add_message \(POST \/v1\/conversations\/[\w-]+\/messages\) with .*addressed to the messages of a conversation of the run's workspace.*it shows "tck-intruder-/],
  ['bulk_add_messages', 'SCN-H-060', 'bulk-adds to another workspace\'s conversation', leaksById('bulk_add_messages', 'conversation', path('id')), /^SECURITY: bulk_add_messages \(POST \/v1\/conversations\/[\w-]+\/messages\/bulk\) .*it shows "tck-intruder-/],
  ['delete_conversation', 'SCN-H-060', 'deletes another workspace\'s conversation', leaksById('delete_conversation', 'conversation', path('id')), /^SECURITY: delete_conversation \(DELETE \/v1\/conversations\/[\w-]+\) .* answered 204, and then .* answered 404 .*: a conversation is gone/],
  ['list_entities', 'SCN-H-061', 'lists every workspace\'s entities', leaksByListing('list_entities', ['entities']), /^SECURITY: list_entities \(GET \/v1\/entities\) with .*: it shows ".*", an entity of the run's workspace/],
  ['search_entities', 'SCN-H-061', 'searches every workspace\'s entities', leaksByListing('search_entities', ['entities']), /^SECURITY: search_entities \(POST \/v1\/entities\/search .*: it shows ".*", an entity of the run's workspace/],
  ['get_entity_graph', 'SCN-H-061', 'shows every workspace\'s entities in the graph', leaksByListing('get_entity_graph', ['nodes', 'edges']), /^SECURITY: get_entity_graph \(GET \/v1\/entities\/graph\) with .*: it shows ".*", an entity of the run's workspace/],
  ['cypher_query', 'SCN-H-061', 'queries every workspace\'s graph', leaksByListing('cypher_query', ['rows']), /^SECURITY: cypher_query \(POST \/v1\/query .*: it shows "Ada tck-secret-/],
  ['get_entity', 'SCN-H-061', 'reads another workspace\'s entity', leaksById('get_entity', 'entity', path('id')), /^SECURITY: get_entity \(GET \/v1\/entities\/[\w-]+\) of an entity of the run's workspace.*: it shows "Ada tck-secret-/],
  ['get_entity_history', 'SCN-H-061', 'gives another workspace\'s entity history', leaksById('get_entity_history', 'entity', path('id')), /^SECURITY: get_entity_history \(GET \/v1\/entities\/[\w-]+\/history\) .*: it shows "Ada tck-secret-/],
  ['get_entity_provenance', 'SCN-H-061', 'gives another workspace\'s entity provenance', leaksById('get_entity_provenance', 'entity', path('entity')), /^SECURITY: get_entity_provenance \(GET \/v1\/reasoning\/provenance\/[\w-]+\) .* answered 200 .*, and an id nobody used answered 404: the status tells that the id exists/],
  ['update_entity', 'SCN-H-061', 'updates another workspace\'s entity', leaksById('update_entity', 'entity', path('id')), /^SECURITY: update_entity \(PUT \/v1\/entities\/[\w-]+\) .*it shows "tck-intruder-/],
  ['set_entity_feedback', 'SCN-H-061', 'gives feedback to another workspace\'s entity', leaksById('set_entity_feedback', 'entity', path('id')), /^SECURITY: set_entity_feedback \(PUT \/v1\/entities\/[\w-]+\/feedback\) .*it shows "tck-intruder-/],
  ['merge_entities', 'SCN-H-061', 'merges another workspace\'s entity away', mergeTakesAway, /^SECURITY: merge_entities \(POST \/v1\/entities\/[\w-]+\/merge\) .* answered 200, and then .* answered 404 .*: an entity is gone/],
  ['delete_entity', 'SCN-H-061', 'deletes another workspace\'s entity', leaksById('delete_entity', 'entity', path('id')), /^SECURITY: delete_entity \(DELETE \/v1\/entities\/[\w-]+\) .*: an entity is gone/],
  ['list_steps', 'SCN-H-062', 'lists every workspace\'s steps', leaksByListing('list_steps', ['steps']), /^SECURITY: list_steps \(GET \/v1\/reasoning\/steps\) .*: it shows "tck-secret-/],
  ['get_trace_by_conversation', 'SCN-H-062', 'gives another workspace\'s trace', leaksById('get_trace_by_conversation', 'conversation', path('conv')), /^SECURITY: get_trace_by_conversation \(GET \/v1\/reasoning\/trace\/[\w-]+\) of the trace of a conversation .*: it shows "tck-secret-/],
  ['explain_step', 'SCN-H-062', 'explains another workspace\'s step', leaksById('explain_step', 'step', path('step')), /^SECURITY: explain_step \(GET \/v1\/reasoning\/explain\/[\w-]+\) of a reasoning step .*: it shows "tck-secret-/],
  ['record_step', 'SCN-H-062', 'records a step into another workspace\'s conversation', leaksById('record_step', 'conversation', field('conversationId')), /^SECURITY: record_step \(POST \/v1\/reasoning\/steps\) .*addressed to the trace of a conversation .*it shows "tck-intruder-/],
  ['record_tool_call', 'SCN-H-062', 'records a tool call onto another workspace\'s step', leaksById('record_tool_call', 'step', field('stepId')), /^SECURITY: record_tool_call \(POST \/v1\/reasoning\/tool-calls\) .*it shows "tck-intruder-/],
];

/** The service as it was before issue 36: every workspace reads and writes the first workspace's store. */
export const sharedStore: HostedVariant = {
  routes: (rs) => rs.map((r) => ({ ...r, handler: (ctx: RouteContext) => r.handler({ ...ctx, store: ctx.stores.of(ctx.stores.workspaces()[0]!) }) })),
};

/** The other workspace's writes land in the first workspace (its reads stay its own): it cannot read back what it wrote. */
export const writesLandInFirst: HostedVariant = {
  routes: (rs) => rs.map((r) => (['create_conversation', 'add_message', 'add_entity', 'record_step'].includes(r.operation) ? { ...r, handler: (ctx: RouteContext) => r.handler({ ...ctx, store: ctx.stores.of(ctx.stores.workspaces()[0]!) }) } : r)),
};
