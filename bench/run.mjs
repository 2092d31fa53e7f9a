// `npm run bench`: what the kit costs on top of the server it tests (issue 7). Prints a table and
// writes bench/results.json. Needs the built kit (`npm run bench` builds it first).
//
//   1. a full Gold run vs the reference server in-process, and vs `tck serve` in its own process:
//      wall time, requests, requests/s, peak RSS
//   2. the floor: the run's request sequence replayed by a bare loop over one undici keep-alive
//      connection against a fresh reference server; the ratio run / replay
//   3. the same with a server that answers every request 15 ms late
//   4. cold start of `tck --version`, `tck --help`, `tck list` as whole processes, and a full Gold
//      run as a whole process (`node bin/tck.js run --url` against the `tck serve` of 1), as CI
//      pays it: its ratio to the warm run of 1 says what the cold process costs on any machine
//   5. the run and its replay as the server (its own process) holds 0 / 1 000 / 10 000 / 100 000
//      messages that clear_all_data leaves in place
//   6. `tck explore`: operations per second against `tck serve`, and its requests replayed by the
//      bare loop (explore / replay, the figure issue 26 holds to 2)
//   7. `tck explore --concurrency 16`: histories per second and model steps per history, and the
//      linearizability search's worst case for growing numbers of concurrent writes (bench/concurrency.mjs)
//
// Times are medians over repetitions; run and replay alternate within one process, so each ratio
// compares figures taken side by side. `--quick` cuts the repetitions (for a smoke test).
// `--guard` measures only the two ratios that do not depend on the machine (cold whole-process run
// / warm run, run / replay, both against one `tck serve`) and prints them as one JSON line:
// test/bench/guard.test.ts fails on a clear regression of either.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, peakRssKb, spawnServer } from './lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);
const QUICK = process.argv.includes('--quick');
const GUARD = process.argv.includes('--guard');
const reps = (full, quick = 1) => (QUICK ? quick : full);

if (!existsSync('dist/src/run/run.js')) {
  process.stderr.write('bench: the kit is not built; run `npm run bench` (it builds first)\n');
  process.exit(2);
}

const startedAt = Date.now();
const loadBefore = os.loadavg();
const log = (text) => process.stderr.write(`bench: ${text}\n`);

/** Runs bench/worker.mjs with a config; resolves to its JSON result. */
function worker(config) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bench/worker.mjs', JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`worker ${config.mode} exited with ${code}`));
      resolve(JSON.parse(out.trim().split('\n').pop()));
    });
  });
}

const round = (x, digits = 1) => (x === null || x === undefined ? null : Number(x.toFixed(digits)));

/** Each run over the replay taken right after it, the median of those: drifts in load cancel. */
const pairRatio = (runs, replays) => median(runs.map((x, i) => x / replays[i]));

/** The figures of a worker result: medians, ratio, requests/s. */
function summarise(r) {
  const runMs = median(r.runMs);
  const replayMs = median(r.replayMs);
  return {
    requests: r.requests,
    scenarios: r.scenarios,
    passed: r.passed,
    achieved: r.achieved,
    repetitions: r.runMs.length,
    firstRunMs: round(r.firstRunMs),
    runMs: round(runMs),
    replayMs: round(replayMs),
    ratio: round(pairRatio(r.runMs, r.replayMs), 3),
    ratioOfMedians: round(runMs / replayMs, 3),
    // CPU time of the measuring process: in-process that is kit + server against bare loop +
    // server; with the server in its own process, kit against bare loop alone.
    runCpuMs: round(median(r.runCpuMs)),
    replayCpuMs: round(median(r.replayCpuMs)),
    cpuRatio: round(pairRatio(r.runCpuMs, r.replayCpuMs), 3),
    // The kit's own time: each run less the replay next to it, the median of those.
    kitMs: round(median(r.runMs.map((x, i) => x - r.replayMs[i]))),
    runReqPerSec: Math.round(r.requests / (runMs / 1000)),
    replayReqPerSec: Math.round(r.requests / (replayMs / 1000)),
    peakRssMb: round(r.peakRssKb / 1024),
    replayStatusMismatches: r.replayStatusMismatches,
    samples: {
      runMs: r.runMs.map((x) => round(x)),
      replayMs: r.replayMs.map((x) => round(x)),
      runCpuMs: r.runCpuMs.map((x) => round(x)),
      replayCpuMs: r.replayCpuMs.map((x) => round(x)),
    },
  };
}

