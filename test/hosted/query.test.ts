// The read-only query subset of POST /v1/query over the entity graph.
import { describe, expect, it } from 'vitest';
import { runQuery, writeClause } from '../../src/servers/hosted/query.js';
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
    expect(runQuery('MATCH (p:Person) RETURN p.name', {}, g)).toEqual({ columns: ['p.name'], rows: [['Alice'], ['Bob']] });
    expect(runQuery('match (p:Person {name: "Bob"}) return p.type as t', {}, g)).toEqual({ columns: ['t'], rows: [['person']] });
    expect(runQuery("MATCH (e) WHERE e.name = 'O\\'Neil & Co' RETURN e.type", {}, g).rows).toEqual([['organization']]);
    expect(runQuery('MATCH (e:Entity) RETURN count(e) AS n', {}, g)).toEqual({ columns: ['n'], rows: [[4]] });
    expect(runQuery('MATCH (e) RETURN e.name LIMIT 1', {}, g).rows).toHaveLength(1);
    expect(runQuery('MATCH (c:concept) RETURN c.name', {}, g).rows).toEqual([['Relativity']]);
  });

  it('returns parameters and literals as columns (rows are arrays in column order)', () => {
    const g = graph();
    expect(runQuery('MATCH (n) RETURN $label AS label LIMIT 1', { label: 'tck-e2e' }, g)).toEqual({ columns: ['label'], rows: [['tck-e2e']] });
    expect(runQuery("MATCH (p:Person {name: 'Bob'}) RETURN p.name AS name, 42 AS answer, 'x' AS s, null AS z", {}, g)).toEqual({ columns: ['name', 'answer', 's', 'z'], rows: [['Bob', 42, 'x', null]] });
    expect(() => runQuery('MATCH (n) RETURN $missing AS m', {}, g)).toThrow(/\$missing is not given/);
  });

  it('follows relationships in the given direction, or both', () => {
    const g = graph();
    expect(runQuery('MATCH (a)-[r:KNOWS]->(b) RETURN a.name, r.type, b.name', {}, g))
      .toEqual({ columns: ['a.name', 'r.type', 'b.name'], rows: [['Bob', 'KNOWS', 'Alice']] });
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

  it('names the clause of a query that writes, and none of one that reads', () => {
    expect(writeClause('MATCH (n) DETACH DELETE n')).toBe('DETACH DELETE');
    expect(writeClause('CREATE (n:Person {name: "x"})')).toBe('CREATE');
    expect(writeClause('MATCH (n) SET n.x = 1')).toBe('SET');
    expect(writeClause("MATCH (n {name: 'create'}) RETURN n")).toBeUndefined();
    expect(writeClause('MATCH (n) RETURN n.settings')).toBeUndefined();
  });
});
