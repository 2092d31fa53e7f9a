// The stateful faults of faults.ts (and faults-22.ts, platinum-faults.ts): which fixed scenarios
// catch each one is measured here, not assumed (a fault a fixed scenario catches does not count
// towards "faults only explore finds"). Explore's power against them: explore-power.test.ts.
import { describe, expect, it } from 'vitest';
import { runOnVariant } from '../harness/variants.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { FAULTS } from './faults.js';

const EVERY_TIER = ALL_SCENARIOS.map((s) => s.id);

describe('the stateful faults explore is measured against', () => {
  it.concurrent.each(FAULTS.map((f) => [f.name, f] as const))('%s: no fixed scenario fails but the ones listed', async (_name, f) => {
    // Platinum faults face every tier (a Platinum run); the others the default run (Bronze–Gold).
    const results = await runOnVariant(f.make(), f.platinum ? EVERY_TIER : undefined);
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => r.id)).toEqual(f.caughtBy ?? []);
  }, 120_000);

  it('at least ten bridge faults and five Platinum faults no fixed scenario catches, each citing what it breaks', () => {
    const unseen = FAULTS.filter((f) => (f.caughtBy ?? []).length === 0);
    expect(unseen.filter((f) => !f.platinum).length).toBeGreaterThanOrEqual(10);
    expect(unseen.filter((f) => f.platinum).length).toBeGreaterThanOrEqual(5);
    expect(FAULTS.filter((f) => f.breaks.length === 0).map((f) => f.name)).toEqual([]);
  });
});
