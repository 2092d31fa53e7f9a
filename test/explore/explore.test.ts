// tck explore raises no false alarm: on the reference server and on every valid variant (fixed
// seed, 200 sequences) it finds nothing. Its power against stateful faults: faults.test.ts.
import { describe, expect, it } from 'vitest';
import { VARIANTS } from '../harness/valid-variants.js';
import type { VariantOptions } from '../harness/variants.js';
import { exploreVariant } from './faults.js';

describe('tck explore raises no false alarm', () => {
  it.concurrent.each([['the reference server', () => ({})] as [string, () => VariantOptions], ...VARIANTS.map(([name, make]) => [name, make] as [string, () => VariantOptions])])(
    '%s: 200 sequences, nothing found', async (_name, make) => {
      const s = await exploreVariant(make(), { runs: 200, maxSteps: 20 });
      expect(s.failure?.message).toBeUndefined();
      expect(s.runsDone).toBe(200);
    }, 120_000);
});
