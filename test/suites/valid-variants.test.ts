// Valid variants: servers that make another choice the protocol allows (bridge-protocol.md and the
// silent points of src/engine/DESIGN.md) must still reach Gold with every scenario of the kit
// passing. A failure here means a scenario is stricter than the protocol: it names the variant,
// the scenario and the message.
import { describe, expect, it } from 'vitest';
import { gradeVariant, runOnVariant } from '../harness/variants.js';
import { SILENT_POINTS } from '../../src/engine/silent-points.js';
import { PLATINUM_VARIANTS, VARIANTS, httpProbe, platinumProbe, probe, uuidV7 } from '../harness/valid-variants.js';
import { grade } from '../../src/engine/grading.js';
import { selectScenarios } from '../../src/engine/select.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';

describe('valid variants of the reference server', () => {
  it('uuidV7 makes version-7 UUIDs', () => {
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the reference itself makes none of these choices', async () => {
    const reference = await probe({});
    const wire = await httpProbe({});
    expect(VARIANTS.filter(([, , differs]) => differs(reference, wire)).map(([name]) => name)).toEqual([]);
  });

  it.each(VARIANTS)('really differs from the reference: %s', async (_name, make, differs) => {
    expect(differs(await probe(make()), await httpProbe(make()))).toBe(true);
  });

  it('every silent point names a valid variant of the harness (whose Gold run is the test below)', () => {
    const names = new Set([...VARIANTS, ...PLATINUM_VARIANTS].map(([name]) => name));
    const broken = SILENT_POINTS.filter((p) => p.variant.file !== 'test/harness/valid-variants.ts' || !names.has(p.variant.name));
    expect(broken.map((p) => `${p.id}: ${p.variant.file} / ${p.variant.name}`)).toEqual([]);
    expect(new Set(SILENT_POINTS.map((p) => p.id)).size).toBe(SILENT_POINTS.length);
  });

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

  it('the reference itself makes none of these choices', async () => {
    const reference = await platinumProbe({ store: new HostedStore() });
    expect(PLATINUM_VARIANTS.filter(([, , differs]) => differs(reference)).map(([name]) => name)).toEqual([]);
  });

  it.each(PLATINUM_VARIANTS)('really differs from the reference: %s', async (_name, make, differs) => {
    expect(differs(await platinumProbe(make()))).toBe(true);
  });

  it.concurrent.each(PLATINUM_VARIANTS)('reaches Platinum with every scenario passing: %s', async (_name, make) => {
    const results = await runOnVariant(make(), everyTier);
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`)).toEqual([]);
    expect(grade(results).achieved).toBe('platinum');
  }, 120_000);
});
