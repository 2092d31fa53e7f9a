// `tck explore --concurrency N`: N clients, each on its own connection, send their calls at the
// same time; every call's invocation and answer times are recorded, and the history is judged by a
// linearizability check (linearize.ts) against a sequential model of the stated rules: does some
// serial order, consistent with real time, explain every answer?
//
// The model holds what the documents state of each call, nothing the documents leave open:
// - add_message stores the message in its session (SPEC-2.1.16), answering the content sent
//   (SPEC-1.1.13) under a new id (SPEC-2.8.1); get_conversation lists the session's messages in the
//   order they were added (SPEC-2.2.1; the order of the serial order found); list_sessions counts
//   them (SPEC-2.4.2);
// - add_step keeps the step in its trace (SPEC-4.5.1) under a new id, with a step number no other
//   step of the trace has (SPEC-4.2.2); get_trace_with_steps holds exactly those steps (their order
//   and numbering base are silent);
// - record_tool_call counts for its tool; get_tool_stats(tool_name) totals the calls recorded
//   (SPEC-4.7.1).
// A finding is shrunk by running smaller programs again (fewer clients, fewer calls) while they
// still fail, and printed as parallel columns, one per client, with a script that replays it.
import { setMaxListeners } from 'node:events';
import { BridgeClient } from '../profiles/bridge/index.js';
import type { CallResult } from '../profiles/bridge/classify.js';
import { linearize, type Op, type SequentialModel, type Verdict } from './linearize.js';
import { mulberry32 } from '../util/random.js';

/** One call of a client's program (bridge method and parameters). */
interface Call {
  method: 'add_message' | 'get_conversation' | 'list_sessions' | 'add_step' | 'get_trace_with_steps' | 'record_tool_call' | 'get_tool_stats';
  params: Record<string, unknown>;
}

/** What came back: the answer's body on success, else the failure in words. */
type Answer = { ok: true; body: unknown } | { ok: false; error: string };

/** A field of an answer's object (undefined when the answer is no object). */
const at = (v: unknown, k: string): unknown => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined);
/** The items of a list (none when it is no list). */
const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

interface ConcurrentOptions {
  url: string;
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  /** Clients sending at once (each on its own connection). */
  concurrency: number;
  /** Histories to try. */
  runs: number;
  /** Calls per client. */
  callsPerClient: number;
  seed: number;
  /** Bound on the linearizability search of one history (model steps). */
  budget?: number;
  /** Bound on the re-runs spent shrinking a finding. */
  shrinkRuns?: number;
  /** Bound on the whole exploration, shrinking included (ms). */
  timeBudgetMs?: number;
  signal?: AbortSignal;
}

interface ConcurrentFinding {
  why: string;
  /** The minimal program found that still fails: one list of calls per client. */
  program: Call[][];
  history: Op<Call, Answer>[];
  /** The history as parallel columns, one per client, by time. */
  columns: string;
  /** A shell script that sends the program again, the clients in parallel (curl). */
  script: string;
}

interface ConcurrentResult {
  runs: number;
  /** Histories the bounded search could not decide (never a finding). */
  undecided: number;
  /** Model steps the checks took, all runs together. */
  steps: number;
  /** The methods drawn (Bronze only when the target has no reasoning memory). */
  methods: Call['method'][];
  finding?: ConcurrentFinding;
}

// ------------------------------------------------------------------ the model

const SESSIONS = ['conc-s0', 'conc-s1', 'conc-s2'];
const TOOLS = ['conc_tool_a', 'conc_tool_b'];

interface State {
  sessions: Record<string, string[]>;
  traces: Record<string, string[]>;
  tools: Record<string, number>;
  /** Every id handed out so far (messages and steps): a new one must not be among them. */
  ids: string[];
}

const plus = <T>(list: readonly T[], x: T) => [...list, x];

