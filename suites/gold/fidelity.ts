// Gold rules that only show with inputs built for them (issue 12): a merge moves the source's
// incoming edges as well as its outgoing ones; relationship types come back, and filter, as given;
// relationship properties are an object (omitted when none were given is fine, null is not).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { absentId, indexOfId } from '../support/by-id.js';
import { describeReading, readAnswer } from '../../src/profiles/bridge/classify.js';
import { isJsonObject } from '../../src/util/json.js';
import { addEntities } from '../support/entities.js';

const tier = 'gold';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-104', tier, group: 'merge', clauses: ['SPEC-5.3.2'],
    title: 'merge keeps the source\'s incoming relationships as well as its outgoing ones',
    asserts:
      'Dup → Acme (WORKS_AT) and Bob → Dup (KNOWS); after merging Dup into Alice, Bob\'s KNOWS relationship reaches the merged ' +
      'entity (not Dup) and the merged entity\'s WORKS_AT relationship reaches Acme.',
    async run({ bridge }) {
      const { alice, dup, acme, bob } = await addEntities(bridge, {
        alice: ['Alice Johnson', 'PERSON'],
        dup: ['A. Johnson', 'PERSON'],
        acme: ['Acme Corp', 'ORGANIZATION'],
        bob: ['Bob Smith', 'PERSON'],
      });
      await bridge.add_relationship({ source_id: dup.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      await bridge.add_relationship({ source_id: bob.id, target_id: dup.id, relationship_type: 'KNOWS' });
      const merged = await bridge.merge_duplicate_entities({ source_id: dup.id, target_id: alice.id });
      const rule = '(SPEC-5.3.2: the merged entity keeps the relationships of both; an edge into the source is one of them)';
      // silent (related-incoming): asked from each edge's source, so outgoing-only traversal finds it too
      const fromBob = await bridge.get_related_entities({ entity_id: bob.id, relationship_type: 'KNOWS' });
      indexOfId(fromBob, merged, `get_related_entities(entity_id=<Bob>, relationship_type="KNOWS") after merging Dup (Bob → Dup) into Alice ${rule}`);
      absentId(fromBob, dup, `get_related_entities(entity_id=<Bob>, relationship_type="KNOWS") after the merge: the merged-away source`);
      const fromMerged = await bridge.get_related_entities({ entity_id: merged.id, relationship_type: 'WORKS_AT' });
      indexOfId(fromMerged, acme, `get_related_entities(entity_id=<merged>, relationship_type="WORKS_AT") after merging Dup (Dup → Acme) into Alice ${rule}`);
    },
  }),

  defineScenario({
    id: 'SCN-G-105', tier, group: 'relationships', clauses: ['SPEC-5.2.1', 'SPEC-3.7.3'],
    title: 'relationship types are kept as given, and filter as given',
    asserts:
      'Adds relationships typed "works_with" and "Reports To"; each answer carries its type verbatim and get_related_entities ' +
      'filtered by the type as given finds the other end.',
    async run({ bridge }) {
      const { ann, ben, cat } = await addEntities(bridge, { ann: ['Ann', 'PERSON'], ben: ['Ben', 'PERSON'], cat: ['Cat', 'PERSON'] });
      for (const [type, target] of [['works_with', ben], ['Reports To', cat]] as const) {
        const rel = await bridge.add_relationship({ source_id: ann.id, target_id: target.id, relationship_type: type });
        check.by('SPEC-5.2.1').equal(rel.relationship_type, type, `add_relationship(relationship_type=${JSON.stringify(type)}) answer (SPEC-5.2.1: a typed relationship; no casing rule exists)`);
        const related = await bridge.get_related_entities({ entity_id: ann.id, relationship_type: type });
        indexOfId(related, target, `get_related_entities(entity_id=<Ann>, relationship_type=${JSON.stringify(type)}) (SPEC-3.7.3: filter by the type as stored)`, ['SPEC-3.7.3']);
      }
    },
  }),

  defineScenario({
    id: 'SCN-G-106', tier, group: 'relationships', clauses: ['BRIDGE-GENERAL-5', 'SPEC-5.2.1'],
    title: 'relationship properties are a JSON object',
    asserts:
      'add_relationship without properties answers properties as an object, null or no field (not null is an advisory, ' +
      'ADV-properties-not-null: General rule 5 says properties are objects, rule 4 lets an unset optional field be null); with ' +
      'nested properties it answers them unchanged.',
    async run({ bridge }) {
      const { a, b } = await addEntities(bridge, { a: ['Prop A', 'PERSON'], b: ['Prop B', 'PERSON'] });
      const bare = await bridge.add_relationship({ source_id: a.id, target_id: b.id, relationship_type: 'KNOWS' });
      // silent (optional-null-or-omitted): the field may be left out; the data model (checked for every answer) takes an
      // object or null; that it is never null is the kit's reading of General rule 5 over rule 4
      check.advise('ADV-properties-not-null').ok(
        !('properties' in bare) || (typeof bare.properties === 'object' && bare.properties !== null && !Array.isArray(bare.properties)),
        `add_relationship(relationship_type="KNOWS") without properties: expected properties to be a JSON object or absent ` +
          `(bridge-protocol.md: "properties are JSON objects"), got ${JSON.stringify(bare.properties)}`,
        { expected: 'an object or no field', actual: bare.properties },
      );
      const properties = { since: 2020, tags: ['work', 'chess'], detail: { met_at: 'Acme', verified: true } };
      const rel = await bridge.add_relationship({ source_id: a.id, target_id: b.id, relationship_type: 'PLAYS_CHESS_WITH', properties });
      check.by('BRIDGE-METHOD-add_relationship', 'SPEC-V3-add_relationship').equal(rel.properties, properties, 'add_relationship(properties=<nested object>) answer: properties as sent');
    },
  }),

  defineScenario({
    id: 'SCN-G-107', tier, group: 'merge', clauses: ['SPEC-5.3.1'],
    title: 'merging an entity into itself loses nothing',
    asserts:
      'merge_duplicate_entities(source=A, target=A) either answers an error or answers A; either way A is still found by ' +
      'get_entity_by_name and keeps its relationship.',
    async run(ctx) {
      const { bridge } = ctx;
      const { a, b } = await addEntities(bridge, { a: ['Self Merge Co', 'ORGANIZATION'], b: ['Partner Co', 'ORGANIZATION'] });
      await bridge.add_relationship({ source_id: a.id, target_id: b.id, relationship_type: 'PARTNERS_WITH' });
      const { outcome } = await ctx.raw('merge_duplicate_entities', { source_id: a.id, target_id: a.id });
      const call = 'merge_duplicate_entities(source_id=<A>, target_id=<A>)';
      // silent (merge-self): refusing and accepting as a no-op are both fine; losing A is not. Read by the shared reading (readAnswer).
      const reading = readAnswer(outcome);
      const answeredA = reading.kind === 'accepted' && isJsonObject(reading.value) && reading.value['id'] === a.id;
      check.ok(reading.kind === 'refused' || answeredA, `${call}: expected an error or A itself, got ${describeReading(reading)}`, { expected: 'error or A', actual: outcome });
      const found = check.present(await bridge.get_entity_by_name({ name: 'Self Merge Co' }), `get_entity_by_name(name="Self Merge Co") after ${call} (SPEC-5.3.1: a merge leaves one entity, not none)`);
      check.equal(found.id, a.id, `get_entity_by_name(name="Self Merge Co") after ${call}: id`);
      const related = await bridge.get_related_entities({ entity_id: a.id, relationship_type: 'PARTNERS_WITH' });
      indexOfId(related, b, `get_related_entities(entity_id=<A>, relationship_type="PARTNERS_WITH") after ${call}`);
    },
  }),

  // The coverage matrix (issue 34, docs/coverage.md): a merge chain.
  defineScenario({
    id: 'SCN-G-150', tier, group: 'merge_duplicate_entities', clauses: ['SPEC-5.3.2', 'SPEC-5.3.1'],
    title: 'a merge chain A into B, then B into C, keeps the relationships of all three on C',
    asserts:
      'Entities A ("Robert Smith"), B ("Bob Smith"), C ("R. Smith"), Acme and Paris; A -WORKS_AT-> Acme, B -LIVES_IN-> Paris. Merges A into B, then ' +
      'B into C: the second merge answers C (SPEC-5.3.1), and get_related_entities(C, depth 1) holds both Acme and Paris (SPEC-5.3.2: the merged entity ' +
      'keeps the relationships of both, including those a former merge brought it).',
    async run({ bridge }) {
      const { a, b, c, acme, paris } = await addEntities(bridge, {
        a: ['Robert Smith', 'PERSON'], b: ['Bob Smith', 'PERSON'], c: ['R. Smith', 'PERSON'], acme: ['Acme', 'ORGANIZATION'], paris: ['Paris', 'LOCATION'],
      });
      await bridge.add_relationship({ source_id: a.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
      await bridge.add_relationship({ source_id: b.id, target_id: paris.id, relationship_type: 'LIVES_IN' });
      await bridge.merge_duplicate_entities({ source_id: a.id, target_id: b.id });
      const last = await bridge.merge_duplicate_entities({ source_id: b.id, target_id: c.id });
      check.by('SPEC-5.3.1').equal(last.id, c.id, 'merge_duplicate_entities(B into C) after A into B: the entity answered (C survives)');
      const related = await bridge.get_related_entities({ entity_id: c.id, depth: 1 });
      const names = new Set(related.map((e) => (e.id === acme.id ? 'Acme' : e.id === paris.id ? 'Paris' : e.name)));
      const missing = ['Acme', 'Paris'].filter((n) => !names.has(n));
      check.by('SPEC-5.3.2').that(missing.length === 0, 'get_related_entities(C) after the merge chain A → B → C holds the relationships of A and B', () => ({
        message: `get_related_entities(<C>, depth=1) after merging A into B, then B into C (SPEC-5.3.2: the merged entity keeps the relationships of both): expected Acme (A's relationship) and Paris (B's), missing ${show(missing)}; got ${show([...names])}`,
        expected: '["Acme","Paris"]',
        actual: show([...names]),
      }));
    },
  }),
];
