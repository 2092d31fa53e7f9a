// Vitest config of the Platinum mutation run only (stryker.platinum.config.mjs): every bridge
// scenario, Platinum included, against the hosted store in process.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/mutation/platinum.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One module graph for every mutant run: Stryker activates a mutant at run time (mutation
    // switching), so the kit's modules need not be imported again for each one; with isolation each
    // run spent about 5 s re-importing the suites before its first scenario.
    isolate: false,
  },
});
