// The proof every suite owes: its scenarios pass on the reference server and on every valid
// variant, and each scenario fails on at least one faulty variant with a message naming its rule.
// provePowerWith is the same proof for any profile: it takes how to run scenarios on a variant.
import { describe, expect, it } from 'vitest';
import { runOnVariant, type VariantOptions, type Wrap } from './variants.js';

export type Variant = VariantOptions | Wrap;
/** [scenario id, the fault in words, the faulty variant, the message it must fail with, outcome]. */
export type FaultRow<V = Variant> = [id: string, fault: string, variant: V, message: RegExp, outcome?: 'failed' | 'error'];
/** [the allowed choice in words, the variant that makes it]. */
export type ValidRow<V = Variant> = [choice: string, variant: V];
/** Runs scenarios on a variant (undefined: the reference) and resolves to their results. */
type VariantRunner<V> = (variant: V | undefined, ids: string[]) => Promise<{ id: string; outcome: string; message?: string | undefined }[]>;

const options = (v: Variant): VariantOptions => (typeof v === 'function' ? { wrap: v } : v);
const unpassed = (results: Awaited<ReturnType<VariantRunner<unknown>>>) =>
  results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

export function provePower(title: string, ids: readonly string[], faults: readonly FaultRow[], valid: readonly ValidRow[]): void {
  provePowerWith(title, ids, faults, valid, (v, list) => runOnVariant(v === undefined ? {} : options(v), list));
}

export function provePowerWith<V>(title: string, ids: readonly string[], faults: readonly FaultRow<V>[], valid: readonly ValidRow<V>[], runOn: VariantRunner<V>): void {
  describe(title, () => {
    it('every scenario passes on the reference server', async () => {
      const results = await runOn(undefined, [...ids]);
      expect(unpassed(results)).toEqual([]);
      expect(results).toHaveLength(ids.length);
    });

    it.each(valid)('every scenario passes when %s (an allowed choice)', async (_choice, variant) => {
      expect(unpassed(await runOn(variant, [...ids]))).toEqual([]);
    });

    it('every scenario has at least one fault that it catches', () => {
      expect(ids.filter((id) => !faults.some((f) => f[0] === id))).toEqual([]);
    });

    it.each(faults)('%s fails when %s', async (id, _fault, variant, message, outcome = 'failed') => {
      const [r] = await runOn(variant, [id]);
      expect(r, `no result for ${id}`).toBeDefined();
      expect({ outcome: r!.outcome, message: r!.message }).toMatchObject({ outcome, message: expect.stringMatching(message) });
    });
  });
}
