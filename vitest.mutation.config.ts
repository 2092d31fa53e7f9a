// Vitest config of mutation testing only (stryker.config.mjs): the conformance scenarios against
// the in-process reference server, nothing else (tests that spawn dist/ cannot see mutants).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/mutation/reference.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
