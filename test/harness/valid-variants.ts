// Valid variants of the reference server: each makes one choice the protocol allows (the silent
// points of src/engine/DESIGN.md). Shared by the scenario suites (test/suites/valid-variants*.test.ts)
// and explore (test/explore/), which must raise no alarm on any of them.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { MemoryStore, createDispatcher, type Params } from '../../src/servers/bridge/index.js';
import { tokenize } from '../../src/servers/bridge/index.js';
import type { Entity, Message, ReasoningTrace, ToolStats } from '../../src/protocols/bridge/index.js';
import { uuidV5 } from '../../src/servers/name-uuid.js';
import { BadRequestError } from '../../src/servers/bridge/store.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { compose, mapAnswers, mapRequest, mapResponse, withVariant, type Dispatch, type VariantOptions, type Wrap } from './variants.js';

 

/** Fields that hold the caller's own data: passed through untouched by every variant. */
const USER_DATA = new Set(['metadata', 'arguments', 'result', 'properties']);
const TIMESTAMP_FIELDS = ['timestamp', 'created_at', 'updated_at', 'started_at', 'completed_at'];
/** Fields of answers that hold server-made UUIDs (session_id is the caller's string). */
const ID_FIELDS = ['id', 'trace_id', 'source_id', 'target_id'];
/** Parameters that carry such ids back to the server. */
const ID_PARAMS = ['message_id', 'entity_id', 'trace_id', 'step_id', 'source_id', 'target_id'];

/** Calls `edit` on every object of a JSON value (children first), not descending into user data. */
function eachObject(value: unknown, edit: (obj: Record<string, any>) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) eachObject(item, edit);
  } else if (typeof value === 'object' && value !== null) {
    const obj = value as Record<string, any>;
    for (const [key, child] of Object.entries(obj)) if (!USER_DATA.has(key)) eachObject(child, edit);
    edit(obj);
  }
}

/** Edits every object of every 200 answer. */
const everyObject = (edit: (obj: Record<string, any>) => void): Wrap =>
  mapAnswers((copy) => {
    eachObject(copy, edit);
    return copy;
  });

/** Rewrites every string field named in `fields`. */
const everyField = (fields: readonly string[], rewrite: (value: string) => string) =>
  everyObject((obj) => {
    for (const key of fields) if (typeof obj[key] === 'string') obj[key] = rewrite(obj[key]);
  });

/** A hand-written wrap: sees every call (body as plain JSON) and decides what to answer. */
const intercept = (handle: (next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap =>
  (next) => (method, body) => handle(next, method, body);

/**
 * Answers calls of `method` that carry a limit from the whole answer (limit removed), edited by
 * `pick(answer, limit)`. The call with the limit goes first, so a bad limit still gets its error.
 */
export const ownLimit = (method: string, pick: (answer: any, limit: number) => unknown): Wrap =>
  intercept(async (next, m, body) => {
    const res = await next(m, body);
    if (m !== method || res.status !== 200 || body?.limit == null) return res;
    const whole = await next(m, { ...body, limit: undefined });
    return { ...whole, body: pick(whole.body, body.limit) };
  });

/** list_* newest first: the reference's ascending list reversed, a limit keeping the newest. */
const newestFirst = (method: string): Wrap =>
  compose(ownLimit(method, (list: any[], limit) => list.slice(0, limit)), mapResponse(method, (l) => l.reverse()));

/** Rounds a number to 4 decimal places, as R's jsonlite writes numbers by default (digits = 4). */
/** A derived value to 4 significant digits, as a server printing `%.4g` would. */
const fourSignificant = (x: unknown) => (typeof x === 'number' && x !== 0 ? Number(x.toPrecision(4)) : x);
/** A derived value held as a 32-bit float (a server storing it in a REAL column). */
const float32 = (x: unknown) => (typeof x === 'number' ? Math.fround(x) : x);
const fourDecimals = (x: unknown) => (typeof x === 'number' ? Math.round(x * 10_000) / 10_000 : x);

/** Time-ordered UUIDs (RFC 9562 version 7): 48-bit milliseconds, version 7, a counter, variant 10, random. */
let v7Counter = 0;
export function uuidV7(): string {
  const ms = Date.now().toString(16).padStart(12, '0');
  v7Counter = (v7Counter + 1) & 0xfff;
  const rand = randomBytes(8);
  const variant = (0x8000 | (rand.readUInt16BE(0) & 0x3fff)).toString(16);
  return `${ms.slice(0, 8)}-${ms.slice(8)}-${(0x7000 | v7Counter).toString(16)}-${variant}-${rand.subarray(2).toString('hex')}`;
}

/** A store whose get_related_entities follows relationships from source to target only. */
class OutgoingOnly extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    const undirected = super.get_related_entities(p); // also the 400 for an unknown entity
    const edges = this.relationships.filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type);
    const reached = new Set<string>();
    let frontier = new Set([p.entity_id]);
    for (let level = 0; level < (p.depth ?? 1); level++) {
      const next = new Set<string>();
      for (const e of edges) {
        if (frontier.has(e.source_id) && e.target_id !== p.entity_id && !reached.has(e.target_id)) {
          reached.add(e.target_id);
          next.add(e.target_id);
        }
      }
      frontier = next;
    }
    return undirected.filter((e) => reached.has(e.id));
  }
}

/** Lists a neighbour once per relationship (at depth 1) instead of once. */
class RepeatsPerEdge extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    const once = super.get_related_entities(p);
    if ((p.depth ?? 1) !== 1) return once;
    return this.relationships
      .filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type)
      .flatMap((r) => (r.source_id === p.entity_id ? [r.target_id] : r.target_id === p.entity_id ? [r.source_id] : []))
      .flatMap((id) => once.filter((e) => e.id === id));
  }
}

/**
 * Vector-style top-k for search_messages without a threshold: the matches first, then every other
 * message (session filter still applied), cut to limit. Not with a threshold (SPEC-2.3.4: nothing at
 * a high threshold), and not for search_entities / search_preferences: SPEC-3.4.4 and SPEC-3.5.4
 * say they MUST return [] when nothing matches (they have no threshold). get_similar_traces: see
 * test/suites/gold.test.ts.
 */
class TopKMessages extends MemoryStore {
  override search_messages(p: Params<'search_messages'>): Message[] {
    if (p.threshold != null) return super.search_messages(p);
    const hits = super.search_messages({ ...p, limit: null });
    const seen = new Set(hits.map((m) => m.id));
    const rest = [...this.messages.values()]
      .filter((r) => !seen.has(r.message.id) && (p.session_id == null || r.session.session_id === p.session_id))
      .map((r) => structuredClone(r.message));
    const all = [...hits, ...rest];
    return p.limit == null ? all : all.slice(0, p.limit);
  }
}

/**
 * search_messages with a flat score: every message sharing at least one word with the query scores
 * the same (1), so ties decide everything: insertion order, cut to limit. A query sharing no word
 * finds nothing, at any threshold.
 */
class FlatMessageScores extends MemoryStore {
  override search_messages(p: Params<'search_messages'>): Message[] {
    const query = tokenize(p.query);
    const scope = p.session_id == null ? [...this.messages.values()] : [...this.messages.values()].filter((r) => r.session.session_id === p.session_id);
    const hits = scope.filter((r) => [...tokenize(r.message.content)].some((t) => query.has(t))).map((r) => structuredClone(r.message));
    return p.limit == null ? hits : hits.slice(0, p.limit);
  }
}

/** Merging an entity into itself is accepted as a no-op (the reference refuses it with 400). */
class SelfMergeNoOp extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    if (p.source_id !== p.target_id) return super.merge_duplicate_entities(p);
    const rec = this.entities.get(p.target_id);
    return rec === undefined ? super.merge_duplicate_entities(p) : structuredClone(rec.entity);
  }
}

/** After a merge the source's names are forgotten: get_entity_by_name(source name) finds nothing. */
class MergeForgetsNames extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const target = this.entities.get(p.target_id);
    const aliases = target === undefined ? [] : [...target.aliases];
    const merged = super.merge_duplicate_entities(p);
    this.entities.get(p.target_id)!.aliases = aliases;
    return merged;
  }
}

/** get_entity_by_name matches an entity's own name only: not its canonical_name, not a merged-away name. */
class NameOnlyLookup extends MemoryStore {
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const hit = [...this.entities.values()].find((r) => r.entity.name === p.name);
    return hit === undefined ? null : structuredClone(hit.entity);
  }
}

/**
 * get_related_entities read as a Cypher variable-length match, `(e)-[*1..depth]-(r)`: the end of
 * every path of 1..depth distinct relationships, in either direction; two hops when depth is
 * omitted; the start entity itself when a path of two different relationships leads back to it.
 */