function modelOf(traces: readonly string[]): SequentialModel<State, Call, Answer> {
  return {
    init: () => ({ sessions: Object.fromEntries(SESSIONS.map((s) => [s, []])), traces: Object.fromEntries(traces.map((t) => [t, []])), tools: Object.fromEntries(TOOLS.map((t) => [t, 0])), ids: [] }),
    key: (s) => JSON.stringify([s.sessions, s.traces, s.tools]),
    step: (s, call, answer) => {
      if (!answer.ok) return { ok: false, why: `${call.method}(${JSON.stringify(call.params)}) failed: ${answer.error}` };
      const p = call.params;
      const b = answer.body;
      switch (call.method) {
        case 'add_message': {
          const session = String(p['session_id']);
          const id = String(at(b, 'id'));
          if (at(b, 'content') !== p['content']) return { ok: false, why: `add_message(${session}, ${JSON.stringify(p['content'])}) answered the content ${JSON.stringify(at(b, 'content'))}: the answer of another request (SPEC-1.1.13)` };
          if (s.ids.includes(id)) return { ok: false, why: `add_message(${session}, ${JSON.stringify(p['content'])}) answered the id ${id}, already handed out (SPEC-2.8.1)` };
          return { ok: true, next: { ...s, sessions: { ...s.sessions, [session]: plus(s.sessions[session]!, String(p['content'])) }, ids: plus(s.ids, id) } };
        }
        case 'get_conversation': {
          const session = String(p['session_id']);
          const got = Array.isArray(at(b, 'messages')) ? items(at(b, 'messages')).map((m) => at(m, 'content')) : b;
          const want = s.sessions[session]!;
          return JSON.stringify(got) === JSON.stringify(want) ? { ok: true, next: s }
            : { ok: false, why: `get_conversation(${session}) answered ${JSON.stringify(got)}; in no serial order consistent with real time does the session hold that (expected e.g. ${JSON.stringify(want)}: SPEC-2.1.16, SPEC-2.2.1)` };
        }
        case 'list_sessions': {
          // A history is judged per session: each list_sessions is judged in each session's part for that session.
          const judged = typeof p['session_id'] === 'string' ? [p['session_id']] : SESSIONS;
          for (const session of judged) {
            const count = at(items(b).find((e) => at(e, 'session_id') === session), 'message_count') ?? 0;
            if (count !== s.sessions[session]!.length) {
              return { ok: false, why: `list_sessions() counted ${count} messages in ${session}; in no serial order consistent with real time does it hold that many (e.g. ${s.sessions[session]!.length}: SPEC-2.4.2)` };
            }
          }
          return { ok: true, next: s };
        }
        case 'add_step': {
          const trace = String(p['trace_id']);
          const id = String(at(b, 'id'));
          if (s.ids.includes(id)) return { ok: false, why: `add_step(${trace}) answered the id ${id}, already handed out` };
          return { ok: true, next: { ...s, traces: { ...s.traces, [trace]: plus(s.traces[trace]!, id) }, ids: plus(s.ids, id) } };
        }
        case 'get_trace_with_steps': {
          const trace = String(p['trace_id']);
          const steps = items(at(b, 'steps'));
          const numbers = steps.map((x) => at(x, 'step_number'));
          if (new Set(numbers).size !== numbers.length) return { ok: false, why: `get_trace_with_steps(${trace}) holds two steps with one step_number (${numbers.join(', ')}): SPEC-4.2.2` };
          const got = steps.map((x) => String(at(x, 'id'))).sort();
          const want = [...s.traces[trace]!].sort();
          return JSON.stringify(got) === JSON.stringify(want) ? { ok: true, next: s }
            : { ok: false, why: `get_trace_with_steps(${trace}) holds ${got.length} steps; in no serial order consistent with real time does the trace hold those (e.g. ${want.length}: SPEC-4.5.1)` };
        }
        case 'record_tool_call': {
          const tool = String(p['tool_name']);
          return { ok: true, next: { ...s, tools: { ...s.tools, [tool]: s.tools[tool]! + 1 } } };
        }
        case 'get_tool_stats': {
          const tool = String(p['tool_name']);
          const total = at(items(b).find((e) => at(e, 'name') === tool), 'total_calls') ?? 0;
          return total === s.tools[tool] ? { ok: true, next: s }
            : { ok: false, why: `get_tool_stats(${tool}) counted ${total} calls; in no serial order consistent with real time were that many recorded (e.g. ${s.tools[tool]}: SPEC-4.7.1)` };
        }
      }
    },
  };
}

