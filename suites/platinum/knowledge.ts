// Platinum: the three-tier context (Volume 5, 5.2) and entities: feedback, history, merge and graph
// (5.3), and list_entities, get_entity, update_entity, delete_entity (the hosted document's endpoint
// table and the BaseAdapter's method rows), with dozens of entities, mentions and edges, and the
// core methods (add_message, add_relationship, get_related_entities, get_entity_by_name,
// search_entities) reading what the Platinum methods changed.
import { check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Entity, EntityType, PlatinumConversation } from '../../src/protocols/bridge/index.js';
import { v5 } from './clauses.js';
import { addInBulk, addOneByOne, expectGone, ids, includesAll, newConversation, sameSet, sessionOf, short, texts } from './helpers.js';
import { checkEdge, checkEnds } from '../support/entities.js';

const V3 = (method: string) => `SPEC-V3-${method}`;
const ENDPOINT = (method: string) => `HOSTED-ENDPOINT-${method}`;

/** Adds one entity per name, of `type`. */
async function addNamed(bridge: BridgeApi, names: readonly string[], type: EntityType, description?: (name: string) => string): Promise<Entity[]> {
  const out: Entity[] = [];
  for (const name of names) out.push(await bridge.add_entity({ name, entity_type: type, ...(description ? { description: description(name) } : {}) }));
  return out;
}

type Edge = { source: string; target: string; type: string };
const edgeKey = (e: Edge) => `${e.source} -${e.type}-> ${e.target}`;

/**
 * The graph holds every edge expected. When every edge it lacks is there the other way round, the
 * failure says "source and target swapped" (as the core checks of one relationship do), so a report
 * groups it with the add_relationship failure it follows from.
 */
