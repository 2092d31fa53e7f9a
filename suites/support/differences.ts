// Where two values part, for failure messages: two texts (the first differing character) and two
// JSON values (the first differing path), worded either as expected/got or as before/after.
import { isDeepStrictEqual } from 'node:util';
import { show } from '../../src/engine/assert.js';
import { isJsonObject as isObj } from '../../src/util/json.js';
import { citing, type Cites } from './cite.js';

/** Exact string equality; on a difference the message says where the texts part. `cites`: what it enforces (default: the scenario's clauses). */
export function sameText(actual: unknown, expected: string, what: string, cites?: Cites): void {
  const check = citing(cites);
  if (actual === expected || typeof actual !== 'string') return check.equal(actual, expected, what);
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  const at = (s: string) => JSON.stringify(s.slice(i, i + 24));
  check.equal(
    actual,
    expected,
    `${what} (expected ${expected.length} chars, got ${actual.length}; first difference at char ${i}: expected ${at(expected)}, got ${at(actual)})`,
  );
}

interface Difference {
  /** `metadata.nested.level1`, `[2].content`; '' for the whole value. */
  path: string;
  a: unknown;
  b: unknown;
  /** Which side lacks the key at `path` (only for a key of two objects). */
  absent?: 'a' | 'b';
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The first place at which `a` and `b` differ (arrays of different lengths differ as a whole). */
function differenceAt(a: unknown, b: unknown, path: string): Difference | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = differenceAt(a[i], b[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
  }
  if (isObj(a) && isObj(b)) {
    for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (a[key] === undefined && b[key] === undefined) continue; // no difference JSON could show
      if (!(key in a)) return { path: join(path, key), a: undefined, b: b[key], absent: 'a' };
      if (!(key in b)) return { path: join(path, key), a: a[key], b: undefined, absent: 'b' };
      const d = differenceAt(a[key], b[key], join(path, key));
      if (d !== undefined) return d;
    }
  }
  return { path, a, b };
}

/** Exact JSON equality (check.equal on the whole value); the message names the first difference. */
export function sameJson(actual: unknown, expected: unknown, what: string, cites?: Cites, path = 'metadata'): void {
  const d = differenceAt(actual, expected, path);
  const where =
    d === undefined ? undefined
    : d.absent === 'a' ? `${d.path} missing`
    : d.absent === 'b' ? `${d.path} not expected`
    : `${d.path}: expected ${show(d.b, 80)}, got ${show(d.a, 80)}`;
  citing(cites).equal(actual, expected, where === undefined ? what : `${what} (${where})`);
}

/**
 * Where two JSON values first differ, as `path: before … after` (for messages about data that
 * should not have changed); undefined when they are equal.
 */
export function firstDifference(before: unknown, after: unknown): string | undefined {
  // Compared as (after, before) so that the keys of `before` are visited first.
  const d = differenceAt(after, before, '');
  if (d === undefined) return undefined;
  const [was, is] = [d.b, d.a];
  const here = d.path === '' ? '(the whole value)' : d.path;
  if (Array.isArray(was) && Array.isArray(is)) return `${here}: ${was.length} item(s) before, ${is.length} after`;
  const text = (v: unknown) => (v === undefined ? 'absent' : show(v, 120));
  return `${here}: ${text(was)} before, ${text(is)} after`;
}
