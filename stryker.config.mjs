// Mutation testing of the reference bridge server with the conformance suites as the tests
// (`npm run mutation`; not part of `npm test`). Survivors are triaged in docs/mutation-triage.md.
// StrykerJS is pinned to 9.x: 10.x needs Node 22.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  mutate: ['src/servers/bridge/store.ts', 'src/servers/bridge/dispatch.ts', 'src/servers/bridge/request.ts', 'src/servers/bridge/search.ts'],
  ignoreStatic: true,
  // No incremental mode: the scenarios live in suites/, outside the test file Stryker tracks, so
  // its incremental reuse would keep stale verdicts after a scenario changes.
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 80, break: null },
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
