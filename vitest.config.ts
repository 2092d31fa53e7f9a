import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
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
  },
});