class CypherPaths extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    super.get_related_entities(p); // the 400 for an unknown entity
    const depth = p.depth ?? 2;
    const edges = this.relationships.filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type);
    const found = new Set<string>();
    const walk = (at: string, used: ReadonlySet<number>, hops: number): void => {
      if (hops === depth) return;
      edges.forEach((e, i) => {
        if (used.has(i)) return;
        const to = e.source_id === at ? e.target_id : e.target_id === at ? e.source_id : undefined;
        if (to === undefined) return;
        found.add(to);
        walk(to, new Set([...used, i]), hops + 1);
      });
    };
    walk(p.entity_id, new Set(), 0);
    return [...found].flatMap((id) => {
      const rec = this.entities.get(id);
      return rec === undefined ? [] : [structuredClone(rec.entity)];
    });
  }
}

/** What a variant looks like on the wire: one POST /setup over node:http, and its socket 50 ms later. */
interface HttpAnswer {
  url: string;
  headers: http.IncomingHttpHeaders;
  /** The server closed the idle keep-alive connection within 50 ms of the answer. */
  idleClosed: boolean;
}

export function httpProbe(options: VariantOptions): Promise<HttpAnswer> {
  return withVariant(options, (url) =>
    new Promise<HttpAnswer>((resolve, reject) => {
      const agent = new http.Agent({ keepAlive: true });
      const req = http.request(`${url}/setup`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
        let idleClosed = false;
        res.socket.once('close', () => (idleClosed = true));
        res.resume();
        res.on('end', () =>
          setTimeout(() => {
            agent.destroy();
            resolve({ url, headers: res.headers, idleClosed });
          }, 50),
        );
      });
      req.on('error', reject);
      req.end('{}');
    }),
  );
}

/**
 * What a variant answers to a short script of calls, by step name: used to prove that each variant
 * really differs from the reference in its one choice (a no-op variant would prove nothing).
 */
export async function probe(options: VariantOptions) {
  const store = options.store ?? new MemoryStore();
  const base: Dispatch = createDispatcher(store);
  const dispatch = options.wrap ? options.wrap(base, store) : base;
  type Answer = { status: number; body?: any };
  const out: Record<string, Answer> = {};
  const call = async (name: string, method: string, body: Record<string, unknown> = {}): Promise<Answer> => (out[name] = await dispatch(method, body));
  await call('first', 'add_message', { session_id: 'p-old', role: 'user', content: 'graph databases store nodes' });
  await call('second', 'add_message', { session_id: 'p-old', role: 'user', content: 'graph databases' });
  await call('newer', 'add_message', { session_id: 'p-new', role: 'user', content: 'unrelated words' });
  await call('conv', 'get_conversation', { session_id: 'p-old', limit: 1 });
  await call('unknown1', 'get_conversation', { session_id: 'p-none' });
  await call('unknown2', 'get_conversation', { session_id: 'p-none' });
  await call('sessions', 'list_sessions');
  await call('search', 'search_messages', { query: 'graph databases' });
  const a = (await call('a', 'add_entity', { name: 'A', entity_type: 'PERSON' })).body;
  const b = (await call('b', 'add_entity', { name: 'B', entity_type: 'PERSON' })).body;
  await call('rel', 'add_relationship', { source_id: b.id, target_id: a.id, relationship_type: 'KNOWS' });
  await call('rel2', 'add_relationship', { source_id: b.id, target_id: a.id, relationship_type: 'LIKES' });
  await call('related', 'get_related_entities', { entity_id: a.id });
  const trace = (await call('trace', 'start_trace', { session_id: 'p-old', task: 't' })).body;
  await call('trace2', 'start_trace', { session_id: 'p-new', task: 't' });
  const step = (await call('step', 'add_step', { trace_id: trace.id, thought: 'x' })).body;
  await call('pending', 'record_tool_call', { step_id: step.id, tool_name: 'probe_tool', arguments: {}, status: 'pending' });
  await call('stats', 'get_tool_stats', { tool_name: 'probe_tool' });
  await call('similar', 'get_similar_traces', { task: 't' });
  await call('traces', 'list_traces');
  await call('error', 'add_entity', { name: 'C', entity_type: 'NOT_A_TYPE' });
  await call('conv0', 'get_conversation', { session_id: 'p-old', limit: 0 });
  await call('selfmerge', 'merge_duplicate_entities', { source_id: a.id, target_id: a.id });
  await call('merge', 'merge_duplicate_entities', { source_id: b.id, target_id: a.id });
  await call('byOldName', 'get_entity_by_name', { name: 'B' });
  await call('canonicalMerge', 'merge_duplicate_entities', { source_id: (await call('d', 'add_entity', { name: 'D', entity_type: 'PERSON' })).body.id, target_id: a.id, canonical_name: 'Alpha' });
  await call('byCanonical', 'get_entity_by_name', { name: 'Alpha' });
  // A chain x - y - z: one hop from x reaches y; two reach z, and x again through y's second edge.
  const [x, y, z] = await Promise.all(['X', 'Y', 'Z'].map(async (name) => (await dispatch('add_entity', { name, entity_type: 'PERSON' })).body as any));
  await dispatch('add_relationship', { source_id: x.id, target_id: y.id, relationship_type: 'KNOWS' });
  await dispatch('add_relationship', { source_id: y.id, target_id: x.id, relationship_type: 'LIKES' });
  await dispatch('add_relationship', { source_id: y.id, target_id: z.id, relationship_type: 'KNOWS' });
  await call('chain', 'get_related_entities', { entity_id: x.id });
  await call('relatedUnknown', 'get_related_entities', { entity_id: randomUUID() });
  // Derived values that are not round: a rate of 2/3 and a mean of 1.5 ms.
  for (const [status, duration_ms] of [['success', 1], ['success', 2], ['failure', undefined]] as const) {
    await dispatch('record_tool_call', { step_id: step.id, tool_name: 'ratio_tool', arguments: {}, status, ...(duration_ms === undefined ? {} : { duration_ms }) });
  }
  await call('ratioStats', 'get_tool_stats', { tool_name: 'ratio_tool' });
  await probeReadings(call);
  return out;
}

type Answers = Awaited<ReturnType<typeof probe>>;
const msg = (r: Answers) => r['first']!.body;

/**
 * [name, a fresh variant (stores must not be shared between runs), what makes it differ]. The
 * names are what SILENT_POINTS (src/engine/silent-points.ts) cite.
 */
