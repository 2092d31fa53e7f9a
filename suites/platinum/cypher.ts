// Platinum: the Cypher console (Volume 5, 5.5.1): read-only queries execute (a), write operations are
// rejected (b). Every query here is inside the read-only subset of docs/cypher-subset.md, which a
// plain Neo4j answers too: MATCH of one node or one relationship pattern, a label, WHERE with
// equalities on `name` (and STARTS WITH, CONTAINS), RETURN [DISTINCT] of `n.name`, count(n), count(r),
// count(*), count(DISTINCT n.name), a $parameter or a literal, each AS a name, ORDER BY, SKIP, LIMIT. The kit relies only on each entity being a node whose `name` property is the
// entity's name (silent point cypher-graph-schema); of relationship and label queries it checks only
// that they run and that their counts agree with each other as in any graph (SCN-P-124).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { UnexpectedError } from '../../src/engine/faults.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { v5 } from './clauses.js';
import { sameSet, texts } from './helpers.js';

/** count(n) of the nodes named `name`. */
async function countNamed(bridge: BridgeApi, name: string): Promise<unknown> {
  const r = await bridge.cypher_query({ cypher: 'MATCH (n) WHERE n.name = $name RETURN count(n) AS c', params: { name } });
  return r.rows[0]?.[0];
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-011',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a')],
    title: 'cypher_query returns {columns, rows}',
    asserts:
      'With two entities stored, "MATCH (n) RETURN count(n) AS total" answers columns exactly ["total"] and one row ' +
      'whose only value is an integer of at least 2.',
    async run({ bridge, check }) {
      await bridge.add_entity({ name: 'Count One', entity_type: 'OBJECT' });
      await bridge.add_entity({ name: 'Count Two', entity_type: 'OBJECT' });
      const r = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN count(n) AS total', params: {} });
      check.by(v5('5.5.1a')).equal(r.columns, ['total'], 'cypher_query("MATCH (n) RETURN count(n) AS total"): columns');
      check.by(v5('5.5.1a')).length(r.rows, 1, 'cypher_query("… RETURN count(n) AS total"): rows');
      const total = r.rows[0]?.[0];
      // silent (cypher-graph-schema): other records may be nodes too, so at least the two entities.
      check.by(v5('5.5.1a')).ok(r.rows[0]?.length === 1 && Number.isInteger(total) && (total as number) >= 2,
        `cypher_query("… RETURN count(n) AS total") with two entities stored: expected one integer >= 2 in the row, got ${JSON.stringify(r.rows[0])}`,
        { expected: '[n >= 2]', actual: r.rows[0] });
    },
  }),

  defineScenario({
    id: 'SCN-P-122',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a')],
    title: 'cypher_query over 40 entities: WHERE picks one, LIMIT caps, no LIMIT answers every one',
    asserts:
      'Adds 40 entities "Cypher Item 00" … "Cypher Item 39". "MATCH (n) WHERE n.name = $name RETURN n.name AS name" ' +
      'with name "Cypher Item 17" answers exactly the row ["Cypher Item 17"]; "MATCH (n) RETURN n.name AS name LIMIT 3" ' +
      'answers exactly 3 rows, and with LIMIT 25 exactly 25 rows; "MATCH (n) RETURN n.name AS name" answers a row for each of the 40 names.',
    async run({ bridge, check }) {
      const names = texts('Cypher Item', 40);
      for (const name of names) await bridge.add_entity({ name, entity_type: 'OBJECT' });
      const one = await bridge.cypher_query({ cypher: 'MATCH (n) WHERE n.name = $name RETURN n.name AS name', params: { name: 'Cypher Item 17' } });
      check.by(v5('5.5.1a')).equal({ columns: one.columns, rows: one.rows }, { columns: ['name'], rows: [['Cypher Item 17']] },
        'cypher_query("MATCH (n) WHERE n.name = $name RETURN n.name AS name", name "Cypher Item 17") among 40 entities');
      const three = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN n.name AS name LIMIT 3', params: {} });
      check.by(v5('5.5.1a')).length(three.rows, 3, 'cypher_query("MATCH (n) RETURN n.name AS name LIMIT 3") with 40 entities: rows');
      // A limit of two digits (found by mutation testing: a tokenizer that reads one digit refuses it).
      const many = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN n.name AS name LIMIT 25', params: {} });
      check.by(v5('5.5.1a')).length(many.rows, 25, 'cypher_query("MATCH (n) RETURN n.name AS name LIMIT 25") with 40 entities: rows');
      const every = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN n.name AS name', params: {} });
      const got = new Set(every.rows.map((r) => r[0]));
      const missing = names.filter((n) => !got.has(n));
      check.by(v5('5.5.1a')).ok(missing.length === 0,
        `cypher_query("MATCH (n) RETURN n.name AS name") with 40 entities: ${missing.length} names have no row (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}) among ${every.rows.length} rows`,
        { expected: names, actual: every.rows.length });
    },
  }),

  defineScenario({
    id: 'SCN-P-128',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a')],
    title: 'cypher_query runs the common read clauses: ORDER BY, SKIP, STARTS WITH, CONTAINS, DISTINCT, count(DISTINCT …)',
    asserts:
      'Adds "Ordo Gamma", "Ordo Alpha" (twice, of two types), "Ordo Beta" and "Other Name". With prefix "Ordo ": ' +
      '"… WHERE n.name STARTS WITH $prefix RETURN n.name AS name ORDER BY name" answers exactly Alpha, Alpha, Beta, Gamma in that order; ' +
      '"… ORDER BY name DESC SKIP 1 LIMIT 1" exactly Gamma\'s successor, Beta; "RETURN DISTINCT n.name AS name" the 3 names once each; ' +
      '"RETURN count(DISTINCT n.name) AS c" [[3]]; "WHERE n.name CONTAINS $part RETURN count(n) AS c" with "do Be" [[1]]. ' +
      'Each is a read-only query, which SPEC-5.5.1 says MUST execute; each is core Cypher a plain Neo4j answers.',
    async run({ bridge, check }) {
      for (const [name, entity_type] of [['Ordo Gamma', 'OBJECT'], ['Ordo Alpha', 'PERSON'], ['Ordo Beta', 'OBJECT'], ['Ordo Alpha', 'OBJECT'], ['Other Name', 'OBJECT']] as const) {
        await bridge.add_entity({ name, entity_type });
      }
      // A refusal names the query it refused (the call alone would not say which of the five).
      const read = async (cypher: string, params: Record<string, unknown>) => {
        try {
          return { cypher, ...(await bridge.cypher_query({ cypher, params })) };
        } catch (err) {
          if (!(err instanceof UnexpectedError)) throw err;
          const named = new UnexpectedError(`cypher_query(${JSON.stringify(cypher)})`, err.status, err.serverMessage);
          Object.assign(named, { cites: err.cites, judged: err.judged });
          throw named;
        }
      };
      const prefix = { prefix: 'Ordo ' };
      const ordered = await read('MATCH (n) WHERE n.name STARTS WITH $prefix RETURN n.name AS name ORDER BY name', prefix);
      check.by(v5('5.5.1a')).equal({ columns: ordered.columns, rows: ordered.rows }, { columns: ['name'], rows: [['Ordo Alpha'], ['Ordo Alpha'], ['Ordo Beta'], ['Ordo Gamma']] },
        `cypher_query(${JSON.stringify(ordered.cypher)}), prefix "Ordo "`);
      const paged = await read('MATCH (n) WHERE n.name STARTS WITH $prefix RETURN n.name AS name ORDER BY name DESC SKIP 1 LIMIT 1', prefix);
      check.by(v5('5.5.1a')).equal(paged.rows, [['Ordo Beta']], `cypher_query(${JSON.stringify(paged.cypher)}), prefix "Ordo " (Gamma first, then Beta)`);
      const distinct = await read('MATCH (n) WHERE n.name STARTS WITH $prefix RETURN DISTINCT n.name AS name', prefix);
      sameSet([v5('5.5.1a')], distinct.rows.map((r) => String(r[0])), ['Ordo Alpha', 'Ordo Beta', 'Ordo Gamma'], `cypher_query(${JSON.stringify(distinct.cypher)}), prefix "Ordo "`, (x) => x);
      const names = await read('MATCH (n) WHERE n.name STARTS WITH $prefix RETURN count(DISTINCT n.name) AS c', prefix);
      check.by(v5('5.5.1a')).equal(names.rows, [[3]], `cypher_query(${JSON.stringify(names.cypher)}), prefix "Ordo "`);
      const part = await read('MATCH (n) WHERE n.name CONTAINS $part RETURN count(n) AS c', { part: 'do Be' });
      check.by(v5('5.5.1a')).equal(part.rows, [[1]], `cypher_query(${JSON.stringify(part.cypher)}), part "do Be"`);
    },
  }),

  defineScenario({
    id: 'SCN-P-108',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1b')],
    title: 'cypher_query rejects write operations and changes nothing',
    asserts:
      '"CREATE (n:Entity {name: \'tck-written\'}) RETURN n" and "MATCH (n) DETACH DELETE n" are each refused with an ' +
      'error, and the entity graph is the same before and after.',
    async run(ctx) {
      const { bridge, check } = ctx;
      await bridge.add_entity({ name: 'Keep Me', entity_type: 'OBJECT' });
      const before = await bridge.get_entity_graph();
      await ctx.expectError('cypher_query', { cypher: "CREATE (n:Entity {name: 'tck-written'}) RETURN n", params: {} }, 'with a CREATE (write operations must be rejected)', { cites: [v5('5.5.1b')] });
      await ctx.expectError('cypher_query', { cypher: 'MATCH (n) DETACH DELETE n', params: {} }, 'with a DETACH DELETE (write operations must be rejected)', { cites: [v5('5.5.1b')] });
      const after = await bridge.get_entity_graph();
      check.by(v5('5.5.1b')).equal(after.nodes.map((n) => n.id).sort(), before.nodes.map((n) => n.id).sort(), 'get_entity_graph before and after refused write queries: node ids');
    },
  }),

  defineScenario({
    id: 'SCN-P-123',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a'), v5('5.5.1b')],
    title: 'cypher_query: a read whose values hold write keywords runs; writes in any case are refused and change nothing',
    asserts:
      'With entities "Set Theory", "Create Delete Merge" and "Remove O\'Set" stored, a read matching each by a literal name counts 1: ' +
      'in single quotes, "Set Theory" in double quotes too, and "Remove O\'Set" with its quote escaped (\\\'). ' +
      'Five writes are each refused with an error: SET and DELETE in lower case, MERGE, REMOVE, and CREATE in lower ' +
      'case; afterwards the graph has the same node names, "Set Theory" still counts 1 and no node has a name the writes would have made.',
    async run(ctx) {
      const { bridge, check } = ctx;
      for (const name of ['Set Theory', 'Create Delete Merge', "Remove O'Set"]) await bridge.add_entity({ name, entity_type: 'OBJECT' });
      // Both quotes and the escaped quote are core Cypher (Neo4j 4 and 5); a server that reads a write keyword inside
      // any of these literals as a clause refuses a read (found by mutation testing of the reference's literal skipping).
      const literals = ["'Set Theory'", "'Create Delete Merge'", '"Set Theory"', "'Remove O\\'Set'"];
      for (const literal of literals) {
        const cypher = `MATCH (n) WHERE n.name = ${literal} RETURN count(n) AS c`;
        const { outcome } = await ctx.raw('cypher_query', { cypher, params: {} });
        // Not implemented, a malformed answer, no answer: the typed call reports it as every call does.
        if (outcome.kind !== 'object' && outcome.kind !== 'error') await bridge.cypher_query({ cypher, params: {} });
        const rows = outcome.kind === 'object' ? (outcome.value as { rows?: unknown }).rows : undefined;
        check.by(v5('5.5.1a')).equal(rows, [[1]], `cypher_query(${JSON.stringify(cypher)}), a read whose value holds a write keyword, must run: rows` +
          (outcome.kind === 'error' ? ` (it was refused: ${outcome.status} ${JSON.stringify(outcome.message)})` : ''));
      }
      const names = async () => (await bridge.get_entity_graph()).nodes.map((n) => n.name).sort();
      const before = await names();
      const writes = [
        "match (n) where n.name = 'Set Theory' set n.name = 'tck-set' return n",
        "MERGE (n:Entity {name: 'tck-merged'}) RETURN n",
        "MATCH (n) WHERE n.name = 'Set Theory' REMOVE n.name RETURN n",
        "create (n {name: 'tck-created'}) return n",
        "match (n) where n.name = 'Create Delete Merge' delete n",
      ];
      for (const cypher of writes) await ctx.expectError('cypher_query', { cypher, params: {} }, `with ${JSON.stringify(cypher)} (write operations must be rejected, whatever their case)`, { cites: [v5('5.5.1b')] });
      check.by(v5('5.5.1b')).equal(await names(), before, 'get_entity_graph before and after five refused writes: node names');
      check.by(v5('5.5.1b')).equal(await countNamed(bridge, 'Set Theory'), 1, 'cypher_query count of "Set Theory" after refused writes');
      for (const made of ['tck-set', 'tck-merged', 'tck-created']) check.by(v5('5.5.1b')).equal(await countNamed(bridge, made), 0, `cypher_query count of ${JSON.stringify(made)} after the refused writes that would have made it`);
    },
  }),

  defineScenario({
    id: 'SCN-P-124',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a')],
    title: 'cypher_query runs reads of the other core shapes, and their counts agree as in any graph',
    asserts:
      'With 8 entities and 7 relationships among them stored ("Ada Graph" KNOWS "Ada Graphs", "Ada Graphs" USES "Bo Node", …; ' +
      'no self-loop), each of these reads must run and answer columns ["c"] and one row of one integer >= 0: relationships ' +
      'matched outgoing, incoming, either way and of one type, unanchored and between two nodes named in WHERE … AND …; nodes of ' +
      'a label; count(*). Whatever the graph holds (silent point cypher-graph-schema), their counts must agree as openCypher ' +
      'makes them agree: for two named nodes x and y, (x)<-[r]-(y) counts what (y)-[r]->(x) counts, (x)-[r]-(y) and (y)-[r]-(x) ' +
      'count (x)-[r]->(y) plus (y)-[r]->(x), and [r:KNOWS] plus [r:USES] count at most [r]; unanchored, incoming = outgoing <= ' +
      'either way <= 2 x outgoing and one type <= all; count(*) = count(n); a label\'s nodes <= all nodes; and ' +
      'n.name = $a AND n.name = $b counts 1 for the same stored name twice, 0 for two different ones.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const names = ['Ada Graph', 'Ada Graphs', 'Bo Node', 'Cy Edge', 'Di Path', 'Ed Walk', 'Fay Hop', 'Gus Link'];
      const ids: string[] = [];
      for (const name of names) ids.push((await bridge.add_entity({ name, entity_type: name === 'Bo Node' ? 'PERSON' : 'OBJECT' })).id);
      const edges: [number, number, string][] = [[0, 1, 'KNOWS'], [1, 2, 'USES'], [2, 3, 'KNOWS'], [3, 0, 'KNOWS'], [4, 5, 'USES'], [5, 6, 'USES'], [6, 7, 'PART_OF']];
      for (const [a, b, type] of edges) await bridge.add_relationship({ source_id: ids[a]!, target_id: ids[b]!, relationship_type: type });
      const count = async (cypher: string, params: Record<string, unknown> = {}): Promise<number> => {
        const r = await bridge.cypher_query({ cypher, params });
        const row = r.rows[0];
        const ok = r.rows.length === 1 && row?.length === 1 && Number.isInteger(row[0]) && (row[0] as number) >= 0;
        const call = `cypher_query(${JSON.stringify(cypher)}${Object.keys(params).length > 0 ? `, params ${JSON.stringify(params)}` : ''})`;
        check.by(v5('5.5.1a')).equal(r.columns, ['c'], `${call}: columns`);
        check.by(v5('5.5.1a')).ok(ok, `${call}: expected one row of one integer >= 0, got rows ${JSON.stringify(r.rows).slice(0, 200)}`, { expected: '[[n >= 0]]', actual: r.rows });
        return ok ? (row![0] as number) : NaN;
      };
      const agree = (ok: boolean, what: string, seen: Record<string, number>) =>
        check.by(v5('5.5.1a')).ok(ok, `cypher_query: ${what}, in any graph; got ${Object.entries(seen).map(([k, v]) => `${k} ${v}`).join(', ')}`, { expected: what, actual: seen });
      // Between two named nodes: x = "Ada Graph", y = "Ada Graphs" (x KNOWS y is stored; y is x's name and more).
      const between = (pattern: string) => `MATCH ${pattern} WHERE a.name = $x AND b.name = $y RETURN count(r) AS c`;
      const xy = { x: 'Ada Graph', y: 'Ada Graphs' };
      const yx = { x: 'Ada Graphs', y: 'Ada Graph' };
      const outXY = await count(between('(a)-[r]->(b)'), xy);
      const outYX = await count(between('(a)-[r]->(b)'), yx);
      const inYX = await count(between('(a)<-[r]-(b)'), yx);
      const inXY = await count(between('(a)<-[r]-(b)'), xy);
      const eitherXY = await count(between('(a)-[r]-(b)'), xy);
      const eitherYX = await count(between('(a)-[r]-(b)'), yx);
      const knowsXY = await count(between('(a)-[r:KNOWS]->(b)'), xy);
      const usesXY = await count(between('(a)-[r:USES]->(b)'), xy);
      agree(inYX === outXY && inXY === outYX, '(y)<-[r]-(x) matches what (x)-[r]->(y) matches, for x "Ada Graph" and y "Ada Graphs" and the other way round',
        { '(Ada Graphs)<-(Ada Graph)': inYX, '(Ada Graph)->(Ada Graphs)': outXY, '(Ada Graph)<-(Ada Graphs)': inXY, '(Ada Graphs)->(Ada Graph)': outYX });
      agree(eitherXY === outXY + outYX && eitherYX === outXY + outYX, '(x)-[r]-(y) and (y)-[r]-(x) match the relationships of both directions between two distinct nodes: (x)-[r]->(y) plus (y)-[r]->(x)',
        { '(Ada Graph)-(Ada Graphs)': eitherXY, '(Ada Graphs)-(Ada Graph)': eitherYX, '(Ada Graph)->(Ada Graphs)': outXY, '(Ada Graphs)->(Ada Graph)': outYX });
      agree(knowsXY + usesXY <= outXY, 'a relationship has one type: [r:KNOWS] plus [r:USES] from x to y count at most [r]', { KNOWS: knowsXY, USES: usesXY, all: outXY });
      const out = await count('MATCH (a)-[r]->(b) RETURN count(r) AS c');
      const inc = await count('MATCH (a)<-[r]-(b) RETURN count(r) AS c');
      const either = await count('MATCH (a)-[r]-(b) RETURN count(r) AS c');
      const typed = await count('MATCH (a)-[r:KNOWS]->(b) RETURN count(r) AS c');
      agree(inc === out, 'the relationships matched incoming are those matched outgoing (a)<-[r]-(b) = (a)-[r]->(b)', { incoming: inc, outgoing: out });
      agree(out <= either && either <= 2 * out, 'each relationship is matched either way once per end: outgoing <= (a)-[r]-(b) <= 2 x outgoing', { outgoing: out, either: either });
      agree(typed <= out, 'the relationships of one type are among all of them: [r:KNOWS] <= [r]', { KNOWS: typed, all: out });
      const nodes = await count('MATCH (n) RETURN count(n) AS c');
      const star = await count('MATCH (n) RETURN count(*) AS c');
      const labelled = await count('MATCH (n:Person) RETURN count(n) AS c');
      agree(star === nodes, 'count(*) counts the rows count(n) counts', { 'count(*)': star, 'count(n)': nodes });
      agree(labelled <= nodes, 'the nodes of a label are among all nodes: (n:Person) <= (n)', { Person: labelled, all: nodes });
      const both = await count('MATCH (n) WHERE n.name = $a AND n.name = $b RETURN count(n) AS c', { a: 'Ada Graph', b: 'Ada Graph' });
      const neither = await count('MATCH (n) WHERE n.name = $a AND n.name = $b RETURN count(n) AS c', { a: 'Ada Graph', b: 'Ada Graphs' });
      agree(both === 1 && neither === 0, 'WHERE n.name = $a AND n.name = $b counts the node named both: 1 when a = b = "Ada Graph", 0 for "Ada Graph" and "Ada Graphs"', { same: both, different: neither });
    },
  }),

  defineScenario({
    id: 'SCN-P-109',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1a')],
    title: 'cypher_query takes $parameters from params',
    asserts:
      'With an entity stored, "MATCH (n) RETURN $label AS label LIMIT 1" with params {label: "tck-e2e"} answers ' +
      'columns ["label"] and the row ["tck-e2e"].',
    async run({ bridge, check }) {
      await bridge.add_entity({ name: 'Param Holder', entity_type: 'OBJECT' });
      const r = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN $label AS label LIMIT 1', params: { label: 'tck-e2e' } });
      check.by(v5('5.5.1a')).equal({ columns: r.columns, rows: r.rows }, { columns: ['label'], rows: [['tck-e2e']] }, 'cypher_query("MATCH (n) RETURN $label AS label LIMIT 1", params {label: "tck-e2e"})');
    },
  }),
];
