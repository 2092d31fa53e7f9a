// The coverage matrix (issue 34, docs/coverage.md): Gold reads made again, with the very same
// arguments, after a merge or a completed trace (a cache keyed by the request shows only this way);
// success_only applied before limit; walks over a diamond and over parallel relationships.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { addEntities } from '../support/entities.js';
import { addTrace } from '../support/traces.js';

const tier = 'gold';
const same = (a: { id: string }, b: { id: string }) => a.id.toLowerCase() === b.id.toLowerCase();

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-160', tier, group: 'merge', clauses: ['SPEC-5.3.2', 'SPEC-5.3.1', 'BRIDGE-METHOD-merge_duplicate_entities'],
    title: 'get_related_entities, search_entities and get_entity_by_name made before a merge show it when made again',
    asserts:
      '"M. Vale" -WORKS_AT-> "Vale Foundry"; "Merida Vale" has no relationship. Reads get_related_entities(<Merida Vale>, depth=1), search_entities("Vale", ' +
      'limit=10) and get_entity_by_name("Merida Vale"); merges "M. Vale" into "Merida Vale" with canonical_name "Merida Vale (canonical)"; the same three ' +
      'reads again: Vale Foundry is related to the target (SPEC-5.3.2), the source is not listed by the search (SPEC-5.3.1: one entity of two), and the ' +
      'target read by name carries the canonical_name (the method row). A read cache keyed by the request answers what it answered before the merge.',
    async run({ bridge }) {
      const { target, source, foundry } = await addEntities(bridge, {
        target: ['Merida Vale', 'PERSON'], source: ['M. Vale', 'PERSON'], foundry: ['Vale Foundry', 'ORGANIZATION'],
      });
      await bridge.add_relationship({ source_id: source.id, target_id: foundry.id, relationship_type: 'WORKS_AT' });
      const related = () => bridge.get_related_entities({ entity_id: target.id, depth: 1 });
      const search = () => bridge.search_entities({ query: 'Vale', limit: 10 });
      const byName = () => bridge.get_entity_by_name({ name: 'Merida Vale' });
      const before = { related: await related(), search: await search() };
      await byName();
      await bridge.merge_duplicate_entities({ source_id: source.id, target_id: target.id, canonical_name: 'Merida Vale (canonical)' });
      const relatedAfter = await related();
      check.by('SPEC-5.3.2').that(relatedAfter.some((e) => same(e, foundry)), 'get_related_entities of the target made again after a merge holds the source\'s neighbour', () => ({
        message: `get_related_entities(<"Merida Vale">, depth=1) after merging "M. Vale" into it, the same read having answered ${before.related.length === 0 ? '[]' : show(before.related.map((e) => e.name))} before (SPEC-5.3.2: the merged entity keeps the relationships of both): "Vale Foundry" (the source's neighbour) is missing; got ${show(relatedAfter.map((e) => e.name))}`,
        expected: 'Vale Foundry',
        actual: relatedAfter.map((e) => e.name),
      }));
      const searchAfter = await search();
      const bothBefore = before.search.some((e) => same(e, source)) && before.search.some((e) => same(e, target));
      check.by('SPEC-5.3.1').that(!searchAfter.some((e) => same(e, source)), 'search_entities made again after a merge no longer lists the merged-away source', () => ({
        message: `search_entities(query="Vale", limit=10) after merging "M. Vale" into "Merida Vale", the same search having listed ${bothBefore ? 'both' : show(before.search.map((e) => e.name))} before (SPEC-5.3.1: merge_duplicate_entities makes one entity of two): the merged-away source ${source.id} is still listed`,
        expected: `no ${source.id}`,
        actual: searchAfter.map((e) => e.id),
      }));
      const found = await byName();
      check.by('BRIDGE-METHOD-merge_duplicate_entities', 'SPEC-V3-merge_duplicate_entities').that(found?.canonical_name === 'Merida Vale (canonical)', 'get_entity_by_name of the target made again after a merge with canonical_name carries it', () => ({
        message: `get_entity_by_name(name="Merida Vale") after merge_duplicate_entities(canonical_name="Merida Vale (canonical)"), the same lookup having been made before: canonical_name: expected "Merida Vale (canonical)", got ${found === null ? 'no entity' : JSON.stringify(found.canonical_name)}`,
        expected: 'Merida Vale (canonical)',
        actual: found?.canonical_name,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-G-161', tier, group: 'similar-traces', clauses: ['BRIDGE-METHOD-get_similar_traces', 'SPEC-V3-get_similar_traces', 'SPEC-5.4.1'],
    title: 'get_similar_traces(success_only=true) made before complete_trace finds the trace when made again',
    asserts:
      'Starts a trace "Calibrate the orbital telescope mirrors"; get_similar_traces of that task (limit 5, success_only true) must not return it, ' +
      'not being successful; complete_trace(success=true) and the same search again must return it (SPEC-5.4.1). Then the search with success_only ' +
      'false, a second start_trace of that task, and the same search again: the new trace is returned. A search cache keyed by the request ' +
      'answers the first answer again.',
    async run({ bridge }) {
      const task = 'Calibrate the orbital telescope mirrors';
      const call = `get_similar_traces(task="${task}", limit=5, success_only=true)`;
      const trace = await bridge.start_trace({ session_id: 'rwr-similar', task });
      const params = { task, limit: 5, success_only: true };
      const before = await bridge.get_similar_traces(params);
      check.that(!before.some((t) => same(t, trace)), `${call} does not return a trace that is not completed`, () => ({
        message: `${call} with the one trace of that task not completed (success_only: only successful traces): it is returned`,
        expected: 'no trace',
        actual: before.map((t) => t.id),
      }));
      await bridge.complete_trace({ trace_id: trace.id, outcome: 'calibrated', success: true });
      const after = await bridge.get_similar_traces(params);
      check.by('SPEC-5.4.1').that(after.some((t) => same(t, trace)), `${call} made again after complete_trace(success=true) returns the trace`, () => ({
        message: `${call} after complete_trace(success=true), the same search having answered ${before.length} trace(s) before (SPEC-5.4.1: get_similar_traces finds traces whose tasks are alike; it is now successful): the now successful trace ${trace.id} is missing; got ${show(after.map((t) => t.id))}`,
        expected: trace.id,
        actual: after.map((t) => t.id),
      }));
      // And a search of every trace (success_only=false) made before a second start_trace of the same task finds it when made again.
      const every = { task, limit: 5, success_only: false };
      const everyCall = `get_similar_traces(task="${task}", limit=5, success_only=false)`;
      const was = await bridge.get_similar_traces(every);
      const second = await bridge.start_trace({ session_id: 'rwr-similar', task });
      const now = await bridge.get_similar_traces(every);
      check.by('SPEC-5.4.1').that(now.some((t) => same(t, second)), `${everyCall} made again after start_trace of that task returns the new trace`, () => ({
        message: `${everyCall} after a second start_trace of that very task, the same search having answered ${was.length} trace(s) before (SPEC-5.4.1: get_similar_traces finds traces whose tasks are alike): the new trace ${second.id} is missing; got ${show(now.map((t) => t.id))}`,
        expected: second.id,
        actual: now.map((t) => t.id),
      }));
    },
  }),

  defineScenario({
    id: 'SCN-G-162', tier, group: 'similar-traces', clauses: ['BRIDGE-METHOD-get_similar_traces', 'SPEC-V3-get_similar_traces', 'SPEC-5.4.1', 'SPEC-5.4.2'],
    title: 'get_similar_traces applies success_only before limit: failed traces more alike do not crowd out the successful ones',
    asserts:
      'Three traces of "Rebalance the warehouse shelving plan" completed with success=false, then two of "Rebalance the warehouse shelving plan today" ' +
      'completed with success=true; get_similar_traces(task="Rebalance the warehouse shelving plan", limit=2, success_only=true) must return ' +
      'successful traces (one at least) and only them (SPEC-5.4.1: traces whose tasks are alike, of those success_only keeps; SPEC-5.4.2: at most limit). A server that ' +
      'keeps the two most similar traces first and then drops the failed ones answers nothing.',
    async run({ bridge }) {
      const task = 'Rebalance the warehouse shelving plan';
      for (let i = 0; i < 3; i++) await addTrace(bridge, 'similar-filter-limit', task, false);
      const good = [await addTrace(bridge, 'similar-filter-limit', `${task} today`, true), await addTrace(bridge, 'similar-filter-limit', `${task} today`, true)];
      const got = await bridge.get_similar_traces({ task, limit: 2, success_only: true });
      const found = good.filter((g) => got.some((t) => same(t, g)));
      const call = `get_similar_traces(task="${task}", limit=2, success_only=true) with 3 failed traces of that very task and 2 successful ones of a task one word longer`;
      // silent: limit bounds the answer (SPEC-5.4.2), it may hold fewer; what the filter-then-limit order fixes is that the successful traces are not all crowded out.
      check.that(found.length >= 1 && found.length === got.length, `${call}: successful traces, and only them`, () => ({
        message: `${call} (SPEC-5.4.1: traces whose tasks are alike, success_only keeping the successful ones; filter before limit): expected successful traces (at least one of the 2, no other), got ${found.length}${got.length > found.length ? ` and ${got.length - found.length} other(s)` : ''}: ${show(got.map((t) => `${t.task} (success=${t.success})`))}`,
        expected: good.map((t) => t.id),
        actual: got.map((t) => t.id),
      }));
    },
  }),

  defineScenario({
    id: 'SCN-G-163', tier, group: 'relationships', clauses: ['SPEC-3.7.1', 'SPEC-5.2.3', 'SPEC-3.7.3'],
    title: 'get_related_entities over a diamond and over two relationships of different types between one pair',
    asserts:
      'A -KNOWS-> B, A -KNOWS-> C, B -KNOWS-> D, C -KNOWS-> D (a diamond) and A -MENTORS-> B (a second relationship of A and B); E is linked to nothing. ' +
      'get_related_entities(A) at depth 1, 2 and omitted, and with relationship_type KNOWS at depth 2, holds B and C and nothing but A, B, C and D ' +
      '(SPEC-3.7.1; whether depth 2 reaches D is silent point related-depth, whether an entity reached twice is listed twice related-repeats). ' +
      'relationship_type MENTORS at depth 1 answers B and not C nor D (SPEC-5.2.3: two entities linked by several types; SPEC-3.7.3). A walk that ' +
      'takes the diamond for a cycle answers nothing; a store that keeps one relationship per pair loses MENTORS. On a cycle X → Y → Z → X, ' +
      'get_related_entities(X) with depth omitted holds Y and nothing outside the cycle.',
    async run({ bridge }) {
      const ents = await addEntities(bridge, {
        a: ['Diamond A', 'PERSON'], b: ['Diamond B', 'PERSON'], c: ['Diamond C', 'PERSON'], d: ['Diamond D', 'PERSON'], e: ['Diamond E', 'PERSON'],
      });
      const { a, b, c, d } = ents;
      for (const [s, t, type] of [[a, b, 'KNOWS'], [a, c, 'KNOWS'], [b, d, 'KNOWS'], [c, d, 'KNOWS'], [a, b, 'MENTORS']] as const) {
        await bridge.add_relationship({ source_id: s.id, target_id: t.id, relationship_type: type });
      }
      const letter = (x: { name: string }) => x.name.replace('Diamond ', '');
      const walks: { depth?: number; relationship_type?: string }[] = [{ depth: 1 }, { depth: 2 }, {}, { depth: 2, relationship_type: 'KNOWS' }];
      for (const walk of walks) {
        const related = await bridge.get_related_entities({ entity_id: a.id, ...walk });
        const args = [walk.relationship_type !== undefined ? `relationship_type="${walk.relationship_type}"` : '', walk.depth !== undefined ? `depth=${walk.depth}` : ''].filter((x) => x !== '').join(', ');
        const call = `get_related_entities(<A>${args ? `, ${args}` : ''}) over the diamond A → B → D, A → C → D`;
        const missing = [b, c].filter((x) => !related.some((r) => same(r, x))).map(letter);
        check.by('SPEC-3.7.1').that(missing.length === 0, `${call} holds its direct neighbours`, () => ({
          message: `${call} (SPEC-3.7.1: the entities connected to an entity are returned): missing ${show(missing)}; got ${show(related.map(letter))}`,
          expected: ['B', 'C'],
          actual: related.map(letter),
        }));
        // silent (related-depth): the start entity may come back through a cycle (here A -KNOWS-> B, B <-MENTORS- A)
        const strangers = related.filter((r) => ![a, b, c, d].some((x) => same(r, x))).map(letter);
        check.by('SPEC-3.7.1').that(strangers.length === 0, `${call} lists only entities linked to A`, () => ({
          message: `${call} (SPEC-3.7.1: the entities connected to an entity, no other): lists ${show(strangers)}, which no relationship links to A`,
          expected: ['A', 'B', 'C', 'D'],
          actual: related.map(letter),
        }));
      }
      // A cycle X -> Y -> Z -> X, walked with depth omitted: Y is a direct neighbour (silent point related-depth: the default depth, and X through the cycle).
      const ring = await addEntities(bridge, { x: ['Ring X', 'OBJECT'], y: ['Ring Y', 'OBJECT'], z: ['Ring Z', 'OBJECT'] });
      for (const [s, t] of [[ring.x, ring.y], [ring.y, ring.z], [ring.z, ring.x]] as const) await bridge.add_relationship({ source_id: s.id, target_id: t.id, relationship_type: 'NEXT' });
      const around = await bridge.get_related_entities({ entity_id: ring.x.id });
      const ringCall = 'get_related_entities(<X>) with depth omitted, X on the cycle X → Y → Z → X';
      check.by('SPEC-3.7.1').that(around.some((r) => same(r, ring.y)), `${ringCall} holds its direct neighbour`, () => ({
        message: `${ringCall} (SPEC-3.7.1: the entities connected to an entity are returned): Y is missing; got ${show(around.map((r) => r.name))}`,
        expected: ['Ring Y'],
        actual: around.map((r) => r.name),
      }));
      const outside = around.filter((r) => ![ring.x, ring.y, ring.z].some((x) => same(r, x))).map((r) => r.name);
      check.by('SPEC-3.7.1').that(outside.length === 0, `${ringCall} lists only entities of the cycle`, () => ({
        message: `${ringCall} (SPEC-3.7.1: the entities connected to an entity, no other): lists ${show(outside)}, which no relationship links to X`,
        expected: ['Ring Y', 'Ring Z'],
        actual: around.map((r) => r.name),
      }));
      const mentors = await bridge.get_related_entities({ entity_id: a.id, relationship_type: 'MENTORS', depth: 1 });
      const call = 'get_related_entities(<A>, relationship_type="MENTORS", depth=1) with A -KNOWS-> B and A -MENTORS-> B';
      check.by('SPEC-5.2.3').that(mentors.some((r) => same(r, b)), `${call} holds B`, () => ({
        message: `${call} (SPEC-5.2.3: two entities can be linked by several relationship types): expected B, got ${show(mentors.map(letter))}`,
        expected: ['B'],
        actual: mentors.map(letter),
      }));
      const others = mentors.filter((r) => !same(r, b)).map(letter);
      check.by('SPEC-3.7.3').that(others.length === 0, `${call} holds nothing linked by another type`, () => ({
        message: `${call} (SPEC-3.7.3: relationship_type narrows the related entities to that type): lists ${show(others)}, linked to A by KNOWS only`,
        expected: ['B'],
        actual: mentors.map(letter),
      }));
    },
  }),

  defineScenario({
    id: 'SCN-G-164', tier, group: 'relationships', clauses: ['SPEC-3.7.1', 'SPEC-3.1.10'],
    title: 'a relationship to one of two entities sharing a name leads to that one, not its namesake',
    asserts:
      'Adds "Harbin Twin" as an ORGANIZATION, then "Harbin Twin" as a PERSON (two entities, SPEC-3.1.10) and "Keeper"; Keeper -KNOWS-> the PERSON. ' +
      'get_related_entities(<Keeper>, depth=1) lists the PERSON (by its id) and not the ORGANIZATION (SPEC-3.7.1: the entities connected to an ' +
      'entity, no other). A store that resolves a relationship\'s ends by name answers the namesake.',
    async run({ bridge }) {
      const org = await bridge.add_entity({ name: 'Harbin Twin', entity_type: 'ORGANIZATION' });
      const person = await bridge.add_entity({ name: 'Harbin Twin', entity_type: 'PERSON' });
      const keeper = await bridge.add_entity({ name: 'Keeper', entity_type: 'PERSON' });
      await bridge.add_relationship({ source_id: keeper.id, target_id: person.id, relationship_type: 'KNOWS' });
      const related = await bridge.get_related_entities({ entity_id: keeper.id, depth: 1 });
      const call = 'get_related_entities(<Keeper>, depth=1) with Keeper -KNOWS-> "Harbin Twin" (PERSON) and a namesake "Harbin Twin" (ORGANIZATION) linked to nothing';
      const got = show(related.map((e) => `${e.name} (${e.type})`));
      check.by('SPEC-3.7.1').that(related.some((e) => same(e, person)), `${call} lists the entity the relationship leads to`, () => ({
        message: `${call} (SPEC-3.7.1: the entities connected to an entity are returned): the PERSON ${person.id} is missing; got ${got}`,
        expected: person.id,
        actual: related.map((e) => e.id),
      }));
      check.by('SPEC-3.7.1', 'SPEC-3.1.10').that(!related.some((e) => same(e, org)), `${call} does not list the namesake`, () => ({
        message: `${call} (SPEC-3.7.1: the entities connected to an entity, no other; SPEC-3.1.10: one name with two types is two entities): lists the ORGANIZATION ${org.id}, which no relationship links to Keeper; got ${got}`,
        expected: `no ${org.id}`,
        actual: related.map((e) => e.id),
      }));
    },
  }),
];
