// Valid variants reach the top tier: every server of the harness that makes another choice the
// protocol allows (bridge-protocol.md and the silent points of src/engine/DESIGN.md) reaches Gold
// with every scenario of the kit passing, and every Platinum one reaches Platinum. A failure here
// means a scenario is stricter than the protocol: it names the variant, the scenario and the message.
// Its cost is a full run per variant (about a seventh of the quick project's CPU, measured), so it runs in
// `npm run test:deep`, which CI runs after `npm test`; valid-variants.test.ts (npm test) checks
// that each variant really differs from the reference and that every silent point names one.
import { describe, expect, it } from 'vitest';
import { gradeVariant, runOnVariant } from '../harness/variants.js';
import { PLATINUM_VARIANTS, VARIANTS } from '../harness/valid-variants.js';
import { grade } from '../../src/engine/grading.js';
import { selectScenarios } from '../../src/engine/select.js';
import { ALL_SCENARIOS } from '../../suites/index.js';

describe('valid variants of the reference server', () => {
  it.concurrent.each(VARIANTS)('reaches Gold with every scenario passing: %s', async (_name, make) => {
    const { results, grade } = await gradeVariant(make());
    const failing = results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);
    expect(failing).toEqual([]);
    expect(grade.achieved).toBe('gold');
  }, 60_000);
});

// Platinum (issue 23): the points Volume 5 leaves open, each read differently from the reference by a
// variant that must reach Platinum with every scenario of every tier passing.
describe('valid variants of the Platinum points', () => {
  const everyTier = selectScenarios(ALL_SCENARIOS, { tier: 'platinum' }).map((s) => s.id);

  it.concurrent.each(PLATINUM_VARIANTS)('reaches Platinum with every scenario passing: %s', async (_name, make) => {
    const results = await runOnVariant(make(), everyTier);
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`)).toEqual([]);
    expect(grade(results).achieved).toBe('platinum');
  }, 120_000);
});