// ------------------------------------------------------------------ programs


interface Fixture {
  traces: string[];
  steps: string[];
}

/** The fixture's traces and steps a program refers to, by index (bound to ids by the run that executes it). */
const REFS = [0, 1];

function program(rand: () => number, clients: number, calls: number, methods: readonly Call['method'][]): Call[][] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  // Writes twice as often as reads: races need writers.
  const weighted = methods.flatMap((m) => (m.startsWith('add_') || m === 'record_tool_call' ? [m, m] : [m]));
  return Array.from({ length: clients }, (_, c) => Array.from({ length: calls }, (_, i): Call => {
    const method = pick(weighted);
    switch (method) {
      case 'add_message': return { method, params: { session_id: pick(SESSIONS), role: 'user', content: `client ${c + 1} call ${i + 1}` } };
      case 'get_conversation': return { method, params: { session_id: pick(SESSIONS) } };
      case 'list_sessions': return { method, params: {} };
      case 'add_step': return { method, params: { trace_id: pick(REFS), thought: `client ${c + 1} call ${i + 1}` } };
      case 'get_trace_with_steps': return { method, params: { trace_id: pick(REFS) } };
      case 'record_tool_call': return { method, params: { step_id: pick(REFS), tool_name: pick(TOOLS), arguments: { client: c + 1, call: i + 1 }, status: 'success' } };
      case 'get_tool_stats': return { method, params: { tool_name: pick(TOOLS) } };
    }
  }));
}

// ------------------------------------------------------------------ running

const BRONZE: Call['method'][] = ['add_message', 'get_conversation', 'list_sessions'];
const SILVER: Call['method'][] = ['add_step', 'get_trace_with_steps', 'record_tool_call', 'get_tool_stats'];

const answerOf = (r: CallResult): Answer => {
  const o = r.outcome;
  if (o.kind === 'null') return { ok: true, body: null };
  if (o.kind === 'object' || o.kind === 'list' || o.kind === 'deleted') return { ok: true, body: o.value };
  if (o.kind === 'void') return { ok: true, body: undefined };
  if (o.kind === 'error') return { ok: false, error: `${o.status} ${o.message}` };
  return { ok: false, error: o.reason };
};

class Target {
  readonly #clients: BridgeClient[] = [];
  constructor(private readonly options: ConcurrentOptions) {}

  client(i: number): BridgeClient {
    while (this.#clients.length <= i) {
      this.#clients.push(new BridgeClient({ url: this.options.url, timeoutMs: this.options.requestTimeoutMs ?? 10_000, ...(this.options.headers ? { headers: this.options.headers } : {}) }));
    }
    return this.#clients[i]!;
  }

  async call(i: number, method: string, params: Record<string, unknown>): Promise<Answer> {
    return answerOf(await this.client(i).call(method, params, this.options.signal ? { signal: this.options.signal } : {}));
  }

