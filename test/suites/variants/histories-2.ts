// Faulty variants for the history, namesake, limit × filter and graph-shape cells of the coverage
// matrix (issue 34, docs/coverage.md) that no fixed scenario covered, written before the scenarios
// that catch them (suites/*/histories-2.ts). Each keeps every other rule: it changes only what a
// read cache keyed by the request, a case-folding key, a limit applied before a filter, or a walk
// that mistakes a diamond for a cycle would change.
import { MemoryStore, type Params } from '../../../src/servers/bridge/index.js';
import type { Entity } from '../../../src/protocols/bridge/index.js';
import type { FaultRow } from '../../harness/power.js';
import type { V } from './platinum-base.js';
import { compose, mapRequest, type Dispatch, type Wrap } from '../../harness/variants.js';
import { sessionsOf } from './bronze-b.js';

/**
 * A read answered from a cache keyed by its request (method and parameters, limit included),
 * emptied by clear_all_data only: no write invalidates it.
 */
const cachedRead = (...methods: string[]): Wrap => (next: Dispatch) => {
  const cache = new Map<string, Awaited<ReturnType<Dispatch>>>();
  return async (m, body) => {
    if (m === 'clear_all_data') cache.clear();
    if (!methods.includes(m)) return next(m, body);
    const key = `${m} ${JSON.stringify(body)}`;
    const hit = cache.get(key);
    if (hit !== undefined) return structuredClone(hit);
    const res = await next(m, body);
    if (res.status === 200) cache.set(key, structuredClone(res));
    return res;
  };
};

/** clear_session clears every session whose id equals the one sent up to case (a case-insensitive key column). */
const caseFoldingClear: Wrap = (next) => async (m, body: any) => {
  if (m !== 'clear_session' || typeof body?.session_id !== 'string') return next(m, body);
  const res = await next(m, body);
  const fold = body.session_id.toLowerCase();
  for (const s of await sessionsOf(next)) if (s.session_id !== body.session_id && s.session_id.toLowerCase() === fold) await next('clear_session', { session_id: s.session_id });
  return res;
};

/** `method`'s session_id filter compares ids up to case: the answer is that of every session whose id folds to the same, limit applied after. */
const caseFoldingFilter = (method: 'search_messages' | 'list_traces'): Wrap => (next) => async (m, body: any) => {
  if (m !== method || typeof body?.session_id !== 'string') return next(m, body);
  const first = await next(m, body);
  if (first.status !== 200) return first;
  const fold = body.session_id.toLowerCase();
  const whole = await next(m, { ...body, session_id: undefined, limit: undefined });
  const items = (whole.body as { session_id?: string; id: string }[]).filter((x) => {
    // search_messages answers messages (no session_id): keep those of any session that folds the same
    if (x.session_id !== undefined) return x.session_id.toLowerCase() === fold;
    return true;
  });
  if (method === 'search_messages') {
    const sessions = (await sessionsOf(next)).filter((s) => s.session_id.toLowerCase() === fold).map((s) => s.session_id);
    const keep = new Set<string>();
    for (const s of sessions) for (const x of ((await next(m, { ...body, session_id: s, limit: undefined })).body as { id: string }[])) keep.add(x.id);
    return { ...first, body: items.filter((x) => keep.has(x.id)).slice(0, body.limit ?? undefined) };
  }
  return { ...first, body: items.slice(0, body.limit ?? undefined) };
};

/** get_similar_traces(success_only=true, limit) keeps the `limit` most similar traces first, then drops the unsuccessful ones. */
const similarLimitBeforeFilter: Wrap = (next) => async (m, body: any) => {
  if (m !== 'get_similar_traces' || body?.success_only !== true || body?.limit == null) return next(m, body);
  const res = await next(m, { ...body, success_only: false });
  if (res.status !== 200) return res;
  return { ...res, body: (res.body as { success?: boolean | null }[]).filter((t) => t.success === true) };
};

/**
 * get_related_entities guards against endless walks by giving up when an entity is reached a second
 * time from another entity within depth: a diamond (A → B → D, A → C → D) is taken for a cycle and
 * the walk answers [].
 */
