import { describe, expect, it } from 'vitest';
import { check, instant } from '../../src/engine/assert.js';
import { AssertionFailure } from '../../src/engine/faults.js';
import { expectedActualDiff } from '../../src/report/render/text.js';

describe('instant', () => {
  it('reads every timestamp form the data model accepts as the same instant', () => {
    const ms = Date.parse('2026-01-02T03:04:05.500Z');
    for (const ts of ['2026-01-02T03:04:05.500Z', '2026-01-02t03:04:05.5z', '2026-01-02T03:04:05,5Z', '2026-01-02T05:04:05.5+02:00']) {
      expect(instant(ts), ts).toBe(ms);
    }
  });
  it('is NaN for what is not a timestamp', () => expect(instant('yesterday')).toBeNaN());
});

describe('what a failure records for the diff box', () => {
  const failure = (fn: () => void): AssertionFailure => {
    try {
      fn();
    } catch (err) {
      if (err instanceof AssertionFailure) return err;
      throw err;
    }
    throw new Error('no failure');
  };

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