  async close(): Promise<void> {
    await Promise.all(this.#clients.map((c) => c.close()));
  }
}

/** Clears the target and makes the traces and steps the programs refer to (sequentially). */
async function prepare(target: Target, silver: boolean): Promise<Fixture> {
  const cleared = await target.call(0, 'clear_all_data', {});
  if (!cleared.ok) throw new Error(`clear_all_data failed: ${cleared.error}`);
  if (!silver) return { traces: [], steps: [] };
  const fixture: Fixture = { traces: [], steps: [] };
  for (const t of [1, 2]) {
    const trace = await target.call(0, 'start_trace', { session_id: 'conc-agents', task: `concurrent agent ${t}` });
    if (!trace.ok) throw new Error(`start_trace failed: ${trace.error}`);
    fixture.traces.push(String(at(trace.body, 'id')));
    const step = await target.call(0, 'add_step', { trace_id: at(trace.body, 'id'), thought: 'the step tool calls are recorded on' });
    if (!step.ok) throw new Error(`add_step failed: ${step.error}`);
    fixture.steps.push(String(at(step.body, 'id')));
  }
  return fixture;
}

/** Runs `prog` (its clients at once, each call after the previous one of its client) and records the history. */
async function execute(target: Target, prog: Call[][]): Promise<Op<Call, Answer>[]> {
  // Every client's connection is opened first, so the programs start together.
  await Promise.all(prog.map((_, c) => target.call(c, 'list_sessions', {})));
  const t0 = performance.now();
  const lanes = await Promise.all(prog.map(async (calls, client) => {
    const ops: Op<Call, Answer>[] = [];
    for (const call of calls) {
      const invokedMs = performance.now() - t0;
      const answer = await target.call(client, call.method, call.params);
      ops.push({ client, call, answer, invokedMs, answeredMs: performance.now() - t0 });
    }
    return ops;
  }));
  return lanes.flat();
}

/** The programs are judged against the model of the ops in the fixture's traces. */
async function judge(target: Target, prog: Call[][], silver: boolean, budget: number): Promise<{ history: Op<Call, Answer>[]; verdict: Verdict }> {
  const fixture = await prepare(target, silver);
  const bound = prog.map((calls) => calls.map((c) => rebind(c, fixture)));
  const history = await execute(target, bound);
  // The first step of each trace was made before the run: the model starts with it.
  const model = modelOf(fixture.traces);
  const base = model.init();
  fixture.traces.forEach((t, i) => (base.traces[t] = [fixture.steps[i]!]));
  base.ids = [...fixture.steps];
  const start = { ...model, init: () => structuredClone(base) };
  const reused = repeatedId(history, fixture);
  if (reused !== undefined) return { history, verdict: { kind: 'not-linearizable', why: reused, at: -1, steps: 0 } };
  // P-compositionality: sessions, traces and tools are independent objects; each part is checked on its own (a far smaller search).
  let steps = 0;
  let undecided = false;
  for (const part of partsOf(history).values()) {
    const v = linearize(part, start, budget);
    steps += v.steps;
    if (v.kind === 'not-linearizable') return { history, verdict: { ...v, steps } };
    if (v.kind === 'unknown') undecided = true;
  }
  return { history, verdict: undecided ? { kind: 'unknown', steps } : { kind: 'linearizable', order: [], steps } };
}

/** The ops of a history by the object they touch; a list_sessions is one op in each session's part, judged for that session. */
function partsOf(history: readonly Op<Call, Answer>[]): Map<string, Op<Call, Answer>[]> {
  const parts = new Map<string, Op<Call, Answer>[]>();
  const put = (key: string, op: Op<Call, Answer>) => (parts.get(key) ?? parts.set(key, []).get(key)!).push(op);
  for (const op of history) {
    const p = op.call.params;
    if (op.call.method === 'list_sessions') {
      for (const session of SESSIONS) put(`session:${session}`, { ...op, call: { method: 'list_sessions', params: { session_id: session } } });
    } else if ('session_id' in p) put(`session:${String(p['session_id'])}`, op);
    else if ('trace_id' in p) put(`trace:${String(p['trace_id'])}`, op);
    else put(`tool:${String(p['tool_name'])}`, op);
  }
  return parts;
}

/** An id answered for two objects (messages, steps, tool calls): ids are unique whatever the order (SPEC-2.8.1, SPEC-4.1.2). */
function repeatedId(history: readonly Op<Call, Answer>[], fixture: Fixture): string | undefined {
  const seen = new Map<string, string>(fixture.steps.map((id) => [id, 'a step made before the run']));
  for (const op of history) {
    if (!op.answer.ok || !['add_message', 'add_step', 'record_tool_call'].includes(op.call.method)) continue;
    const id = String(at(op.answer.body, 'id'));
    const what = `${op.call.method} of client ${op.client + 1}`;
    const before = seen.get(id);
    if (before !== undefined) return `${what} answered the id ${id}, already the id of ${before}: every object gets a new id, whatever the order (SPEC-2.8.1)`;
    seen.set(id, what);
  }
  return undefined;
}

/** The program's trace and step references are indices into the fixture of the run that executes it. */
function rebind(call: Call, fixture: Fixture): Call {
  const p = { ...call.params };
  if (typeof p['trace_id'] === 'number') p['trace_id'] = fixture.traces[p['trace_id']];
  if (typeof p['step_id'] === 'number') p['step_id'] = fixture.steps[p['step_id']];
  return { method: call.method, params: p };
}

/** Smaller programs, the biggest cuts first: half of the clients, one client, half of a client's calls, one call. */
function* smaller(prog: Call[][]): Generator<Call[][]> {
  const half = Math.floor(prog.length / 2);
  if (half >= 2) {
    yield prog.slice(0, half);
    yield prog.slice(half);
  }
  if (prog.length > 2) for (let c = 0; c < prog.length; c++) yield prog.filter((_, i) => i !== c);
  for (let c = 0; c < prog.length; c++) {
    const calls = prog[c]!;
    if (calls.length >= 4) yield prog.map((list, k) => (k === c ? list.slice(0, Math.ceil(list.length / 2)) : list));
    for (let i = calls.length - 1; i >= 0; i--) {
      if (calls.length > 1) yield prog.map((list, k) => (k === c ? list.filter((_, j) => j !== i) : list));
    }
  }
}

export async function exploreConcurrently(options: ConcurrentOptions): Promise<ConcurrentResult> {
  // Each client's transport listens on the signal once.
  if (options.signal !== undefined) setMaxListeners(options.concurrency + 10, options.signal);
  const target = new Target(options);
  const budget = options.budget ?? 200_000;
  const rand = mulberry32(options.seed);
  try {
    // Reasoning memory when the target has it (a start_trace that answers).
    const silver = (await target.call(0, 'start_trace', { session_id: 'conc-probe', task: 'probe' })).ok;
    const methods = silver ? [...BRONZE, ...SILVER] : BRONZE;
    let steps = 0;
    let undecided = 0;
    const deadline = performance.now() + (options.timeBudgetMs ?? Infinity);
    let run = 0;
    for (; run < options.runs && options.signal?.aborted !== true && performance.now() < deadline; run++) {
      const prog = program(rand, options.concurrency, options.callsPerClient, methods);
      const { history, verdict } = await judge(target, prog, silver, budget);
      steps += verdict.steps;
      if (verdict.kind === 'unknown') undecided++;
      if (verdict.kind !== 'not-linearizable') continue;
      const finding = await shrink(target, prog, { history, verdict }, silver, budget, options.shrinkRuns ?? 80, deadline, options.signal);
      return { runs: run + 1, undecided, steps, methods, finding: present(finding, options.url) };
    }
    return { runs: run, undecided, steps, methods };
  } finally {
    await target.close();
  }
}

/** Keeps the smallest program that still fails (each candidate run twice: a race may need a second chance). */
async function shrink(target: Target, prog: Call[][], first: { history: Op<Call, Answer>[]; verdict: Verdict }, silver: boolean, budget: number, runs: number, deadline: number, signal?: AbortSignal) {
  let best = { prog, ...first };
  let left = runs;
  let improved = true;
  while (improved && left > 0 && signal?.aborted !== true && performance.now() < deadline) {
    improved = false;
    for (const candidate of smaller(best.prog)) {
      if (left <= 0 || performance.now() >= deadline) break;
      let failed: { history: Op<Call, Answer>[]; verdict: Verdict } | undefined;
      for (let attempt = 0; attempt < 2 && failed === undefined && left > 0; attempt++, left--) {
        const r = await judge(target, candidate, silver, budget);
        if (r.verdict.kind === 'not-linearizable') failed = r;
      }
      if (failed !== undefined) {
        best = { prog: candidate, ...failed };
        improved = true;
        break;
      }
    }
  }
  return best;
}

function present(best: { prog: Call[][]; history: Op<Call, Answer>[]; verdict: Verdict }, url: string): ConcurrentFinding {
  const why = best.verdict.kind === 'not-linearizable' ? best.verdict.why : '';
  return { why, program: best.prog, history: best.history, columns: columnsOf(best.history, best.prog.length), script: scriptOf(best.prog, url) };
}

const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f-]{27}$/i;
const short = (call: Call) => `${call.method}(${Object.entries(call.params)
  .filter(([k]) => k !== 'role' && k !== 'arguments' && k !== 'status')
  .map(([, v]) => (typeof v === 'string' && UUID_LIKE.test(v) ? `…${v.slice(-6)}` : JSON.stringify(v)))
  .join(', ')})`;
