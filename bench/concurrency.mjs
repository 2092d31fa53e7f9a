// The cost of `tck explore --concurrency` (issue 35), in a process of its own; called by
// bench/run.mjs with one JSON argument, prints one JSON line:
// - the explorer against the reference server (tck serve's store, in this process): histories per
//   second and model steps per history, 16 clients of 4 calls each, a fixed seed;
// - the linearizability search alone on its worst case: k list appends at once, then a read that
//   shows them in the order the depth-first search tries last, for growing k: model steps and time,
//   which grow as k! until the bound (200 000 steps) cuts the search off ("unknown", never a finding).
//   {"histories":40,"seed":7}
import { exploreConcurrently } from '../dist/src/explore/concurrent.js';
import { linearize } from '../dist/src/explore/linearize.js';
import { startReferenceServer } from '../dist/src/servers/bridge/index.js';
import { HostedStore } from '../dist/src/servers/hosted/store.js';

const config = JSON.parse(process.argv[2] ?? '{}');
const server = await startReferenceServer({ store: new HostedStore() });
let explorer;
try {
  const t0 = performance.now();
  const r = await exploreConcurrently({ url: server.url, concurrency: 16, callsPerClient: 4, runs: config.histories ?? 40, seed: config.seed ?? 7 });
  const ms = performance.now() - t0;
  explorer = { clients: 16, callsPerClient: 4, histories: r.runs, ms, historiesPerSecond: r.runs / (ms / 1000), stepsPerHistory: r.steps / r.runs, undecided: r.undecided, found: r.finding !== undefined };
} finally {
  await server.close();
}

const listModel = {
  init: () => [],
  key: (s) => s.join(','),
  step: (s, call, answer) => ('add' in call ? { ok: true, next: [...s, call.add] } : JSON.stringify(answer) === JSON.stringify(s) ? { ok: true, next: s } : { ok: false, why: 'read' }),
};
const worst = [];
for (const k of [4, 5, 6, 7, 8, 9]) {
  const adds = Array.from({ length: k }, (_, i) => ({ client: i, call: { add: String(i) }, answer: null, invokedMs: 0, answeredMs: 10 }));
  const read = { client: 0, call: { read: true }, answer: adds.map((a) => a.call.add).reverse(), invokedMs: 11, answeredMs: 12 };
  const t0 = performance.now();
  const v = linearize([...adds, read], listModel);
  worst.push({ concurrentWrites: k, verdict: v.kind, steps: v.steps, ms: performance.now() - t0 });
}
process.stdout.write(`${JSON.stringify({ explorer, worst })}\n`);
