// Platinum: reasoning provenance (Volume 5, 5.4) and list_steps, with dozens of steps over two
// conversations and tool calls recorded on Platinum steps (the core record_tool_call takes a step's
// id; it is the only way over the bridge to give a step the tool calls 5.4.2 and 5.4.3 speak of).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { AgentStep, PlatinumConversation, ToolCall } from '../../src/protocols/bridge/index.js';
import { v5 } from './clauses.js';
import { ids, newConversation, sameSet, short } from './helpers.js';

const V3 = (method: string) => `SPEC-V3-${method}`;
const ENDPOINT = (method: string) => `HOSTED-ENDPOINT-${method}`;

/** What a step holds, as record_step was given it. */
const fields = (s: Pick<AgentStep, 'conversation_id' | 'reasoning' | 'action_taken' | 'result'>) =>
  ({ conversation_id: s.conversation_id, reasoning: s.reasoning, action_taken: s.action_taken, result: s.result ?? null });

/** What a tool call holds, as record_tool_call was given it. */
const call = (c: Pick<ToolCall, 'tool_name' | 'arguments' | 'status'>) => ({ tool_name: c.tool_name, arguments: c.arguments, status: c.status });

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-009',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.1'), V3('list_steps'), ENDPOINT('list_steps')],
    title: 'record_step persists the step under the conversation',
    asserts:
      'record_step(reasoning "hypothesizing X", action_taken "ran test", result "passed") echoes all four fields; ' +
      'list_steps of the conversation holds the step, and list_steps of another conversation does not.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-step');
      const other = await newConversation(bridge, 'tck-step-other');
      const step = await bridge.record_step({ conversation_id: conv.id, reasoning: 'hypothesizing X', action_taken: 'ran test', result: 'passed' });
      check.by(v5('5.4.1')).equal(fields(step), { conversation_id: conv.id, reasoning: 'hypothesizing X', action_taken: 'ran test', result: 'passed' }, 'record_step: the answer echoes the step');
      const listed = ids(await bridge.list_steps({ conversation_id: conv.id }));
      check.by(v5('5.4.1'), V3('list_steps')).ok(listed.includes(step.id), `list_steps(${short(conv.id)}) after record_step: must hold ${short(step.id)}`, { expected: step.id, actual: listed });
      const elsewhere = ids(await bridge.list_steps({ conversation_id: other.id }));
      check.by(v5('5.4.1'), V3('list_steps')).ok(!elsewhere.includes(step.id), `list_steps of another conversation (${short(other.id)}) must not hold ${short(step.id)}`, { expected: [], actual: elsewhere });
    },
  }),

  defineScenario({
    id: 'SCN-P-120',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.1'), v5('5.4.3'), V3('list_steps'), ENDPOINT('list_steps')],
    title: '37 steps over two conversations: each persisted under its own, as recorded',
    asserts:
      'record_step 25 times under conversation A and 12 times under B, interleaved (results on every other step). ' +
      'Each answer echoes what was sent; list_steps of each conversation holds exactly its steps, each with the ' +
      'fields it was recorded with; get_trace_by_conversation of each holds exactly its steps (any order).',
    async run({ bridge, check }) {
      const convs = [await newConversation(bridge, 'tck-steps-a'), await newConversation(bridge, 'tck-steps-b')];
      const made = new Map<string, AgentStep[]>(convs.map((c) => [c.id, []]));
      // Every third step goes to B: 25 under A, 12 under B, interleaved.
      for (let n = 0; n < 37; n++) {
        const which = n % 3 === 2 ? 1 : 0;
        const conv = convs[which]!;
        const sent = { conversation_id: conv.id, reasoning: `${'AB'[which]} reasoning ${n}`, action_taken: `${'AB'[which]} action ${n}`, ...(n % 2 === 0 ? { result: `${'AB'[which]} result ${n}` } : {}) };
        const step = await bridge.record_step(sent);
        check.by(v5('5.4.1')).equal(fields(step), fields(sent), `record_step(${JSON.stringify(sent.reasoning)}): the answer echoes the step`);
        made.get(conv.id)!.push(step);
      }
      for (const conv of convs) {
        const mine = made.get(conv.id)!;
        const byId = new Map(mine.map((s) => [s.id, s]));
        const name = (id: string) => (byId.has(id) ? JSON.stringify(byId.get(id)!.reasoning) : short(id));
        const listed = await bridge.list_steps({ conversation_id: conv.id });
        sameSet([v5('5.4.1'), V3('list_steps')], ids(listed), ids(mine), `list_steps(${short(conv.id)}) after ${mine.length} record_step calls under it (and others under another conversation)`, name);
        for (const s of listed) {
          const sent = byId.get(s.id);
          if (sent !== undefined) check.by(v5('5.4.1')).equal(fields(s), fields(sent), `list_steps(${short(conv.id)}): step ${name(s.id)} as it was recorded`);
        }
        const trace = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
        // silent (platinum-step-order): all the steps, in any order.
        sameSet([v5('5.4.3')], ids(trace.steps), ids(mine), `get_trace_by_conversation(${short(conv.id)}): the steps`, name);
      }
    },
  }),

  defineScenario({
    id: 'SCN-P-010',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.3')],
    title: 'get_trace_by_conversation returns all steps and tool calls of the conversation',
    asserts:
      'A conversation with no steps answers its conversation_id and no steps; after two record_step calls the trace ' +
      'holds exactly both steps (in any order: the clause states none) and tool_calls is a list.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-trace');
      const empty = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      check.by(v5('5.4.3')).equal({ conversation_id: empty.conversation_id, steps: empty.steps.length }, { conversation_id: conv.id, steps: 0 }, 'get_trace_by_conversation of a conversation with no steps');
      const s1 = await bridge.record_step({ conversation_id: conv.id, reasoning: 'r1', action_taken: 'a1' });
      const s2 = await bridge.record_step({ conversation_id: conv.id, reasoning: 'r2', action_taken: 'a2', result: 'done' });
      const trace = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      check.by(v5('5.4.3')).equal(trace.conversation_id, conv.id, 'get_trace_by_conversation: conversation_id');
      // silent (platinum-step-order): the set of steps, not their order.
      sameSet([v5('5.4.3')], ids(trace.steps), [s1.id, s2.id], 'get_trace_by_conversation after two record_step calls: the steps');
    },
  }),

  defineScenario({
    id: 'SCN-P-121',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.2'), v5('5.4.3'), 'BRIDGE-METHOD-record_tool_call'],
    title: 'Tool calls recorded on Platinum steps: explain_step gives each step its own, the trace all of them',
    asserts:
      'A conversation gets 6 steps with record_step; the core record_tool_call records two calls (one success, one ' +
      'failure, distinct arguments) on each of the first five; another conversation gets a step with a call. ' +
      'explain_step of each step answers exactly its own calls, each with the tool_name, arguments and status ' +
      'recorded (none for the sixth step); get_trace_by_conversation answers exactly the ten calls, as recorded.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-tools');
      const other = await newConversation(bridge, 'tck-tools-other');
      const steps: AgentStep[] = [];
      for (let k = 0; k < 6; k++) steps.push(await bridge.record_step({ conversation_id: conv.id, reasoning: `why ${k}`, action_taken: `call tools for ${k}` }));
      const calls = new Map<string, ToolCall[]>();
      for (const [k, step] of steps.slice(0, 5).entries()) {
        calls.set(step.id, [
          await bridge.record_tool_call({ step_id: step.id, tool_name: `lookup_${k}`, arguments: { step: k, query: `item ${k}` }, result: { hits: k }, status: 'success', duration_ms: 10 + k }),
          await bridge.record_tool_call({ step_id: step.id, tool_name: `fetch_${k}`, arguments: { step: k, url: `https://example.org/${k}` }, status: 'failure', error: `boom ${k}` }),
        ]);
      }
      const lone = await bridge.record_step({ conversation_id: other.id, reasoning: 'elsewhere', action_taken: 'one call' });
      const stray = await bridge.record_tool_call({ step_id: lone.id, tool_name: 'stray', arguments: { other: true }, status: 'success' });
      const every = [...calls.values()].flat();
      const recorded = new Map(every.map((c) => [c.id, c]));
      const name = (id: string) => recorded.get(id)?.tool_name ?? (id === stray.id ? 'stray (of another conversation)' : short(id));
      for (const step of steps) {
        const x = await bridge.explain_step({ step_id: step.id });
        const own = calls.get(step.id) ?? [];
        sameSet([v5('5.4.2')], ids(x.tool_calls), ids(own), `explain_step(${JSON.stringify(step.reasoning)}): the tool calls`, name);
        for (const c of x.tool_calls) {
          const sent = recorded.get(c.id);
          if (sent !== undefined) check.by(v5('5.4.2')).equal(call(c), call(sent), `explain_step(${JSON.stringify(step.reasoning)}): tool call ${sent.tool_name} as recorded`);
        }
      }
      const trace = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      // silent (platinum-step-order): the tool calls in any order.
      sameSet([v5('5.4.3')], ids(trace.tool_calls), ids(every), `get_trace_by_conversation(${short(conv.id)}): the tool calls of its steps`, name);
      for (const c of trace.tool_calls) {
        const sent = recorded.get(c.id);
        if (sent !== undefined) check.by(v5('5.4.3')).equal(call(c), call(sent), `get_trace_by_conversation: tool call ${sent.tool_name} as recorded`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-P-106',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.2')],
    title: 'explain_step returns the step with its tool calls and influenced entities',
    asserts:
      'explain_step of a recorded step answers its id, conversation_id, reasoning and action_taken, with tool_calls ' +
      'and influenced_entities lists (schema). Which entities a step influenced is the server\'s reading: not checked.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-explain');
      await bridge.add_entity({ name: 'Acme Rockets', entity_type: 'ORGANIZATION' });
      const step = await bridge.record_step({ conversation_id: conv.id, reasoning: 'Acme Rockets builds engines', action_taken: 'looked up Acme Rockets' });
      const x = await bridge.explain_step({ step_id: step.id });
      // silent (influence-reading): which entities it influenced is not checked.
      check.by(v5('5.4.2')).equal({ id: x.id, conversation_id: x.conversation_id, reasoning: x.reasoning, action_taken: x.action_taken },
        { id: step.id, conversation_id: conv.id, reasoning: 'Acme Rockets builds engines', action_taken: 'looked up Acme Rockets' }, `explain_step(${short(step.id)}): the step's own fields`);
    },
  }),

  defineScenario({
    id: 'SCN-P-107',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.4'), V3('list_steps')],
    title: 'get_entity_provenance returns the reasoning steps of an entity, as they were recorded',
    asserts:
      'Four steps over two conversations name "Borealis Labs", three others do not. get_entity_provenance of it answers ' +
      'its entity_id and a list of steps (which steps is the server\'s reading), each a step recorded under its ' +
      'conversation (found by list_steps of its conversation_id) with the reasoning, action_taken and result recorded.',
    async run({ bridge, check }) {
      const convs: PlatinumConversation[] = [await newConversation(bridge, 'tck-provenance'), await newConversation(bridge, 'tck-provenance-2')];
      const e = await bridge.add_entity({ name: 'Borealis Labs', entity_type: 'ORGANIZATION' });
      for (let i = 0; i < 7; i++) {
        const about = i % 2 === 0 ? 'Borealis Labs' : 'the weather';
        await bridge.record_step({ conversation_id: convs[i % 2]!.id, reasoning: `${about} was named by the user (${i})`, action_taken: `recorded ${about}`, ...(i % 3 === 0 ? { result: `noted ${i}` } : {}) });
      }
      const p = await bridge.get_entity_provenance({ entity_id: e.id });
      check.by(v5('5.4.4')).equal(p.entity_id, e.id, `get_entity_provenance(${short(e.id)}): entity_id`);
      // silent (influence-reading): which steps explain the entity is the server's; each listed must be a real step, as recorded.
      const lists = new Map<string, AgentStep[]>();
      for (const s of p.steps) {
        if (!lists.has(s.conversation_id)) lists.set(s.conversation_id, await bridge.list_steps({ conversation_id: s.conversation_id }));
        const recorded = lists.get(s.conversation_id)!.find((x) => x.id === s.id);
        check.by(v5('5.4.4'), V3('list_steps')).ok(recorded !== undefined, `get_entity_provenance: step ${short(s.id)} is not a step of its conversation ${short(s.conversation_id)}`,
          { expected: s.id, actual: ids(lists.get(s.conversation_id)!) });
        check.by(v5('5.4.4')).equal(fields(s), fields(recorded!), `get_entity_provenance: step ${short(s.id)} as it was recorded`);
      }
    },
  }),
];
