// The variants that prove the power of the Silver scenarios SCN-S-001 … SCN-S-067 and SCN-S-101 …
// SCN-S-103 (../silver.test.ts): faulty variants, each breaking exactly the rule one scenario
// checks, and valid variants making other allowed choices.
import type { BridgeResponse } from '../../../src/servers/bridge/index.js';
import { compose, mapAnswers, mapRequest, mapResponse, type Dispatch, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';
import { bronzeOnly, nullAs404 } from './bronze-b.js';

const FIXED_ID = '00000000-0000-4000-8000-0000000000aa';
const FAR_FUTURE = '2999-01-01T00:00:00.000Z';

// ------------------------------------------------------------------ building blocks of variants

/** Keeps the 200 answers of `method` (with their requests) for the wrap `inner`; emptied by clear_all_data. */
function tracking(method: string, inner: (seen: { req: any; res: any }[]) => Wrap): Wrap {
  return (next, store) => {
    const seen: { req: any; res: any }[] = [];
    const recorder: Dispatch = async (m, body) => {
      if (m === 'clear_all_data') seen.length = 0;
      const res = await next(m, body);
      if (m === method && res.status === 200) seen.push({ req: body, res: res.body });
      return res;
    };
    return inner(seen)(recorder, store);
  };
}

/** `method` answers with `replace(request, answer, next)`, when that gives something. */
const replaceAnswer = (
  method: string,
  replace: (req: any, res: BridgeResponse, next: Dispatch) => BridgeResponse | undefined | Promise<BridgeResponse | undefined>,
): Wrap => (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== method || res.status !== 200) return res;
  return (await replace(body, res, next)) ?? res;
};

const ok = (body: unknown): BridgeResponse => ({ status: 200, body });
const notFound400 = (method: string): Wrap =>
  replaceAnswer(method, (_req, res) => (res.body === null ? { status: 400, body: { error: 'not found' } } : undefined));
const reject = (method: string, when: (req: any) => boolean): Wrap =>
  (next) => (m, body: any) => (m === method && when(body) ? { status: 400, body: { error: `unsupported ${method} request` } } : next(m, body));
/** `method` answers a fabricated item instead of [] (a "sample" or "fallback" answer). */
const ghostWhenEmpty = (method: string, ghost: unknown): Wrap =>
  replaceAnswer(method, (_req, res) => ((res.body as unknown[]).length === 0 ? ok([ghost]) : undefined));
const storeAs = (method: string, field: string, edit: (v: any) => unknown): Wrap =>
  mapRequest(method, (b) => ({ ...b, [field]: edit(b[field]) }));
const answerAs = (method: string, field: string, edit: (v: any, req: any) => unknown): Wrap =>
  mapResponse(method, (b, req) => ({ ...b, [field]: edit(b[field], req) }));
const dropParam = (method: string, param: string): Wrap => mapRequest(method, (b) => ({ ...b, [param]: undefined }));

const GHOST_ENTITY = { id: FIXED_ID, name: 'Sample', type: 'OBJECT', created_at: '2024-01-01T00:00:00Z' };
const GHOST_PREFERENCE = { id: FIXED_ID, category: 'general', preference: 'Sample preference' };
const GHOST_TRACE = { id: FIXED_ID, session_id: 'default', task: 'Sample', steps: [], started_at: '2024-01-01T00:00:00Z' };
const ZERO_STATS = { name: 'search', total_calls: 0, successful_calls: 0, failed_calls: 0, success_rate: 0, avg_duration_ms: null };

/** Every step of every trace an answer holds (complete_trace, get_trace_with_steps, list_traces). */
function stepsOf(body: any): any[] {
  if (body === null || typeof body !== 'object') return [];
  if (Array.isArray(body)) return body.flatMap(stepsOf);
  return Array.isArray(body.steps) ? body.steps : [];
}
const TRACE_READS = ['start_trace', 'complete_trace', 'get_trace_with_steps', 'list_traces', 'get_similar_traces'];
/** Edits every step in every answer that carries one (add_step and the trace reads). */
const everyStep = (edit: (s: any) => void): Wrap => compose(
  mapResponse('add_step', (s) => (edit(s), s)),
  ...TRACE_READS.map((m) => mapResponse(m, (b) => (stepsOf(b).forEach(edit), b))),
);
/** Edits the steps list of get_trace_with_steps. */
const readSteps = (edit: (steps: any[], trace: any) => any[]): Wrap =>
  mapResponse('get_trace_with_steps', (t) => (t === null ? t : { ...t, steps: edit(t.steps, t) }));

/** Removes null values at every depth (a store that cannot hold nulls in maps). */
function stripNulls(v: any): any {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, stripNulls(x)]));
  }
  return v;
}

/** get_entity_by_name resolves names by prefix, oldest entity first. */
const prefixLookup: Wrap = tracking('add_entity', (seen) => replaceAnswer('get_entity_by_name', (req) => {
  const hit = seen.find((e) => e.res.name.startsWith(req.name));
  return ok(hit ? hit.res : null);
}));

/**
 * get_related_entities follows an incoming relationship from the wrong relationship: for the k-th
 * relationship that ends at the entity, it answers the source of the relationship made before it.
 */
