// `tck explore`'s throughput (issue 26), in a process of its own; called by bench/run.mjs with one
// JSON argument, prints one JSON line. Explore runs a fixed number of sequences from a fixed seed
// against bench/server.mjs --hosted (the store `tck serve` serves, with counting ids, so the same
// seed sends the same requests); every request it sends is recorded, and the bare loop of
// bench/lib.mjs replays them against the same server, reset. Run and replay alternate; the ratio
// is the median of each run over the replay next to it. Then the same exploration against
// `tck serve` itself gives operations per second as a user sees them.
//   {"reps":5,"warmup":1,"runs":150,"seed":7}
import { explore } from '../dist/src/explore/run.js';
import { median, replay, spawnServer, statusMismatches } from './lib.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const reps = config.reps ?? 5;
const warmup = config.warmup ?? 1;
const options = { seed: config.seed ?? 7, runs: config.runs ?? 150, timeBudgetMs: 600_000 };

const floor = await spawnServer(['bench/server.mjs', '--hosted']);
const runs = [];
const replays = [];
let operations = 0;
let requests = 0;
let mismatches = 0;
let findings = 0;
try {
  for (let i = 0; i < reps + warmup; i++) {
    await floor.reset();
    const sequence = [];
    const t0 = performance.now();
    const section = await explore({ url: floor.url, ...options, onExchange: (ex) => sequence.push({ path: new URL(ex.url).pathname, body: JSON.stringify(ex.requestBody), status: ex.status }) });
    const ms = performance.now() - t0;
    await floor.reset();
    const r = await replay(floor.url, sequence);
    mismatches += statusMismatches(sequence, r.statuses).length;
    if (i >= warmup) {
      runs.push(ms);
      replays.push(r.ms);
    }
    operations = section.operations;
    requests = sequence.length;
    findings = section.findings.length;
  }
} finally {
  await floor.close();
}

// As a user has it: the same exploration against `tck serve` (random ids, HostedStore).
const serve = await spawnServer(['bin/tck.js', 'serve', '--port', '0']);
const served = [];
try {
  for (let i = 0; i < Math.max(1, Math.ceil(reps / 2)); i++) {
    const s = await explore({ url: serve.url, ...options });
    served.push(s.opsPerSecond);
  }
} finally {
  await serve.close();
}

process.stdout.write(`${JSON.stringify({
  operations, requests, findings, runMs: runs, replayMs: replays,
  ratio: median(runs.map((x, i) => x / replays[i])),
  opsPerSecond: Math.round(operations / (median(runs) / 1000)),
  replayRequestsPerSecond: Math.round(requests / (median(replays) / 1000)),
  tckServeOpsPerSecond: median(served),
  replayStatusMismatches: mismatches,
})}\n`);
