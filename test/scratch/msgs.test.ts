import { it } from 'vitest';
import { runOnVariant } from '../harness/variants.js';
import { FAULTS } from '../suites/variants/concurrency.js';
it('msgs', async () => {
  for (const [id, fault, v] of FAULTS) {
    const [r] = await runOnVariant(v as any, [id]);
    console.log(`${id} | ${fault}\n   => ${r!.outcome}: ${r!.message?.slice(0, 400)} [${r!.cites}]`);
  }
}, 120000);