const incomingOffByOne: Wrap = (next) => {
  const made: { source_id: string; target_id: string }[] = [];
  const byId = new Map<string, unknown>();
  return async (m, body: any) => {
    if (m === 'clear_all_data') {
      made.length = 0;
      byId.clear();
    }
    const res = await next(m, body);
    if (res.status !== 200) return res;
    if (m === 'add_entity') byId.set((res.body as any).id, res.body);
    if (m === 'add_relationship') made.push({ source_id: body.source_id, target_id: body.target_id });
    if (m !== 'get_related_entities') return res;
    const wrong = made.flatMap((r, k) => (r.target_id === body.entity_id && k > 0 ? [byId.get(made[k - 1]!.source_id)] : [])).filter((e) => e !== undefined);
    return ok([...(res.body as any[]).filter((e) => !made.some((r) => r.target_id === body.entity_id && r.source_id === e.id)), ...wrong]);
  };
};

/** get_related_entities answers every other entity. */
const relatedIsEveryone: Wrap = tracking('add_entity', (seen) => replaceAnswer('get_related_entities', (req) =>
  ok(seen.map((e) => e.res).filter((e) => e.id !== req.entity_id))));

/** A search that falls back to the first `limit` items when nothing matches (nearest neighbours, no cut-off). */
const fallbackToAll = (add: string, search: string): Wrap => tracking(add, (seen) => replaceAnswer(search, (req, res) =>
  ((res.body as unknown[]).length === 0 ? ok(seen.map((x) => x.res).slice(0, req.limit ?? undefined)) : undefined)));

/** The second write with the same `key` answers the id of the first (an upsert on that key). */
const upsertBy = (method: string, key: (req: any) => string): Wrap => {
  return (next) => {
    const first = new Map<string, string>();
    return async (m, body: any) => {
      if (m === 'clear_all_data') first.clear();
      const res = await next(m, body);
      if (m !== method || res.status !== 200) return res;
      const k = key(body);
      const id = first.get(k);
      if (id === undefined) {
        first.set(k, (res.body as any).id);
        return res;
      }
      return { ...res, body: { ...(res.body as object), id } };
    };
  };
};

/** get_tool_stats averages over every call of the tool, counting a call without duration as 0 ms. */
const averageOverAllCalls: Wrap = tracking('record_tool_call', (seen) => mapResponse('get_tool_stats', (stats: any[]) =>
  stats.map((s) => {
    const mine = seen.filter((c) => c.res.tool_name === s.name);
    return { ...s, avg_duration_ms: mine.reduce((sum, c) => sum + (c.res.duration_ms ?? 0), 0) / mine.length };
  })));

// ------------------------------------------------------------------ faulty variants, one or more per scenario

const swapType = (from: string, to: string): Wrap => storeAs('add_entity', 'entity_type', (t) => (t === from ? to : t));

