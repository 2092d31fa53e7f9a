// The coverage matrix (issue 34, docs/coverage.md): Silver reads made again, with the very same
// arguments, after a write that changes their answer (a cache keyed by the request shows only this
// way), and a list filtered on a session whose id differs from others only in case.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';

const tier = 'silver';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-160', tier, group: 'get_entity_by_name', clauses: ['SPEC-3.6.1', 'SPEC-3.6.2'],
    title: 'get_entity_by_name made before add_entity finds the entity when made again',
    asserts:
      'get_entity_by_name("Quillon Vane") on the empty store: null (SPEC-3.6.2); add_entity("Quillon Vane", PERSON); the same lookup again answers that ' +
      'entity (SPEC-3.6.1). A lookup cache keyed by the request answers null again.',
    async run({ bridge }) {
      const call = 'get_entity_by_name(name="Quillon Vane")';
      check.by('SPEC-3.6.2').equal(await bridge.get_entity_by_name({ name: 'Quillon Vane' }), null, `${call} on the empty store`);
      const entity = await bridge.add_entity({ name: 'Quillon Vane', entity_type: 'PERSON' });
      const found = await bridge.get_entity_by_name({ name: 'Quillon Vane' });
      check.by('SPEC-3.6.1').that(found?.id.toLowerCase() === entity.id.toLowerCase(), `${call} made again after add_entity finds the entity`, () => ({
        message: `${call} after add_entity("Quillon Vane"), the same lookup having answered null before (SPEC-3.6.1: an entity that exists is found by its name): expected the new entity ${entity.id}, got ${found === null ? 'null' : found.id}`,
        expected: entity.id,
        actual: found,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-161', tier, group: 'reasoning-traces', clauses: ['SPEC-4.5.1', 'SPEC-4.5.2', 'SPEC-4.4.1'],
    title: 'get_trace_with_steps read again after add_step, record_tool_call and complete_trace shows each write',
    asserts:
      'Starts a trace and reads get_trace_with_steps: no step; add_step, the same read: the step (SPEC-4.5.1); record_tool_call on it, the same read: ' +
      'the step holds the call (SPEC-4.5.2); complete_trace(outcome "done", success true), the same read: outcome, success and completed_at set ' +
      '(SPEC-4.4.1). A trace cache keyed by the request answers the first trace every time.',
    async run({ bridge }) {
      const trace = await bridge.start_trace({ session_id: 'rwr-trace', task: 'Summarise the quarterly report' });
      const call = 'get_trace_with_steps(<the trace>)';
      const read = async () => check.present(await bridge.get_trace_with_steps({ trace_id: trace.id }), `${call}: the trace just started`);
      const before = await read();
      const step = await bridge.add_step({ trace_id: trace.id, thought: 'read the report' });
      const withStep = await read();
      const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
      const got = withStep.steps.find((s) => same(s.id, step.id));
      check.by('SPEC-4.5.1').that(got !== undefined, `${call} read again after add_step holds the step`, () => ({
        message: `${call} after add_step, the same read having answered ${before.steps.length} step(s) before (SPEC-4.5.1: the whole trace comes back with every step): the new step ${step.id} is missing; got ${show(withStep.steps.map((s) => s.id))}`,
        expected: step.id,
        actual: withStep.steps.map((s) => s.id),
      }));
      const tool = await bridge.record_tool_call({ step_id: step.id, tool_name: 'reader', arguments: { page: 1 }, status: 'success' });
      const withCall = (await read()).steps.find((s) => same(s.id, step.id));
      const calls = (withCall?.tool_calls ?? []).map((c) => c.id);
      check.by('SPEC-4.5.2').that(calls.some((c) => same(c, tool.id)), `${call} read again after record_tool_call holds the call`, () => ({
        message: `${call} after record_tool_call on its step, the same read having answered the step without calls before (SPEC-4.5.2: each step comes back with its tool calls): the new tool call ${tool.id} is missing; got ${show(calls)}`,
        expected: tool.id,
        actual: calls,
      }));
      await bridge.complete_trace({ trace_id: trace.id, outcome: 'done', success: true });
      const done = await read();
      const state = { outcome: done.outcome ?? null, success: done.success ?? null, completed: done.completed_at != null };
      check.by('SPEC-4.4.1').that(state.outcome === 'done' && state.success === true && state.completed, `${call} read again after complete_trace shows outcome, success and completed_at`, () => ({
        message: `${call} after complete_trace(outcome="done", success=true), the same read having answered an open trace before (SPEC-4.4.1: complete_trace sets the outcome, success and completed_at): got outcome ${JSON.stringify(state.outcome)}, success ${state.success}, completed_at ${JSON.stringify(done.completed_at ?? null)}`,
        expected: { outcome: 'done', success: true, completed: true },
        actual: state,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-162', tier, group: 'reasoning-traces', clauses: ['SPEC-4.6.1', 'SPEC-4.4.1'],
    title: 'list_traces(session, limit) read again after start_trace and complete_trace shows each write',
    asserts:
      'list_traces(session_id="rwr-traces", limit=10) on the empty store; start_trace in that session, the same list: the trace (SPEC-4.6.1); ' +
      'complete_trace(outcome "failed", success false), the same list: the trace with that outcome, success false and a completed_at (SPEC-4.4.1). ' +
      'A list cache keyed by the request answers the first list every time.',
    async run({ bridge }) {
      const session_id = 'rwr-traces';
      const call = `list_traces(session_id="${session_id}", limit=10)`;
      const read = () => bridge.list_traces({ session_id, limit: 10 });
      const before = await read();
      const trace = await bridge.start_trace({ session_id, task: 'Plan the data migration' });
      const same = (a: string) => a.toLowerCase() === trace.id.toLowerCase();
      const listed = await read();
      check.by('SPEC-4.6.1').that(listed.some((t) => same(t.id)), `${call} read again after start_trace lists the trace`, () => ({
        message: `${call} after start_trace, the same list having answered ${before.length} trace(s) before (SPEC-4.6.1: every trace is listed): the new trace ${trace.id} is missing; got ${show(listed.map((t) => t.id))}`,
        expected: trace.id,
        actual: listed.map((t) => t.id),
      }));
      await bridge.complete_trace({ trace_id: trace.id, outcome: 'failed', success: false });
      const done = (await read()).find((t) => same(t.id));
      const state = { outcome: done?.outcome ?? null, success: done?.success ?? null, completed: done?.completed_at != null };
      check.by('SPEC-4.4.1').that(state.outcome === 'failed' && state.success === false && state.completed, `${call} read again after complete_trace lists the trace completed`, () => ({
        message: `${call} after complete_trace(outcome="failed", success=false), the same list having listed the trace open before (SPEC-4.4.1: complete_trace sets the outcome, success and completed_at): got ${done === undefined ? 'no such trace' : `outcome ${JSON.stringify(state.outcome)}, success ${state.success}, completed_at ${JSON.stringify(done.completed_at ?? null)}`}`,
        expected: { outcome: 'failed', success: false, completed: true },
        actual: state,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-163', tier, group: 'tool-calls', clauses: ['SPEC-4.7.1'],
    title: 'get_tool_stats(tool_name) read again after record_tool_call counts the new call',
    asserts:
      'Records one successful call of "tck_rwr_tool" and reads get_tool_stats(tool_name="tck_rwr_tool"): 1 call; records a failed one and makes the ' +
      'same read: total 2, successful 1, failed 1 (SPEC-4.7.1). A statistics cache keyed by the request answers the first count again.',
    async run({ bridge }) {
      const trace = await bridge.start_trace({ session_id: 'rwr-tools', task: 'Count the tools' });
      const step = await bridge.add_step({ trace_id: trace.id, action: 'call the tool' });
      const tool_name = 'tck_rwr_tool';
      const call = `get_tool_stats(tool_name="${tool_name}")`;
      await bridge.record_tool_call({ step_id: step.id, tool_name, arguments: { n: 1 }, status: 'success', duration_ms: 10 });
      const count = async () => {
        const row = (await bridge.get_tool_stats({ tool_name })).find((s) => s.name === tool_name);
        return { total: row?.total_calls, successful: row?.successful_calls, failed: row?.failed_calls };
      };
      await count();
      await bridge.record_tool_call({ step_id: step.id, tool_name, arguments: { n: 2 }, status: 'failure', duration_ms: 30, error: 'boom' });
      const after = await count();
      check.that(after.total === 2 && after.successful === 1 && after.failed === 1, `${call} read again after a second record_tool_call counts it`, () => ({
        message: `${call} after a second record_tool_call, the same read having counted 1 call before (SPEC-4.7.1: the per-tool statistics are correct aggregates of the calls recorded): expected total_calls 2, successful_calls 1, failed_calls 1, got total_calls ${after.total}, successful_calls ${after.successful}, failed_calls ${after.failed}`,
        expected: { total: 2, successful: 1, failed: 1 },
        actual: after,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-164', tier, group: 'reasoning-traces', clauses: ['SPEC-4.6.2'],
    title: 'list_traces filtered on a session lists no trace of a session whose id differs only in case',
    asserts:
      'Starts one trace in each of "Trace-Case", "trace-case" and "TRACE-CASE" (the task names the session); list_traces(session_id="Trace-Case", limit=10) ' +
      'lists only the trace of "Trace-Case" (SPEC-4.6.2: with session_id, only that session is listed; ids compared as sent).',
    async run({ bridge }) {
      const names = ['Trace-Case', 'trace-case', 'TRACE-CASE'];
      for (const s of names) await bridge.start_trace({ session_id: s, task: s });
      const listed = await bridge.list_traces({ session_id: 'Trace-Case', limit: 10 });
      const strangers = listed.filter((t) => t.session_id !== 'Trace-Case').map((t) => t.task);
      check.that(strangers.length === 0 && listed.length === 1, 'list_traces filtered on a session lists its trace and no trace of a session whose id differs in case', () => ({
        message: `list_traces(session_id="Trace-Case", limit=10) with "trace-case" and "TRACE-CASE" holding a trace each (SPEC-4.6.2: with session_id, only that session is listed; ids are compared as sent): ${strangers.length > 0 ? `traces of another session: ${JSON.stringify(strangers)}` : `expected the one trace of "Trace-Case", got ${listed.length}`}`,
        expected: ['Trace-Case'],
        actual: listed.map((t) => t.task),
      }));
    },
  }),
];
