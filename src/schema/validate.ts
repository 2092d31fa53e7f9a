// Validation of a response against the data model, with messages that name the JSON path and the
// offending value, and notes (not failures) for fields the model does not know.
import { z } from 'zod';
import { describe } from './primitives.js';

export interface Validation<T> {
  ok: boolean;
  /** The parsed value when ok (extra fields kept). */
  value?: T;
  /** One line per violation: `messages[3].timestamp: "1700000000" is not an ISO 8601 date-time ...` */
  issues: string[];
  /** Unknown extra fields, allowed for forward compatibility: `messages[0].score: unknown field` */
  notes: string[];
}

export function formatPath(path: readonly PropertyKey[], root = ''): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function issueMessage(issue: z.core.$ZodIssue & { input?: unknown }): string {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined) return 'is missing (required)';
    const expected = ({ record: 'a JSON object', int: 'an integer' } as Record<string, string>)[issue.expected] ?? issue.expected;
    return `expected ${expected}, got ${describe(issue.input)}`;
  }
  return issue.message;
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, root = ''): Validation<z.infer<S>> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${formatPath(i.path, root)}: ${issueMessage(i)}`);
    return { ok: false, issues, notes: [] };
  }
  return { ok: true, value: parsed.data, issues: [], notes: unknownFields(schema, value, root) };
}

/** Lists fields present in `value` that the schema does not declare, recursively. */
export function unknownFields(schema: z.ZodType, value: unknown, root = '', path: PropertyKey[] = []): string[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownFields(inner.element as z.ZodType, item, root, [...path, i]));
  }
  if (inner instanceof z.ZodObject && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    const notes: string[] = [];
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const field = shape[key];
      if (field === undefined) notes.push(`${formatPath([...path, key], root)}: unknown field (allowed)`);
      else notes.push(...unknownFields(field, child, root, [...path, key]));
    }
    return notes;
  }
  return [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.out as z.ZodType;
    else return s;
  }
}