export const FAULTS: FaultRow[] = [
  // add_entity / get_entity_by_name
  ['SCN-S-001', 'gives entities a new id when read', answerAs('get_entity_by_name', 'id', (id) => id && FIXED_ID),
    /get_entity_by_name\("Alice Johnson"\) after add_entity: the entity written: expected/],
  ['SCN-S-001', 'stamps created_at at read time', mapResponse('get_entity_by_name', (e) => e && { ...e, created_at: FAR_FUTURE }),
    /get_entity_by_name\("Alice Johnson"\) after add_entity: the entity written: created_at: expected the instant/],
  ['SCN-S-002', 'does not store the description', dropParam('add_entity', 'description'),
    /add_entity\(name="Acme Corp", entity_type=ORGANIZATION\): name, type and description of the returned entity/],
  ['SCN-S-002', 'loses the description on the read path', answerAs('get_entity_by_name', 'description', () => null),
    /get_entity_by_name\("Acme Corp"\) after add_entity: the entity written/],
  ['SCN-S-003', 'stores PERSON as OBJECT', swapType('PERSON', 'OBJECT'), /add_entity\(name="Bob", entity_type=PERSON\): name, type/],
  ['SCN-S-004', 'stores ORGANIZATION as OBJECT', swapType('ORGANIZATION', 'OBJECT'), /add_entity\(name="Acme", entity_type=ORGANIZATION\): name, type/],
  ['SCN-S-005', 'stores LOCATION as OBJECT', swapType('LOCATION', 'OBJECT'), /add_entity\(name="San Francisco", entity_type=LOCATION\): name, type/],
  ['SCN-S-005', 'reads LOCATION back as EVENT', answerAs('get_entity_by_name', 'type', (t) => (t === 'LOCATION' ? 'EVENT' : t)),
    /get_entity_by_name\("San Francisco"\) after add_entity: the entity written/],
  ['SCN-S-006', 'stores EVENT as OBJECT', swapType('EVENT', 'OBJECT'), /add_entity\(name="Launch Party", entity_type=EVENT\): name, type/],
  ['SCN-S-007', 'stores OBJECT as EVENT', swapType('OBJECT', 'EVENT'), /add_entity\(name="Laptop", entity_type=OBJECT\): name, type/],
  ['SCN-S-008', 'answers every lookup with the newest entity',
    tracking('add_entity', (seen) => replaceAnswer('get_entity_by_name', () => ok(seen.at(-1)?.res ?? null))),
    /get_entity_by_name\("Alice Johnson"\) after add_entity: the entity written/],
  ['SCN-S-008', 'answers the same id for every entity', answerAs('add_entity', 'id', () => FIXED_ID), /add_entity ×5: entity ids: .* occurs more than once/],
  ['SCN-S-040', 'answers an unset description as ""', answerAs('add_entity', 'description', (d) => d ?? ''),
    /add_entity\(name="NoDesc", entity_type=PERSON\): name, type and description/],
  ['SCN-S-040', 'reads an unset description back as ""', answerAs('get_entity_by_name', 'description', (d) => d ?? ''),
    /get_entity_by_name\("NoDesc"\) after add_entity: the entity written/],
  ['SCN-S-041', 'upserts entities by name', upsertBy('add_entity', (b) => b.name),
    /add_entity\("Mercury", LOCATION\) after add_entity\("Mercury", OBJECT\): a new entity id/],
  ['SCN-S-041', 'search keeps one entity per name', mapResponse('search_entities', (l: any[]) => l.filter((e, i) => l.findIndex((x) => x.name === e.name) === i)),
    /search_entities\("Mercury"\): the LOCATION entity named Mercury: the entity .* \("Mercury"\): expected a value, got nothing/],
  ['SCN-S-042', 'stores names NFC-normalised', storeAs('add_entity', 'name', (n: string) => n.normalize('NFC')),
    /add_entity\(name="Café de 世界.*: name, type and description/],
  ['SCN-S-042', 'looks names up NFC-normalised', storeAs('get_entity_by_name', 'name', (n: string) => n.normalize('NFC')),
    /get_entity_by_name\("Café de 世界.*\) after add_entity: the entity written: the entity .*: expected a value, got null/],
  ['SCN-S-043', 'answers a non-UUID id', answerAs('add_entity', 'id', () => 'entity-1'),
    /add_entity: response does not match the data model:\s+id: "entity-1" is not a UUID/],
  ['SCN-S-043', 'reads the entity back under another id', answerAs('get_entity_by_name', 'id', (id) => id && FIXED_ID),
    /get_entity_by_name\("UUIDCheck"\) after add_entity: the entity written/],
  ['SCN-S-018', 'looks names up by their first word', storeAs('get_entity_by_name', 'name', (n: string) => n.split(' ')[0]),
    /get_entity_by_name\("Alice Johnson"\) after add_entity: the entity written: expected/],
  ['SCN-S-018', 'looks names up by prefix', prefixLookup, /get_entity_by_name\("Alice Johnson"\) after add_entity: the entity written: expected/],
  ['SCN-S-019', 'answers 400 for an unknown name', notFound400('get_entity_by_name'), /get_entity_by_name: expected success, got 400/],
  // A 404 is "not implemented" only when a method that does not exist gets the same answer (issue 14, item 8).
  ['SCN-S-019', 'answers 404 {"error": "not found"} for an unknown name', nullAs404('get_entity_by_name'),
    /^get_entity_by_name: 404 Not Found \{"error":"not found"\}, though a method that does not exist \(tck_no_such_method\) answers 404 Not Found \{"error":"unknown method: tck_no_such_method"\}: get_entity_by_name exists, so this is a protocol error, not a missing method \(a lookup that finds nothing answers 200 null\)$/, 'error'],
  ['SCN-S-019', 'has no get_entity_by_name (it answers 404 as every unknown method does)',
    (next) => (m, b) => (m === 'get_entity_by_name' ? { status: 404, body: { error: `unknown method: ${m}` } } : next(m, b)),
    /^get_entity_by_name: not implemented: 404 Not Found \{"error":"unknown method: get_entity_by_name"\}/],
  ['SCN-S-019', 'implements Bronze only (every Silver method answers 404)', bronzeOnly, /^add_entity: not implemented: 404 Not Found/],
  ['SCN-S-019', 'looks names up by prefix', prefixLookup, /get_entity_by_name\("Alice"\) where no entity has that exact name: the lookup finds nothing: expected null/],

  // add_preference / add_fact
  ['SCN-S-009', 'search answers preferences under another id', mapResponse('search_preferences', (l: any[]) => l.map((p) => ({ ...p, id: FIXED_ID }))),
    /search_preferences\(query="Python"\): the matching preference .* written by add_preference: no such item/],
  ['SCN-S-009', 'trims the preference text', storeAs('add_preference', 'preference', (p: string) => p.slice(0, 20)),
    /add_preference\(category="language"\): category, preference and context/],
  ['SCN-S-010', 'does not store the context', dropParam('add_preference', 'context'),
    /add_preference\(category="communication"\): category, preference and context/],
  ['SCN-S-010', 'loses the context on the read path', mapResponse('search_preferences', (l: any[]) => l.map((p) => ({ ...p, context: null }))),
    /search_preferences\(query="async communication", category="communication"\): the preference read back/],
  ['SCN-S-011', 'answers the same id for every preference', answerAs('add_preference', 'id', () => FIXED_ID), /add_preference ×4: preference ids/],
  ['SCN-S-011', 'filters categories on the wrong field', mapRequest('search_preferences', (b) => ({ ...b, category: b.category && `#${b.category}` })),
    /search_preferences\(query="Prefers Python over JavaScript", category="language"\): the matching preference/],
  ['SCN-S-044', 'answers an unset context as ""', answerAs('add_preference', 'context', (c) => c ?? ''),
    /add_preference\(category="color"\): category, preference and context/],
  ['SCN-S-045', 'truncates preferences to 4096 characters', storeAs('add_preference', 'preference', (p: string) => p.slice(0, 4096)),
    /add_preference\(category="style"\): category, preference and context/],
  ['SCN-S-045', 'truncates preferences on the read path', mapResponse('search_preferences', (l: any[]) => l.map((p) => ({ ...p, preference: p.preference.slice(0, 4096) }))),
    /search_preferences\(query="detailed explanations", category="style"\): the preference read back/],
  ['SCN-S-046', 'keeps only the first preference of a category',
    tracking('add_preference', (seen) => (next) => async (m, body: any) =>
      m === 'add_preference' && seen.some((p) => p.req.category === body.category)
        ? ok({ id: FIXED_ID, category: body.category, preference: body.preference })
        : next(m, body)),
    /search_preferences\(query="pizza sushi", category="food"\): the matching preference .* no such item/],
  ['SCN-S-047', 'answers a non-UUID id', answerAs('add_preference', 'id', () => 'pref-1'), /add_preference: response does not match the data model:\s+id: "pref-1" is not a UUID/],
  ['SCN-S-012', 'swaps subject and object', mapResponse('add_fact', (f) => ({ ...f, subject: f.object, object: f.subject })),
    /add_fact\(subject="Alice Johnson", predicate="WORKS_AT", obj="Acme Corp"\): subject, predicate and object/],
  ['SCN-S-012', 'names the object "obj"', mapResponse('add_fact', ({ object, ...f }) => ({ ...f, obj: object })),
    /add_fact: response does not match the data model:\s+object: is missing/],
  ['SCN-S-013', 'answers the same id for every fact', answerAs('add_fact', 'id', () => FIXED_ID), /add_fact ×4: fact ids/],
  ['SCN-S-048', 'stores objects NFC-normalised', storeAs('add_fact', 'obj', (o: string) => o.normalize('NFC')),
    /add_fact\(subject="Café 世界.*: subject, predicate and object/],
  ['SCN-S-049', 'answers a non-UUID id', answerAs('add_fact', 'id', () => 'fact-1'), /add_fact: response does not match the data model:\s+id: "fact-1" is not a UUID/],
  ['SCN-S-050', 'upserts facts by subject', upsertBy('add_fact', (b) => b.subject),
    /add_fact\(subject="Alice"\) twice with different predicates: a new fact id/],

  // search_entities / search_preferences
  ['SCN-S-014', 'finds nothing', mapResponse('search_entities', () => []),
    /search_entities\(query="Alice Johnson", limit=10\): the entity named Alice Johnson .*: no such item/],
  ['SCN-S-014', 'answers search hits with a lower-cased name', mapResponse('search_entities', (l: any[]) => l.map((e) => ({ ...e, name: e.name.toLowerCase() }))),
    /search_entities\(query="Alice Johnson"\): the entity read back: expected/],
  ['SCN-S-015', 'ignores limit', dropParam('search_entities', 'limit'),
    /search_entities\(query="graph", limit=2\) with five matching entities: expected at most 2 item\(s\), got 5/],
  ['SCN-S-015', 'answers limit+1 entities', storeAs('search_entities', 'limit', (l) => l + 1), /expected at most 2 item\(s\), got 3/],
  ['SCN-S-051', 'answers a sample entity on an empty store', ghostWhenEmpty('search_entities', GHOST_ENTITY),
    /search_entities\(query="anything"\) with no entities stored: expected \[\], got 1/],
  ['SCN-S-052', 'falls back to every entity when nothing matches', fallbackToAll('add_entity', 'search_entities'),
    /search_entities\(query="xylophone quasar zeppelin"\) where no entity shares a word with the query: expected \[\], got 5/],
  ['SCN-S-016', 'finds nothing', mapResponse('search_preferences', () => []),
    /search_preferences\(query="Python"\): the matching preference .*: no such item/],
  ['SCN-S-017', 'ignores category', dropParam('search_preferences', 'category'),
    /search_preferences\(query="Python data analysis", category="language"\): only preferences of that category: preference "Prefers Python for data analysis" \([0-9a-f]{8}…\) belongs to category "tooling", not "language"/],
  ['SCN-S-017', 'filters category before anything can match', mapRequest('search_preferences', (b) => ({ ...b, category: b.category && b.category.toUpperCase() })),
    /search_preferences\(query="Python data analysis", category="language"\): the matching preference .*: no such item/],
  ['SCN-S-053', 'answers a sample preference on an empty store', ghostWhenEmpty('search_preferences', GHOST_PREFERENCE),
    /search_preferences\(query="anything"\) with no preferences stored: expected \[\], got 1/],
  ['SCN-S-054', 'falls back to every preference when nothing matches', fallbackToAll('add_preference', 'search_preferences'),
    /search_preferences\(query="xylophone quasar zeppelin"\) where no preference shares a word with the query: expected \[\], got 1/],

  // get_related_entities
  ['SCN-S-111', 'follows an incoming relationship to the source of the relationship made before it', incomingOffByOne, /^get_related_entities\(Bob, depth 1\) answered \[Acme, Carol, Erin\]: Carol, Erin are linked to Bob by no relationship, in either direction \(only Acme, Alice, Dave may be\)/],
  ['SCN-S-020', 'answers every other entity', relatedIsEveryone, /get_related_entities\(Alice\): expected exactly \[Acme\], got \[Acme, Bob\]/],
  ['SCN-S-020', 'answers nothing', mapResponse('get_related_entities', () => []), /get_related_entities\(Alice\): expected exactly \[Acme\], got \[\]/],
  ['SCN-S-021', 'answers every other entity', relatedIsEveryone, /get_related_entities\(Lonely\): expected exactly \[\], got \[Acme, Alice\]/],
  ['SCN-S-055', 'ignores relationship_type', dropParam('get_related_entities', 'relationship_type'),
    /get_related_entities\(Alice, relationship_type=KNOWS\): expected exactly \[Bob\], got \[Acme, Bob\]/],
  ['SCN-S-055', 'answers every related entity for a type no relationship has',
    replaceAnswer('get_related_entities', async (req, res, next) =>
      ((res.body as unknown[]).length === 0 && req.relationship_type ? next('get_related_entities', { entity_id: req.entity_id }) : undefined)),
    /get_related_entities\(Alice, relationship_type=LOCATED_AT\): expected exactly \[\], got \[Acme, Bob\]/],
  ['SCN-S-056', 'answers only the first related entity', mapResponse('get_related_entities', (l: any[]) => l.slice(0, 1)),
    /get_related_entities\(Alice\): expected exactly \[Acme, Bob, Carol\], got \[Bob\]/],
  ['SCN-S-056', 'answers an entity once per relationship', mapResponse('get_related_entities', (l: any[]) => [...l, l[0]]),
    /get_related_entities\(Alice\): expected exactly \[Acme, Bob, Carol\], got \[Acme, Bob, Bob, Carol\]/],

  // start_trace / add_step / complete_trace / get_trace_with_steps / list_traces
  ['SCN-S-022', 'completes traces as they start', mapResponse('start_trace', (t) => ({ ...t, completed_at: t.started_at })),
    /start_trace: completed_at of a trace not yet completed: expected null/],
  ['SCN-S-022', 'starts traces with success=false', answerAs('start_trace', 'success', () => false),
    /start_trace\(session_id=tck-silver-session-a\): session_id and task as sent, outcome and success unset/],
  ['SCN-S-022', 'reads started_at as the time of the read', mapResponse('get_trace_with_steps', (t) => t && { ...t, started_at: FAR_FUTURE }),
    /get_trace_with_steps: started_at: expected the instant/],
  ['SCN-S-023', 'answers the same id for every trace', answerAs('start_trace', 'id', () => FIXED_ID), /start_trace ×3: trace ids: .* occurs more than once/],
  ['SCN-S-024', 'answers steps with a foreign trace_id', answerAs('add_step', 'trace_id', () => FIXED_ID),
    /add_step\(thought, action, observation\): trace_id of the returned step: expected "[0-9a-f-]+", got "00000000-0000-4000-8000-0000000000aa"/],
  ['SCN-S-024', 'does not attach steps to the trace', readSteps(() => []),
    /get_trace_with_steps after one add_step: the steps added, in order: expected \[\{/],
  ['SCN-S-025', 'numbers every step 1', everyStep((s) => (s.step_number = 1)), /add_step ×3: step_number must strictly increase in the order steps were added, got 1, 1/],
  ['SCN-S-025', 'numbers steps downwards', everyStep((s) => (s.step_number = 100 - s.step_number)), /add_step ×3: step_number must strictly increase .* got 99, 98/],
  ['SCN-S-025', 'reads steps back in reverse', readSteps((s) => s.reverse()), /get_trace_with_steps after three add_step: the steps added, in order/],
  ['SCN-S-026', 'answers absent step fields as ""', mapResponse('add_step', (s) => ({ ...s, thought: s.thought ?? '', action: s.action ?? '', observation: s.observation ?? '' })),
    /add_step\(thought\): the fields of the returned step \(absent ones null or omitted\)/],
  ['SCN-S-026', 'reads absent step fields back as ""', readSteps((l) => l.map((s) => ({ ...s, action: s.action ?? '' }))),
    /get_trace_with_steps after a thought-only and an action-only step: the steps added/],
  ['SCN-S-057', 'stores an observation alone as the thought', mapRequest('add_step', (b) => (b.thought || b.action ? b : { ...b, thought: b.observation })),
    /add_step\(observation\): the fields of the returned step/],
  ['SCN-S-058', 'strips control characters from thoughts', storeAs('add_step', 'thought', (t?: string) => t?.replace(/[\u0000-\u001f\u007f]/g, '')),
    /add_step\(thought, action, observation\): the fields of the returned step/],
  ['SCN-S-058', 'reads observations back NFC-normalised', readSteps((l) => l.map((s) => ({ ...s, observation: s.observation?.normalize('NFC') }))),
    /get_trace_with_steps after a step with all fields: the steps added, in order/],
  ['SCN-S-059', 'numbers steps modulo 10', everyStep((s) => (s.step_number = ((s.step_number - 1) % 10) + 1)),
    /add_step ×12: step_number must strictly increase .* got 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1/],
  ['SCN-S-059', 'reads steps back sorted by their text', readSteps((l) => [...l].sort((a, b) => (a.thought < b.thought ? -1 : 1))),
    /get_trace_with_steps after twelve add_step: the steps added, in order/],
  ['SCN-S-031', 'answers a completed_at before started_at', answerAs('complete_trace', 'completed_at', () => '2000-01-01T00:00:00.000Z'),
    /complete_trace: completed_at 2000-01-01T00:00:00.000Z is before started_at/],
  ['SCN-S-031', 'answers no completed_at', answerAs('complete_trace', 'completed_at', () => null),
    /complete_trace: completed_at: expected an ISO 8601 date-time, got null/],
  ['SCN-S-031', 'does not persist the completion', mapResponse('get_trace_with_steps', (t) => t && { ...t, outcome: null, success: null, completed_at: null }),
    /get_trace_with_steps\(.*\) after complete_trace: outcome and success/],
  ['SCN-S-031', 'drops the steps when completing', readSteps((l, t) => (t.completed_at ? [] : l)), /get_trace_with_steps after complete_trace: the steps added/],
  ['SCN-S-032', 'stores success=false as null', mapRequest('complete_trace', (b) => ({ ...b, success: b.success || undefined })),
    /complete_trace\(outcome, success=false\): the completed trace: expected .*"success":false/],
  ['SCN-S-032', 'reads success=false back as null', mapResponse('get_trace_with_steps', (t) => t && { ...t, success: t.success || null }),
    /get_trace_with_steps\(.*\) after complete_trace\(success=false\)/],
  ['SCN-S-033', 'reads steps back in reverse', readSteps((s) => s.reverse()),
    /get_trace_with_steps of a trace whose steps were interleaved with another trace: the steps added, in order/],
  ['SCN-S-033', 'reads the steps of every trace', tracking('add_step', (seen) => readSteps(() => seen.map((s) => s.res))),
    /get_trace_with_steps of a trace whose steps were interleaved with another trace: the steps added, in order/],
  ['SCN-S-035', 'answers 400 for an unknown trace', notFound400('get_trace_with_steps'), /get_trace_with_steps: expected success, got 400/],
  ['SCN-S-035', 'answers 404 {"error": "not found"} for an unknown trace', nullAs404('get_trace_with_steps'),
    /^get_trace_with_steps: 404 Not Found \{"error":"not found"\}, though a method that does not exist .*: get_trace_with_steps exists, so this is a protocol error, not a missing method/, 'error'],
  ['SCN-S-035', 'answers the latest trace for an unknown id',
    replaceAnswer('get_trace_with_steps', async (_req, res, next) => {
      if (res.body !== null) return undefined;
      const all = (await next('list_traces', {})).body as unknown[];
      return ok(all.at(-1) ?? null);
    }),
    /get_trace_with_steps\(00000000-0000-4000-8000-00000000dead\) of an id no trace has: expected null/],
  ['SCN-S-036', 'lists at most two traces by default', mapRequest('list_traces', (b) => ({ ...b, limit: b.limit ?? 2 })),
    /list_traces\(\{\}\): expected exactly the traces \[Task 1, Task 2, Task 3\], got \[Task 1, Task 2\]/],
  ['SCN-S-037', 'ignores session_id', dropParam('list_traces', 'session_id'),
    /list_traces\(\{"session_id":"tck-silver-session-a"\}\): expected exactly the traces \[Task A1, Task A2\], got \[Task A1, Task A2, Task B1, Task B2\]/],
  ['SCN-S-038', 'ignores limit', dropParam('list_traces', 'limit'), /list_traces\(limit=2\) with five traces stored: expected 2 item\(s\), got 5/],
  ['SCN-S-038', 'answers limit-1 traces', storeAs('list_traces', 'limit', (l) => l - 1), /list_traces\(limit=2\) with five traces stored: expected 2 item\(s\), got 1/],
  ['SCN-S-064', 'answers a sample trace on an empty store', ghostWhenEmpty('list_traces', GHOST_TRACE), /list_traces\(\) with no traces stored: expected \[\], got 1/],
  ['SCN-S-064', 'answers null instead of []', replaceAnswer('list_traces', (_req, res) => ((res.body as unknown[]).length === 0 ? ok(null) : undefined)),
    /list_traces: .*null/, 'error'],
  ['SCN-S-103', 'ignores session_id', dropParam('list_traces', 'session_id'),
    /list_traces\(session_id=tck-silver-session-a, limit=2\): every trace is one started in tck-silver-session-a: trace "Task B\d" \([0-9a-f]{8}…\) belongs to session "tck-silver-session-b", not "tck-silver-session-a"/],
  ['SCN-S-103', 'applies the limit before the session filter', (next) => async (m, body: any) => {
    if (m !== 'list_traces' || body.session_id == null || body.limit == null) return next(m, body);
    const res = await next(m, { limit: body.limit });
    return ok((res.body as any[]).filter((t) => t.session_id === body.session_id));
  }, /list_traces\(session_id=tck-silver-session-a, limit=2\) with three traces in that session: expected 2 item\(s\), got 1/],

  // record_tool_call / get_trace_with_steps tool calls / get_tool_stats
  ['SCN-S-027', 'answers numeric arguments as strings', mapResponse('record_tool_call', (c) => ({ ...c, arguments: Object.fromEntries(Object.entries(c.arguments).map(([k, v]) => [k, String(v)])) })),
    /record_tool_call\(tool_name="search_entities", status=success\): the returned tool call: expected/],
  ['SCN-S-027', 'loses arguments on the read path', readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.map((c: any) => ({ ...c, arguments: {} })) }))),
    /get_trace_with_steps\(.*\): tool_calls of step 1 are the calls recorded/],
  ['SCN-S-028', 'drops nulls inside results', mapResponse('record_tool_call', (c) => ({ ...c, result: stripNulls(c.result) })),
    /record_tool_call\(tool_name="entity_lookup", status=success\): the returned tool call/],
  ['SCN-S-028', 'loses duration_ms on the read path', readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.map((c: any) => ({ ...c, duration_ms: null })) }))),
    /tool_calls of step 1 are the calls recorded/],
  ['SCN-S-029', 'does not store the error text', dropParam('record_tool_call', 'error'), /record_tool_call\(tool_name="failure_tool", status=failure\): the returned tool call/],
  ['SCN-S-030', 'records timeout as failure', storeAs('record_tool_call', 'status', (s) => (s === 'timeout' ? 'failure' : s)),
    /record_tool_call\(tool_name="timeout_tool", status=timeout\): the returned tool call/],
  ['SCN-S-060', 'records error as failure', storeAs('record_tool_call', 'status', (s) => (s === 'error' ? 'failure' : s)),
    /record_tool_call\(tool_name="error_tool", status=error\): the returned tool call/],
  ['SCN-S-061', 'rejects the cancelled status', reject('record_tool_call', (b) => b.status === 'cancelled'), /record_tool_call: expected success, got 400/],
  ['SCN-S-062', 'records pending as success', storeAs('record_tool_call', 'status', (s) => (s === 'pending' ? 'success' : s)),
    /record_tool_call\(tool_name="pending_tool", status=pending\): the returned tool call/],
  ['SCN-S-062', 'reads pending back as cancelled', readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.map((c: any) => ({ ...c, status: c.status === 'pending' ? 'cancelled' : c.status })) }))),
    /get_trace_with_steps\(.*\): tool_calls of step 1 are the calls recorded/],
  ['SCN-S-063', 'keeps one tool call per step', readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.slice(-1) }))),
    /get_trace_with_steps\(.*\): tool_calls of step 1 are the calls recorded/],
  ['SCN-S-063', 'answers the same id for every call of a step', answerAs('record_tool_call', 'id', () => FIXED_ID),
    /record_tool_call twice on one step: a new tool call id/],
  ['SCN-S-102', 'answers a falsy result as null', answerAs('record_tool_call', 'result', (r) => r || null),
    /record_tool_call\(tool_name="counter", status=success\): the returned tool call/],
  ['SCN-S-102', 'stores duration_ms 0 as null', storeAs('record_tool_call', 'duration_ms', (d) => d || undefined),
    /record_tool_call\(tool_name="lister", status=success\): the returned tool call/],
  ['SCN-S-102', 'reads result false back as null', readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.map((c: any) => ({ ...c, result: c.result === false ? null : c.result })) }))),
    /tool_calls of step 1 are the calls recorded/],
  ['SCN-S-034', 'reads steps back without tool calls', readSteps((l) => l.map((s) => ({ ...s, tool_calls: [] }))),
    /get_trace_with_steps\(.*\): tool_calls of step 1 are the calls recorded/],
  ['SCN-S-034', 'reads every tool call of the trace on its first step',
    readSteps((l) => l.map((s, i) => ({ ...s, tool_calls: i === 0 ? l.flatMap((x) => x.tool_calls) : [] }))),
    /get_trace_with_steps\(.*\): tool_calls of step 1 are the calls recorded/],
  ['SCN-S-039', 'ignores tool_name', dropParam('get_tool_stats', 'tool_name'),
    /get_tool_stats\(tool_name="search_entities"\): entries \(the named tool only\): expected 1 item\(s\), got 2/],
  ['SCN-S-039', 'matches tool_name as a prefix',
    (next) => async (m, body: any) => {
      if (m !== 'get_tool_stats' || body.tool_name == null) return next(m, body);
      const all = (await next(m, {})).body as any[];
      return ok(all.filter((s) => s.name.startsWith(body.tool_name)));
    }, /get_tool_stats\(tool_name="search_entities"\): entries \(the named tool only\): expected 1 item\(s\), got 2/],
  ['SCN-S-039', 'averages over every call, counting no duration as 0', averageOverAllCalls,
    /avg_duration_ms of search_entities expected 150\.5 \(mean of the recorded durations, to 4 significant digits\), got 100\.3/],
  ['SCN-S-039', 'truncates avg_duration_ms to whole milliseconds', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, avg_duration_ms: Math.trunc(s.avg_duration_ms) }))),
    /avg_duration_ms of search_entities expected 150\.5 \(mean of the recorded durations, to 4 significant digits\), got 150$/],
  ['SCN-S-039', 'answers success_rate on a 0..100 scale', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: Math.round(s.success_rate * 10_000) / 100 }))),
    /get_tool_stats: response does not match the data model:\s+\[0\]\.success_rate/],
  ['SCN-S-039', 'rounds success_rate to 2 decimals', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: Math.round(s.success_rate * 100) / 100 }))),
    /success_rate of search_entities expected 0\.6666666666666666 \(successful\/total, to 4 significant digits\), got 0\.67/],
  ['SCN-S-039', 'does not count failures as failed', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, failed_calls: 0 }))),
    /get_tool_stats\(tool_name="search_entities"\): name and counts of search_entities/],
  ['SCN-S-065', 'answers only the first tool', mapResponse('get_tool_stats', (l: any[]) => l.slice(0, 1)),
    /get_tool_stats\(\): the names of the tools called, one entry each: expected \["tool_alpha","tool_beta"\], got \["tool_alpha"\]/],
  ['SCN-S-065', 'answers success_rate as a percentage', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: s.success_rate * 100 }))),
    /get_tool_stats: response does not match the data model:\s+\[0\]\.success_rate/],
  ['SCN-S-065', 'swaps the averages of two tools', mapResponse('get_tool_stats', (l: any[]) => l.map((s, i) => ({ ...s, avg_duration_ms: l[l.length - 1 - i].avg_duration_ms }))),
    /get_tool_stats\(\): avg_duration_ms of tool_alpha expected 20/],
  ['SCN-S-066', 'answers an all-zero entry when nothing was called', ghostWhenEmpty('get_tool_stats', ZERO_STATS),
    /get_tool_stats\(\) with no tool call recorded: expected \[\], got 1/],
  ['SCN-S-067', 'answers failed/total as success_rate', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: s.failed_calls / s.total_calls }))),
    /get_tool_stats\(tool_name="rated_tool"\): success_rate of rated_tool expected 0.75 \(successful\/total, to 4 significant digits\), got 0.25/],
  ['SCN-S-067', 'rounds success_rate to one decimal', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: Math.round(s.success_rate * 10) / 10 }))),
    /success_rate of rated_tool expected 0.75 \(successful\/total, to 4 significant digits\), got 0.8/],
  ['SCN-S-101', 'rejects the cancelled status', reject('record_tool_call', (b) => b.status === 'cancelled'), /record_tool_call: expected success, got 400/],
  ['SCN-S-101', 'counts every call not failed as successful', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, successful_calls: s.total_calls - s.failed_calls }))),
    /get_tool_stats\(tool_name="status_tool"\): name, total_calls and successful_calls over six calls/],
  ['SCN-S-101', 'does not count timeouts as failed', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, failed_calls: s.failed_calls - 1 }))),
    /get_tool_stats\(tool_name="status_tool"\): failed_calls expected 3 \(failure, error, timeout\) to 5 .*, got 2/],
  ['SCN-S-101', 'leaves pending calls out of the total', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, total_calls: s.total_calls - 1, success_rate: 1 / 5 }))),
    /name, total_calls and successful_calls over six calls/],
  ['SCN-S-101', 'answers success_rate as a percentage', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: Math.round(s.success_rate * 10_000) / 100 }))),
    /get_tool_stats: response does not match the data model:\s+\[0\]\.success_rate/],
  ['SCN-S-101', 'truncates success_rate to 2 decimals', mapResponse('get_tool_stats', (l: any[]) => l.map((s) => ({ ...s, success_rate: Math.trunc(s.success_rate * 100) / 100 }))),
    /get_tool_stats\(tool_name="status_tool"\): success_rate expected 1\/6 .* to 4 significant digits, got 0\.16/],
];

