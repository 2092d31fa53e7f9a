// Silver, reasoning memory: start_trace, add_step, complete_trace, get_trace_with_steps and
// list_traces (SPEC-4.1, 4.2, 4.4, 4.5, 4.6). The trace helpers are shared with tool-calls.ts.
import { SPECIAL_CONTENT, UNICODE_CONTENT } from '../../fixtures/data.js';
import type { Check } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { ReasoningStep, ReasoningTrace, ToolCall } from '../../src/protocols/bridge/model.js';
import { checkSameInstant } from './entities.js';
import { allIn } from '../support/by-id.js';
import { notBefore, serverClock, serverTimePast } from '../support/time.js';

/** The server's time now, as the started_at of a trace in a session no check reads. */

// ------------------------------------------------------------------ helpers

const SESSION_A = 'tck-silver-session-a';
const SESSION_B = 'tck-silver-session-b';
const TASK = 'Find out where Alice Johnson works';
/** A well-formed UUID that no server hands out in a scenario. */
const UNKNOWN_TRACE_ID = '00000000-0000-4000-8000-00000000dead';

// silent (all views): an unset optional field is null or omitted (never "").
function traceView(t: ReasoningTrace) {
  return { id: t.id, session_id: t.session_id, task: t.task, outcome: t.outcome ?? null, success: t.success ?? null };
}

function stepView(s: ReasoningStep) {
  return {
    id: s.id, trace_id: s.trace_id, step_number: s.step_number,
    thought: s.thought ?? null, action: s.action ?? null, observation: s.observation ?? null,
  };
}

export function callView(c: ToolCall) {
  return {
    id: c.id, tool_name: c.tool_name, arguments: c.arguments, result: c.result ?? null,
    status: c.status, duration_ms: c.duration_ms ?? null, error: c.error ?? null,
  };
}

/** get_trace_with_steps(id), which must find the trace (SPEC-4.5.1: it returns the full trace). */
export async function readTrace(bridge: BridgeApi, check: Check, id: string, what: string): Promise<ReasoningTrace> {
  const t = await bridge.get_trace_with_steps({ trace_id: id });
  return check.by('SPEC-4.5.1').present(t, `get_trace_with_steps(${id}) ${what}: the trace`);
}

type StepFields = { thought?: string; action?: string; observation?: string };

/**
 * Adds a step and checks that the answer belongs to the trace (SPEC-4.2.1) and echoes the fields sent,
 * absent ones null or omitted (SPEC-4.2.5 stores the values given; SPEC-4.2.3 accepts partial fields).
 */
export async function addStep(bridge: BridgeApi, check: Check, trace: ReasoningTrace, fields: StepFields, fieldCites: readonly string[] = ['SPEC-4.2.5', 'SPEC-4.2.3']): Promise<ReasoningStep> {
  const s = await bridge.add_step({ trace_id: trace.id, ...fields });
  check.by('SPEC-4.2.1').equal(s.trace_id, trace.id, `add_step(${Object.keys(fields).join(', ') || 'no fields'}): trace_id of the returned step`);
  check.by(...fieldCites).equal(
    { thought: s.thought ?? null, action: s.action ?? null, observation: s.observation ?? null },
    { thought: fields.thought ?? null, action: fields.action ?? null, observation: fields.observation ?? null },
    `add_step(${Object.keys(fields).join(', ') || 'no fields'}): the fields of the returned step (absent ones null or omitted)`,
  );
  // A step's tool_calls are the calls recorded on it: none yet.
  check.by('BRIDGE-MODEL-ReasoningStep.tool_calls').equal(s.tool_calls, [], 'add_step: tool_calls of a new step');
  return s;
}

/** A trace with one step, the place tool calls are recorded in. */
export async function traceWithStep(bridge: BridgeApi, check: Check, action: string, session = SESSION_A) {
  const trace = await bridge.start_trace({ session_id: session, task: TASK });
  const step = await addStep(bridge, check, trace, { action });
  return { trace, step };
}

