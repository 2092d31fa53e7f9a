// The proof every suite owes: its scenarios pass on the reference server and on every valid
// variant, and each scenario fails on at least one faulty variant with a message naming its rule.
// provePowerWith is the same proof for any profile: it takes how to run scenarios on a variant.
// The ids each proof covers come from the suites themselves (POWER_PARTS), so a scenario added to a
// suite joins a proof, which fails until a faulty variant catches it; test/suites/power-coverage.test.ts
// checks across every proof that no scenario of the kit is left out.
import { describe, expect, it } from 'vitest';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { scenarios as bronzeFidelity } from '../../suites/bronze/history-fidelity.js';
import { scenarios as silverFidelity } from '../../suites/silver/fidelity.js';
import { scenarios as goldFidelity } from '../../suites/gold/fidelity.js';
import { HISTORIES_2 } from '../suites/variants/histories-2-ids.js';
import { runOnVariant, type VariantOptions, type Wrap } from './variants.js';

/** The Bronze groups of part A (the data model, add_message, get_conversation); the other Bronze groups are part B. */
const BRONZE_A_GROUPS = new Set(['data-model', 'add_message', 'get_conversation']);
const idsOf = (list: readonly { id: string }[]) => list.map((s) => s.id);
/** The fidelity scenarios of each tier (history, truncation, case-folding …): proven together in fidelity.test.ts. */
const FIDELITY = new Set(idsOf([...bronzeFidelity, ...silverFidelity, ...goldFidelity]));
/** The concurrency scenarios of each tier (calls sent at once): proven together in concurrency.test.ts, by racing servers. */
const CONCURRENT = new Set(idsOf(ALL_SCENARIOS.filter((s) => s.group === 'concurrency')));
/** The read → write → read, namesake, limit × filter and graph-shape scenarios of issue 34 (the histories-2.ts file of each tier): proven in histories-2.test.ts. */
const HISTORIES = new Set(HISTORIES_2);
const tiered = ALL_SCENARIOS.filter((s) => !FIDELITY.has(s.id) && !CONCURRENT.has(s.id) && !HISTORIES.has(s.id));

/** The scenario ids of each power proof, by tier (Bronze in two parts) and profile. */
export const POWER_PARTS = {
  'bronze-a': idsOf(tiered.filter((s) => s.tier === 'bronze' && BRONZE_A_GROUPS.has(s.group))),
  'bronze-b': idsOf(tiered.filter((s) => s.tier === 'bronze' && !BRONZE_A_GROUPS.has(s.group))),
  silver: idsOf(tiered.filter((s) => s.tier === 'silver')),
  gold: idsOf(tiered.filter((s) => s.tier === 'gold')),
  fidelity: [...FIDELITY],
  concurrency: [...CONCURRENT],
  'histories-2': [...HISTORIES],
  platinum: idsOf(tiered.filter((s) => s.tier === 'platinum')),
  hosted: idsOf(HOSTED_SCENARIOS),
} as const satisfies Record<string, readonly string[]>;
export type PowerPart = keyof typeof POWER_PARTS;

export type Variant = VariantOptions | Wrap;
/** [scenario id, the fault in words, the faulty variant, the message it must fail with, outcome]. */
export type FaultRow<V = Variant> = [id: string, fault: string, variant: V, message: RegExp, outcome?: 'failed' | 'error'];
/** [the allowed choice in words, the variant that makes it]. */
export type ValidRow<V = Variant> = [choice: string, variant: V];
/** Runs scenarios on a variant (undefined: the reference) and resolves to their results. */
type VariantRunner<V> = (variant: V | undefined, ids: string[]) => Promise<{ id: string; outcome: string; message?: string | undefined; cites?: string[] | undefined }[]>;

const options = (v: Variant): VariantOptions => (typeof v === 'function' ? { wrap: v } : v);
const unpassed = (results: Awaited<ReturnType<VariantRunner<unknown>>>) =>
  results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

/** The bridge suites' proof: besides the message, every failure cites the sentences it enforces (never an advisory). */
export function provePower(title: string, ids: readonly string[], faults: readonly FaultRow[], valid: readonly ValidRow[]): void {
  provePowerWith(title, ids, faults, valid, (v, list) => runOnVariant(v === undefined ? {} : options(v), list), { requireCites: true });
}

export function provePowerWith<V>(
  title: string,
  ids: readonly string[],
  faults: readonly FaultRow<V>[],
  valid: readonly ValidRow<V>[],
  runOn: VariantRunner<V>,
  opts: { requireCites?: boolean } = {},
): void {
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
      if (opts.requireCites) {
        // The failure names the sentence it enforces (issue 21): a vendor can look it up; an advisory never fails a run.
        expect(r!.cites ?? [], `${id}: the failure cites no sentence`).not.toEqual([]);
        expect((r!.cites ?? []).filter((c) => c.startsWith('ADV-')), `${id}: an advisory failed the scenario`).toEqual([]);
      }
    });
  });
}
