// Property-based robustness: random and mutated bodies for every method. Each answer must have a
// documented status with the right body shape (400 always {"error": string} naming a parameter),
// the server must never crash, a 400 must leave the store unchanged, and data stored before the run
// must read back identically afterwards. The bulk runs against createDispatcher directly (fast);
// a smaller share goes over HTTP, including raw non-JSON bytes.
import fc from 'fast-check';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  ENTITY_TYPES, METHODS, METHOD_NAMES as ALL_METHOD_NAMES, ROLES, TOOL_CALL_STATUSES, type MethodName as AnyMethodName, type PlatinumMethodName,
} from '../../src/protocols/bridge/index.js';
import { MemoryStore, createDispatcher, startBridgeServer, type BridgeResponse } from '../../src/servers/bridge/index.js';
import type { z } from 'zod';
import { checkDispatch, successSchema } from './helpers.js';

// The fuzzed store is MemoryStore, the Bronze–Gold reference: the optional Platinum methods are
// left out of it (they answer 501) and are not fuzzed here.
type MethodName = Exclude<AnyMethodName, PlatinumMethodName>;
const METHOD_NAMES = ALL_METHOD_NAMES.filter((m): m is MethodName => METHODS[m].tier !== 'platinum');

type Dispatch = (method: string, body: unknown) => BridgeResponse;

const SNAP_SESSIONS = ['snapshot-session-α', 'snapshot-session-β', 'snapshot-session-γ'];
const SNAP_ENTITIES = ['Snapshot Ada', 'Snapshot Acme', 'Snapshot Berlin'];
const SNAP_CATEGORY = 'snapshot-category';
const SNAP_TOOL = 'snapshot-tool';

/** Methods whose schema-valid call may still be a 400 (an id that must exist, source == target). */
const PRECONDITIONS: Partial<Record<MethodName, string[]>> = {
  // depth: at most 1 000 hops (a documented bound of the reference, docs/reference-server.md).
  get_related_entities: ['entity_id', 'depth'],
  add_step: ['trace_id'],
  record_tool_call: ['step_id'],
  complete_trace: ['trace_id'],
  add_relationship: ['source_id', 'target_id'],
  merge_duplicate_entities: ['source_id', 'target_id'],
};

