// Vitest config of the hosted mutation run only (stryker.hosted.config.mjs): the hosted profile's
// scenarios against the in-process hosted reference service, nothing else.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/mutation/hosted.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One module graph for every mutant run: Stryker activates a mutant at run time (mutation
    // switching), so the kit's modules need not be imported again for each one; with isolation each
    // run spent about 5 s re-importing the suites before its first scenario.
    isolate: false,
  },
});
