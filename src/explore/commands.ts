// One fast-check command per bridge method, built from the method table (src/protocols/bridge/methods.ts):
// a command draws each parameter of its method from PARAM_VALUES by the parameter's name, and
// each id parameter from REFS (an index into the live objects of a kind, resolved when the command
// runs, so shrinking keeps sequences meaningful). A new method gets a command from its METHODS
// entry alone; PARAM_VALUES / REFS / WEIGHTS say more about its parameters when needed.
import fc from 'fast-check';
import { METHODS, TOOL_CALL_STATUSES, ENTITY_TYPES, ROLES, type MethodName } from '../protocols/bridge/index.js';
import type { Answer } from './judge.js';
import { judge, prepare, type Prepared } from './oracle.js';
import { CYPHER_READS, CYPHER_WRITES } from './platinum.js';
import { CLASS_VALUES } from './classes.js';
import { CHANGED_BY, LIMIT_FILTER, aim, isPinned, type Pinned, type Planned } from './history.js';
import type { ExploreModel, RefKind } from './model.js';
import { CATEGORIES, DURATIONS, LIMITS, NAMES, RELATIONSHIP_TYPES, SESSION_IDS, TASKS, TOOL_NAMES, jsonObject, query, sessionFocus, text } from './values.js';

/** The server under test, as explore sees it: one call, one answer (or a Violation thrown). */
export interface Target {
  call(method: MethodName, params: Record<string, unknown>): Promise<Answer>;
}

/** One step as it ran: what was sent to each side and what each answered. */
export interface StepRecord {
  method: MethodName;
  label: string;
  serverParams: Record<string, unknown>;
  modelParams: Record<string, unknown>;
  server?: Answer;
  model?: Answer;
}

/** What a sequence runs against: the model, the target, and a log of the steps. */
export interface World {
  model: ExploreModel;
  target: Target;
  steps: StepRecord[];
  /** Called once per operation (for throughput and the steps-to-find count). */
  onOperation?: () => void;
  /** The run's time budget is spent or it was interrupted: no further command runs. */
  stopped?: () => boolean;
}

const small = <T>(values: readonly T[]) => fc.constantFrom(...values);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** Values by parameter name. Methods share names (session_id, limit, query …) and so share values. */
const PARAM_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  session_id: small(SESSION_IDS),
  role: small(ROLES),
  content: text,
  metadata: jsonObject,
  limit: LIMITS,
  query,
  threshold: small([0.99, 0.5, 0.01]),
  name: small(NAMES),
  entity_type: small(ENTITY_TYPES),
  description: text,
  category: small(CATEGORIES),
  preference: text,
  context: text,
  subject: small(NAMES),
  predicate: small(['works at', 'likes']),
  obj: text,
  task: small(TASKS),
  thought: text,
  action: small(['search', 'call tool']),
  observation: text,
  tool_name: small(TOOL_NAMES),
  arguments: jsonObject,
  result: fc.oneof(jsonObject, small([0, false, '', 'done'])),
  status: small(TOOL_CALL_STATUSES),
  duration_ms: small(DURATIONS),
  error: small(['boom', '']),
  outcome: text,
  success: fc.boolean(),
  relationship_type: small(RELATIONSHIP_TYPES),
  properties: jsonObject,
  canonical_name: small(NAMES),
  depth: small([1, 2, 3]),
  success_only: fc.boolean(),
  // Platinum
  user_id: small(['u-1', 'U-1', 'u-2']),
  messages: fc.array(fc.record({ role: small(ROLES), content: text, metadata: maybe(jsonObject) }).map((m) => (m.metadata === undefined ? { role: m.role, content: m.content } : m)), { minLength: 1, maxLength: 4 }),
  type: small(['PERSON', 'person', 'OBJECT']),
  user_score: small([0, 0.5, 1]),
  confirmed: fc.boolean(),
  reasoning: text,
  action_taken: small(['search', 'answer']),
  cypher: small([...CYPHER_READS, ...CYPHER_WRITES]),
};

