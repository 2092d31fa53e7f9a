// User data inside a request (metadata, arguments, properties, parameters) must round-trip
// exactly, and costs one pass to check: a free-form value must only be a JSON object, so
// validation sees it hollowed (`hollowFreeForm`: {} in its place) instead of walking and copying
// every key, and keepFreeForm puts the value itself back. JSON.parse keeps a "__proto__" key as an own property, but zod's record parsing copies
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

/** Whether a schema is a free-form record (string keys, any values): all it asks of a value is to be an object. */
function isFreeForm(schema: z.ZodType): schema is z.ZodRecord {
  return schema instanceof z.ZodRecord && schema.valueType instanceof z.ZodUnknown;
}

/**
 * `raw` with every free-form value that is a JSON object replaced by {} (the objects and arrays
 * around it copied shallowly, the rest shared): what `schema` accepts or refuses of it is the same,
 * at a cost that does not grow with the free-form data. A value that is not an object stays, so
 * validation words its refusal as before.
 */
export function hollowFreeForm(schema: z.ZodType, raw: unknown): unknown {
  const inner = unwrap(schema);
  if (isFreeForm(inner)) return isObject(raw) ? {} : raw;
  if (inner instanceof z.ZodObject && isObject(raw)) {
    let out: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
      if (!Object.prototype.hasOwnProperty.call(raw, key)) continue;
      const value = hollowFreeForm(field, raw[key]);
      if (value !== raw[key]) (out ??= { ...raw })[key] = value;
    }
    return out ?? raw;
  }
  if (inner instanceof z.ZodArray && Array.isArray(raw)) {
    const element = inner.element as z.ZodType;
    const out = raw.map((v: unknown) => hollowFreeForm(element, v));
    return out.some((v, i) => v !== raw[i]) ? out : raw;
  }
  return raw;
}
