import { describe, expect, it } from 'vitest';
import { InvalidHeaderError, makeScrubber, parseHeaderArgs, redactHeaders, splitHeaderEnv } from '../../src/profiles/bridge/index.js';

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('parseHeaderArgs', () => {
  it('parses Name: value, lowercases names, trims, later wins', () => {
    expect(parseHeaderArgs(['Authorization: Bearer abc:def ', 'X-Tenant:t1', 'x-tenant: t2'])).toEqual({
      authorization: 'Bearer abc:def',
      'x-tenant': 't2',
    });
  });

  it('rejects malformed entries without echoing the value', () => {
    const cases: Array<[string, string]> = [
      ['Bearer supersecret', 'header #1 is malformed: expected "Name: value" (no colon found)'],
      [': supersecret', 'header #1 is malformed: empty name before the colon'],
      ['Bad Name: supersecret', 'header #1 is malformed: the name before the colon is not a valid HTTP header name'],
      ['X-Key:   ', 'header #1 (x-key) has an empty value'],
      ['X-Key: supersecret\r\nInjected: 1', 'header #1 (x-key) has control characters in its value'],
      ['Content-Type: text/plain', 'header #1 (content-type) cannot be set: the bridge client manages it'],
    ];
    for (const [arg, message] of cases) {
      const e = errorOf(() => parseHeaderArgs([arg]));
      expect(e).toBeInstanceOf(InvalidHeaderError);
      expect(e.message).toBe(message);
      expect(e.message).not.toContain('supersecret');
    }
  });

  it('numbers the offending entry', () => {
    expect(errorOf(() => parseHeaderArgs(['A: 1', 'oops'])).message).toMatch(/^header #2 /);
  });
});

describe('splitHeaderEnv', () => {
  it('splits TCK_HEADERS on newlines and ;;', () => {
    expect(splitHeaderEnv('Authorization: Bearer a;b;;X-A: 1\nX-B: 2\r\n\n')).toEqual([
      'Authorization: Bearer a;b',
      'X-A: 1',
      'X-B: 2',
    ]);
    expect(splitHeaderEnv(undefined)).toEqual([]);
    expect(splitHeaderEnv('  ')).toEqual([]);
  });
});

describe('redaction', () => {
  it('redactHeaders maps every value to ***', () => {
    expect(redactHeaders({ authorization: 'Bearer x', 'x-a': 'y' })).toEqual({ authorization: '***', 'x-a': '***' });
  });

  it('makeScrubber removes whole values and bare credentials', () => {
    const scrub = makeScrubber({ authorization: 'Bearer tok-123456', 'x-short': 'ab' })!;
    expect(scrub('got Bearer tok-123456 and tok-123456')).toBe('got *** and ***');
    expect(scrub('ab stays')).toBe('ab stays');
    expect(makeScrubber({})).toBeUndefined();
  });
});
