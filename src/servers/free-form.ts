// User data inside a request (metadata, arguments, properties, parameters) must round-trip
// exactly. JSON.parse keeps a "__proto__" key as an own property, but zod's record parsing copies
// entries by assignment, where "__proto__" sets the prototype instead and the entry is lost. After
// validation, the free-form values (records of the schema) are therefore taken from the parsed
// request itself; the stores copy them with own properties only, so no prototype is ever changed.
import { z } from 'zod';
import { unwrap } from '../protocols/bridge/validate.js';
import { isJsonObject as isObject } from '../util/json.js';


/** `parsed` (the schema's output for `raw`) with every record-typed value replaced by its raw form. */
export function keepFreeForm<T>(schema: z.ZodType, raw: unknown, parsed: T): T {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodRecord) return (isObject(raw) && isObject(parsed) ? raw : parsed) as T;
  if (inner instanceof z.ZodObject && isObject(raw) && isObject(parsed)) {
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      const out = parsed as Record<string, unknown>;
      if (key in out) out[key] = keepFreeForm(field, raw[key], out[key]);
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(raw) && Array.isArray(parsed)) {
    for (let i = 0; i < parsed.length; i++) parsed[i] = keepFreeForm(inner.element as z.ZodType, raw[i], parsed[i]);
  }
  return parsed;
}
