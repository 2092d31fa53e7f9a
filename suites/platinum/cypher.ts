// Platinum: the Cypher console (Volume 5, 5.5.1): read-only queries answer {columns, rows}; write
// operations are rejected.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { v5 } from './clauses.js';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-011',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1')],
    title: 'cypher_query returns {columns, rows}',
    asserts:
      'With two entities stored, "MATCH (n) RETURN count(n) AS total" answers columns exactly ["total"] and one row ' +
      'whose only value is an integer of at least 2.',
    async run({ bridge, check }) {
      await bridge.add_entity({ name: 'Count One', entity_type: 'OBJECT' });
      await bridge.add_entity({ name: 'Count Two', entity_type: 'OBJECT' });
      const r = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN count(n) AS total', params: {} });
      check.equal(r.columns, ['total'], 'cypher_query("MATCH (n) RETURN count(n) AS total"): columns');
      check.length(r.rows, 1, 'cypher_query("… RETURN count(n) AS total"): rows');
      const total = r.rows[0]?.[0];
      check.ok(r.rows[0]?.length === 1 && Number.isInteger(total) && (total as number) >= 2,
        `cypher_query("… RETURN count(n) AS total") with two entities stored: expected one integer >= 2 in the row, got ${JSON.stringify(r.rows[0])}`,
        { expected: '[n >= 2]', actual: r.rows[0] });
    },
  }),

  defineScenario({
    id: 'SCN-P-108',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1')],
    title: 'cypher_query rejects write operations and changes nothing',
    asserts:
      '"CREATE (n:Entity {name: \'tck-written\'}) RETURN n" and "MATCH (n) DETACH DELETE n" are each refused with an ' +
      'error, and the entity graph is the same before and after.',
    async run(ctx) {
      const { bridge, check } = ctx;
      await bridge.add_entity({ name: 'Keep Me', entity_type: 'OBJECT' });
      const before = await bridge.get_entity_graph();
      await ctx.expectError('cypher_query', { cypher: "CREATE (n:Entity {name: 'tck-written'}) RETURN n", params: {} }, 'with a CREATE (write operations must be rejected)');
      await ctx.expectError('cypher_query', { cypher: 'MATCH (n) DETACH DELETE n', params: {} }, 'with a DETACH DELETE (write operations must be rejected)');
      const after = await bridge.get_entity_graph();
      check.equal(after.nodes.map((n) => n.id).sort(), before.nodes.map((n) => n.id).sort(), 'get_entity_graph before and after refused write queries: node ids');
    },
  }),

  defineScenario({
    id: 'SCN-P-109',
    tier: 'platinum',
    group: 'cypher',
    clauses: [v5('5.5.1')],
    title: 'cypher_query takes $parameters from params',
    asserts:
      'With an entity stored, "MATCH (n) RETURN $label AS label LIMIT 1" with params {label: "tck-e2e"} answers ' +
      'columns ["label"] and the row ["tck-e2e"].',
    async run({ bridge, check }) {
      await bridge.add_entity({ name: 'Param Holder', entity_type: 'OBJECT' });
      const r = await bridge.cypher_query({ cypher: 'MATCH (n) RETURN $label AS label LIMIT 1', params: { label: 'tck-e2e' } });
      check.equal({ columns: r.columns, rows: r.rows }, { columns: ['label'], rows: [['tck-e2e']] }, 'cypher_query("MATCH (n) RETURN $label AS label LIMIT 1", params {label: "tck-e2e"})');
    },
  }),
];