export const VARIANTS: [name: string, make: () => VariantOptions, differs: (r: Answers, h: HttpAnswer) => boolean][] = [
  ['timestamps with +00:00 instead of Z', () => ({ wrap: everyField(TIMESTAMP_FIELDS, (t) => t.replace(/Z$/, '+00:00')) }),
    (r) => msg(r).timestamp.endsWith('+00:00')],
  ['timestamps with microsecond precision', () => ({ wrap: everyField(TIMESTAMP_FIELDS, (t) => t.replace(/\.(\d{3})Z$/, '.$1000Z')) }),
    (r) => /\.\d{6}Z$/.test(msg(r).timestamp)],
  ['timestamps with whole seconds only', () => ({ wrap: everyField(TIMESTAMP_FIELDS, (t) => t.replace(/\.\d+Z$/, 'Z')) }),
    (r) => /:\d\dZ$/.test(msg(r).timestamp)],
  ['optional fields omitted instead of null', () => ({
    wrap: everyObject((obj) => {
      for (const [key, value] of Object.entries(obj)) if (value === null) delete obj[key];
    }),
  }), (r) => !('embedding' in msg(r)) && !('outcome' in r['trace']!.body)],
  ['an extra unknown field on every object', () => ({ wrap: everyObject((obj) => { obj['x_vendor_note'] = 'extra'; }) }),
    (r) => msg(r).x_vendor_note === 'extra' && r['conv']!.body.messages[0].x_vendor_note === 'extra'],
  ['embeddings returned as vectors', () => ({
    wrap: everyObject((obj) => {
      if ('embedding' in obj) obj['embedding'] = [0.25, -0.5, 1];
    }),
  }), (r) => Array.isArray(msg(r).embedding)],
  ['conversations with a title', () => ({ wrap: mapResponse('get_conversation', (c) => ({ ...c, title: `Session ${c.session_id}` })) }),
    (r) => typeof r['conv']!.body.title === 'string'],
  ['list_sessions and list_traces newest first', () => ({ wrap: compose(newestFirst('list_sessions'), newestFirst('list_traces')) }),
    (r) => r['sessions']!.body[0].session_id === 'p-new' && r['traces']!.body[0].session_id === 'p-new'],
  ['step numbers from 0', () => ({ wrap: everyObject((obj) => { if (typeof obj['step_number'] === 'number') obj['step_number'] -= 1; }) }),
    (r) => r['step']!.body.step_number === 0],
  ['step numbers 10, 20, 30 …', () => ({ wrap: everyObject((obj) => { if (typeof obj['step_number'] === 'number') obj['step_number'] *= 10; }) }),
    (r) => r['step']!.body.step_number === 10],
  ['time-ordered (v7) UUIDs', () => ({ store: new MemoryStore({ newId: uuidV7 }) }),
    (r) => /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(msg(r).id)],
  ['uppercase-hex UUIDs', () => ({
    wrap: compose(
      everyField(ID_FIELDS, (v) => (/^[0-9a-f-]{36}$/.test(v) ? v.toUpperCase() : v)),
      intercept((next, method, body) => {
        if (typeof body !== 'object' || body === null) return next(method, body);
        const lowered = { ...body };
        for (const key of ID_PARAMS) if (typeof lowered[key] === 'string') lowered[key] = lowered[key].toLowerCase();
        return next(method, lowered);
      }),
    ),
  }), (r) => /^[0-9A-F-]{36}$/.test(msg(r).id) && r['related']!.body.length === 1],
  ['get_conversation(limit) keeps the first N messages', () => ({
    wrap: ownLimit('get_conversation', (conv, limit) => ({ ...conv, messages: conv.messages.slice(0, limit) })),
  }), (r) => r['conv']!.body.messages[0].id === msg(r).id],
  ['search results in reverse order', () => ({
    wrap: compose(...['search_messages', 'search_entities', 'search_preferences', 'get_similar_traces'].map((m) => mapResponse(m, (l) => l.reverse()))),
  }), (r) => r['search']!.body[0].id === msg(r).id],
  ['500 instead of 400 for errors', () => ({
    wrap: (next) => async (method, body) => {
      const res = await next(method, body);
      return res.status === 400 ? { ...res, status: 500 } : res;
    },
  }), (r) => r['error']!.status === 500],
  ['get_conversation of an unknown session with a fresh id each call', () => ({
    wrap: intercept(async (next, method, body) => {
      const res = await next(method, body);
      if (method !== 'get_conversation' || res.status !== 200 || (res.body as any).messages.length > 0) return res;
      const sessions = (await next('list_sessions', {})).body as any[];
      if (sessions.some((s) => s.session_id === body.session_id)) return res;
      return { ...res, body: { ...(res.body as any), id: randomUUID() } };
    }),
  }), (r) => r['unknown1']!.body.id !== r['unknown2']!.body.id],
  ['get_related_entities follows outgoing relationships only', () => ({ store: new OutgoingOnly() }),
    (r) => r['related']!.body.length === 0],
  ['get_related_entities lists a neighbour once per relationship', () => ({ store: new RepeatsPerEdge() }),
    (r) => r['related']!.body.length === 2],
  ['search_messages without threshold returns every message after the matches (top-k)', () => ({ store: new TopKMessages() }),
    (r) => r['search']!.body.length === 3],
  ['get_similar_traces without success_only keeps successful traces only', () => ({
    wrap: mapRequest('get_similar_traces', (b) => ('success_only' in b ? b : { ...b, success_only: true })),
  }), (r) => r['similar']!.body.length === 0],
  ['search_messages scores every message sharing a word alike', () => ({ store: new FlatMessageScores() }),
    (r) => r['search']!.body[0].id === msg(r).id],
  ['get_tool_stats counts unfinished calls as failed', () => ({
    wrap: mapResponse('get_tool_stats', (l) => l.map((s: any) => ({ ...s, failed_calls: s.total_calls - s.successful_calls }))),
  }), (r) => r['stats']!.body[0].failed_calls === 1],
  ['Content-Type application/json; charset=utf-8', () => ({ http: { contentType: 'application/json; charset=utf-8' } }),
    (_r, h) => h.headers['content-type'] === 'application/json; charset=utf-8'],
  ['answers in chunked transfer coding', () => ({ http: { chunked: true } }),
    (_r, h) => h.headers['transfer-encoding'] === 'chunked' && h.headers['content-length'] === undefined],
  ['Connection: close on every answer', () => ({ http: { connectionClose: true } }),
    (_r, h) => h.headers['connection'] === 'close'],
  ['idle connections closed after 1 ms', () => ({ http: { keepAliveTimeoutMs: 1 } }),
    (_r, h) => h.idleClosed && h.headers['connection'] !== 'close'],
  ['served under a path prefix', () => ({ http: { pathPrefix: 'bridge/v1' } }),
    (_r, h) => h.url.endsWith('/bridge/v1')],
  ['get_tool_stats rounds success_rate and avg_duration_ms to 4 decimal places (R\'s jsonlite)', () => ({
    wrap: mapResponse('get_tool_stats', (l) => l.map((s: any) => ({ ...s, success_rate: fourDecimals(s.success_rate), avg_duration_ms: fourDecimals(s.avg_duration_ms) }))),
  }), (r) => r['ratioStats']!.body[0].success_rate === 0.6667],
  ['get_tool_stats rounds success_rate and avg_duration_ms to 4 significant digits', () => ({
    wrap: mapResponse('get_tool_stats', (l) => l.map((s: any) => ({ ...s, success_rate: fourSignificant(s.success_rate), avg_duration_ms: fourSignificant(s.avg_duration_ms) }))),
  }), (r) => r['ratioStats']!.body[0].success_rate === 0.6667 && r['ratioStats']!.body[0].avg_duration_ms === 1.5],
  ['get_tool_stats answers success_rate and avg_duration_ms as 32-bit floats', () => ({
    wrap: mapResponse('get_tool_stats', (l) => l.map((s: any) => ({ ...s, success_rate: float32(s.success_rate), avg_duration_ms: float32(s.avg_duration_ms) }))),
  }), (r) => r['ratioStats']!.body[0].success_rate === Math.fround(2 / 3)],
  ['clear_session also removes the session\'s traces', () => ({ store: new ClearSessionDropsTraces() }),
    (r) => r['q.tracesAfterClear']!.body.length === 0],
  ['add_entity of an existing name and type answers the existing entity (an upsert)', () => ({ store: new AddEntityUpserts() }),
    (r) => r['q.up2']!.body.id === r['q.up1']!.body.id],
  ['add_entity of an existing name and type updates it (an upsert: the description sent replaces the stored one)', () => ({ store: new AddEntityUpdates() }),
    (r) => r['q.up3']!.body.id === r['q.up1']!.body.id && r['q.up3']!.body.description === 'upserted description'],
  ['get_entity_by_name ignores case', () => ({ store: new NameLookupIgnoresCase() }),
    (r) => r['q.lowerName']!.body?.name === 'Upsert Me'],
  ['limit 0 means no limit, for every method with a limit', () => ({ wrap: limitZeroIsNoLimit() }),
    (r) => r['q.sessions0']!.body.length > 0],
  ['get_conversation(limit=0) means no limit', () => ({ wrap: mapRequest('get_conversation', (b) => (b.limit === 0 ? { ...b, limit: undefined } : b)) }),
    (r) => r['conv0']!.body.messages.length === 2],
  ['merging an entity into itself accepted as a no-op', () => ({ store: new SelfMergeNoOp() }),
    (r) => r['selfmerge']!.status === 200],
  ['after a merge the source name finds nothing', () => ({ store: new MergeForgetsNames() }),
    (r) => r['byOldName']!.body === null],
  ['get_entity_by_name matches the name only (not canonical_name nor merged names)', () => ({ store: new NameOnlyLookup() }),
    (r) => r['byCanonical']!.body === null && r['byOldName']!.body === null],
  ['get_related_entities as Cypher paths: two hops when depth is omitted, the start entity through a cycle', () => ({ store: new CypherPaths() }),
    (r) => r['chain']!.body.length === 3],
  ['get_related_entities of an unknown entity answers []', () => ({
    wrap: (next) => async (method, body) => {
      const res = await next(method, body);
      return method === 'get_related_entities' && res.status === 400 && /entity_id/.test(JSON.stringify(res.body)) ? { status: 200, body: [] } : res;
    },
  }), (r) => r['relatedUnknown']!.status === 200],
];

// ---------------------------------------------------------------------------------------------------
// Platinum (issue 23, branch s5-platinum): valid variants of the hosted store for the points Volume 5
// leaves open. Each reaches Platinum with every scenario of every tier passing
// (test/suites/valid-variants-reach.test.ts), and each is the variant of a Platinum entry of SILENT_POINTS.

/** A HostedStore whose add_message reads its content for entities too (the reference reads bulk-added messages only). */
class ExtractEverywhere extends HostedStore {
  override add_message(p: Params<'add_message'>): Message {
    const m = super.add_message(p);
    this.extractFrom(p.content);
    return m;
  }
}

/** delete_conversation also deletes the reasoning steps recorded under the conversation. */
class DeleteConversationSteps extends HostedStore {
  override deleteConversation(id: string): void {
    super.deleteConversation(id);
    for (const t of this.list_traces({ session_id: id })) {
      for (const st of t.steps) this.steps.delete(st.id);
      this.traces.delete(t.id);
    }
    this.conversationTrace.delete(id);
  }
}

