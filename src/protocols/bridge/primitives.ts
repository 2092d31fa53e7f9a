// Scalar rules of the bridge data model (bridge-protocol.md, "General rules").
import { z } from 'zod';
import { ISO_DATE_TIME, isIsoDateTime } from '../../util/iso.js';

/** Canonical 8-4-4-4-12 hex UUID of any version (v4 random and v7 time-ordered alike). */
export const Uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a UUID (8-4-4-4-12 hex)`,
  })
  .meta({ format: 'uuid' });

export { isIsoDateTime };

export const Timestamp = z
  .string()
  .refine(isIsoDateTime, {
    error: (iss) => `${JSON.stringify(iss.input)} is not an ISO 8601 date-time with a zone designator (Z or ±hh:mm)`,
  })
  .meta({ format: 'date-time', pattern: ISO_DATE_TIME.source });

/** A JSON object (not an array, not null): metadata, arguments, properties. */
export const JsonObject = z.record(z.string(), z.unknown(), {
  error: (iss) => `${describe(iss.input)} is not a JSON object`,
});

/** An embedding: an array of numbers. */
export const Embedding = z.array(z.number());

/** A field the protocol marks optional: it may be omitted or null. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullable().optional();
}

export function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
