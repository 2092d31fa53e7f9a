// One fast-check command per bridge method, built from the method table (src/schema/methods.ts):
// a command draws each parameter of its method from PARAM_VALUES by the parameter's name, and
// each id parameter from REFS (an index into the live objects of a kind, resolved when the command
// runs, so shrinking keeps sequences meaningful). A new method (Platinum) gets a command from its
// METHODS entry alone; PARAM_VALUES / REFS / WEIGHTS say more about its parameters when needed.
import fc from 'fast-check';
import { METHODS, TOOL_CALL_STATUSES, ENTITY_TYPES, ROLES, type MethodName } from '../protocols/bridge/index.js';
import { compareAnswers, type Answer } from './compare.js';
import type { ExploreModel, RefKind } from './model.js';
import { NAMES, ONE_SESSION_MOSTLY, SESSION_IDS, jsonObject, query, text } from './values.js';

/** The server under test, as explore sees it: one call, one answer (or a Mismatch thrown). */
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
  // Around the size of the lists a sequence builds.
  limit: fc.nat({ max: 6 }),
  query,
  threshold: small([0.99, 0.5, 0.01]),
  name: small(NAMES),
  entity_type: small(ENTITY_TYPES),
  description: text,
  category: small(['ui', 'food', 'UI']),
  preference: text,
  context: text,
  subject: small(NAMES),
  predicate: small(['works at', 'likes']),
  obj: text,
  task: small(['plan a trip', 'summarise the meeting', 'Plan a trip', 'deploy 🚀']),
  thought: text,
  action: small(['search', 'call tool']),
  observation: text,
  tool_name: small(['search', 'calculator', 'Search']),
  arguments: jsonObject,
  result: fc.oneof(jsonObject, small([0, false, '', 'done'])),
  status: small(TOOL_CALL_STATUSES),
  duration_ms: small([0, 1, 250, 86_400_000]),
  error: small(['boom', '']),
  outcome: text,
  success: fc.boolean(),
  relationship_type: small(['KNOWS', 'WORKS_AT', 'knows']),
  properties: jsonObject,
  canonical_name: small(NAMES),
  depth: small([1, 2, 3]),
  success_only: fc.boolean(),
};

/** Parameters that name an object the server handed out, and the kind of object. */
const REFS: Record<string, RefKind> = {
  message_id: 'message', entity_id: 'entity', source_id: 'entity', target_id: 'entity', trace_id: 'trace', step_id: 'step',
};

/** How often each method is drawn relative to the others (default 1): writes that build state win. */
const WEIGHTS: Partial<Record<MethodName, number>> = {
  add_message: 6, get_conversation: 3, delete_message: 2, list_sessions: 2, search_messages: 2,
  add_entity: 3, add_relationship: 2, get_related_entities: 3, merge_duplicate_entities: 2,
  start_trace: 2, add_step: 2, record_tool_call: 2,
};

/**
 * Reference pairs that must name two different objects: merging an entity into itself is a
 * request whose meaning the protocol leaves open, so explore does not make it.
 */
const DISTINCT_REFS: Partial<Record<MethodName, [string, string]>> = { merge_duplicate_entities: ['source_id', 'target_id'] };

/** Methods explore never draws: setup and teardown belong to the run, not to a sequence. */
const NOT_DRAWN = new Set<MethodName>(['setup', 'teardown']);

/**
 * The methods of the given names or tiers that explore can draw; by default every Bronze–Gold one
 * (the optional Platinum methods only when named: a server without them answers 501, as allowed).
 */
export function explorableMethods(only?: readonly string[]): MethodName[] {
  return (Object.keys(METHODS) as MethodName[]).filter((m) => !NOT_DRAWN.has(m) && (only === undefined ? METHODS[m].tier !== 'platinum' : only.includes(m) || only.includes(METHODS[m].tier)));
}

type Drawn = Record<string, unknown>;
const isOptional = (schema: { safeParse(v: unknown): { success: boolean } }) => schema.safeParse(undefined).success;

/** The arbitrary of a method's parameters: refs as indexes, optional ones sometimes omitted. */
function paramsArbitrary(method: MethodName, values: Record<string, fc.Arbitrary<unknown>> = PARAM_VALUES): fc.Arbitrary<Drawn> {
  const shape = METHODS[method].params.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, schema] of Object.entries(shape)) {
    // Refs unbiased: every live object as likely as another (a bias to 0 would pick the first one).
    const base = REFS[name] !== undefined ? fc.noBias(fc.nat({ max: 30 })) : values[name] ?? text;
    fields[name] = isOptional(schema) ? maybe(base) : base;
  }
  return fc.record(fields) as fc.Arbitrary<Drawn>;
}