/** A full Gold run as a whole process (`node bin/tck.js run --url`), `count` times after `warmups` uncounted ones (the file cache). */
function coldRun(url, count, warmups = 2) {
  const out = mkdtempSync(join(os.tmpdir(), 'tck-bench-cold-'));
  const times = [];
  let status;
  try {
    for (let i = 0; i < count + warmups; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ['bin/tck.js', 'run', '--url', url, '-o', out], { stdio: 'ignore' });
      const ms = performance.now() - t0;
      status = r.status;
      if (i >= warmups) times.push(ms);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { command: 'tck run --url <tck serve>', exitCode: status, runs: times.length, medianMs: round(median(times)), minMs: round(Math.min(...times)), samplesMs: times.map((t) => round(t)) };
}

if (GUARD) {
  // Warm runs (with their replays) and cold runs against one `tck serve`, one after the other.
  const serve = await spawnServer(['bin/tck.js', 'serve', '--port', '0']);
  let warm;
  let coldGold;
  try {
    warm = await worker({ mode: 'remote', url: serve.url, reps: 2, warmup: 1 });
    coldGold = coldRun(serve.url, 2, 1);
  } finally {
    await serve.close();
  }
  if (coldGold.exitCode !== 0) throw new Error(`bench: the cold run exited with ${coldGold.exitCode}`);
  const guard = {
    coldOverWarm: round(coldGold.medianMs / median(warm.runMs), 2),
    runOverReplay: round(pairRatio(warm.runMs, warm.replayMs), 2),
    coldMs: coldGold.samplesMs,
    warmMs: warm.runMs.map((x) => round(x)),
    replayMs: warm.replayMs.map((x) => round(x)),
    loadAverage: os.loadavg().map((x) => round(x, 2)),
  };
  process.stdout.write(`${JSON.stringify(guard)}\n`);
  process.exit(0);
}

// 1 and 2: in-process --------------------------------------------------------------------------
log('1/6 full Gold run vs the in-process reference server, and its replay');
const inproc = summarise(await worker({ mode: 'inproc', reps: reps(15, 2), warmup: reps(3, 1) }));

// 1 and 2: `tck serve` in its own process ----------------------------------------------------
log('1/6 full Gold run vs `tck serve` in its own process, and its replay');
const serve = await spawnServer(['bin/tck.js', 'serve', '--port', '0']);
let remote;
let coldGold;
try {
  remote = summarise(await worker({ mode: 'remote', url: serve.url, reps: reps(15, 2), warmup: reps(3, 1) }));
  remote.serverPeakRssMb = round((await peakRssKb(serve.pid)) / 1024);
  log('4/6 (early) full Gold run as a whole process vs the same `tck serve`');
  coldGold = coldRun(serve.url, reps(9, 2));
} finally {
  await serve.close();
}

// 3: 15 ms latency ------------------------------------------------------------------------------
const LATENCY_MS = 15;
log(`3/6 the same with ${LATENCY_MS} ms latency per response (about ${Math.round((inproc.requests * LATENCY_MS * 2 * reps(3)) / 1000)} s)`);
const latency = summarise(await worker({ mode: 'latency', latencyMs: LATENCY_MS, reps: reps(3, 1) }));

// 4: cold start ---------------------------------------------------------------------------------
log('4/6 cold start');
function coldStart(args, count) {
  const times = [];
  let status;
  for (let i = 0; i < count + 2; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    const ms = performance.now() - t0;
    status = r.status;
    if (i >= 2) times.push(ms); // two warm-ups: the file cache, not the process, is warm after them
  }
  return { command: args[0] === '-e' ? 'node -e ""' : `tck ${args.slice(1).join(' ')}`, exitCode: status, runs: times.length, medianMs: round(median(times)), minMs: round(Math.min(...times)), samplesMs: times.map((t) => round(t)) };
}
const COLD = reps(15, 3);
const cold = [
  coldStart(['-e', ''], COLD),
  coldStart(['bin/tck.js', '--version'], COLD),
  coldStart(['bin/tck.js', '--help'], COLD),
  coldStart(['bin/tck.js', 'list'], COLD),
];

// 5: scaling ------------------------------------------------------------------------------------
log('5/6 scaling with the data the server holds');
const scaling = [];
for (const [resident, n] of [[0, reps(7)], [1_000, reps(7)], [10_000, reps(7)], [100_000, reps(4)]]) {
  scaling.push({ resident, ...pick(summarise(await worker({ mode: 'scaling', resident, reps: n, warmup: 1 }))) });
}
function pick(s) {
  const { requests, passed, scenarios, repetitions, runMs, replayMs, ratio, kitMs, runCpuMs, replayCpuMs, cpuRatio, replayStatusMismatches } = s;
  return { requests, passed, scenarios, repetitions, runMs, replayMs, ratio, kitMs, runCpuMs, replayCpuMs, cpuRatio, replayStatusMismatches };
}

// 6: tck explore --------------------------------------------------------------------------------
log('6/6 tck explore against the reference server in its own process, and the replay of its requests');
const exploreRun = await new Promise((resolve, reject) => {
  const config = { reps: reps(7, 1), warmup: reps(1, 0), runs: reps(150, 40), seed: 7 };
  const child = spawn(process.execPath, ['bench/explore.mjs', JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.on('error', reject);
  child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`bench/explore.mjs exited with ${code}`))));
});