function answerText(call: Call, a: Answer): string {
  if (!a.ok) return `! ${a.error}`;
  const b = a.body;
  switch (call.method) {
    case 'add_message': return `id …${String(at(b, 'id')).slice(-6)}`;
    case 'get_conversation': return JSON.stringify(items(at(b, 'messages')).map((m) => at(m, 'content')));
    case 'list_sessions': return JSON.stringify(Object.fromEntries(items(b).map((e) => [String(at(e, 'session_id')), at(e, 'message_count')])));
    case 'add_step': return `step ${String(at(b, 'step_number'))}`;
    case 'get_trace_with_steps': return `${items(at(b, 'steps')).length} steps`;
    case 'record_tool_call': return `id …${String(at(b, 'id')).slice(-6)}`;
    case 'get_tool_stats': return JSON.stringify(items(b).map((e) => [at(e, 'name'), at(e, 'total_calls')]));
  }
}

/** One column per client, one row per call in order of invocation, each with its [invoked, answered] ms. */
function columnsOf(history: readonly Op<Call, Answer>[], clients: number): string {
  const width = 52;
  const cell = (s: string) => (s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width));
  const rows = [...history].sort((a, b) => a.invokedMs - b.invokedMs);
  const head = Array.from({ length: clients }, (_, c) => cell(`client ${c + 1}`)).join(' | ');
  const lines = [head, Array.from({ length: clients }, () => '-'.repeat(width)).join('-+-')];
  for (const op of rows) {
    const text = `[${op.invokedMs.toFixed(1)}–${op.answeredMs.toFixed(1)}] ${short(op.call)} → ${answerText(op.call, op.answer)}`;
    lines.push(Array.from({ length: clients }, (_, c) => cell(c === op.client ? text : '')).join(' | ').trimEnd());
  }
  return lines.join('\n');
}