// ------------------------------------------------------------------ valid variants: other allowed choices

/** Fields the protocol marks optional, per object kind, that a server may leave out instead of sending null. */
const OPTIONAL = ['subtype', 'description', 'embedding', 'canonical_name', 'context', 'outcome', 'success', 'completed_at',
  'thought', 'action', 'observation', 'result', 'duration_ms', 'error', 'avg_duration_ms', 'title', 'updated_at'];
/** Drops optional fields that are null, in resources (never inside metadata, arguments or results). */
function omitUnset(v: any): any {
  if (Array.isArray(v)) return v.map(omitUnset);
  if (v === null || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null && OPTIONAL.includes(k)) continue;
    out[k] = k === 'steps' || k === 'tool_calls' || k === 'messages' ? omitUnset(x) : x;
  }
  return out;
}
const TIMESTAMPS = ['created_at', 'started_at', 'completed_at', 'updated_at', 'timestamp'];
/** Timestamps as `+00:00` with microseconds, in every resource. */
function microsecondOffsets(v: any): any {
  if (Array.isArray(v)) return v.map(microsecondOffsets);
  if (v === null || typeof v !== 'object') return v;
  const out: any = {};
  for (const [k, x] of Object.entries(v)) {
    if (TIMESTAMPS.includes(k) && typeof x === 'string') out[k] = x.replace(/Z$/, '').padEnd(23, '0') + '417+00:00';
    else out[k] = k === 'steps' || k === 'tool_calls' || k === 'messages' ? microsecondOffsets(x) : x;
  }
  return out;
}
const reversed = (method: string): Wrap => mapResponse(method, (l: any[]) => l.reverse());

