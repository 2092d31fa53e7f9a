// Gold under concurrency: relationships added at once, and a merge beside them. Every relationship
// added is followed (SPEC-5.2.2, SPEC-3.7.4); a merge keeps the relationships of both entities
// (SPEC-5.3.2) whichever of the calls in flight at once the server took first: a relationship to the
// merge's target is kept in every serial order, and one the source had before the merge moves to
// the target.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { show } from '../../src/engine/assert.js';
import type { Entity } from '../../src/protocols/bridge/model.js';
import { MANY, SOCKETS, batch, range, shapeName } from '../support/concurrency.js';
import { checkEnds } from '../support/entities.js';

const group = 'concurrency';
const how = shapeName(SOCKETS);

/** The entities of `want` that get_related_entities(from) does not list. */
async function unrelated(bridge: Parameters<Scenario['run']>[0]['bridge'], from: Entity, want: readonly Entity[]): Promise<{ missing: Entity[]; listed: string[] }> {
  const related = await bridge.get_related_entities({ entity_id: from.id });
  const listed = related.map((e) => e.id);
  return { missing: want.filter((e) => !listed.includes(e.id)), listed };
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-108', tier: 'gold', group,
    clauses: ['SPEC-5.2.1', 'SPEC-5.2.2', 'SPEC-3.7.4'],
    title: `${MANY} add_relationship calls at once from one entity: every relationship is followed`,
    asserts:
      `Adds a hub entity and ${MANY} others, then ${MANY} add_relationship calls at once (${how}) from the hub to each. Each answer must link the ` +
      `ends its call sent (SPEC-5.2.1); get_related_entities(hub) must list all ${MANY} (SPEC-5.2.2, SPEC-3.7.4).`,
    async run(ctx) {
      const { bridge, check } = ctx;
      const hub = await bridge.add_entity({ name: 'Concurrent Hub', entity_type: 'ORGANIZATION' });
      const spokes: Entity[] = [];
      for (const i of range(MANY)) spokes.push(await bridge.add_entity({ name: `Concurrent Spoke ${i + 1}`, entity_type: 'PERSON' }));
      const rels = await batch(ctx, SOCKETS, (b) => spokes.map((s) => b.add_relationship({ source_id: hub.id, target_id: s.id, relationship_type: 'EMPLOYS' })));
      rels.forEach((r, i) => checkEnds(r, { source: hub, target: spokes[i]! }, `add_relationship (call ${i + 1} of ${MANY} sent at once ${how})`, ['SPEC-5.2.1']));
      const { missing, listed } = await unrelated(bridge, hub, spokes);
      check.by('SPEC-5.2.2', 'SPEC-3.7.4').that(missing.length === 0, `get_related_entities(hub) lists every entity of the ${MANY} relationships added at once`, () => ({
        message: `get_related_entities(entity_id=${hub.id}) after ${MANY} add_relationship calls at once ${how} that all answered 200: ${missing.length} related entities missing (${missing.map((e) => show(e.name)).join(', ')})`,
        expected: spokes.map((e) => e.id), actual: listed,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-G-109', tier: 'gold', group,
    clauses: ['SPEC-5.3.2', 'SPEC-5.2.2'],
    title: 'a merge beside add_relationship calls at once keeps the relationships of both entities',
    asserts:
      `Adds a source and a target entity, a relationship from the source to a third entity, and ${MANY - 1} more entities; then sends at once (${how}) ` +
      `merge_duplicate_entities(source into target) beside ${MANY - 1} add_relationship calls from the target to those entities (outgoing: silent related-incoming). In every serial order the ` +
      'target keeps each of those relationships and takes over the source\'s: get_related_entities(target) must list the third entity and all the others (SPEC-5.3.2, SPEC-5.2.2).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const source = await bridge.add_entity({ name: 'Concurrent Duplicate', entity_type: 'PERSON' });
      const target = await bridge.add_entity({ name: 'Concurrent Original', entity_type: 'PERSON' });
      const third = await bridge.add_entity({ name: 'Concurrent Employer', entity_type: 'ORGANIZATION' });
      await bridge.add_relationship({ source_id: source.id, target_id: third.id, relationship_type: 'WORKS_AT' });
      const others: Entity[] = [];
      for (const i of range(MANY - 1)) others.push(await bridge.add_entity({ name: `Concurrent Colleague ${i + 1}`, entity_type: 'PERSON' }));
      await batch(ctx, SOCKETS, (b) => [
        b.merge_duplicate_entities({ source_id: source.id, target_id: target.id }).then(() => undefined),
        ...others.map((o) => b.add_relationship({ source_id: target.id, target_id: o.id, relationship_type: 'KNOWS' }).then(() => undefined)),
      ]);
      const { missing, listed } = await unrelated(bridge, target, [third, ...others]);
      check.by('SPEC-5.3.2', 'SPEC-5.2.2').that(missing.length === 0, 'get_related_entities(target) after a merge beside relationships added at once lists the relationships of both', () => ({
        message: `get_related_entities(entity_id=${target.id}) after merge_duplicate_entities(${source.id} into ${target.id}) sent at once with ${MANY - 1} add_relationship calls from the target ${how}, all answered 200: ` +
          `${missing.length} related entities missing (${missing.map((e) => show(e.name)).join(', ')}); the merged entity keeps the relationships of both, in every order the calls could have been taken`,
        expected: [third, ...others].map((e) => e.id), actual: listed,
      }));
    },
  }),
];