function must(d: Dispatch, method: string, body: unknown): any {
  const r = d(method, body);
  if (r.status !== 200 && r.status !== 204) throw new Error(`${method}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Data that no fuzzed request can legitimately touch (its names and ids are never generated). */
function seedSnapshot(d: Dispatch) {
  for (const [i, session_id] of SNAP_SESSIONS.entries()) {
    for (let j = 0; j < 3 + i; j++) must(d, 'add_message', { session_id, role: ROLES[j % 3], content: `snapshot message ${j} python paris`, metadata: { j } });
  }
  const ents = SNAP_ENTITIES.map((name, i) => must(d, 'add_entity', { name, entity_type: ENTITY_TYPES[i], description: 'snapshot python' }).id as string);
  must(d, 'add_relationship', { source_id: ents[0], target_id: ents[1], relationship_type: 'WORKS_AT' });
  must(d, 'add_relationship', { source_id: ents[1], target_id: ents[2], relationship_type: 'LOCATED_IN' });
  must(d, 'add_preference', { category: SNAP_CATEGORY, preference: 'snapshot dark mode', context: 'python' });
  const traces: string[] = [];
  for (let t = 0; t < 2; t++) {
    const trace = must(d, 'start_trace', { session_id: SNAP_SESSIONS[0], task: `snapshot task ${t} book flight` }).id as string;
    traces.push(trace);
    for (let s = 0; s < 2; s++) {
      const step = must(d, 'add_step', { trace_id: trace, thought: `think ${s}` }).id as string;
      must(d, 'record_tool_call', { step_id: step, tool_name: SNAP_TOOL, arguments: { s }, status: TOOL_CALL_STATUSES[s], duration_ms: 10 * (s + 1) });
    }
    if (t === 0) must(d, 'complete_trace', { trace_id: trace, outcome: 'done', success: true });
  }
  return { ents, traces };
}

/** Everything observable about the snapshot data, through the protocol. */
function observe(d: Dispatch, seeded: { ents: string[]; traces: string[] }): string {
  const out: unknown[] = [];
  for (const session_id of SNAP_SESSIONS) out.push(must(d, 'get_conversation', { session_id }));
  out.push((must(d, 'list_sessions', {}) as { session_id: string }[]).filter((s) => SNAP_SESSIONS.includes(s.session_id)));
  for (const name of SNAP_ENTITIES) out.push(must(d, 'get_entity_by_name', { name }));
  for (const entity_id of seeded.ents) out.push(must(d, 'get_related_entities', { entity_id, depth: 5 }));
  out.push(must(d, 'search_preferences', { query: 'snapshot dark mode python', category: SNAP_CATEGORY }));
  out.push(must(d, 'list_traces', { session_id: SNAP_SESSIONS[0] }));
  for (const trace_id of seeded.traces) out.push(must(d, 'get_trace_with_steps', { trace_id }));
  out.push(must(d, 'get_tool_stats', { tool_name: SNAP_TOOL }));
  return JSON.stringify(out);
}

/** Objects owned by the fuzz run, so that valid bodies can reach the success paths too. */
interface FuzzPool { entities: string[]; traces: string[]; steps: string[]; messages: string[] }
function seedFuzzPool(d: Dispatch): FuzzPool {
  const pool: FuzzPool = { entities: [], traces: [], steps: [], messages: [] };
  for (let i = 0; i < 12; i++) pool.entities.push(must(d, 'add_entity', { name: `fz entity ${i}`, entity_type: 'OBJECT' }).id);
  for (let i = 0; i < 3; i++) {
    const t = must(d, 'start_trace', { session_id: `fz-${i}`, task: `fz task ${i} python` }).id;
    pool.traces.push(t);
    for (let s = 0; s < 2; s++) pool.steps.push(must(d, 'add_step', { trace_id: t }).id);
  }
  for (let i = 0; i < 3; i++) pool.messages.push(must(d, 'add_message', { session_id: `fz-${i}`, role: 'user', content: 'fz python' }).id);
  return pool;
}

function arbitraries(pool: FuzzPool) {
  const text = fc.oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('', ' ', 'python', 'paris flight', 'dark mode', 'book a flight', 'fz', 'ÄÖÜ ß 東京'),
  );
  const session = fc.oneof(fc.constantFrom('fz-0', 'fz-1', 'fz-2', ''), fc.string({ maxLength: 8 }).map((s) => `fz-${s}`));
  const all = [...pool.entities, ...pool.traces, ...pool.steps, ...pool.messages];
  const idOf = (mine: string[]) =>
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...mine) }, fc.constantFrom(...all), fc.uuid(), fc.constantFrom('not-a-uuid', ''));
  const entityId = idOf(pool.entities);
  const traceId = idOf(pool.traces);
  const stepId = idOf(pool.steps);
  const limit = fc.oneof(fc.nat({ max: 20 }), fc.constant(null));
  const json = fc.jsonValue({ maxDepth: 3 });
  const obj = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const rec = <R extends Record<string, fc.Arbitrary<unknown>>>(shape: R, required: (keyof R)[]) =>
    fc.record(shape, { requiredKeys: required as never[] }) as fc.Arbitrary<Record<string, unknown>>;

  const valid: Record<MethodName, fc.Arbitrary<Record<string, unknown>>> = {
    setup: fc.constant({}),
    teardown: fc.constant({}),
    clear_all_data: fc.constant({}), // only ever sent as a non-object (see below)
    add_message: rec({ session_id: session, role: fc.constantFrom(...ROLES), content: text, metadata: opt(obj) }, ['session_id', 'role', 'content']),
    get_conversation: rec({ session_id: fc.oneof(session, fc.constantFrom(...SNAP_SESSIONS)), limit }, ['session_id']),
    search_messages: rec({ query: text, session_id: fc.oneof(session, fc.constantFrom(...SNAP_SESSIONS)), limit, threshold: fc.double({ min: 0, max: 1, noNaN: true }) }, ['query']),
    list_sessions: rec({ limit }, []),
    delete_message: rec({ message_id: idOf(pool.messages) }, ['message_id']),
    clear_session: rec({ session_id: session }, ['session_id']),
    add_entity: rec({ name: text, entity_type: fc.constantFrom(...ENTITY_TYPES), description: text }, ['name', 'entity_type']),
    add_preference: rec({ category: text, preference: text, context: text }, ['category', 'preference']),
    add_fact: rec({ subject: text, predicate: text, obj: text }, ['subject', 'predicate', 'obj']),
    search_entities: rec({ query: text, limit }, ['query']),
    search_preferences: rec({ query: text, category: text, limit }, ['query']),
    get_entity_by_name: rec({ name: fc.oneof(text, fc.constantFrom(...SNAP_ENTITIES)) }, ['name']),
    get_related_entities: rec({ entity_id: entityId, relationship_type: text, depth: fc.integer({ min: 1, max: 4 }) }, ['entity_id']),
    start_trace: rec({ session_id: session, task: text }, ['session_id', 'task']),
    add_step: rec({ trace_id: traceId, thought: text, action: text, observation: text }, ['trace_id']),
    record_tool_call: rec({
      step_id: stepId, tool_name: text, arguments: obj, result: json, status: fc.constantFrom(...TOOL_CALL_STATUSES),
      duration_ms: fc.nat({ max: 100_000 }), error: text,
    }, ['step_id', 'tool_name', 'arguments']),
    complete_trace: rec({ trace_id: traceId, outcome: text, success: fc.boolean() }, ['trace_id']),
    get_trace_with_steps: rec({ trace_id: traceId }, ['trace_id']),
    list_traces: rec({ session_id: fc.oneof(session, fc.constant(SNAP_SESSIONS[0]!)), limit }, []),
    get_tool_stats: rec({ tool_name: fc.oneof(text, fc.constant(SNAP_TOOL)) }, []),
    add_relationship: rec({ source_id: entityId, target_id: entityId, relationship_type: text, properties: obj }, ['source_id', 'target_id', 'relationship_type']),
    merge_duplicate_entities: rec({ source_id: entityId, target_id: entityId, canonical_name: text }, ['source_id', 'target_id']),
    get_similar_traces: rec({ task: text, limit, success_only: fc.boolean() }, ['task']),
  };

  const junk: fc.Arbitrary<unknown> = fc.oneof(
    json,
    fc.string({ maxLength: 40 }),
    fc.constantFrom(1e308, -1e308, 2 ** 53, 2 ** 31, Number.MAX_SAFE_INTEGER, -1, 0, 0.5, -0.5, 'USER', 'Person', 'person', 'SUCCESS',
      'bogus', '', 'null', 'true', '1', true, false, null, [], {}, [null], { error: 'x' }),
    fc.double(),
    fc.integer(),
    fc.uuid(),
    fc.array(json, { maxLength: 4 }),
    fc.jsonValue({ maxDepth: 6 }),
    fc.constantFrom(...SNAP_SESSIONS).map((s) => ({ inner: { session_id: s } })), // snapshot names only nested
  );
  type Mutation = { op: 'drop' | 'set'; key: number; value: unknown } | { op: 'add'; name: string; value: unknown } | { op: 'replace'; value: unknown };
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ op: fc.constant('drop' as const), key: fc.nat(), value: fc.constant(undefined) }),
    { weight: 3, arbitrary: fc.record({ op: fc.constant('set' as const), key: fc.nat(), value: junk }) },
    fc.record({ op: fc.constant('add' as const), name: fc.string({ maxLength: 10 }), value: junk }),
    fc.record({ op: fc.constant('replace' as const), value: junk }),
  );

  const apply = (method: MethodName, body: Record<string, unknown>, mutations: Mutation[]): unknown => {
    const keys = Object.keys(METHODS[method].params.shape);
    let out: unknown = { ...body };
    for (const m of mutations) {
      // Copies: fast-check may hand the same junk instance to two mutations, and aliasing it
      // into itself would make a cycle no JSON body can carry.
      if (m.op === 'replace') {
        out = structuredClone(m.value);
        continue;
      }
      if (typeof out !== 'object' || out === null || Array.isArray(out)) continue;
      const o = out as Record<string, unknown>;
      if (m.op === 'add') o[m.name] = structuredClone(m.value);
      else if (keys.length > 0) {
        const key = keys[m.key % keys.length]!;
        if (m.op === 'drop') delete o[key];
        else o[key] = structuredClone(m.value);
      }
    }
    return out;
  };

  const nonObject = fc.oneof(fc.constant(null), fc.array(json, { maxLength: 3 }), fc.string(), fc.double(), fc.boolean());

  /** A (method, body) pair: valid, mutated, or (for clear_all_data) never an object. */
  const call = fc.oneof(
    ...METHOD_NAMES.map((method) =>
      method === 'clear_all_data'
        ? nonObject.map((body) => ({ method, body }))
        : fc.tuple(valid[method], fc.array(mutation, { maxLength: 3 })).map(([body, ms]) => ({ method, body: apply(method, body, ms) })),
    ),
  );
  return { call, valid };
}

/** FC_SEED reproduces a run; CI uses a fixed seed so its verdict is repeatable, local runs explore. */
const SEED = process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : process.env.CI ? { seed: 20261122 } : {};

/** JSON round trip, as over HTTP (NaN and ±Infinity become null, -0 becomes 0). */
const wire = (v: unknown): unknown => {
  const text = JSON.stringify(v);
  return text === undefined ? undefined : JSON.parse(text);
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Response-body schemas by method, resolved once (the hot loop avoids vitest's expect). */
const SUCCESS = Object.fromEntries(METHOD_NAMES.map((m) => [m, successSchema(m)])) as Record<MethodName, z.ZodType | null>;

function fail(method: string, body: unknown, reply: { status: number; body?: unknown }, why: string): never {
  throw new Error(`${method} ${JSON.stringify(body)?.slice(0, 300)} -> ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 300)}: ${why}`);
}

/** Asserts one answer against the documented statuses and, where it can, the expected outcome. */
function judge(method: MethodName, body: unknown, reply: { status: number; body?: unknown }): void {
  const kind = METHODS[method].kind;
  const success = kind === 'void' ? 204 : 200;
  if (reply.status !== success && reply.status !== 400) fail(method, body, reply, 'undocumented status');
  const schemaOk = isObject(body) && METHODS[method].params.safeParse(body).success;
  if (!schemaOk && reply.status !== 400) fail(method, body, reply, 'invalid params accepted');
  if (schemaOk && PRECONDITIONS[method] === undefined && reply.status === 400) fail(method, body, reply, 'valid params rejected');
  if (reply.status === 204) {
    if (reply.body !== undefined) fail(method, body, reply, '204 with a body');
    return;
  }
  if (reply.status === 200) {
    const schema = SUCCESS[method]!;
    const value = Array.isArray(reply.body) ? reply.body.slice(0, 5) : reply.body;
    const parsed = schema.safeParse(value);
    if (!parsed.success) fail(method, body, reply, `body does not match the model: ${parsed.error.message}`);
    return;
  }
  const error = isObject(reply.body) ? reply.body.error : undefined;
  if (typeof error !== 'string' || error === '') fail(method, body, reply, '400 without {"error": string}');
  if (isObject(body)) {
    const names = schemaOk ? PRECONDITIONS[method]! : Object.keys(METHODS[method].params.shape);
    if (!names.some((n) => error.startsWith(`${n}: `) || error.startsWith(`${n}.`) || error.startsWith(`${n}[`))) {
      fail(method, body, reply, 'the error does not start with a parameter name');
    }
  } else if (!error.startsWith('body must be a JSON object')) {
    fail(method, body, reply, 'wrong error for a non-object body');
  }
}

describe('fuzzing', () => {
  it('10 000 random and mutated bodies against the dispatcher', () => {
    const store = new MemoryStore();
    const d = createDispatcher(store);
    const seeded = seedSnapshot(d);
    const before = observe(d, seeded);
    const { call } = arbitraries(seedFuzzPool(d));
    const seen = new Map<string, Set<number>>();
    let run = 0;
    fc.assert(
      fc.property(call, ({ method, body: raw }) => {
        const body = wire(raw);
        // A full before/after comparison of the store for each 400 while it is small, then sampled.
        const deep = run < 500 || run % 100 === 0;
        run++;
        const snap = deep ? JSON.stringify(store.snapshot()) : '';
        const reply = d(method, body);
        judge(method, body, reply);
        if (deep && reply.status === 400) expect(JSON.stringify(store.snapshot())).toBe(snap);
        let s = seen.get(method);
        if (s === undefined) seen.set(method, (s = new Set()));
        s.add(reply.status);
      }),
      { numRuns: 10_000, ...SEED },
    );
    expect(observe(d, seeded)).toBe(before);
    // The runs covered every method, and the success path of all but clear_all_data.
    expect([...seen.keys()].sort()).toEqual([...METHOD_NAMES].sort());
    for (const [method, statuses] of seen) {
      expect(statuses.has(400), method).toBe(true);
      if (method !== 'clear_all_data') expect(statuses.has(METHODS[method as MethodName].kind === 'void' ? 204 : 200), method).toBe(true);
    }
  });

  it('500 random bodies and raw bytes over HTTP; the server keeps answering', async () => {
    const store = new MemoryStore();
    const d = createDispatcher(store);
    const seeded = seedSnapshot(d);
    const before = observe(d, seeded);
    const { call } = arbitraries(seedFuzzPool(d));
    const server = await startBridgeServer(d);
    const rawMethods = METHOD_NAMES.filter((m) => m !== 'clear_all_data'); // "" or "{}" would be a valid wipe
    const payload = fc.oneof(
      { weight: 6, arbitrary: call.map(({ method, body }) => ({ method, bytes: Buffer.from(JSON.stringify(body) ?? ''), body: wire(body), raw: false })) },
      fc.tuple(fc.constantFrom(...rawMethods), fc.uint8Array({ maxLength: 64 })).map(([method, a]) => ({ method, bytes: Buffer.from(a), body: undefined, raw: true })),
      fc.tuple(fc.constantFrom(...rawMethods), fc.string({ maxLength: 40 })).map(([method, s]) => ({ method, bytes: Buffer.from(s), body: undefined, raw: true })),
      fc.tuple(fc.constantFrom(...rawMethods), fc.constantFrom('{', '{"a":', '[', '}', 'nul', '{"query": "x",}', '\ufeff{}', '{"query":"\\ud800"}'))
        .map(([method, s]) => ({ method, bytes: Buffer.from(s), body: undefined, raw: true })),
    );
    try {
      await fc.assert(
        fc.asyncProperty(payload, async ({ method, bytes, body, raw }) => {
          const res = await request(`${server.url}/${method}`, { method: 'POST', body: bytes, headers: { 'content-type': 'application/json' } });
          const text = await res.body.text();
          expect([200, 204, 400]).toContain(res.statusCode);
          if (res.statusCode === 204) {
            expect(text).toBe('');
            return;
          }
          expect(res.headers['content-type']).toBe('application/json');
          const reply = { status: res.statusCode, body: JSON.parse(text) as unknown };
          if (raw) checkDispatch(method, reply, { sample: 5 });
          else judge(method as MethodName, body, reply);
        }),
        { numRuns: 500, ...SEED },
      );
      const r = await request(`${server.url}/setup`, { method: 'POST', body: '{}' });
      expect(r.statusCode).toBe(200);
      expect(await r.body.json()).toMatchObject({ ok: true });
      expect(observe(d, seeded)).toBe(before);
    } finally {
      await server.close();
    }
  });
});