/** The query console's graph also holds every conversation and message as a node (labels Conversation, Message; no name). */
class CypherWithEveryNode extends HostedStore {
  override liveGraph() {
    const g = super.liveGraph();
    const extra = [
      ...[...this.sessions.keys()].map((id) => ({ id, type: 'Conversation' })),
      ...[...this.messages.values()].map((r) => ({ id: r.message.id, type: 'Message', content: r.message.content })),
    ] as unknown as typeof g.nodes;
    return { ...g, nodes: [...g.nodes, ...extra] };
  }
}

/** Conversations made by create_conversation get a session_id of their own (`session-<id>`), which the core methods take. */
function ownSessionIds(): Wrap {
  return (next) => {
    const made = new Set<string>();
    const inward = (v: unknown) => (typeof v === 'string' && v.startsWith('session-') && made.has(v.slice(8)) ? v.slice(8) : v);
    return async (method, body: any) => {
      const req = body !== null && typeof body === 'object' && 'session_id' in body ? { ...body, session_id: inward(body.session_id) } : body;
      const res = await next(method, req);
      if (res.status !== 200 || res.body === undefined) return res;
      if (method === 'create_conversation') made.add((res.body as { id: string }).id);
      const copy = structuredClone(res.body);
      eachObject(copy, (obj) => {
        if (typeof obj['session_id'] === 'string' && made.has(obj['session_id'])) obj['session_id'] = `session-${obj['session_id']}`;
      });
      return { ...res, body: copy };
    };
  };
}

/**
 * get_entity and get_conversation_metadata of a well-formed id that names nothing (deleted,
 * cleared, never made) answer 200 null, "a lookup that finds nothing" (bridge-protocol.md,
 * Errors 2), where the reference refuses with 400.
 */
function goneIsNull(): Wrap {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return intercept(async (next, method, body) => {
    const res = await next(method, body);
    const id = method === 'get_entity' ? body?.entity_id : method === 'get_conversation_metadata' ? body?.conversation_id : undefined;
    return res.status >= 400 && typeof id === 'string' && UUID.test(id) ? { status: 200, body: null } : res;
  });
}

/** Deleting a conversation that never existed, or an unknown (or deleted) entity, is an error; a second delete of a conversation is not. */
function unknownDeletesRefused(): Wrap {
  return (next) => {
    const deleted = new Set<string>();
    return async (method, body: any) => {
      if (method === 'delete_conversation' && !deleted.has(body?.conversation_id)) {
        const known = await next('get_conversation_metadata', { conversation_id: body?.conversation_id });
        if (known.status !== 200) return { status: 400, body: { error: 'conversation_id: no such conversation' } };
        deleted.add(body.conversation_id);
      }
      if (method === 'delete_entity') {
        const known = await next('get_entity', { entity_id: body?.entity_id });
        if (known.status !== 200) return { status: 400, body: { error: 'entity_id: no such entity' } };
      }
      return next(method, body);
    };
  };
}

/** list_conversations ordered by last activity (updated_at), newest first; a limit keeps the first ones. */
const byActivity = compose(
  ownLimit('list_conversations', (list: any[], limit) => list.slice(0, limit)),
  mapResponse('list_conversations', (l: { updated_at: string }[]) => l.sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))),
);

/** What a Platinum variant answers to a short script, by step name (see `probe`). */
export async function platinumProbe(options: VariantOptions) {
  const store = options.store ?? new HostedStore();
  const base: Dispatch = createDispatcher(store);
  const dispatch = options.wrap ? options.wrap(base, store) : base;
  type Answer = { status: number; body?: any };
  const out: Record<string, Answer> = {};
  const call = async (name: string, method: string, body: Record<string, unknown> = {}): Promise<Answer> => (out[name] = await dispatch(method, body));
  const old = (await call('conv', 'create_conversation', { user_id: 'probe-old' })).body;
  for (let i = 0; i < 11; i++) await dispatch('create_conversation', { user_id: `probe-${i}` });
  await call('bulk101', 'bulk_add_messages', { conversation_id: old.id, messages: Array.from({ length: 101 }, (_, i) => ({ role: 'user', content: `probe message ${i}` })) });
  await call('bulk', 'bulk_add_messages', { conversation_id: old.id, messages: Array.from({ length: 12 }, (_, i) => ({ role: 'user', content: `Zanzibar note ${i}` })) });
  await call('add', 'add_message', { session_id: old.session_id, role: 'user', content: 'Marie Curie worked in Paris.' });
  await call('list', 'list_conversations');
  await call('context', 'get_context', { conversation_id: old.id });
  await call('observations', 'get_observations', { conversation_id: old.id });
  await call('obsLimit', 'get_observations', { conversation_id: old.id, limit: 1 });
  await call('reflections', 'get_reflections', { conversation_id: old.id });
  const place = (await call('place', 'add_entity', { name: 'Zanzibar', entity_type: 'LOCATION' })).body;
  for (let i = 0; i < 11; i++) await dispatch('add_entity', { name: `Probe ${i}`, entity_type: 'OBJECT' });
  await call('entities', 'list_entities');
  await call('history', 'get_entity_history', { entity_id: place.id });
  const s1 = (await call('s1', 'record_step', { conversation_id: old.id, reasoning: 'Zanzibar is an island', action_taken: 'looked up Zanzibar' })).body;
  await call('s2', 'record_step', { conversation_id: old.id, reasoning: 'second', action_taken: 'again', result: 'done' });
  await call('tool', 'record_tool_call', { step_id: s1.id, tool_name: 'probe', arguments: {} });
  await call('trace', 'get_trace_by_conversation', { conversation_id: old.id });
  await call('explain', 'explain_step', { step_id: s1.id });
  await call('provenance', 'get_entity_provenance', { entity_id: place.id });
  await call('count', 'cypher_query', { cypher: 'MATCH (n) RETURN count(n) AS c', params: {} });
  await call('delUnknownConv', 'delete_conversation', { conversation_id: randomUUID() });
  await call('delUnknownEntity', 'delete_entity', { entity_id: randomUUID() });
  await call('delete', 'delete_conversation', { conversation_id: old.id });
  await call('stepsAfter', 'list_steps', { conversation_id: old.id });
  await call('metaAfter', 'get_conversation_metadata', { conversation_id: old.id });
  return out;
}

type PlatinumAnswers = Awaited<ReturnType<typeof platinumProbe>>;

