// What "tck explore finds a fault" means in the deep tests (faults.test.ts, platinum-found.test.ts):
// from the fault's seed, within 1 000 sequences, the first finding is shrunk to at most 6 commands
// and cites a sentence the fault breaks; an expected miss (`missed`) must stay unfound.
import { describe, expect, it } from 'vitest';
import { SEED_OF, exploreVariant } from './faults.js';
import type { Fault } from './faults-22.js';

export function describeExploreFinds(faults: readonly Fault[]): void {
  describe('tck explore finds them', () => {
    it.concurrent.each(faults.map((f) => [f.name, f] as const))('%s: found, shrunk to at most 6 commands, citing what it breaks', async (name, f) => {
      const s = await exploreVariant(f.make(), { seed: SEED_OF[name] ?? 1, runs: 1_000, timeBudgetMs: 1_800_000, firstOnly: true });
      const found = s.findings?.[0];
      if (f.missed !== undefined) {
        // An expected miss: when explore finds it, this fails, and the entry loses its `missed`.
        expect(found, `${name} is found now (${found?.rule}): remove its missed entry`).toBeUndefined();
        return;
      }
      expect(found, `${name}: nothing found in ${s.runsDone} sequences`).toBeDefined();
      process.stdout.write(`explore | ${name} | ${found!.rule} | found after ${found!.foundAfter.runs} sequences, ${found!.foundAfter.operations} operations, ${found!.foundAfter.ms} ms | shrunk ${found!.originalLength} -> ${found!.steps.length} calls in ${found!.commands} commands | ${found!.message.slice(0, 120)}\n`);
      expect(found!.commands).toBeLessThanOrEqual(6);
      expect(found!.cites.filter((c) => f.breaks.includes(c)), `${name}: ${found!.rule} cites ${found!.cites.join(', ')}`).not.toEqual([]);
    }, 1_800_000);
  });
}
