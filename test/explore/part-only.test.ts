// The valid rows a suite proves valid against its own part only (PART_ONLY of valid-servers.ts:
// each breaks a rule another part checks): tck explore finds what each breaks, within the default
// budget of up to three seeds. A measurement of explore's power whose cost is its search budget, so
// it runs in `npm run test:deep` (CI runs it after `npm test`); no-false-alarm.test.ts holds the
// other valid servers to finding nothing.
import { describe, expect, it } from 'vitest';
import { PART_ONLY, VALID_SERVERS } from './valid-servers.js';
import { exploreVariant } from './faults.js';

describe('tck explore on the servers valid for their own part only', () => {
  it.concurrent.each(Object.entries(PART_ONLY))('%s is valid for its own part only: explore finds what it breaks', async (name, { breaks }) => {
    const server = VALID_SERVERS.find((s) => s.name === name)!;
    // Explore is a search: what it finds depends on the sequences a seed draws. Up to three seeds of
    // the default 1 000 sequences each (seed 1 alone missed the merge defect after 1 000).
    let found = 0;
    for (let seed = 1; seed <= 3 && found === 0; seed++) {
      const s = await exploreVariant(server.make(), { seed, runs: 1_000, timeBudgetMs: 600_000 });
      found = s.findings?.length ?? 0;
    }
    expect(found, breaks).toBeGreaterThan(0);
  }, 600_000);
});
