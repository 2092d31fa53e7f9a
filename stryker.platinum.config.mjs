// Mutation testing of the Platinum implementation (issue 23): the hosted store (the code behind the
// 22 Platinum bridge methods and its overrides of the core ones) and the Cypher console, with every
// bridge scenario of the kit, Platinum included, as the tests (`npm run mutation:platinum`; `npm run
// mutation` runs every stryker*.config.mjs in turn). Survivors are triaged in docs/mutation-triage.md
// ("The Platinum run"). Methods only the hosted REST routes call are left out (the hosted suites,
// not the bridge scenarios, are their tests); their line ranges are found by name below, so the
// ranges follow the file as it changes.
import { readFileSync } from 'node:fs';

const STORE = 'src/servers/hosted/store.ts';
/**
 * HostedStore methods that only src/servers/hosted/routes.ts calls (no Platinum bridge method reaches
 * them), and snapshot(), which no protocol method reads (tests and explore do).
 */
const REST_ONLY = ['conversation', 'searchMessages', 'history', 'entityWithRelationships', 'searchEntities', 'recordToolCall', 'traceOfConversation', 'snapshot'];

/** `file:a-b` ranges covering the whole file but the methods named (each with its doc comment). */
function without(file, names) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const spans = [];
  lines.forEach((line, i) => {
    const m = /^ {2}(?:(?:override|protected|private|public|static|async)\s+)*(\w+)\(/.exec(line);
    if (m === null || !names.includes(m[1]) || spans.some(([a, b]) => i + 1 >= a && i + 1 <= b)) return;
    let start = i;
    while (start > 0 && /^\s*(\/\*\*|\*)/.test(lines[start - 1])) start--;
    let end = i;
    while (end < lines.length && lines[end] !== '  }') end++;
    spans.push([start + 1, end + 1]);
  });
  if (spans.length !== names.length) throw new Error(`stryker.platinum.config.mjs: found ${spans.length} of the ${names.length} REST-only methods of ${file}`);
  const ranges = [];
  let from = 1;
  for (const [a, b] of spans.sort((x, y) => x[0] - y[0])) {
    if (a > from) ranges.push(`${file}:${from}-${a - 1}`);
    from = b + 1;
  }
  ranges.push(`${file}:${from}-${lines.length}`);
  return ranges;
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.platinum.config.ts', related: false },
  mutate: [...without(STORE, REST_ONLY), 'src/servers/hosted/query.ts'],
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 80, break: null },
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/platinum.json' },
  htmlReporter: { fileName: 'reports/mutation/platinum.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
