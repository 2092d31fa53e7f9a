// Mutation testing of the hosted reference service's credential and resource code with the hosted
// profile's scenarios as the tests (`npm run mutation:hosted`; `npm run mutation` runs every config
// in turn; not part of `npm test`). Survivors are triaged in docs/mutation-triage.md ("The hosted
// reference service"); the marks in the mutated files follow test/mutation/marks.test.ts.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.hosted.config.ts', related: false },
  mutate: ['src/servers/hosted/credentials.ts', 'src/servers/hosted/oauth.ts', 'src/servers/hosted/http.ts', 'src/servers/hosted/routes.ts'],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 15_000,
  thresholds: { high: 90, low: 80, break: null },
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/hosted.json' },
  htmlReporter: { fileName: 'reports/mutation/hosted.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
