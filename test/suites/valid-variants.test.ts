// Valid variants: servers that make another choice the protocol allows (bridge-protocol.md and the
// silent points of src/engine/DESIGN.md) must still reach Gold with every scenario of the kit
// passing. A failure here means a scenario is stricter than the protocol: it names the variant,
// the scenario and the message.
import { describe, expect, it } from 'vitest';
import { gradeVariant } from '../harness/variants.js';
import { VARIANTS, probe, uuidV7 } from '../harness/valid-variants.js';

describe('valid variants of the reference server', () => {
  it('uuidV7 makes version-7 UUIDs', () => {
    expect(uuidV7()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('the reference itself makes none of these choices', async () => {
    const reference = await probe({});
    expect(VARIANTS.filter(([, , differs]) => differs(reference)).map(([name]) => name)).toEqual([]);
  });

  it.each(VARIANTS)('really differs from the reference: %s', async (_name, make, differs) => {
    expect(differs(await probe(make()))).toBe(true);
  });

  it.concurrent.each(VARIANTS)('reaches Gold with every scenario passing: %s', async (_name, make) => {
    const { results, grade } = await gradeVariant(make());
    const failing = results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);
    expect(failing).toEqual([]);
    expect(grade.achieved).toBe('gold');
  }, 60_000);
});
