// The observable comparison of one step: the server's answer against the model's, strict where
// the protocol speaks and open where it is silent. Every relaxation names its silent point
// (src/explore/tolerances.ts) at the line that makes it.
import { isDeepStrictEqual } from 'node:util';
import { MODEL, Uuid, isIsoDateTime, type MethodName } from '../protocols/bridge/index.js';
import type { StoreSnapshot } from '../servers/bridge/store.js';
import { withinDerivedPrecision } from '../engine/silent-points.js';
import { Mismatch, type ExploreModel } from './model.js';
import type { ToleranceId } from './tolerances.js';
import { NO_MATCH_QUERIES } from './values.js';
import { isJsonObject as isObj } from '../util/json.js';

/** One answer: its status and its JSON body (undefined for 204). */
export interface Answer {
  status: number;
  body?: unknown;
}

interface StepAnswers {
  modelParams: Record<string, unknown>;
  serverParams: Record<string, unknown>;
  model: Answer;
  server: Answer;
  world: ExploreModel;
  /** The model's data before the step. */
  before: StoreSnapshot;
}

type Obj = Record<string, unknown>;
const ok = (a: Answer) => a.status >= 200 && a.status < 300;
const show = (v: unknown) => {
  const t = JSON.stringify(v) ?? 'nothing';
  return t.length > 300 ? `${t.slice(0, 297)}...` : t;
};
const fail = (message: string, tolerance?: ToleranceId): never => {
  throw new Mismatch(message, tolerance);
};

/** The caller's own data: compared as it is, never walked for ids or timestamps. */
const USER_DATA = new Set(['metadata', 'arguments', 'result', 'properties']);
const ID_FIELDS = new Set(['id', 'trace_id', 'source_id', 'target_id']);
const TIMESTAMPS = new Set(['timestamp', 'created_at', 'updated_at', 'started_at', 'completed_at']);
/** Every field name of the data model: anything else is an extra field ('extra-fields'). */
const KNOWN_FIELDS = new Set(Object.values(MODEL).flatMap((s) => Object.keys(s.shape)));
/** Fields never compared: 'embedding-values', and step_number ('step-base', checked on its own). */
const UNCOMPARED = new Set(['embedding', 'step_number']);
/** The kit clock may differ from the server's; a day either way is still plausible. */
const PLAUSIBLE_MS = 24 * 3600 * 1000;

function timestamp(method: string, where: string, value: unknown): number {
  // 'timestamp-format': Z or +00:00, any precision; checked for format and plausibility only.
  if (typeof value !== 'string' || !isIsoDateTime(value)) fail(`${method}: ${where} = ${show(value)} is not an ISO 8601 date-time with a zone`);
  const ms = Date.parse(value as string);
  if (!Number.isFinite(ms) || Math.abs(ms - Date.now()) > PLAUSIBLE_MS) fail(`${method}: ${where} = ${value as string} is not within a day of now`, 'timestamp-format');
  return ms;
}

function orderCheck(method: string, where: string, obj: Obj, ms: Record<string, number>, from: string, to: string): void {
  if (ms[from] !== undefined && ms[to] !== undefined && ms[to]! < ms[from]!) {
    fail(`${method}: ${where}${to} ${String(obj[to])} is before ${from} ${String(obj[from])}`, 'timestamp-format');
  }
}

/**
 * What is compared of an answer. The server's side: ids mapped to the model's ('uuid-version'),
 * timestamps checked and dropped, steps' numbers checked, extra fields dropped; both sides: nulls
 * and absent fields the same ('optional-null-or-omitted'), embeddings and step numbers dropped.
 */
function view(method: string, value: unknown, side: 'server' | 'model', world: ExploreModel, where = ''): unknown {
  if (Array.isArray(value)) return value.map((v, i) => view(method, v, side, world, `${where}[${i}]`));
  if (!isObj(value)) return value;
  const out: Obj = {};
  const ms: Record<string, number> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null || v === undefined || UNCOMPARED.has(key)) continue;
    if (side === 'server' && !KNOWN_FIELDS.has(key)) continue; // 'extra-fields'
    if (USER_DATA.has(key)) out[key] = v;
    else if (TIMESTAMPS.has(key)) {
      if (side === 'server') ms[key] = timestamp(method, `${where}${key}`, v);
    } else if (ID_FIELDS.has(key) && side === 'server') {
      if (typeof v !== 'string' || !Uuid.safeParse(v).success) fail(`${method}: ${where}${key} = ${show(v)} is not a UUID`);
      const mapped = world.ids.toModel(v as string);
      if (mapped === undefined) fail(`${method}: ${where}${key} = ${v as string} names nothing the server created in this sequence`);
      out[key] = mapped;
    } else out[key] = view(method, v, side, world, `${where}${key}.`);
  }
  if (side === 'server') {
    orderCheck(method, where, value, ms, 'created_at', 'updated_at');
    orderCheck(method, where, value, ms, 'started_at', 'completed_at');
    if (typeof out.id === 'string' && 'step_number' in value) stepNumber(method, where, out.id, value.step_number, world);
    if (Array.isArray(value.steps)) increasing(method, where, value.steps);
  }
  return out;
}

