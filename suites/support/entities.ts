// Creating named entities in one line: `const { alice } = await addEntities(bridge, { alice: ['Alice', 'PERSON'] })`.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Entity, EntityType } from '../../src/protocols/bridge/index.js';

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