class WalkGivesUpOnDiamonds extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    const all = super.get_related_entities(p);
    const edges = this.relationships.filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type);
    const near = (id: string) => edges.flatMap((r) => (r.source_id === id ? [r.target_id] : r.target_id === id ? [r.source_id] : [])).filter((x) => x !== id);
    const parents = new Map<string, Set<string>>();
    let frontier = [p.entity_id];
    const seen = new Set(frontier);
    for (let level = 0; level < (p.depth ?? 1); level++) {
      const next: string[] = [];
      for (const from of frontier) {
        for (const to of near(from)) {
          if (to === p.entity_id) continue;
          const got = parents.get(to) ?? new Set<string>();
          got.add(from);
          parents.set(to, got);
          if (got.size >= 2) return [];
          if (!seen.has(to)) {
            seen.add(to);
            next.push(to);
          }
        }
      }
      frontier = next;
    }
    return all;
  }
}

/** A second relationship between the same two entities is taken for the first: add_relationship answers the stored one and keeps its type. */
const parallelEdgesCollapse: Wrap = (next) => {
  const pairs = new Map<string, unknown>();
  return async (m, body: any) => {
    if (m === 'clear_all_data') pairs.clear();
    if (m !== 'add_relationship') return next(m, body);
    const key = `${body?.source_id} ${body?.target_id}`;
    const known = pairs.get(key);
    if (known !== undefined) return { status: 200, body: { ...(known as object), properties: body?.properties ?? {} } };
    const res = await next(m, body);
    if (res.status === 200) pairs.set(key, res.body);
    return res;
  };
};

const UUID = '[0-9a-f-]{36}';

/** Every string of a request, at any depth, passed through `edit` (what a storage layer does to every text it keeps). */
const everyString = (edit: (s: string) => string, methods: readonly string[]): Wrap => (next) => (m, body) => {
  const walk = (v: unknown): unknown => (typeof v === 'string' ? edit(v) : Array.isArray(v) ? v.map(walk) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) : v);
  return next(m, methods.includes(m) ? walk(body) : body);
};
const cutAtNul = (s: string) => s.split('\u0000')[0]!;
const stripC1 = (s: string) => s.replace(/[\u0080-\u009f]/g, '');
const SILVER_WRITES = ['add_entity', 'add_preference', 'add_fact', 'add_step', 'record_tool_call', 'complete_trace'];

/** search_preferences(category, limit) keeps the `limit` best matches of every category first, then drops those of other categories. */
const preferencesLimitBeforeCategory: Wrap = (next) => async (m, body: any) => {
  if (m !== 'search_preferences' || body?.category == null || body?.limit == null) return next(m, body);
  const res = await next(m, { ...body, category: undefined });
  if (res.status !== 200) return res;
  return { ...res, body: (res.body as { category: string }[]).filter((p) => p.category === body.category) };
};

/** get_entity_graph keeps one edge per (source, target) pair: parallel relationships of other types are dropped from the view. */
const graphEdgePerPair: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== 'get_entity_graph' || res.status !== 200) return res;
  const g = res.body as { edges: { source: string; target: string }[] };
  const seen = new Set<string>();
  return { ...res, body: { ...g, edges: g.edges.filter((x) => { const k = `${x.source} ${x.target}`; if (seen.has(k)) return false; seen.add(k); return true; }) } };
};

/** get_entity_by_name compares names up to case and answers the first entity so found (an exact match not preferred). */
class NameLookupFoldsCase extends MemoryStore {
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const hit = [...this.entities.values()].find((r) => r.entity.name.toLowerCase() === p.name.toLowerCase());
    return hit === undefined ? super.get_entity_by_name(p) : structuredClone(hit.entity);
  }
}

/** get_related_entities answers each neighbour as the entity get_entity_by_name finds for its name (ends resolved by name). */
const relatedByName: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== 'get_related_entities' || res.status !== 200) return res;
  const out = [];
  for (const e of res.body as { name: string }[]) out.push((await next('get_entity_by_name', { name: e.name })).body ?? e);
  return { ...res, body: out };
};

