// The relevance scoring of the reference server (src/servers/bridge/search.ts), directly.
import { describe, expect, it } from 'vitest';
import { fieldTokens, rank, score, similarity, tokenize } from '../../src/servers/bridge/index.js';

describe('tokenize', () => {
  it('lower-cases and splits on anything but letters, marks and digits (Unicode-aware)', () => {
    expect([...tokenize('Hello, WORLD! 42 times... foo_bar-baz')]).toEqual(['hello', 'world', '42', 'times', 'foo', 'bar', 'baz']);
    expect([...tokenize('Ünïcödé naïve café 東京 Straße')]).toEqual(['ünïcödé', 'naïve', 'café', '東京', 'straße']);
    expect([...tokenize('ｆｕｌｌｗｉｄｔｈ')]).toEqual(['fullwidth']); // NFKC
    expect([...tokenize('cafe\u0301')]).toEqual(['café']); // combining mark kept (and composed)
    expect(tokenize('  ...!!! ').size).toBe(0);
    expect([...tokenize('a a A')]).toEqual(['a']);
  });
});

describe('similarity', () => {
  it('is the cosine of binary token vectors, 1 for equal sets, 0 for disjoint or empty', () => {
    const t = tokenize;
    expect(similarity(t('book a flight'), t('Flight: book a!'))).toBe(1);
    expect(similarity(t('python'), t('zebra'))).toBe(0);
    expect(similarity(t(''), t('x'))).toBe(0);
    expect(similarity(t('a b'), t('a c'))).toBeCloseTo(0.5);
    expect(similarity(t('a'), t('a b c d'))).toBeCloseTo(0.5);
    for (let n = 1; n < 200; n++) {
      const words = Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
      expect(similarity(t(words), t(words))).toBe(1);
    }
  });

  it('score takes the best of the fields and of all fields joined', () => {
    const q = tokenize('acme rockets');
    // name {acme}: 1/√2 ≈ 0.71 beats all joined {acme, makes, rockets, and, anvils}: 2/√10 ≈ 0.63.
    expect(score(q, fieldTokens(['Acme', 'makes rockets and anvils']))).toBeCloseTo(1 / Math.sqrt(2));
    expect(score(tokenize('acme rockets anvils'), fieldTokens(['Acme', 'makes rockets and anvils']))).toBeCloseTo(3 / Math.sqrt(15));
    expect(score(tokenize('acme'), fieldTokens(['Acme', 'a very long description of the company']))).toBe(1);
    expect(score(q, fieldTokens([null, undefined, '']))).toBe(0);
  });
});

describe('rank', () => {
  const docs = ['red apple', 'green apple pie', 'apple', 'blue sky', 'apple red'];
  const run = (query: string, options = {}) => rank(query, docs, (d) => fieldTokens([d]), options).map((h) => h.item);

  it('keeps score > 0 only, best first, ties in insertion order', () => {
    expect(run('apple')).toEqual(['apple', 'red apple', 'apple red', 'green apple pie']);
    expect(run('red apple')).toEqual(['red apple', 'apple red', 'apple', 'green apple pie']);
    expect(run('banana')).toEqual([]);
    expect(run('')).toEqual([]);
  });

  it('honours threshold and limit', () => {
    expect(run('apple', { threshold: 0.99 })).toEqual(['apple']);
    expect(run('apple', { threshold: 0.7 })).toEqual(['apple', 'red apple', 'apple red']);
    expect(run('apple', { threshold: 0 })).toHaveLength(4);
    expect(run('banana', { threshold: 0 })).toEqual([]);
    expect(run('apple', { limit: 2 })).toEqual(['apple', 'red apple']);
    expect(run('apple', { limit: 0 })).toEqual([]);
    expect(run('apple', { limit: 2, threshold: 0.99 })).toEqual(['apple']);
  });
});
