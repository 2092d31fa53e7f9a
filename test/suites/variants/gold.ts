// The variants that prove the power of the Gold scenarios SCN-G-001 … SCN-G-018 and SCN-G-101 …
// SCN-G-103 (../gold.test.ts): faulty variants, each breaking exactly the rule one scenario checks,
// and valid variants making other allowed Gold choices. (The kit-wide allowed choices, timestamps,
// ids, ordering and so on, are proven in ../valid-variants-reach.test.ts.)
import { randomUUID } from 'node:crypto';
import { MemoryStore, type Params } from '../../../src/servers/bridge/index.js';
import type { Entity, Relationship } from '../../../src/protocols/bridge/index.js';
import { compose, mapRequest, mapResponse, type Dispatch, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';

 

/** A store that keeps one relationship per (source, target) pair: a later type replaces the earlier. */
class OneEdgePerPair extends MemoryStore {
  override add_relationship(p: Params<'add_relationship'>): Relationship {
    this.relationships = this.relationships.filter((r) => !(r.source_id === p.source_id && r.target_id === p.target_id));
    return super.add_relationship(p);
  }
}

/** A store whose merge throws away the relationships of the source. */
class MergeDropsSourceEdges extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    this.relationships = this.relationships.filter((r) => r.source_id !== p.source_id && r.target_id !== p.source_id);
    return super.merge_duplicate_entities(p);
  }
}

/** A store whose merge moves the relationships of the source but makes them all RELATED_TO. */
class MergeRetypesSourceEdges extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    for (const r of this.relationships) {
      if (r.source_id === p.source_id || r.target_id === p.source_id) r.relationship_type = 'RELATED_TO';
    }
    return super.merge_duplicate_entities(p);
  }
}

