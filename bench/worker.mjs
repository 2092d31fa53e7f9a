// One measurement of the bench, in a process of its own (fresh JIT, its own peak RSS). Called by
// bench/run.mjs with one JSON argument; prints one JSON line with the result.
//   {"mode":"inproc","reps":10,"warmup":3}      Gold run vs an in-process reference server, and its replay
//   {"mode":"remote","url":U,"reps":7,"warmup":2} Gold run vs `tck serve` at U; replay vs bench/server.mjs
//   {"mode":"latency","latencyMs":15,"reps":3}   both against an in-process server that answers 15 ms late
//   {"mode":"scaling","resident":N,"reps":5}     both against a bench/server.mjs process holding N messages
//
// Run and replay alternate, each against a fresh (or reset) server, so that both see the same
// machine; the warm-up repetitions are not counted. Every replay is checked to get the statuses
// of the recording.
import { plainRun, recordedRun, replay, spawnServer, startServer, statusMismatches } from './lib.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const reps = config.reps ?? 5;
const warmup = config.warmup ?? 0;

const runs = [];
const replays = [];
/** CPU time (user + system) of this process during each run and replay. */
const runCpu = [];
const replayCpu = [];
let mismatches = 0;
let first;

/** One repetition: a timed run against runServer(), then a timed replay against replayServer(). */
async function alternate(sequence, runServer, replayServer, count) {
  for (let i = 0; i < count; i++) {
    const target = await runServer();
    let cpu = process.cpuUsage();
    const run = await plainRun(target.url);
    const cpuRun = process.cpuUsage(cpu);
    await target.done();
    const floor = await replayServer();
    cpu = process.cpuUsage();
    const r = await replay(floor.url, sequence);
    const cpuReplay = process.cpuUsage(cpu);
    await floor.done();
    mismatches += statusMismatches(sequence, r.statuses).length;
    if (i >= warmup) {
      runs.push(run.ms);
      replays.push(r.ms);
      runCpu.push((cpuRun.user + cpuRun.system) / 1000);
      replayCpu.push((cpuReplay.user + cpuReplay.system) / 1000);
    }
  }
}

/** A fresh in-process server that is closed when done. */
const fresh = (options) => async () => {
  const s = await startServer(options);
  return { url: s.url, done: () => s.close() };
};

let recording;
switch (config.mode) {
  case 'inproc':
  case 'latency': {
    const options = { latencyMs: config.latencyMs ?? 0, resident: config.resident ?? 0 };
    // The first run is the cold one (the kit's modules and the JIT start cold), as in CI. The
    // recording run follows; with latency both are made without it, as the request sequence
    // does not depend on it.
    let s = await startServer({ resident: options.resident });
    first = (await plainRun(s.url)).ms;
    await s.close();
    s = await startServer({ resident: options.resident });
    recording = await recordedRun(s.url);
    await s.close();
    await alternate(recording.sequence, fresh(options), fresh(options), reps + warmup);
    break;
  }
  case 'remote': {
    // The run goes to `tck serve` (config.url); the replay to bench/server.mjs, the same reference
    // server with counting ids, reset before each replay. The sequence is recorded against it too.
    first = (await plainRun(config.url)).ms;
    const floor = await spawnServer(['bench/server.mjs']);
    try {
      recording = await recordedRun(floor.url);
      const remote = async () => ({ url: config.url, done: async () => {} });
      const reset = async () => {
        await floor.reset();
        return { url: floor.url, done: async () => {} };
      };
      await alternate(recording.sequence, remote, reset, reps + warmup);
    } finally {
      await floor.close();
    }
    break;
  }
  case 'scaling': {
    // The server is a process of its own, so that its heap (100 000 messages are some hundred MB)
    // does not make the kit's garbage collections dearer, as it would in-process. Its resident
    // messages stay through every reset; the rest is as fresh.
    const server = await spawnServer(['bench/server.mjs', '--resident', String(config.resident)]);
    try {
      const reset = async () => {
        await server.reset();
        return { url: server.url, done: async () => {} };
      };
      await reset();
      first = (await plainRun(server.url)).ms;
      await reset();
      recording = await recordedRun(server.url);
      await alternate(recording.sequence, reset, reset, reps + warmup);
    } finally {
      await server.close();
    }
    break;
  }
  default:
    throw new Error(`unknown mode ${config.mode}`);
}

process.stdout.write(
  `${JSON.stringify({
    mode: config.mode,
    requests: recording.requests,
    scenarios: recording.scenarios,
    passed: recording.passed,
    achieved: recording.achieved,
    firstRunMs: first,
    runMs: runs,
    replayMs: replays,
    runCpuMs: runCpu,
    replayCpuMs: replayCpu,
    replayStatusMismatches: mismatches,
    peakRssKb: Math.round(process.resourceUsage().maxRSS),
  })}\n`,
);