/** Values of a method's parameters that differ from PARAM_VALUES (a name two methods give different types). */
const VALUES_OF: Partial<Record<MethodName, Record<string, fc.Arbitrary<unknown>>>> = {
  record_step: { result: text },
};
/** Parameters that must go together: a query naming $label gets the parameter. */
const ADJUST: Partial<Record<MethodName, (d: Record<string, unknown>) => Record<string, unknown>>> = {
  cypher_query: ({ params: _params, ...d }) => (String(d.cypher).includes('$label') ? { ...d, params: { label: 'tck-explore' } } : d),
};

/** Parameters that name an object the server handed out, and the kind of object. */
const REFS: Record<string, RefKind> = {
  message_id: 'message', entity_id: 'entity', source_id: 'entity', target_id: 'entity', trace_id: 'trace', step_id: 'step', conversation_id: 'conversation',
};
/** Where a method's reference parameter draws from another pool than REFS says. */
const REFS_OF: Partial<Record<MethodName, Record<string, RefKind>>> = {
  // A conversation deleted before may be deleted again (SPEC-V5-5.1.3: idempotent).
  delete_conversation: { conversation_id: 'anyConversation' },
  // Tool calls on steps record_step made too (how the two views meet is open: explore accepts either answer).
  record_tool_call: { step_id: 'anyStep' },
  explain_step: { step_id: 'agentStep' },
  // An entity deleted before may be read again: no read may answer it (HOSTED-ENDPOINT-delete_entity).
  get_entity: { entity_id: 'anyEntity' },
};
const refOf = (method: MethodName, param: string): RefKind | undefined => REFS_OF[method]?.[param] ?? REFS[param];

/** How often each method is drawn relative to the others (default 1): writes that build state win. */
const WEIGHTS: Partial<Record<MethodName, number>> = {
  add_message: 6, get_conversation: 3, delete_message: 2, list_sessions: 2, search_messages: 2,
  add_entity: 3, add_relationship: 2, get_related_entities: 3, merge_duplicate_entities: 2,
  start_trace: 2, add_step: 2, record_tool_call: 2,
  create_conversation: 2, bulk_add_messages: 2, record_step: 2,
};

/**
 * Reference pairs that must name two different objects: merging an entity into itself is a
 * request whose meaning the protocol leaves open, so explore does not make it.
 */
const DISTINCT_REFS: Partial<Record<MethodName, [string, string]>> = { merge_duplicate_entities: ['source_id', 'target_id'], merge_entities: ['source_id', 'target_id'] };

/** The methods that create an object (its id then counts as named by the latest call). */
const WRITES_CREATE = new Set<MethodName>(['add_message', 'add_entity', 'start_trace', 'add_step', 'record_tool_call', 'add_relationship', 'create_conversation', 'record_step']);

/** Methods explore never draws: setup and teardown belong to the run, not to a sequence. */
const NOT_DRAWN = new Set<MethodName>(['setup', 'teardown']);

/**
 * The methods of the given names or tiers that explore can draw; by default every Bronze–Gold one,
 * and the Platinum ones with `platinum` (the run adds those the target answers).
 */
export function explorableMethods(only?: readonly string[], platinum = false): MethodName[] {
  return (Object.keys(METHODS) as MethodName[]).filter((m) => !NOT_DRAWN.has(m) && (only === undefined ? platinum || METHODS[m].tier !== 'platinum' : only.includes(m) || only.includes(METHODS[m].tier)));
}

type Drawn = Record<string, unknown>;

/** A reference drawn as the object of its kind that the latest calls named or created (see recentIndex). */
const RECENT = 'recent';
/**
 * A reference: an index into the live objects of its kind, unbiased (every one as likely as
 * another; a bias to 0 would pick the first one). A Platinum method's reference also names, one time in
 * three, the object the latest calls named or created: the hosted methods act on one object over
 * several calls (an entity added, updated, given feedback, read back, deleted; a conversation
 * filled, read, deleted), and a history of several calls on one object is where a stateful defect
 * shows (an index drawn afresh each time rarely names the same object twice among many).
 */
function refArbitrary(method: MethodName): fc.Arbitrary<number | typeof RECENT> {
  const index = fc.noBias(fc.nat({ max: 30 }));
  return METHODS[method].tier === 'platinum' ? fc.oneof({ arbitrary: index, weight: 2 }, { arbitrary: fc.constant(RECENT), weight: 1 }) : index;
}

