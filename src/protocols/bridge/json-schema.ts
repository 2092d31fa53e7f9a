// JSON Schema of every model type (zod 4 `z.toJSONSchema`), for implementers in other languages.
import { z } from 'zod';
import { MODEL, type ModelName } from './model.js';

export function jsonSchemas(): Record<ModelName, unknown> {
  const out = {} as Record<ModelName, unknown>;
  for (const [name, schema] of Object.entries(MODEL) as [ModelName, z.ZodType][]) {
    out[name] = {
      $id: `https://agent-memory-tck/schema/bridge-0.1/${name}.json`,
      title: name,
      ...z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }),
    };
  }
  return out;
}
