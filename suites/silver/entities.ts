// Silver, long-term memory: add_entity and get_entity_by_name (SPEC-3.1, SPEC-3.6).
// The helpers at the top are shared by the other Silver files (search, related, traces).
import type { Check } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Entity, EntityType } from '../../src/protocols/bridge/model.js';
import type { Cites } from '../support/cite.js';
import { sameInstant } from '../support/time.js';

// ------------------------------------------------------------------ shared helpers

/**
 * Two timestamps of one event name the same instant. silent (timestamp-format): `Z` or `+00:00`, and
 * the precision: compared at the coarser of the two, one unit of slack for rounding.
 */
export function checkSameInstant(check: Check, actual: string, expected: string, what: string): void {
  check.ok(sameInstant(actual, expected), `${what}: expected the instant ${expected}, got ${actual}`, { expected, actual });
}

/** The fields of an entity fixed by add_entity; every later read must give them back unchanged. */
export function entityView(e: Entity) {
  // silent: an unset description may be null or omitted (never "").
  return { id: e.id, name: e.name, type: e.type, description: e.description ?? null };
}

/**
 * `got` is the entity `sent` as add_entity returned it: same id, name, type, description and creation
 * instant. `cites`: what finding it enforces (default: the scenario's clauses); the entity found is
 * the entity stored, so its fields cite the same, and its creation instant too.
 */
export function checkSameEntity(check: Check, got: Entity | null | undefined, sent: Entity, what: string, cites?: Cites): void {
  const c = cites === undefined ? check : check.by(...cites);
  const e = c.present(got, `${what}: the entity ${sent.id} (${JSON.stringify(sent.name)})`);
  c.equal(entityView(e), entityView(sent), what);
  checkSameInstant(c, e.created_at, sent.created_at, `${what}: created_at`);
}

type NewEntity = { name: string; type: EntityType; description?: string };

/**
 * Adds entities in order, checking that each answer echoes what was sent: the entity made of these
 * parameters (BRIDGE-METHOD-add_entity), with its name and type (SPEC-1.2.1) and description (SPEC-3.1.2).
 */
export async function addEntities(bridge: BridgeApi, check: Check, list: readonly NewEntity[]): Promise<Entity[]> {
  const out: Entity[] = [];
  for (const { name, type, description } of list) {
    const e = await bridge.add_entity(description === undefined ? { name, entity_type: type } : { name, entity_type: type, description });
    check.by('BRIDGE-METHOD-add_entity', 'SPEC-1.2.1', 'SPEC-3.1.2').equal(
      { name: e.name, type: e.type, description: e.description ?? null },
      { name, type, description: description ?? null },
      `add_entity(name=${JSON.stringify(name)}, entity_type=${type}): name, type and description of the returned entity`,
    );
    out.push(e);
  }
  return out;
}

/** get_entity_by_name(name) returns exactly `sent` (`cites`: what that enforces; default the scenario's clauses). */
async function checkLookup(bridge: BridgeApi, check: Check, sent: Entity, cites?: Cites): Promise<void> {
  const found = await bridge.get_entity_by_name({ name: sent.name });
  checkSameEntity(check, found, sent, `get_entity_by_name(${JSON.stringify(sent.name)}) after add_entity: the entity written`, cites);
}

const FIVE_ENTITIES: NewEntity[] = [
  { name: 'Alice Johnson', type: 'PERSON', description: 'Software engineer who writes graph code' },
  { name: 'Acme Corp', type: 'ORGANIZATION', description: 'A technology company' },
  { name: 'San Francisco', type: 'LOCATION', description: 'City on the bay in California' },
  { name: 'Launch Party', type: 'EVENT', description: 'Celebration of the product release' },
  { name: 'Laptop', type: 'OBJECT', description: 'Portable work computer' },
];

/**
 * One scenario per entity type (SPEC-3.1.3 … 3.1.7): the type is accepted, echoed and stored (read
 * back: SPEC-1.2.3 … 1.2.7, "accept and preserve the type label").
 */