/** Step numbers strictly increase in the order the steps were added. silent: the base (0 or 1) and the increment. */
function checkIncreasing(check: Check, steps: readonly ReasoningStep[], what: string): void {
  for (let i = 1; i < steps.length; i++) {
    check.ok(
      steps[i]!.step_number > steps[i - 1]!.step_number,
      `${what}: step_number must strictly increase in the order steps were added, got ${steps.map((s) => s.step_number).join(', ')}`,
    );
  }
}

/** The read-back trace holds exactly these steps, in this order, unchanged (SPEC-4.5.1: the full trace with all steps). */
function checkSteps(check: Check, trace: ReasoningTrace, sent: readonly ReasoningStep[], what: string): void {
  check.by('SPEC-4.5.1').equal(trace.steps.map(stepView), sent.map(stepView), `get_trace_with_steps ${what}: the steps added, in order`);
}

async function startTraces(bridge: BridgeApi, list: readonly (readonly [string, string])[]): Promise<ReasoningTrace[]> {
  const out: ReasoningTrace[] = [];
  for (const [session_id, task] of list) out.push(await bridge.start_trace({ session_id, task }));
  return out;
}

/** list_traces(params) returns exactly the traces `expected` (by id, as a set). silent: the order of list_traces. */
async function checkListed(
  bridge: BridgeApi, check: Check, params: { session_id?: string; limit?: number }, expected: readonly ReasoningTrace[],
): Promise<void> {
  const got = await bridge.list_traces(params);
  const tasks = (l: readonly ReasoningTrace[]) => `[${l.map((t) => t.task).sort().join(', ')}]`;
  check.equal(
    got.map((t) => t.id).sort(),
    expected.map((t) => t.id).sort(),
    `list_traces(${JSON.stringify(params)}): expected exactly the traces ${tasks(expected)}, got ${tasks(got)}`,
  );
}