/** [name, a fresh variant, what makes it differ from the reference]: the names are what SILENT_POINTS cite. */
export const PLATINUM_VARIANTS: [name: string, make: () => VariantOptions, differs: (r: PlatinumAnswers) => boolean][] = [
  ['bulk_add_messages keeps the first 100 of a larger batch', () => ({
    store: new HostedStore(), wrap: mapRequest('bulk_add_messages', (b) => (Array.isArray(b.messages) && b.messages.length > 100 ? { ...b, messages: b.messages.slice(0, 100) } : b)),
  }), (r) => r['bulk101']!.status === 200 && r['bulk101']!.body.length === 100],
  ['steps and tool calls of a conversation answered newest first', () => ({
    store: new HostedStore(),
    wrap: compose(
      mapResponse('get_trace_by_conversation', (t) => ({ ...t, steps: t.steps.reverse(), tool_calls: t.tool_calls.reverse() })),
      mapResponse('list_steps', (l) => l.reverse()),
    ),
  }), (r) => r['trace']!.body.steps[0].id !== r['s1']!.body.id],
  ['observations and reflections are never generated', () => ({
    store: new HostedStore(),
    wrap: compose(
      mapResponse('get_observations', () => []), mapResponse('get_reflections', () => []),
      mapResponse('get_context', (b) => ({ ...b, observations: [], reflections: [] })),
    ),
  }), (r) => r['observations']!.body.length === 0 && r['context']!.body.observations.length === 0],
  ['conversations have a session_id of their own', () => ({ store: new HostedStore(), wrap: ownSessionIds() }),
    (r) => r['conv']!.body.session_id !== r['conv']!.body.id],
  ['list_conversations and list_entities answer at most 10 when no limit is given', () => ({
    store: new HostedStore(),
    wrap: compose(...['list_conversations', 'list_entities'].map((m) => mapRequest(m, (b) => ({ ...b, limit: b.limit ?? 10 })))),
  }), (r) => r['list']!.body.length === 10 && r['entities']!.body.length === 10],
  ['list_conversations newest by last activity', () => ({ store: new HostedStore(), wrap: byActivity }),
    (r) => r['list']!.body[0].id === r['conv']!.body.id],
  ['get_context answers the last 10 messages, newest first', () => ({
    store: new HostedStore(), wrap: mapResponse('get_context', (c) => ({ ...c, recent_messages: c.recent_messages.slice(-10).reverse() })),
  }), (r) => r['context']!.body.recent_messages.length === 10 && r['context']!.body.recent_messages[0].content.startsWith('Marie Curie')],
  ['get_observations(limit) keeps the newest observations', () => ({
    store: new HostedStore(), wrap: ownLimit('get_observations', (list: unknown[], limit) => list.slice(Math.max(0, list.length - limit))),
  }), (r) => r['obsLimit']!.body[0]?.id === r['observations']!.body.at(-1)?.id && r['observations']!.body.length > 1],
  ['entities are extracted from every message, add_message included', () => ({ store: new ExtractEverywhere() }),
    (r) => r['entities']!.body.some((e: Entity) => e.name === 'Marie Curie')],
  ['deleting an unknown conversation or entity is an error', () => ({ store: new HostedStore(), wrap: unknownDeletesRefused() }),
    (r) => r['delUnknownConv']!.status === 400 && r['delUnknownEntity']!.status === 400],
  ['delete_conversation also deletes the steps recorded under it', () => ({ store: new DeleteConversationSteps() }),
    (r) => r['stepsAfter']!.body.length === 0],
  ['get_entity_history lists mentions newest first, without message_id', () => ({
    store: new HostedStore(),
    wrap: mapResponse('get_entity_history', (h) => ({ ...h, mentions: h.mentions.reverse().map(({ message_id: _m, ...rest }: { message_id: string }) => rest) })),
  }), (r) => r['history']!.body.mentions.length > 1 && !('message_id' in r['history']!.body.mentions[0])],
  ['a lookup of a deleted or cleared conversation or entity answers 200 null', () => ({ store: new HostedStore(), wrap: goneIsNull() }),
    (r) => r['metaAfter']!.status === 200 && r['metaAfter']!.body === null],
  ['the Cypher graph also holds conversations and messages as nodes', () => ({ store: new CypherWithEveryNode() }),
    (r) => r['count']!.body.rows[0][0] > 30],
  ['workspace_id is a UUID', () => ({
    store: new HostedStore(),
    wrap: mapAnswers((b, m) => {
      if (!['create_conversation', 'list_conversations', 'get_conversation_metadata'].includes(m)) return b;
      const fix = (c: object) => ({ ...c, workspace_id: '3f9a2c1e-0b7d-4e8a-9c6f-5d4b3a2e1f00' });
      return Array.isArray(b) ? b.map(fix) : fix(b);
    }),
  }), (r) => /^[0-9a-f-]{36}$/.test(r['conv']!.body.workspace_id)],
  ['no step influences an entity: explain_step names none, get_entity_provenance lists none', () => ({
    store: new HostedStore(),
    wrap: compose(mapResponse('explain_step', (x) => ({ ...x, influenced_entities: [] })), mapResponse('get_entity_provenance', (p) => ({ ...p, steps: [] }))),
  }), (r) => r['explain']!.body.influenced_entities.length === 0 && r['provenance']!.body.steps.length === 0],
];

// ---------------------------------------------------------------------------------------------
// Issue 22 (explore): at least three independently written readings of every silent point, each a
// valid variant. Written from the text of the point (src/engine/silent-points.ts, the block of
// issue 22), not from explore's oracle; test/explore/no-false-alarm.test.ts runs explore on all.

type ProbeCall = (name: string, method: string, body?: Record<string, unknown>) => Promise<{ status: number; body?: any }>;

/** The probe's second part: calls that show the points of issue 22 (after the first part, whose answers it leaves alone). */
async function probeReadings(call: ProbeCall): Promise<void> {
  await call('q.m1', 'add_message', { session_id: 'q-sess', role: 'user', content: 'alpha beta' });
  await call('q.m2', 'add_message', { session_id: 'q-sess', role: 'user', content: 'alpha gamma' });
  for (let i = 0; i < 12; i++) await call(`q.d${i}`, 'add_message', { session_id: 'q-many', role: 'user', content: `delta ${i}` });
  await call('q.searchDefault', 'search_messages', { query: 'delta' });
  await call('q.typo', 'search_messages', { query: 'databse' });
  const gone = (await call('q.gone', 'add_message', { session_id: 'q-empty', role: 'user', content: 'soon gone' })).body;
  await call('q.goneDelete', 'delete_message', { message_id: gone.id });
  await call('q.clearAdd', 'add_message', { session_id: 'q-clear', role: 'user', content: 'cleared' });
  await call('q.convBefore', 'get_conversation', { session_id: 'q-clear' });
  await call('q.clear', 'clear_session', { session_id: 'q-clear' });
  await call('q.read', 'get_conversation', { session_id: 'q-read' });
  await call('q.sessions', 'list_sessions');
  await call('q.clearAgain', 'add_message', { session_id: 'q-clear', role: 'user', content: 'back' });
  await call('q.convAfter', 'get_conversation', { session_id: 'q-clear' });
  const e1 = (await call('q.entity', 'add_entity', { name: 'Q One', entity_type: 'PERSON' })).body;
  const e2 = (await call('q.entity2', 'add_entity', { name: 'Kappa Lambda', entity_type: 'PERSON', description: 'second description' })).body;
  await call('q.merge', 'merge_duplicate_entities', { source_id: e2.id, target_id: e1.id });
  await call('q.searchMerged', 'search_entities', { query: 'Kappa Lambda' });
  await call('q.twin1', 'add_entity', { name: 'Twin', entity_type: 'OBJECT' });
  await call('q.twin2', 'add_entity', { name: 'Twin', entity_type: 'EVENT' });
  await call('q.twin', 'get_entity_by_name', { name: 'Twin' });
  await call('q.depth2', 'get_related_entities', { entity_id: (await call('q.x', 'get_entity_by_name', { name: 'X' })).body.id, depth: 2 });
  for (const [i, n] of ['Search Many', 'search many', 'Searchable'].entries()) await call(`q.se${i}`, 'add_entity', { name: n, entity_type: 'OBJECT' });
  for (let i = 0; i < 12; i++) await call(`q.sp${i}`, 'add_preference', { category: 'q', preference: `epsilon ${i}` });
  await call('q.searchPrefs', 'search_preferences', { query: 'epsilon' });
  const trace = (await call('q.trace', 'start_trace', { session_id: 'q-sess', task: 'q task' })).body;
  const step = (await call('q.step', 'add_step', { trace_id: trace.id, thought: 'q' })).body;
  for (const [status, duration_ms] of [['success', 1], ['success', 2], ['failure', 2]] as const) await call('q.call', 'record_tool_call', { step_id: step.id, tool_name: 'q_tool', arguments: {}, status, duration_ms });
  await call('q.callNoDuration', 'record_tool_call', { step_id: step.id, tool_name: 'q_tool_none', arguments: {} });
  await call('q.stats', 'get_tool_stats', { tool_name: 'q_tool' });
  await call('q.statsNone', 'get_tool_stats', { tool_name: 'q_tool_none' });
  await call('q.traces', 'list_traces', { session_id: 'q-sess' });
  for (let i = 0; i < 6; i++) await call(`q.t${i}`, 'start_trace', { session_id: 'q-similar', task: 'zeta task' });
  await call('q.similar', 'get_similar_traces', { task: 'zeta task', success_only: false });
  await call('q.complete1', 'complete_trace', { trace_id: trace.id, outcome: 'done', success: true });
  await call('q.stepAfter', 'add_step', { trace_id: trace.id, thought: 'after' });
  await call('q.callAfter', 'record_tool_call', { step_id: step.id, tool_name: 'q_tool', arguments: {} });
  await call('q.complete2', 'complete_trace', { trace_id: trace.id, outcome: 'again' });
  // Issue 32's readings.
  await call('q.clearTrace', 'start_trace', { session_id: 'q-clear-t', task: 'traced then cleared' });
  await call('q.clearT', 'clear_session', { session_id: 'q-clear-t' });
  await call('q.tracesAfterClear', 'list_traces', { session_id: 'q-clear-t' });
  await call('q.up1', 'add_entity', { name: 'Upsert Me', entity_type: 'PERSON' });
  await call('q.up2', 'add_entity', { name: 'Upsert Me', entity_type: 'PERSON' });
  await call('q.up3', 'add_entity', { name: 'Upsert Me', entity_type: 'PERSON', description: 'upserted description' });
  await call('q.lowerName', 'get_entity_by_name', { name: 'upsert me' });
  await call('q.sessions0', 'list_sessions', { limit: 0 });
}

// ---------------------------------------------------------------------------------------------
// Issue 32: four readings independent servers took where the documents leave the point open, each
// reported broken by tck explore. Written from the point (src/engine/silent-points.ts).

/** clear_session also removes the session's reasoning traces (with their steps and tool calls). */
class ClearSessionDropsTraces extends MemoryStore {
  override clear_session(p: Params<'clear_session'>): void {
    super.clear_session(p);
    for (const [id, t] of [...this.traces]) {
      if (t.trace.session_id !== p.session_id) continue;
      for (const s of t.trace.steps) this.steps.delete(s.id);
      this.traces.delete(id);
    }
  }
}

