// Valid variants: servers that make another choice the protocol allows (bridge-protocol.md and the
// silent points of src/engine/DESIGN.md). Here (npm test): each really makes its choice, the
// reference makes none of them, and every silent point names one. That each reaches Gold (Platinum)
// with every scenario passing is valid-variants-reach.test.ts, in `npm run test:deep` (CI runs both).
import { describe, expect, it } from 'vitest';
import { SILENT_POINTS } from '../../src/engine/silent-points.js';
import { PLATINUM_VARIANTS, VARIANTS, httpProbe, platinumProbe, probe, uuidV7 } from '../harness/valid-variants.js';
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

  it('every silent point names a valid variant of the harness (whose Gold run is valid-variants-reach.test.ts)', () => {
    const names = new Set([...VARIANTS, ...PLATINUM_VARIANTS].map(([name]) => name));
    const broken = SILENT_POINTS.filter((p) => p.variant.file !== 'test/harness/valid-variants.ts' || !names.has(p.variant.name));
    expect(broken.map((p) => `${p.id}: ${p.variant.file} / ${p.variant.name}`)).toEqual([]);
    expect(new Set(SILENT_POINTS.map((p) => p.id)).size).toBe(SILENT_POINTS.length);
  });
});

// Platinum (issue 23): the points Volume 5 leaves open, each read differently from the reference.
describe('valid variants of the Platinum points', () => {
  it('the reference itself makes none of these choices', async () => {
    const reference = await platinumProbe({ store: new HostedStore() });
    expect(PLATINUM_VARIANTS.filter(([, , differs]) => differs(reference)).map(([name]) => name)).toEqual([]);
  });

  it.each(PLATINUM_VARIANTS)('really differs from the reference: %s', async (_name, make, differs) => {
    expect(differs(await platinumProbe(make()))).toBe(true);
  });
});
