// Gold: similar-trace search (SPEC-5.4.x). The scoring is the server's own; what is checked is that
// a trace whose task matches is found, among few results (SPEC-5.4.1); that it comes ahead of traces
// sharing no word with the query is the kit's reading (ADV-similar-traces-first: the ordering is not
// shown); that limit and success_only are honoured, and that nothing comes back when there are no traces.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check } from '../../src/engine/assert.js';
import type { ReasoningTrace } from '../../src/protocols/bridge/index.js';
import { absentId, indexOfId, sameIds } from '../support/by-id.js';
import { addTrace } from '../support/traces.js';

const SESSION = 'gold-similar';

/** None of `unrelated` is ranked before position `at` (the matching trace) in `list`: an advisory (ordering is not shown). */
function notAhead(list: readonly ReasoningTrace[], unrelated: readonly ReasoningTrace[], at: number, what: string): void {
  for (const other of unrelated) {
    const j = list.findIndex((t) => t.id === other.id);
    // silent: traces sharing no word with the query may be returned; the kit reads them as coming after a matching one
    check.advise('ADV-similar-traces-first').ok(
      j === -1 || j > at,
      `${what}: the unrelated trace ${JSON.stringify(other.task)} is ranked at ${j}, before the matching trace at ${at}`,
      { expected: `after position ${at}`, actual: j },
    );
  }
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-006',
    tier: 'gold',
    group: 'similar-traces',
    clauses: ['SPEC-5.4.1'],
    title: 'get_similar_traces finds the trace with a similar task',
    asserts:
      'Stores a trace about Alice Johnson\'s role at Acme Corp (never completed) and two traces sharing no word with the query; ' +
      'get_similar_traces("Alice Johnson role at Acme Corp", limit=2, success_only=false) returns the first (same id, task and ' +
      'session) among its two results; ahead of the others is an advisory (ADV-similar-traces-first). Without success_only only ' +
      'what every default agrees on is checked: results are stored traces (and the matching one, if returned, first: advisory).',
    async run({ bridge }) {
      const match = await addTrace(bridge, SESSION, "Find Alice Johnson's role at Acme Corp");
      const unrelated = [
        await addTrace(bridge, SESSION, "Look up Bob Smith's job", true),
        await addTrace(bridge, 'gold-similar-other', 'Bake sourdough bread overnight', false),
      ];
      const query = 'Alice Johnson role at Acme Corp';
      // silent: the default of an omitted success_only (the established adapters default to true,
      // which excludes this never-completed trace), so the point is made with success_only=false.
      // limit 2 of 3 traces: a search that ignores the task can leave the one similar trace out.
      const what = `get_similar_traces(task=${JSON.stringify(query)}, limit=2, success_only=false)`;
      const similar = await bridge.get_similar_traces({ task: query, limit: 2, success_only: false });
      const at = indexOfId(similar, match, what);
      const found = similar[at]!;
      check.equal(
        { task: found.task, session_id: found.session_id },
        { task: match.task, session_id: SESSION },
        `${what}: task and session_id of the matching trace`,
      );
      notAhead(similar, unrelated, at, what);
      // Omitted: whatever the default, only stored traces, and the match (if kept) first.
      const bare = `get_similar_traces(task=${JSON.stringify(query)}, limit=5)`;
      const byDefault = await bridge.get_similar_traces({ task: query, limit: 5 });
      const known = new Set([match, ...unrelated].map((t) => t.id));
      check.by('SPEC-5.4.1').every(byDefault, (t) => known.has(t.id), `${bare}: every result is one of the stored traces`);
      const atDefault = byDefault.findIndex((t) => t.id === match.id);
      if (atDefault >= 0) notAhead(byDefault, unrelated, atDefault, bare);
    },
  }),

  defineScenario({
    id: 'SCN-G-014',
    tier: 'gold',
    group: 'similar-traces',
    clauses: ['SPEC-5.4.2'],
    title: 'get_similar_traces honours limit',
    asserts:
      'Stores five completed traces "Research task N"; get_similar_traces("Research task", limit=2) returns one or two ' +
      'of them and no more.',
    async run({ bridge, check }) {
      const traces = [];
      for (let i = 0; i < 5; i++) traces.push(await addTrace(bridge, SESSION, `Research task ${i}`, true));
      const similar = await bridge.get_similar_traces({ task: 'Research task', limit: 2 });
      check.atMost(similar, 2, 'get_similar_traces(task="Research task", limit=2) with 5 matching traces');
      // silent: how many of the candidates the scoring keeps; all five match, so at least one must come back
      check.by('SPEC-5.4.1').nonEmpty(similar, 'get_similar_traces(task="Research task", limit=2) with 5 matching traces');
      const known = new Set(traces.map((t) => t.id));
      check.by('SPEC-5.4.1').every(similar, (t) => known.has(t.id), 'get_similar_traces(task="Research task", limit=2): every result is one of the stored traces');
    },
  }),

  defineScenario({
    id: 'SCN-G-015',
    tier: 'gold',
    group: 'similar-traces',
    clauses: ['SPEC-5.4.3'],
    title: 'get_similar_traces with no traces stored returns []',
    asserts:
      'On an empty store get_similar_traces returns []; after a message and an entity with the very words of the ' +
      'query (but still no trace) it still returns [].',
    async run({ bridge, check }) {
      const task = 'Summarise the quarterly report';
      check.empty(await bridge.get_similar_traces({ task }), `get_similar_traces(task=${JSON.stringify(task)}) on an empty store`);
      await bridge.add_message({ session_id: SESSION, role: 'user', content: task });
      await bridge.add_entity({ name: task, entity_type: 'EVENT' });
      // Not an empty database any more: with no trace stored, any trace answered is not one of the traces (SPEC-5.4.1).
      check.by('SPEC-5.4.1', 'SPEC-5.4.3').empty(
        await bridge.get_similar_traces({ task }),
        `get_similar_traces(task=${JSON.stringify(task)}) with no trace stored (only a message and an entity with that text)`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-G-103',
    tier: 'gold',
    group: 'similar-traces',
    clauses: ['BRIDGE-METHOD-get_similar_traces', 'SPEC-V3-get_similar_traces', 'SPEC-5.4.1'],
    title: 'get_similar_traces(success_only=true) returns only successful traces',
    asserts:
      'Stores four traces with the same task: succeeded, failed, completed without a verdict, and still open; ' +
      'with success_only=true only the succeeded one is returned.',
    async run({ bridge }) {
      const task = 'Deploy the payment service to production';
      const succeeded = await addTrace(bridge, SESSION, task, true);
      const failed = await addTrace(bridge, SESSION, task, false);
      const open = await addTrace(bridge, SESSION, task);
      const noVerdict = await bridge.start_trace({ session_id: SESSION, task });
      await bridge.complete_trace({ trace_id: noVerdict.id, outcome: 'stopped' });
      const what = `get_similar_traces(task=${JSON.stringify(task)}, success_only=true)`;
      const similar = await bridge.get_similar_traces({ task, success_only: true });
      const excluded = [[failed, 'completed with success=false'], [open, 'never completed'], [noVerdict, 'completed without success']] as const;
      for (const [trace, why] of excluded) absentId(similar, trace, `${what}: a trace ${why} (success is not true)`);
      sameIds(similar, [succeeded], what);
    },
  }),
];