/** 'step-base': a step keeps the number it was given; numbers in a trace strictly increase. */
function stepNumber(method: string, where: string, modelId: string, n: unknown, world: ExploreModel): void {
  if (!Number.isInteger(n)) fail(`${method}: ${where}step_number = ${show(n)} is not an integer`);
  const known = world.stepNumbers.get(modelId);
  if (known === undefined) world.stepNumbers.set(modelId, n as number);
  else if (known !== n) fail(`${method}: ${where}step_number is ${String(n)}, but add_step numbered this step ${known}`, 'step-base');
}

function increasing(method: string, where: string, steps: unknown[]): void {
  const numbers = steps.map((s) => (isObj(s) ? s.step_number : undefined));
  for (let i = 1; i < numbers.length; i++) {
    if (!((numbers[i] as number) > (numbers[i - 1] as number))) fail(`${method}: ${where}steps numbered ${show(numbers)}: step numbers must strictly increase`, 'step-base');
  }
}

function same(method: string, what: string, server: unknown, model: unknown, tolerance?: ToleranceId): void {
  if (!isDeepStrictEqual(server, model)) fail(`${method}: ${what}: server ${show(server)}, model ${show(model)}`, tolerance);
}

const idOf = (v: unknown) => (isObj(v) && typeof v.id === 'string' ? v.id : undefined);

/** Binds the id of an object the model has just created to the server's ('uuid-version'). */
function bindCreated(method: string, a: StepAnswers): void {
  const modelId = idOf(a.model.body);
  if (modelId === undefined || a.world.ids.toServer(modelId) !== undefined) return;
  const serverId = idOf(a.server.body);
  if (serverId === undefined || !Uuid.safeParse(serverId).success) fail(`${method}: the answer's id ${show(serverId)} is not a UUID`);
  a.world.ids.bind(serverId!, modelId, method);
  if (method === 'add_message') a.world.everyMessage.push(modelId);
}

/** Server hits as model ids; each a live object of the scope, no duplicates, limit honoured. */
function hitsOf(method: string, a: StepAnswers, scope: Map<string, unknown>): unknown[] {
  const hits = a.server.body as unknown[];
  const limit = a.modelParams.limit as number | undefined;
  if (limit !== undefined && hits.length > limit) fail(`${method}(limit=${limit}): ${hits.length} results`);
  const seen = new Set<string>();
  return hits.map((hit, i) => {
    const v = view(method, hit, 'server', a.world, `[${i}].`) as Obj;
    const id = v.id as string;
    if (!scope.has(id)) fail(`${method}: result [${i}] (${show(hit)}) is not a live object of the scope asked for (deleted, cleared, or filtered out)`);
    if (seen.has(id)) fail(`${method}: result [${i}] appears twice`);
    seen.add(id);
    same(method, `result [${i}]`, v, view(method, scope.get(id), 'model', a.world));
    return v;
  });
}

/**
 * 'search-ties': only what the protocol fixes. An exact query (an item's text equals it) finds an
 * item with that text — every time without a limit, at least something with one; a query sharing
 * no word with anything stored finds nothing where the clause says so (`mustBeEmpty`).
 */
function searchCheck(method: string, a: StepAnswers, scope: Map<string, unknown>, text: (item: Obj) => unknown, mustBeEmpty: boolean, exactEligible: (item: Obj) => boolean = () => true): void {
  const hits = hitsOf(method, a, scope) as Obj[];
  const query = (a.modelParams.query ?? a.modelParams.task) as string;
  const limit = a.modelParams.limit as number | undefined;
  const modelHits = (a.model.body as Obj[]);
  const exact = modelHits.some((m) => text(m) === query && exactEligible(m));
  if (exact && limit === undefined && !hits.some((h) => text(h) === query)) fail(`${method}(${show(query)}): an item whose text is exactly the query exists, and no result has that text`, 'search-ties');
  if (exact && limit !== undefined && limit > 0 && hits.length === 0) fail(`${method}(${show(query)}, limit=${limit}): an item whose text is exactly the query exists, and nothing was found`, 'search-ties');
  if (mustBeEmpty && (NO_MATCH_QUERIES as readonly string[]).includes(query) && modelHits.length === 0 && hits.length > 0) {
    fail(`${method}(${show(query)}): the query shares no word with anything stored, yet ${hits.length} results came back`, 'search-ties');
  }
}

