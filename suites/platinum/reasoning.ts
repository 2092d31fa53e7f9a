// Platinum: reasoning provenance (Volume 5, 5.4).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { v5 } from './clauses.js';
import { ids, newConversation, short } from './helpers.js';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-009',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.1')],
    title: 'record_step persists the step under the conversation',
    asserts:
      'record_step(reasoning "hypothesizing X", action_taken "ran test", result "passed") echoes all four fields; ' +
      'list_steps of the conversation holds the step, and list_steps of another conversation does not.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-step');
      const other = await newConversation(bridge, 'tck-step-other');
      const step = await bridge.record_step({ conversation_id: conv.id, reasoning: 'hypothesizing X', action_taken: 'ran test', result: 'passed' });
      check.equal({ conversation_id: step.conversation_id, reasoning: step.reasoning, action_taken: step.action_taken, result: step.result },
        { conversation_id: conv.id, reasoning: 'hypothesizing X', action_taken: 'ran test', result: 'passed' }, 'record_step: the answer echoes the step');
      const listed = ids(await bridge.list_steps({ conversation_id: conv.id }));
      check.ok(listed.includes(step.id), `list_steps(${short(conv.id)}) after record_step: must hold ${short(step.id)}`, { expected: step.id, actual: listed });
      const elsewhere = ids(await bridge.list_steps({ conversation_id: other.id }));
      check.ok(!elsewhere.includes(step.id), `list_steps of another conversation (${short(other.id)}) must not hold ${short(step.id)}`, { expected: [], actual: elsewhere });
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
      'holds both steps, in order, and tool_calls is a list.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-trace');
      const empty = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      check.equal({ conversation_id: empty.conversation_id, steps: empty.steps.length }, { conversation_id: conv.id, steps: 0 }, 'get_trace_by_conversation of a conversation with no steps');
      const s1 = await bridge.record_step({ conversation_id: conv.id, reasoning: 'r1', action_taken: 'a1' });
      const s2 = await bridge.record_step({ conversation_id: conv.id, reasoning: 'r2', action_taken: 'a2', result: 'done' });
      const trace = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      check.equal(trace.conversation_id, conv.id, 'get_trace_by_conversation: conversation_id');
      check.equal(ids(trace.steps), [s1.id, s2.id], 'get_trace_by_conversation after two record_step calls: the step ids, in order');
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
      check.equal({ id: x.id, conversation_id: x.conversation_id, reasoning: x.reasoning, action_taken: x.action_taken },
        { id: step.id, conversation_id: conv.id, reasoning: 'Acme Rockets builds engines', action_taken: 'looked up Acme Rockets' }, `explain_step(${short(step.id)}): the step's own fields`);
    },
  }),

  defineScenario({
    id: 'SCN-P-107',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.4')],
    title: 'get_entity_provenance returns the reasoning steps of an entity',
    asserts:
      'get_entity_provenance of an entity answers its entity_id and a list of steps, each a step recorded under some ' +
      'conversation (found by list_steps of its conversation_id).',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-provenance');
      const e = await bridge.add_entity({ name: 'Borealis Labs', entity_type: 'ORGANIZATION' });
      await bridge.record_step({ conversation_id: conv.id, reasoning: 'Borealis Labs was named by the user', action_taken: 'recorded Borealis Labs' });
      const p = await bridge.get_entity_provenance({ entity_id: e.id });
      check.equal(p.entity_id, e.id, `get_entity_provenance(${short(e.id)}): entity_id`);
      for (const s of p.steps) {
        const listed = ids(await bridge.list_steps({ conversation_id: s.conversation_id }));
        check.ok(listed.includes(s.id), `get_entity_provenance: step ${short(s.id)} is not a step of its conversation ${short(s.conversation_id)}`, { expected: s.id, actual: listed });
      }
    },
  }),
];