/** add_entity of a name and type already stored answers the stored entity (an upsert: its description kept). */
class AddEntityUpserts extends MemoryStore {
  override add_entity(p: Params<'add_entity'>): Entity {
    const same = [...this.entities.values()].find((r) => r.entity.name === p.name && r.entity.type === p.entity_type);
    return same === undefined ? super.add_entity(p) : structuredClone(same.entity);
  }
}

/**
 * add_entity of a name and type already stored updates that entity ("Create or update", the
 * BaseAdapter's docstring): a description sent replaces the stored one; none sent keeps it.
 */
class AddEntityUpdates extends MemoryStore {
  override add_entity(p: Params<'add_entity'>): Entity {
    const same = [...this.entities.values()].find((r) => r.entity.name === p.name && r.entity.type === p.entity_type);
    if (same === undefined) return super.add_entity(p);
    if (p.description != null) same.entity.description = p.description;
    return structuredClone(same.entity);
  }
}

/** get_entity_by_name compares names without regard to case (a case-insensitive collation); the oldest match wins. */
class NameLookupIgnoresCase extends MemoryStore {
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const exact = super.get_entity_by_name(p);
    if (exact !== null) return exact;
    const hit = [...this.entities.values()].find((r) => r.entity.name.toLowerCase() === p.name.toLowerCase());
    return hit === undefined ? null : structuredClone(hit.entity);
  }
}

/** The methods with a limit: limit 0 read as no limit (`limit or default`, as Python's falsy 0 reads it). */
const LIMIT_METHODS = ['get_conversation', 'search_messages', 'list_sessions', 'search_entities', 'search_preferences', 'list_traces', 'get_similar_traces'];
const limitZeroIsNoLimit = (): Wrap => compose(...LIMIT_METHODS.map((m) => mapRequest(m, (b) => (b?.limit === 0 ? { ...b, limit: undefined } : b))));

/** A store whose get_similar_traces reads an omitted success_only as true. */
class SuccessOnlyByDefault extends MemoryStore {
  override get_similar_traces(p: Params<'get_similar_traces'>): ReasoningTrace[] {
    return super.get_similar_traces({ ...p, success_only: p.success_only ?? true });
  }
}

/** get_conversation(limit) as a store that keeps the oldest `limit` messages. */
class OldestFirstLimit extends MemoryStore {
  override get_conversation(p: Params<'get_conversation'>) {
    const c = super.get_conversation({ ...p, limit: null });
    return p.limit == null ? c : { ...c, messages: c.messages.slice(0, p.limit) };
  }
}

/** get_related_entities as a directed walk: (e)-[*1..depth]->(r), each entity once, never the start. */
class DirectedWalk extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    super.get_related_entities(p); // the 400 for an unknown entity
    const edges = this.snapshot().relationships.filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type);
    const found = new Set<string>();
    const walk = (at: string, hops: number): void => {
      if (hops === (p.depth ?? 1)) return;
      for (const e of edges) if (e.source_id === at && e.target_id !== p.entity_id && !found.has(e.target_id)) { found.add(e.target_id); walk(e.target_id, hops + 1); }
    };
    walk(p.entity_id, 0);
    return [...found].flatMap((id) => (this.entities.has(id) ? [structuredClone(this.entities.get(id)!.entity)] : []));
  }
}

/** get_related_entities lists the end of every path (Cypher without DISTINCT): a neighbour once per path. */
class OncePerPath extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    super.get_related_entities(p);
    const edges = this.relationships.filter((r) => p.relationship_type == null || r.relationship_type === p.relationship_type);
    const out: Entity[] = [];
    const walk = (at: string, used: ReadonlySet<number>, hops: number): void => {
      if (hops === (p.depth ?? 1)) return;
      edges.forEach((e, i) => {
        if (used.has(i)) return;
        const to = e.source_id === at ? e.target_id : e.target_id === at ? e.source_id : undefined;
        if (to === undefined || to === p.entity_id) return;
        const rec = this.entities.get(to);
        if (rec !== undefined) out.push(structuredClone(rec.entity));
        walk(to, new Set([...used, i]), hops + 1);
      });
    };
    walk(p.entity_id, new Set(), 0);
    return out;
  }
}

/** search_messages without a threshold: the matches, then every other message of the scope, newest first. */
class TopKNewestRest extends MemoryStore {
  override search_messages(p: Params<'search_messages'>): Message[] {
    if (p.threshold != null) return super.search_messages(p);
    const hits = super.search_messages({ ...p, limit: null });
    const seen = new Set(hits.map((m) => m.id));
    const rest = [...this.messages.values()].filter((r) => !seen.has(r.message.id) && (p.session_id == null || r.session.session_id === p.session_id)).map((r) => structuredClone(r.message)).reverse();
    const all = [...hits, ...rest];
    return p.limit == null ? all : all.slice(0, p.limit);
  }
}

/** get_conversation(limit=0) read as "no limit", in the store. */
class ZeroIsNoLimit extends MemoryStore {
  override get_conversation(p: Params<'get_conversation'>) {
    return super.get_conversation(p.limit === 0 ? { ...p, limit: null } : p);
  }
}

/** After a merge, a redirect table (name -> target id), not aliases, leads get_entity_by_name from a source name to the target. */
class MergeRedirects extends MemoryStore {
  #redirect = new Map<string, string>();
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const source = this.entities.get(p.source_id)?.entity.name;
    const merged = super.merge_duplicate_entities(p);
    for (const rec of this.entities.values()) rec.aliases = [];
    if (source !== undefined) this.#redirect.set(source, merged.id);
    for (const [name, id] of this.#redirect) if (id === p.source_id) this.#redirect.set(name, merged.id);
    return merged;
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#redirect.clear();
    super.clear_all_data(p);
  }
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const own = super.get_entity_by_name(p);
    if (own !== null) return own;
    const id = this.#redirect.get(p.name);
    return id === undefined || !this.entities.has(id) ? null : structuredClone(this.entities.get(id)!.entity);
  }
}

/** get_entity_by_name matches name or canonical_name, not the names of merged-away entities. */
class NameOrCanonical extends MemoryStore {
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const all = [...this.entities.values()];
    const hit = all.find((r) => r.entity.name === p.name) ?? all.find((r) => r.entity.canonical_name === p.name);
    return hit === undefined ? null : structuredClone(hit.entity);
  }
}

/** get_entity_by_name answers the newest of the entities with that name. */
class NewestOfName extends MemoryStore {
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const same = [...this.entities.values()].filter((r) => r.entity.name === p.name);
    return same.length > 0 ? structuredClone(same.at(-1)!.entity) : super.get_entity_by_name(p);
  }
}

/** get_related_entities: breadth-first, two hops when depth is omitted, the start never listed. */
class TwoHopsByDefault extends MemoryStore {
  override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
    return super.get_related_entities({ ...p, depth: p.depth ?? 2 });
  }
}

/** search_messages by substring: the score is 1 when the whole query occurs in the content (any case), else the share of its words that do. */
class SubstringSearch extends MemoryStore {
  override search_messages(p: Params<'search_messages'>): Message[] {
    const q = p.query.toLowerCase();
    const words = q.split(/\s+/).filter((w) => w !== '');
    const scope = [...this.messages.values()].filter((r) => p.session_id == null || r.session.session_id === p.session_id);
    const scored = scope.map((r) => {
      const c = r.message.content.toLowerCase();
      return { r, score: q !== '' && c.includes(q) ? 1 : words.length === 0 ? 0 : words.filter((w) => c.includes(w)).length / words.length };
    }).filter((h) => h.score > 0 && h.score >= (p.threshold ?? 0)).sort((a, b) => b.score - a.score);
    const hits = scored.map((h) => structuredClone(h.r.message));
    return p.limit == null ? hits : hits.slice(0, p.limit);
  }
}

/** search_messages scored by the share of the query's character trigrams a message holds, as a fuzzy index would. */
class TrigramSearch extends MemoryStore {
  static grams(text: string): Set<string> {
    const t = `  ${text.toLowerCase()} `;
    const out = new Set<string>();
    for (let i = 0; i + 3 <= t.length; i++) out.add(t.slice(i, i + 3));
    return out;
  }
  override search_messages(p: Params<'search_messages'>): Message[] {
    const q = TrigramSearch.grams(p.query);
    const scope = [...this.messages.values()].filter((r) => p.session_id == null || r.session.session_id === p.session_id);
    const scored = scope.map((r) => {
      const c = TrigramSearch.grams(r.message.content);
      const shared = [...q].filter((g) => c.has(g)).length;
      return { r, score: r.message.content === p.query ? 1 : shared / (q.size || 1) };
    }).filter((h) => h.score > 0.3 && h.score >= (p.threshold ?? 0)).sort((a, b) => b.score - a.score);
    const hits = scored.map((h) => structuredClone(h.r.message));
    return p.limit == null ? hits : hits.slice(0, p.limit);
  }
}

