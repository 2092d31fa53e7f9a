// Creating named entities in one line (`const { alice } = await addEntities(bridge, { alice: ['Alice', 'PERSON'] })`),
// and judging the ends of a relationship or a merge by the names of its entities.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Entity, EntityType } from '../../src/protocols/bridge/index.js';
import { check } from '../../src/engine/assert.js';
import { label } from './by-id.js';
import { citing, type Cites } from './cite.js';

type EntitySpec = readonly [name: string, type: EntityType, description?: string];

/** Creates one entity per key, in key order. */
export async function addEntities<K extends string>(bridge: BridgeApi, specs: Record<K, EntitySpec>): Promise<Record<K, Entity>> {
  const out = {} as Record<K, Entity>;
  for (const key of Object.keys(specs) as K[]) {
    const [name, entity_type, description] = specs[key];
    out[key] = await bridge.add_entity(description === undefined ? { name, entity_type } : { name, entity_type, description });
  }
  return out;
}

/** An entity by name, with the start of its id; an id of none of `known` as itself. */
const named = (id: unknown, known: readonly Entity[]): string => {
  const e = known.find((k) => k.id === id);
  return e === undefined ? `an id of no entity here ${JSON.stringify(id)}` : label(e);
};

/**
 * The ends (and type) of a relationship or a merge answer are those sent. A failure names the
 * entities by name, and says "source and target swapped" when that is what happened.
 */
export function checkEnds(
  got: { source_id: unknown; target_id: unknown; relationship_type?: unknown },
  want: { source: Entity; target: Entity; relationship_type?: string },
  what: string,
  cites?: Cites,
): void {
  const known = [want.source, want.target];
  const typed = want.relationship_type !== undefined;
  const view = (source: unknown, target: unknown, type: unknown) => ({ source: named(source, known), target: named(target, known), ...(typed ? { relationship_type: type } : {}) });
  const expected = view(want.source.id, want.target.id, want.relationship_type);
  const actual = view(got.source_id, got.target_id, got.relationship_type);
  const swapped = want.source.id !== want.target.id && got.source_id === want.target.id && got.target_id === want.source.id;
  const problems = [
    ...(swapped
      ? [`source and target swapped: the answer goes from ${actual.source} to ${actual.target}, expected from ${expected.source} to ${expected.target}`]
      : [
          ...(got.source_id === want.source.id ? [] : [`source_id is ${actual.source}, expected ${expected.source}`]),
          ...(got.target_id === want.target.id ? [] : [`target_id is ${actual.target}, expected ${expected.target}`]),
        ]),
    ...(typed && got.relationship_type !== want.relationship_type ? [`relationship_type is ${JSON.stringify(got.relationship_type)}, expected ${JSON.stringify(want.relationship_type)}`] : []),
  ];
  // The message names the entities; expected and actual stay the answer's own fields, so that a
  // repro script can find them in the answer and check them.
  const fields = (source_id: unknown, target_id: unknown, relationship_type: unknown) => ({ source_id, target_id, ...(typed ? { relationship_type } : {}) });
  citing(cites).ok(problems.length === 0, `${what}: ${problems.join('; ')}`, {
    expected: fields(want.source.id, want.target.id, want.relationship_type),
    actual: fields(got.source_id, got.target_id, got.relationship_type),
  });
}

/** A graph has the edge `source -type-> target`; a failure says "source and target swapped" when the graph has it the other way round. */
export function checkEdge(edges: readonly { source: unknown; target: unknown; type: unknown }[], want: { source: Entity; target: Entity; type: string }, what: string): void {
  const from = (s: unknown, t: unknown) => edges.filter((e) => e.source === s && e.target === t);
  if (from(want.source.id, want.target.id).some((e) => e.type === want.type)) return;
  const [s, t] = [label(want.source), label(want.target)];
  const why = from(want.target.id, want.source.id).some((e) => e.type === want.type)
    ? `source and target swapped: the graph has ${t} -${want.type}-> ${s}`
    : from(want.source.id, want.target.id).length > 0
      ? `the edges from ${s} to ${t} have type ${from(want.source.id, want.target.id).map((e) => JSON.stringify(e.type)).join(', ')}`
      : `no edge from ${s} to ${t} among ${edges.length}`;
  check.fail(`${what}: ${why}`, { actual: edges });
}
