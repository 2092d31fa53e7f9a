// `tck explore --concurrency N`: the concurrent explorer (src/explore/concurrent.ts) from the
// command line. Prints the verdict; a finding as parallel columns, written with its replay script
// (explore-concurrent.sh) and its history (explore-concurrent.txt) under --out. Exit 0: nothing
// found; 1: a history no serial order explains.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { exploreConcurrently } from '../explore/concurrent.js';
import { EXIT, TckError } from '../engine/errors.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';

/** Calls each client makes per history (--max-steps lowers it). */
const CALLS_PER_CLIENT = 4;
/** Most clients at once: each holds a connection, and the search grows with the calls in flight together. */
const MAX_CLIENTS = 256;

interface Flags {
  runs: number;
  seed?: number;
  maxSteps: number;
  timeBudget: number;
  requestTimeout: number;
  out: string;
}

export async function exploreConcurrentCommand(url: string, headers: Record<string, string>, concurrency: number, flags: Flags): Promise<number> {
  if (concurrency > MAX_CLIENTS) throw new TckError(`--concurrency ${concurrency}: at most ${MAX_CLIENTS} clients at once (each holds a connection)`);
  const seed = flags.seed ?? randomInt(2 ** 31);
  const interrupts = watchInterrupts();
  try {
    process.stdout.write(`${concurrency} clients at once, ${Math.min(CALLS_PER_CLIENT, flags.maxSteps)} calls each; seed ${seed}\n`);
    const r = await exploreConcurrently({
      url, headers, concurrency, seed, runs: flags.runs, callsPerClient: Math.min(CALLS_PER_CLIENT, flags.maxSteps),
      timeBudgetMs: flags.timeBudget, requestTimeoutMs: flags.requestTimeout, signal: interrupts.signal,
    });
    process.stdout.write(`${r.runs} histories judged (${r.methods.join(', ')}); ${r.steps} model steps; ${r.undecided} left undecided by the bounded search\n`);
    if (r.finding !== undefined) {
      const f = r.finding;
      process.stdout.write(`\nnot linearizable: ${f.why}\n\n${f.columns}\n`);
      await mkdir(flags.out, { recursive: true });
      await writeFile(join(flags.out, 'explore-concurrent.sh'), f.script, { mode: 0o755 });
      await writeFile(join(flags.out, 'explore-concurrent.txt'), `${f.why}\n\n${f.columns}\n`);
      process.stdout.write(`\nwritten: ${join(flags.out, 'explore-concurrent.sh')} (replays the clients at once), ${join(flags.out, 'explore-concurrent.txt')}\n`);
    } else {
      process.stdout.write('every history had a serial order consistent with real time that explains every answer\n');
    }
    if (interrupts.received !== undefined) return SIGNAL_EXIT[interrupts.received];
    return r.finding !== undefined ? EXIT.notReached : EXIT.ok;
  } finally {
    interrupts.dispose();
  }
}
