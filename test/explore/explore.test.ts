// tck explore, proven both ways: no alarm on the reference server and on every valid variant
// (fixed seed, 200 sequences), and each stateful fault that no fixed scenario catches is found
// within the default time budget and shrunk to at most 6 steps. Seeds are fixed: CI is
// deterministic; the figures (steps to find, shrunk length, time) are printed, never asserted.
import { describe, expect, it } from 'vitest';
import { explore, type ExploreOptions } from '../../src/explore/run.js';
import type { ExploreSection } from '../../src/report/model.js';
import { VARIANTS } from '../harness/valid-variants.js';
import { runOnVariant, withVariant, type VariantOptions } from '../harness/variants.js';
import { FAULTS } from './faults.js';

const SEED = 20_240_615;
const run = (variant: VariantOptions, options: Partial<ExploreOptions> = {}): Promise<ExploreSection> =>
  withVariant(variant, (url) => explore({ url, seed: SEED, requestTimeoutMs: 5_000, ...options }));

describe('tck explore raises no false alarm', () => {
  it.concurrent.each([['the reference server', () => ({})] as [string, () => VariantOptions], ...VARIANTS.map(([name, make]) => [name, make] as [string, () => VariantOptions])])(
    '%s: 200 sequences, nothing found', async (_name, make) => {
      const s = await run(make(), { runs: 200, maxSteps: 20 });
      expect(s.failure?.message).toBeUndefined();
      expect(s.runsDone).toBe(200);
    }, 120_000);
});

describe('tck explore finds stateful faults no fixed scenario catches', () => {
  it.concurrent.each(FAULTS)('%s: every fixed scenario passes', async (_name, make) => {
    const results = await runOnVariant(make());
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.message}`)).toEqual([]);
  }, 120_000);

  it.each(FAULTS)('%s: explore finds it, shrunk to at most 6 steps', async (name, make, methods) => {
    const s = await run(make(), { runs: 1000, ...(methods ? { methods } : {}) });
    const f = s.failure;
    expect(f, `${name}: nothing found in ${s.runsDone} sequences`).toBeDefined();
    process.stdout.write(`explore | ${name} | found after ${f!.foundAfter.operations} operations (${f!.foundAfter.runs} sequences, ${f!.foundAfter.ms} ms) | shrunk ${f!.originalLength} -> ${f!.steps.length} steps | total ${s.durationMs} ms | ${f!.message.slice(0, 120)}\n`);
    expect(f!.steps.length).toBeLessThanOrEqual(6);
  }, 120_000);
});
