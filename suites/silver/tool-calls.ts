// Silver, reasoning memory: record_tool_call and get_tool_stats (SPEC-4.3, SPEC-4.7), and the tool
// calls that get_trace_with_steps returns with each step (SPEC-4.5.2).
import { NESTED_METADATA } from '../../fixtures/data.js';
import type { Check } from '../../src/engine/assert.js';
import { withinDerivedPrecision } from '../../src/engine/silent-points.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { ReasoningStep, ReasoningTrace, ToolCall, ToolCallStatus, ToolStats } from '../../src/protocols/bridge/model.js';
import { addStep, callView, readTrace, traceWithStep } from './reasoning-traces.js';
import type { Cites } from '../support/cite.js';

// ------------------------------------------------------------------ helpers

type NewCall = {
  tool_name: string;
  arguments: Record<string, unknown>;
  result?: unknown;
  status?: ToolCallStatus;
  duration_ms?: number;
  error?: string;
};

/**
 * Records a call and checks the answer echoes it, unset fields null or omitted: `cites` names what
 * that enforces (default SPEC-4.3.1, a tool call with valid fields, and SPEC-4.3.2, result and
 * duration stored; a status scenario adds its "supports the status" clause).
 */
async function recordCall(bridge: BridgeApi, check: Check, step: ReasoningStep, sent: NewCall, cites: Cites = ['SPEC-4.3.1', 'SPEC-4.3.2']): Promise<ToolCall> {
  const c = await bridge.record_tool_call({ step_id: step.id, ...sent });
  check.by('SPEC-4.3.1', 'BRIDGE-GENERAL-1').uuid(c.id, 'record_tool_call: id');
  check.by(...cites).equal(
    callView(c),
    {
      id: c.id, tool_name: sent.tool_name, arguments: sent.arguments, result: sent.result ?? null,
      // The status of a call recorded without one is SCN-S-105's (SPEC-V3-record_tool_call: success).
      status: sent.status ?? c.status,
      duration_ms: sent.duration_ms ?? null, error: sent.error ?? null,
    },
    `record_tool_call(tool_name=${JSON.stringify(sent.tool_name)}${sent.status ? `, status=${sent.status}` : ''}): the returned tool call`,
  );
  return c;
}

async function recordCalls(bridge: BridgeApi, check: Check, step: ReasoningStep, list: readonly NewCall[], cites?: Cites): Promise<ToolCall[]> {
  const out: ToolCall[] = [];
  for (const sent of list) out.push(await recordCall(bridge, check, step, sent, cites));
  return out;
}

/**
 * In the read-back trace (SPEC-4.5.1: all its steps), the step `step` holds exactly the calls `sent`,
 * unchanged (SPEC-4.5.2: the tool calls of each step).
 */
function checkStepCalls(check: Check, trace: ReasoningTrace, step: ReasoningStep, sent: readonly ToolCall[]): void {
  const got = check.by('SPEC-4.5.1').some(trace.steps, (s) => s.id === step.id, `get_trace_with_steps(${trace.id}): the step ${step.id}`);
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  // silent: the order of the tool calls within a step.
  check.by('SPEC-4.5.2').equal(
    got.tool_calls.map(callView).sort(byId),
    sent.map(callView).sort(byId),
    `get_trace_with_steps(${trace.id}): tool_calls of step ${step.step_number} are the calls recorded`,
  );
}

/** Records `list` on a new step and checks the read-back holds them (`cites`: what the echo of each call enforces). */
async function recordAndReadBack(bridge: BridgeApi, check: Check, action: string, list: readonly NewCall[], cites?: Cites): Promise<ToolCall[]> {
  const { trace, step } = await traceWithStep(bridge, check, action);
  const calls = await recordCalls(bridge, check, step, list, cites);
  checkStepCalls(check, await readTrace(bridge, check, trace.id, 'after record_tool_call'), step, calls);
  return calls;
}