/** The index in `pool` of the object the latest calls named or created (the newest of the pool when none of them is in it). */
function recentIndex(model: ExploreModel, pool: readonly string[]): number {
  for (let i = model.recent.length - 1; i >= 0; i--) {
    const at = pool.indexOf(model.recent[i]!);
    if (at >= 0) return at;
  }
  return pool.length - 1;
}
const isOptional = (schema: { safeParse(v: unknown): { success: boolean } }) => schema.safeParse(undefined).success;

/** The arbitrary of a method's parameters: refs as indexes, optional ones sometimes omitted. */
function paramsArbitrary(method: MethodName, values: Record<string, fc.Arbitrary<unknown>> = PARAM_VALUES): fc.Arbitrary<Drawn> {
  const shape = METHODS[method].params.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(shape)) {
    const base = refOf(method, name) !== undefined ? refArbitrary(method) : VALUES_OF[method]?.[name] ?? values[name] ?? text;
    fields[name] = isOptional(schema) ? maybe(base) : base;
  }
  const adjust = ADJUST[method];
  const record = fc.record(fields) as fc.Arbitrary<Drawn>;
  return adjust ? record.map(adjust) : record;
}

/**
 * The parameters one command of `method` may be drawn with (refs as indexes): every parameter the
 * method table (METHODS, from the bridge document's rows and the BaseAdapter signatures) marks
 * required is in every draw; optional ones are sometimes left out. For test/explore/required-params.test.ts.
 */
export const drawnParams = (method: MethodName): fc.Arbitrary<Record<string, unknown>> => paramsArbitrary(method);

function without<T extends Drawn>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A readable label of a step: refs shown as kind#index of the live objects when it ran. */
function labelOf(method: MethodName, drawn: Drawn): string {
  const parts = Object.entries(without(drawn)).map(([k, v]) => {
    const kind = refOf(method, k);
    const shown = kind !== undefined ? (isPinned(v) ? `the ${kind} ${v.pinned.slice(0, 8)}…` : `${kind}#${String(v)}`) : JSON.stringify(v);
    return `${k}: ${shown.length > 60 ? `${shown.slice(0, 57)}…"` : shown}`;
  });
  return `${method}(${parts.join(', ')})`;
}

export class BridgeCommand implements fc.AsyncCommand<World, World> {
  constructor(readonly method: MethodName, readonly drawn: Drawn) {}

  /** Every referenced kind must have a live object in the model. */
  check(world: Readonly<World>): boolean {
    if (world.stopped?.()) return false;
    const pair = DISTINCT_REFS[this.method];
    if (pair && world.model.pool('entity').length < 2) return false;
    if (pair && isPinned(this.drawn[pair[0]]) && isPinned(this.drawn[pair[1]]) && (this.drawn[pair[0]] as Pinned).pinned === (this.drawn[pair[1]] as Pinned).pinned) return false;
    return Object.keys(this.drawn).every((k) => {
      const kind = refOf(this.method, k);
      const v = this.drawn[k];
      // A reference a history pins (history.ts) must still name a live object of its kind.
      if (kind !== undefined && isPinned(v)) return world.model.pool(kind).includes(v.pinned);
      return kind === undefined || v === undefined || world.model.pool(kind).length > 0;
    });
  }

