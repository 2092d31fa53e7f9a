// tck explore finds the stateful faults of faults.ts that the fixed scenarios did not anticipate:
// each within explore's defaults (runs, time budget, every method) from a fixed seed, shrunk to at
// most 6 steps. CI is deterministic; the figures (operations and sequences to find, shrunk length,
// time) are printed, never asserted. A file of its own, so vitest runs it beside explore.test.ts.
import { describe, expect, it } from 'vitest';
import { runOnVariant } from '../harness/variants.js';
import { FAULTS, exploreVariant } from './faults.js';

describe('tck explore finds stateful faults the fixed scenarios did not anticipate', () => {
  it.concurrent.each(FAULTS)('%s: no fixed scenario fails but the ones listed', async (_name, make, caughtBy = []) => {
    const results = await runOnVariant(make());
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => r.id)).toEqual(caughtBy);
  }, 120_000);

  it('at least ten of them no fixed scenario catches', () => {
    expect(FAULTS.filter((f) => f[2] === undefined).length).toBeGreaterThanOrEqual(10);
  });

  // One at a time: the time budget is wall-clock time, which concurrent runs would share.
  it.each(FAULTS)('%s: explore finds it with its defaults, shrunk to at most 6 steps', async (name, make) => {
    const s = await exploreVariant(make());
    const f = s.failure;
    expect(f, `${name}: nothing found in ${s.runsDone} sequences`).toBeDefined();
    process.stdout.write(`explore | ${name} | found after ${f!.foundAfter.operations} operations (${f!.foundAfter.runs} sequences, ${f!.foundAfter.ms} ms) | shrunk ${f!.originalLength} -> ${f!.steps.length} steps | total ${s.durationMs} ms | ${f!.message.slice(0, 120)}\n`);
    expect(f!.steps.length).toBeLessThanOrEqual(6);
  }, 120_000);
});
