// Vitest config of the hosted mutation run only (stryker.hosted.config.mjs): the hosted profile's
// scenarios against the in-process hosted reference service, nothing else.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/mutation/hosted.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
