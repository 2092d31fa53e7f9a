// Platinum: the three-tier context (Volume 5, 5.2) and entity feedback, history and graph (5.3).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { v5 } from './clauses.js';
import { newConversation, short } from './helpers.js';
import { checkEdge, checkEnds } from '../support/entities.js';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-005',
    tier: 'platinum',
    group: 'context',
    clauses: [v5('5.2.1')],
    title: 'get_context returns reflections, observations and recent_messages',
    asserts:
      'Adds "Hello from the TCK" to a new conversation (bulk_add_messages); get_context has the three lists (schema) ' +
      'and recent_messages holds that message.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-ctx');
      const [added] = await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [{ role: 'user', content: 'Hello from the TCK' }] });
      const ctx = await bridge.get_context({ conversation_id: conv.id });
      check.ok(ctx.recent_messages.some((m) => m.content === 'Hello from the TCK'),
        `get_context(${short(conv.id)}) after adding "Hello from the TCK": recent_messages must hold it`,
        { expected: added, actual: ctx.recent_messages });
    },
  }),

  defineScenario({
    id: 'SCN-P-006',
    tier: 'platinum',
    group: 'context',
    clauses: [v5('5.2.2')],
    title: 'Observations and reflections may be empty; those listed belong to the conversation',
    asserts:
      'For a new conversation get_observations and get_reflections answer lists (empty allowed, SPEC-5.2.2 is a MAY); ' +
      'after two messages, every observation and reflection listed names that conversation.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-obs');
      await bridge.get_observations({ conversation_id: conv.id });
      await bridge.get_reflections({ conversation_id: conv.id });
      await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [{ role: 'user', content: 'I live in Lisbon.' }, { role: 'assistant', content: 'Noted.' }] });
      const other = [...(await bridge.get_observations({ conversation_id: conv.id })), ...(await bridge.get_reflections({ conversation_id: conv.id }))]
        .filter((x) => x.conversation_id !== conv.id);
      check.empty(other, `get_observations / get_reflections(${short(conv.id)}): items of another conversation`);
    },
  }),

  defineScenario({
    id: 'SCN-P-007',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.1')],
    title: 'set_entity_feedback returns {id, updated}',
    asserts:
      'set_entity_feedback(user_score=0.9, confirmed=true) on a new entity answers id = that entity and updated = true; ' +
      'user_score 0 with confirmed false (the ends of the range) also answers that id.',
    async run({ bridge, check }) {
      const e = await bridge.add_entity({ name: 'Alice Feedback', entity_type: 'PERSON', description: 'test' });
      const r = await bridge.set_entity_feedback({ entity_id: e.id, user_score: 0.9, confirmed: true });
      check.equal({ id: r.id, updated: r.updated }, { id: e.id, updated: true }, `set_entity_feedback(${short(e.id)}, user_score=0.9, confirmed=true)`);
      const low = await bridge.set_entity_feedback({ entity_id: e.id, user_score: 0, confirmed: false });
      check.equal(low.id, e.id, `set_entity_feedback(${short(e.id)}, user_score=0, confirmed=false): id`);
    },
  }),

  defineScenario({
    id: 'SCN-P-103',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.1')],
    title: 'set_entity_feedback refuses a user_score outside [0, 1]',
    asserts: 'user_score 1.5 and -0.1 are each refused with an error (the clause puts user_score in [0, 1]).',
    async run(ctx) {
      const { bridge } = ctx;
      const e = await bridge.add_entity({ name: 'Bob Range', entity_type: 'PERSON' });
      await ctx.expectError('set_entity_feedback', { entity_id: e.id, user_score: 1.5, confirmed: true }, 'with user_score 1.5 (outside [0, 1])');
      await ctx.expectError('set_entity_feedback', { entity_id: e.id, user_score: -0.1, confirmed: true }, 'with user_score -0.1 (outside [0, 1])');
    },
  }),

  defineScenario({
    id: 'SCN-P-008',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.4')],
    title: 'get_entity_graph returns nodes and edges',
    asserts:
      'With Alice -WORKS_AT-> Acme stored, get_entity_graph has a node for each (id, name) and an edge with source Alice, ' +
      'target Acme and type WORKS_AT.',
    async run({ bridge, check }) {
      const alice = await bridge.add_entity({ name: 'Alice Graph', entity_type: 'PERSON' });
      const acme = await bridge.add_entity({ name: 'Acme Graph', entity_type: 'ORGANIZATION' });
      await bridge.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      const g = await bridge.get_entity_graph();
      for (const e of [alice, acme]) {
        const node = g.nodes.find((n) => n.id === e.id);
        check.equal(node?.name ?? null, e.name, `get_entity_graph: the node of ${JSON.stringify(e.name)} (${short(e.id)})`);
      }
      checkEdge(g.edges, { source: alice, target: acme, type: 'WORKS_AT' }, 'get_entity_graph: an edge Alice Graph -WORKS_AT-> Acme Graph (source, target, type)');
    },
  }),

  defineScenario({
    id: 'SCN-P-104',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.2')],
    title: 'get_entity_history returns every cross-conversation mention',
    asserts:
      'Zanzibar is named in one message of each of two conversations (and not in a third message); get_entity_history ' +
      'answers entity_id = Zanzibar and mentions from both conversations, the unrelated message not among them.',
    async run({ bridge, check }) {
      const place = await bridge.add_entity({ name: 'Zanzibar', entity_type: 'LOCATION' });
      const a = await newConversation(bridge, 'tck-history-a');
      const b = await newConversation(bridge, 'tck-history-b');
      await bridge.bulk_add_messages({ conversation_id: a.id, messages: [{ role: 'user', content: 'I flew to Zanzibar last spring.' }, { role: 'user', content: 'The weather was fine.' }] });
      await bridge.bulk_add_messages({ conversation_id: b.id, messages: [{ role: 'assistant', content: 'Zanzibar is an archipelago.' }] });
      const h = await bridge.get_entity_history({ entity_id: place.id });
      check.equal(h.entity_id, place.id, `get_entity_history(${short(place.id)}): entity_id`);
      const convs = [...new Set(h.mentions.map((m) => m.conversation_id))].sort();
      check.equal(convs, [a.id, b.id].sort(), 'get_entity_history("Zanzibar"): the conversations of its mentions (it is named in both)');
      check.ok(!h.mentions.some((m) => m.content === 'The weather was fine.'), 'get_entity_history("Zanzibar"): a message that does not name it is listed as a mention',
        { expected: 'no "The weather was fine."', actual: h.mentions });
    },
  }),

  defineScenario({
    id: 'SCN-P-105',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.3')],
    title: 'merge_entities leaves a SAME_AS provenance link from source to target',
    asserts:
      'merge_entities("A. Merge" -> "Alice Merge") answers source_id, target_id and a status; get_entity_graph then has ' +
      'a SAME_AS edge from the source to the target.',
    async run({ bridge, check }) {
      const target = await bridge.add_entity({ name: 'Alice Merge', entity_type: 'PERSON' });
      const source = await bridge.add_entity({ name: 'A. Merge', entity_type: 'PERSON' });
      const r = await bridge.merge_entities({ source_id: source.id, target_id: target.id });
      checkEnds(r, { source, target }, 'merge_entities("A. Merge" -> "Alice Merge"): source_id and target_id');
      check.ok(r.status.trim() !== '', 'merge_entities: status must be a non-empty string', { expected: 'a status', actual: r.status });
      const g = await bridge.get_entity_graph();
      checkEdge(g.edges, { source, target, type: 'SAME_AS' }, 'get_entity_graph after merge_entities("A. Merge" -> "Alice Merge"): a SAME_AS edge from source to target');
    },
  }),
];