const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((i) => [i.id, i as unknown]));

function conversation(a: StepAnswers): void {
  const s = a.server.body as Obj;
  // 'conversation-identity': the id is a UUID; id and title are not compared.
  if (!Uuid.safeParse(s.id).success) fail(`get_conversation: id = ${show(s.id)} is not a UUID`);
  const { id: _id, title: _title, messages, ...rest } = s;
  const m = a.model.body as Obj;
  same('get_conversation', 'session_id', s.session_id, m.session_id);
  view('get_conversation', rest, 'server', a.world);
  const got = view('get_conversation', messages, 'server', a.world, 'messages') as unknown[];
  let last = -Infinity;
  for (const [i, msg] of (messages as Obj[]).entries()) {
    const t = Date.parse(msg.timestamp as string);
    if (t < last) fail(`get_conversation: messages[${i}].timestamp ${String(msg.timestamp)} is before the previous message's`, 'timestamp-format');
    last = t;
  }
  const whole = view('get_conversation', a.world.store.get_conversation({ session_id: m.session_id as string }).messages, 'model', a.world) as unknown[];
  const limit = a.modelParams.limit as number | undefined;
  if (limit === undefined) return same('get_conversation', 'messages', got, whole);
  // 'limit-zero': limit 0 means no messages or no limit.
  if (limit === 0 && isDeepStrictEqual(got, whole)) return;
  // 'limit-window': the first or the last `limit` messages, in order.
  const first = whole.slice(0, limit);
  const lastN = limit === 0 ? [] : whole.slice(-limit);
  if (!isDeepStrictEqual(got, first) && !isDeepStrictEqual(got, lastN)) {
    fail(`get_conversation(limit=${limit}): messages are neither the first nor the last ${limit}: server ${show(got)}, model (all) ${show(whole)}`, 'limit-window');
  }
}

function listSessions(a: StepAnswers): void {
  const all = a.world.snapshot().sessions;
  const counts = new Map(all.map((s) => [s.session_id, s.messages.length]));
  const got = a.server.body as Obj[];
  const seen = new Set<string>();
  for (const [i, s] of got.entries()) {
    view('list_sessions', s, 'server', a.world, `[${i}].`);
    const id = s.session_id as string;
    if (!counts.has(id)) fail(`list_sessions: [${i}] is session ${show(id)}, which the model does not have (its session ids: ${show([...counts.keys()])})`);
    if (seen.has(id)) fail(`list_sessions: session ${show(id)} listed twice`);
    seen.add(id);
    same('list_sessions', `message_count of ${show(id)}`, s.message_count, counts.get(id));
  }
  const limit = a.modelParams.limit as number | undefined;
  // 'list-order', 'limit-window': any order, any N; 'empty-session-listing': emptied sessions may go.
  const nonEmpty = all.filter((s) => s.messages.length > 0).length;
  const want = limit === undefined ? nonEmpty : Math.min(limit, nonEmpty);
  const most = limit === undefined ? all.length : Math.min(limit, all.length);
  if (got.length < want || got.length > most) fail(`list_sessions${limit === undefined ? '' : `(limit=${limit})`}: ${got.length} sessions listed, model has ${show([...counts.entries()])}`, 'limit-window');
}

function listTraces(a: StepAnswers): void {
  const sid = a.modelParams.session_id as string | undefined;
  const scope = byId(a.world.snapshot().traces.filter((t) => sid === undefined || t.session_id === sid));
  const hits = hitsOf('list_traces', a, scope);
  const limit = a.modelParams.limit as number | undefined;
  const want = limit === undefined ? scope.size : Math.min(limit, scope.size);
  if (hits.length !== want) fail(`list_traces: ${hits.length} traces, expected ${want} (of ${scope.size} in scope)`, 'limit-window');
}

