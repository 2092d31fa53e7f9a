// `tck explore`: model-based testing of a server against the reference model (src/explore/).
// Writes the report (an explore section, no tiers) under --out; SIGINT/SIGTERM stop the run and
// still write what was found so far.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { explorableMethods } from '../explore/commands.js';
import { exploreReport } from '../explore/report.js';
import { explore, type ExploreProgress } from '../explore/run.js';
import { ConsoleReporter, SILENT } from '../report/render/console.js';
import { filesUnder, writeReports } from '../report/render/index.js';
import type { ReporterName } from '../report/render/names.js';
import { EXIT, TckError } from '../engine/errors.js';
import { didYouMean } from '../util/words.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';
import { headersFrom } from './options.js';
import { ensureWritableDir } from './paths.js';
import { targetWords, type TargetFlags } from './target.js';

interface ExploreFlags extends TargetFlags {
  header?: string[];
  requestTimeout: number;
  runs: number;
  seed?: number;
  path?: string;
  replayPath?: string;
  maxSteps: number;
  methods?: string;
  timeBudget: number;
  classes?: boolean;
  out: string;
  reporter: readonly ReporterName[];
  concurrency?: number;
  /** `--hosted [URL]`: explore a hosted REST service (src/cli/explore-hosted.ts). */
  hosted?: true | string;
  apiKey?: string;
}

/**
 * The live progress of a run: on a terminal (CI unset) one line redrawn at most 4 times a second;
 * elsewhere a plain line every 10 s, so that a log shows the run is alive. Off without the console reporter.
 */
function progressLine(on: boolean, budgetMs: number): { onProgress?: (p: ExploreProgress) => void; done(): void } {
  if (!on) return { done: () => undefined };
  const live = !!process.stdout.isTTY && (process.env.CI ?? '') === '';
  let last = 0;
  let drawn = false;
  const text = (p: ExploreProgress) =>
    `exploring: ${p.runsDone} sequence${p.runsDone === 1 ? '' : 's'}, ${p.operations} operations (${p.elapsedMs > 0 ? Math.round((p.operations / p.elapsedMs) * 1000) : 0} ops/s), ${p.findings} finding${p.findings === 1 ? '' : 's'} so far, ${(p.elapsedMs / 1000).toFixed(0)} s of ${(budgetMs / 1000).toFixed(0)} s`;
  return {
    onProgress: (p) => {
      const now = Date.now();
      if (now - last < (live ? 250 : 10_000)) return;
      last = now;
      if (live) {
        process.stdout.write(`\r\x1b[K${text(p)}`);
        drawn = true;
      } else if (p.elapsedMs >= 10_000) process.stdout.write(`${text(p)}\n`);
    },
    done: () => {
      if (drawn) process.stdout.write('\r\x1b[K');
    },
  };
}

