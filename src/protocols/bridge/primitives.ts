// Scalar rules of the bridge data model (bridge-protocol.md, "General rules").
import { z } from 'zod';

/** Canonical 8-4-4-4-12 hex UUID of any version (v4 random and v7 time-ordered alike). */
export const Uuid = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, {
    error: (iss) => `${JSON.stringify(iss.input)} is not a UUID (8-4-4-4-12 hex)`,
  })
  .meta({ format: 'uuid' });

// ISO 8601 extended date-time with a zone designator. Seconds may be omitted (hh:mm is ISO 8601);
// fractional seconds of any precision are allowed; the zone is Z or ±hh:mm.
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

export function isIsoDateTime(value: string): boolean {
  const m = ISO_DATE_TIME.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) &&
    Number(m[4]) <= 23 && Number(m[5]) <= 59 && (m[6] === undefined || Number(m[6]) <= 60) &&
    (m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59))
  );
}

/** Days in a month of the proleptic Gregorian calendar (ISO 8601's). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

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
