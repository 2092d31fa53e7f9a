// Silver, long-term memory: get_related_entities (SPEC-3.7). Relationships are made with the Gold
// method add_relationship, as the established kit does. Only outgoing edges of the queried entity
// are built — silent: whether incoming edges count, so no scenario depends on it — and every
// scenario keeps to one hop (silent: the default depth).
import type { Check } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Entity } from '../../src/protocols/bridge/model.js';
import { addEntities, entityView } from './entities.js';

/** get_related_entities(from, type?) returns exactly `expected` (compared by id as a set, with their fields). */
async function checkRelated(
  bridge: BridgeApi, check: Check, from: Entity, relationshipType: string | undefined, expected: readonly Entity[],
): Promise<void> {
  const params = relationshipType === undefined ? { entity_id: from.id } : { entity_id: from.id, relationship_type: relationshipType };
  const got = await bridge.get_related_entities(params);
  const call = `get_related_entities(${from.name}${relationshipType === undefined ? '' : `, relationship_type=${relationshipType}`})`;
  const names = (list: readonly Entity[]) => `[${list.map((e) => e.name).sort().join(', ')}]`;
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  // silent: the order of related entities.
  check.equal(
    got.map(entityView).sort(byId),
    expected.map(entityView).sort(byId),
    `${call}: expected exactly ${names(expected)}, got ${names(got)}`,
  );
}

async function relate(bridge: BridgeApi, source: Entity, target: Entity, relationship_type: string): Promise<void> {
  await bridge.add_relationship({ source_id: source.id, target_id: target.id, relationship_type });
}