// 7: tck explore --concurrency ------------------------------------------------------------------
log('7 tck explore --concurrency 16 against the reference store, and the linearizability search on its worst case');
const concurrencyRun = await new Promise((resolve, reject) => {
  const child = spawn(process.execPath, ['bench/concurrency.mjs', JSON.stringify({ histories: reps(40, 10), seed: 7 })], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.on('error', reject);
  child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`bench/concurrency.mjs exited with ${code}`))));
});

// Results ---------------------------------------------------------------------------------------
const pkg = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version;
const git = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).stdout?.trim() !== '';
const cpus = os.cpus();
const results = {
  format: 'agent-memory-tck/bench',
  formatVersion: 1,
  date: new Date(startedAt).toISOString(),
  quick: QUICK,
  benchSeconds: round((Date.now() - startedAt) / 1000),
  machine: {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    memoryGb: round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: { before: loadBefore.map((x) => round(x, 2)), after: os.loadavg().map((x) => round(x, 2)) },
  },
  kit: {
    version: JSON.parse(readFileSync('package.json', 'utf8')).version,
    commit: git.status === 0 ? `${git.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}` : null,
    undici: pkg('undici'),
    zod: pkg('zod'),
  },
  targets: {
    'run/replay, reference server (in-process)': { target: '<= 1.25', measured: inproc.ratio, met: inproc.ratio <= 1.25 },
    'run/replay, reference server (tck serve)': { target: '<= 1.25', measured: remote.ratio, met: remote.ratio <= 1.25 },
    'run/replay, 15 ms latency': { target: '<= 1.05', measured: latency.ratio, met: latency.ratio <= 1.05 },
    'tck --version cold start': { target: '<= 150 ms median', measured: cold[1].medianMs, met: cold[1].medianMs <= 150 },
    'cold whole-process Gold run / warm run (tck serve)': { target: '<= 3', measured: round(coldGold.medianMs / remote.runMs, 2), met: coldGold.medianMs / remote.runMs <= 3 },
    'explore/replay, reference server (own process)': { target: '<= 2', measured: round(exploreRun.ratio, 3), met: exploreRun.ratio <= 2 },
  },
  goldRun: { inProcess: inproc, tckServe: remote },
  latency: { latencyMs: LATENCY_MS, ...latency },
  coldStart: cold,
  coldGoldRun: { ...coldGold, warmRunMs: remote.runMs, coldOverWarm: round(coldGold.medianMs / remote.runMs, 2) },
  scaling,
  explore: { ...exploreRun, ratio: round(exploreRun.ratio, 3), runMs: exploreRun.runMs.map((x) => round(x)), replayMs: exploreRun.replayMs.map((x) => round(x)) },
  concurrency: concurrencyRun,
};
writeFileSync('bench/results.json', `${JSON.stringify(results, null, 2)}\n`);

