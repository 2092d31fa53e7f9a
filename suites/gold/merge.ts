// Gold: merging duplicate entities (SPEC-5.3.x). The source is merged into the target: the target
// survives (same id), the source is gone, and the relationships of both end up on the target.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Entity } from '../../src/protocols/bridge/index.js';
import { absentId, label, sameIds } from '../support/by-id.js';
import { addEntities } from '../support/entities.js';

/**
 * After merge_duplicate_entities(source -> target): the answer is the target, and the source's
 * name no longer leads to the source.
 */
async function checkMerged(bridge: BridgeApi, check: Check, merged: Entity, source: Entity, target: Entity): Promise<void> {
  check.equal(merged.id, target.id, `merge_duplicate_entities(source=${label(source)}, target=${label(target)}): id of the returned entity (the target survives)`);
  const byName = await bridge.get_entity_by_name({ name: source.name });
  // silent: the source's name may be forgotten (null) or kept as an alias of the target
  check.ok(
    byName === null || byName.id === target.id,
    `get_entity_by_name(${JSON.stringify(source.name)}) after merging it into ${label(target)}: expected null or the target, got ${byName === null ? 'null' : label(byName)}`,
    { expected: `null or ${target.id}`, actual: byName },
  );
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-005',
    tier: 'gold',
    group: 'merge',
    clauses: ['SPEC-5.3.1'],
    title: 'merge_duplicate_entities combines two entities into the target',
    asserts:
      'Merges "A. Johnson" into "Alice Johnson": the answer has the target\'s id, the target is still found by its ' +
      'name, the source is found neither by name (null or the target) nor by search, and an unrelated entity is untouched.',
    async run({ bridge, check }) {
      const { target, source, bob } = await addEntities(bridge, {
        target: ['Alice Johnson', 'PERSON', 'Engineer'],
        source: ['A. Johnson', 'PERSON', 'Developer'],
        bob: ['Bob Smith', 'PERSON', 'Designer'],
      });
      const merged = await bridge.merge_duplicate_entities({ source_id: source.id, target_id: target.id });
      await checkMerged(bridge, check, merged, source, target);
      const kept = await bridge.get_entity_by_name({ name: 'Alice Johnson' });
      check.equal(kept?.id ?? null, target.id, 'get_entity_by_name("Alice Johnson") after the merge: id of the surviving target');
      const search = await bridge.search_entities({ query: 'A. Johnson' });
      absentId(search, source, 'search_entities("A. Johnson") after merging "A. Johnson" into "Alice Johnson"');
      const other = await bridge.get_entity_by_name({ name: 'Bob Smith' });
      check.equal(other?.id ?? null, bob.id, 'get_entity_by_name("Bob Smith"): an entity not part of the merge keeps its id');
    },
  }),

  defineScenario({
    id: 'SCN-G-013',
    tier: 'gold',
    group: 'merge',
    clauses: ['SPEC-5.3.2'],
    title: 'The merged entity keeps the relationships of both entities',
    asserts:
      'Alice -WORKS_AT-> Acme on the target and "A. Johnson" -LIVES_IN-> Paris on the source; after the merge ' +
      'get_related_entities of the target returns exactly Acme and Paris, and Paris still under LIVES_IN.',
    async run({ bridge, check }) {
      const { target, source, acme, paris } = await addEntities(bridge, {
        target: ['Alice', 'PERSON'],
        source: ['A. Johnson', 'PERSON'],
        acme: ['Acme', 'ORGANIZATION'],
        paris: ['Paris', 'LOCATION'],
        unlinked: ['Zurich', 'LOCATION'], // a decoy: linked to nothing, never related
      });
      await bridge.add_relationship({ source_id: target.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      await bridge.add_relationship({ source_id: source.id, target_id: paris.id, relationship_type: 'LIVES_IN' });
      const merged = await bridge.merge_duplicate_entities({ source_id: source.id, target_id: target.id });
      await checkMerged(bridge, check, merged, source, target);
      const related = await bridge.get_related_entities({ entity_id: target.id });
      // silent: whether an entity reached by several edges is listed once or more
      sameIds(related, [acme, paris], 'get_related_entities(target "Alice") after merging "A. Johnson" into it: the neighbours of both', { allowRepeats: true });
      const typed = await bridge.get_related_entities({ entity_id: target.id, relationship_type: 'LIVES_IN' });
      sameIds(typed, [paris], 'get_related_entities(target "Alice", relationship_type="LIVES_IN") after the merge: the source\'s edge keeps its type', { allowRepeats: true });
    },
  }),

  defineScenario({
    id: 'SCN-G-102',
    tier: 'gold',
    group: 'merge',
    clauses: ['SPEC-5.3.1', 'BRIDGE-METHOD-merge_duplicate_entities', 'SPEC-V3-merge_duplicate_entities'],
    title: 'merge_duplicate_entities applies canonical_name to the surviving target',
    asserts:
      'Merges "A. Johnson" into "Alice J." with canonical_name "Alice Johnson": the answer is the target with that ' +
      'canonical_name, and the target read back by its name carries it too.',
    async run({ bridge, check }) {
      const { target, source } = await addEntities(bridge, { target: ['Alice J.', 'PERSON'], source: ['A. Johnson', 'PERSON'] });
      const merged = await bridge.merge_duplicate_entities({ source_id: source.id, target_id: target.id, canonical_name: 'Alice Johnson' });
      await checkMerged(bridge, check, merged, source, target);
      // The canonical_name parameter of the merge is the merged entity's canonical form of the name (the method rows of both documents).
      const canonical = check.by('BRIDGE-METHOD-merge_duplicate_entities', 'SPEC-V3-merge_duplicate_entities');
      canonical.equal(merged.canonical_name, 'Alice Johnson', 'merge_duplicate_entities(canonical_name="Alice Johnson"): canonical_name of the returned entity');
      const stored = await bridge.get_entity_by_name({ name: 'Alice J.' });
      canonical.equal(
        { id: stored?.id, canonical_name: stored?.canonical_name },
        { id: target.id, canonical_name: 'Alice Johnson' },
        'get_entity_by_name("Alice J.") after merge_duplicate_entities(canonical_name="Alice Johnson"): the stored target keeps the canonical_name',
      );
    },
  }),
];
