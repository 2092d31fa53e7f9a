// Assertion helpers for scenario bodies. Every failure message says what was checked, what was
// expected and what came back; the runner attaches the HTTP exchanges that show it.
import { isDeepStrictEqual } from 'node:util';
import { isIsoDateTime } from '../util/iso.js';
import { AssertionFailure, LATEST_CALL } from './faults.js';

export function show(value: unknown, max = 300): string {
  if (value === undefined) return 'undefined';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 3)}... (${text.length} chars)` : text;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The assertion helpers. No `asserts` signatures: scenarios destructure `{ check }`, and TypeScript
 * only honours assertion signatures on explicitly annotated names. */
/** What a failure carries besides its message; `clause` prefixes the message ("HOSTED-AUTH-3: …")
 * for scenarios that check several clauses and must say which one broke. */
export interface Detail {
  expected?: unknown;
  actual?: unknown;
  clause?: string;
  /** The statuses the scenario's latest call should have answered with (repro scripts check them). */
  status?: number[];
}

export interface Check {
  ok(condition: unknown, message: string, detail?: Detail): void;
  /** Fails unconditionally (for a failure found by code the other checks do not cover). */
  fail(message: string, detail?: Detail): never;
  equal(actual: unknown, expected: unknown, what: string): void;
  notEqual(actual: unknown, unexpected: unknown, what: string): void;
  length(list: readonly unknown[], n: number, what: string): void;
  atMost(list: readonly unknown[], n: number, what: string): void;
  nonEmpty(list: readonly unknown[], what: string): void;
  empty(list: readonly unknown[], what: string): void;
  some<T>(list: readonly T[], predicate: (item: T) => boolean, what: string): T;
  /** `why(item)` says what makes the item found unwanted ("belongs to session b, not a"). */
  none<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): void;
  /** `why(item)` says why an item does not qualify, naming the field and its value against the one expected. */
  every<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): void;
  uuid(value: unknown, what: string): void;
  timestamp(value: unknown, what: string): void;
  distinct(values: readonly unknown[], what: string): void;
  /** The value is neither null nor undefined; returns it, narrowed. */
  present<T>(value: T, what: string): NonNullable<T>;
}

export const check: Check = {
  /** `condition` holds; otherwise fail with `message`. */
  ok(condition, message, detail) {
    if (!condition) check.fail(message, detail);
  },

  fail(message, detail) {
    const failure = new AssertionFailure(detail?.clause === undefined ? message : `${detail.clause}: ${message}`, detail?.expected, detail?.actual);
    if (detail?.status) failure.judged = { exchange: LATEST_CALL, status: detail.status };
    throw failure;
  },

  /** Deep, exact equality (JSON values: key order ignored, array order kept). */
  equal(actual, expected, what) {
    if (!isDeepStrictEqual(actual, expected)) {
      throw new AssertionFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`, expected, actual);
    }
  },

  notEqual(actual: unknown, unexpected: unknown, what: string): void {
    if (isDeepStrictEqual(actual, unexpected)) {
      throw new AssertionFailure(`${what}: expected a value other than ${show(unexpected)}`, undefined, actual);
    }
  },

  length(list: readonly unknown[], n: number, what: string): void {
    if (list.length !== n) {
      throw new AssertionFailure(`${what}: expected ${n} item(s), got ${list.length}: ${show(list)}`, n, list.length);
    }
  },

  atMost(list: readonly unknown[], n: number, what: string): void {
    if (list.length > n) {
      throw new AssertionFailure(`${what}: expected at most ${n} item(s), got ${list.length}`, `<= ${n}`, list.length);
    }
  },

  nonEmpty(list: readonly unknown[], what: string): void {
    if (list.length === 0) throw new AssertionFailure(`${what}: expected at least one item, got []`, undefined, []);
  },

  empty(list: readonly unknown[], what: string): void {
    if (list.length !== 0) throw new AssertionFailure(`${what}: expected [], got ${list.length} item(s): ${show(list)}`, [], list);
  },

  /** Some item of `list` satisfies `predicate`. */
  some<T>(list: readonly T[], predicate: (item: T) => boolean, what: string): T {
    const found = list.find(predicate);
    if (found === undefined) throw new AssertionFailure(`${what}: no such item among ${list.length}: ${show(list)}`, undefined, list);
    return found;
  },

  /** No item of `list` satisfies `predicate`. */
  none<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): void {
    const found = list.find(predicate);
    if (found !== undefined) throw new AssertionFailure(`${what}: ${why ? why(found) : `unexpected item ${show(found)}`}`, undefined, found);
  },

  /** Every item of `list` satisfies `predicate`. */
  every<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): void {
    const bad = list.find((item) => !predicate(item));
    if (bad !== undefined) throw new AssertionFailure(`${what}: ${why ? why(bad) : `item ${show(bad)} does not qualify`}`, undefined, bad);
  },

  uuid(value: unknown, what: string): void {
    if (typeof value !== 'string' || !UUID.test(value)) {
      throw new AssertionFailure(`${what}: expected a UUID string, got ${show(value)}`, 'UUID', value);
    }
  },

  /** A present (non-null) ISO 8601 timestamp. */
  timestamp(value: unknown, what: string): void {
    if (typeof value !== 'string' || !isIsoDateTime(value)) {
      throw new AssertionFailure(`${what}: expected an ISO 8601 date-time, got ${show(value)}`, 'ISO 8601 date-time', value);
    }
  },

  /** All values are distinct. */
  present(value, what) {
    if (value === null || value === undefined) {
      throw new AssertionFailure(`${what}: expected a value, got ${value === null ? 'null' : 'nothing'}`, 'a value', value);
    }
    return value;
  },

  distinct(values: readonly unknown[], what: string): void {
    const seen = new Set<string>();
    for (const v of values) {
      const key = show(v, Infinity);
      if (seen.has(key)) throw new AssertionFailure(`${what}: ${key} occurs more than once in ${show(values)}`, undefined, values);
      seen.add(key);
    }
  },
};

/** Milliseconds since the epoch of a validated ISO timestamp (NaN otherwise). The model allows a
 * decimal comma, which Date.parse does not read; it reads lowercase `t`/`z` as they are. */
export function instant(timestamp: string): number {
  return Date.parse(timestamp.replace(',', '.'));
}
