// Issue 24, item 11: a text cut for display never ends in half a character — a baseline's reason,
// an evidence body, a snippet of an answer, a clipped message — whatever the server sent (emoji,
// CJK, accents straddle every limit sooner or later).
import { describe, expect, it } from 'vitest';
import { baselineFrom } from '../../src/report/baseline.js';
import { displayText } from '../../src/engine/evidence.js';
import { capText } from '../../src/engine/bounds.js';
import { snippet } from '../../src/profiles/bridge/classify.js';
import { clip } from '../../src/report/render/text.js';
import { cutAt } from '../../src/util/words.js';
import type { Report } from '../../src/report/model.js';

/** A lone UTF-16 surrogate (half of an emoji), or U+FFFD (half of a UTF-8 sequence decoded). */
const HALF = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\ufffd/;
/** `n` characters of ASCII, then emoji: every odd limit past n falls inside one. */
const text = (n: number) => `${'x'.repeat(n)}${'😀'.repeat(50)}`;

describe('cuts fall between characters', () => {
  it('cutAt backs off a surrogate pair', () => {
    expect(cutAt(text(3), 4)).toBe('xxx');
    expect(cutAt(text(3), 5)).toBe('xxx😀');
  });

  it('a baseline reason written from a failure message', () => {
    const report = { endedAt: '', kit: { name: 'k', version: '1' }, target: { url: 'u' }, scenarios: [{ id: 'SCN-B-001', outcome: 'failed', title: 't', message: text(221) }] } as unknown as Report;
    const reason = baselineFrom(report).scenarios[0]!.reason;
    expect(reason).not.toMatch(HALF);
    expect(reason.length).toBeLessThanOrEqual('failed: '.length + 240);
  });

  it('an evidence body cut at its byte cap (a multi-byte character at the cap)', () => {
    const body = `${'a'.repeat(9)}é${'ü'.repeat(10)}`;
    const shown = displayText(Buffer.from(body), body, 10);
    expect(shown).not.toMatch(HALF);
    expect(shown).toMatch(/^a{9}…\[truncated: \d+ more bytes\]$/);
  });

  it.each([
    ['snippet of an answer', () => snippet(text(79))],
    ['a clipped message', () => clip(text(99), 100)],
    ['a capped result text', () => capText(text(99), 100)],
  ])('%s', (_name, cut) => {
    expect(cut()).not.toMatch(HALF);
  });
});
