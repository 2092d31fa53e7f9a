// Gold: the three memories working together (SPEC-5.1.x): entities referenced from traces, a
// conversation-to-reasoning flow, entities seen from other sessions, facts and preferences stored
// next to the entities they name, and traces in the same session as a conversation.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { show } from '../../src/engine/assert.js';
import type { Entity } from '../../src/protocols/bridge/index.js';
import { sameIds } from '../support/by-id.js';
import { addEntities } from '../support/entities.js';
import { addTrace } from '../support/traces.js';

const A = 'gold-cross-a';
const B = 'gold-cross-b';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-001',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.1'],
    title: 'A trace can reference an entity of long-term memory',
    asserts:
      'Records a tool call whose arguments and result carry an entity\'s id; get_trace_with_steps returns that step and ' +
      'tool call with arguments and result unchanged, and the id still names the entity.',
    async run({ bridge, check }) {
      const { alice } = await addEntities(bridge, { alice: ['Alice Johnson', 'PERSON', 'Engineer'] });
      const trace = await bridge.start_trace({ session_id: A, task: 'Look up Alice Johnson' });
      const step = await bridge.add_step({ trace_id: trace.id, action: 'entity_lookup' });
      const args = { name: 'Alice Johnson', entity_id: alice.id };
      const result = { entity_id: alice.id, type: 'PERSON', found: true };
      const call = await bridge.record_tool_call({ step_id: step.id, tool_name: 'entity_lookup', arguments: args, result, status: 'success' });
      const full = check.by('SPEC-4.5.1').present(await bridge.get_trace_with_steps({ trace_id: trace.id }), `get_trace_with_steps(trace_id=${trace.id})`);
      check.equal(
        full.steps.map((s) => ({ id: s.id, action: s.action, tool_calls: s.tool_calls.map((c) => ({ id: c.id, tool_name: c.tool_name, arguments: c.arguments, result: c.result })) })),
        [{ id: step.id, action: 'entity_lookup', tool_calls: [{ id: call.id, tool_name: 'entity_lookup', arguments: args, result }] }],
        'get_trace_with_steps: the step and its tool call referencing the entity (ids, tool_name, arguments, result)',
      );
      const entity = await bridge.get_entity_by_name({ name: 'Alice Johnson' });
      check.equal(entity?.id ?? null, alice.id, 'get_entity_by_name("Alice Johnson"): the entity referenced by the tool call keeps its id');
    },
  }),

  defineScenario({
    id: 'SCN-G-002',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.2'],
    title: 'A full flow: conversation, entities and a relationship, then a completed trace',
    asserts:
      'Adds two messages, two entities and a WORKS_AT relationship, then a trace with a step, a tool call and a ' +
      'successful completion; the conversation, the related entities and the trace all read back as written.',
    async run({ bridge, check }) {
      const messages = [
        await bridge.add_message({ session_id: A, role: 'user', content: 'Tell me about Alice Johnson at Acme Corp' }),
        await bridge.add_message({ session_id: A, role: 'assistant', content: "I'll look that up for you." }),
      ];
      const { alice, acme } = await addEntities(bridge, {
        alice: ['Alice Johnson', 'PERSON', 'Engineer'],
        acme: ['Acme Corp', 'ORGANIZATION', 'Tech company'],
      });
      await bridge.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      const trace = await bridge.start_trace({ session_id: A, task: 'Find where Alice Johnson works' });
      const step = await bridge.add_step({ trace_id: trace.id, thought: "Search for Alice's employer" });
      await bridge.record_tool_call({
        step_id: step.id,
        tool_name: 'get_related_entities',
        arguments: { entity_id: alice.id },
        result: { related: [{ name: 'Acme Corp', type: 'ORGANIZATION' }] },
        status: 'success',
      });
      await bridge.complete_trace({ trace_id: trace.id, outcome: 'Alice works at Acme Corp', success: true });

      const conv = await bridge.get_conversation({ session_id: A });
      sameIds(conv.messages, messages, `get_conversation(${A}) after the flow: the two messages in order`, { ordered: true, cites: ['SPEC-5.1.2', 'SPEC-2.2.1'] });
      const related = await bridge.get_related_entities({ entity_id: alice.id });
      sameIds(related, [acme], 'get_related_entities(Alice Johnson) after Alice -WORKS_AT-> Acme Corp', { allowRepeats: true, cites: ['SPEC-5.1.2', 'SPEC-5.2.2'] });
      const full = check.by('SPEC-4.5.1').present(await bridge.get_trace_with_steps({ trace_id: trace.id }), `get_trace_with_steps(trace_id=${trace.id})`);
      check.equal(
        { session_id: full.session_id, outcome: full.outcome, success: full.success, steps: full.steps.map((s) => [s.id, s.tool_calls.length]) },
        { session_id: A, outcome: 'Alice works at Acme Corp', success: true, steps: [[step.id, 1]] },
        'get_trace_with_steps after complete_trace(success=true): session_id, outcome, success, [step id, tool call count]',
      );
      sameIds(await bridge.list_traces({ session_id: A }), [trace], `list_traces(session_id=${A})`, { cites: ['SPEC-5.1.2', 'SPEC-4.6.2'] });
    },
  }),

  defineScenario({
    id: 'SCN-G-007',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.3'],
    title: 'An entity created while one session is active is visible from another',
    asserts:
      'Session A talks and creates "Alice Johnson", session B talks and creates "Bob Smith"; from B, get_entity_by_name ' +
      'returns Alice with the id, name, type and description she was created with, and from A it returns Bob.',
    async run({ bridge, check }) {
      await bridge.add_message({ session_id: A, role: 'user', content: 'Alice Johnson joined the team' });
      const { alice } = await addEntities(bridge, { alice: ['Alice Johnson', 'PERSON', 'Engineer'] });
      await bridge.add_message({ session_id: B, role: 'user', content: 'Bob Smith joined too' });
      const { bob } = await addEntities(bridge, { bob: ['Bob Smith', 'PERSON', 'Designer'] });
      const pick = (e: Entity | null) => e && { id: e.id, name: e.name, type: e.type, description: e.description };
      for (const [session, created] of [[B, alice], [A, bob]] as const) {
        await bridge.get_conversation({ session_id: session });
        const found = await bridge.get_entity_by_name({ name: created.name });
        check.equal(pick(found), pick(created), `get_entity_by_name(${JSON.stringify(created.name)}) in the context of ${session}, the entity was created while the other session was active`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-G-008',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.4'],
    title: 'A fact naming two entities is stored alongside them',
    asserts:
      'Creates entities Alice and Acme and the fact (Alice, WORKS_AT, Acme): the fact has a UUID id and exactly the ' +
      'subject, predicate and object sent, and both entities are still found with their ids.',
    async run({ bridge, check }) {
      const { alice, acme } = await addEntities(bridge, { alice: ['Alice', 'PERSON'], acme: ['Acme', 'ORGANIZATION'] });
      const fact = await bridge.add_fact({ subject: 'Alice', predicate: 'WORKS_AT', obj: 'Acme' });
      check.by('SPEC-3.3.4').uuid(fact.id, 'add_fact(subject="Alice", predicate="WORKS_AT", obj="Acme"): id');
      check.by('SPEC-5.1.4', 'SPEC-3.3.1').equal(
        { subject: fact.subject, predicate: fact.predicate, object: fact.object },
        { subject: 'Alice', predicate: 'WORKS_AT', object: 'Acme' },
        'add_fact(subject="Alice", predicate="WORKS_AT", obj="Acme"): subject, predicate and object of the fact',
      );
      for (const entity of [alice, acme]) {
        const found = await bridge.get_entity_by_name({ name: entity.name });
        check.equal(found?.id ?? null, entity.id, `get_entity_by_name(${JSON.stringify(entity.name)}) after a fact naming it: the entity keeps its id`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-G-009',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.5'],
    title: 'A preference about an entity is stored alongside it',
    asserts:
      'Creates the entity Alice and the preference "Alice prefers email" (communication, work): the preference reads ' +
      'back exactly and is found by search_preferences, and search_entities("Alice") returns the entity, not the preference.',
    async run({ bridge, check }) {
      const { alice } = await addEntities(bridge, { alice: ['Alice', 'PERSON'] });
      const sent = { category: 'communication', preference: 'Alice prefers email', context: 'work' };
      const pref = await bridge.add_preference(sent);
      check.by('SPEC-3.2.1', 'SPEC-3.2.2').equal({ category: pref.category, preference: pref.preference, context: pref.context }, sent, 'add_preference(communication, "Alice prefers email", context="work"): returned preference');
      const prefs = await bridge.search_preferences({ query: 'Alice prefers email', category: 'communication' });
      sameIds(prefs, [pref], 'search_preferences("Alice prefers email", category="communication") next to the entity Alice', { cites: ['SPEC-5.1.5', 'SPEC-3.5.1', 'SPEC-3.5.2'] });
      const entities = await bridge.search_entities({ query: 'Alice' });
      check.by('SPEC-5.1.5', 'SPEC-3.4.1').some(entities, (e) => e.id === alice.id, 'search_entities("Alice") next to a preference about Alice: the entity Alice');
      check.none(entities, (e) => e.id === pref.id, 'search_entities("Alice"): the preference about Alice is not an entity', (e) =>
        `result ${show(e.id)} is the id of the preference "Alice prefers email" (category "communication"), answered as an entity ${show(e.name)} of type ${show(e.type)}`);
    },
  }),

  defineScenario({
    id: 'SCN-G-010',
    tier: 'gold',
    group: 'cross-memory',
    clauses: ['SPEC-5.1.6'],
    title: 'A trace is created in the same session as a conversation without disturbing it',
    asserts:
      'Adds a message to session A, then a trace in A (and a message and trace in B as decoys): the trace has ' +
      'session A, the conversation of A still holds exactly its one message, and list_traces(A) returns exactly the trace.',
    async run({ bridge, check }) {
      const message = await bridge.add_message({ session_id: A, role: 'user', content: 'What does Alice do?' });
      await bridge.add_message({ session_id: B, role: 'user', content: 'What does Bob do?' });
      const trace = await addTrace(bridge, A, 'Answer the user question about Alice');
      await addTrace(bridge, B, 'Answer the user question about Bob');
      check.by('SPEC-5.1.6', 'SPEC-4.1.1').equal({ session_id: trace.session_id, task: trace.task }, { session_id: A, task: 'Answer the user question about Alice' }, `start_trace(session_id=${A}): session_id and task of the trace`);
      const conv = await bridge.get_conversation({ session_id: A });
      sameIds(conv.messages, [message], `get_conversation(${A}) after start_trace in the same session: the conversation holds only its message`, { ordered: true });
      sameIds(await bridge.list_traces({ session_id: A }), [trace], `list_traces(session_id=${A})`, { cites: ['SPEC-5.1.6', 'SPEC-4.6.2'] });
    },
  }),
];