function without<T extends Drawn>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** A readable label of a step: refs shown as kind#index of the live objects when it ran. */
function labelOf(method: MethodName, drawn: Drawn): string {
  const parts = Object.entries(without(drawn)).map(([k, v]) => {
    const shown = REFS[k] !== undefined ? `${REFS[k]}#${String(v)}` : JSON.stringify(v);
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
    return Object.keys(this.drawn).every((k) => REFS[k] === undefined || this.drawn[k] === undefined || world.model.pool(REFS[k]!).length > 0);
  }

  async run(world: World): Promise<void> {
    const { model, target } = world;
    const modelParams: Drawn = {};
    const serverParams: Drawn = {};
    for (const [k, v] of Object.entries(without(this.drawn))) {
      const kind = REFS[k];
      if (kind === undefined) {
        modelParams[k] = v;
        serverParams[k] = v;
        continue;
      }
      const pool = model.pool(kind);
      let index = (v as number) % pool.length;
      const pair = DISTINCT_REFS[this.method];
      // The second of a distinct pair skips the object the first one named.
      if (pair?.[1] === k && pool[index] === modelParams[pair[0]]) index = (index + 1) % pool.length;
      const modelId = pool[index]!;
      modelParams[k] = modelId;
      serverParams[k] = model.ids.toServer(modelId) ?? modelId;
    }
    const step: StepRecord = { method: this.method, label: labelOf(this.method, this.drawn), serverParams, modelParams };
    world.steps.push(step);
    world.onOperation?.();
    step.server = await target.call(this.method, serverParams);
    // 'tool-status-default': a call recorded without a status takes the server's status in the model.
    if (this.method === 'record_tool_call' && modelParams.status === undefined && step.server.status === 200) {
      const status = (step.server.body as { status?: unknown } | null)?.status;
      if (typeof status === 'string' && (TOOL_CALL_STATUSES as readonly string[]).includes(status)) modelParams.status = status;
    }
    const before = model.snapshot();
    step.model = model.call(this.method, modelParams);
    compareAnswers(this.method, { modelParams, serverParams, model: step.model, server: step.server, world: model, before });
  }

  toString(): string {
    return labelOf(this.method, this.drawn);
  }
}

/**
 * The memory area of a method, read from its name: a sequence that focuses on one area draws that
 * area's methods more often (see sequences).
 */
const AREAS: [area: string, pattern: RegExp, values?: Record<string, fc.Arbitrary<unknown>>][] = [
  // Most messages, deletes and clears of a conversation-focused sequence meet in one session.
  ['conversation', /message|conversation|session/, { ...PARAM_VALUES, session_id: ONE_SESSION_MOSTLY }],
  ['graph', /entit|relationship/],
  ['reasoning', /trace|step|tool/],
  ['preferences', /preference|fact/],
];
/** How much more often a focused sequence draws the methods of its area. */
const FOCUS = 8;

/** The command arbitraries of the given methods, each repeated by its weight (times FOCUS in the focused area). */
function commandArbitraries(methods: readonly MethodName[], focus?: RegExp, values = PARAM_VALUES): fc.Arbitrary<BridgeCommand>[] {
  return methods.flatMap((m) => {
    const arb = paramsArbitrary(m, values).map((drawn) => new BridgeCommand(m, drawn));
    return Array.from({ length: (WEIGHTS[m] ?? 1) * (focus?.test(m) ? FOCUS : 1) }, () => arb);
  });
}

/**
 * Sequences of commands (swarm testing): each sequence draws from every method, either with the
 * plain weights or focused on one memory area whose methods it draws FOCUS times as often. A
 * focused sequence piles up the state of its area (many messages in a few sessions, a graph of
 * several entities, traces with several steps), where stateful defects show, without ever leaving
 * a method out. Shrinking stays within the sequence's own mix.
 */
export function sequences(methods: readonly MethodName[], options: { maxCommands: number; replayPath?: string }): fc.Arbitrary<Iterable<fc.AsyncCommand<World, World>>> {
  const settings = { maxCommands: options.maxCommands, size: 'max' as const, ...(options.replayPath ? { replayPath: options.replayPath } : {}) };
  const focused = AREAS.filter(([, pattern]) => methods.some((m) => pattern.test(m)));
  return fc.oneof(
    fc.commands(commandArbitraries(methods), settings),
    ...focused.map(([, pattern, values]) => fc.commands(commandArbitraries(methods, pattern, values), settings)),
  );
}