function typeScenario(id: string, clause: string, preserved: string, type: EntityType, name: string): Scenario {
  return defineScenario({
    id, tier: 'silver', group: 'add_entity', clauses: [clause],
    title: `add_entity accepts the ${type} type`,
    asserts: `Adds ${JSON.stringify(name)} as ${type}; the answer and get_entity_by_name both give type ${type} exactly.`,
    async run({ bridge, check }) {
      const [e] = await addEntities(bridge, check, [{ name, type }]);
      await checkLookup(bridge, check, e!, [clause, preserved, 'SPEC-3.6.1']);
    },
  });
}

// ------------------------------------------------------------------ scenarios

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-001', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.1'],
    title: 'add_entity returns the new entity, which get_entity_by_name reads back',
    asserts: 'Adds a PERSON; the answer has a UUID, the name and type sent and a created_at; get_entity_by_name returns the same id, fields and creation instant.',
    async run({ bridge, check }) {
      const [e] = await addEntities(bridge, check, [{ name: 'Alice Johnson', type: 'PERSON' }]);
      check.uuid(e!.id, 'add_entity: id');
      check.by('SPEC-1.2.8').timestamp(e!.created_at, 'add_entity: created_at');
      await checkLookup(bridge, check, e!, ['SPEC-3.6.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-002', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.2'],
    title: 'add_entity stores the description',
    asserts: 'Adds an ORGANIZATION with a description; the answer and get_entity_by_name give that description exactly.',
    async run({ bridge, check }) {
      const [e] = await addEntities(bridge, check, [{ name: 'Acme Corp', type: 'ORGANIZATION', description: 'A technology company' }]);
      await checkLookup(bridge, check, e!);
    },
  }),

  typeScenario('SCN-S-003', 'SPEC-3.1.3', 'SPEC-1.2.3', 'PERSON', 'Bob'),
  typeScenario('SCN-S-004', 'SPEC-3.1.4', 'SPEC-1.2.4', 'ORGANIZATION', 'Acme'),
  typeScenario('SCN-S-005', 'SPEC-3.1.5', 'SPEC-1.2.5', 'LOCATION', 'San Francisco'),
  typeScenario('SCN-S-006', 'SPEC-3.1.6', 'SPEC-1.2.6', 'EVENT', 'Launch Party'),
  typeScenario('SCN-S-007', 'SPEC-3.1.7', 'SPEC-1.2.7', 'OBJECT', 'Laptop'),

  defineScenario({
    id: 'SCN-S-008', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.8'],
    title: 'several entities are stored and retrieved independently',
    asserts: 'Adds five entities (one per type); their ids are distinct and get_entity_by_name returns each one exactly.',
    async run({ bridge, check }) {
      const added = await addEntities(bridge, check, FIVE_ENTITIES);
      check.distinct(added.map((e) => e.id), 'add_entity ×5: entity ids');
      for (const e of added) await checkLookup(bridge, check, e);
    },
  }),

  defineScenario({
    id: 'SCN-S-040', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.9'],
    title: 'add_entity works without a description',
    asserts: 'Adds an entity without description; the answer and the read-back have description null or omitted (not "").',
    async run({ bridge, check }) {
      // addEntities checks description ?? null === null on the answer; checkLookup on the read-back.
      const [e] = await addEntities(bridge, check, [{ name: 'NoDesc', type: 'PERSON' }]);
      await checkLookup(bridge, check, e!);
    },
  }),

  defineScenario({
    id: 'SCN-S-041', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.10'],
    title: 'entities with the same name and different types are two entities',
    asserts: 'Adds "Mercury" as OBJECT and as LOCATION; the ids differ, each keeps its type, and search_entities("Mercury") finds both.',
    async run({ bridge, check }) {
      const [obj, loc] = await addEntities(bridge, check, [
        { name: 'Mercury', type: 'OBJECT' },
        { name: 'Mercury', type: 'LOCATION' },
      ]);
      check.notEqual(loc!.id, obj!.id, 'add_entity("Mercury", LOCATION) after add_entity("Mercury", OBJECT): a new entity id');
      const hits = await bridge.search_entities({ query: 'Mercury', limit: 10 });
      for (const sent of [obj!, loc!]) {
        const got = hits.find((h) => h.id === sent.id);
        checkSameEntity(check, got, sent, `search_entities("Mercury"): the ${sent.type} entity named Mercury`, ['SPEC-3.1.10', 'SPEC-3.4.1']);
      }
      const one = await bridge.get_entity_by_name({ name: 'Mercury' });
      // silent: which of two entities sharing a name get_entity_by_name returns.
      check.by('SPEC-3.6.1').ok(
        one !== null && [obj!.id, loc!.id].includes(one.id),
        `get_entity_by_name("Mercury"): expected one of the two Mercury entities ${obj!.id} / ${loc!.id}, got ${JSON.stringify(one)}`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-S-042', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.11'],
    title: 'entity names with special and Unicode characters are kept exactly',
    asserts: 'Adds an entity whose name mixes accents, CJK, emoji, a combining mark, quotes and backslashes; the answer and get_entity_by_name(name) give the name code unit for code unit.',
    async run({ bridge, check }) {
      const name = 'Café de 世界 — "Zoë" O\'Brien & Søn <b>/\\ 👩‍👩‍👧‍👦 e\u0301';
      const [e] = await addEntities(bridge, check, [{ name, type: 'LOCATION' }]);
      await checkLookup(bridge, check, e!);
    },
  }),

  defineScenario({
    id: 'SCN-S-043', tier: 'silver', group: 'add_entity', clauses: ['SPEC-3.1.12'],
    title: 'add_entity returns a UUID id, the id under which it is stored',
    asserts: 'The id of a new entity is a UUID string and get_entity_by_name returns the entity under that same id.',
    async run({ bridge, check }) {
      const e = await bridge.add_entity({ name: 'UUIDCheck', entity_type: 'PERSON' });
      check.uuid(e.id, 'add_entity: id');
      await checkLookup(bridge, check, e, ['SPEC-3.6.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-018', tier: 'silver', group: 'get_entity_by_name', clauses: ['SPEC-3.6.1'],
    title: 'get_entity_by_name returns the entity with exactly that name',
    asserts: 'Adds "Alice", "Alice Johnson Jr." before "Alice Johnson" and "Bob Johnson" after; get_entity_by_name("Alice Johnson") returns that entity, not one with a similar name.',
    async run({ bridge, check }) {
      const [, , target] = await addEntities(bridge, check, [
        { name: 'Alice', type: 'PERSON' },
        { name: 'Alice Johnson Jr.', type: 'PERSON' },
        { name: 'Alice Johnson', type: 'PERSON', description: 'Engineer' },
        { name: 'Bob Johnson', type: 'PERSON' },
      ]);
      await checkLookup(bridge, check, target!);
    },
  }),

  defineScenario({
    id: 'SCN-S-019', tier: 'silver', group: 'get_entity_by_name', clauses: ['SPEC-3.6.2'],
    title: 'get_entity_by_name answers null for a name no entity has',
    asserts: 'With "Alice Johnson" stored, get_entity_by_name answers 200 null for "Nonexistent Entity" and for "Alice" (only a prefix of a stored name).',
    async run({ bridge, check }) {
      await addEntities(bridge, check, [{ name: 'Alice Johnson', type: 'PERSON' }]);
      for (const name of ['Nonexistent Entity', 'Alice']) {
        const got = await bridge.get_entity_by_name({ name });
        check.equal(got, null, `get_entity_by_name(${JSON.stringify(name)}) where no entity has that exact name: the lookup finds nothing`);
      }
    },
  }),
];