export const FAULTS: FaultRow[] = [
  ['SCN-S-167', 'get_entity_by_name compares names up to case and answers the first so found', { store: new NameLookupFoldsCase() },
    /get_entity_by_name\(name="Tern Lake"\) with "tern lake", "Tern Lake", "TERN LAKE", "Tern Lake " stored \(SPEC-3\.6\.1.*\): expected the entity added as "Tern Lake" \([0-9a-f-]{36}\), got "tern lake"/],
  ['SCN-S-167', 'entity names are trimmed', compose(mapRequest('add_entity', (b) => ({ ...b, name: b.name.trim() })), mapRequest('get_entity_by_name', (b) => ({ ...b, name: b.name.trim() }))),
    /get_entity_by_name\(name="Tern Lake "\) .*\(SPEC-3\.6\.1.*\): expected the entity added as "Tern Lake " \([0-9a-f-]{36}\), got "Tern Lake" \(/],
  ['SCN-G-164', 'get_related_entities resolves each neighbour by its name', relatedByName,
    /get_related_entities\(<Keeper>, depth=1\) with Keeper -KNOWS-> "Harbin Twin" \(PERSON\) .*\(SPEC-3\.7\.1.*\): the PERSON [0-9a-f-]{36} is missing; got \["Harbin Twin \(ORGANIZATION\)"\]/],
  ['SCN-B-164', 'message content is stored as a C string (cut at the first NUL)', everyString(cutAtNul, ['add_message']),
    /add_message\(session_id="values-nul", content="before\\u0000after .*"\) answer \(SPEC-1\.1\.13.*\): expected "before\\u0000after .*", got "before"$/],
  ['SCN-B-164', 'C1 control characters are stripped from message content', everyString(stripC1, ['add_message']),
    /add_message\(session_id="values-nul", .*\(SPEC-1\.1\.13.*\): expected ".*\\u0085next-line.*", got "before\\u0000after next-line apc  end"$/],
  ['SCN-S-165', 'Silver texts are stored as C strings (cut at the first NUL)', everyString(cutAtNul, SILVER_WRITES),
    /get_entity_by_name\("Values Entity"\) description after add_entity\(description=<NUL, C1, NFD, astral, edge spaces>\) \(SPEC-3\.1\.2: a description given is stored\): expected " description: nul\\u0000here .*", got " description: nul"$/],
  ['SCN-S-165', 'C1 control characters are stripped from step fields', everyString(stripC1, ['add_step']),
    /get_trace_with_steps\(<the trace>\) thought, action and observation of four steps .*\(SPEC-4\.5\.1: the whole trace comes back with every step\)/],
  ['SCN-S-165', 'tool-call argument numbers are stored as 32-bit floats', mapRequest('record_tool_call', (b) => ({ ...b, arguments: Object.fromEntries(Object.entries(b.arguments ?? {}).map(([k, v]) => [k, typeof v === 'number' ? Math.fround(v) : v])) })),
    /get_trace_with_steps\(<the trace>\) tool call .*\(SPEC-4\.5\.2: each step comes back with its tool calls, result and duration stored\): expected .*"tenth":0\.1,.*got .*"tenth":0\.10000000149011612/],
  ['SCN-S-165', 'spaces at the edges of a tool call\'s error are trimmed', mapRequest('record_tool_call', (b) => ({ ...b, error: typeof b.error === 'string' ? b.error.trim() : b.error })),
    /get_trace_with_steps\(<the trace>\) tool call .*\(SPEC-4\.5\.2.*\): expected .*"error":" error: nul.*got .*"error":"error: nul/],
  ['SCN-S-165', 'complete_trace(success=false) stores no verdict (success or None)', mapRequest('complete_trace', (b) => (b.success === false ? { ...b, success: undefined } : b)),
    /get_trace_with_steps\(<the trace>\) outcome and success after complete_trace\(.*success=false\) \(SPEC-4\.4\.1.*\): expected .*"success":false\}, got .*"success":null\}/],
  ['SCN-S-166', 'search_preferences applies limit before category', preferencesLimitBeforeCategory,
    /search_preferences\(query="Prefers tabs over spaces", category="style", limit=2\) with 3 preferences .*\(SPEC-3\.5\.2.*filter before limit\): expected the preferences of "style" \(at least one, none of another category\), got 0/],
  ['SCN-B-160', 'get_conversation answers from a cache keyed by its request, which no write invalidates', cachedRead('get_conversation'),
    new RegExp(`get_conversation\\(session_id="rwr-conversation", limit=10\\) after delete_message\\(<m1>\\), the same read having answered m0, m1, m2 before \\(SPEC-2\\.5\\.2.*\\): expected \\["m0","m2"\\], got \\["m0","m1","m2"\\]`)],
  ['SCN-B-161', 'list_sessions answers from a cache keyed by its request, which no write invalidates', cachedRead('list_sessions'),
    /list_sessions\(limit=100\) after add_message to the new session "rwr-sessions-b", the same list having been read before \(SPEC-2\.4\.1.*\): "rwr-sessions-b" is not listed/],
  ['SCN-B-162', 'search_messages answers from a cache keyed by its request, which no write invalidates', cachedRead('search_messages'),
    new RegExp(`search_messages\\(query="wombat", session_id="rwr-search", limit=10, threshold=0\\) after delete_message\\(<"the wombat digs">\\), the same search having found it before \\(SPEC-1\\.1\\.4.*\\): the deleted message ${UUID} is still found`)],
  ['SCN-B-163', 'clear_session clears every session whose id differs only in case', caseFoldingClear,
    /get_conversation\(session_id="Case-Clear"\) after clear_session\(session_id="case-clear"\), with .* holding one message each \(SPEC-2\.6\.2.*\): expected \["only in Case-Clear"\], got \[\]/],
  ['SCN-B-163', 'search_messages filters on session ids compared up to case', caseFoldingFilter('search_messages'),
    /search_messages\(query="heron", session_id="Case-Search", limit=10, threshold=0\) with "case-search" and "CASE-SEARCH" holding a message each \(SPEC-2\.3\.2.*\): messages of another session: \["heron in case-search","heron in CASE-SEARCH"\]/],
  ['SCN-S-160', 'get_entity_by_name answers from a cache keyed by its request, which no write invalidates', cachedRead('get_entity_by_name'),
    /get_entity_by_name\(name="Quillon Vane"\) after add_entity\("Quillon Vane"\), the same lookup having answered null before \(SPEC-3\.6\.1.*\): expected the new entity [0-9a-f-]{36}, got null/],
  ['SCN-S-161', 'get_trace_with_steps answers from a cache keyed by its request, which no write invalidates', cachedRead('get_trace_with_steps'),
    /get_trace_with_steps\(<the trace>\) after add_step, the same read having answered 0 step\(s\) before \(SPEC-4\.5\.1.*\): the new step [0-9a-f-]{36} is missing/],
  ['SCN-S-162', 'list_traces answers from a cache keyed by its request, which no write invalidates', cachedRead('list_traces'),
    /list_traces\(session_id="rwr-traces", limit=10\) after start_trace, the same list having answered 0 trace\(s\) before \(SPEC-4\.6\.1.*\): the new trace [0-9a-f-]{36} is missing/],
  ['SCN-S-163', 'get_tool_stats answers from a cache keyed by its request, which no write invalidates', cachedRead('get_tool_stats'),
    /get_tool_stats\(tool_name="tck_rwr_tool"\) after a second record_tool_call, the same read having counted 1 call before \(SPEC-4\.7\.1.*\): expected total_calls 2, successful_calls 1, failed_calls 1, got total_calls 1, successful_calls 1, failed_calls 0/],
  ['SCN-S-164', 'list_traces filters on session ids compared up to case', caseFoldingFilter('list_traces'),
    /list_traces\(session_id="Trace-Case", limit=10\) with "trace-case" and "TRACE-CASE" holding a trace each \(SPEC-4\.6\.2.*\): traces of another session: \["trace-case","TRACE-CASE"\]/],
  ['SCN-G-160', 'get_related_entities answers from a cache keyed by its request, which no write invalidates', cachedRead('get_related_entities'),
    /get_related_entities\(<"Merida Vale">, depth=1\) after merging "M\. Vale" into it, the same read having answered \[\] before \(SPEC-5\.3\.2.*\): "Vale Foundry" \(the source's neighbour\) is missing/],
  ['SCN-G-160', 'search_entities answers from a cache keyed by its request, which no write invalidates', cachedRead('search_entities'),
    /search_entities\(query="Vale", limit=10\) after merging "M\. Vale" into "Merida Vale", the same search having listed both before \(SPEC-5\.3\.1.*\): the merged-away source [0-9a-f-]{36} is still listed/],
  ['SCN-G-160', 'get_entity_by_name answers from a cache keyed by its request, which no write invalidates', cachedRead('get_entity_by_name'),
    /get_entity_by_name\(name="Merida Vale"\) after merge_duplicate_entities\(canonical_name="Merida Vale \(canonical\)"\), the same lookup having been made before: canonical_name: expected "Merida Vale \(canonical\)", got (null|undefined)/],
  ['SCN-G-161', 'get_similar_traces answers from a cache keyed by its request, which no write invalidates', cachedRead('get_similar_traces'),
    /get_similar_traces\(task="Calibrate the orbital telescope mirrors", limit=5, success_only=true\) after complete_trace\(success=true\), the same search having answered 0 trace\(s\) before \(SPEC-5\.4\.1.*\): the now successful trace [0-9a-f-]{36} is missing/],
  ['SCN-G-162', 'get_similar_traces applies limit before success_only', similarLimitBeforeFilter,
    /get_similar_traces\(task="Rebalance the warehouse shelving plan", limit=2, success_only=true\) with 3 failed traces of that very task and 2 successful ones of a task one word longer \(SPEC-5\.4\.1.*filter before limit\): expected successful traces \(at least one of the 2, no other\), got 0/],
  ['SCN-G-163', 'get_related_entities gives up (answers []) when an entity is reached twice within depth, taking a diamond for a cycle', { store: new WalkGivesUpOnDiamonds() },
    /get_related_entities\(<A>, depth=2\) over the diamond A → B → D, A → C → D \(SPEC-3\.7\.1.*\): missing \["B","C"\]; got \[\]/],
  ['SCN-G-163', 'a second relationship between the same two entities is taken for the first (its type lost)', parallelEdgesCollapse,
    /get_related_entities\(<A>, relationship_type="MENTORS", depth=1\) with A -KNOWS-> B and A -MENTORS-> B \(SPEC-5\.2\.3.*\): expected B, got \[\]/],
];

const CONV = '[0-9a-f]{8}…';

/** get_entity_graph collapses SAME_AS chains to their end: A -> B, B -> C is shown as A -> C, B -> C. */
const sameAsChainsCollapsed: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== 'get_entity_graph' || res.status !== 200) return res;
  const g = res.body as { edges: { source: string; target: string; type: string }[] };
  const next1 = new Map(g.edges.filter((x) => x.type === 'SAME_AS').map((x) => [x.source, x.target]));
  const end = (id: string) => {
    let at = id;
    for (let i = 0; i < 10 && next1.has(at); i++) at = next1.get(at)!;
    return at;
  };
  return { ...res, body: { ...g, edges: g.edges.map((x) => (x.type === 'SAME_AS' ? { ...x, target: end(x.source) } : x)) } };
};

