// The proof every suite owes: its scenarios pass on the reference server and on every valid
// variant, and each scenario fails on at least one faulty variant with a message naming its rule.
import { describe, expect, it } from 'vitest';
import { runOnVariant, type VariantOptions, type Wrap } from './variants.js';

export type Variant = VariantOptions | Wrap;
/** [scenario id, the fault in words, the faulty variant, the message it must fail with, outcome]. */
export type FaultRow = [id: string, fault: string, variant: Variant, message: RegExp, outcome?: 'failed' | 'error'];
/** [the allowed choice in words, the variant that makes it]. */
export type ValidRow = [choice: string, variant: Variant];

const options = (v: Variant): VariantOptions => (typeof v === 'function' ? { wrap: v } : v);
const unpassed = (results: Awaited<ReturnType<typeof runOnVariant>>) =>
  results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

export function provePower(title: string, ids: readonly string[], faults: readonly FaultRow[], valid: readonly ValidRow[]): void {
  describe(title, () => {
    it('every scenario passes on the reference server', async () => {
      const results = await runOnVariant({}, [...ids]);
      expect(unpassed(results)).toEqual([]);
      expect(results).toHaveLength(ids.length);
    });

    it.each(valid)('every scenario passes when %s (an allowed choice)', async (_choice, variant) => {
      expect(unpassed(await runOnVariant(options(variant), [...ids]))).toEqual([]);
    });

    it('every scenario has at least one fault that it catches', () => {
      expect(ids.filter((id) => !faults.some((f) => f[0] === id))).toEqual([]);
    });

    it.each(faults)('%s fails when %s', async (id, _fault, variant, message, outcome = 'failed') => {
      const [r] = await runOnVariant(options(variant), [id]);
      expect(r, `no result for ${id}`).toBeDefined();
      expect({ outcome: r!.outcome, message: r!.message }).toMatchObject({ outcome, message: expect.stringMatching(message) });
    });
  });
}
