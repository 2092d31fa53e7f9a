// Assertion helpers for scenario bodies. Every failure message says what was checked, what was
// expected and what came back; the runner attaches the HTTP exchanges that show it.
//
// Every assertion cites what it enforces (issue 21, "cite the sentence"):
//   check.by('SPEC-2.2.1').equal(…)     enforces that sentence of the clause map (src/protocols/clauses/);
//   check.equal(…)                      enforces the scenario's own clauses (its `clauses` field);
//   check.advise('ADV-refuse-missing-param').ok(…)
//                                       the kit's own reading, which no sentence states: an ADVISORY.
// An advisory that does not hold is recorded and the scenario goes on (its checks return false);
// it never fails a scenario or a tier, unless the run asks for it (--advisories=fail).
//
// Which scenario an assertion belongs to is carried by AsyncLocalStorage (the runner opens an
// AssertionLog around each scenario body), so the `check` that suites import and `ctx.check` are
// the same object and every assertion is counted and cited, whichever a body uses.
import { AsyncLocalStorage } from 'node:async_hooks';
import { isDeepStrictEqual } from 'node:util';
import { isIsoDateTime } from '../util/iso.js';
import { AssertionFailure, LATEST_CALL } from './faults.js';
import type { AdvisoryMode, AdvisoryNote, AssertionRecord } from './result.js';

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

/** An advisory's id: ADV-<kebab-case name> (the table is src/protocols/clauses/advisories.ts). */
const isAdvisoryId = (id: string): boolean => /^ADV-[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id);

/** What a failure carries besides its message; `clause` cites the sentence this one failure breaks
 * (it prefixes the message, "HOSTED-AUTH-3: …", for checks that serve several sentences). */
export interface Detail {
  expected?: unknown;
  actual?: unknown;
  clause?: string;
  /** The statuses the scenario's latest call should have answered with (repro scripts check them). */
  status?: number[];
}

/** The assertion helpers. No `asserts` signatures: scenarios destructure `{ check }`, and TypeScript
 * only honours assertion signatures on explicitly annotated names. */
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
  /** The same checks, citing these sentences of the clause map (SPEC-2.2.1, BRIDGE-RESPONSE-6, …). */
  by(...sentences: string[]): Check;
  /** The same checks as an advisory (ADV-…): the kit's own reading, which never fails a tier. */
  advise(advisory: string): SoftCheck;
}

/**
 * The checks of an advisory: each returns whether it held. One that does not is recorded with its
 * message and the scenario goes on; under --advisories=fail it fails the scenario like any check.
 */
export interface SoftCheck {
  ok(condition: unknown, message: string, detail?: Omit<Detail, 'clause'>): boolean;
  fail(message: string, detail?: Omit<Detail, 'clause'>): false;
  equal(actual: unknown, expected: unknown, what: string): boolean;
  notEqual(actual: unknown, unexpected: unknown, what: string): boolean;
  length(list: readonly unknown[], n: number, what: string): boolean;
  atMost(list: readonly unknown[], n: number, what: string): boolean;
  nonEmpty(list: readonly unknown[], what: string): boolean;
  empty(list: readonly unknown[], what: string): boolean;
  none<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): boolean;
  every<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): boolean;
  uuid(value: unknown, what: string): boolean;
  timestamp(value: unknown, what: string): boolean;
  distinct(values: readonly unknown[], what: string): boolean;
}

/** Assertions a scenario keeps for the clause map (counted past it). */
const MAX_RECORDS = 2_000;
/** Advisories that did not hold a scenario keeps (a loop of them must not swell the report). */
const MAX_ADVISORY_NOTES = 100;

/** The assertions of one scenario: counted, cited, kept (bounded), and its advisories that did not hold. */
export class AssertionLog {
  readonly records: AssertionRecord[] = [];
  readonly advisories: AdvisoryNote[] = [];
  count = 0;
  /** How many of them were advisories. */
  advised = 0;
  constructor(
    /** The scenario's clauses: what an assertion that cites nothing itself enforces. */
    readonly clauses: readonly string[],
    readonly mode: AdvisoryMode = 'report',
  ) {}

  record(entry: AssertionRecord): void {
    this.count++;
    if (entry.advisory) this.advised++;
    if (this.records.length < MAX_RECORDS) this.records.push(entry);
  }
}

const CURRENT = new AsyncLocalStorage<AssertionLog>();

/** Runs `body` with `log` as the scenario's assertion log (the runner, around each scenario). */
export function withAssertionLog<T>(log: AssertionLog, body: () => T): T {
  return CURRENT.run(log, body);
}

/**
 * An assertion a profile makes for every call (a response's status and data model): counted and
 * cited like the body's own. Its failure is thrown by the profile as the fault it is.
 */
export function recordImplicit(cites: readonly string[], what: string, passed: boolean): void {
  CURRENT.getStore()?.record({ cites: [...cites], what, passed });
}

/** What one check found: what it was about, and the failure when it did not hold. */
interface Finding<V = undefined> {
  what: string;
  failure?: AssertionFailure;
  clause?: string;
  value?: V;
}

