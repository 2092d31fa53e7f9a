// The read-only query subset of POST /v1/query over the entity graph.
import { describe, expect, it } from 'vitest';
import { isWriteQuery, runQuery, writeClauseOf } from '../../src/servers/hosted/query.js';
import { HostedStore } from '../../src/servers/hosted/index.js';

function graph() {
  const store = new HostedStore();
  const alice = store.addEntity({ name: 'Alice', type: 'PERSON' });
  const bob = store.addEntity({ name: 'Bob', type: 'PERSON' });
  const acme = store.addEntity({ name: "O'Neil & Co", type: 'ORGANIZATION' });
  store.addEntity({ name: 'Relativity', type: 'concept' });
  store.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
  store.add_relationship({ source_id: bob.id, target_id: alice.id, relationship_type: 'KNOWS' });
  return store.graph();
}

describe('runQuery', () => {
  it('matches nodes by label and properties, with WHERE, LIMIT and count', () => {
    const g = graph();
    expect(runQuery('MATCH (p:Person) RETURN p.name', {}, g).records).toEqual([{ 'p.name': 'Alice' }, { 'p.name': 'Bob' }]);
    // Types are the REST view's (lower case); rows are arrays in column order, records the same as objects.
    expect(runQuery('match (p:Person {name: "Bob"}) return p.type as t', {}, g)).toEqual({ columns: ['t'], rows: [['person']], records: [{ t: 'person' }] });
    expect(runQuery("MATCH (e) WHERE e.name = 'O\\'Neil & Co' RETURN e.type", {}, g).records).toEqual([{ 'e.type': 'organization' }]);
    expect(runQuery('MATCH (e:Entity) RETURN count(e) AS n', {}, g).records).toEqual([{ n: 4 }]);
    expect(runQuery('MATCH (e) RETURN e.name LIMIT 1', {}, g).records).toHaveLength(1);
    expect(runQuery('MATCH (c:concept) RETURN c.name', {}, g).rows).toEqual([['Relativity']]);
  });

  it('returns $parameters and literals as items', () => {
    const g = graph();
    expect(runQuery('MATCH (n) RETURN $label AS label LIMIT 1', { label: 'tck-e2e' }, g)).toEqual({ columns: ['label'], rows: [['tck-e2e']], records: [{ label: 'tck-e2e' }] });
    expect(runQuery('MATCH (n:Person) RETURN n.name AS name, 1 AS one', {}, g).rows).toEqual([['Alice', 1], ['Bob', 1]]);
    expect(runQuery('MATCH (n) RETURN count(n) AS total, $x AS x', { x: true }, g).rows).toEqual([[4, true]]);
    expect(() => runQuery('MATCH (n) RETURN $missing AS m', {}, graph())).toThrow(/\$missing/);
  });

  it('follows relationships in the given direction, or both', () => {
    const g = graph();
    expect(runQuery('MATCH (a)-[r:KNOWS]->(b) RETURN a.name, r.type, b.name', {}, g))
      .toMatchObject({ columns: ['a.name', 'r.type', 'b.name'], rows: [['Bob', 'KNOWS', 'Alice']] });
    expect(runQuery('MATCH (a {name: $n})<-[]-(b) RETURN b.name', { n: 'Alice' }, g).rows).toEqual([['Bob']]);
    expect(runQuery('MATCH (a {name: $n})-[]-(b) RETURN b.name', { n: 'Alice' }, g).rows.map((r) => r[0]).sort()).toEqual(['Bob', "O'Neil & Co"]);
  });

  it('names what it does not support', () => {
    const g = graph();
    expect(() => runQuery('RETURN 1', {}, g)).toThrow(/MATCH/);
    expect(() => runQuery('MATCH (a) RETURN b', {}, g)).toThrow(/variable b/);
    expect(() => runQuery('MATCH (a) RETURN a.name, count(a)', {}, g)).toThrow(/grouping/);
    expect(() => runQuery('MATCH (a {name: $x}) RETURN a', {}, g)).toThrow(/\$x/);
    expect(() => runQuery('OPTIONAL MATCH (a) RETURN a', {}, g)).toThrow(/^OPTIONAL MATCH is not supported by the query console \(supported: MATCH, WHERE with =, <>, CONTAINS, STARTS WITH, ENDS WITH joined by AND, RETURN \[DISTINCT\] with count\(\), ORDER BY, SKIP, LIMIT; see docs\/cypher-subset\.md\)/);
    expect(() => runQuery('MATCH (a) WITH a RETURN a', {}, g)).toThrow(/^WITH is not supported/);
    expect(() => runQuery('MATCH (a) UNWIND [1] AS x RETURN a', {}, g)).toThrow(/^UNWIND is not supported/);
    expect(() => runQuery('MATCH (a) WHERE a.name = 1 OR a.name = 2 RETURN a', {}, g)).toThrow(/^OR is not supported/);
    expect(() => runQuery('MATCH (a) WHERE a.name IN $names RETURN a', {}, g)).toThrow(/expected a comparison \(=, <>, CONTAINS, STARTS WITH, ENDS WITH\), got "IN"/);
    expect(() => runQuery('MATCH (a) RETURN a.name ORDER BY b.name', {}, g)).toThrow(/variable b is not defined/);
    expect(() => runQuery('MATCH (a) RETURN DISTINCT a.type AS t ORDER BY a.name', {}, g)).toThrow(/ORDER BY after RETURN DISTINCT takes the names of the returned columns/);
    expect(() => runQuery('MATCH (a) RETURN a SKIP -1', {}, g)).toThrow(/SKIP takes a non-negative integer/);
  });

  // Issue 32: SPEC-5.5.1 says read-only queries MUST run; the console took only MATCH/WHERE =/RETURN/LIMIT.
  it('runs the common read clauses: ORDER BY, SKIP, CONTAINS, STARTS WITH, ENDS WITH, <>, DISTINCT, count', () => {
    const g = graph();
    const names = (q: string, p: Record<string, unknown> = {}) => runQuery(q, p, g).rows.map((r) => r[0]);
    expect(names('MATCH (n) RETURN n.name AS name ORDER BY name')).toEqual(['Alice', 'Bob', "O'Neil & Co", 'Relativity']);
    expect(names('MATCH (n) RETURN n.name ORDER BY n.name DESC')).toEqual(['Relativity', "O'Neil & Co", 'Bob', 'Alice']);
    expect(names('MATCH (n) RETURN n.name AS name ORDER BY n.type ASC, name DESC')).toEqual(['Relativity', "O'Neil & Co", 'Bob', 'Alice']);
    expect(names('MATCH (n) RETURN n.name AS name ORDER BY name SKIP 1 LIMIT 2')).toEqual(['Bob', "O'Neil & Co"]);
    expect(names('MATCH (n) RETURN n.name SKIP 3')).toHaveLength(1);
    expect(names("MATCH (n) WHERE n.name CONTAINS 'li' RETURN n.name")).toEqual(['Alice']);
    expect(names('MATCH (n) WHERE n.name STARTS WITH $p RETURN n.name', { p: 'B' })).toEqual(['Bob']);
    expect(names("MATCH (n) WHERE n.name ENDS WITH 'Co' AND n.type <> 'person' RETURN n.name")).toEqual(["O'Neil & Co"]);
    expect(names("MATCH (n) WHERE n.name CONTAINS 'x' RETURN n.name")).toEqual([]);
    expect(names('MATCH (n) WHERE n.description CONTAINS $p RETURN n.name', { p: '' })).toEqual([]); // null CONTAINS anything: not true
    expect(runQuery('MATCH (n:Person) RETURN DISTINCT n.type', {}, g)).toMatchObject({ columns: ['n.type'], rows: [['person']] });
    expect(runQuery('MATCH (n) RETURN count(DISTINCT n.type) AS types, count(n) AS all, count(n.description) AS described', {}, g).rows).toEqual([[3, 4, 0]]);
    expect(runQuery('MATCH (a)-[r]-(b) RETURN count(DISTINCT a) AS c', {}, g).rows).toEqual([[3]]);
    expect(runQuery('MATCH (n) RETURN count(*) AS c SKIP 1', {}, g).rows).toEqual([]);
  });

  it('keeps its bounds with ORDER BY and DISTINCT: every row is counted before any is built, and sorting is timed', () => {
    const g = graph();
    expect(() => runQuery('MATCH (n) RETURN n.name ORDER BY n.name LIMIT 1', {}, g, { maxValues: 3 })).toThrow(/would hold 4 values/);
    let t = 0;
    expect(() => runQuery('MATCH (a)-[r]-(b) RETURN DISTINCT a.name ORDER BY a.name', {}, g, { now: () => (t += 10_000), timeLimitMs: 1 })).not.toThrow(); // under CLOCK_EVERY units: no look at the clock
  });

  it('tells queries that write from those that read', () => {
    expect(isWriteQuery('MATCH (n) DETACH DELETE n')).toBe(true);
    expect(isWriteQuery('CREATE (n:Person {name: "x"})')).toBe(true);
    expect(isWriteQuery("MATCH (n {name: 'create'}) RETURN n")).toBe(false);
    expect(isWriteQuery('MATCH (n) RETURN n.settings')).toBe(false);
    expect(writeClauseOf('MATCH (n) DETACH DELETE n')).toBe('DETACH DELETE');
    expect(writeClauseOf('MATCH (n) SET n.x = 1')).toBe('SET');
    expect(writeClauseOf("load  csv from 'x' as l")).toBe('LOAD CSV');
  });
});
