// The coverage matrix (issue 34, docs/coverage.md): Platinum reads made before a write and made again
// after it with the very same arguments (a cache keyed by the request shows only this way): the
// entity reads around update_entity, add_entity, merge_entities and delete_entity, and the
// conversation reads around bulk_add_messages and delete_conversation.
import { check, show } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { v5 } from './clauses.js';
import { expectGone, ids, newConversation, sessionOf, short } from './helpers.js';

const V3 = (method: string) => `SPEC-V3-${method}`;
const lower = (id: string) => id.toLowerCase();
const has = (list: readonly { id: string }[], id: string) => list.some((x) => lower(x.id) === lower(id));

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-160',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('update_entity'), V3('get_entity'), V3('list_entities'), V3('delete_entity'), v5('5.3.3'), 'SPEC-3.4.1', 'SPEC-3.6.1'],
    title: 'entity reads made before update_entity, add_entity, merge_entities and delete_entity show each write when made again',
    asserts:
      '"Corvina Reed" -VISITS-> "Reed Lighthouse". Reads get_entity(<Corvina>), search_entities("Marisol", limit=10), get_entity_by_name("Marisol Reed"), ' +
      'list_entities(type="PERSON", limit=100), get_related_entities(<Lighthouse>, depth=1) and get_entity_graph(), then makes each again after the write ' +
      'that changes it: update_entity(name "Marisol Reed") — get_entity answers the new name, the search and the lookup by name find it; add_entity of ' +
      'a PERSON — listed; merge_entities of two others — a SAME_AS edge in the graph and get_entity still answers the target (SPEC-V5-5.3.3); ' +
      'delete_entity(<Marisol>) — get_entity answers an error or null, get_entity of the lighthouse still answers it, and the list, the search, the ' +
      'lookup, the related entities of the lighthouse and the graph no longer hold it.',
    async run(ctx) {
      const { bridge } = ctx;
      const reed = await bridge.add_entity({ name: 'Corvina Reed', entity_type: 'PERSON' });
      const lighthouse = await bridge.add_entity({ name: 'Reed Lighthouse', entity_type: 'LOCATION' });
      await bridge.add_relationship({ source_id: reed.id, target_id: lighthouse.id, relationship_type: 'VISITS' });
      const get = () => bridge.get_entity({ entity_id: reed.id });
      const get2 = (id: string) => bridge.get_entity({ entity_id: id });
      const search = () => bridge.search_entities({ query: 'Marisol', limit: 10 });
      const byName = () => bridge.get_entity_by_name({ name: 'Marisol Reed' });
      const persons = () => bridge.list_entities({ type: 'PERSON', limit: 100 });
      const related = () => bridge.get_related_entities({ entity_id: lighthouse.id, depth: 1 });
      const graph = () => bridge.get_entity_graph({});
      await get2(lighthouse.id);
      const first = { get: await get(), search: await search(), byName: await byName(), persons: await persons(), related: await related(), graph: await graph() };

      await bridge.update_entity({ entity_id: reed.id, name: 'Marisol Reed' });
      const renamed = await get();
      check.by(V3('update_entity'), V3('get_entity')).that(renamed.name === 'Marisol Reed', 'get_entity made again after update_entity(name) answers the new name', () => ({
        message: `get_entity(${short(reed.id)}) after update_entity(name="Marisol Reed"), the same read having answered ${JSON.stringify(first.get.name)} before (SPEC-V3-update_entity: it changes the entity's name): got name ${JSON.stringify(renamed.name)}`,
        expected: 'Marisol Reed',
        actual: renamed.name,
      }));
      const found = await search();
      check.by('SPEC-3.4.1', V3('update_entity')).that(has(found, reed.id), 'search_entities made again after update_entity(name) finds the new name', () => ({
        message: `search_entities(query="Marisol", limit=10) after update_entity renamed "Corvina Reed" to "Marisol Reed", the same search having answered ${first.search.length} entit(ies) before (SPEC-3.4.1: a search finds the entities that match its query): ${short(reed.id)} is missing; got ${show(found.map((e) => e.name))}`,
        expected: reed.id,
        actual: ids(found),
      }));
      const named = await byName();
      check.by('SPEC-3.6.1', V3('update_entity')).that(named !== null && lower(named.id) === lower(reed.id), 'get_entity_by_name made again after update_entity(name) finds the entity by its new name', () => ({
        message: `get_entity_by_name(name="Marisol Reed") after update_entity renamed "Corvina Reed" to it, the same lookup having answered ${first.byName === null ? 'null' : short(first.byName.id)} before (SPEC-3.6.1: an entity that exists is found by its name): got ${named === null ? 'null' : short(named.id)}`,
        expected: reed.id,
        actual: named?.id ?? null,
      }));

      const tide = await bridge.add_entity({ name: 'Corvina Tide', entity_type: 'PERSON' });
      const listed = await persons();
      check.by(V3('list_entities')).that(has(listed, tide.id), 'list_entities made again after add_entity lists the new entity', () => ({
        message: `list_entities(type="PERSON", limit=100) after add_entity("Corvina Tide", PERSON), the same list having answered ${first.persons.length} entit(ies) before (SPEC-V3-list_entities: it lists entities, of one type when asked): ${short(tide.id)} is missing`,
        expected: tide.id,
        actual: ids(listed),
      }));

      const twin = await bridge.add_entity({ name: 'Corvina Tide II', entity_type: 'PERSON' });
      await get2(tide.id);
      await graph();
      await bridge.merge_entities({ source_id: twin.id, target_id: tide.id });
      const merged = await graph();
      check.by(v5('5.3.3')).that(merged.edges.some((e) => lower(e.source) === lower(twin.id) && lower(e.target) === lower(tide.id) && e.type === 'SAME_AS'),
        'get_entity_graph made again after merge_entities holds the SAME_AS edge', () => ({
          message: `get_entity_graph() after merge_entities(source=<Corvina Tide II>, target=<Corvina Tide>), the same graph having been read before (SPEC-V5-5.3.3: merge_entities leaves a SAME_AS link from the source to the target): no SAME_AS edge from ${short(twin.id)} to ${short(tide.id)}`,
          expected: { source: twin.id, target: tide.id, type: 'SAME_AS' },
          actual: merged.edges.filter((e) => e.type === 'SAME_AS'),
        }));

      const target = await get2(tide.id);
      check.by(v5('5.3.3')).that(target !== undefined && lower(target.id) === lower(tide.id), 'get_entity of the target made again after merge_entities answers it', () => ({
        message: `get_entity(<Corvina Tide>) after merge_entities(source=<Corvina Tide II>, target=<Corvina Tide>), the same entity having been read before (SPEC-V5-5.3.3: the merge links the source to the target, which stays): got ${JSON.stringify(target ?? null)}`,
        expected: tide.id,
        actual: target ?? null,
      }));

      await bridge.delete_entity({ entity_id: reed.id });
      await expectGone(ctx, [V3('delete_entity'), V3('get_entity')], 'get_entity', { entity_id: reed.id }, reed.id, 'after delete_entity, the same read having answered it twice before');
      const keptLighthouse = await get2(lighthouse.id);
      check.by(V3('delete_entity')).that(lower(keptLighthouse.id) === lower(lighthouse.id) && keptLighthouse.name === 'Reed Lighthouse', 'get_entity of another entity made again after delete_entity still answers it', () => ({
        message: `get_entity(<Reed Lighthouse>) after delete_entity(<Marisol Reed>), its neighbour (SPEC-V3-delete_entity: it deletes an entity and its relationships, not the other end): got ${JSON.stringify(keptLighthouse)}`,
        expected: { id: lighthouse.id, name: 'Reed Lighthouse' },
        actual: keptLighthouse,
      }));
      const after = { persons: await persons(), search: await search(), byName: await byName(), related: await related(), graph: await graph() };
      const still = [
        has(after.persons, reed.id) ? 'list_entities(type="PERSON", limit=100) lists it' : '',
        has(after.search, reed.id) ? 'search_entities(query="Marisol", limit=10) finds it' : '',
        after.byName !== null && lower(after.byName.id) === lower(reed.id) ? 'get_entity_by_name(name="Marisol Reed") answers it' : '',
        has(after.related, reed.id) ? `get_related_entities(<Reed Lighthouse>, depth=1) lists it (${first.related.length} entit(ies) before)` : '',
        has(after.graph.nodes, reed.id) ? 'get_entity_graph() has its node' : '',
        after.graph.edges.some((e) => lower(e.source) === lower(reed.id) || lower(e.target) === lower(reed.id)) ? 'get_entity_graph() has an edge touching it' : '',
      ].filter((x) => x !== '');
      check.by(V3('delete_entity')).that(still.length === 0, 'every entity read made again after delete_entity no longer holds the entity or its relationships', () => ({
        message: `after delete_entity(<Marisol Reed>), each read having been made before with the same arguments (SPEC-V3-delete_entity: it deletes an entity and its relationships): ${still.join('; ')}`,
        expected: 'no read holds it',
        actual: still,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-P-161',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.2.1'), v5('5.1.4'), 'SPEC-2.2.1', v5('5.3.2'), V3('delete_conversation'), V3('get_conversation_metadata')],
    title: 'conversation reads made before bulk_add_messages and delete_conversation show each write when made again',
    asserts:
      'Conversation A gets two messages in bulk; get_context(A), get_entity_history(<Ysolde Harbour>) and get_conversation_metadata(A) are read. Two more ' +
      'messages in bulk, one naming Ysolde Harbour: get_context(A) made again holds the latest (SPEC-V5-5.2.1), so does get_conversation of its session ' +
      '(limit 50; SPEC-V5-5.1.4), and get_entity_history holds the mention ' +
      '(SPEC-V5-5.3.2). delete_conversation(A): get_conversation_metadata(A) made again answers an error or null, that of another conversation B still ' +
      'answers B, and get_entity_history lists no ' +
      'message of A (SPEC-V3-delete_conversation: the conversation and all its messages are deleted).',
    async run(ctx) {
      const { bridge } = ctx;
      const place = await bridge.add_entity({ name: 'Ysolde Harbour', entity_type: 'LOCATION' });
      const conv = await newConversation(bridge, 'tck-rwr-context');
      await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [{ role: 'user', content: 'first line' }, { role: 'assistant', content: 'second line' }] });
      const context = () => bridge.get_context({ conversation_id: conv.id });
      const history = () => bridge.get_entity_history({ entity_id: place.id });
      const stored = () => bridge.get_conversation({ session_id: sessionOf(conv), limit: 50 });
      const before = { context: await context(), history: await history(), stored: await stored() };
      await bridge.get_conversation_metadata({ conversation_id: conv.id });
      const other = await newConversation(bridge, 'tck-rwr-context-other');
      await bridge.get_conversation_metadata({ conversation_id: other.id });
      const more = await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [{ role: 'user', content: 'We sailed into Ysolde Harbour at dawn.' }, { role: 'assistant', content: 'the latest line' }] });
      const latest = more.at(-1)!;
      const recent = (await context()).recent_messages;
      check.by(v5('5.2.1')).that(has(recent, latest.id), 'get_context made again after bulk_add_messages holds the latest message', () => ({
        message: `get_context(${short(conv.id)}) after bulk_add_messages of two more messages, the same read having answered ${before.context.recent_messages.length} recent message(s) before (SPEC-V5-5.2.1): recent_messages must hold the latest one, "the latest line"`,
        expected: latest.id,
        actual: recent.map((m) => m.content),
      }));
      const inSession = (await stored()).messages;
      check.by(v5('5.1.4'), 'SPEC-2.2.1').that(has(inSession, latest.id), 'get_conversation of the conversation\'s session made again after bulk_add_messages holds the new messages', () => ({
        message: `get_conversation(session_id=<the session of ${short(conv.id)}>, limit=50) after bulk_add_messages of two more messages, the same read having answered ${before.stored.messages.length} message(s) before (SPEC-V5-5.1.4: bulk_add_messages adds them; SPEC-2.2.1): "the latest line" is missing`,
        expected: latest.id,
        actual: inSession.map((m) => m.content),
      }));
      const mentions = (await history()).mentions;
      check.by(v5('5.3.2')).that(mentions.some((m) => m.conversation_id === conv.id), 'get_entity_history made again after a message naming the entity holds the mention', () => ({
        message: `get_entity_history(<Ysolde Harbour>) after bulk_add_messages of "We sailed into Ysolde Harbour at dawn." to ${short(conv.id)}, the same read having answered ${before.history.mentions.length} mention(s) before (SPEC-V5-5.3.2: every mention of the entity): no mention in that conversation`,
        expected: conv.id,
        actual: mentions,
      }));
      await bridge.delete_conversation({ conversation_id: conv.id });
      await expectGone(ctx, [V3('delete_conversation'), V3('get_conversation_metadata')], 'get_conversation_metadata', { conversation_id: conv.id }, conv.id,
        'after delete_conversation, the same read having answered it before');
      const kept = await bridge.get_conversation_metadata({ conversation_id: other.id });
      check.by(V3('delete_conversation'), V3('get_conversation_metadata')).that(lower(kept.id) === lower(other.id), 'get_conversation_metadata of another conversation made again after delete_conversation still answers it', () => ({
        message: `get_conversation_metadata(${short(other.id)}) after delete_conversation(${short(conv.id)}) of another conversation, the same read having answered it before (SPEC-V3-delete_conversation: it deletes that conversation): got ${JSON.stringify(kept)}`,
        expected: other.id,
        actual: kept,
      }));
      const left = (await history()).mentions.filter((m) => m.conversation_id === conv.id || m.content === 'We sailed into Ysolde Harbour at dawn.');
      check.by(V3('delete_conversation'), v5('5.3.2')).that(left.length === 0, 'get_entity_history made again after delete_conversation lists no message of the deleted conversation', () => ({
        message: `get_entity_history(<Ysolde Harbour>) after delete_conversation(${short(conv.id)}), the same read having listed its mention before (SPEC-V3-delete_conversation: a conversation is deleted with all its messages): ${left.length} mention(s) of the deleted conversation are still listed`,
        expected: [],
        actual: left,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-P-162',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('get_entity_graph'), v5('5.3.3'), v5('5.5.1a'), V3('delete_entity'), 'SPEC-5.2.3'],
    title: 'get_entity_graph over a diamond, parallel relationships and a self-loop, and a Cypher count made before add_entity and delete_entity',
    asserts:
      'cypher_query counting the nodes named "Graph A" answers 0 on the empty store and 1 after add_entity (SPEC-V5-5.5.1a; entities are nodes with ' +
      'their name, silent point cypher-graph-schema). A -KNOWS-> B, A -KNOWS-> C, B -KNOWS-> D, C -KNOWS-> D (a diamond), A -MENTORS-> B (a second ' +
      'relationship of A and B), S -KNOWS-> S (a self-loop): get_entity_graph has a node for each entity and each of the six edges with its type, both ' +
      'edges of A and B included (SPEC-V3-get_entity_graph: every entity and every edge; SPEC-5.2.3). A relationship query of the console runs over ' +
      'that graph. Merging M1 into M2, then M2 into M3, leaves both SAME_AS links (SPEC-V5-5.3.3). After delete_entity(<A>) the same count answers 0 ' +
      '(SPEC-V3-delete_entity).',
    async run({ bridge }) {
      const countA = async () => {
        const r = await bridge.cypher_query({ cypher: 'MATCH (n) WHERE n.name = $name RETURN count(n) AS c', params: { name: 'Graph A' } });
        return r.rows[0]?.[0];
      };
      const call = 'cypher_query("MATCH (n) WHERE n.name = $name RETURN count(n) AS c", name "Graph A")';
      const empty = await countA();
      const names = { a: 'Graph A', b: 'Graph B', c: 'Graph C', d: 'Graph D', s: 'Graph S' };
      const e: Record<string, { id: string; name: string }> = {};
      for (const [k, name] of Object.entries(names)) e[k] = await bridge.add_entity({ name, entity_type: 'OBJECT' });
      const one = await countA();
      check.by(v5('5.5.1a')).that(one === 1, `${call} made again after add_entity("Graph A") counts it`, () => ({
        message: `${call} after add_entity("Graph A"), the same query having answered ${JSON.stringify(empty)} before (SPEC-V5-5.5.1a: read-only queries run over the entities): expected 1, got ${JSON.stringify(one)}`,
        expected: 1,
        actual: one,
      }));
      const edges: [string, string, string][] = [['a', 'b', 'KNOWS'], ['a', 'c', 'KNOWS'], ['b', 'd', 'KNOWS'], ['c', 'd', 'KNOWS'], ['a', 'b', 'MENTORS'], ['s', 's', 'KNOWS']];
      for (const [x, y, type] of edges) await bridge.add_relationship({ source_id: e[x]!.id, target_id: e[y]!.id, relationship_type: type });
      const g = await bridge.get_entity_graph({});
      const label = (id: string) => Object.entries(e).find(([, v]) => lower(v.id) === lower(id))?.[0].toUpperCase() ?? short(id);
      const missingNodes = Object.keys(e).filter((k) => !g.nodes.some((n) => lower(n.id) === lower(e[k]!.id))).map((k) => k.toUpperCase());
      const hasEdge = (x: string, y: string, type: string) => g.edges.some((d) => lower(d.source) === lower(e[x]!.id) && lower(d.target) === lower(e[y]!.id) && d.type === type);
      const missing = edges.filter(([x, y, type]) => !hasEdge(x, y, type));
      const missingEdges = missing.map(([x, y, type]) => `${x.toUpperCase()} -${type}-> ${y.toUpperCase()}`);
      // Said as the core checks of one relationship say it (suites/support/entities.ts), so a report groups it with them.
      const swapped = missing.length > 0 && missing.every(([x, y, type]) => hasEdge(y, x, type));
      check.by(V3('get_entity_graph'), 'SPEC-5.2.3').that(missingNodes.length === 0 && missingEdges.length === 0, 'get_entity_graph over a diamond, parallel relationships and a self-loop holds every node and every edge', () => ({
        message: `get_entity_graph() with the diamond A → B → D, A → C → D, A -KNOWS-> B and A -MENTORS-> B, and S -KNOWS-> S (SPEC-V3-get_entity_graph: every entity and every edge; SPEC-5.2.3: two entities linked by several types): ${[
          missingNodes.length > 0 ? `nodes missing: ${missingNodes.join(', ')}` : '',
          missingEdges.length > 0 ? `${swapped ? 'source and target swapped: ' : ''}edges missing: ${missingEdges.join(', ')}` : '',
        ].filter((x) => x !== '').join('; ')}; got edges ${show(g.edges.map((d) => `${label(d.source)} -${d.type}-> ${label(d.target)}`))}`,
        expected: edges.map(([x, y, type]) => `${x.toUpperCase()} -${type}-> ${y.toUpperCase()}`),
        actual: g.edges.map((d) => `${label(d.source)} -${d.type}-> ${label(d.target)}`),
      }));
      // silent (cypher-graph-schema): how relationships appear in the console is not shown; the query must run (a read-only query) and answer a count.
      const rel = await bridge.cypher_query({ cypher: 'MATCH (a)-[r]->(b) WHERE a.name = $name RETURN count(r) AS c', params: { name: 'Graph A' } });
      check.by(v5('5.5.1a')).that(rel.rows.length === 1 && Number.isInteger(rel.rows[0]?.[0]), 'a relationship query of the console runs over a diamond and answers one count', () => ({
        message: `cypher_query("MATCH (a)-[r]->(b) WHERE a.name = $name RETURN count(r) AS c", name "Graph A") over a diamond and parallel relationships (SPEC-V5-5.5.1a: read-only queries run): expected one row of one integer, got ${JSON.stringify(rel.rows).slice(0, 200)}`,
        expected: '[[n]]',
        actual: rel.rows,
      }));
      // A merge chain: M1 into M2, then M2 into M3; each merge leaves its SAME_AS link (SPEC-V5-5.3.3).
      const m: { id: string }[] = [];
      for (const name of ['Chain M1', 'Chain M2', 'Chain M3']) m.push(await bridge.add_entity({ name, entity_type: 'OBJECT' }));
      await bridge.merge_entities({ source_id: m[0]!.id, target_id: m[1]!.id });
      await bridge.merge_entities({ source_id: m[1]!.id, target_id: m[2]!.id });
      const chain = await bridge.get_entity_graph({});
      const sameAs = (x: { id: string }, y: { id: string }) => chain.edges.some((d) => lower(d.source) === lower(x.id) && lower(d.target) === lower(y.id) && d.type === 'SAME_AS');
      const lost = [[0, 1], [1, 2]].filter(([x, y]) => !sameAs(m[x!]!, m[y!]!)).map(([x, y]) => `M${x! + 1} -SAME_AS-> M${y! + 1}`);
      check.by(v5('5.3.3')).that(lost.length === 0, 'get_entity_graph after a merge chain holds the SAME_AS link of each merge', () => ({
        message: `get_entity_graph() after merge_entities(M1 into M2) then merge_entities(M2 into M3) (SPEC-V5-5.3.3: merge_entities leaves a SAME_AS link from the source to the target): missing ${lost.join(', ')}; SAME_AS edges ${show(chain.edges.filter((d) => d.type === 'SAME_AS').map((d) => `${short(d.source)} -> ${short(d.target)}`))}`,
        expected: ['M1 -SAME_AS-> M2', 'M2 -SAME_AS-> M3'],
        actual: chain.edges.filter((d) => d.type === 'SAME_AS'),
      }));
      await bridge.delete_entity({ entity_id: e['a']!.id });
      const gone = await countA();
      check.by(V3('delete_entity'), v5('5.5.1a')).that(gone === 0, `${call} made again after delete_entity(<Graph A>) counts nothing`, () => ({
        message: `${call} after delete_entity(<Graph A>), the same query having answered ${JSON.stringify(one)} before (SPEC-V3-delete_entity: it deletes an entity): expected 0, got ${JSON.stringify(gone)}`,
        expected: 0,
        actual: gone,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-P-163',
    tier: 'platinum',
    group: 'reasoning',
    clauses: [v5('5.4.3'), v5('5.4.2')],
    title: 'get_trace_by_conversation and explain_step made before record_tool_call hold the call when made again',
    asserts:
      'A conversation gets a step with record_step; get_trace_by_conversation of the conversation and explain_step of the step are read (no tool call); ' +
      'the core record_tool_call records a call on the step; the same two reads again hold it (SPEC-V5-5.4.3: every step and tool call of the ' +
      'conversation; SPEC-V5-5.4.2: the tool calls of the step). A read cache keyed by the request answers no call again.',
    async run({ bridge }) {
      const conv = await newConversation(bridge, 'tck-rwr-tools');
      const step = await bridge.record_step({ conversation_id: conv.id, reasoning: 'look it up', action_taken: 'call the lookup tool' });
      const before = { trace: await bridge.get_trace_by_conversation({ conversation_id: conv.id }), explained: await bridge.explain_step({ step_id: step.id }) };
      const tool = await bridge.record_tool_call({ step_id: step.id, tool_name: 'lookup', arguments: { q: 'tern' }, status: 'success', duration_ms: 5 });
      const trace = await bridge.get_trace_by_conversation({ conversation_id: conv.id });
      check.by(v5('5.4.3')).that(has(trace.tool_calls, tool.id), 'get_trace_by_conversation made again after record_tool_call holds the call', () => ({
        message: `get_trace_by_conversation(${short(conv.id)}) after record_tool_call on its step, the same read having answered ${before.trace.tool_calls.length} tool call(s) before (SPEC-V5-5.4.3: every step and tool call of the conversation): the new call ${short(tool.id)} is missing`,
        expected: tool.id,
        actual: ids(trace.tool_calls),
      }));
      const explained = await bridge.explain_step({ step_id: step.id });
      check.by(v5('5.4.2')).that(has(explained.tool_calls, tool.id), 'explain_step made again after record_tool_call holds the call', () => ({
        message: `explain_step(${short(step.id)}) after record_tool_call on it, the same read having answered ${before.explained.tool_calls.length} tool call(s) before (SPEC-V5-5.4.2: the tool calls of the step): the new call ${short(tool.id)} is missing`,
        expected: tool.id,
        actual: ids(explained.tool_calls),
      }));
    },
  }),

  // Values a storage engine changes, in the Platinum fields read back whole.
  defineScenario({
    id: 'SCN-P-164',
    tier: 'platinum',
    group: 'entities',
    clauses: [V3('update_entity'), V3('get_entity'), v5('5.4.1'), V3('list_steps')],
    title: 'NUL, C1 controls, Unicode forms and edge spaces come back as sent from update_entity and record_step',
    asserts:
      'update_entity sets a name and a description holding a NUL, C1 controls, a decomposed and a precomposed é, Cyrillic, an astral character, quotes ' +
      'and edge spaces; get_entity answers both exactly (SPEC-V3-update_entity, SPEC-V3-get_entity). record_step with such a reasoning, action_taken and ' +
      'result; list_steps of the conversation answers the step with all three exactly (SPEC-V5-5.4.1, SPEC-V3-list_steps).',
    async run({ bridge }) {
      const odd = (tag: string) => ` ${tag}: nul\u0000here \u0085nel \u009fapc Cafe\u0301 café ключ 🚀 "q" \\ <b>&</b> % `;
      const exact = (cites: string[], got: unknown, sent: unknown, what: string) =>
        check.by(...cites).that(JSON.stringify(got) === JSON.stringify(sent), `${what} comes back exactly`, () => ({
          message: `${what} (${cites.join(', ')}): expected ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`,
          expected: sent,
          actual: got,
        }));
      const entity = await bridge.add_entity({ name: 'Values Platinum', entity_type: 'OBJECT' });
      const wanted = { name: odd('name'), description: odd('description') };
      await bridge.update_entity({ entity_id: entity.id, ...wanted });
      const back = await bridge.get_entity({ entity_id: entity.id });
      exact([V3('update_entity'), V3('get_entity')], { name: back.name, description: back.description ?? null }, wanted,
        `get_entity(${short(entity.id)}) after update_entity(name=<NUL, C1, NFD, astral, edge spaces>, description=<the same>)`);
      const conv = await newConversation(bridge, 'tck-values-steps');
      const fields = { reasoning: odd('reasoning'), action_taken: odd('action'), result: odd('result') };
      const step = await bridge.record_step({ conversation_id: conv.id, ...fields });
      const listed = (await bridge.list_steps({ conversation_id: conv.id })).find((x) => lower(x.id) === lower(step.id));
      exact([v5('5.4.1'), V3('list_steps')], listed === undefined ? null : { reasoning: listed.reasoning, action_taken: listed.action_taken, result: listed.result ?? null }, fields,
        `list_steps(${short(conv.id)}) after record_step(reasoning, action_taken, result = <NUL, C1, NFD, astral, edge spaces>)`);
    },
  }),
];