/** A hand-written wrap: sees every call (body as plain JSON) and decides what to answer. */
const intercept = (handle: (next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap =>
  (next) => (method, body) => handle(next, method, body);

/** A wrap with state that clear_all_data resets: `make()` builds the per-store state. */
function stateful<S>(make: () => S, handle: (state: S, next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap {
  return (next) => {
    let state = make();
    return (method, body) => {
      if (method === 'clear_all_data') state = make();
      return handle(state, next, method, body);
    };
  };
}

/** Remembers every entity added (add_entity answers), for faults that answer from that list. */
const withEntities = (handle: (entities: any[], next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap =>
  stateful<any[]>(() => [], async (entities, next, method, body) => {
    if (method !== 'add_entity') return handle(entities, next, method, body);
    const res = await next(method, body);
    if (res.status === 200) entities.push(res.body);
    return res;
  });

/**
 * Entities belong to the session that was last used when they were created (add_message,
 * get_conversation, search_messages, start_trace, list_traces name a session), and are hidden from
 * lookups and searches made while another session is in use.
 */
const sessionScopedEntities: Wrap = stateful(
  () => ({ current: undefined as string | undefined, owner: new Map<string, string>() }),
  async (s, next, method, body) => {
    if (typeof body?.session_id === 'string') s.current = body.session_id;
    const res = await next(method, body);
    if (res.status !== 200) return res;
    const hidden = (e: any) => e != null && s.owner.has(e.id) && s.owner.get(e.id) !== s.current;
    switch (method) {
      case 'add_entity':
        if (s.current !== undefined) s.owner.set((res.body as any).id, s.current);
        return res;
      case 'get_entity_by_name':
        return hidden(res.body) ? { status: 200, body: null } : res;
      case 'search_entities':
        return { status: 200, body: (res.body as any[]).filter((e) => !hidden(e)) };
      default:
        return res;
    }
  },
);

export const FAULTS: FaultRow[] = [
  // ---- cross-memory
  ['SCN-G-001', 'get_trace_with_steps drops tool-call results',
    mapResponse('get_trace_with_steps', (t) => {
      for (const step of t.steps) for (const c of step.tool_calls) c.result = null;
      return t;
    }),
    /get_trace_with_steps: the step and its tool call referencing the entity .*expected/],
  ['SCN-G-002', 'complete_trace ignores success',
    mapRequest('complete_trace', (b) => ({ ...b, success: undefined })),
    /get_trace_with_steps after complete_trace\(success=true\): .*"success":true.*"success":null/],
  ['SCN-G-002', 'get_related_entities does not follow relationships',
    mapResponse('get_related_entities', () => []),
    /get_related_entities\(Alice Johnson\) after Alice -WORKS_AT-> Acme Corp: expected .*"Acme Corp".*, got \[\]/],
  ['SCN-G-007', 'entities are visible only to the session in use when they were created',
    sessionScopedEntities,
    /get_entity_by_name\("Alice Johnson"\) in the context of gold-cross-b.*got null/],
  ['SCN-G-008', 'add_fact lower-cases the predicate',
    mapResponse('add_fact', (f) => ({ ...f, predicate: f.predicate.toLowerCase() })),
    /add_fact\(subject="Alice", predicate="WORKS_AT", obj="Acme"\): subject, predicate and object of the fact: .*works_at/],
  ['SCN-G-008', 'add_fact creates new entities for the names it mentions, shadowing the existing ones',
    stateful(() => new Map<string, unknown>(), async (shadows, next, method, body) => {
      if (method === 'get_entity_by_name' && shadows.has(body.name)) return { status: 200, body: shadows.get(body.name) };
      if (method === 'add_fact') {
        for (const name of [body.subject, body.obj]) shadows.set(name, (await next('add_entity', { name, entity_type: 'OBJECT' })).body);
      }
      return next(method, body);
    }),
    /get_entity_by_name\("Alice"\) after a fact naming it: the entity keeps its id/],
  ['SCN-G-009', 'search_preferences finds nothing next to an entity',
    mapResponse('search_preferences', () => []),
    /search_preferences\("Alice prefers email", category="communication"\) next to the entity Alice: expected .*Alice prefers email.*got \[\]/],
  ['SCN-G-009', 'search_entities also returns preferences',
    intercept(async (next, method, body) => {
      const res = await next(method, body);
      if (method !== 'search_entities' || res.status !== 200) return res;
      const prefs = (await next('search_preferences', { query: body.query })).body as any[];
      const asEntities = prefs.map((p) => ({ id: p.id, name: p.preference, type: 'OBJECT', created_at: new Date().toISOString() }));
      return { status: 200, body: [...(res.body as any[]), ...asEntities] };
    }),
    /search_entities\("Alice"\): the preference about Alice is not an entity: result "[0-9a-f-]{36}" is the id of the preference "Alice prefers email" \(category "communication"\), answered as an entity .* of type /],
  ['SCN-G-010', 'start_trace logs a system message into the session\'s conversation',
    intercept(async (next, method, body) => {
      if (method === 'start_trace') await next('add_message', { session_id: body.session_id, role: 'system', content: `trace: ${body.task}` });
      return next(method, body);
    }),
    /get_conversation\(gold-cross-a\) after start_trace in the same session: the conversation holds only its message: expected \["What does Alice do\?"/],
  ['SCN-G-010', 'list_traces ignores session_id',
    mapRequest('list_traces', (b) => ({ ...b, session_id: undefined })),
    /list_traces\(session_id=gold-cross-a\): expected exactly \(any order\) \["Answer the user question about Alice".*"Answer the user question about Bob"/],

  // ---- relationships
  ['SCN-G-003', 'add_relationship answers with source and target swapped',
    mapResponse('add_relationship', (r) => ({ ...r, source_id: r.target_id, target_id: r.source_id })),
    /add_relationship\(Alice -> Acme, "WORKS_AT"\): returned relationship \(source_id, target_id, relationship_type\): source and target swapped: the answer goes from "Acme" \([0-9a-f]{8}…\) to "Alice" \([0-9a-f]{8}…\), expected from "Alice" \([0-9a-f]{8}…\) to "Acme"/],
  ['SCN-G-003', 'add_relationship answers but stores nothing',
    intercept((next, method, body) =>
      method === 'add_relationship' ? { status: 200, body: { id: randomUUID(), ...body } } : next(method, body)),
    /get_related_entities\(Alice, relationship_type="WORKS_AT"\) after add_relationship: expected .*"Acme".*got \[\]/],
  ['SCN-G-003', 'get_related_entities ignores relationship_type',
    mapRequest('get_related_entities', (b) => ({ ...b, relationship_type: undefined })),
    /get_related_entities\(Alice, relationship_type="LIVES_IN"\): no relationship of that type exists: expected .*\[\], got \["Acme"/],
  ['SCN-G-004', 'get_related_entities returns every other entity',
    withEntities((entities, next, method, body) =>
      method === 'get_related_entities' ? { status: 200, body: entities.filter((e) => e.id !== body.entity_id) } : next(method, body)),
    /get_related_entities\(Alice\) with one edge Alice -KNOWS-> Bob: expected .*\["Bob".*, got \["Bob".*"Carol"/],
  ['SCN-G-004', 'get_related_entities loses the description of the related entity',
    mapResponse('get_related_entities', (list) => list.map((e: any) => ({ ...e, description: null }))),
    /get_related_entities\(Alice\): the related entity Bob \(name, type, description as created\)/],
  ['SCN-G-011', 'a second relationship between the same pair replaces the first',
    { store: new OneEdgePerPair() },
    /get_related_entities\(Alice, relationship_type="WORKS_AT"\) with Alice linked .*: expected .*"Acme".*, got \[\]/],
  ['SCN-G-011', 'get_related_entities ignores relationship_type',
    mapRequest('get_related_entities', (b) => ({ ...b, relationship_type: undefined })),
    /get_related_entities\(Alice, relationship_type="WORKS_AT"\) .*got \["Acme".*"San Francisco"/],
  ['SCN-G-012', 'relationship ids are not UUIDs',
    mapResponse('add_relationship', (r) => ({ ...r, id: `rel-${r.relationship_type}` })),
    /add_relationship: response does not match the data model:[\s\S]*"rel-KNOWS" is not a UUID/],
  ['SCN-G-012', 'add_relationship answers the ends of a relationship the wrong way round',
    mapResponse('add_relationship', (r) => (r.relationship_type === 'MENTORS' ? { ...r, source_id: r.target_id, target_id: r.source_id } : r)),
    /add_relationship\(B -> A, "MENTORS"\): .*: source and target swapped: the answer goes from "A" \([0-9a-f]{8}…\) to "B" \([0-9a-f]{8}…\), expected from "B"/],
  ['SCN-G-012', 'a relationship takes the id of its source entity',
    mapResponse('add_relationship', (r) => ({ ...r, id: r.source_id })),
    /add_relationship: relationship ids must be new ids, distinct from each other and from the entity ids .* occurs more than once/],
  ['SCN-G-101', 'add_relationship drops properties',
    mapRequest('add_relationship', (b) => ({ ...b, properties: undefined })),
    /add_relationship\(Alice -> Acme, "WORKS_AT", properties=\{…\}\): properties of the answer: expected \{"since":2019/],
  ['SCN-G-101', 'add_relationship drops null values inside properties',
    mapRequest('add_relationship', (b) => ({ ...b, properties: JSON.parse(JSON.stringify(b.properties ?? {}, (_k, v) => (v === null ? undefined : v))) })),
    /properties of the answer: expected .*"nothing":null/],

  // ---- merge
  ['SCN-G-005', 'merge answers with the source entity',
    mapResponse('merge_duplicate_entities', (e, req) => ({ ...e, id: req.source_id })),
    /merge_duplicate_entities\(source="A\. Johnson" .*, target="Alice Johnson" .*\): id of the returned entity \(the target survives\)/],
  ['SCN-G-005', 'merge answers the target but keeps the source',
    withEntities((entities, next, method, body) =>
      method === 'merge_duplicate_entities'
        ? { status: 200, body: entities.find((e) => e.id === body.target_id) }
        : next(method, body)),
    /get_entity_by_name\("A\. Johnson"\) after merging it into "Alice Johnson" .*: expected null or the target, got "A\. Johnson"/],
  ['SCN-G-005', 'search_entities still returns the merged-away source',
    withEntities(async (entities, next, method, body) => {
      const res = await next(method, body);
      if (method !== 'search_entities' || res.status !== 200) return res;
      const ghosts = entities.filter((e) => e.name === body.query && !(res.body as any[]).some((x) => x.id === e.id));
      return { status: 200, body: [...(res.body as any[]), ...ghosts] };
    }),
    /search_entities\("A\. Johnson"\) after merging "A\. Johnson" into "Alice Johnson": expected "A\. Johnson" .* not to be among the results/],
  ['SCN-G-013', 'merge drops the relationships of the source',
    { store: new MergeDropsSourceEdges() },
    /get_related_entities\(target "Alice"\) after merging "A\. Johnson" into it: the neighbours of both: expected .*"Acme".*"Paris".*, got \["Acme"/],
  ['SCN-G-013', 'merge moves the source\'s relationships but loses their type',
    { store: new MergeRetypesSourceEdges() },
    /get_related_entities\(target "Alice", relationship_type="LIVES_IN"\) after the merge: the source's edge keeps its type: expected .*"Paris".*, got \[\]/],
  ['SCN-G-102', 'merge ignores canonical_name',
    mapRequest('merge_duplicate_entities', (b) => ({ ...b, canonical_name: undefined })),
    /merge_duplicate_entities\(canonical_name="Alice Johnson"\): canonical_name of the returned entity: expected "Alice Johnson", got null/],
  ['SCN-G-102', 'merge shows canonical_name in its answer but does not store it',
    compose(
      mapResponse('merge_duplicate_entities', (e, req) => ({ ...e, canonical_name: req.canonical_name })),
      mapRequest('merge_duplicate_entities', (b) => ({ ...b, canonical_name: undefined })),
    ),
    /get_entity_by_name\("Alice J\."\) after merge_duplicate_entities\(canonical_name="Alice Johnson"\): the stored target keeps the canonical_name/],

  // ---- similar traces
  ['SCN-G-006', 'get_similar_traces ignores the task and answers the newest traces',
    intercept(async (next, method, body) =>
      method === 'get_similar_traces' ? { status: 200, body: ((await next('list_traces', {})).body as any[]).reverse().slice(0, body.limit ?? 5) } : next(method, body)),
    /get_similar_traces\(task="Alice Johnson role at Acme Corp", limit=2, success_only=false\): expected "Find Alice Johnson's role at Acme Corp" .* among the results, got \["Bake sourdough bread overnight"/],
  ['SCN-G-006', 'get_similar_traces finds nothing',
    mapResponse('get_similar_traces', () => []),
    /get_similar_traces\(task="Alice Johnson role at Acme Corp", limit=2, success_only=false\): expected "Find Alice Johnson's role at Acme Corp" .* among the results, got \[\]/],
  ['SCN-G-014', 'get_similar_traces ignores limit',
    mapRequest('get_similar_traces', (b) => ({ ...b, limit: undefined })),
    /get_similar_traces\(task="Research task", limit=2\) with 5 matching traces: expected at most 2 item\(s\), got 5/],
  ['SCN-G-015', 'get_similar_traces invents a trace when there is none',
    mapResponse('get_similar_traces', (list, req) =>
      list.length > 0 ? list : [{ id: randomUUID(), session_id: 'default', task: req.task, steps: [], started_at: new Date().toISOString() }]),
    /get_similar_traces\(task="Summarise the quarterly report"\) on an empty store: expected \[\], got 1 item/],
  ['SCN-G-015', 'get_similar_traces falls back to matching messages',
    intercept(async (next, method, body) => {
      const res = await next(method, body);
      if (method !== 'get_similar_traces' || (res.body as any[]).length > 0) return res;
      const messages = (await next('search_messages', { query: body.task })).body as any[];
      return { status: 200, body: messages.map((m) => ({ id: m.id, session_id: 's', task: m.content, steps: [], started_at: m.timestamp })) };
    }),
    /get_similar_traces\(task="Summarise the quarterly report"\) with no trace stored \(only a message and an entity with that text\): expected \[\], got 1 item/],
  ['SCN-G-103', 'get_similar_traces ignores success_only',
    mapRequest('get_similar_traces', (b) => ({ ...b, success_only: undefined })),
    /get_similar_traces\(task="Deploy the payment service to production", success_only=true\): a trace completed with success=false \(success is not true\): expected .* not to be among the results/],
  ['SCN-G-103', 'success_only excludes failed traces but keeps those without a verdict',
    intercept(async (next, method, body) => {
      if (method !== 'get_similar_traces' || body.success_only !== true) return next(method, body);
      const res = await next(method, { ...body, success_only: undefined });
      return { status: 200, body: (res.body as any[]).filter((t) => t.success !== false) };
    }),
    /success_only=true\): a trace never completed \(success is not true\): expected "Deploy the payment service to production" .* not to be among the results/],

  // ---- multi-agent
  ['SCN-G-016', 'entities are visible only to the session in use when they were created',
    sessionScopedEntities,
    /search_entities\("Alice Shared"\) in the context of gold-agent-10, created in the context of gold-agent-1: expected "Alice Shared" .* among the results, got \[\]/],
  ['SCN-G-016', 'search_entities finds nothing',
    mapResponse('search_entities', () => []),
    /search_entities\("Alice Shared"\) in the context of gold-agent-10/],
  ['SCN-G-017', 'list_traces matches session_id by prefix',
    intercept(async (next, method, body) => {
      if (method !== 'list_traces' || body.session_id == null) return next(method, body);
      const res = await next(method, { ...body, session_id: undefined });
      return { status: 200, body: (res.body as any[]).filter((t) => t.session_id.startsWith(body.session_id)) };
    }),
    /list_traces\(session_id="gold-agent-1"\): expected exactly \(any order\) \["Agent 1 task".*"Agent 1 second task".*\], got .*"Agent 10 task"/],
  ['SCN-G-017', 'list_traces ignores session_id',
    mapRequest('list_traces', (b) => ({ ...b, session_id: undefined })),
    /list_traces\(session_id="gold-agent-1"\): expected exactly/],
  ['SCN-G-018', 'entities are visible only to the session in use when they were created',
    sessionScopedEntities,
    /get_entity_by_name\("SharedCorp"\) in the context of gold-agent-1: the shared entity's id: expected "[0-9a-f-]+", got null/],
  ['SCN-G-018', 'get_conversation returns the messages of every session',
    stateful<any[]>(() => [], async (all, next, method, body) => {
      const res = await next(method, body);
      if (method === 'add_message' && res.status === 200) all.push(res.body);
      if (method !== 'get_conversation' || res.status !== 200) return res;
      return { status: 200, body: { ...(res.body as any), messages: all } };
    }),
    /get_conversation\(gold-agent-1\) with one message in each of two sessions: expected \["Agent one speaking".*, got \["Agent one speaking".*"Agent ten speaking"/],
  ['SCN-G-018', 'search_messages ignores session_id',
    mapRequest('search_messages', (b) => ({ ...b, session_id: undefined })),
    /search_messages\("Agent speaking", session_id=gold-agent-1, limit=10, threshold=0\) with an equally matching message in the other session: expected exactly \(any order\) \["Agent one speaking".*, got/],
];

/** After a merge, the source's name no longer leads anywhere (get_entity_by_name answers null). */
class ForgetsMergedNames extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const target = this.entities.get(p.target_id);
    const aliases = target ? [...target.aliases] : [];
    const merged = super.merge_duplicate_entities(p);
    if (target) target.aliases = aliases;
    return merged;
  }
}

export const VALID: ValidRow[] = [
  ['the name of a merged-away entity is forgotten', { store: new ForgetsMergedNames() }],
  ['get_similar_traces answers every trace, the matches first (vector-style top-k)', intercept(async (next, method, body) => {
    const res = await next(method, body);
    if (method !== 'get_similar_traces' || res.status !== 200) return res;
    const hits = res.body as any[];
    const rest = ((await next('list_traces', {})).body as any[])
      .filter((t) => !hits.some((h) => h.id === t.id) && (body.success_only !== true || t.success === true));
    const all = [...hits, ...rest];
    return { status: 200, body: body.limit == null ? all : all.slice(0, body.limit) };
  })],
  ['add_relationship omits properties when none were sent', mapResponse('add_relationship', (r, req) => {
    if (req.properties == null) delete r.properties;
    return r;
  })],
];
