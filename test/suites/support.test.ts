// The wording of the shared checks: a failure names its clause when given one, and the first
// difference of two JSON values is worded as expected/got (sameJson) or before/after
// (firstDifference), from one walk that visits the keys of the reference value first.
import { describe, expect, it } from 'vitest';
import { check } from '../../src/engine/assert.js';
import { AssertionFailure } from '../../src/engine/faults.js';
import { expectedActualDiff } from '../../src/report/render/text.js';
import { firstDifference, sameJson } from '../../suites/support/differences.js';
import { compareInstants } from '../../suites/support/time.js';

const failure = (f: () => void): AssertionFailure => {
  try {
    f();
  } catch (err) {
    if (err instanceof AssertionFailure) return err;
    throw err;
  }
  throw new Error('no failure');
};

describe('check.fail', () => {
  it('prefixes the clause and keeps expected and actual', () => {
    const f = failure(() => check.fail('revocation is immediate: answered 200', { clause: 'HOSTED-AUTH-3', expected: '401 or 403', actual: 200 }));
    expect({ message: f.message, expected: f.expected, actual: f.actual }).toEqual({ message: 'HOSTED-AUTH-3: revocation is immediate: answered 200', expected: '401 or 403', actual: 200 });
  });
  it('check.ok words its failure the same way', () => {
    expect(failure(() => check.ok(false, 'x', { clause: 'C-1' })).message).toBe('C-1: x');
    expect(() => check.ok(true, 'x', { clause: 'C-1' })).not.toThrow();
  });
});

describe('sameJson', () => {
  const message = (actual: unknown, expected: unknown) => failure(() => sameJson(actual, expected, 'add_message: metadata')).message;
  it('names a missing key, an extra key, and a differing value by path', () => {
    expect(message({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toMatch(/\(metadata\.a\.c missing\): expected /);
    expect(message({ a: 1, source: 'api' }, { a: 1 })).toMatch(/\(metadata\.source not expected\): expected /);
    expect(message({ a: [1, 2] }, { a: [1, 3] })).toMatch(/\(metadata\.a\[1\]: expected 3, got 2\): expected /);
  });
  it('words a missing whole value as expected/got, not as a missing key', () => {
    expect(message(undefined, {})).toMatch(/\(metadata: expected \{\}, got undefined\): expected /);
  });
  it('passes equal values', () => expect(() => sameJson({ a: [1, { b: null }] }, { a: [1, { b: null }] }, 'x')).not.toThrow());
});

describe('firstDifference', () => {
  it('is undefined for equal values', () => expect(firstDifference({ a: [1] }, { a: [1] })).toBeUndefined());
  it('words lengths, absent keys and changed values as before/after', () => {
    expect(firstDifference([1, 2], [1])).toBe('(the whole value): 2 item(s) before, 1 after');
    expect(firstDifference({ m: [{ id: 'x' }] }, { m: [{ id: 'x', t: 1 }] })).toBe('m[0].t: absent before, 1 after');
    expect(firstDifference({ a: 1, b: 2 }, { b: 3, a: 0 })).toBe('a: 1 before, 0 after');
  });
});

describe('compareInstants', () => {
  it('compares any zone and any precision as instants', () => {
    expect(compareInstants('2026-01-01T00:00:00.0000001Z', '2026-01-01T01:00:00+01:00')).toBeGreaterThan(0);
    expect(compareInstants('2026-01-01T00:00:00.5Z', '2026-01-01T00:00:00.500000Z')).toBe(0);
  });
});

describe('what a failure records for the diff box', () => {
  it('never a rule in words against a JSON item: only the actual is kept, the message says the rule', () => {
    const f = failure(() => check.fail('result is none of the messages stored', { expected: 'a stored message', actual: { id: 'x' } }));
    expect(f.expected).toBeUndefined();
    expect(f.actual).toEqual({ id: 'x' });
    expect(expectedActualDiff(f)).toBeUndefined();
    for (const fn of [
      () => check.some([{ id: 'a' }], (x) => x.id === 'b', 'the message b'),
      () => check.every([{ id: 'a' }], (x) => x.id === 'b', 'only b'),
      () => check.none([{ id: 'a' }], (x) => x.id === 'a', 'no a'),
      () => check.nonEmpty([], 'results'),
      () => check.distinct(['a', 'a'], 'ids'),
      () => check.ok(false, 'an edge Alice -> Acme', { expected: { source: 'a', target: 'b' }, actual: [{ source: 'b', target: 'a' }] }),
    ]) {
      expect(expectedActualDiff(failure(fn))).toBeUndefined();
    }
  });

  it('keeps an expected value comparable with the actual one', () => {
    expect(failure(() => check.equal([1, 2], [1], 'ids')).expected).toEqual([1]);
    expect(failure(() => check.fail('refused', { expected: '401 or 403', actual: 200 })).expected).toBe('401 or 403');
    expect(expectedActualDiff(failure(() => check.equal({ a: 1 }, { a: 2 }, 'answer')))).toBeDefined();
  });

  it('every and none say why an item does not qualify, when told', () => {
    const f = failure(() => check.every([{ id: 'm1', session: 'b' }], (m) => m.session === 'a', 'search(session_id="a")', (m) => `message ${m.id} belongs to session "${m.session}", not "a"`));
    expect(f.message).toBe('search(session_id="a"): message m1 belongs to session "b", not "a"');
    const g = failure(() => check.none([{ id: 'p1', category: 'tooling' }], (p) => p.category !== 'language', 'category="language"', (p) => `preference ${p.id} has category "${p.category}"`));
    expect(g.message).toBe('category="language": preference p1 has category "tooling"');
  });
});