/** Description of a merged target: the source's fills a missing one. */
class MergeFillsDescription extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const from = this.entities.get(p.source_id)?.entity.description ?? null;
    const merged = super.merge_duplicate_entities(p);
    const target = this.entities.get(merged.id)!.entity;
    if (target.description == null && from !== null) target.description = from;
    return structuredClone(target);
  }
}

/** Description of a merged target: both joined, target's first. */
class MergeJoinsDescriptions extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const from = this.entities.get(p.source_id)?.entity.description ?? null;
    const merged = super.merge_duplicate_entities(p);
    const target = this.entities.get(merged.id)!.entity;
    target.description = [target.description, from].filter((d): d is string => d != null && d !== '').join('; ') || target.description || null;
    return structuredClone(target);
  }
}

/** Description of a merged target: the source's wins when it has one (the newer record). */
class MergeTakesSourceDescription extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const from = this.entities.get(p.source_id)?.entity.description ?? null;
    const merged = super.merge_duplicate_entities(p);
    const target = this.entities.get(merged.id)!.entity;
    if (from !== null) target.description = from;
    return structuredClone(target);
  }
}

/** canonical_name set when the entity is added: its name, or its name lower-cased. */
class CanonicalAtAdd extends MemoryStore {
  constructor(readonly canon: (name: string) => string) { super(); }
  override add_entity(p: Params<'add_entity'>): Entity {
    const e = super.add_entity(p);
    this.entities.get(e.id)!.entity.canonical_name = this.canon(p.name);
    return structuredClone(this.entities.get(e.id)!.entity);
  }
}

/** A merge without canonical_name sets it to the target's name. */
class MergeCanonicalIsTargetName extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    const merged = super.merge_duplicate_entities(p);
    const target = this.entities.get(merged.id)!.entity;
    if (p.canonical_name == null) target.canonical_name = target.name;
    return structuredClone(target);
  }
}