/** One scenario per tool-call status: it is accepted, echoed and stored with its error text. */
function statusScenario(id: string, clause: string, status: ToolCallStatus, error?: string): Scenario {
  return defineScenario({
    id, tier: 'silver', group: 'record_tool_call', clauses: [clause],
    title: `record_tool_call accepts the ${status} status`,
    asserts: `Records a call with status ${status}${error ? ' and an error text' : ''}; the answer and get_trace_with_steps give that status${error ? ' and error' : ''} exactly.`,
    async run({ bridge, check }) {
      const args = { param: 'value' };
      await recordAndReadBack(bridge, check, `${status}_tool`, [
        { tool_name: `${status}_tool`, arguments: args, status, ...(error ? { error } : {}) },
      ], [clause, 'SPEC-4.3.1']);
    },
  });
}

export type ExpectedStats = { name: string; total_calls: number; successful_calls: number; failed_calls: number; success_rate: number; avg_duration_ms?: number };

/**
 * `got` is `exact` to 4 significant digits. silent (derived-precision): neither document fixes the
 * precision of success_rate or avg_duration_ms, so a value rounded the common way (R's jsonlite
 * writes 4 decimal places: 0.6667 for 2/3) is correct; a truncated average (150 for 150.5), a value
 * of the wrong calls or of another scale is not.
 */
const closeTo = withinDerivedPrecision;

/**
 * `got` has exactly the expected counts (SPEC-4.7.1: accurate aggregated statistics), success_rate
 * (SPEC-4.7.4) and avg_duration_ms (SPEC-4.7.1) correct to 4 significant digits (closeTo).
 */
export function checkStats(check: Check, entry: ToolStats | undefined, expected: ExpectedStats, call: string): void {
  const got = check.by('SPEC-4.7.1').present(entry, `${call}: the entry of ${expected.name}`);
  const { success_rate, avg_duration_ms, ...counts } = expected;
  check.by('SPEC-4.7.1').equal(
    { name: got.name, total_calls: got.total_calls, successful_calls: got.successful_calls, failed_calls: got.failed_calls },
    counts,
    `${call}: name and counts of ${expected.name}`,
  );
  check.by('SPEC-4.7.4').ok(closeTo(got.success_rate, success_rate),
    `${call}: success_rate of ${expected.name} expected ${success_rate} (successful/total, to 4 significant digits), got ${got.success_rate}`,
    { expected: success_rate, actual: got.success_rate });
  if (avg_duration_ms !== undefined) {
    check.by('SPEC-4.7.1').ok(closeTo(got.avg_duration_ms, avg_duration_ms),
      `${call}: avg_duration_ms of ${expected.name} expected ${avg_duration_ms} (mean of the recorded durations, to 4 significant digits), got ${got.avg_duration_ms}`,
      { expected: avg_duration_ms, actual: got.avg_duration_ms });
  }
}

const calls = (tool_name: string, ...list: [ToolCallStatus, number?][]): NewCall[] =>
  list.map(([status, duration_ms], i) => ({
    tool_name, arguments: { n: i }, status,
    ...(duration_ms === undefined ? {} : { duration_ms }),
    ...(['failure', 'error', 'timeout'].includes(status) ? { error: `${status} #${i}` } : {}),
  }));