// The table -------------------------------------------------------------------------------------
const table = (head, rows) => {
  const cells = [head, ...rows].map((r) => r.map((c) => (c === null || c === undefined ? '-' : String(c))));
  const width = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  return [line(cells[0]), width.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
};
const ms = (x) => (x === null || x === undefined ? '-' : `${Math.round(x)} ms`);
const cpu = (s) => `${Math.round(s.runCpuMs)} : ${Math.round(s.replayCpuMs)} ms (${s.cpuRatio.toFixed(2)})`;
const out = [];
out.push(`agent-memory-tck bench — ${results.machine.cpus} × ${results.machine.cpuModel}, node ${results.machine.node}, load ${loadBefore.map((x) => x.toFixed(1)).join('/')}${QUICK ? ' (QUICK: too few repetitions to read)' : ''}`, '');
out.push(
  table(
    ['full Gold run (all tiers)', 'requests', 'first run', 'run', 'req/s', 'peak RSS', 'replay', 'run/replay', 'CPU run : replay'],
    [
      ['in-process reference server', inproc.requests, ms(inproc.firstRunMs), ms(inproc.runMs), inproc.runReqPerSec, `${inproc.peakRssMb} MB`, ms(inproc.replayMs), inproc.ratio.toFixed(2), cpu(inproc)],
      ['`tck serve` process', remote.requests, ms(remote.firstRunMs), ms(remote.runMs), remote.runReqPerSec, `${remote.peakRssMb} MB (server ${remote.serverPeakRssMb} MB)`, ms(remote.replayMs), remote.ratio.toFixed(2), cpu(remote)],
      [`${LATENCY_MS} ms latency per response`, latency.requests, '', ms(latency.runMs), latency.runReqPerSec, `${latency.peakRssMb} MB`, ms(latency.replayMs), latency.ratio.toFixed(3), cpu(latency)],
    ],
  ),
  'run/replay: median over repetitions of each run against the replay next to it. CPU: of the measuring',
  'process (in-process: kit + server against bare loop + server; `tck serve`: kit against bare loop).',
  '',
);
const node = cold[0].medianMs;
out.push(table(['cold start (whole process)', 'median', 'over node', 'min', 'runs'], [...cold, coldGold].map((c, i) => [c.command, ms(c.medianMs), i === 0 ? '' : ms(c.medianMs - node), ms(c.minMs), c.runs])));
out.push(`cold whole-process Gold run / warm run against the same \`tck serve\`: ${results.coldGoldRun.coldOverWarm.toFixed(2)} (${ms(coldGold.medianMs)} : ${ms(remote.runMs)})`, '');
out.push(
  table(
    ['messages held by the server (own process)', 'passed', 'run', 'replay', 'run − replay', 'run/replay', 'CPU run : replay'],
    scaling.map((s) => [s.resident.toLocaleString('en-US'), `${s.passed}/${s.scenarios}`, ms(s.runMs), ms(s.replayMs), ms(s.kitMs), s.ratio.toFixed(2), cpu(s)]),
  ),
  '',
);
out.push(
  table(
    ['tck explore (150 sequences, seed 7)', 'operations', 'requests', 'ops/s', 'replay req/s', 'explore/replay', 'ops/s vs `tck serve`'],
    [['reference server, own process', exploreRun.operations, exploreRun.requests, exploreRun.opsPerSecond, exploreRun.replayRequestsPerSecond, round(exploreRun.ratio, 2).toFixed(2), exploreRun.tckServeOpsPerSecond]],
  ),
  'explore/replay: median over repetitions of each exploration against the bare replay of its requests next to it.',
  '',
);
out.push(
  table(
    ['tck explore --concurrency 16 (4 calls each, seed 7)', 'histories', 'histories/s', 'model steps / history', 'undecided'],
    [['reference store, in process', concurrencyRun.explorer.histories, round(concurrencyRun.explorer.historiesPerSecond), Math.round(concurrencyRun.explorer.stepsPerHistory), concurrencyRun.explorer.undecided]],
  ),
  `linearizability search, worst case (k appends at once, then a read in the order tried last): ${concurrencyRun.worst.map((w) => `k=${w.concurrentWrites} ${w.steps} steps ${ms(w.ms)}${w.verdict === 'unknown' ? ' (bound reached)' : ''}`).join(', ')}`,
  '',
);
out.push('targets:');
for (const [name, t] of Object.entries(results.targets)) out.push(`  ${t.met ? 'met   ' : 'MISSED'}  ${name}: ${t.measured} (target ${t.target})`);
const bad = [inproc, remote, latency, ...scaling, exploreRun].filter((s) => s.replayStatusMismatches > 0);
if (bad.length > 0) out.push('', `warning: ${bad.length} replay(s) got statuses other than the recording's`);
out.push('', `bench/results.json written (${results.benchSeconds} s)`);
process.stdout.write(`${out.join('\n')}\n`);