  async run(world: World): Promise<void> {
    const { model, target } = world;
    const modelParams: Drawn = {};
    const serverParams: Drawn = {};
    for (const [k, v] of Object.entries(without(this.drawn))) {
      const kind = refOf(this.method, k);
      if (kind === undefined) {
        modelParams[k] = v;
        serverParams[k] = v;
        continue;
      }
      const pool = model.pool(kind);
      if (isPinned(v)) {
        modelParams[k] = v.pinned;
        serverParams[k] = model.serverId(v.pinned);
        continue;
      }
      let index = v === RECENT ? recentIndex(model, pool) : (v as number) % pool.length;
      const pair = DISTINCT_REFS[this.method];
      // The second of a distinct pair skips the object the first one named.
      if (pair?.[1] === k && pool[index] === modelParams[pair[0]]) index = (index + 1) % pool.length;
      const modelId = pool[index]!;
      modelParams[k] = modelId;
      serverParams[k] = model.serverId(modelId);
    }
    const { method, drawn } = this;
    const step: StepRecord = { method, get label() { return labelOf(method, drawn); }, serverParams, modelParams };
    world.steps.push(step);
    world.onOperation?.();
    const answer = target.call(this.method, serverParams);
    // While the server answers, the model does its part (a read, a write the server must accept).
    let prepared: Prepared;
    try {
      prepared = prepare(model, this.method, modelParams);
    } finally {
      step.server = await answer;
    }
    model.touched(Object.keys(modelParams).filter((k) => refOf(method, k) !== undefined).map((k) => modelParams[k] as string));
    const tracesBefore = method === 'clear_session' ? model.snapshot().traces.filter((t) => t.session_id === modelParams.session_id) : [];
    const modelAnswer = judge(model, { method: this.method, mp: modelParams, sp: serverParams, answer: step.server }, prepared);
    if (modelAnswer !== undefined) step.model = modelAnswer;
    if (tracesBefore.length > 0 && step.server.status === 204) await learnClearedTraces(world, String(modelParams.session_id), tracesBefore[0]!.id);
    // What the call created: the model's id of it, or the server's (Platinum objects are known by it).
    const created = ((modelAnswer ?? step.server).body as { id?: unknown } | null | undefined)?.id;
    if (WRITES_CREATE.has(method) && typeof created === 'string') model.touched([created]);
  }

  toString(): string {
    return labelOf(this.method, this.drawn);
  }
}

/**
 * silent (clear-session-traces): whether clear_session also removes the session's traces is open.
 * Explore asks the server for one of them right after the clear (a step of the sequence, so a
 * repro replays it) and the model follows: gone (null or refused), the model drops the session's
 * traces too; still there, it keeps them, and every later read holds the server to that.
 */
async function learnClearedTraces(world: World, sessionId: string, traceId: string): Promise<void> {
  const { model, target } = world;
  const serverParams = { trace_id: model.serverId(traceId) };
  const step: StepRecord = { method: 'get_trace_with_steps', label: `get_trace_with_steps(trace of the cleared session ${JSON.stringify(sessionId)}: does clear_session keep it?)`, serverParams, modelParams: { trace_id: traceId } };
  world.steps.push(step);
  step.server = await target.call('get_trace_with_steps', serverParams);
  if (step.server.status >= 400 || step.server.body === null) model.forgetTraces(sessionId);
}

/** How a burst varies the i-th call it makes (the first is the one drawn). */
type Vary = (drawn: Drawn, i: number) => Drawn;
const numbered = (field: string): Vary => (d, i) => (i % 2 === 0 || typeof d[field] !== 'string' ? d : { ...d, [field]: `${String(d[field])} ${i}` });

/**
 * Commands that make many of one thing at once, so that a short sequence reaches realistic sizes:
 * past every default page (10, 20) in one session, many sessions whose ids are prefixes of each
 * other (s-1, s-11, s-12 …), many traces, steps and entities, several tool calls per step with
 * statuses and durations whose rates and means are fractions. A burst shrinks to fewer calls.
 */
const BURSTS: [label: string, method: MethodName, vary: Vary][] = [
  ['messages', 'add_message', numbered('content')],
  ['sessions', 'add_message', (d, i) => (i === 0 ? d : { ...d, session_id: `${String(d.session_id)}${i}` })],
  ['traces', 'start_trace', numbered('task')],
  ['steps', 'add_step', (d) => d],
  ['tool calls', 'record_tool_call', (d, i) => (i === 0 ? d : { ...d, status: TOOL_CALL_STATUSES[(i * 5) % TOOL_CALL_STATUSES.length], duration_ms: DURATIONS[(i * 7) % DURATIONS.length] })],
  ['entities', 'add_entity', (d, i) => (i === 0 ? d : { ...d, name: NAMES[i % NAMES.length] })],
  ['preferences', 'add_preference', numbered('preference')],
  ['conversations', 'create_conversation', (d) => d],
  ['hosted steps', 'record_step', numbered('reasoning')],
];
const BURST_SIZE = fc.integer({ min: 2, max: 25 });

class BurstCommand implements fc.AsyncCommand<World, World> {
  constructor(readonly label: string, readonly method: MethodName, readonly drawn: Drawn, readonly count: number, readonly vary: Vary) {}

