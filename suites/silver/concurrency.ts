// Silver under concurrency: one agent running its tools in parallel records their steps and calls at
// once; several agents add entities and start traces at once. What the documents state of each call
// must hold for a batch sent at once: every step kept (SPEC-4.5.1) with its own step number
// (SPEC-4.2.2), every tool call kept under its step (SPEC-4.5.2), statistics that are the aggregates
// of the calls recorded (SPEC-4.7.1), every entity found by its name (SPEC-3.6.1), every trace its own
// id (SPEC-4.1.2). The order among calls in flight at once is left open (any serial order).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { show } from '../../src/engine/assert.js';
import type { ReasoningStep, ReasoningTrace, ToolCall, ToolCallStatus } from '../../src/protocols/bridge/model.js';
import { MANY, SOCKETS, batch, range, repeats, shapeName } from '../support/concurrency.js';
import { checkStats, type ExpectedStats } from './tool-calls.js';

const group = 'concurrency';
const how = shapeName(SOCKETS);

/** Each id of `want` exactly once in `got` (nothing said of what else `got` holds): what is wrong, in words. */
function eachOnce(got: readonly string[], want: readonly string[]): string[] {
  const missing = want.filter((id) => !got.includes(id));
  const twice = repeats(got.filter((id) => want.includes(id)));
  return [...(missing.length > 0 ? [`missing ${missing.length}: ${missing.join(', ')}`] : []), ...(twice.length > 0 ? [`repeated: ${twice.join(', ')}`] : [])];
}

async function readTrace(bridge: Parameters<Scenario['run']>[0]['bridge'], check: Parameters<Scenario['run']>[0]['check'], id: string): Promise<ReasoningTrace> {
  return check.by('SPEC-4.5.1').present(await bridge.get_trace_with_steps({ trace_id: id }), `get_trace_with_steps(${id}) of a trace just started`);
}

/** A batch of tool calls: two tools, successes and failures, every one with a duration. */
interface SentCall { tool_name: string; arguments: { n: number }; status: ToolCallStatus; duration_ms: number; error?: string }
const sentCall = (i: number): SentCall => {
  const status: ToolCallStatus = i % 3 === 0 ? 'failure' : 'success';
  return { tool_name: i % 2 === 0 ? 'concurrent_search' : 'concurrent_fetch', arguments: { n: i }, status, duration_ms: 10 * (i + 1), ...(status === 'failure' ? { error: `failed #${i}` } : {}) };
};

/** What get_tool_stats must say of `calls`, per tool. */
function expectedStats(calls: readonly SentCall[]): ExpectedStats[] {
  const names = [...new Set(calls.map((c) => c.tool_name))];
  return names.map((name) => {
    const mine = calls.filter((c) => c.tool_name === name);
    const ok = mine.filter((c) => c.status === 'success').length;
    return {
      name, total_calls: mine.length, successful_calls: ok, failed_calls: mine.length - ok,
      success_rate: ok / mine.length, avg_duration_ms: mine.reduce((s, c) => s + c.duration_ms, 0) / mine.length,
    };
  });
}

/** The answers carry what their own calls sent; the call ids are distinct. */
function checkCallAnswers(check: Parameters<Scenario['run']>[0]['check'], answers: readonly ToolCall[], sent: readonly SentCall[], where: string): void {
  answers.forEach((a, i) => {
    check.by('SPEC-4.3.1').equal({ tool_name: a.tool_name, arguments: a.arguments, status: a.status }, { tool_name: sent[i]!.tool_name, arguments: sent[i]!.arguments, status: sent[i]!.status },
      `record_tool_call call ${i + 1} of ${answers.length} sent at once ${where}: the answer carries the tool, arguments and status that call sent`);
  });
  const ids = answers.map((c) => c.id);
  check.by('SPEC-4.3.1').that(repeats(ids).length === 0, `record_tool_call: ${ids.length} calls at once answer distinct ids`, () => ({
    message: `record_tool_call (${ids.length} calls at once ${where}): an id was answered to more than one call: ${repeats(ids).join(', ')}`, expected: 'distinct ids', actual: ids,
  }));
}

