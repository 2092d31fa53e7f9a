// The read-only query subset of POST /v1/query over the entity graph.
import { describe, expect, it } from 'vitest';
import { isWriteQuery, runQuery, writeClauseOf } from '../../src/servers/hosted/query.js';
import { HostedStore } from '../../src/servers/hosted/index.js';

function graph() {
  const store = new HostedStore();
  const alice = store.addEntity({ name: 'Alice', type: 'PERSON' });
  const bob = store.addEntity({ name: 'Bob', type: 'PERSON' });
  const acme = store.addEntity({ name: "O'Neil & Co", type: 'ORGANIZATION' });
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
    expect(runQuery('MATCH (e:Entity) RETURN count(e) AS n', {}, g).records).toEqual([{ n: 3 }]);
    expect(runQuery('MATCH (e) RETURN e.name LIMIT 1', {}, g).records).toHaveLength(1);
  });

  it('returns $parameters and literals as items', () => {
    const g = graph();
    expect(runQuery('MATCH (n) RETURN $label AS label LIMIT 1', { label: 'tck-e2e' }, g)).toEqual({ columns: ['label'], rows: [['tck-e2e']], records: [{ label: 'tck-e2e' }] });
    expect(runQuery('MATCH (n:Person) RETURN n.name AS name, 1 AS one', {}, g).rows).toEqual([['Alice', 1], ['Bob', 1]]);
    expect(runQuery('MATCH (n) RETURN count(n) AS total, $x AS x', { x: true }, g).rows).toEqual([[3, true]]);
    expect(() => runQuery('MATCH (n) RETURN $missing AS m', {}, graph())).toThrow(/\$missing/);
  });

  it('follows relationships in the given direction, or both', () => {
    const g = graph();
    expect(runQuery('MATCH (a)-[r:KNOWS]->(b) RETURN a.name, r.relationshipType, b.name', {}, g).records)
      .toEqual([{ 'a.name': 'Bob', 'r.relationshipType': 'KNOWS', 'b.name': 'Alice' }]);
    expect(runQuery('MATCH (a {name: $n})<-[]-(b) RETURN b.name', { n: 'Alice' }, g).records).toEqual([{ 'b.name': 'Bob' }]);
    expect(runQuery('MATCH (a {name: $n})-[]-(b) RETURN b.name', { n: 'Alice' }, g).records.map((r) => r['b.name']).sort()).toEqual(['Bob', "O'Neil & Co"]);
  });

  it('names what it does not support', () => {
    const g = graph();
    expect(() => runQuery('RETURN 1', {}, g)).toThrow(/MATCH/);
    expect(() => runQuery('MATCH (a) RETURN b', {}, g)).toThrow(/variable b/);
    expect(() => runQuery('MATCH (a) RETURN a.name, count(a)', {}, g)).toThrow(/grouping/);
    expect(() => runQuery('MATCH (a {name: $x}) RETURN a', {}, g)).toThrow(/\$x/);
    expect(() => runQuery('MATCH (a) RETURN a ORDER BY a.name', {}, g)).toThrow(/ORDER/);
  });

  it('tells queries that write from those that read', () => {
    expect(isWriteQuery('MATCH (n) DETACH DELETE n')).toBe(true);
    expect(isWriteQuery('CREATE (n:Person {name: "x"})')).toBe(true);
    expect(isWriteQuery("MATCH (n {name: 'create'}) RETURN n")).toBe(false);
    expect(isWriteQuery('MATCH (n) RETURN n.settings')).toBe(false);
    expect(writeClauseOf('MATCH (n) DETACH DELETE n')).toBe('DETACH');
    expect(writeClauseOf("load  csv from 'x' as l")).toBe('LOAD CSV');
  });
});