  check(world: Readonly<World>): boolean {
    return new BridgeCommand(this.method, this.drawn).check(world);
  }

  async run(world: World): Promise<void> {
    for (let i = 0; i < this.count && world.stopped?.() !== true; i++) await new BridgeCommand(this.method, this.vary(this.drawn, i)).run(world);
  }

  toString(): string {
    return `${this.count} × ${labelOf(this.method, this.drawn)} (${this.label})`;
  }
}

/** A write of a history as drawn: its method, its parameters, and a number that picks among the objects and namesakes it may aim at. */
interface HistoryWrite extends Planned {
  drawn: Drawn;
  pick: number;
}

/** The read's parameters with every reference pinned to the object it named: the same read again, with identical arguments. */
function pinnedOf(method: MethodName, modelParams: Drawn): Drawn {
  return Object.fromEntries(Object.entries(modelParams).map(([k, v]) => [k, refOf(method, k) !== undefined && typeof v === 'string' ? ({ pinned: v } satisfies Pinned) : v]));
}

/**
 * read → write(s) → the same read (history.ts): the writes aimed at what the read named (its
 * session, entity, trace, conversation, searched text), or at a namesake of its key; the read is
 * judged each time against the model's state then, so a cached, stale or over-matching answer shows.
 */
class HistoryCommand implements fc.AsyncCommand<World, World> {
  readonly read: BridgeCommand;
  constructor(read: Drawn, readonly readMethod: MethodName, readonly writes: readonly HistoryWrite[]) {
    this.read = new BridgeCommand(readMethod, read);
  }

  check(world: Readonly<World>): boolean {
    return this.read.check(world);
  }

  async run(world: World): Promise<void> {
    const at = world.steps.length;
    await this.read.run(world);
    const readStep = world.steps[at];
    if (readStep === undefined) return;
    for (const w of this.writes) {
      if (world.stopped?.() === true) return;
      const write = new BridgeCommand(w.method, aim(world.model, this.readMethod, readStep.modelParams, w.method, w.drawn, w, (p) => refOf(w.method, p), w.pick));
      if (write.check(world)) await write.run(world);
    }
    const again = new BridgeCommand(this.readMethod, pinnedOf(this.readMethod, readStep.modelParams));
    if (world.stopped?.() !== true && again.check(world)) await again.run(world);
  }

  toString(): string {
    return `${this.read.toString()} → ${this.writes.map((w) => `${w.method}${w.outside ? ' (outside the filter)' : ''}`).join(' → ')} → the same read again`;
  }
}

