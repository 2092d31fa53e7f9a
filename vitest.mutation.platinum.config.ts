// Vitest config of the Platinum mutation run only (stryker.platinum.config.mjs): every bridge
// scenario, Platinum included, against the hosted store in process.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/mutation/platinum.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