const held = <V>(what: string, value?: V): Finding<V> => ({ what, ...(value !== undefined ? { value } : {}) });

function failed(message: string, detail?: Detail): Finding {
  const failure = new AssertionFailure(detail?.clause === undefined ? message : `${detail.clause}: ${message}`, detail?.expected, detail?.actual);
  if (detail?.status) failure.judged = { exchange: LATEST_CALL, status: detail.status };
  return { what: message, failure, ...(detail?.clause !== undefined ? { clause: detail.clause } : {}) };
}

const of = (what: string, failure: AssertionFailure | undefined): Finding => (failure === undefined ? held(what) : { what, failure });

// The checks themselves, once: each says what it was about and, when it does not hold, the failure.
const TESTS = {
  ok: (condition: unknown, message: string, detail?: Detail): Finding => (condition ? held(message) : failed(message, detail)),
  fail: (message: string, detail?: Detail): Finding => failed(message, detail),
  /** Deep, exact equality (JSON values: key order ignored, array order kept). */
  equal: (actual: unknown, expected: unknown, what: string): Finding =>
    of(what, isDeepStrictEqual(actual, expected) ? undefined : new AssertionFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`, expected, actual)),
  notEqual: (actual: unknown, unexpected: unknown, what: string): Finding =>
    of(what, isDeepStrictEqual(actual, unexpected) ? new AssertionFailure(`${what}: expected a value other than ${show(unexpected)}`, undefined, actual) : undefined),
  length: (list: readonly unknown[], n: number, what: string): Finding =>
    of(what, list.length !== n ? new AssertionFailure(`${what}: expected ${n} item(s), got ${list.length}: ${show(list)}`, n, list.length) : undefined),
  atMost: (list: readonly unknown[], n: number, what: string): Finding =>
    of(what, list.length > n ? new AssertionFailure(`${what}: expected at most ${n} item(s), got ${list.length}`, `<= ${n}`, list.length) : undefined),
  nonEmpty: (list: readonly unknown[], what: string): Finding =>
    of(what, list.length === 0 ? new AssertionFailure(`${what}: expected at least one item, got []`, undefined, []) : undefined),
  empty: (list: readonly unknown[], what: string): Finding =>
    of(what, list.length !== 0 ? new AssertionFailure(`${what}: expected [], got ${list.length} item(s): ${show(list)}`, [], list) : undefined),
  /** Some item of `list` satisfies `predicate`. */
  some<T>(list: readonly T[], predicate: (item: T) => boolean, what: string): Finding<T> {
    const found = list.find(predicate);
    return found === undefined ? { what, failure: new AssertionFailure(`${what}: no such item among ${list.length}: ${show(list)}`, undefined, list) } : held(what, found);
  },
  /** No item of `list` satisfies `predicate`. */
  none<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): Finding {
    const found = list.find(predicate);
    return of(what, found !== undefined ? new AssertionFailure(`${what}: ${why ? why(found) : `unexpected item ${show(found)}`}`, undefined, found) : undefined);
  },
  /** Every item of `list` satisfies `predicate`. */
  every<T>(list: readonly T[], predicate: (item: T) => boolean, what: string, why?: (item: T) => string): Finding {
    const bad = list.find((item) => !predicate(item));
    return of(what, bad !== undefined ? new AssertionFailure(`${what}: ${why ? why(bad) : `item ${show(bad)} does not qualify`}`, undefined, bad) : undefined);
  },
  uuid: (value: unknown, what: string): Finding =>
    of(what, typeof value !== 'string' || !UUID.test(value) ? new AssertionFailure(`${what}: expected a UUID string, got ${show(value)}`, 'UUID', value) : undefined),
  /** A present (non-null) ISO 8601 timestamp. */
  timestamp: (value: unknown, what: string): Finding =>
    of(what, typeof value !== 'string' || !isIsoDateTime(value) ? new AssertionFailure(`${what}: expected an ISO 8601 date-time, got ${show(value)}`, 'ISO 8601 date-time', value) : undefined),
  /** All values are distinct. */
  distinct(values: readonly unknown[], what: string): Finding {
    const seen = new Set<string>();
    for (const v of values) {
      const key = show(v, Infinity);
      if (seen.has(key)) return { what, failure: new AssertionFailure(`${what}: ${key} occurs more than once in ${show(values)}`, undefined, values) };
      seen.add(key);
    }
    return held(what);
  },
  present<T>(value: T, what: string): Finding<NonNullable<T>> {
    if (value === null || value === undefined) {
      return { what, failure: new AssertionFailure(`${what}: expected a value, got ${value === null ? 'null' : 'nothing'}`, 'a value', value) };
    }
    return held(what, value as NonNullable<T>);
  },
};

/**
 * Records one finding in the scenario's log and settles it: a check that held returns true; a
 * failed check throws its failure, citing what it enforces; a failed advisory (`advisory` set)
 * is noted and returns false, unless the run fails advisories.
 */
function settle(finding: Finding<unknown>, cites: readonly string[], advisory?: string): boolean {
  const log = CURRENT.getStore();
  const own = finding.clause !== undefined ? [finding.clause] : cites;
  const implicit = own.length === 0;
  const cited = implicit ? (log?.clauses ?? []) : own;
  const passed = finding.failure === undefined;
  log?.record({ cites: [...cited], what: finding.what, passed, ...(implicit ? { implicit: true as const } : {}), ...(advisory !== undefined ? { advisory: true as const } : {}) });
  if (passed) return true;
  let failure = finding.failure!;
  if (advisory !== undefined) {
    if (log?.mode !== 'fail') {
      if ((log?.advisories.length ?? 0) < MAX_ADVISORY_NOTES) log?.advisories.push({ id: advisory, message: failure.message, ...(failure.expected !== undefined ? { expected: failure.expected } : {}), ...(failure.actual !== undefined ? { actual: failure.actual } : {}) });
      return false;
    }
    const judged = failure.judged;
    failure = new AssertionFailure(`advisory ${advisory} (--advisories=fail): ${failure.message}`, failure.expected, failure.actual);
    if (judged) failure.judged = judged;
  }
  failure.cites = cited;
  throw failure;
}

/** A Check citing `cites` (none: the scenario's clauses). */
function citing(cites: readonly string[]): Check {
  const hard = <V>(finding: Finding<V>): V => {
    settle(finding, cites);
    return finding.value as V;
  };
  return {
    ok: (condition, message, detail) => void hard(TESTS.ok(condition, message, detail)),
    fail: (message, detail) => {
      hard(TESTS.fail(message, detail));
      throw new Error('unreachable: a failed check throws');
    },
    equal: (actual, expected, what) => void hard(TESTS.equal(actual, expected, what)),
    notEqual: (actual, unexpected, what) => void hard(TESTS.notEqual(actual, unexpected, what)),
    length: (list, n, what) => void hard(TESTS.length(list, n, what)),
    atMost: (list, n, what) => void hard(TESTS.atMost(list, n, what)),
    nonEmpty: (list, what) => void hard(TESTS.nonEmpty(list, what)),
    empty: (list, what) => void hard(TESTS.empty(list, what)),
    some: (list, predicate, what) => hard(TESTS.some(list, predicate, what)),
    none: (list, predicate, what, why) => void hard(TESTS.none(list, predicate, what, why)),
    every: (list, predicate, what, why) => void hard(TESTS.every(list, predicate, what, why)),
    uuid: (value, what) => void hard(TESTS.uuid(value, what)),
    timestamp: (value, what) => void hard(TESTS.timestamp(value, what)),
    distinct: (values, what) => void hard(TESTS.distinct(values, what)),
    present: (value, what) => hard(TESTS.present(value, what)),
    by: (...sentences) => {
      if (sentences.length === 0 || sentences.some((s) => s.trim() === '' || isAdvisoryId(s))) throw new Error(`check.by: name sentence ids of the clause map (advisories go through check.advise), got ${JSON.stringify(sentences)}`);
      return citing(sentences);
    },
    advise: (advisory) => advising(advisory),
  };
}

/** The SoftCheck of one advisory. */
function advising(advisory: string): SoftCheck {
  if (!isAdvisoryId(advisory)) throw new Error(`check.advise: an advisory id is ADV-<kebab-name>, got ${JSON.stringify(advisory)}`);
  const soft = (finding: Finding<unknown>) => settle(finding, [advisory], advisory);
  return {
    ok: (condition, message, detail) => soft(TESTS.ok(condition, message, detail)),
    fail: (message, detail) => soft(TESTS.fail(message, detail)) && false,
    equal: (actual, expected, what) => soft(TESTS.equal(actual, expected, what)),
    notEqual: (actual, unexpected, what) => soft(TESTS.notEqual(actual, unexpected, what)),
    length: (list, n, what) => soft(TESTS.length(list, n, what)),
    atMost: (list, n, what) => soft(TESTS.atMost(list, n, what)),
    nonEmpty: (list, what) => soft(TESTS.nonEmpty(list, what)),
    empty: (list, what) => soft(TESTS.empty(list, what)),
    none: (list, predicate, what, why) => soft(TESTS.none(list, predicate, what, why)),
    every: (list, predicate, what, why) => soft(TESTS.every(list, predicate, what, why)),
    uuid: (value, what) => soft(TESTS.uuid(value, what)),
    timestamp: (value, what) => soft(TESTS.timestamp(value, what)),
    distinct: (values, what) => soft(TESTS.distinct(values, what)),
  };
}

/** The checks of every scenario body: citing the scenario's clauses unless told otherwise (`by`, `advise`). */
export const check: Check = citing([]);

/** Milliseconds since the epoch of a validated ISO timestamp (NaN otherwise). The model allows a
 * decimal comma, which Date.parse does not read; it reads lowercase `t`/`z` as they are. */
export function instant(timestamp: string): number {
  return Date.parse(timestamp.replace(',', '.'));
}
