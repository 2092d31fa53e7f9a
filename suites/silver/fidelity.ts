// Silver rules a server can break while every round-trip of short, upper-case, well-formed values
// still works (issue 12): tool-call statuses are the six of the data model and an omitted status is
// success; long descriptions and free-form predicates come back verbatim; complete_trace leaves
// started_at alone; success_rate is a number even when no call has finished.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { TOOL_CALL_STATUSES } from '../../src/protocols/bridge/model.js';
import { sameText } from '../bronze/history-fidelity.js';
import { addEntities } from '../support/entities.js';
import { expectRefusal } from '../support/refusals.js';
import { notBefore, sameInstant, serverClock, serverTimePast } from '../support/time.js';

const tier = 'silver';
const SIX = `(SPEC §1.5: status is one of ${TOOL_CALL_STATUSES.join(', ')})`;

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-104', tier, group: 'record_tool_call', clauses: ['BRIDGE-MODEL-ToolCall.status', 'BRIDGE-STATES-1', 'BRIDGE-ERRORS-1'],
    title: 'record_tool_call with a status outside the six never yields a seventh status',
    asserts:
      'Records tool calls with statuses "done", "SUCCESS" and "ok" on a step; a refusal must be 400 or 500 with a non-empty ' +
      '{"error"}, and a call accepted must answer, and read back, a status among the six (the data model). That each is refused ' +
      '(ADV-refuse-unknown-status) and that the step then has no tool call (ADV-failed-call-changes-nothing) are advisories.',
    async run(ctx) {
      const trace = await ctx.bridge.start_trace({ session_id: 'tool-status', task: 'check statuses' });
      const step = await ctx.bridge.add_step({ trace_id: trace.id, thought: 'call a tool' });
      let accepted = 0;
      for (const status of ['done', 'SUCCESS', 'ok']) {
        const answer = await expectRefusal(ctx, 'record_tool_call', { step_id: step.id, tool_name: 'search', arguments: {}, status }, `status=${JSON.stringify(status)} ${SIX}`, {
          advise: 'ADV-refuse-unknown-status',
        });
        if (!answer.refused) accepted++;
      }
      // Read back through the profile: a stored seventh status breaks the data model there too.
      const read = check.by('SPEC-4.5.1').present(await ctx.bridge.get_trace_with_steps({ trace_id: trace.id }), 'get_trace_with_steps(<the trace>)');
      check.advise('ADV-failed-call-changes-nothing').equal(
        read.steps.flatMap((s) => s.tool_calls ?? []).length,
        accepted,
        `get_trace_with_steps(<the trace>) after ${3 - accepted} refused record_tool_call call(s): tool calls stored`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-S-105', tier, group: 'record_tool_call', clauses: ['SPEC-V3-record_tool_call', 'SPEC-4.3.1'],
    title: 'record_tool_call without status records success',
    asserts:
      'Records a tool call without status; the answer and get_trace_with_steps must give status "success": the default of ' +
      'the BaseAdapter interface Volume 3 refers to (record_tool_call(…, status=SUCCESS)), and what the established test of ' +
      'SPEC-4.3.1 demands of a call recorded without one.',
    async run({ bridge }) {
      const trace = await bridge.start_trace({ session_id: 'tool-default', task: 'default status' });
      const step = await bridge.add_step({ trace_id: trace.id, thought: 'call a tool' });
      const call = await bridge.record_tool_call({ step_id: step.id, tool_name: 'lookup', arguments: { q: 'x' } });
      const what = 'record_tool_call(step_id=<step>, tool_name="lookup", arguments={"q":"x"}) without status (the established default is success)';
      check.equal(call.status, 'success', `${what}: status of the answer`);
      const read = check.present(await bridge.get_trace_with_steps({ trace_id: trace.id }), 'get_trace_with_steps(<the trace>)');
      check.equal(read.steps.flatMap((s) => s.tool_calls ?? []).map((c) => c.status), ['success'], `${what}: status read back by get_trace_with_steps`);
    },
  }),

  defineScenario({
    id: 'SCN-S-106', tier, group: 'add_entity', clauses: ['SPEC-3.1.2'],
    title: 'a long description comes back whole',
    asserts: 'Adds an entity with a description of 1 193 characters; the answer and get_entity_by_name must carry it character for character.',
    async run({ bridge }) {
      const description = `${'A description longer than any column of 255 characters, with ünïcødé. '.repeat(17)}END`;
      const entity = await bridge.add_entity({ name: 'Long Description Corp', entity_type: 'ORGANIZATION', description });
      sameText(entity.description ?? '', description, `add_entity(description=<${description.length} characters>) answer (SPEC-3.1.2: the description is stored)`, ['SPEC-3.1.2']);
      const read = check.by('SPEC-3.6.1').present(await bridge.get_entity_by_name({ name: 'Long Description Corp' }), 'get_entity_by_name(name="Long Description Corp")');
      sameText(read.description ?? '', description, 'get_entity_by_name(name="Long Description Corp") description (SPEC-3.1.2)', ['SPEC-3.1.2']);
    },
  }),

  defineScenario({
    id: 'SCN-S-107', tier, group: 'add_fact', clauses: ['SPEC-3.3.1'],
    title: 'fact predicates come back as given',
    asserts: 'Adds facts with the predicates "works at", "Is-Friend-Of" and "likes_TO eat"; each answer must carry its predicate, subject and object verbatim.',
    async run({ bridge }) {
      for (const predicate of ['works at', 'Is-Friend-Of', 'likes_TO eat']) {
        const fact = await bridge.add_fact({ subject: 'Alice', predicate, obj: 'Acme Corp' });
        check.equal(
          { subject: fact.subject, predicate: fact.predicate, object: fact.object },
          { subject: 'Alice', predicate, object: 'Acme Corp' },
          `add_fact(subject="Alice", predicate=${JSON.stringify(predicate)}, obj="Acme Corp") (SPEC-3.3.1: subject, predicate and object are returned; no normalisation rule exists)`,
        );
      }
    },
  }),

  defineScenario({
    id: 'SCN-S-108', tier, group: 'complete_trace', clauses: ['SPEC-V1-ReasoningTrace.started_at', 'SPEC-4.4.1'],
    title: 'complete_trace leaves started_at as it was',
    asserts:
      'Starts a trace, adds a step, and lets the server\'s clock pass started_at by two units of the precision it answers with ' +
      '(asking it the time with start_trace of another trace); completes it; the complete_trace answer and get_trace_with_steps must carry the started_at that ' +
      'start_trace answered (as an instant), and completed_at must not be before it.',
    async run(ctx) {
      const { bridge } = ctx;
      const trace = await bridge.start_trace({ session_id: 'trace-start', task: 'keep the start time' });
      await bridge.add_step({ trace_id: trace.id, thought: 'work' });
      // A completion time that overwrote started_at shows only once the server's clock has moved past it.
      const moved = await serverTimePast(trace.started_at, serverClock(ctx, 'start_trace', 'trace-start-clock'));
      if (!moved) ctx.note(`the server's clock did not move past started_at ${trace.started_at} within 5 s: a completion time written over started_at could not be told from it`);
      const done = await bridge.complete_trace({ trace_id: trace.id, outcome: 'done', success: true });
      const read = check.by('SPEC-4.5.1').present(await bridge.get_trace_with_steps({ trace_id: trace.id }), 'get_trace_with_steps(<the trace>)');
      for (const [what, t] of [['complete_trace(<the trace>) answer', done], ['get_trace_with_steps(<the trace>) after complete_trace', read]] as const) {
        // silent (timestamp-format): compared as instants, at the precision of the coarser answer
        check.by('SPEC-V1-ReasoningTrace.started_at').ok(
          sameInstant(t.started_at, trace.started_at),
          `${what}: started_at as an instant (start_trace answered ${trace.started_at}, it is now ${t.started_at}; the trace's start time: ` +
            `SPEC-4.4.1 has complete_trace set outcome, success and completed_at)`,
          { expected: trace.started_at, actual: t.started_at },
        );
        const end = check.by('SPEC-4.4.1').present(t.completed_at, `${what}: completed_at`);
        check.by('SPEC-4.4.1').ok(notBefore(end, trace.started_at), `${what}: completed_at ${end} is before started_at ${trace.started_at}`, { expected: `>= ${trace.started_at}`, actual: end });
      }
    },
  }),

  defineScenario({
    id: 'SCN-S-109', tier, group: 'get_tool_stats', clauses: ['SPEC-4.7.1', 'SPEC-4.7.4'],
    title: 'get_tool_stats when no call of a tool has finished',
    asserts:
      'Records two pending calls of one tool; get_tool_stats(tool_name) must report total_calls 2, successful_calls 0 and a numeric ' +
      'success_rate (whether pending calls count in its denominator is open, null is not a rate).',
    async run({ bridge }) {
      const trace = await bridge.start_trace({ session_id: 'tool-pending', task: 'pending calls' });
      const step = await bridge.add_step({ trace_id: trace.id, thought: 'start two calls' });
      for (let i = 0; i < 2; i++) await bridge.record_tool_call({ step_id: step.id, tool_name: 'slow_tool', arguments: { i }, status: 'pending' });
      const what = 'get_tool_stats(tool_name="slow_tool") with two pending calls';
      const stats = await bridge.get_tool_stats({ tool_name: 'slow_tool' });
      check.length(stats, 1, what);
      const s = stats[0]!;
      // silent (tool-stats-unfinished): whether pending calls count as failed; success_rate is a number either way
      check.equal({ total_calls: s.total_calls, successful_calls: s.successful_calls }, { total_calls: 2, successful_calls: 0 }, `${what} (SPEC-4.7.1)`);
      check.ok(typeof s.success_rate === 'number', `${what}: success_rate must be a number (SPEC-4.7.4), got ${JSON.stringify(s.success_rate)}`, { expected: 'a number', actual: s.success_rate });
    },
  }),

  defineScenario({
    id: 'SCN-S-110', tier, group: 'search_preferences', clauses: ['SPEC-3.5.1'],
    title: 'search_preferences with limit finds stored matches',
    asserts:
      'Adds five preferences that all contain the query\'s words; search_preferences(limit=2) returns at least one of them and ' +
      'nothing else. That it returns no more than two is an advisory (ADV-search-preferences-limit): no sentence says what ' +
      'limit means for search_preferences.',
    async run({ bridge }) {
      const stored = [];
      for (let i = 0; i < 5; i++) stored.push(await bridge.add_preference({ category: 'style', preference: `Prefers concise answers number ${i}` }));
      const what = 'search_preferences(query="concise answers", limit=2) with 5 matching preferences (bridge-protocol.md: limit?)';
      const hits = await bridge.search_preferences({ query: 'concise answers', limit: 2 });
      check.advise('ADV-search-preferences-limit').atMost(hits, 2, what);
      check.nonEmpty(hits, what);
      const known = new Set(stored.map((p) => p.id));
      check.every(hits, (h) => known.has(h.id), `${what}: every result is a stored preference`);
    },
  }),

  // The coverage matrix (issue 34, docs/coverage.md): a search read again after a write.
  defineScenario({
    id: 'SCN-S-150', tier, group: 'search', clauses: ['SPEC-3.4.1', 'SPEC-3.5.1'],
    title: 'a search of entities or preferences made before a write finds what the write added (read, write, read)',
    asserts:
      'search_entities("Zephyrine") and search_preferences("marmalade") on the empty store, then add_entity("Zephyrine") and add_preference ' +
      '("food", "marmalade on toast"), then the same two searches again: each must find what was added (SPEC-3.4.1, SPEC-3.5.1). A search cache a ' +
      'write does not invalidate answers the first, empty answer again.',
    async run({ bridge }) {
      const entityCall = 'search_entities(query="Zephyrine", limit=10)';
      const preferenceCall = 'search_preferences(query="marmalade", limit=10)';
      const entitiesBefore = await bridge.search_entities({ query: 'Zephyrine', limit: 10 });
      const preferencesBefore = await bridge.search_preferences({ query: 'marmalade', limit: 10 });
      const entity = await bridge.add_entity({ name: 'Zephyrine', entity_type: 'PERSON' });
      const preference = await bridge.add_preference({ category: 'food', preference: 'marmalade on toast' });
      const entities = await bridge.search_entities({ query: 'Zephyrine', limit: 10 });
      const preferences = await bridge.search_preferences({ query: 'marmalade', limit: 10 });
      const before = (list: readonly unknown[]) => (list.length === 0 ? 'the same search having answered [] before' : `the same search having answered ${list.length} result(s) before`);
      check.by('SPEC-3.4.1').that(entities.some((e) => e.id === entity.id), `${entityCall} after add_entity finds the entity added`, () => ({
        message: `${entityCall} after add_entity("Zephyrine"), ${before(entitiesBefore)} (SPEC-3.4.1: a search finds the entities that match its query): expected the new entity ${entity.id}, got ${entities.length} result(s) ${show(entities.map((e) => e.id))}`,
        expected: `a list holding ${entity.id}`,
        actual: show(entities.map((e) => e.id)),
      }));
      check.by('SPEC-3.5.1').that(preferences.some((p) => p.id === preference.id), `${preferenceCall} after add_preference finds the preference added`, () => ({
        message: `${preferenceCall} after add_preference("food", "marmalade on toast"), ${before(preferencesBefore)} (SPEC-3.5.1: a search finds the preferences that match its query): expected the new preference ${preference.id}, got ${preferences.length} result(s) ${show(preferences.map((p) => p.id))}`,
        expected: `a list holding ${preference.id}`,
        actual: show(preferences.map((p) => p.id)),
      }));
    },
  }),

  // The coverage matrix (issue 34, docs/coverage.md): walks over a cycle and a self-loop, at depth 1 and 2 (no other scenario sends depth).
  defineScenario({
    id: 'SCN-S-151', tier, group: 'get_related_entities', clauses: ['SPEC-3.7.1'],
    title: 'get_related_entities from a start on a cycle or a self-loop, at depth 1 and 2, holds its neighbours and only linked entities',
    asserts:
      'A -KNOWS-> B -KNOWS-> C -KNOWS-> A and A -WORKS_AT-> D; E -KNOWS-> E and E -KNOWS-> F; G is linked to nothing. get_related_entities(A) at depth 1 and ' +
      'at depth 2 holds B and D (SPEC-3.7.1: the entities connected to an entity are returned) and nothing but A, B, C and D; get_related_entities(E) holds F and ' +
      'nothing but E and F. Whether depth 2 reaches C, and whether the start comes back through its cycle, is silent point related-depth; a neighbour listed ' +
      'twice, related-repeats; incoming relationships, related-incoming. A walk that gives up on a cycle answers nothing.',
    async run({ bridge }) {
      const { a, b, c, d, e, f } = await addEntities(bridge, {
        a: ['Ring A', 'PERSON'], b: ['Ring B', 'PERSON'], c: ['Ring C', 'PERSON'], d: ['Ring D', 'ORGANIZATION'], e: ['Loop E', 'PERSON'], f: ['Loop F', 'PERSON'], g: ['Lonely G', 'PERSON'],
      });
      for (const [source, target, relationship_type] of [[a, b, 'KNOWS'], [b, c, 'KNOWS'], [c, a, 'KNOWS'], [a, d, 'WORKS_AT'], [e, e, 'KNOWS'], [e, f, 'KNOWS']] as const) {
        await bridge.add_relationship({ source_id: source.id, target_id: target.id, relationship_type });
      }
      const same = (x: { id: string }, y: { id: string }) => x.id.toLowerCase() === y.id.toLowerCase();
      const starts = [
        { start: a, name: 'A', shape: 'the cycle A → B → C → A', direct: [b, d], linked: [a, b, c, d] },
        { start: e, name: 'E', shape: 'the self-loop E → E', direct: [f], linked: [e, f] },
      ];
      for (const { start, name, shape, direct, linked } of starts) {
        for (const depth of [1, 2]) {
          const related = await bridge.get_related_entities({ entity_id: start.id, depth });
          const call = `get_related_entities(<${name}>, depth=${depth}) where ${name} lies on ${shape}`;
          const got = show(related.map((x) => x.name));
          const missing = direct.filter((x) => !related.some((r) => same(r, x))).map((x) => x.name.split(' ')[1]);
          check.by('SPEC-3.7.1').that(missing.length === 0, `${call} holds its direct neighbours`, () => ({
            message: `${call} (SPEC-3.7.1: the entities connected to an entity are returned): missing ${show(missing)}; got ${got}`,
            expected: show(direct.map((x) => x.name)),
            actual: got,
          }));
          const strangers = related.filter((r) => !linked.some((x) => same(r, x))).map((r) => r.name);
          check.by('SPEC-3.7.1').that(strangers.length === 0, `${call} lists only entities linked to it`, () => ({
            message: `${call} (SPEC-3.7.1: the entities connected to an entity, no other): lists ${show(strangers)}, which no relationship links to ${name}`,
            expected: show(linked.map((x) => x.name)),
            actual: got,
          }));
        }
      }
    },
  }),
];
