// The catalogue of faulty Platinum variants (variants/platinum-catalogue.ts), two ways:
// - always: it is complete (a fault for every Volume 5 sentence and every Platinum method), and the
//   faults no scenario catches are exactly the ones listed below (each caught one is run, against
//   the scenario that catches it, by the power proof of platinum.test.ts);
// - `npm run measure:platinum` (TCK_MEASURE=1): every Platinum scenario against every fault, and
//   the figures by section (how many faults the suite catches), printed.
import { describe, expect, it } from 'vitest';
import { platinum } from '../../suites/platinum/index.js';
import { VOLUME5_CLAUSES } from '../../suites/platinum/clauses.js';
import { PLATINUM_METHODS } from '../../src/protocols/bridge/index.js';
import { CATALOGUE, SECTIONS } from './variants/platinum-catalogue.js';
import { run } from './variants/platinum-base.js';

/**
 * Faults no Platinum scenario catches. When the catalogue was written (before the scenarios of issue
 * 23) the suite caught 16 of 66: conversation lifecycle 6/16, context 1/8, entities 4/19,
 * provenance 3/13, Cypher 2/10 (commit 79d57f6 lists the 50 it missed). Now it catches all 66, and the 5
 * added from mutation survivors (PF-C17, PF-E20, PF-Q11, PF-Q12, PF-Q13): 71; and the 5 from the mutation
 * run of the console's parser and runQuery (the 9 of PF-Q14 … PF-Q22, caught by SCN-P-124): 80; and the 5 from the mutation run of the
 * store's operations (part D: PF-C18, PF-C19, PF-X09, PF-E21, PF-E22, caught by SCN-P-125, SCN-P-002, SCN-P-114, SCN-P-126): 85.
 */
const NOT_CAUGHT: readonly string[] = [];

describe('the catalogue of faulty Platinum variants', () => {
  it('has a fault for every sentence of Volume 5 and for every Platinum method', () => {
    const sentences = new Set(CATALOGUE.flatMap((f) => f.sentences));
    const clauses = VOLUME5_CLAUSES.flatMap((c) => (c.clause === 'SPEC-V5-5.3.1' || c.clause === 'SPEC-V5-5.5.1' ? [`${c.clause}a`, `${c.clause}b`] : [c.clause]));
    expect(clauses.filter((c) => !sentences.has(c))).toEqual([]);
    const methods = new Set(CATALOGUE.map((f) => f.method));
    expect(PLATINUM_METHODS.filter((m) => !methods.has(m))).toEqual([]);
    expect(new Set(CATALOGUE.map((f) => f.id)).size).toBe(CATALOGUE.length);
  });

  it('the faults no scenario catches are the ones listed', () => {
    expect(CATALOGUE.filter((f) => f.caught === undefined).map((f) => f.id)).toEqual(NOT_CAUGHT);
  });
});

describe.runIf(process.env.TCK_MEASURE === '1')('measure: every Platinum scenario against every fault', () => {
  const ids = platinum.map((x) => x.id);
  const found = new Map<string, string[]>();
  const messages = new Map<string, string>();

  it.concurrent.each(CATALOGUE.map((f) => [f.id, f] as const))('%s', async (_id, f) => {
    const results = await run(f.variant, ids);
    const failing = results.filter((r) => r.outcome !== 'passed');
    found.set(f.id, failing.map((r) => r.id));
    if (failing[0] !== undefined) messages.set(f.id, `${failing[0].id}: ${failing[0].message}`);
  }, 120_000);

  it('prints the figures', () => {
    const rows = SECTIONS.map((section) => {
      const all = CATALOGUE.filter((f) => f.section === section);
      const caught = all.filter((f) => (found.get(f.id) ?? []).length > 0);
      return `| ${section} | ${caught.length}/${all.length} | ${all.filter((f) => !caught.includes(f)).map((f) => f.id).join(', ')} |`;
    });
    const total = CATALOGUE.filter((f) => (found.get(f.id) ?? []).length > 0).length;
    const detail = CATALOGUE.map((f) => `${f.id} ${(found.get(f.id) ?? []).join(' ') || '(not caught)'}  ${f.fault}${messages.has(f.id) ? `\n    ${messages.get(f.id)!.slice(0, 300)}` : ''}`);
    console.log(['| section | caught | not caught |', '|---|---|---|', ...rows, `| all | ${total}/${CATALOGUE.length} | |`, '', ...detail].join('\n'));
    expect(found.size).toBe(CATALOGUE.length);
  });
});