export async function exploreCommand(flags: ExploreFlags): Promise<number> {
  if (flags.hosted !== undefined) return (await import('./explore-hosted.js')).exploreHostedCommand({ ...flags, hosted: flags.hosted });
  if (flags.apiKey !== undefined) throw new TckError('--api-key needs --hosted URL');
  // A replay names the sequence by seed and path: a path alone would replay nothing (and say "nothing found").
  if (flags.path !== undefined && flags.seed === undefined) throw new TckError('--path needs --seed: the seed of the run that printed it (its replay line has both)');
  if (flags.replayPath !== undefined && flags.path === undefined) throw new TckError('--replay-path needs --path and --seed: copy the whole replay line a finding printed');
  const headers = headersFrom(flags.header);
  const methods = flags.methods?.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (methods !== undefined && explorableMethods(methods).length === 0) {
    const names = [...explorableMethods(undefined, true), 'bronze', 'silver', 'gold', 'platinum'];
    const hint = methods.length === 1 ? didYouMean(methods[0]!, names) : '';
    throw new TckError(`--methods ${flags.methods}: names no method or tier explore can draw${hint} (e.g. add_message,get_conversation or bronze)`);
  }
  // Where the reports and the reproductions go is checked before the first sequence.
  await ensureWritableDir(flags.out, '--out');
  const embedded = flags.url === undefined ? await (await import('../servers/bridge/index.js')).startReferenceServer({ port: 0 }) : undefined;
  const url = flags.url ?? embedded!.url;
  if (flags.reporter.includes('console')) process.stdout.write(`exploring ${targetWords(url, flags.urlFrom, embedded !== undefined)}\n`);
  if (flags.concurrency !== undefined) {
    try {
      return await (await import('./explore-concurrent.js')).exploreConcurrentCommand(url, headers, flags.concurrency, flags);
    } finally {
      await embedded?.close();
    }
  }
  const interrupts = watchInterrupts();
  const startedAt = new Date();
  const progress = progressLine(flags.reporter.includes('console'), flags.timeBudget);
  try {
    const section = await explore({
      ...(progress.onProgress ? { onProgress: progress.onProgress } : {}),
      url, headers, requestTimeoutMs: flags.requestTimeout, runs: flags.runs, maxSteps: flags.maxSteps, timeBudgetMs: flags.timeBudget,
      signal: interrupts.signal,
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.path !== undefined ? { path: flags.path } : {}),
      ...(flags.replayPath !== undefined ? { replayPath: flags.replayPath } : {}),
      ...(methods !== undefined ? { methods } : {}),
      ...(flags.classes === true ? { classes: true } : {}),
      replayTarget: flags.url === undefined ? '' : `--url ${flags.url}`,
    }).finally(() => progress.done());
    if (section.notImplemented) process.stderr.write(`tck explore: the target does not implement ${section.notImplemented.join(', ')} (404/501): not drawn\n`);
    const report = exploreReport(section, { url, embedded: embedded !== undefined }, startedAt, interrupts.received !== undefined);
    const console = new ConsoleReporter({ ...(flags.reporter.includes('console') ? {} : { stream: SILENT }) });
    console.onEnd(report);
    const outcome = await writeReports(report, filesUnder(flags.out, flags.reporter));
    for (const f of outcome.failed) process.stderr.write(`tck: could not write ${f.path}: ${f.reason}\n`);
    // The reproductions next to the report, a curl script and a scenario file per finding: the
    // first as explore-repro.sh and explore-scenario.ts, the next ones numbered (-2, -3, …).
    const findings = section.findings?.length ? section.findings : section.failure ? [section.failure] : [];
    if (findings.length > 0) await mkdir(flags.out, { recursive: true });
    for (const [i, f] of findings.entries()) {
      const n = i === 0 ? '' : `-${i + 1}`;
      await writeFile(join(flags.out, `explore-repro${n}.sh`), f.curl, { mode: 0o755 });
      await writeFile(join(flags.out, `explore-scenario${n}.ts`), f.scenario);
      process.stdout.write(`${i === 0 ? '\n' : ''}written: ${join(flags.out, `explore-repro${n}.sh`)} (curl script), ${join(flags.out, `explore-scenario${n}.ts`)} (scenario)${findings.length > 1 ? ` of finding ${i + 1}` : ''}\n`);
    }
    if (interrupts.received !== undefined) return SIGNAL_EXIT[interrupts.received];
    if (outcome.failed.length > 0) return EXIT.usage;
    if (section.failure) return EXIT.notReached;
    // No sequence checked is no pass (pytest's "no tests ran", exit 5): exit 1, saying why.
    if (section.runsDone === 0 || section.operations === 0) {
      process.stderr.write(`tck: explore checked nothing: ${section.runsDone} sequences, ${section.operations} operations in ${section.durationMs} ms (${section.stoppedBy === 'time-budget' ? `--time-budget ${flags.timeBudget} ms is too short for one sequence: give it more` : section.stoppedBy}); not a pass\n`);
      return EXIT.notReached;
    }
    return EXIT.ok;
  } finally {
    interrupts.dispose();
    await embedded?.close();
  }
}