function toolStats(a: StepAnswers): void {
  const key = (s: Obj) => s.name as string;
  const model = new Map((a.model.body as Obj[]).map((s) => [key(s), s]));
  const got = a.server.body as Obj[];
  if (got.length !== model.size || got.some((s) => !model.has(key(s)))) fail(`get_tool_stats: tools ${show(got.map(key))}, model ${show([...model.keys()])}`, 'list-order');
  for (const s of got) {
    const m = model.get(key(s)) as Obj;
    for (const f of ['total_calls', 'successful_calls']) same('get_tool_stats', `${key(s)}.${f}`, s[f], m[f]);
    // 'tool-stats-unfinished': pending and cancelled calls may count as failed, or as neither.
    if (s.failed_calls !== m.failed_calls && s.failed_calls !== (m.total_calls as number) - (m.successful_calls as number)) {
      fail(`get_tool_stats: ${key(s)}.failed_calls: server ${show(s.failed_calls)}, model ${show(m.failed_calls)} (or ${show((m.total_calls as number) - (m.successful_calls as number))} counting unfinished calls as failed)`, 'tool-stats-unfinished');
    }
    // 'derived-precision': correct to 4 significant digits (or 4 decimal places) is correct.
    for (const f of ['success_rate', 'avg_duration_ms']) {
      const [x, y] = [s[f] ?? null, m[f] ?? null];
      if (x === null || y === null ? x !== y : !withinDerivedPrecision(x, y as number)) {
        fail(`get_tool_stats: ${key(s)}.${f}: server ${show(x)}, model ${show(y)}`, 'derived-precision');
      }
    }
  }
}

/**
 * The entities a get_related_entities answer may hold, for one reading of direction
 * ('related-incoming'): `least`, the direct neighbours every reading returns, and `most`, what a
 * walk of at most `depth` hops reaches ('related-depth': without depth a server may take any
 * default, so any number of hops), the start entity included when a path of distinct relationships
 * can lead back to it (a Cypher variable-length match does that).
 */
function reach(edges: readonly { source_id: string; target_id: string }[], start: string, depth: number | undefined, both: boolean): { least: Set<string>; most: Set<string> } {
  /** The entities one hop from `from`. */
  const steps = (from: ReadonlySet<string>) =>
    edges.flatMap((r) => [...(from.has(r.source_id) ? [r.target_id] : []), ...(both && from.has(r.target_id) ? [r.source_id] : [])]);
  const least = new Set(steps(new Set([start])).filter((id) => id !== start));
  const most = new Set<string>();
  let frontier = new Set([start]);
  for (let hop = 0; hop < (depth ?? edges.length) && frontier.size > 0; hop++) {
    const next = new Set<string>();
    for (const to of steps(frontier)) if (to !== start && !most.has(to)) { most.add(to); next.add(to); }
    frontier = next;
  }
  // Back to the start over distinct relationships: a loop on it (any depth), or from two hops on,
  // two relationships to one neighbour or a cycle through it (approximated: the reached subgraph
  // holds as many relationships as entities, or more).
  const near = new Set([start, ...most]);
  const inside = edges.filter((r) => near.has(r.source_id) && near.has(r.target_id));
  const loop = edges.some((r) => r.source_id === start && r.target_id === start);
  if (loop || ((depth ?? 2) >= 2 && most.size > 0 && inside.length >= near.size)) most.add(start);
  return { least, most };
}

/** 'related-incoming' and 'related-depth': a neighbourhood some reading of direction and depth gives. */
function related(a: StepAnswers): void {
  const entities = byId(a.world.snapshot().entities.map(({ aliases: _a, ...e }) => e));
  const got = (a.server.body as unknown[]).map((e, i) => view('get_related_entities', e, 'server', a.world, `[${i}].`) as Obj);
  for (const [i, e] of got.entries()) {
    if (!entities.has(e.id as string)) fail(`get_related_entities: [${i}] is not a live entity`);
    same('get_related_entities', `[${i}]`, e, view('get_related_entities', entities.get(e.id as string), 'model', a.world));
  }
  const ids = new Set(got.map((e) => e.id as string));
  const start = a.modelParams.entity_id as string;
  const type = a.modelParams.relationship_type as string | undefined;
  const depth = a.modelParams.depth as number | undefined;
  const edges = a.world.snapshot().relationships.filter((r) => type === undefined || r.relationship_type === type);
  const fits = ({ least, most }: { least: Set<string>; most: Set<string> }) => [...least].every((id) => ids.has(id)) && [...ids].every((id) => most.has(id));
  const undirected = reach(edges, start, depth, true);
  const outgoing = reach(edges, start, depth, false);
  if (!fits(undirected) && !fits(outgoing)) {
    fail(
      `get_related_entities: related ${show([...ids])}; following both directions it must hold ${show([...undirected.least])} and at most ${show([...undirected.most])}, ` +
        `outgoing only ${show([...outgoing.least])} and at most ${show([...outgoing.most])}`,
      'related-incoming',
    );
  }
}