/** get_related_entities follows outgoing relationships only (the reference follows both directions). */
const outgoingOnly: Wrap = tracking('add_relationship', (rels) => mapResponse('get_related_entities', (l: any[], req) =>
  l.filter((e) => rels.some((r) => r.res.source_id === req.entity_id && r.res.target_id === e.id
    && (req.relationship_type == null || r.res.relationship_type === req.relationship_type)))));

/** get_tool_stats with its own reading of the silent points: which statuses fail, and what success_rate divides by. */
const statsReading = (failing: readonly string[], rate: 'over-total' | 'over-finished'): Wrap =>
  tracking('record_tool_call', (seen) => mapResponse('get_tool_stats', (l: any[]) => l.map((s) => {
    const failed = seen.filter((c) => c.res.tool_name === s.name && failing.includes(c.res.status)).length;
    const ok = s.successful_calls;
    // With no finished call the rate over finished calls is 0, a number (SCN-S-109: null is not a rate).
    return { ...s, failed_calls: failed, success_rate: rate === 'over-total' ? ok / s.total_calls : ok + failed === 0 ? 0 : ok / (ok + failed) };
  })));

export const VALID: ValidRow[] = [
  ['omits unset optional fields instead of sending null', mapAnswers(omitUnset)],
  ['writes timestamps as +00:00 with microseconds', mapAnswers(microsecondOffsets)],
  ['numbers steps from 0 in steps of 10', everyStep((s) => (s.step_number = (s.step_number - 1) * 10))],
  ['answers lists, related entities, stats and tool calls in reverse order', compose(
    ...['search_entities', 'search_preferences', 'get_related_entities', 'list_traces', 'get_tool_stats'].map(reversed),
    readSteps((l) => l.map((s) => ({ ...s, tool_calls: s.tool_calls.reverse() }))),
  )],
  ['follows outgoing relationships only', outgoingOnly],
  // An omitted status is success, the default of every established adapter (SCN-S-105); a server
  // defaulting to pending is a fault there, not a valid variant.
  ['counts pending and cancelled as failed', statsReading(['pending', 'failure', 'error', 'timeout', 'cancelled'], 'over-total')],
  ['divides success_rate by the finished calls only', statsReading(['failure', 'error', 'timeout'], 'over-finished')],
  ['answers fewer than limit search results, with scores and embeddings', compose(
    ...['search_entities', 'search_preferences'].map((m) => mapResponse(m, (l: any[], req) =>
      l.slice(0, req.limit == null ? undefined : Math.max(1, req.limit - 1)).map((x) => ({ ...x, score: 0.5, embedding: [0.25, 0.5] })))),
  )],
  ['lists traces without their steps', mapResponse('list_traces', (l: any[]) => l.map((t) => ({ ...t, steps: [] })))],
];