// ------------------------------------------------------------------ scenarios

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-027', tier: 'silver', group: 'record_tool_call', clauses: ['SPEC-4.3.1'],
    title: 'record_tool_call returns the call, which the step then holds',
    asserts: 'Records search_entities({"query": "Alice", "limit": 5}) with status success; the answer has a UUID, that name, arguments and status and no result, duration or error; the step read back holds exactly it.',
    async run({ bridge, check }) {
      await recordAndReadBack(bridge, check, 'search_entities', [
        { tool_name: 'search_entities', arguments: { query: 'Alice', limit: 5 }, status: 'success' },
      ]);
    },
  }),

  defineScenario({
    id: 'SCN-S-028', tier: 'silver', group: 'record_tool_call', clauses: ['SPEC-4.3.2'],
    title: 'record_tool_call stores a nested result and the duration',
    asserts: 'Records a call whose arguments and result are nested objects with every JSON value kind, with duration_ms 150; the answer and the read-back give them exactly.',
    async run({ bridge, check }) {
      await recordAndReadBack(bridge, check, 'lookup', [{
        tool_name: 'entity_lookup',
        arguments: { name: 'Alice', options: { fuzzy: false, fields: ['name', 'type'], depth: 2 } },
        result: { found: true, entity: 'Alice Johnson', details: NESTED_METADATA },
        status: 'success',
        duration_ms: 150,
      }]);
    },
  }),

  statusScenario('SCN-S-029', 'SPEC-4.3.3', 'failure', 'Connection refused'),
  statusScenario('SCN-S-030', 'SPEC-4.3.4', 'timeout', 'Request timed out after 30s'),
  statusScenario('SCN-S-060', 'SPEC-4.3.5', 'error', 'Internal error'),
  statusScenario('SCN-S-061', 'SPEC-4.3.6', 'cancelled'),
  statusScenario('SCN-S-062', 'SPEC-4.3.7', 'pending'),

  defineScenario({
    id: 'SCN-S-063', tier: 'silver', group: 'record_tool_call', clauses: ['SPEC-4.3.8'],
    title: 'several tool calls on one step are all kept',
    asserts: 'Records tool_a and tool_b on one step; the ids differ and the step read back holds exactly both calls, unchanged.',
    async run({ bridge, check }) {
      const { trace, step } = await traceWithStep(bridge, check, 'multi_tool');
      const both = await recordCalls(bridge, check, step, [
        { tool_name: 'tool_a', arguments: { x: 1 }, status: 'success', duration_ms: 100 },
        { tool_name: 'tool_b', arguments: { y: 2 }, status: 'success', duration_ms: 200 },
      ]);
      check.notEqual(both[1]!.id, both[0]!.id, 'record_tool_call twice on one step: a new tool call id');
      checkStepCalls(check, await readTrace(bridge, check, trace.id, 'after record_tool_call ×2'), step, both);
    },
  }),

  defineScenario({
    id: 'SCN-S-102', tier: 'silver', group: 'record_tool_call', clauses: ['SPEC-4.3.2'],
    title: 'a result of any JSON kind, falsy ones included, is kept exactly',
    asserts: 'Records calls whose result is an array, a string, 0 and false, one with duration_ms 0 and one with empty arguments; answer and read-back give each result and duration exactly.',
    async run({ bridge, check }) {
      await recordAndReadBack(bridge, check, 'kinds', [
        { tool_name: 'lister', arguments: { kind: 'array' }, result: ['a', 1, { b: null }, [true]], status: 'success', duration_ms: 0 },
        { tool_name: 'texter', arguments: {}, result: 'plain text result', status: 'success' },
        { tool_name: 'counter', arguments: { kind: 'zero' }, result: 0, status: 'success' },
        { tool_name: 'checker', arguments: { kind: 'false' }, result: false, status: 'success' },
      ]);
    },
  }),

  defineScenario({
    id: 'SCN-S-034', tier: 'silver', group: 'get_trace_with_steps', clauses: ['SPEC-4.5.2'],
    title: 'get_trace_with_steps includes the tool calls of each step',
    asserts: 'Records two calls on a first step (one without status) and one on a second; the read-back lists both steps, each with exactly its own calls, unchanged.',
    async run({ bridge, check }) {
      const { trace, step: first } = await traceWithStep(bridge, check, 'search');
      const second = await addStep(bridge, check, trace, { action: 'analyze' });
      const onFirst = await recordCalls(bridge, check, first, [
        { tool_name: 'search_entities', arguments: { query: 'Alice' } },
        { tool_name: 'entity_lookup', arguments: { name: 'Alice' }, result: { found: true }, status: 'success', duration_ms: 12 },
      ]);
      const onSecond = await recordCalls(bridge, check, second, [
        { tool_name: 'summarize', arguments: { style: 'short' }, result: 'Alice works at Acme', status: 'success' },
      ]);
      const back = await readTrace(bridge, check, trace.id, 'after record_tool_call');
      check.by('SPEC-4.5.1').equal(back.steps.map((s) => s.id), [first.id, second.id], `get_trace_with_steps(${trace.id}): step ids in order`);
      checkStepCalls(check, back, first, onFirst);
      checkStepCalls(check, back, second, onSecond);
    },
  }),

  defineScenario({
    id: 'SCN-S-039', tier: 'silver', group: 'get_tool_stats', clauses: ['SPEC-4.7.1'],
    title: 'get_tool_stats(tool_name) aggregates exactly the calls of that tool',
    asserts: 'Records search_entities twice successful (100 ms, 201 ms) and once failed (no duration) across two traces, plus calls of search_entities_v2; get_tool_stats(tool_name=search_entities) returns one entry: 3 calls, 2 successful, 1 failed, rate 2/3 and average 150.5 ms, each to 4 significant digits (0.6667 is 2/3; 150 is not 150.5).',
    async run({ bridge, check }) {
      const one = await traceWithStep(bridge, check, 'first');
      const two = await traceWithStep(bridge, check, 'second');
      await recordCalls(bridge, check, one.step, calls('search_entities', ['success', 100]));
      await recordCalls(bridge, check, two.step, [
        ...calls('search_entities_v2', ['success', 5000], ['failure', 7000]),
        ...calls('search_entities', ['success', 201], ['failure']),
      ]);
      const call = 'get_tool_stats(tool_name="search_entities")';
      const stats = await bridge.get_tool_stats({ tool_name: 'search_entities' });
      check.length(stats, 1, `${call}: entries (the named tool only)`);
      // avg_duration_ms: the mean over the calls that recorded a duration (150.5: a truncated mean is 150).
      checkStats(check, stats[0], { name: 'search_entities', total_calls: 3, successful_calls: 2, failed_calls: 1, success_rate: 2 / 3, avg_duration_ms: 150.5 }, call);
    },
  }),

  defineScenario({
    id: 'SCN-S-065', tier: 'silver', group: 'get_tool_stats', clauses: ['SPEC-4.7.2'],
    title: 'get_tool_stats() returns one exact entry per tool',
    asserts: 'Records tool_alpha twice successful (10 ms, 31 ms) and tool_beta once failed (5 ms); get_tool_stats() returns exactly two entries with those exact counts, and rates and averages (20.5 ms, 5 ms) to 4 significant digits.',
    async run({ bridge, check }) {
      const { step } = await traceWithStep(bridge, check, 'multi');
      await recordCalls(bridge, check, step, [...calls('tool_alpha', ['success', 10], ['success', 31]), ...calls('tool_beta', ['failure', 5])]);
      const stats = await bridge.get_tool_stats({});
      // silent: the order of the entries.
      check.equal(stats.map((s) => s.name).sort(), ['tool_alpha', 'tool_beta'], 'get_tool_stats(): the names of the tools called, one entry each');
      checkStats(check, stats.find((s) => s.name === 'tool_alpha'),
        { name: 'tool_alpha', total_calls: 2, successful_calls: 2, failed_calls: 0, success_rate: 1, avg_duration_ms: 20.5 }, 'get_tool_stats()');
      checkStats(check, stats.find((s) => s.name === 'tool_beta'),
        { name: 'tool_beta', total_calls: 1, successful_calls: 0, failed_calls: 1, success_rate: 0, avg_duration_ms: 5 }, 'get_tool_stats()');
    },
  }),

  defineScenario({
    id: 'SCN-S-066', tier: 'silver', group: 'get_tool_stats', clauses: ['SPEC-4.7.3'],
    title: 'get_tool_stats returns [] when no tool was called',
    asserts: 'With a trace and a step but no tool call recorded, get_tool_stats() and get_tool_stats(tool_name=search) return [].',
    async run({ bridge, check }) {
      await traceWithStep(bridge, check, 'search');
      check.empty(await bridge.get_tool_stats({}), 'get_tool_stats() with no tool call recorded');
      check.empty(await bridge.get_tool_stats({ tool_name: 'search' }), 'get_tool_stats(tool_name="search") with no tool call recorded');
    },
  }),

  defineScenario({
    id: 'SCN-S-067', tier: 'silver', group: 'get_tool_stats', clauses: ['SPEC-4.7.4'],
    title: 'get_tool_stats computes success_rate',
    asserts: 'Records rated_tool three times successful and once failed (plus another tool\'s failures); get_tool_stats(tool_name=rated_tool) gives 4 calls, 3 successful, 1 failed and success_rate 0.75 (to 4 significant digits).',
    async run({ bridge, check }) {
      const { step } = await traceWithStep(bridge, check, 'stats');
      await recordCalls(bridge, check, step, [
        ...calls('rated_tool', ['success'], ['success'], ['failure'], ['success']),
        ...calls('other_tool', ['failure'], ['failure']),
      ]);
      const call = 'get_tool_stats(tool_name="rated_tool")';
      const stats = await bridge.get_tool_stats({ tool_name: 'rated_tool' });
      check.by('SPEC-4.7.1').length(stats, 1, `${call}: entries (the named tool only)`);
      checkStats(check, stats[0], { name: 'rated_tool', total_calls: 4, successful_calls: 3, failed_calls: 1, success_rate: 0.75 }, call);
    },
  }),

  defineScenario({
    id: 'SCN-S-101', tier: 'silver', group: 'get_tool_stats', clauses: ['SPEC-4.7.1'],
    title: 'get_tool_stats counts calls of every status',
    asserts: 'Records status_tool once with each of the six statuses; get_tool_stats(tool_name=status_tool) gives 6 calls, 1 successful, failure, error and timeout among the failed, and a success_rate of 1/6 or 1/(1 + failed) to 4 significant digits.',
    async run({ bridge, check }) {
      const { step } = await traceWithStep(bridge, check, 'statuses');
      await recordCalls(bridge, check, step, calls('status_tool',
        ['pending', 10], ['success', 20], ['failure', 30], ['error', 40], ['timeout', 50], ['cancelled', 60]));
      const call = 'get_tool_stats(tool_name="status_tool")';
      const stats = await bridge.get_tool_stats({ tool_name: 'status_tool' });
      check.length(stats, 1, `${call}: entries (the named tool only)`);
      const s = stats[0]!;
      check.equal({ name: s.name, total_calls: s.total_calls, successful_calls: s.successful_calls }, { name: 'status_tool', total_calls: 6, successful_calls: 1 },
        `${call}: name, total_calls and successful_calls over six calls, one per status`);
      // silent: whether pending and cancelled count as failed — failure, error and timeout must.
      check.ok(s.failed_calls >= 3 && s.failed_calls <= 5,
        `${call}: failed_calls expected 3 (failure, error, timeout) to 5 (with pending and cancelled), got ${s.failed_calls}`);
      // silent: whether success_rate divides by all calls or by the finished (successful + failed) ones;
      // silent (derived-precision): either to 4 significant digits.
      const rates = [1 / 6, 1 / (1 + s.failed_calls)];
      check.by('SPEC-4.7.4').ok(rates.some((r) => closeTo(s.success_rate, r)),
        `${call}: success_rate expected 1/6 (successful/total) or 1/${1 + s.failed_calls} (successful/(successful+failed)), to 4 significant digits, got ${s.success_rate}`,
        { expected: rates, actual: s.success_rate });
    },
  }),
];