/** A completed trace refuses writes: add_step (and, with `calls`, record_tool_call on its steps; with `again`, a second complete_trace). */
class ClosedTraces extends MemoryStore {
  constructor(readonly what: { steps?: boolean; calls?: boolean; again?: boolean }) { super(); }
  #closed = (id: string) => this.traces.get(id)?.trace.completed_at != null;
  override add_step(p: Params<'add_step'>) {
    if (this.what.steps && this.#closed(p.trace_id)) throw new BadRequestError('trace_id', 'the trace is completed');
    return super.add_step(p);
  }
  override record_tool_call(p: Params<'record_tool_call'>) {
    const trace = this.steps.get(p.step_id)?.trace.trace.id;
    if (this.what.calls && trace !== undefined && this.#closed(trace)) throw new BadRequestError('step_id', 'the trace of this step is completed');
    return super.record_tool_call(p);
  }
  override complete_trace(p: Params<'complete_trace'>) {
    if (this.what.again && this.#closed(p.trace_id)) throw new BadRequestError('trace_id', 'the trace is already completed');
    return super.complete_trace(p);
  }
}

/** Sessions stay listed (with no messages) after clear_session; a read of an unknown session creates it (with `reads`). */
class SessionsOutliveTheirMessages extends MemoryStore {
  constructor(readonly reads: boolean) { super(); }
  #ghosts = new Map<string, string>();
  override clear_session(p: Params<'clear_session'>) {
    const s = this.sessions.get(p.session_id);
    super.clear_session(p);
    if (!this.reads && s !== undefined) this.#ghosts.set(p.session_id, new Date(s.created_ms).toISOString());
  }
  override get_conversation(p: Params<'get_conversation'>) {
    const c = super.get_conversation(p);
    if (this.reads && !this.sessions.has(p.session_id) && !this.#ghosts.has(p.session_id)) this.#ghosts.set(p.session_id, c.created_at);
    return c;
  }
  override add_message(p: Params<'add_message'>): Message {
    this.#ghosts.delete(p.session_id);
    return super.add_message(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>) {
    this.#ghosts.clear();
    super.clear_all_data(p);
  }
  override list_sessions(p: Params<'list_sessions'>) {
    const ghosts = [...this.#ghosts].map(([session_id, created_at]) => ({ session_id, message_count: 0, created_at, updated_at: created_at }));
    const all = [...super.list_sessions({ ...p, limit: null }), ...ghosts];
    return p.limit == null ? all : all.slice(0, p.limit);
  }
}

/** avg_duration_ms 0 (not null) for a tool none of whose calls recorded a duration. */
class AvgZeroWithoutDurations extends MemoryStore {
  override get_tool_stats(p: Params<'get_tool_stats'>): ToolStats[] {
    return super.get_tool_stats(p).map((s) => ({ ...s, avg_duration_ms: s.avg_duration_ms ?? 0 }));
  }
}

/** A default page when no limit is sent (the BaseAdapter's defaults): `pages` by method. */
const defaultPages = (pages: Record<string, number>): Wrap => intercept((next, method, body) => {
  const page = pages[method];
  return page !== undefined && body?.limit == null ? next(method, { ...body, limit: page }) : next(method, body);
});

/** Whether a list of session infos names a session. */
const lists = (sessions: any[] | undefined, id: string) => (sessions ?? []).some((s) => s.session_id === id);
const twinIds = (r: Answers) => [r['q.twin1']!.body.id, r['q.twin2']!.body.id];

const READINGS_22: [name: string, make: () => VariantOptions, differs: (r: Answers, h: HttpAnswer) => boolean][] = [
  // success-only-default
  ['get_similar_traces reads an omitted success_only as true (in the store)', () => ({ store: new SuccessOnlyByDefault() }), (r) => r['similar']!.body.length === 0],
  ['get_similar_traces without success_only drops unsuccessful hits from its answer', () => ({
    wrap: intercept(async (next, method, body) => {
      const res = await next(method, body);
      return method === 'get_similar_traces' && res.status === 200 && body?.success_only == null ? { ...res, body: (res.body as any[]).filter((t) => t.success === true) } : res;
    }),
  }), (r) => r['similar']!.body.length === 0],
  // limit-window
  ['get_conversation(limit) keeps the oldest N (in the store)', () => ({ store: new OldestFirstLimit() }), (r) => r['conv']!.body.messages[0].id === msg(r).id],
  // related-incoming
  ['get_related_entities as a directed walk from source to target', () => ({ store: new DirectedWalk() }), (r) => r['related']!.body.length === 0],
  // error-status
  ['errors answer 400 with a fixed text and a code', () => ({
    wrap: (next) => async (method, body) => {
      const res = await next(method, body);
      return res.status === 400 || res.status === 500 ? { status: 400, body: { error: 'bad request', code: 'E_REQUEST' } } : res;
    },
  }), (r) => r['error']!.body.error === 'bad request'],
  // content-type-charset
  ['Content-Type application/json;charset=UTF-8', () => ({ http: { contentType: 'application/json;charset=UTF-8' } }), (_r, h) => h.headers['content-type'] === 'application/json;charset=UTF-8'],
  ['Content-Type application/json; charset="utf-8"', () => ({ http: { contentType: 'application/json; charset="utf-8"' } }), (_r, h) => h.headers['content-type'] === 'application/json; charset="utf-8"'],
  // framing
  ['answers chunked in chunks of 16 bytes', () => ({ http: { chunkBytes: 16 } }), (_r, h) => h.headers['transfer-encoding'] === 'chunked'],
  ['answers delimited by closing the connection', () => ({ http: { closeDelimited: true } }),
    (_r, h) => h.headers['transfer-encoding'] === undefined && h.headers['content-length'] === undefined && h.headers['connection'] === 'close'],
  // connection-close
  ['Connection: close on every second answer', () => ({ http: { closeEveryOther: true } }), (_r, h) => h.headers['connection'] === 'close'],
  ['at most three requests per connection', () => ({ http: { maxRequestsPerSocket: 3 } }), (_r, h) => /max=3/.test(String(h.headers['keep-alive']))],
  // path-prefix
  ['served under the path prefix /api', () => ({ http: { pathPrefix: 'api' } }), (_r, h) => h.url.endsWith('/api')],
  ['served under a deep path prefix', () => ({ http: { pathPrefix: 'v1/tenants/acme/bridge' } }), (_r, h) => h.url.endsWith('/v1/tenants/acme/bridge')],
  // idle-timeout
  ['idle connections closed after 20 ms', () => ({ http: { keepAliveTimeoutMs: 20 } }), (_r, h) => h.idleClosed],
  ['idle connections closed after 5 ms', () => ({ http: { keepAliveTimeoutMs: 5 } }), (_r, h) => h.idleClosed],
  // empty-conversation-id
  ['conversation ids derived from the session id alone (the same after a clear)', () => {
    const ns = randomUUID();
    return { wrap: mapResponse('get_conversation', (c) => ({ ...c, id: uuidV5(ns, c.session_id) })) };
  }, (r) => r['q.convBefore']!.body.id === r['q.convAfter']!.body.id],
  // related-repeats
  ['get_related_entities lists a neighbour once per path, at any depth', () => ({ store: new OncePerPath() }), (r) => r['related']!.body.length === 2],
  ['get_related_entities repeats a neighbour for each relationship (in the answer)', () => ({
    wrap: (next, store) => async (method, body: any) => {
      const res = await next(method, body);
      if (method !== 'get_related_entities' || res.status !== 200 || (body?.depth ?? 1) !== 1) return res;
      const edges = store.snapshot().relationships.filter((e) => body.relationship_type == null || e.relationship_type === body.relationship_type);
      return { ...res, body: (res.body as any[]).flatMap((e) => edges.filter((x) => (x.source_id === e.id && x.target_id === body.entity_id) || (x.target_id === e.id && x.source_id === body.entity_id)).map(() => e)) };
    },
  }), (r) => r['related']!.body.length === 2],
  // search-topk
  ['search_messages without threshold appends every other message, newest first', () => ({ store: new TopKNewestRest() }), (r) => r['search']!.body.length === 3],
  // limit-zero
  ['get_conversation(limit=0) refused with 400', () => ({
    wrap: (next) => (method, body: any) => (method === 'get_conversation' && body?.limit === 0 ? { status: 400, body: { error: 'limit: must be >= 1' } } : next(method, body)),
  }), (r) => r['conv0']!.status === 400],
  ['get_conversation(limit=0) means no limit (in the store)', () => ({ store: new ZeroIsNoLimit() }), (r) => r['conv0']!.body.messages.length === 2],
  // merge-self
  ['merging an entity into itself refused with 500', () => ({
    wrap: (next) => (method, body: any) => (method === 'merge_duplicate_entities' && body?.source_id === body?.target_id ? { status: 500, body: { error: 'cannot merge an entity into itself' } } : next(method, body)),
  }), (r) => r['selfmerge']!.status === 500],
  ['merging an entity into itself answers the entity (a no-op in front of the store)', () => ({
    wrap: (next, store) => (method, body: any) => {
      if (method !== 'merge_duplicate_entities' || body?.source_id !== body?.target_id) return next(method, body);
      const found = store.snapshot().entities.find((e) => e.id === body.source_id);
      if (found === undefined) return next(method, body);
      const { aliases: _aliases, ...entity } = found;
      return { status: 200, body: entity };
    },
  }), (r) => r['selfmerge']!.status === 200],
  // merge-source-lookup
  ['after a merge the source name finds the target through a redirect table', () => ({ store: new MergeRedirects() }), (r) => r['byOldName']!.body?.name === 'A' && r['q.searchMerged']!.body.length === 0],
  // entity-name-lookup
  ['get_entity_by_name matches name or canonical_name, not merged-away names', () => ({ store: new NameOrCanonical() }), (r) => r['byOldName']!.body === null && r['byCanonical']!.body !== null],
  ['get_entity_by_name answers the newest entity of a name', () => ({ store: new NewestOfName() }), (r) => r['q.twin']!.body.id === twinIds(r)[1]],
  // related-depth
  ['get_related_entities: one hop whatever the depth', () => ({ wrap: mapRequest('get_related_entities', (b) => ({ ...b, depth: 1 })) }), (r) => r['q.depth2']!.body.length === 1],
  ['get_related_entities: two hops when depth is omitted', () => ({ store: new TwoHopsByDefault() }), (r) => r['chain']!.body.length === 2],
  // related-unknown-entity
  ['get_related_entities of an unknown entity answers 500', () => ({
    wrap: (next) => async (method, body) => {
      const res = await next(method, body);
      return method === 'get_related_entities' && res.status === 400 ? { ...res, status: 500 } : res;
    },
  }), (r) => r['relatedUnknown']!.status === 500],
  ['get_related_entities of an unknown entity answers [] (in the store)', () => ({
    store: new (class extends MemoryStore {
      override get_related_entities(p: Params<'get_related_entities'>): Entity[] {
        return this.entities.has(p.entity_id) ? super.get_related_entities(p) : [];
      }
    })(),
  }), (r) => r['relatedUnknown']!.status === 200],
  // search-relevance
  ['search_messages by substring, ignoring case', () => ({ store: new SubstringSearch() }), (r) => r['search']!.body[0].id === msg(r).id],
  ['search_messages scored by shared character trigrams', () => ({ store: new TrigramSearch() }), (r) => r['q.typo']!.body.length > 0],
  // merge-description
  ['a merge fills a missing description of the target from the source', () => ({ store: new MergeFillsDescription() }), (r) => r['q.merge']!.body.description === 'second description'],
  ['a merge joins both descriptions', () => ({ store: new MergeJoinsDescriptions() }), (r) => r['q.merge']!.body.description === 'second description'],
  ['a merge takes the description of the source', () => ({ store: new MergeTakesSourceDescription() }), (r) => r['q.merge']!.body.description === 'second description'],
  // canonical-name
  ['canonical_name is the name from the start', () => ({ store: new CanonicalAtAdd((n) => n) }), (r) => r['q.entity']!.body.canonical_name === 'Q One'],
  ['canonical_name is the lower-cased name from the start', () => ({ store: new CanonicalAtAdd((n) => n.toLowerCase()) }), (r) => r['q.entity']!.body.canonical_name === 'q one'],
  ['a merge without canonical_name sets it to the target name', () => ({ store: new MergeCanonicalIsTargetName() }), (r) => r['q.merge']!.body.canonical_name === 'Q One'],
  // completed-trace-writes
  ['add_step on a completed trace refused', () => ({ store: new ClosedTraces({ steps: true }) }), (r) => r['q.stepAfter']!.status === 400],
  ['complete_trace of a completed trace refused', () => ({ store: new ClosedTraces({ again: true }) }), (r) => r['q.complete2']!.status === 400],
  ['a completed trace takes no more steps, tool calls or completions', () => ({ store: new ClosedTraces({ steps: true, calls: true, again: true }) }), (r) => r['q.callAfter']!.status === 400],
  // empty-session-listing
  ['cleared sessions stay listed with no messages', () => ({ store: new SessionsOutliveTheirMessages(false) }), (r) => lists(r['q.sessions']!.body, 'q-clear')],
  ['a read of an unknown session lists it with no messages', () => ({ store: new SessionsOutliveTheirMessages(true) }), (r) => lists(r['q.sessions']!.body, 'q-read')],
  // conversation-title
  ['conversations titled by their first message', () => ({
    wrap: mapResponse('get_conversation', (c) => ({ ...c, title: c.messages.length > 0 ? String(c.messages[0].content).slice(0, 40) : null })),
  }), (r) => r['conv']!.body.title === 'graph databases'],
  // embedding-values
  ['embeddings as empty lists', () => ({ wrap: everyObject((obj) => { if ('embedding' in obj && obj['embedding'] === null) obj['embedding'] = []; }) }), (r) => Array.isArray(msg(r).embedding) && msg(r).embedding.length === 0],
  // list-traces-steps
  ['list_traces lists steps without their tool calls', () => ({ wrap: mapResponse('list_traces', (l: any[]) => l.map((t) => ({ ...t, steps: t.steps.map((s: any) => ({ ...s, tool_calls: [] })) }))) }),
    (r) => r['q.traces']!.body[0].steps[0].tool_calls.length === 0],
  ['list_traces lists traces without steps (in the store)', () => ({
    store: new (class extends MemoryStore {
      override list_traces(p: Params<'list_traces'>): ReasoningTrace[] {
        return super.list_traces(p).map((t) => ({ ...t, steps: [] }));
      }
    })(),
  }), (r) => r['q.traces']!.body[0].steps.length === 0],
  // avg-duration-none
  ['avg_duration_ms 0 when no call recorded a duration', () => ({ store: new AvgZeroWithoutDurations() }), (r) => r['q.statsNone']!.body[0].avg_duration_ms === 0],
  ['avg_duration_ms left out when no call recorded a duration', () => ({
    wrap: mapResponse('get_tool_stats', (l: any[]) => l.map(({ avg_duration_ms, ...s }) => (avg_duration_ms == null ? s : { ...s, avg_duration_ms }))),
  }), (r) => !('avg_duration_ms' in r['q.statsNone']!.body[0])],
  // search-default-limit
  ['search_messages without limit answers at most 10 (the BaseAdapter default)', () => ({ wrap: defaultPages({ search_messages: 10 }) }), (r) => r['q.searchDefault']!.body.length === 10],
  ['search_entities and search_preferences without limit answer at most 10', () => ({ wrap: defaultPages({ search_entities: 10, search_preferences: 10 }) }), (r) => r['q.searchPrefs']!.body.length === 10],
  ['get_similar_traces without limit answers at most 5 (the BaseAdapter default)', () => ({ wrap: defaultPages({ get_similar_traces: 5 }) }), (r) => r['q.similar']!.body.length === 5],
];
VARIANTS.push(...READINGS_22);
