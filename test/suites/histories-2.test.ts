// Power of the read → write → read, namesake, limit × filter and graph-shape scenarios of issue 34
// (the histories-2.ts file of each tier): each fails a server breaking its one rule (a read cache no
// write invalidates, a case-folding key, a limit before a filter, a walk or a store that mishandles a
// diamond or parallel relationships) with a message naming the method, what was sent and got, and the
// sentence; and each passes the reference and every valid variant of the harness (the silent points
// read otherwise), run on these scenarios only (valid-variants-reach.test.ts runs them all, deep).
import { describe, expect, it } from 'vitest';
import { provePower, provePowerWith } from '../harness/power.js';
import { PLATINUM_VARIANTS, VARIANTS } from '../harness/valid-variants.js';
import { runOnVariant } from '../harness/variants.js';
import { FAULTS, PLATINUM_FAULTS } from './variants/histories-2.js';
import { HISTORIES_2, HISTORIES_2_PLATINUM } from './variants/histories-2-ids.js';
import { run } from './variants/platinum-base.js';
import { VALID as BRONZE_A } from './variants/bronze-a.js';
import { VALID as BRONZE_B } from './variants/bronze-b.js';
import { VALID as SILVER } from './variants/silver.js';
import { VALID as GOLD } from './variants/gold.js';
import { VALID as FIDELITY } from './variants/fidelity.js';
import { VALID as CONCURRENCY } from './variants/concurrency.js';
import { VALID as PLATINUM } from './variants/platinum.js';

const BRIDGE = HISTORIES_2.filter((id) => !HISTORIES_2_PLATINUM.includes(id));

// Each tier's scenarios against the valid rows of that tier's proofs (the allowed choices those suites were proven against:
// a Bronze row may implement Bronze only, a Silver row need not model merges), and the fidelity and concurrency rows (every tier).
const TIERS = [['Bronze', 'SCN-B-', [...BRONZE_A, ...BRONZE_B]], ['Silver', 'SCN-S-', SILVER], ['Gold', 'SCN-G-', GOLD]] as const;
for (const [tier, prefix, valid] of TIERS) {
  const ids = BRIDGE.filter((id) => id.startsWith(prefix));
  provePower(`histories-2: read → write → read, namesakes, limit × filter, graph shapes, values (${tier})`, ids, FAULTS.filter((f) => f[0].startsWith(prefix)), [...valid, ...FIDELITY, ...CONCURRENCY]);
}
provePowerWith('histories-2: read → write → read (Platinum)', HISTORIES_2_PLATINUM, PLATINUM_FAULTS, PLATINUM, run, { requireCites: true });

const unpassed = (results: { id: string; outcome: string; message?: string | undefined }[]) =>
  results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

describe('histories-2 raises no false alarm on a valid variant', () => {
  it.each(VARIANTS.map(([name, make]) => [name, make] as const))('Bronze–Gold scenarios pass: %s', async (_name, make) => {
    expect(unpassed(await runOnVariant(make(), [...BRIDGE]))).toEqual([]);
  }, 60_000);

  it.each(PLATINUM_VARIANTS.map(([name, make]) => [name, make] as const))('every scenario passes on a Platinum variant: %s', async (_name, make) => {
    expect(unpassed(await runOnVariant(make(), [...HISTORIES_2]))).toEqual([]);
  }, 60_000);
});