// ------------------------------------------------------------------ scenarios

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-022', tier: 'silver', group: 'start_trace', clauses: ['SPEC-4.1.1'],
    title: 'start_trace returns an open trace, which get_trace_with_steps reads back',
    asserts: 'start_trace gives a UUID, the session and task sent, no steps, started_at, and outcome, success and completed_at unset; the read-back, once the server\'s clock has passed started_at by two units of its precision, is the same trace (started_at the same instant).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const t = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      check.uuid(t.id, 'start_trace: id');
      check.equal(traceView(t), { id: t.id, session_id: SESSION_A, task: TASK, outcome: null, success: null },
        `start_trace(session_id=${SESSION_A}): session_id and task as sent, outcome and success unset`);
      check.equal(t.completed_at ?? null, null, 'start_trace: completed_at of a trace not yet completed');
      check.equal(t.steps, [], 'start_trace: steps of a new trace');
      // A started_at read as the time of the read shows only once the server's clock has moved past it.
      await serverTimePast(t.started_at, serverClock(ctx, 'start_trace', 'tck-clock'));
      const back = await readTrace(bridge, check, t.id, 'after start_trace');
      const read = check.by('SPEC-4.5.1');
      read.equal(traceView(back), traceView(t), `get_trace_with_steps(${t.id}): the trace started`);
      read.equal(back.steps, [], 'get_trace_with_steps: steps of a trace with none added');
      read.equal(back.completed_at ?? null, null, 'get_trace_with_steps: completed_at of a trace not yet completed');
      checkSameInstant(read, back.started_at, t.started_at, 'get_trace_with_steps: started_at');
    },
  }),

  defineScenario({
    id: 'SCN-S-023', tier: 'silver', group: 'start_trace', clauses: ['SPEC-4.1.2'],
    title: 'every trace gets its own id',
    asserts: 'Starts three traces in one session; the ids are distinct and each reads back with its own task.',
    async run({ bridge, check }) {
      const traces = await startTraces(bridge, [[SESSION_A, 'Task 1'], [SESSION_A, 'Task 2'], [SESSION_A, 'Task 3']]);
      check.distinct(traces.map((t) => t.id), 'start_trace ×3: trace ids');
      for (const t of traces) {
        const back = await readTrace(bridge, check, t.id, `after start_trace(task=${JSON.stringify(t.task)})`);
        check.by('SPEC-4.5.1').equal(traceView(back), traceView(t), `get_trace_with_steps(${t.id}): the trace of task ${JSON.stringify(t.task)}`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-S-024', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.1'],
    title: 'add_step returns a step of the trace, which the trace then holds',
    asserts: 'add_step with thought, action and observation returns a UUID step with that trace_id and those fields; get_trace_with_steps holds exactly that step.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const step = await addStep(bridge, check, trace, {
        thought: 'I need to search for information.', action: 'search', observation: 'Found relevant data.',
      });
      check.uuid(step.id, 'add_step: id');
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after add_step'), [step], 'after one add_step');
    },
  }),

  defineScenario({
    id: 'SCN-S-025', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.2'],
    title: 'step numbers strictly increase',
    asserts: 'Adds three steps; their step_number values strictly increase, and get_trace_with_steps lists the three steps in that order with the same numbers.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const steps: ReasoningStep[] = [];
      for (const thought of ['Step 1', 'Step 2', 'Step 3']) steps.push(await addStep(bridge, check, trace, { thought }));
      checkIncreasing(check, steps, 'add_step ×3');
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after three add_step'), steps, 'after three add_step');
    },
  }),

  defineScenario({
    id: 'SCN-S-026', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.3'],
    title: 'add_step accepts a thought alone or an action alone',
    asserts: 'Adds a thought-only and an action-only step; each has the field sent and the others null or omitted, in the answer and in the read-back.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const a = await addStep(bridge, check, trace, { thought: 'Just thinking' });
      const b = await addStep(bridge, check, trace, { action: 'Just acting' });
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after partial add_step'), [a, b], 'after a thought-only and an action-only step');
    },
  }),

  defineScenario({
    id: 'SCN-S-057', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.4'],
    title: 'add_step accepts an observation alone',
    asserts: 'Adds an observation-only step; observation is kept and thought and action are null or omitted, in the answer and in the read-back.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const s = await addStep(bridge, check, trace, { observation: 'I see something' }, ['SPEC-4.2.4']);
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after add_step'), [s], 'after an observation-only step');
    },
  }),

  defineScenario({
    id: 'SCN-S-058', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.5'],
    title: 'add_step keeps all three fields exactly',
    asserts: 'Adds a step whose thought holds control characters, quotes and JSON-like text and whose observation holds emoji, CJK and RTL text; answer and read-back give them exactly.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const s = await addStep(bridge, check, trace, { thought: SPECIAL_CONTENT, action: 'do_something', observation: UNICODE_CONTENT });
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after add_step'), [s], 'after a step with all fields');
    },
  }),

  defineScenario({
    id: 'SCN-S-059', tier: 'silver', group: 'add_step', clauses: ['SPEC-4.2.6'],
    title: 'twelve steps keep strictly increasing numbers',
    asserts: 'Adds twelve steps; step_number strictly increases across all of them, and the read-back lists all twelve in order, unchanged.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const steps: ReasoningStep[] = [];
      for (let i = 0; i < 12; i++) steps.push(await addStep(bridge, check, trace, { thought: `Step ${i}` }));
      checkIncreasing(check, steps, 'add_step ×12');
      checkSteps(check, await readTrace(bridge, check, trace.id, 'after twelve add_step'), steps, 'after twelve add_step');
    },
  }),

  defineScenario({
    id: 'SCN-S-031', tier: 'silver', group: 'complete_trace', clauses: ['SPEC-4.4.1'],
    title: 'complete_trace sets outcome, success and completed_at',
    asserts: 'Completes a trace with an outcome and success=true; the answer and the read-back (once the server\'s clock has passed completed_at by two units of its precision) carry them, completed_at is not before started_at, and the step stays.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const step = await addStep(bridge, check, trace, { thought: 'Analyzed the data' });
      const outcome = 'Found Alice Johnson at Acme Corp';
      const done = await bridge.complete_trace({ trace_id: trace.id, outcome, success: true });
      check.equal(traceView(done), { ...traceView(trace), outcome, success: true }, 'complete_trace(outcome, success=true): the completed trace');
      check.timestamp(done.completed_at, 'complete_trace: completed_at');
      // silent (timestamp-format): compared as instants, at the precision of the coarser
      check.ok(
        notBefore(done.completed_at!, trace.started_at),
        `complete_trace: completed_at ${done.completed_at} is before started_at ${trace.started_at}`,
      );
      // A completed_at read as the time of the read shows only once the server's clock has moved past it.
      await serverTimePast(done.completed_at!, serverClock(ctx, 'start_trace', 'tck-clock'));
      const back = await readTrace(bridge, check, trace.id, 'after complete_trace');
      const read = check.by('SPEC-4.5.1', 'SPEC-4.4.1');
      read.equal(traceView(back), traceView(done), `get_trace_with_steps(${trace.id}) after complete_trace: outcome and success`);
      read.timestamp(back.completed_at, 'get_trace_with_steps after complete_trace: completed_at');
      checkSameInstant(read, back.completed_at!, done.completed_at!, 'get_trace_with_steps after complete_trace: completed_at');
      checkSteps(check, back, [step], 'after complete_trace');
    },
  }),

  defineScenario({
    id: 'SCN-S-032', tier: 'silver', group: 'complete_trace', clauses: ['SPEC-4.4.2'],
    title: 'complete_trace records a failure as success=false',
    asserts: 'Completes a trace with success=false; the answer and the read-back have success false (not null) and the outcome sent.',
    async run({ bridge, check }) {
      const trace = await bridge.start_trace({ session_id: SESSION_A, task: 'Impossible task' });
      const outcome = 'Could not complete the task';
      const done = await bridge.complete_trace({ trace_id: trace.id, outcome, success: false });
      check.equal(traceView(done), { ...traceView(trace), outcome, success: false }, 'complete_trace(outcome, success=false): the completed trace');
      const back = await readTrace(bridge, check, trace.id, 'after complete_trace');
      check.by('SPEC-4.5.1', 'SPEC-4.4.2').equal(traceView(back), traceView(done), `get_trace_with_steps(${trace.id}) after complete_trace(success=false)`);
    },
  }),

  defineScenario({
    id: 'SCN-S-033', tier: 'silver', group: 'get_trace_with_steps', clauses: ['SPEC-4.5.1'],
    title: 'get_trace_with_steps returns the trace with its steps in order',
    asserts: 'Adds two steps to a trace, interleaved with a step of another trace, and completes it; the read-back has its outcome and exactly its two steps, in order.',
    async run({ bridge, check }) {
      const [trace, other] = await startTraces(bridge, [[SESSION_A, TASK], [SESSION_A, 'Another task']]);
      const s1 = await addStep(bridge, check, trace!, { thought: 'Step 1', action: 'search' });
      await addStep(bridge, check, other!, { thought: 'Step of another trace' });
      const s2 = await addStep(bridge, check, trace!, { thought: 'Step 2', action: 'analyze' });
      const done = await bridge.complete_trace({ trace_id: trace!.id, outcome: 'Done', success: true });
      const back = await readTrace(bridge, check, trace!.id, 'after two add_step and complete_trace');
      check.equal(traceView(back), traceView(done), `get_trace_with_steps(${trace!.id}): the completed trace`);
      checkSteps(check, back, [s1, s2], 'of a trace whose steps were interleaved with another trace');
    },
  }),

  defineScenario({
    id: 'SCN-S-035', tier: 'silver', group: 'get_trace_with_steps', clauses: ['SPEC-4.5.3'],
    title: 'get_trace_with_steps answers null for an unknown trace',
    asserts: 'With one trace stored, get_trace_with_steps of another well-formed UUID answers 200 null.',
    async run({ bridge, check }) {
      await bridge.start_trace({ session_id: SESSION_A, task: TASK });
      const got = await bridge.get_trace_with_steps({ trace_id: UNKNOWN_TRACE_ID });
      check.equal(got, null, `get_trace_with_steps(${UNKNOWN_TRACE_ID}) of an id no trace has`);
    },
  }),

  defineScenario({
    id: 'SCN-S-036', tier: 'silver', group: 'list_traces', clauses: ['SPEC-4.6.1'],
    title: 'list_traces without parameters returns every trace',
    asserts: 'Starts three traces in two sessions; list_traces() returns exactly those three.',
    async run({ bridge, check }) {
      const traces = await startTraces(bridge, [[SESSION_A, 'Task 1'], [SESSION_A, 'Task 2'], [SESSION_B, 'Task 3']]);
      await checkListed(bridge, check, {}, traces);
    },
  }),

  defineScenario({
    id: 'SCN-S-037', tier: 'silver', group: 'list_traces', clauses: ['SPEC-4.6.2'],
    title: 'list_traces with session_id returns the traces of that session only',
    asserts: 'Starts traces alternately in sessions A and B; list_traces(session_id=A) returns exactly the two of A, and likewise for B.',
    async run({ bridge, check }) {
      const [a1, b1, a2, b2] = await startTraces(bridge, [
        [SESSION_A, 'Task A1'], [SESSION_B, 'Task B1'], [SESSION_A, 'Task A2'], [SESSION_B, 'Task B2'],
      ]);
      await checkListed(bridge, check, { session_id: SESSION_A }, [a1!, a2!]);
      await checkListed(bridge, check, { session_id: SESSION_B }, [b1!, b2!]);
    },
  }),

  defineScenario({
    id: 'SCN-S-038', tier: 'silver', group: 'list_traces', clauses: ['SPEC-4.6.3'],
    title: 'list_traces returns exactly limit traces when there are more',
    asserts: 'Starts five traces; list_traces(limit=2) returns exactly two distinct traces, both of them ours.',
    async run({ bridge, check }) {
      const traces = await startTraces(bridge, [0, 1, 2, 3, 4].map((i) => [SESSION_A, `Task ${i}`] as const));
      const got = await bridge.list_traces({ limit: 2 });
      // Every trace (SPEC-4.6.1), no more than limit (SPEC-4.6.3): two distinct traces of the five.
      const limited = check.by('SPEC-4.6.3', 'SPEC-4.6.1');
      limited.length(got, 2, 'list_traces(limit=2) with five traces stored');
      // silent: which two traces the limit keeps.
      const ids = new Set(traces.map((t) => t.id));
      check.by('SPEC-4.6.1').every(got, (t) => ids.has(t.id), 'list_traces(limit=2): every trace is one of those started');
      limited.distinct(got.map((t) => t.id), 'list_traces(limit=2): trace ids');
    },
  }),

  defineScenario({
    id: 'SCN-S-064', tier: 'silver', group: 'list_traces', clauses: ['SPEC-4.6.4'],
    title: 'list_traces on an empty store returns []',
    asserts: 'With no trace stored, list_traces() returns an empty array.',
    async run({ bridge, check }) {
      check.empty(await bridge.list_traces({}), 'list_traces() with no traces stored');
    },
  }),

  defineScenario({
    id: 'SCN-S-103', tier: 'silver', group: 'list_traces', clauses: ['SPEC-4.6.2', 'SPEC-4.6.3'],
    title: 'list_traces applies the limit to the traces of the session',
    asserts: 'Starts three traces in each of two sessions, alternately; list_traces(session_id=A, limit=2) returns exactly two traces, both of session A.',
    async run({ bridge, check }) {
      const plan = [1, 2, 3].flatMap((i) => [[SESSION_A, `Task A${i}`], [SESSION_B, `Task B${i}`]] as const);
      const traces = await startTraces(bridge, plan);
      const got = await bridge.list_traces({ session_id: SESSION_A, limit: 2 });
      check.length(got, 2, `list_traces(session_id=${SESSION_A}, limit=2) with three traces in that session`);
      const startedIn = new Map(traces.map((t, i) => [t.id, plan[i]![0]]));
      // silent: which two of the session's traces the limit keeps.
      allIn(got, SESSION_A, (t) => startedIn.get(t.id), `list_traces(session_id=${SESSION_A}, limit=2): every trace is one started in ${SESSION_A}`, { noun: 'trace', field: 'session' });
      check.distinct(got.map((t) => t.id), `list_traces(session_id=${SESSION_A}, limit=2): trace ids`);
    },
  }),
];
