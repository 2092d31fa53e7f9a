import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files whose cost is a search budget or a full run of every valid server, not whether a rule
 * holds: what tck explore finds (every fault of the stateful catalogue within 1 000 sequences, what
 * each fixed scenario catches of it, the servers valid for their own part only), that it finds
 * nothing on each of the 100-odd valid servers (no-false-alarm), and that every valid variant of
 * the harness reaches Gold, or Platinum, with every scenario passing (valid-variants-reach; the
 * last two were a fifth of the quick project's CPU). `npm run test:deep` runs them, and CI runs it
 * after `npm test` (.ci/run). What stays in "quick" of the last two: each valid variant really differs from the
 * reference, every silent point names one (test/suites/valid-variants.test.ts), and the list of
 * servers explore is held silent on holds every valid server (test/explore/readings.test.ts).
 */
const DEEP = [
  'test/explore/faults.test.ts',
  'test/explore/platinum-found.test.ts',
  'test/explore/part-only.test.ts',
  'test/explore/no-false-alarm.test.ts',
  'test/explore/hosted-found.test.ts',
  'test/suites/valid-variants-reach.test.ts',
  'test/independent/gate.test.ts',
  'test/independent/first-contact.test.ts',
  'test/hosted/values-independent.test.ts',
  'test/suites/concurrency-sequential.test.ts',
  // The GitHub Action's install step in a fresh copy: a minute of npm installing (needs the registry).
  'test/cli/action-install.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two workers at least: vitest's default (one fewer than the cores) runs every file one after
    // the other on a 2-core machine, while much of the suite waits on processes it spawned and
    // servers it talks to.
    maxWorkers: Math.max(2, availableParallelism()),
    // Test files share their worker's module graph instead of importing the kit anew for each
    // file: a third of the suite's CPU (README, "Performance"). Files keep what they set up to
    // themselves (servers on port 0, temporary directories, environment restored after each
    // test); test/explore/ and the files that spawn the CLI do not depend on module state.
    isolate: false,
    // `npm test` runs "quick" (every other file); `npm run test:deep` runs "deep"; `vitest run`
    // with no --project runs both.
    projects: [
      { extends: true, test: { name: 'quick', include: ['test/**/*.test.ts', 'src/**/*.test.ts'], exclude: DEEP } },
      { extends: true, test: { name: 'deep', include: DEEP } },
    ],
  },
});
