// Figures for issue 34, item 4: would a short seeded exploration in `tck run` (or `tck certify`)
// pay? For every fault of the explore catalogues (faults.ts, faults-22.ts, platinum-faults.ts) and
// the matrix's faulty variants (test/suites/variants/matrix.ts): whether a fixed scenario catches
// it (caughtBy, measured in faults.test.ts), and after how many sequences a seeded exploration
// first finds it (seeds 1, 2, 3; at most CAP sequences), beside what N sequences cost on the
// reference. Opt-in (TCK_MEASURE=1: a few minutes on two cores); it prints the table and asserts nothing
// beyond the exploration of the reference finding nothing.
import { describe, expect, it } from 'vitest';
import { FAULTS as CATALOGUE } from './faults.js';
import { exploreVariant } from './faults.js';
import { FAULTS as MATRIX_ROWS } from '../suites/variants/matrix.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import type { VariantOptions } from '../harness/variants.js';

const MEASURE = process.env.TCK_MEASURE === '1';
const CAP = Number(process.env.TCK_GATE_CAP ?? 100);
const SEEDS = [1, 2, 3];
const BUDGETS = [10, 30, 60, 100].filter((n) => n <= CAP);
/** TCK_GATE_CLASSES=1: the same with `--classes` (src/explore/classes.ts). */
const CLASSES = process.env.TCK_GATE_CLASSES === '1';

interface Row { name: string; fixed: boolean; platinum: boolean; firstFound: (number | undefined)[] }

const asOptions = (v: unknown): VariantOptions => (typeof v === 'function' ? { wrap: v as VariantOptions['wrap'] } : (v as VariantOptions));
/** TCK_GATE_ONLY=<regex>: only the subjects whose name it matches (a reduced run). */
const ONLY = process.env.TCK_GATE_ONLY === undefined ? undefined : new RegExp(process.env.TCK_GATE_ONLY);
const subjects = [
  ...CATALOGUE.map((f) => ({ name: f.name, make: f.make, fixed: (f.caughtBy ?? []).length > 0, platinum: f.platinum === true })),
  ...MATRIX_ROWS.map(([id, name, variant]) => ({ name: `matrix: ${name}`, make: () => asOptions(variant), fixed: true, platinum: false, id })),
].filter((s) => ONLY === undefined || ONLY.test(s.name));

describe.skipIf(!MEASURE)('a short seeded exploration as part of the gate: figures', () => {
  const rows: Row[] = [];

  it('what N sequences cost on the reference (Platinum store)', async () => {
    for (const runs of BUDGETS) {
      const started = Date.now();
      const s = await exploreVariant({ store: new HostedStore() }, { seed: 1, runs, timeBudgetMs: 600_000, classes: CLASSES });
      expect(s.findings ?? []).toEqual([]);
      process.stdout.write(`gate | reference | ${runs} sequences | ${s.operations} operations | ${Date.now() - started} ms\n`);
    }
  }, 600_000);

  it.concurrent.each(subjects.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    const firstFound: (number | undefined)[] = [];
    for (const seed of SEEDS) {
      const found = (await exploreVariant(s.make(), { seed, runs: CAP, timeBudgetMs: 600_000, firstOnly: true, classes: CLASSES })).findings?.[0];
      firstFound.push(found?.foundAfter.runs);
    }
    rows.push({ name: s.name, fixed: s.fixed, platinum: s.platinum, firstFound });
    process.stdout.write(`gate | ${s.name} | fixed ${s.fixed ? 'yes' : 'no'} | first found after ${firstFound.map((r) => r ?? `>${CAP}`).join(' / ')} sequences (seeds ${SEEDS.join(', ')})\n`);
  }, 1_800_000);

  it('summary', () => {
    for (const budget of BUDGETS) {
      for (const seed of SEEDS) {
        const i = SEEDS.indexOf(seed);
        const found = rows.filter((r) => (r.firstFound[i] ?? Infinity) <= budget);
        const onlyExplore = found.filter((r) => !r.fixed);
        process.stdout.write(`gate summary${CLASSES ? ' (--classes)' : ''} | ${budget} sequences | seed ${seed} | found ${found.length}/${rows.length} | of the ${rows.filter((r) => !r.fixed).length} no fixed scenario catches: ${onlyExplore.length} (bridge ${onlyExplore.filter((r) => !r.platinum).length}, Platinum ${onlyExplore.filter((r) => r.platinum).length})\n`);
      }
    }
  });
});