function edgesIncluded(sentences: readonly string[], got: readonly Edge[], want: readonly Edge[], what: string): void {
  const have = new Set(got.map(edgeKey));
  const missing = want.filter((x) => !have.has(edgeKey(x)));
  const reversed = missing.filter((x) => have.has(edgeKey({ source: x.target, target: x.source, type: x.type })));
  check.by(...sentences).ok(missing.length === 0 || reversed.length < missing.length,
    `${what}: source and target swapped: ${reversed.length} of ${want.length} edges are in the graph the other way round (${reversed.slice(0, 3).map((x) => `${short(x.source)} -${x.type}-> ${short(x.target)}`).join(', ')}${reversed.length > 3 ? ', …' : ''})`,
    { expected: want.map(edgeKey).sort(), actual: got.map(edgeKey).sort() });
  includesAll(sentences, got.map(edgeKey), want.map(edgeKey), what);
}

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
      check.by(v5('5.2.1')).ok(ctx.recent_messages.some((m) => m.content === 'Hello from the TCK'),
        `get_context(${short(conv.id)}) after adding "Hello from the TCK": recent_messages must hold it`,
        { expected: added, actual: ctx.recent_messages });
    },
  }),

  defineScenario({
    id: 'SCN-P-006',
    tier: 'platinum',
    group: 'context',
    clauses: [v5('5.2.2'), V3('get_observations'), V3('get_reflections')],
    title: 'Observations and reflections may be empty; those listed belong to the conversation',
    asserts:
      'For a new conversation get_observations and get_reflections answer lists (empty allowed, SPEC-5.2.2 is a MAY); ' +
      'after two messages, every observation and reflection listed names that conversation.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-obs');
      // silent (observations-generated): a new conversation may or may not have them; the call answers a list either way.
      await bridge.get_observations({ conversation_id: conv.id });
      await bridge.get_reflections({ conversation_id: conv.id });
      await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [{ role: 'user', content: 'I live in Lisbon.' }, { role: 'assistant', content: 'Noted.' }] });
      const other = [...(await bridge.get_observations({ conversation_id: conv.id })), ...(await bridge.get_reflections({ conversation_id: conv.id }))]
        .filter((x) => x.conversation_id !== conv.id);
      check.by(V3('get_observations'), V3('get_reflections')).empty(other, `get_observations / get_reflections(${short(conv.id)}): items of another conversation`);
    },
  }),

  defineScenario({
    id: 'SCN-P-114',
    tier: 'platinum',
    group: 'context',
    clauses: [v5('5.2.1'), v5('5.2.2'), V3('get_observations'), V3('get_reflections')],
    title: 'Two busy conversations: each one\'s observations and reflections are its own, and a limit holds',
    asserts:
      'Two conversations each get 35 messages in bulk, 3 reasoning steps with a result, and a trace of their session ' +
      'started and completed with the core methods (its reflection, if any, must be a Reflection). For each, get_observations, ' +
      'get_reflections and the observations and reflections of get_context all name that conversation (empty lists ' +
      'allowed: SPEC-5.2.2), and get_observations(limit=2) answers at most 2.',
    async run({ bridge, check }) {
      const convs = [await newConversation(bridge, 'tck-busy-a'), await newConversation(bridge, 'tck-busy-b')];
      for (const [n, conv] of convs.entries()) {
        await addInBulk(bridge, conv, texts(`busy ${'AB'[n]} line about the Danube delta`, 35));
        for (let i = 0; i < 3; i++) await bridge.record_step({ conversation_id: conv.id, reasoning: `step ${i} of ${'AB'[n]}`, action_taken: `looked up item ${i}`, result: `found item ${i}` });
        // A completed trace of the conversation's session (found by mutation testing: no scenario had one, so
        // reflections made from it were never read; every answer is checked against its schema).
        const trace = await bridge.start_trace({ session_id: sessionOf(conv), task: `summarise busy conversation ${'AB'[n]}` });
        await bridge.complete_trace({ trace_id: trace.id, outcome: `summary of ${'AB'[n]} written`, success: n === 0 });
      }
      for (const conv of convs) {
        const foreign = (list: readonly { conversation_id: string }[]) => list.filter((x) => x.conversation_id !== conv.id);
        const observations = await bridge.get_observations({ conversation_id: conv.id });
        check.by(V3('get_observations')).empty(foreign(observations), `get_observations(${short(conv.id)}) of one of two busy conversations: observations of another conversation`);
        check.by(V3('get_reflections')).empty(foreign(await bridge.get_reflections({ conversation_id: conv.id })), `get_reflections(${short(conv.id)}) of one of two busy conversations: reflections of another conversation`);
        const context = await bridge.get_context({ conversation_id: conv.id });
        check.by(v5('5.2.1')).empty(foreign([...context.observations, ...context.reflections]), `get_context(${short(conv.id)}): observations and reflections of another conversation`);
        check.by(V3('get_observations')).atMost(await bridge.get_observations({ conversation_id: conv.id, limit: 2 }), 2, `get_observations(${short(conv.id)}, limit=2)`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-P-007',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.1a'), v5('5.3.1b')],
    title: 'set_entity_feedback returns {id, updated}, at both ends of the range',
    asserts:
      'set_entity_feedback(user_score=0.9, confirmed=true) on a new entity answers id = that entity and updated = true; ' +
      'user_score 0 with confirmed false and user_score 1 (the ends of [0, 1]) are each accepted and answer that id.',
    async run({ bridge, check }) {
      const e = await bridge.add_entity({ name: 'Alice Feedback', entity_type: 'PERSON', description: 'test' });
      const r = await bridge.set_entity_feedback({ entity_id: e.id, user_score: 0.9, confirmed: true });
      check.by(v5('5.3.1a')).equal({ id: r.id, updated: r.updated }, { id: e.id, updated: true }, `set_entity_feedback(${short(e.id)}, user_score=0.9, confirmed=true)`);
      for (const [user_score, confirmed] of [[0, false], [1, true]] as const) {
        const end = await bridge.set_entity_feedback({ entity_id: e.id, user_score, confirmed });
        check.by(v5('5.3.1a'), v5('5.3.1b')).equal(end.id, e.id, `set_entity_feedback(${short(e.id)}, user_score=${user_score}, confirmed=${confirmed}): id (user_score is in [0, 1])`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-P-103',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.1b')],
    title: 'set_entity_feedback refuses a user_score outside [0, 1]',
    asserts: 'user_score 1.5 and -0.1 are each refused with an error (the clause puts user_score in [0, 1]).',
    async run(ctx) {
      const { bridge } = ctx;
      const e = await bridge.add_entity({ name: 'Bob Range', entity_type: 'PERSON' });
      await ctx.expectError('set_entity_feedback', { entity_id: e.id, user_score: 1.5, confirmed: true }, 'with user_score 1.5 (outside [0, 1])', { cites: [v5('5.3.1b')] });
      await ctx.expectError('set_entity_feedback', { entity_id: e.id, user_score: -0.1, confirmed: true }, 'with user_score -0.1 (outside [0, 1])', { cites: [v5('5.3.1b')] });
    },
  }),

  defineScenario({
    id: 'SCN-P-115',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('list_entities'), ENDPOINT('list_entities')],
    title: 'list_entities over 40 entities: every one, a type filter and a limit',
    asserts:
      'Adds 15 PERSON, 15 ORGANIZATION and 10 LOCATION entities. list_entities(limit=100) holds all 40; ' +
      'list_entities(limit=7) answers exactly 7; list_entities(type="PERSON", limit=100) holds the 15 persons and only ' +
      'entities of type PERSON; list_entities(type="LOCATION", limit=4) answers 4 locations.',
    async run({ bridge, check }) {
      const people = await addNamed(bridge, texts('TCK Person', 15), 'PERSON');
      const orgs = await addNamed(bridge, texts('TCK Organization', 15), 'ORGANIZATION');
      const places = await addNamed(bridge, texts('TCK Place', 10), 'LOCATION');
      const every = [...people, ...orgs, ...places];
      const byId = new Map(every.map((e) => [e.id, e.name]));
      const name = (id: string) => byId.get(id) ?? short(id);
      // silent (platinum-list-default, entity-extraction): a limit is always sent; other entities may exist.
      includesAll([V3('list_entities')], ids(await bridge.list_entities({ limit: 100 })), ids(every), 'list_entities(limit=100) after adding 40 entities', name);
      check.by(V3('list_entities')).length(await bridge.list_entities({ limit: 7 }), 7, 'list_entities(limit=7) with 40 entities');
      const persons = await bridge.list_entities({ type: 'PERSON', limit: 100 });
      includesAll([V3('list_entities')], ids(persons), ids(people), 'list_entities(type="PERSON", limit=100): the 15 persons', name);
      check.by(V3('list_entities')).every(persons, (e) => e.type === 'PERSON', 'list_entities(type="PERSON"): every entity listed is a PERSON',
        (e) => `${JSON.stringify(e.name)} (${short(e.id)}) has type ${JSON.stringify(e.type)}`);
      const four = await bridge.list_entities({ type: 'LOCATION', limit: 4 });
      check.by(V3('list_entities')).length(four, 4, 'list_entities(type="LOCATION", limit=4) with 10 locations');
      check.by(V3('list_entities')).every(four, (e) => e.type === 'LOCATION', 'list_entities(type="LOCATION", limit=4): every entity listed is a LOCATION',
        (e) => `${JSON.stringify(e.name)} has type ${JSON.stringify(e.type)}`);
    },
  }),

  defineScenario({
    id: 'SCN-P-116',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('get_entity'), V3('update_entity'), ENDPOINT('get_entity'), ENDPOINT('update_entity'), 'SPEC-3.6.1', v5('5.5.1a')],
    title: 'get_entity reads each of 12 entities; update_entity changes a name or a description, and every view shows it',
    asserts:
      'Adds 12 entities with descriptions; get_entity of each answers its id, name, type and description. ' +
      'update_entity(name only) answers the new name and keeps the description; update_entity(description only) keeps ' +
      'the name; get_entity then reads the changes and a neighbour is untouched; get_entity_by_name finds the entity by ' +
      'its new name; the Cypher console counts one node by the new name and none by the old.',
    async run({ bridge, check }) {
      const made = await addNamed(bridge, texts('Quillon Vantress', 12), 'PERSON', (n) => `description of ${n}`);
      const view = (e: Entity) => ({ id: e.id, name: e.name, type: e.type, description: e.description ?? null });
      for (const e of made) check.by(V3('get_entity'), ENDPOINT('get_entity')).equal(view(await bridge.get_entity({ entity_id: e.id })), view(e), `get_entity(${short(e.id)}) of ${JSON.stringify(e.name)} among 12`);
      const [renamed, described, neighbour] = [made[3]!, made[5]!, made[4]!];
      const r = await bridge.update_entity({ entity_id: renamed.id, name: 'Quillon Renamed' });
      check.by(V3('update_entity'), ENDPOINT('update_entity')).equal(view(r), { ...view(renamed), name: 'Quillon Renamed' }, `update_entity(${short(renamed.id)}, name="Quillon Renamed"): the answer (description kept)`);
      const d = await bridge.update_entity({ entity_id: described.id, description: 'a new description' });
      check.by(V3('update_entity'), ENDPOINT('update_entity')).equal(view(d), { ...view(described), description: 'a new description' }, `update_entity(${short(described.id)}, description only): the answer (name kept)`);
      check.by(V3('update_entity'), V3('get_entity')).equal(view(await bridge.get_entity({ entity_id: renamed.id })), { ...view(renamed), name: 'Quillon Renamed' }, `get_entity(${short(renamed.id)}) after update_entity(name): the stored entity`);
      check.by(V3('update_entity'), V3('get_entity')).equal(view(await bridge.get_entity({ entity_id: described.id })), { ...view(described), description: 'a new description' }, `get_entity(${short(described.id)}) after update_entity(description): the stored entity`);
      check.by(V3('update_entity'), V3('get_entity')).equal(view(await bridge.get_entity({ entity_id: neighbour.id })), view(neighbour), `get_entity of an entity no update named (${JSON.stringify(neighbour.name)})`);
      const found = await bridge.get_entity_by_name({ name: 'Quillon Renamed' });
      check.by('SPEC-3.6.1', V3('update_entity')).equal(found?.id ?? null, renamed.id, 'get_entity_by_name("Quillon Renamed") after update_entity renamed an entity to it');
      const count = async (name: string) => (await bridge.cypher_query({ cypher: 'MATCH (n) WHERE n.name = $name RETURN count(n) AS c', params: { name } })).rows[0]?.[0];
      check.by(v5('5.5.1a'), V3('update_entity')).equal(await count('Quillon Renamed'), 1, 'cypher_query("MATCH (n) WHERE n.name = $name RETURN count(n) AS c", name = the new name) after update_entity');
      check.by(v5('5.5.1a'), V3('update_entity')).equal(await count(renamed.name), 0, `cypher_query(… name = the old name ${JSON.stringify(renamed.name)}) after update_entity renamed it`);
    },
  }),

  defineScenario({
    id: 'SCN-P-117',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('delete_entity'), ENDPOINT('delete_entity'), V3('list_entities'), V3('get_entity_graph'), 'SPEC-3.6.1', 'SPEC-3.7.1', v5('5.5.1a')],
    title: 'delete_entity removes the entity and its relationships, and nothing else',
    asserts:
      'Twelve entities and ten relationships, three of them touching "Corvin Ashdale". After delete_entity of it: ' +
      'get_entity does not answer it (an error or null), list_entities(limit=100) lists the other 11 and not it, ' +
      'get_entity_graph has no node for it, no edge touching it and all 7 other edges, get_related_entities of a ' +
      'former neighbour, get_entity_by_name and search_entities do not find it, and the Cypher console counts no node of its name.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const names = ['Corvin Ashdale', 'Brena Holt', 'Cato Lindqvist', 'Dara Moss', 'Evan Pike', 'Fara Quill', 'Gus Reyes', 'Hana Sato', 'Ivo Tamm', 'Juno Vale', 'Kit Wren', 'Lena Yoon'];
      const e = await addNamed(bridge, names, 'PERSON');
      const [doomed, ...rest] = e as [Entity, ...Entity[]];
      const at = (i: number) => e[i]!.id;
      const relate = async (s: number, t: number, type: string): Promise<Edge> => {
        await bridge.add_relationship({ source_id: at(s), target_id: at(t), relationship_type: type });
        return { source: at(s), target: at(t), type };
      };
      for (const [s, t, type] of [[0, 1, 'WORKS_WITH'], [0, 2, 'KNOWS'], [3, 0, 'MANAGES']] as const) await relate(s, t, type); // the three touching it
      const others = [await relate(1, 2, 'KNOWS'), await relate(4, 5, 'KNOWS'), await relate(5, 6, 'KNOWS'), await relate(6, 7, 'KNOWS'), await relate(8, 9, 'KNOWS'), await relate(10, 11, 'KNOWS'), await relate(11, 1, 'KNOWS')];
      await bridge.delete_entity({ entity_id: doomed.id });
      await expectGone(ctx, [V3('delete_entity'), ENDPOINT('delete_entity')], 'get_entity', { entity_id: doomed.id }, doomed.id, 'after delete_entity');
      const listed = ids(await bridge.list_entities({ limit: 100 }));
      check.by(V3('delete_entity'), V3('list_entities')).ok(!listed.includes(doomed.id), 'list_entities(limit=100) after delete_entity("Corvin Ashdale"): it is still listed', { expected: `no ${doomed.id}`, actual: listed });
      includesAll([V3('delete_entity'), V3('list_entities')], listed, ids(rest), 'list_entities(limit=100) after deleting one of 12 entities: the other 11');
      const g = await bridge.get_entity_graph();
      check.by(V3('delete_entity'), V3('get_entity_graph')).none(g.nodes, (n) => n.id === doomed.id, 'get_entity_graph after delete_entity("Corvin Ashdale"): its node', () => 'the deleted entity is still a node');
      check.by(V3('delete_entity')).none(g.edges, (x) => x.source === doomed.id || x.target === doomed.id, 'get_entity_graph after delete_entity("Corvin Ashdale"): edges touching it (its relationships are deleted with it)',
        (x) => `edge ${x.type} from ${short(x.source)} to ${short(x.target)} is still there`);
      edgesIncluded([V3('delete_entity'), V3('get_entity_graph')], g.edges, others, 'get_entity_graph after delete_entity: the 7 relationships that did not touch the deleted entity');
      const related = await bridge.get_related_entities({ entity_id: e[1]!.id, depth: 1 });
      check.by(V3('delete_entity'), 'SPEC-3.7.1').none(related, (x) => x.id === doomed.id, 'get_related_entities("Brena Holt") after deleting its neighbour "Corvin Ashdale"', () => 'the deleted entity is still related');
      const byName = await bridge.get_entity_by_name({ name: 'Corvin Ashdale' });
      check.by(V3('delete_entity'), 'SPEC-3.6.1').ok(byName?.id !== doomed.id, 'get_entity_by_name("Corvin Ashdale") after delete_entity: the deleted entity is still found', { actual: byName });
      const searched = await bridge.search_entities({ query: 'Corvin Ashdale', limit: 20 });
      check.by(V3('delete_entity')).none(searched, (x) => x.id === doomed.id, 'search_entities("Corvin Ashdale") after delete_entity', () => 'the deleted entity is still found');
      const count = await bridge.cypher_query({ cypher: 'MATCH (n) WHERE n.name = $name RETURN count(n) AS c', params: { name: 'Corvin Ashdale' } });
      check.by(v5('5.5.1a'), V3('delete_entity')).equal(count.rows, [[0]], 'cypher_query("MATCH (n) WHERE n.name = $name RETURN count(n) AS c", name "Corvin Ashdale") after delete_entity: rows');
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
        check.by(v5('5.3.4')).equal(node?.name ?? null, e.name, `get_entity_graph: the node of ${JSON.stringify(e.name)} (${short(e.id)})`);
      }
      checkEdge(g.edges, { source: alice, target: acme, type: 'WORKS_AT' }, 'get_entity_graph: an edge Alice Graph -WORKS_AT-> Acme Graph (source, target, type)');
    },
  }),

  defineScenario({
    id: 'SCN-P-118',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.4'), v5('5.3.3'), V3('get_entity_graph')],
    title: 'get_entity_graph over 44 entities and 30 relationships shows every node and edge, and the SAME_AS links of two merges',
    asserts:
      'Adds 44 entities and 30 relationships among 40 of them, then merges the other four in two pairs with ' +
      'merge_entities. get_entity_graph has a node, with its name, for each of the 42 entities left, the 30 edges ' +
      '(source, target, type), and a SAME_AS edge from each merged source to its target.',
    async run({ bridge, check }) {
      const e = await addNamed(bridge, texts('Graph Node', 40), 'OBJECT');
      const edges: Edge[] = [];
      for (let i = 0; i < 30; i++) {
        const [s, t, type] = [e[i]!, e[(i + 1 + (i % 5)) % 40]!, i % 3 === 0 ? 'PART_OF' : 'LINKS_TO'];
        await bridge.add_relationship({ source_id: s.id, target_id: t.id, relationship_type: type });
        edges.push({ source: s.id, target: t.id, type });
      }
      const [s1, t1, s2, t2] = await addNamed(bridge, ['Merge Source One', 'Merge Target One', 'Merge Source Two', 'Merge Target Two'], 'PERSON') as [Entity, Entity, Entity, Entity];
      await bridge.merge_entities({ source_id: s1.id, target_id: t1.id });
      await bridge.merge_entities({ source_id: s2.id, target_id: t2.id });
      const g = await bridge.get_entity_graph();
      const nodes = new Map(g.nodes.map((n) => [n.id, n.name]));
      const live = [...e, t1, t2];
      const wrong = live.filter((x) => nodes.get(x.id) !== x.name);
      check.by(v5('5.3.4'), V3('get_entity_graph')).ok(wrong.length === 0,
        `get_entity_graph with 42 live entities: ${wrong.length} have no node with their name (${wrong.slice(0, 5).map((x) => JSON.stringify(x.name)).join(', ')}${wrong.length > 5 ? ', …' : ''}) among ${g.nodes.length} nodes`,
        { expected: live.map((x) => x.name), actual: g.nodes.map((n) => n.name) });
      edgesIncluded([v5('5.3.4'), V3('get_entity_graph')], g.edges, edges, 'get_entity_graph after 30 add_relationship calls: the edges (source, target, type)');
      for (const [source, target] of [[s1, t1], [s2, t2]] as const) {
        check.by(v5('5.3.3')).ok(g.edges.some((x) => x.source === source.id && x.target === target.id && x.type === 'SAME_AS'),
          `get_entity_graph after merge_entities(${JSON.stringify(source.name)} -> ${JSON.stringify(target.name)}): a SAME_AS edge from the source to the target`,
          { expected: { source: source.id, target: target.id, type: 'SAME_AS' }, actual: g.edges.filter((x) => x.type === 'SAME_AS') });
      }
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
      check.by(v5('5.3.2')).equal(h.entity_id, place.id, `get_entity_history(${short(place.id)}): entity_id`);
      const convs = [...new Set(h.mentions.map((m) => m.conversation_id))].sort();
      check.by(v5('5.3.2')).equal(convs, [a.id, b.id].sort(), 'get_entity_history("Zanzibar"): the conversations of its mentions (it is named in both)');
      check.by(v5('5.3.2')).ok(!h.mentions.some((m) => m.content === 'The weather was fine.'), 'get_entity_history("Zanzibar"): a message that does not name it is listed as a mention',
        { expected: 'no "The weather was fine."', actual: h.mentions });
    },
  }),

  defineScenario({
    id: 'SCN-P-127',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.2'), 'BRIDGE-GENERAL-1', 'SPEC-1.1.1'],
    title: "get_entity_history names the conversation of each mention by its UUID, a bridge session's included",
    asserts:
      '"Kestrel Point" is named in a message added with the core add_message to the plain session "tck-hist-a", and in a message of a ' +
      'conversation made with create_conversation. get_entity_history answers both mentions, each conversation_id a UUID (the data model: ' +
      'identifiers are UUID strings; protocol 0.2.0 and the BaseAdapter type it so), the session\'s under the id of its Conversation ' +
      '(get_conversation\'s id), the other under that conversation\'s id or session_id.',
    async run({ bridge, check }) {
      const place = await bridge.add_entity({ name: 'Kestrel Point', entity_type: 'LOCATION' });
      const said = await bridge.add_message({ session_id: 'tck-hist-a', role: 'user', content: 'We met at Kestrel Point.' });
      const conv = await newConversation(bridge, 'tck-hist-b');
      const [bulk] = await addInBulk(bridge, conv, ['Kestrel Point at dawn.']);
      const session = await bridge.get_conversation({ session_id: 'tck-hist-a' });
      // The data model of the answer (bridge.get_entity_history) holds every conversation_id to a UUID.
      const h = await bridge.get_entity_history({ entity_id: place.id });
      const find = (id: string, content: string) => h.mentions.find((m) => (m.message_id != null ? m.message_id === id : m.content === content));
      const inSession = check.by(v5('5.3.2')).present(find(said.id, said.content), 'get_entity_history("Kestrel Point"): the mention added with add_message to session "tck-hist-a"');
      check.by(v5('5.3.2'), 'SPEC-1.1.1').that(inSession.conversation_id.toLowerCase() === session.id.toLowerCase(), "a bridge session's mention is listed under the id of the session's Conversation", () => ({
        message: `get_entity_history("Kestrel Point"): the mention of ${JSON.stringify(said.content)} in session "tck-hist-a" is listed under conversation ${JSON.stringify(inSession.conversation_id)}, not the session's Conversation (get_conversation answers id ${session.id})`,
        expected: session.id,
        actual: inSession.conversation_id,
      }));
      const inConv = check.by(v5('5.3.2')).present(find(bulk!.id, bulk!.content), `get_entity_history("Kestrel Point"): the mention in conversation ${short(conv.id)}`);
      check.by(v5('5.3.2')).ok([conv.id, sessionOf(conv)].some((x) => x.toLowerCase() === inConv.conversation_id.toLowerCase()),
        `get_entity_history("Kestrel Point"): the mention of ${JSON.stringify(bulk!.content)} is listed under conversation ${JSON.stringify(inConv.conversation_id)}, not ${conv.id}`,
        { expected: conv.id, actual: inConv.conversation_id });
    },
  }),

  defineScenario({
    id: 'SCN-P-119',
    tier: 'platinum',
    group: 'entities',
    clauses: [v5('5.3.2')],
    title: 'get_entity_history: 25 mentions across three conversations, added with bulk_add_messages and add_message',
    asserts:
      'Kilimanjaro is named in 10 bulk-added messages of conversation A (beside 5 that do not name it), 8 messages ' +
      'added one by one with the core add_message to conversation B (beside 2), and 7 bulk-added messages of C. ' +
      'get_entity_history lists exactly those 25 messages as mentions (by message_id, or content), each under its own conversation ' +
      '(its id, or its session_id for B), and none of the 7 others. An entity whose name holds punctuation, "Node.js", named in 4 ' +
      'bulk-added messages of conversation D (beside 2 that do not name it): its history holds each of the 4.',
    async run({ bridge, check }) {
      const place = await bridge.add_entity({ name: 'Kilimanjaro', entity_type: 'LOCATION' });
      const [a, b, c] = [await newConversation(bridge, 'tck-kili-a'), await newConversation(bridge, 'tck-kili-b'), await newConversation(bridge, 'tck-kili-c')];
      const owner = new Map<string, PlatinumConversation>();
      const byId = new Map<string, string>();
      const mention = async (conv: PlatinumConversation, list: readonly string[], add: typeof addInBulk) => {
        for (const m of await add(bridge, conv, list)) {
          owner.set(m.content, conv);
          byId.set(m.id, m.content);
        }
      };
      const named = (stem: string, n: number, from = 0) => texts(`Kilimanjaro climb note ${stem}`, n, from);
      await mention(a, [...named('A', 5), ...texts('unrelated line A', 5), ...named('A', 5, 5)], addInBulk);
      await mention(b, [...named('B', 4), ...texts('unrelated line B', 2), ...named('B', 4, 4)], addOneByOne);
      await mention(c, named('C', 7), addInBulk);
      const h = await bridge.get_entity_history({ entity_id: place.id });
      const expected = [...owner.keys()].filter((t) => t.startsWith('Kilimanjaro'));
      // silent (history-mentions-form): mentions in any order; a mention is its message (by message_id when given, else by content).
      const messageOf = (m: { message_id?: string | null; content: string }) => (m.message_id != null && byId.has(m.message_id) ? byId.get(m.message_id)! : m.content);
      sameSet([v5('5.3.2')], h.mentions.map(messageOf), expected, 'get_entity_history("Kilimanjaro"): the messages of its mentions', (t) => JSON.stringify(t));
      check.by(v5('5.3.2')).every(h.mentions, (m) => { const conv = owner.get(messageOf(m)); return conv === undefined || m.conversation_id === conv.id || m.conversation_id === conv.session_id; },
        'get_entity_history("Kilimanjaro"): each mention names the conversation of its message',
        (m) => `${JSON.stringify(messageOf(m))} is listed under conversation ${JSON.stringify(m.conversation_id)}, not ${JSON.stringify(owner.get(messageOf(m))?.id)}`);
      // A name is text, punctuation included: a server that reads it as a pattern, or strips it, misses these (found by mutation testing).
      const tool = await bridge.add_entity({ name: 'Node.js', entity_type: 'OBJECT' });
      const d = await newConversation(bridge, 'tck-kili-d');
      const toolLines = texts('Deployed the service with Node.js, build', 4);
      const sentD = await addInBulk(bridge, d, [...toolLines.slice(0, 2), ...texts('unrelated line D', 2), ...toolLines.slice(2)]);
      const contentOf = new Map(sentD.map((m) => [m.id, m.content]));
      const th = await bridge.get_entity_history({ entity_id: tool.id });
      includesAll([v5('5.3.2')], th.mentions.map((m) => (m.message_id != null && contentOf.has(m.message_id) ? contentOf.get(m.message_id)! : m.content)), toolLines,
        'get_entity_history("Node.js"), a name with punctuation: the messages that name it', (t) => JSON.stringify(t));
    },
  }),

  defineScenario({
    id: 'SCN-P-126',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('add_entity'), 'BRIDGE-METHOD-add_entity', V3('get_entity'), V3('list_entities')],
    title: 'add_entity of names the messages of a conversation already named',
    asserts:
      'bulk_add_messages adds 24 messages naming four people and places ("Marguerite Okafor", "Tobias Lindqvist", ' +
      '"Reykjavik", "Valparaiso"); a service may extract entities from them (silent). Then add_entity of each of those ' +
      'four names, with a type and a description, and of a name no message holds: each call succeeds and answers an entity ' +
      'with the name, type and description sent; get_entity reads each back the same, and list_entities(limit=100) holds them.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-named-first');
      const lines = Array.from({ length: 24 }, (_, i) => [
        `Marguerite Okafor flew to Reykjavik on trip ${i}.`,
        `Tobias Lindqvist wrote from Valparaiso about shipment ${i}.`,
        `Note ${i}: Marguerite Okafor and Tobias Lindqvist will meet.`,
      ][i % 3]!);
      await addInBulk(bridge, conv, lines);
      const wanted: [string, EntityType, string][] = [
        ['Marguerite Okafor', 'PERSON', 'a surveyor'], ['Tobias Lindqvist', 'PERSON', 'a shipping agent'],
        ['Reykjavik', 'LOCATION', 'a port'], ['Valparaiso', 'LOCATION', 'another port'], ['Quillon Harrow', 'PERSON', 'named in no message'],
      ];
      const added: Entity[] = [];
      for (const [name, entity_type, description] of wanted) {
        const e = await bridge.add_entity({ name, entity_type, description });
        check.by(V3('add_entity'), 'BRIDGE-METHOD-add_entity').equal({ name: e.name, type: e.type, description: e.description }, { name, type: entity_type, description },
          `add_entity(${JSON.stringify(name)}, ${entity_type}) after messages that name it: the entity answered`);
        const read = await bridge.get_entity({ entity_id: e.id });
        check.by(V3('get_entity'), V3('add_entity')).equal({ name: read.name, type: read.type, description: read.description }, { name, type: entity_type, description },
          `get_entity(${short(e.id)}) of the entity add_entity(${JSON.stringify(name)}) answered`);
        added.push(e);
      }
      // silent (entity-extraction, platinum-list-default): other entities may be listed; a limit is sent.
      includesAll([V3('list_entities'), V3('add_entity')], ids(await bridge.list_entities({ limit: 100 })), ids(added), 'list_entities(limit=100) after adding 5 entities, 4 of them named by messages',
        (id) => added.find((e) => e.id === id)?.name ?? short(id));
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
      check.by(v5('5.3.3')).ok(r.status.trim() !== '', 'merge_entities: status must be a non-empty string', { expected: 'a status', actual: r.status });
      const g = await bridge.get_entity_graph();
      checkEdge(g.edges, { source, target, type: 'SAME_AS' }, 'get_entity_graph after merge_entities("A. Merge" -> "Alice Merge"): a SAME_AS edge from source to target');
    },
  }),
];