function byName(a: StepAnswers): void {
  const name = a.modelParams.name as string;
  if (a.model.body === null) {
    if (a.server.body !== null) fail(`get_entity_by_name(${show(name)}): server ${show(a.server.body)}, model null (no entity has that name)`);
    return;
  }
  const entities = a.world.snapshot().entities;
  // 'merge-source-lookup': a name only merged-away entities had may find the merge's target or nothing.
  const onlyMerged = !entities.some((e) => e.name === name || e.canonical_name === name);
  if (a.server.body === null) {
    if (onlyMerged) return;
    fail(`get_entity_by_name(${show(name)}): server null, model ${show(a.model.body)}`);
  }
  const v = view('get_entity_by_name', a.server.body, 'server', a.world) as Obj;
  // Several entities may carry the name: any of them is an answer.
  const candidates = entities.filter((e) => e.name === name || e.canonical_name === name || e.aliases.includes(name));
  const hit = candidates.find((e) => e.id === v.id);
  if (hit === undefined) fail(`get_entity_by_name(${show(name)}): server ${show(a.server.body)} is none of the entities with that name`);
  const { aliases: _a, ...entity } = hit!;
  same('get_entity_by_name', show(name), v, view('get_entity_by_name', entity, 'model', a.world));
}

function addStep(a: StepAnswers): void {
  const s = a.server.body as Obj;
  const earlier = a.before.traces.find((t) => t.id === a.modelParams.trace_id)?.steps.map((st) => a.world.stepNumbers.get(st.id)) ?? [];
  const n = s.step_number as number;
  if (Number.isInteger(n) && earlier.some((e) => e !== undefined && e >= n)) fail(`add_step: step_number ${n} after steps numbered ${show(earlier)}: step numbers must strictly increase`, 'step-base');
  same('add_step', 'step', view('add_step', s, 'server', a.world), view('add_step', a.model.body, 'model', a.world));
}

/** Compares one step's answers; throws a Mismatch naming what differs. */
export function compareAnswers(method: MethodName, a: StepAnswers): void {
  if (!ok(a.model)) {
    // 'related-unknown-entity': an entity_id that names nothing may answer [] instead of an error.
    if (method === 'get_related_entities' && ok(a.server) && Array.isArray(a.server.body) && a.server.body.length === 0 && a.world.snapshot().entities.every((e) => e.id !== a.modelParams.entity_id)) return;
    // 'error-status': any 400/500 matches any other.
    if (ok(a.server)) fail(`${method}: server answered ${a.server.status} ${show(a.server.body)}, the model refuses: ${show(a.model.body)}`, 'error-status');
    return;
  }
  if (!ok(a.server)) fail(`${method}: server refused with ${a.server.status} ${show(a.server.body)}, the model answers ${show(a.model.body)}`);
  if (a.model.body === undefined) return; // 204 both (kinds are judged by the client)
  bindCreated(method, a);
  const snap = a.world.snapshot();
  switch (method) {
    case 'get_conversation':
      return conversation(a);
    case 'search_messages': {
      const sid = a.modelParams.session_id as string | undefined;
      const msgs = snap.sessions.filter((s) => sid === undefined || s.session_id === sid).flatMap((s) => s.messages);
      const high = ((a.modelParams.threshold as number | undefined) ?? 0) >= 0.99;
      return searchCheck(method, a, byId(msgs), (m) => m.content, high);
    }
    case 'search_entities':
      return searchCheck(method, a, byId(snap.entities.map(({ aliases: _a, ...e }) => e)), (e) => e.name, true);
    case 'search_preferences': {
      const cat = a.modelParams.category as string | undefined;
      return searchCheck(method, a, byId(snap.preferences.filter((p) => cat === undefined || p.category === cat)), (p) => p.preference, true);
    }
    case 'get_similar_traces': {
      // 'success-only-default': without success_only, hits are checked against every trace.
      const only = a.modelParams.success_only === true;
      return searchCheck(method, a, byId(snap.traces.filter((t) => !only || t.success === true)), (t) => t.task, false, (t) => a.modelParams.success_only === false || t.success === true);
    }
    case 'list_sessions':
      return listSessions(a);
    case 'list_traces':
      return listTraces(a);
    case 'get_tool_stats':
      return toolStats(a);
    case 'get_related_entities':
      return related(a);
    case 'get_entity_by_name':
      return byName(a);
    case 'add_step':
      return addStep(a);
    default:
      return same(method, 'answer', view(method, a.server.body, 'server', a.world), view(method, a.model.body, 'model', a.world));
  }
}
