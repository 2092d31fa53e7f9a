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
    expect(() => runQuery('MATCH (a) RETURN a ORDER BY a.name', {}, g)).toThrow(/^ORDER BY is not supported by the query console \(supported: MATCH, WHERE, RETURN, LIMIT\)/);
    expect(() => runQuery('OPTIONAL MATCH (a) RETURN a', {}, g)).toThrow(/^OPTIONAL MATCH is not supported/);
    expect(() => runQuery('MATCH (a) WITH a RETURN a', {}, g)).toThrow(/^WITH is not supported/);
    expect(() => runQuery('MATCH (a) RETURN DISTINCT a.type', {}, g)).toThrow(/^DISTINCT is not supported/);
    expect(() => runQuery('MATCH (a) WHERE a.name = 1 OR a.name = 2 RETURN a', {}, g)).toThrow(/^OR is not supported/);
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
