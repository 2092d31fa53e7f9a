// tck explore raises no false alarm: on the embedded reference and on every valid server of the
// harness (the harness's valid variants, at least three readings of every silent point, and the
// valid rows of the suites' variant tables, Platinum ones included) it finds nothing, from three
// seeds. The rows a suite proves valid against its own part only (PART_ONLY: each breaks a rule
// another part checks) are held to the opposite in part-only.test.ts. A deterministic
// sample (a fixed number of sequences per seed, never a wall-clock budget); the closing report's
// figures come from longer runs. Its cost is an exploration of each of more than a hundred servers,
// so it runs in `npm run test:deep`, which CI runs after `npm test`; that the list holds every
// valid server is checked in npm test (readings.test.ts).
import { describe, expect, it } from 'vitest';
import { HELD_SILENT } from './valid-servers.js';
import { exploreVariant } from './faults.js';

// npm run test:deep: each server from one seed (1, 2, 3 in turn), 10 sequences; TCK_EXPLORE_FULL=1:
// every server from all three seeds, 40 sequences each (about half an hour on two cores).
const FULL = process.env.TCK_EXPLORE_FULL === '1';
const SEEDS = [1, 2, 3];
const RUNS = FULL ? 40 : 10;
const seedsOf = (i: number) => (FULL ? SEEDS : [SEEDS[i % SEEDS.length]!]);

describe('tck explore raises no false alarm', () => {
  it.concurrent.each(HELD_SILENT.map((s, i) => [s.name, s, i] as const))('%s: nothing found', async (_name, server, i) => {
    for (const seed of seedsOf(i)) {
      const s = await exploreVariant(server.make(), { seed, runs: RUNS, timeBudgetMs: 600_000 });
      expect(s.findings?.map((f) => `${f.rule}: ${f.message}`), `seed ${seed}`).toEqual([]);
      expect(s.runsDone).toBe(RUNS);
    }
  }, 600_000);
});

// tck explore --classes (src/explore/classes.ts, the value classes of docs/coverage.md): the same
// servers, each from one seed, 8 sequences (TCK_EXPLORE_FULL=1: every seed, 20). Measured when it
// was added: nothing found on any of the 138.
const CLASS_RUNS = FULL ? 20 : 8;
describe('tck explore --classes raises no false alarm', () => {
  it.concurrent.each(HELD_SILENT.map((s, i) => [s.name, s, i] as const))('%s: nothing found', async (_name, server, i) => {
    for (const seed of seedsOf(i)) {
      const s = await exploreVariant(server.make(), { seed, runs: CLASS_RUNS, timeBudgetMs: 600_000, classes: true });
      expect(s.findings?.map((f) => `${f.rule}: ${f.message}`), `seed ${seed}`).toEqual([]);
      expect(s.runsDone).toBe(CLASS_RUNS);
    }
  }, 600_000);
});
