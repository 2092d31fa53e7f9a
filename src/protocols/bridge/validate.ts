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

/**
 * How many issues (and notes) one answer's judgement words at most: past it, one line says how
 * many more there were. A large answer that is wrong everywhere costs a bounded report, not one
 * line per element (a million-element answer once made five million lines).
 */
export const MAX_ISSUES = 20;

/** At most `max` lines, the last one counting the rest. */
export function capped(lines: readonly string[], total = lines.length, max = MAX_ISSUES): string[] {
  if (total <= max) return lines.slice();
  return [...lines.slice(0, max), `… and ${total - max} more`];
}

export function validate<S extends z.ZodType>(schema: S, value: unknown, root = ''): Validation<z.infer<S>> {
  // The common case (a valid value) parses without `reportInput`, which costs about as much again
  // as the parse itself; only a failing value is parsed a second time to word its issues.
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const reported = schema.safeParse(value, { reportInput: true });
    const all = (reported.success ? parsed : reported).error.issues;
    const issues = all.slice(0, MAX_ISSUES).map((i) => `${formatPath(i.path, root)}: ${issueMessage(i)}`);
    return { ok: false, issues: capped(issues, all.length), notes: [] };
  }
  const notes = unknownFields(schema, value, root);
  return { ok: true, value: parsed.data, issues: [], notes: capped(notes) };
}

/**
 * Walks a value along its schema and notes the keys the schema does not declare. Built once per
 * schema (see walkerOf) so that a response costs one pass over its own keys.
 */
type Walker = (value: unknown, path: PropertyKey[], root: string, notes: string[]) => void;

/** null: nothing below this schema can carry an unknown field (scalars, records, unknown). */
const walkers = new WeakMap<z.ZodType, Walker | null>();

function walkerOf(schema: z.ZodType): Walker | null {
  let walker = walkers.get(schema);
  if (walker === undefined) {
    walker = buildWalker(unwrap(schema));
    walkers.set(schema, walker);
  }
  return walker;
}

function buildWalker(inner: z.ZodType): Walker | null {
  if (inner instanceof z.ZodArray) {
    const element = walkerOf(inner.element as z.ZodType);
    if (element === null) return null;
    return (value, path, root, notes) => {
      if (!Array.isArray(value)) return;
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        element(value[i], path, root, notes);
        path.pop();
      }
    };
  }
  if (inner instanceof z.ZodObject) {
    const fields = new Map<string, Walker | null>();
    for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) fields.set(key, walkerOf(field));
    return (value, path, root, notes) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
      for (const key of Object.keys(value)) {
        const field = fields.get(key);
        if (field === null) continue;
        path.push(key);
        if (field === undefined) notes.push(`${formatPath(path, root)}: unknown field (allowed)`);
        else field((value as Record<string, unknown>)[key], path, root, notes);
        path.pop();
      }
    };
  }
  return null;
}

/** Lists fields present in `value` that the schema does not declare, recursively. */
export function unknownFields(schema: z.ZodType, value: unknown, root = '', path: PropertyKey[] = []): string[] {
  const walker = walkerOf(schema);
  const notes: string[] = [];
  if (walker !== null) walker(value, [...path], root, notes);
  return notes;
}

/** The schema inside optional, nullable and pipe wrappers (a pipe's output side). */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (;;) {
    if (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
    else if (s instanceof z.ZodPipe) s = s.out as z.ZodType;
    else return s;
  }
}