/** The history commands of the given methods: each read with the writes that change it, and each read with a filter beside its limit. */
function historyArbitraries(methods: readonly MethodName[], weight: (m: MethodName) => number, values: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<HistoryCommand>[] {
  const writeArb = (method: MethodName, planned: Omit<Planned, 'method'> = {}) =>
    fc.tuple(paramsArbitrary(method, values), fc.nat({ max: 1_000 })).map(([drawn, pick]): HistoryWrite => ({ method, ...planned, drawn, pick }));
  const plain = (Object.entries(CHANGED_BY) as [MethodName, MethodName[]][]).flatMap(([read, all]) => {
    const writes = all.filter((w) => methods.includes(w));
    if (!methods.includes(read) || writes.length === 0) return [];
    const arb = fc.tuple(paramsArbitrary(read, values), fc.array(fc.oneof(...writes.map((w) => writeArb(w))), { minLength: 1, maxLength: 2 }))
      .map(([drawn, ws]) => new HistoryCommand(drawn, read, ws));
    return Array.from({ length: weight(read) }, () => arb);
  });
  const filtered = (Object.entries(LIMIT_FILTER) as [MethodName, NonNullable<(typeof LIMIT_FILTER)[MethodName]>][]).flatMap(([read, plan]) => {
    if (!methods.includes(read) || !plan.writes.every((w) => methods.includes(w.method))) return [];
    return [fc.tuple(paramsArbitrary(read, values), fc.tuple(...plan.writes.map(({ method, ...planned }) => writeArb(method, planned)))).map(([drawn, ws]) => {
      // The filter set (the first write's key when the read drew none) and limit 1.
      const filter = drawn[plan.filter] ?? ws[0]!.drawn[plan.filter];
      return new HistoryCommand({ ...drawn, [plan.filter]: filter, ...plan.set, limit: 1 }, read, ws);
    })];
  });
  return [...plain, ...filtered];
}

/**
 * The memory area of a method, read from its name: a sequence that focuses on one area draws that
 * area's methods more often (see sequences).
 */
const AREAS: [area: string, pattern: RegExp, values?: Record<string, fc.Arbitrary<unknown>>, platinumOnly?: true][] = [
  // Most messages, deletes and clears of a conversation-focused sequence meet in a few sessions.
  ['conversation', /^(add_message|get_conversation|search_messages|list_sessions|delete_message|clear_session)$/, { ...PARAM_VALUES, session_id: sessionFocus }],
  ['graph', /entit|relationship/],
  ['reasoning', /trace|step|tool/],
  ['preferences', /preference|fact/],
  ['hosted conversations', /conversation|bulk|context|observation|reflection/],
  ['hosted reasoning', /record_step|list_steps|explain_step|trace_by_conversation|provenance|record_tool_call|create_conversation/],
  // The life of an entity over the hosted methods (added, related, read, listed, renamed, given
  // feedback, merged, deleted, looked up by name): fewer methods than the whole graph area, so one
  // entity meets several of them in a sequence. Only where the Platinum methods are drawn.
  ['hosted entities', /^(add_entity|add_relationship|get_entity_by_name|get_entity|list_entities|update_entity|delete_entity|set_entity_feedback|merge_entities|get_entity_graph)$/, undefined, true],
];
/** How much more often a focused sequence draws the methods of its area. */
const FOCUS = 8;

/** The command arbitraries of the given methods, each repeated by its weight (times FOCUS in the focused area). */
function commandArbitraries(methods: readonly MethodName[], focus?: RegExp, values = PARAM_VALUES): fc.Arbitrary<BridgeCommand | BurstCommand | HistoryCommand>[] {
  const weight = (m: MethodName, w: number) => w * (focus?.test(m) ? FOCUS : 1);
  const single = methods.flatMap((m) => {
    const arb = paramsArbitrary(m, values).map((drawn) => new BridgeCommand(m, drawn));
    return Array.from({ length: weight(m, WEIGHTS[m] ?? 1) }, () => arb);
  });
  const bursts = BURSTS.filter(([, m]) => methods.includes(m)).flatMap(([label, m, vary]) => {
    const arb = fc.tuple(paramsArbitrary(m, values), BURST_SIZE).map(([drawn, n]) => new BurstCommand(label, m, drawn, n, vary));
    return Array.from({ length: weight(m, 1) }, () => arb);
  });
  return [...single, ...bursts, ...historyArbitraries(methods, (m) => weight(m, 1), values)];
}

/**
 * Sequences of commands (swarm testing): each sequence draws from every method, either with the
 * plain weights or focused on one memory area whose methods it draws FOCUS times as often. A
 * focused sequence piles up the state of its area (many messages in a few sessions, a graph of
 * several entities, traces with several steps), where stateful defects show, without ever leaving
 * a method out. Shrinking stays within the sequence's own mix.
 */
export function sequences(methods: readonly MethodName[], options: { maxCommands: number; replayPath?: string; classes?: boolean }): fc.Arbitrary<Iterable<fc.AsyncCommand<World, World>>> {
  const settings = { maxCommands: options.maxCommands, size: 'max' as const, ...(options.replayPath ? { replayPath: options.replayPath } : {}) };
  const platinum = methods.some((m) => METHODS[m].tier === 'platinum');
  const focused = AREAS.filter(([, pattern, , platinumOnly]) => methods.some((m) => pattern.test(m)) && (platinumOnly !== true || platinum));
  return fc.oneof(
    fc.commands(commandArbitraries(methods), settings),
    ...focused.map(([, pattern, values]) => fc.commands(commandArbitraries(methods, pattern, values), settings)),
    // --classes (src/explore/classes.ts): as many kinds of sequence again (plain and focused on each area), drawing the values of every class of the coverage matrix.
    ...(options.classes === true
      ? [undefined, ...focused.map(([, pattern]) => pattern)].map((pattern) => fc.commands(commandArbitraries(methods, pattern, { ...PARAM_VALUES, ...CLASS_VALUES }), settings))
      : []),
  );
}