/** The ids of what get_related_entities answered (silent: the order, and whether a neighbour repeats). */
const idsOf = (list: readonly Entity[]) => new Set(list.map((e) => e.id));

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-020', tier: 'silver', group: 'get_related_entities', clauses: ['SPEC-3.7.1'],
    title: 'get_related_entities returns the entity connected by a relationship',
    asserts: 'Adds Alice, Acme and an unconnected Bob; after Alice -WORKS_AT-> Acme, get_related_entities(Alice) returns exactly [Acme].',
    async run({ bridge, check }) {
      const [alice, acme] = await addEntities(bridge, check, [
        { name: 'Alice', type: 'PERSON' },
        { name: 'Acme', type: 'ORGANIZATION' },
        { name: 'Bob', type: 'PERSON' },
      ]);
      await relate(bridge, alice!, acme!, 'WORKS_AT');
      await checkRelated(bridge, check, alice!, undefined, [acme!]);
    },
  }),

  defineScenario({
    id: 'SCN-S-021', tier: 'silver', group: 'get_related_entities', clauses: ['SPEC-3.7.2'],
    title: 'get_related_entities of an isolated entity returns []',
    asserts: 'Adds Lonely next to Alice -WORKS_AT-> Acme; get_related_entities(Lonely) returns [].',
    async run({ bridge, check }) {
      const [lonely, alice, acme] = await addEntities(bridge, check, [
        { name: 'Lonely', type: 'PERSON' },
        { name: 'Alice', type: 'PERSON' },
        { name: 'Acme', type: 'ORGANIZATION' },
      ]);
      await relate(bridge, alice!, acme!, 'WORKS_AT');
      await checkRelated(bridge, check, lonely!, undefined, []);
    },
  }),

  defineScenario({
    id: 'SCN-S-055', tier: 'silver', group: 'get_related_entities', clauses: ['SPEC-3.7.3'],
    title: 'get_related_entities with relationship_type follows only that type',
    asserts: 'Alice -KNOWS-> Bob and Alice -WORKS_AT-> Acme; relationship_type=KNOWS returns exactly [Bob], WORKS_AT exactly [Acme], and a type with no edge [].',
    async run({ bridge, check }) {
      const [alice, bob, acme] = await addEntities(bridge, check, [
        { name: 'Alice', type: 'PERSON' },
        { name: 'Bob', type: 'PERSON' },
        { name: 'Acme', type: 'ORGANIZATION' },
      ]);
      await relate(bridge, alice!, bob!, 'KNOWS');
      await relate(bridge, alice!, acme!, 'WORKS_AT');
      await checkRelated(bridge, check, alice!, 'KNOWS', [bob!]);
      await checkRelated(bridge, check, alice!, 'WORKS_AT', [acme!]);
      await checkRelated(bridge, check, alice!, 'LOCATED_AT', []);
    },
  }),

  defineScenario({
    id: 'SCN-S-056', tier: 'silver', group: 'get_related_entities', clauses: ['SPEC-3.7.4'],
    title: 'get_related_entities returns every connected entity',
    asserts: 'Alice -KNOWS-> Bob, -KNOWS-> Carol and -WORKS_AT-> Acme, with Dave unconnected; get_related_entities(Alice) returns exactly [Acme, Bob, Carol].',
    async run({ bridge, check }) {
      const [alice, bob, carol, acme] = await addEntities(bridge, check, [
        { name: 'Alice', type: 'PERSON' },
        { name: 'Bob', type: 'PERSON' },
        { name: 'Carol', type: 'PERSON' },
        { name: 'Acme', type: 'ORGANIZATION' },
        { name: 'Dave', type: 'PERSON' },
      ]);
      await relate(bridge, alice!, bob!, 'KNOWS');
      await relate(bridge, alice!, carol!, 'KNOWS');
      await relate(bridge, alice!, acme!, 'WORKS_AT');
      await checkRelated(bridge, check, alice!, undefined, [bob!, carol!, acme!]);
    },
  }),

  defineScenario({
    id: 'SCN-S-111', tier: 'silver', group: 'get_related_entities', clauses: ['SPEC-3.7.1', 'SPEC-3.7.2'],
    title: 'get_related_entities returns only entities a relationship links to it, whichever directions it follows',
    asserts:
      'Six entities and five relationships, made so that Bob has incoming relationships after others were made (Carol -KNOWS-> Erin, Alice -KNOWS-> Bob, ' +
      'Bob -WORKS_AT-> Acme, Erin -KNOWS-> Dave, Dave -KNOWS-> Bob). get_related_entities(Bob, depth 1) holds Acme (its outgoing relationship) and nothing ' +
      'but Acme, Alice and Dave: whether incoming relationships count is the server\'s (silent point related-incoming), an entity no relationship links to Bob is never related. ' +
      'Likewise Dave (Erin or Bob may come back, never Carol, Acme or Alice), and Carol (Erin, nothing else).',
    async run({ bridge, check }) {
      const [alice, bob, carol, acme, dave, erin] = await addEntities(bridge, check, [
        { name: 'Alice', type: 'PERSON' },
        { name: 'Bob', type: 'PERSON' },
        { name: 'Carol', type: 'PERSON' },
        { name: 'Acme', type: 'ORGANIZATION' },
        { name: 'Dave', type: 'PERSON' },
        { name: 'Erin', type: 'PERSON' },
      ]);
      await relate(bridge, carol!, erin!, 'KNOWS');
      await relate(bridge, alice!, bob!, 'KNOWS');
      await relate(bridge, bob!, acme!, 'WORKS_AT');
      await relate(bridge, erin!, dave!, 'KNOWS');
      await relate(bridge, dave!, bob!, 'KNOWS');
      const cases: [from: Entity, outgoing: Entity[], incoming: Entity[]][] = [
        [bob!, [acme!], [alice!, dave!]],
        [dave!, [bob!], [erin!]],
        [carol!, [erin!], []],
      ];
      for (const [from, outgoing, incoming] of cases) {
        // depth 1: what depth means when it is left out is silent (related-depth).
        const got = await bridge.get_related_entities({ entity_id: from.id, depth: 1 });
        const ids = idsOf(got);
        const names = got.map((e) => e.name).join(', ');
        const linked = new Set([...outgoing, ...incoming].map((e) => e.id));
        for (const e of outgoing) {
          check.by('SPEC-3.7.1').that(ids.has(e.id), `get_related_entities(${from.name}) holds ${e.name}, linked by ${from.name}'s own relationship`, () => ({
            message: `get_related_entities(${from.name}, depth 1): expected ${e.name}, which ${from.name}'s relationship links to it, got [${names}]`,
            expected: e.name,
            actual: names,
          }));
        }
        const strangers = got.filter((e) => !linked.has(e.id));
        check.by('SPEC-3.7.1', 'SPEC-3.7.2').that(strangers.length === 0, `get_related_entities(${from.name}) holds no entity that no relationship links to ${from.name}`, () => ({
          message: `get_related_entities(${from.name}, depth 1) answered [${names}]: ${strangers.map((e) => e.name).join(', ')} ${strangers.length === 1 ? 'is' : 'are'} linked to ${from.name} by no relationship, in either direction (only ${[...outgoing, ...incoming].map((e) => e.name).join(', ') || 'nothing'} may be)`,
          expected: [...outgoing, ...incoming].map((e) => e.name),
          actual: names,
        }));
      }
    },
  }),
];
