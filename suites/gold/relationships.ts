// Gold: typed relationships between entities (SPEC-5.2.x): add_relationship answers what was sent,
// and get_related_entities finds the other end, filtered by type.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { NESTED_METADATA } from '../../fixtures/data.js';
import { sameIds } from '../support/by-id.js';
import { addEntities, checkEnds } from '../support/entities.js';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-003',
    tier: 'gold',
    group: 'relationships',
    clauses: ['SPEC-5.2.1'],
    title: 'add_relationship creates a typed edge between two entities',
    asserts:
      'Links Alice to Acme with WORKS_AT: the answer carries the source id, target id and type sent; ' +
      'get_related_entities(Alice) finds Acme under WORKS_AT and nothing under another type.',
    async run({ bridge }) {
      const { alice, acme } = await addEntities(bridge, { alice: ['Alice', 'PERSON'], acme: ['Acme', 'ORGANIZATION'] });
      const rel = await bridge.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      checkEnds(rel, { source: alice, target: acme, relationship_type: 'WORKS_AT' }, 'add_relationship(Alice -> Acme, "WORKS_AT"): returned relationship (source_id, target_id, relationship_type)');
      const typed = await bridge.get_related_entities({ entity_id: alice.id, relationship_type: 'WORKS_AT' });
      // silent: whether an entity reached by several edges is listed once or more
      sameIds(typed, [acme], 'get_related_entities(Alice, relationship_type="WORKS_AT") after add_relationship', { allowRepeats: true, cites: ['SPEC-5.2.1', 'SPEC-3.7.3'] });
      const other = await bridge.get_related_entities({ entity_id: alice.id, relationship_type: 'LIVES_IN' });
      sameIds(other, [], 'get_related_entities(Alice, relationship_type="LIVES_IN"): no relationship of that type exists', { cites: ['SPEC-5.2.1', 'SPEC-3.7.3'] });
    },
  }),

  defineScenario({
    id: 'SCN-G-004',
    tier: 'gold',
    group: 'relationships',
    clauses: ['SPEC-5.2.2'],
    title: 'The target of a relationship is found from its source',
    asserts:
      'Links Alice to Bob (KNOWS) next to an unlinked Carol; get_related_entities(Alice) returns exactly Bob, ' +
      'with the name and type Bob was created with.',
    async run({ bridge, check }) {
      const { alice, bob, carol } = await addEntities(bridge, {
        alice: ['Alice', 'PERSON'],
        bob: ['Bob', 'PERSON', 'Colleague of Alice'],
        carol: ['Carol', 'PERSON'],
      });
      void carol; // the decoy: an entity with no relationship must not be listed
      await bridge.add_relationship({ source_id: alice.id, target_id: bob.id, relationship_type: 'KNOWS' });
      const related = await bridge.get_related_entities({ entity_id: alice.id });
      // silent: whether an entity reached by several edges is listed once or more
      sameIds(related, [bob], 'get_related_entities(Alice) with one edge Alice -KNOWS-> Bob', { allowRepeats: true });
      const found = related.find((e) => e.id === bob.id);
      check.equal(
        { name: found?.name, type: found?.type, description: found?.description },
        { name: 'Bob', type: 'PERSON', description: 'Colleague of Alice' },
        'get_related_entities(Alice): the related entity Bob (name, type, description as created)',
      );
    },
  }),

  defineScenario({
    id: 'SCN-G-011',
    tier: 'gold',
    group: 'relationships',
    clauses: ['SPEC-5.2.3'],
    title: 'Several relationship types, also between the same two entities, are all kept',
    asserts:
      'Links Alice to Acme with WORKS_AT and INVESTED_IN and to San Francisco with LOCATED_AT; get_related_entities ' +
      'filtered by each type returns exactly that type\'s targets, and unfiltered returns Acme and San Francisco.',
    async run({ bridge }) {
      const { alice, acme, sf } = await addEntities(bridge, {
        alice: ['Alice', 'PERSON'],
        acme: ['Acme', 'ORGANIZATION'],
        sf: ['San Francisco', 'LOCATION'],
      });
      const edges = [
        [acme, 'WORKS_AT'],
        [acme, 'INVESTED_IN'],
        [sf, 'LOCATED_AT'],
      ] as const;
      for (const [target, relationship_type] of edges) {
        await bridge.add_relationship({ source_id: alice.id, target_id: target.id, relationship_type });
      }
      for (const [target, relationship_type] of edges) {
        const related = await bridge.get_related_entities({ entity_id: alice.id, relationship_type });
        sameIds(related, [target], `get_related_entities(Alice, relationship_type="${relationship_type}") with Alice linked to Acme by WORKS_AT and INVESTED_IN and to San Francisco by LOCATED_AT`, { allowRepeats: true });
      }
      // silent (related-depth): depth 1 sent, as the established bridge always does; at a server's
      // own default of two hops, Alice -WORKS_AT-> Acme <-INVESTED_IN- Alice is a path back to Alice.
      const all = await bridge.get_related_entities({ entity_id: alice.id, depth: 1 });
      // silent (related-repeats): whether Acme, reached by two edges, is listed once or twice
      sameIds(all, [acme, sf], 'get_related_entities(Alice) without relationship_type', { allowRepeats: true });
    },
  }),

  defineScenario({
    id: 'SCN-G-012',
    tier: 'gold',
    group: 'relationships',
    clauses: ['SPEC-5.2.4'],
    title: 'add_relationship returns a relationship with a fresh UUID id',
    asserts:
      'Adds two relationships between A and B; each answer has a UUID id, the two ids differ from each other ' +
      'and from the entity ids, and each carries the ids and type sent.',
    async run({ bridge, check }) {
      const { a, b } = await addEntities(bridge, { a: ['A', 'PERSON'], b: ['B', 'PERSON'] });
      const knows = await bridge.add_relationship({ source_id: a.id, target_id: b.id, relationship_type: 'KNOWS' });
      const mentors = await bridge.add_relationship({ source_id: b.id, target_id: a.id, relationship_type: 'MENTORS' });
      check.uuid(knows.id, 'add_relationship(A -> B, "KNOWS"): id');
      check.uuid(mentors.id, 'add_relationship(B -> A, "MENTORS"): id');
      // A UUID identifies one thing (BRIDGE-GENERAL-1: identifiers are UUID strings).
      check.by('SPEC-5.2.4', 'BRIDGE-GENERAL-1').distinct(
        [knows.id, mentors.id, a.id, b.id],
        'add_relationship: relationship ids must be new ids, distinct from each other and from the entity ids [KNOWS, MENTORS, A, B]',
      );
      checkEnds(knows, { source: a, target: b, relationship_type: 'KNOWS' }, 'add_relationship(A -> B, "KNOWS"): source_id, target_id, relationship_type of the answer', ['SPEC-5.2.1']);
      checkEnds(mentors, { source: b, target: a, relationship_type: 'MENTORS' }, 'add_relationship(B -> A, "MENTORS"): source_id, target_id, relationship_type of the answer', ['SPEC-5.2.1']);
    },
  }),

  defineScenario({
    id: 'SCN-G-101',
    tier: 'gold',
    group: 'relationships',
    clauses: ['BRIDGE-METHOD-add_relationship', 'SPEC-V3-add_relationship', 'SPEC-5.2.1'],
    title: 'add_relationship keeps the properties sent, exactly',
    asserts:
      'Adds a relationship with nested properties holding every JSON value kind; the answer\'s properties equal ' +
      'the object sent, value for value.',
    async run({ bridge, check }) {
      const { alice, acme } = await addEntities(bridge, { alice: ['Alice', 'PERSON'], acme: ['Acme', 'ORGANIZATION'] });
      const properties = { since: 2019, role: 'staff engineer', ...NESTED_METADATA };
      const rel = await bridge.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT', properties });
      check.by('BRIDGE-METHOD-add_relationship', 'SPEC-V3-add_relationship').equal(rel.properties, properties, 'add_relationship(Alice -> Acme, "WORKS_AT", properties={…}): properties of the answer');
    },
  }),
];
