// Valid variants of the reference server: each makes one choice the protocol allows (the silent
// points of src/engine/DESIGN.md). Shared by the scenario suites (test/suites/valid-variants.test.ts)
// and explore (test/explore/), which must raise no alarm on any of them.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { MemoryStore, createDispatcher, type Params } from '../../src/servers/bridge/index.js';
import { tokenize } from '../../src/servers/bridge/index.js';
import type { Entity, Message } from '../../src/protocols/bridge/index.js';
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