/**
 * get_entity_history answers from a mention index that delete_conversation does not clean: every
 * mention it ever answered stays listed (a deleted conversation's messages included).
 */
const keepsMentionsOfDeleted = (): Wrap => (next) => {
  const seen = new Map<string, { message_id?: string }[]>();
  return async (m, body: any) => {
    if (m === 'clear_all_data') seen.clear();
    const res = await next(m, body);
    if (m !== 'get_entity_history' || res.status !== 200) return res;
    const answer = res.body as { mentions: { message_id?: string }[] };
    const known = seen.get(body.entity_id) ?? [];
    for (const x of answer.mentions) if (!known.some((k) => k.message_id === x.message_id)) known.push(x);
    seen.set(body.entity_id, known);
    return { ...res, body: { ...answer, mentions: structuredClone(known) } };
  };
};

/** The Platinum reads answered from a cache keyed by the request (the proof runs them on the hosted reference store). */
export const PLATINUM_FAULTS: FaultRow<V>[] = [
  ['SCN-P-160', 'get_entity answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_entity') },
    /get_entity\([0-9a-f]{8}…\) after update_entity\(name="Marisol Reed"\), the same read having answered "Corvina Reed" before \(SPEC-V3-update_entity.*\): got name "Corvina Reed"/],
  ['SCN-P-160', 'search_entities answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('search_entities') },
    /search_entities\(query="Marisol", limit=10\) after update_entity renamed "Corvina Reed" to "Marisol Reed", the same search having answered 0 entit\(ies\) before \(SPEC-3\.4\.1.*\): [0-9a-f]{8}… is missing/],
  ['SCN-P-160', 'get_entity_by_name answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_entity_by_name') },
    /get_entity_by_name\(name="Marisol Reed"\) after update_entity renamed "Corvina Reed" to it, the same lookup having answered null before \(SPEC-3\.6\.1.*\): got null/],
  ['SCN-P-160', 'list_entities answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('list_entities') },
    /list_entities\(type="PERSON", limit=100\) after add_entity\("Corvina Tide", PERSON\), the same list having answered 1 entit\(ies\) before \(SPEC-V3-list_entities.*\): [0-9a-f]{8}… is missing/],
  ['SCN-P-160', 'get_entity_graph answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_entity_graph') },
    /get_entity_graph\(\) after merge_entities\(source=<Corvina Tide II>, target=<Corvina Tide>\), the same graph having been read before \(SPEC-V5-5\.3\.3.*\): no SAME_AS edge/],
  ['SCN-P-160', 'get_related_entities answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_related_entities') },
    /after delete_entity\(<Marisol Reed>\), each read having been made before with the same arguments \(SPEC-V3-delete_entity.*\): get_related_entities\(<Reed Lighthouse>, depth=1\) lists it \(1 entit\(ies\) before\)$/],
  ['SCN-P-161', 'get_context answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_context') },
    new RegExp(`get_context\\(${CONV}\\) after bulk_add_messages of two more messages, the same read having answered 2 recent message\\(s\\) before \\(SPEC-V5-5\\.2\\.1\\): recent_messages must hold the latest one`)],
  ['SCN-P-161', 'get_entity_history answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_entity_history') },
    /get_entity_history\(<Ysolde Harbour>\) after bulk_add_messages of "We sailed into Ysolde Harbour at dawn\." to [0-9a-f]{8}…, the same read having answered 0 mention\(s\) before \(SPEC-V5-5\.3\.2.*\): no mention in that conversation/],
  ['SCN-P-161', 'get_conversation_metadata answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_conversation_metadata') },
    /get_conversation_metadata\([0-9a-f]{8}…\) after delete_conversation, the same read having answered it before: expected an error \(400 or 500 \{"error"\}\) or null, got the deleted item itself/],
  ['SCN-P-161', 'delete_conversation keeps the mentions of the deleted messages in get_entity_history', { wrap: keepsMentionsOfDeleted() },
    /get_entity_history\(<Ysolde Harbour>\) after delete_conversation\([0-9a-f]{8}…\), the same read having listed its mention before \(SPEC-V3-delete_conversation.*\): 1 mention\(s\) of the deleted conversation are still listed/],
  ['SCN-P-162', 'cypher_query answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('cypher_query') },
    /cypher_query\("MATCH \(n\) WHERE n\.name = \$name RETURN count\(n\) AS c", name "Graph A"\) after add_entity\("Graph A"\), the same query having answered 0 before \(SPEC-V5-5\.5\.1a.*\): expected 1, got 0/],
  ['SCN-P-162', 'get_entity_graph lists one edge per pair of entities (the first relationship between them)', { wrap: graphEdgePerPair },
    /get_entity_graph\(\) with the diamond .*: edges missing: A -MENTORS-> B;/],
  ['SCN-P-162', 'a second relationship between the same two entities is taken for the first (its type lost)', { wrap: parallelEdgesCollapse },
    /get_entity_graph\(\) with the diamond .*\(SPEC-V3-get_entity_graph: every entity and every edge; SPEC-5\.2\.3.*\): edges missing: A -MENTORS-> B;/],
  ['SCN-P-163', 'get_trace_by_conversation answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('get_trace_by_conversation') },
    /get_trace_by_conversation\([0-9a-f]{8}…\) after record_tool_call on its step, the same read having answered 0 tool call\(s\) before \(SPEC-V5-5\.4\.3.*\): the new call [0-9a-f]{8}… is missing/],
  ['SCN-P-163', 'explain_step answers from a cache keyed by its request, which no write invalidates', { wrap: cachedRead('explain_step') },
    /explain_step\([0-9a-f]{8}…\) after record_tool_call on it, the same read having answered 0 tool call\(s\) before \(SPEC-V5-5\.4\.2.*\): the new call [0-9a-f]{8}… is missing/],
  ['SCN-P-162', 'get_entity_graph collapses SAME_AS chains to their end', { wrap: sameAsChainsCollapsed },
    /get_entity_graph\(\) after merge_entities\(M1 into M2\) then merge_entities\(M2 into M3\) \(SPEC-V5-5\.3\.3.*\): missing M1 -SAME_AS-> M2;/],
  ['SCN-P-164', 'update_entity and record_step store texts as C strings (cut at the first NUL)', { wrap: everyString(cutAtNul, ['update_entity', 'record_step']) },
    /get_entity\([0-9a-f]{8}…\) after update_entity\(name=<NUL, C1, NFD, astral, edge spaces>, description=<the same>\) \(SPEC-V3-update_entity, SPEC-V3-get_entity\): expected \{"name":" name: nul\\u0000here .*, got \{"name":" name: nul","description":" description: nul"\}/],
  ['SCN-P-164', 'C1 control characters are stripped from reasoning steps', { wrap: everyString(stripC1, ['record_step']) },
    /list_steps\([0-9a-f]{8}…\) after record_step\(reasoning, action_taken, result = <NUL, C1, NFD, astral, edge spaces>\) \(SPEC-V5-5\.4\.1, SPEC-V3-list_steps\): expected .*\\u0085nel.*, got .*here nel/],
];