/** get_tool_stats() gives exactly the aggregates of `sent` for each of its tools. */
async function checkAllStats(bridge: Parameters<Scenario['run']>[0]['bridge'], check: Parameters<Scenario['run']>[0]['check'], sent: readonly SentCall[], after: string): Promise<void> {
  const stats = await bridge.get_tool_stats({});
  for (const want of expectedStats(sent)) {
    checkStats(check, stats.find((s) => s.name === want.name), want, `get_tool_stats() ${after}`);
  }
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-112', tier: 'silver', group,
    clauses: ['SPEC-4.2.1', 'SPEC-4.2.2', 'SPEC-4.5.1'],
    title: `${MANY} add_step calls at once to one trace keep every step, each with its own number`,
    asserts:
      `Starts a trace and sends ${MANY} add_step calls to it at once (${how}). Each answer must be tied to the trace and carry the thought its call sent (SPEC-4.2.1); ` +
      `the step numbers answered must be distinct (SPEC-4.2.2: they increase with each step, in whatever order the steps were taken); ` +
      'get_trace_with_steps must hold every step once, with distinct numbers (SPEC-4.5.1, SPEC-4.2.2).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const trace = await bridge.start_trace({ session_id: 'concurrent-steps', task: 'run tools in parallel' });
      const thoughts = range(MANY).map((i) => `parallel thought ${i + 1}`);
      const steps = await batch(ctx, SOCKETS, (b) => thoughts.map((thought) => b.add_step({ trace_id: trace.id, thought })));
      steps.forEach((s, i) => check.by('SPEC-4.2.1').equal({ trace_id: s.trace_id, thought: s.thought }, { trace_id: trace.id, thought: thoughts[i] },
        `add_step call ${i + 1} of ${MANY} sent at once ${how}: the step answered is tied to the trace and carries the thought that call sent`));
      const numbers = steps.map((s) => String(s.step_number));
      check.by('SPEC-4.2.2').that(repeats(numbers).length === 0, `add_step: ${MANY} steps added at once answer distinct step numbers`, () => ({
        message: `add_step (${MANY} calls at once ${how} to trace ${trace.id}): step_number answered to more than one step: ${repeats(numbers).join(', ')}; a trace's step numbers increase with each step`,
        expected: 'distinct step numbers', actual: numbers,
      }));
      const back = await readTrace(bridge, check, trace.id);
      const off = eachOnce(back.steps.map((s) => s.id), steps.map((s) => s.id));
      check.by('SPEC-4.5.1').that(off.length === 0, `get_trace_with_steps holds every step of the ${MANY} added at once, once each`, () => ({
        message: `get_trace_with_steps(${trace.id}) after ${MANY} add_step calls at once ${how} that all answered 200: the trace must come back with every step, once each; ${off.join('; ')}`,
        expected: steps.map((s) => s.id), actual: back.steps.map((s) => s.id),
      }));
      const read = back.steps.map((s) => String(s.step_number));
      check.by('SPEC-4.2.2').that(repeats(read).length === 0, 'get_trace_with_steps: the steps added at once have distinct step numbers', () => ({
        message: `get_trace_with_steps(${trace.id}) after ${MANY} add_step calls at once: step_number held by more than one step: ${repeats(read).join(', ')}; a trace's step numbers increase with each step`,
        expected: 'distinct step numbers', actual: read,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-113', tier: 'silver', group,
    clauses: ['SPEC-4.3.1', 'SPEC-4.5.2', 'SPEC-4.7.1'],
    title: `${MANY} record_tool_call calls at once on one step keep every call`,
    asserts:
      `Records ${MANY} tool calls on one step at once over ${MANY} connections, twice (two tools, successes and failures, every one with a duration). ` +
      'Each answer must carry what its call sent, with distinct ids (SPEC-4.3.1); get_trace_with_steps must hold every call under the step, once each (SPEC-4.5.2); ' +
      'get_tool_stats must give each tool exactly the counts, success rate and mean duration of the calls recorded (SPEC-4.7.1).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const trace = await bridge.start_trace({ session_id: 'concurrent-calls', task: 'call tools in parallel' });
      const step = await bridge.add_step({ trace_id: trace.id, thought: 'fan out' });
      const sent: SentCall[] = [];
      const answers: ToolCall[] = [];
      for (const shape of [SOCKETS, SOCKETS]) {
        const these = range(MANY).map((i) => sentCall(sent.length + i));
        const got = await batch(ctx, shape, (b) => these.map((c) => b.record_tool_call({ step_id: step.id, ...c })));
        checkCallAnswers(check, got, these, shapeName(shape));
        sent.push(...these);
        answers.push(...got);
      }
      const back = await readTrace(bridge, check, trace.id);
      const held = check.by('SPEC-4.5.1').some(back.steps, (s) => s.id === step.id, `get_trace_with_steps(${trace.id}): the step ${step.id}`);
      const off = eachOnce(held.tool_calls.map((c) => c.id), answers.map((c) => c.id));
      check.by('SPEC-4.5.2').that(off.length === 0, `get_trace_with_steps: the step holds every tool call of the ${sent.length} recorded at once, once each`, () => ({
        message: `get_trace_with_steps(${trace.id}) after ${sent.length} record_tool_call calls at once on step ${step.id} that all answered 200: the step must come back with every tool call, once each; ${off.join('; ')}`,
        expected: answers.map((c) => c.id), actual: held.tool_calls.map((c) => c.id),
      }));
      await checkAllStats(bridge, check, sent, `after ${sent.length} record_tool_call calls at once on one step`);
    },
  }),

  defineScenario({
    id: 'SCN-S-114', tier: 'silver', group,
    clauses: ['SPEC-4.7.1', 'SPEC-4.7.4'],
    title: `get_tool_stats aggregates every tool call of ${MANY} recorded at once across steps and traces`,
    asserts:
      `Starts two traces of four steps each and records ${MANY} tool calls at once (${how}), two on each step (two tools, successes and failures, every one with a duration). ` +
      'get_tool_stats() must give each tool exactly the counts (SPEC-4.7.1), success rate (SPEC-4.7.4) and mean duration (SPEC-4.7.1) of the calls recorded.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const steps: ReasoningStep[] = [];
      for (const t of [1, 2]) {
        const trace = await bridge.start_trace({ session_id: `concurrent-agent-${t}`, task: `agent ${t} runs tools` });
        for (const s of range(4)) steps.push(await bridge.add_step({ trace_id: trace.id, thought: `agent ${t} step ${s + 1}` }));
      }
      const sent = range(MANY).map(sentCall);
      const answers = await batch(ctx, SOCKETS, (b) => sent.map((c, i) => b.record_tool_call({ step_id: steps[i % steps.length]!.id, ...c })));
      checkCallAnswers(check, answers, sent, how);
      await checkAllStats(bridge, check, sent, `after ${MANY} record_tool_call calls at once across ${steps.length} steps of two traces`);
    },
  }),

  defineScenario({
    id: 'SCN-S-115', tier: 'silver', group,
    clauses: ['SPEC-3.1.8', 'SPEC-3.6.1'],
    title: `${MANY} add_entity calls at once: every entity is found by its name`,
    asserts:
      `Sends ${MANY} add_entity calls at once (${how}), each a different name. Each answer must carry the name its call sent; ` +
      'get_entity_by_name of each name must find the entity answered for it, by its id (SPEC-3.1.8, SPEC-3.6.1).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const names = range(MANY).map((i) => `Concurrent Entity ${String.fromCharCode(65 + i)}${i + 1}`);
      const made = await batch(ctx, SOCKETS, (b) => names.map((name, i) => b.add_entity({ name, entity_type: i % 2 === 0 ? 'PERSON' : 'ORGANIZATION' })));
      made.forEach((e, i) => check.by('SPEC-3.1.8').equal(e.name, names[i], `add_entity call ${i + 1} of ${MANY} sent at once ${how}: the answer carries the name that call sent`));
      for (const [i, name] of names.entries()) {
        const found = await bridge.get_entity_by_name({ name });
        check.by('SPEC-3.6.1', 'SPEC-3.1.8').that(found !== null && found.id === made[i]!.id, `get_entity_by_name finds each entity added at once, by its id`, () => ({
          message: `get_entity_by_name(name=${show(name)}) after ${MANY} add_entity calls at once ${how} that all answered 200: expected the entity ${made[i]!.id}, got ${found === null ? 'null' : `the entity ${found.id}`}`,
          expected: made[i]!.id, actual: found,
        }));
      }
    },
  }),

  defineScenario({
    id: 'SCN-S-116', tier: 'silver', group,
    clauses: ['SPEC-4.1.2', 'SPEC-4.6.1'],
    title: `${MANY} start_trace calls at once: every trace its own id, every trace listed`,
    asserts:
      `Sends ${MANY} start_trace calls at once (${how}) in one session. The ids answered must be distinct (SPEC-4.1.2); ` +
      'list_traces of the session (limit 100) must list each of them once (SPEC-4.6.1), each with the task its call sent.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const session = 'concurrent-traces';
      const tasks = range(MANY).map((i) => `parallel task ${i + 1}`);
      const traces = await batch(ctx, SOCKETS, (b) => tasks.map((task) => b.start_trace({ session_id: session, task })));
      traces.forEach((t, i) => check.by('SPEC-4.1.2').equal(t.task, tasks[i], `start_trace call ${i + 1} of ${MANY} sent at once ${how}: the answer carries the task that call sent`));
      const ids = traces.map((t) => t.id);
      check.by('SPEC-4.1.2').that(repeats(ids).length === 0, `start_trace: ${MANY} calls at once answer ${MANY} distinct ids`, () => ({
        message: `start_trace (${MANY} calls at once ${how}): an id was answered to more than one trace: ${repeats(ids).join(', ')}; every trace has its own id`,
        expected: 'distinct ids', actual: ids,
      }));
      const listed = await bridge.list_traces({ session_id: session, limit: 100 });
      const off = eachOnce(listed.map((t) => t.id), ids);
      check.by('SPEC-4.6.1').that(off.length === 0, `list_traces lists each of the ${MANY} traces started at once, once`, () => ({
        message: `list_traces(session_id=${show(session)}, limit=100) after ${MANY} start_trace calls at once ${how}: every trace must be listed once; ${off.join('; ')}`,
        expected: ids, actual: listed.map((t) => t.id),
      }));
    },
  }),
];