/** A bash script sending the program again: each client's calls in order, the clients in parallel. */
function scriptOf(prog: readonly Call[][], url: string): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const post = (method: string, params: unknown) => `curl -sS -X POST "$URL/${method}" -H 'content-type: application/json' --data ${quote(JSON.stringify(params))}; echo`;
  const lines = [
    '#!/usr/bin/env bash',
    '# tck explore --concurrency: the clients of a finding, sent again at once (one curl per call, one subshell per client).',
    '# Trace and step ids are made first; the answers show whether the race happened again.',
    `URL=\${URL:-${url}}`,
    'set -u',
    post('clear_all_data', {}),
  ];
  const usesTraces = prog.flat().some((c) => 'trace_id' in c.params || 'step_id' in c.params);
  if (usesTraces) {
    lines.push('TRACES=(); STEPS=()');
    lines.push(`for t in 1 2; do T=$(curl -sS -X POST "$URL/start_trace" -H 'content-type: application/json' --data '{"session_id":"conc-agents","task":"concurrent agent '$t'"}' | sed -E 's/.*"id":"([^"]+)".*/\\1/'); TRACES+=("$T");`);
    lines.push(`  S=$(curl -sS -X POST "$URL/add_step" -H 'content-type: application/json' --data '{"trace_id":"'$T'","thought":"the step tool calls are recorded on"}' | sed -E 's/.*"id":"([^"]+)".*/\\1/'); STEPS+=("$S"); done`);
  }
  const body = (c: Call) => {
    const json = JSON.stringify(c.params);
    if (typeof c.params['trace_id'] === 'number') return `'${json.replace(`"trace_id":${c.params['trace_id']}`, `"trace_id":"'"\${TRACES[${c.params['trace_id']}]}"'"`)}'`;
    if (typeof c.params['step_id'] === 'number') return `'${json.replace(`"step_id":${c.params['step_id']}`, `"step_id":"'"\${STEPS[${c.params['step_id']}]}"'"`)}'`;
    return quote(json);
  };
  prog.forEach((calls, c) => {
    lines.push(`( # client ${c + 1}`);
    for (const call of calls) lines.push(`  echo "client ${c + 1} ${call.method}: $(curl -sS -X POST "$URL/${call.method}" -H 'content-type: application/json' --data ${body(call)})"`);
    lines.push(') &');
  });
  lines.push('wait');
  return `${lines.join('\n')}\n`;
}

