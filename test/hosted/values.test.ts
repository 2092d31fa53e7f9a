// The value dimension of the hosted profile (suites/hosted/values.ts, issue 34). Its faulty variants
// (values-variants.ts) join the hosted power proof (profile-power.test.ts, through
// profile-variants.ts), which also runs these scenarios on the reference and on every valid variant
// of the profile. Here: the readings of values the document leaves open, each a valid variant the
// scenarios must pass (with the advisory noted where the variant refuses a class). The independent
// hosted service is run on them in values-independent.test.ts (deep: it needs python3).
import { describe, expect, it } from 'vitest';
import { runOnHostedVariant } from './profile-harness.js';
import { VALID } from './values-variants.js';
import { LENGTHS, STRING_CLASSES, difference, longContent, scenarios } from '../../suites/hosted/values.js';

const IDS = scenarios.map((s) => s.id);
const unpassed = (results: { id: string; outcome: string; message?: string | undefined }[]) => results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

describe('the hosted value scenarios', () => {
  it('are SCN-H-200 … SCN-H-207, in the resources group', () => {
    expect(IDS).toEqual(['SCN-H-200', 'SCN-H-201', 'SCN-H-202', 'SCN-H-203', 'SCN-H-204', 'SCN-H-205', 'SCN-H-206', 'SCN-H-207']);
    expect(new Set(scenarios.map((s) => s.group))).toEqual(new Set(['resources']));
  });

  it.each(VALID)('all pass when %s (an allowed choice)', async (_choice, variant) => {
    expect(unpassed(await runOnHostedVariant(variant, IDS))).toEqual([]);
  });

  it('a refusal of a class no sentence names is an advisory, and fails under --advisories fail', async () => {
    const nul = VALID.find(([choice]) => choice.includes('NUL'))![1];
    const noted = await runOnHostedVariant(nul, ['SCN-H-200', 'SCN-H-203']);
    expect(unpassed(noted)).toEqual([]);
    const strict = await runOnHostedVariant(nul, ['SCN-H-200', 'SCN-H-203'], { advisories: 'fail' });
    expect(strict.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(strict.map((r) => r.message)).toEqual([
      expect.stringMatching(/^advisory ADV-string-class-accepted \(--advisories=fail\): add_message \(POST \/v1\/conversations\/[\w-]+\/messages\) refused content of class "NUL" "tck-value-\w+-00 before\\u0000after": 400 Bad Request/),
      expect.stringMatching(/^advisory ADV-string-class-accepted \(--advisories=fail\): create_conversation \(POST \/v1\/conversations\) refused the userId of class "NUL" .*: 400 Bad Request/),
    ]);
  });
});

describe('the value classes are what they are named', () => {
  const cls = (name: string) => STRING_CLASSES.find((c) => c.name === name)!.make('tck-m');
  it('each sample holds its marker and differs from every other', () => {
    const samples = STRING_CLASSES.map((c) => c.make('tck-m'));
    expect(samples.filter((s) => !s.includes('tck-m'))).toEqual([]);
    expect(new Set(samples).size).toBe(samples.length);
  });

  it('NFD and NFC are two forms of the same words; the compatibility characters change under NFKC only', () => {
    expect(cls('NFD (decomposed)')).not.toBe(cls('NFC (precomposed)'));
    expect(cls('NFD (decomposed)').normalize('NFC')).toBe(cls('NFC (precomposed)'));
    expect(cls('NFC (precomposed)').normalize('NFD')).toBe(cls('NFD (decomposed)'));
    expect(cls('compatibility characters').normalize('NFC')).toBe(cls('compatibility characters'));
    expect(cls('compatibility characters').normalize('NFKC')).not.toBe(cls('compatibility characters'));
  });

  it('the control classes hold NUL, C0, DEL and C1; the whitespace class starts and ends with it; the astral class leaves the BMP', () => {
    expect(cls('NUL')).toContain('\u0000');
    expect(cls('C0 controls, DEL and C1')).toMatch(/\u001b.*\u007f.*\u0085/s);
    expect(cls('leading and trailing whitespace')).not.toBe(cls('leading and trailing whitespace').trim());
    expect([...cls('astral characters')].some((c) => c.codePointAt(0)! > 0xffff)).toBe(true);
  });

  it('long content has exactly the length asked for, a marked end, and multi-byte characters', () => {
    for (const { length } of LENGTHS) {
      const s = longContent('tck-m', length);
      expect([s.length, [...s].length, s.startsWith('tck-m '), s.endsWith('|END')]).toEqual([length, length, true, true]);
      expect(Buffer.byteLength(s)).toBeGreaterThan(length);
    }
  });

  it('a difference names both lengths, the first differing index and the code points there', () => {
    expect(difference('ab\u0000c', 'abc')).toBe('sent 4 characters, read 3 (first difference at index 2: sent U+0000 U+0063, read U+0063) (sent "ab\\u0000c", read "abc")');
    const long = longContent('tck-m', 10_001);
    expect(difference(long, long.slice(0, 10_000))).toBe('sent 10001 characters, read 10000 (first difference at index 10000: sent U+0044, read the end)');
  });
});
