// The coverage matrix (issue 34, docs/coverage.md): Silver reads made again, with the very same
// arguments, after a write that changes their answer (a cache keyed by the request shows only this
// way), and a list filtered on a session whose id differs from others only in case.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import type { ReasoningStep } from '../../src/protocols/bridge/index.js';

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

  // Values a storage engine changes, in every Silver field the bridge reads back whole.
  defineScenario({
    id: 'SCN-S-165', tier, group: 'reasoning-traces', clauses: ['SPEC-3.1.2', 'SPEC-3.2.1', 'SPEC-3.3.1', 'SPEC-4.5.1', 'SPEC-4.5.2', 'SPEC-4.3.2', 'SPEC-4.4.1', 'SPEC-4.2.2'],
    title: 'NUL, C1 controls, Unicode forms, edge spaces and exact numbers come back as sent in entities, preferences, facts, steps, tool calls and outcomes',
    asserts:
      'Sends text holding a NUL, C1 controls, a decomposed and a precomposed é, Cyrillic, an astral character, quotes and edge spaces as an entity ' +
      'description (read by get_entity_by_name, SPEC-3.1.2), a preference (its answer and search_preferences, SPEC-3.2.1), a fact object (its answer, ' +
      'SPEC-3.3.1), the thought, action and observation of steps of four kinds (get_trace_with_steps, SPEC-4.5.1; their step numbers strictly increase, ' +
      'SPEC-4.2.2), a tool call\'s tool_name, error, arguments (a NUL in a string, 0.1, 2^40, a Cyrillic key) and result 42.5 with duration_ms 1 ' +
      '(SPEC-4.5.2, SPEC-4.3.2), and a trace outcome with success false (SPEC-4.4.1): each comes back exactly, success as the boolean false.',
    async run({ bridge }) {
      const odd = (tag: string) => ` ${tag}: nul\u0000here \u0085nel \u009fapc Cafe\u0301 café ключ 🚀 "q" \\ <b>&</b> % `;
      const same = (got: unknown, sent: unknown) => JSON.stringify(got) === JSON.stringify(sent);
      const exact = (cite: string, got: unknown, sent: unknown, what: string, rule: string) =>
        check.by(cite).that(same(got, sent), `${what} comes back exactly`, () => ({
          message: `${what} (${cite}: ${rule}): expected ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`,
          expected: sent,
          actual: got,
        }));
      const description = odd('description');
      await bridge.add_entity({ name: 'Values Entity', entity_type: 'OBJECT', description });
      exact('SPEC-3.1.2', (await bridge.get_entity_by_name({ name: 'Values Entity' }))?.description, description, 'get_entity_by_name("Values Entity") description after add_entity(description=<NUL, C1, NFD, astral, edge spaces>)', 'a description given is stored');
      const preference = `marmalade ${odd('preference')}`;
      const pref = await bridge.add_preference({ category: 'values', preference });
      exact('SPEC-3.2.1', pref.preference, preference, 'add_preference(preference=<NUL, C1, NFD, astral, edge spaces>) answer preference', 'add_preference answers the preference with its fields');
      const found = (await bridge.search_preferences({ query: 'marmalade', category: 'values', limit: 10 })).find((x) => x.id.toLowerCase() === pref.id.toLowerCase());
      if (found !== undefined) exact('SPEC-3.2.1', found.preference, preference, 'search_preferences(query="marmalade", category="values", limit=10) preference', 'the preference as stored');
      const obj = odd('object');
      const fact = await bridge.add_fact({ subject: 'Values Subject', predicate: 'holds', obj });
      exact('SPEC-3.3.1', fact.object, obj, 'add_fact(obj=<NUL, C1, NFD, astral, edge spaces>) answer object', 'add_fact answers a fact with its subject, predicate and object');

      const trace = await bridge.start_trace({ session_id: 'values-trace', task: 'Keep every character' });
      const kinds: { thought?: string; action?: string; observation?: string }[] = [
        { thought: odd('thought') }, { action: odd('action') }, { observation: odd('observation') }, { thought: odd('t2'), action: odd('a2'), observation: odd('o2') },
      ];
      const steps: ReasoningStep[] = [];
      for (const fields of kinds) steps.push(await bridge.add_step({ trace_id: trace.id, ...fields }));
      const numbers = steps.map((x) => x.step_number);
      check.by('SPEC-4.2.2').that(numbers.every((n, i) => i === 0 || n > numbers[i - 1]!), 'add_step answers strictly increasing step numbers for steps of different kinds', () => ({
        message: `add_step ×4 (thought only, action only, observation only, all three) (SPEC-4.2.2: a trace's step numbers increase with each step): got step numbers ${JSON.stringify(numbers)}`,
        expected: 'strictly increasing',
        actual: numbers,
      }));
      const tool_name = 'tool Cafe\u0301 café "q" \\ %';
      const args = { text: 'a\u0000b\u0085c', tenth: 0.1, big: 2 ** 40, ключ: 'значение' };
      const error = odd('error');
      const call = await bridge.record_tool_call({ step_id: steps[3]!.id, tool_name, arguments: args, result: 42.5, status: 'failure', duration_ms: 1, error });
      await bridge.complete_trace({ trace_id: trace.id, outcome: odd('outcome'), success: false });
      const back = check.present(await bridge.get_trace_with_steps({ trace_id: trace.id }), 'get_trace_with_steps(<the trace>)');
      const view = (x: { thought?: string | null; action?: string | null; observation?: string | null }) => ({ thought: x.thought ?? null, action: x.action ?? null, observation: x.observation ?? null });
      exact('SPEC-4.5.1', back.steps.map(view), kinds.map(view), 'get_trace_with_steps(<the trace>) thought, action and observation of four steps holding NUL, C1, NFD, astral and edge spaces', 'the whole trace comes back with every step');
      const gotCall = back.steps.find((x) => x.id.toLowerCase() === steps[3]!.id.toLowerCase())?.tool_calls.find((c) => c.id.toLowerCase() === call.id.toLowerCase());
      const callView = (c?: { tool_name: string; arguments: unknown; result?: unknown; duration_ms?: number | null; error?: string | null }) =>
        c === undefined ? null : { tool_name: c.tool_name, arguments: c.arguments, result: c.result ?? null, duration_ms: c.duration_ms ?? null, error: c.error ?? null };
      exact('SPEC-4.5.2', callView(gotCall), { tool_name, arguments: args, result: 42.5, duration_ms: 1, error }, 'get_trace_with_steps(<the trace>) tool call (tool_name with NFD and quotes; arguments with a NUL, 0.1, 2^40 and a Cyrillic key; result 42.5; duration_ms 1; error with NUL, C1 and edge spaces)', 'each step comes back with its tool calls, result and duration stored');
      exact('SPEC-4.4.1', { outcome: back.outcome, success: back.success }, { outcome: odd('outcome'), success: false }, 'get_trace_with_steps(<the trace>) outcome and success after complete_trace(outcome=<NUL, C1, NFD, astral, edge spaces>, success=false)', 'complete_trace sets the outcome and success');
    },
  }),

  defineScenario({
    id: 'SCN-S-166', tier, group: 'search', clauses: ['SPEC-3.5.2', 'SPEC-3.5.1'],
    title: 'search_preferences applies its category before its limit: matches of other categories do not crowd out the category\'s own',
    asserts:
      'Three preferences "Prefers tabs over spaces" in category "editor", then two "Prefers tabs over spaces in Go" (a longer text) in category "style"; ' +
      'search_preferences("Prefers tabs over spaces", category="style", limit=2) must return preferences of "style" (one at least) and only them (SPEC-3.5.2: with ' +
      'category, only that category is searched; SPEC-3.5.1). A server that keeps the two best matches first and then filters answers nothing.',
    async run({ bridge }) {
      const query = 'Prefers tabs over spaces';
      for (let i = 0; i < 3; i++) await bridge.add_preference({ category: 'editor', preference: query });
      const style = [await bridge.add_preference({ category: 'style', preference: `${query} in Go` }), await bridge.add_preference({ category: 'style', preference: `${query} in Go` })];
      const got = await bridge.search_preferences({ query, category: 'style', limit: 2 });
      const found = style.filter((x) => got.some((g) => g.id.toLowerCase() === x.id.toLowerCase()));
      const call = `search_preferences(query="${query}", category="style", limit=2) with 3 preferences of that very text in "editor" and 2 of a longer text in "style"`;
      // silent: a search may answer fewer than limit; what the filter-then-limit order fixes is that the category's matches are not all crowded out, and no other category comes back.
      check.that(found.length >= 1 && found.length === got.length, `${call}: preferences of the category, and only them`, () => ({
        message: `${call} (SPEC-3.5.2: with category, only that category is searched; filter before limit): expected the preferences of "style" (at least one, none of another category), got ${found.length}${got.length > found.length ? ` and ${got.length - found.length} other(s)` : ''}: ${show(got.map((g) => `${g.category}: ${g.preference}`))}`,
        expected: style.map((x) => x.id),
        actual: got.map((x) => x.id),
      }));
    },
  }),

  defineScenario({
    id: 'SCN-S-167', tier, group: 'get_entity_by_name', clauses: ['SPEC-3.6.1'],
    title: 'entities whose names differ only in case or by a trailing space are each found by their own name',
    asserts:
      'Adds "tern lake", "Tern Lake", "TERN LAKE" and "Tern Lake " (a trailing space), in that order; get_entity_by_name of each name answers the ' +
      'entity added with it (SPEC-3.6.1: an entity that exists is found by its name). A lookup that ignores case may be the server\'s reading ' +
      '(silent point entity-name-case), but each of these entities has a name of its own, and one the lookup never answers is never found by it.',
    async run({ bridge }) {
      const names = ['tern lake', 'Tern Lake', 'TERN LAKE', 'Tern Lake '];
      const added: { id: string }[] = [];
      for (const name of names) added.push(await bridge.add_entity({ name, entity_type: 'LOCATION' }));
      for (const [i, name] of names.entries()) {
        const found = await bridge.get_entity_by_name({ name });
        check.that(found !== null && found.id.toLowerCase() === added[i]!.id.toLowerCase(), 'get_entity_by_name finds the entity of exactly that name among names differing in case or by a trailing space', () => ({
          message: `get_entity_by_name(name=${JSON.stringify(name)}) with ${names.map((n) => JSON.stringify(n)).join(', ')} stored (SPEC-3.6.1: an entity that exists is found by its name): expected the entity added as ${JSON.stringify(name)} (${added[i]!.id}), got ${found === null ? 'null' : `${JSON.stringify(found.name)} (${found.id})`}`,
          expected: { id: added[i]!.id, name },
          actual: found === null ? null : { id: found.id, name: found.name },
        }));
      }
    },
  }),
];
