// `tck explore`: model-based testing of a server against the reference model (src/explore/).
// Writes the report (an explore section, no tiers) under --out; SIGINT/SIGTERM stop the run and
// still write what was found so far.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { explorableMethods } from '../explore/commands.js';
import { exploreReport } from '../explore/report.js';
import { explore } from '../explore/run.js';
import { ConsoleReporter, SILENT } from '../report/render/console.js';
import { filesUnder, writeReports } from '../report/render/index.js';
import type { ReporterName } from '../report/render/names.js';
import { EXIT, TckError } from '../engine/errors.js';
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
}

export async function exploreCommand(flags: ExploreFlags): Promise<number> {
  const headers = headersFrom(flags.header);
  const methods = flags.methods?.split(',').map((m) => m.trim()).filter((m) => m !== '');
  if (methods !== undefined && explorableMethods(methods).length === 0) {
    throw new TckError(`--methods ${flags.methods}: names no method or tier explore can draw (e.g. add_message,get_conversation or bronze)`);
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
  try {
    const section = await explore({
      url, headers, requestTimeoutMs: flags.requestTimeout, runs: flags.runs, maxSteps: flags.maxSteps, timeBudgetMs: flags.timeBudget,
      signal: interrupts.signal,
      ...(flags.seed !== undefined ? { seed: flags.seed } : {}),
      ...(flags.path !== undefined ? { path: flags.path } : {}),
      ...(flags.replayPath !== undefined ? { replayPath: flags.replayPath } : {}),
      ...(methods !== undefined ? { methods } : {}),
      ...(flags.classes === true ? { classes: true } : {}),
      replayTarget: flags.url === undefined ? '' : `--url ${flags.url}`,
    });
    if (section.notImplemented) process.stderr.write(`tck explore: the target does not implement ${section.notImplemented.join(', ')} (404/501): not drawn\n`);
    const report = exploreReport(section, { url, embedded: embedded !== undefined }, startedAt, interrupts.received !== undefined);
    const console = new ConsoleReporter({ ...(flags.reporter.includes('console') ? {} : { stream: SILENT }) });
    console.onEnd(report);
    const outcome = await writeReports(report, filesUnder(flags.out, flags.reporter));
    for (const f of outcome.failed) process.stderr.write(`tck: could not write ${f.path}: ${f.reason}\n`);
    if (section.failure) {
      // The reproductions next to the report: a curl script and a scenario file.
      await mkdir(flags.out, { recursive: true });
      await writeFile(join(flags.out, 'explore-repro.sh'), section.failure.curl, { mode: 0o755 });
      await writeFile(join(flags.out, 'explore-scenario.ts'), section.failure.scenario);
      process.stdout.write(`\nwritten: ${join(flags.out, 'explore-repro.sh')} (curl script), ${join(flags.out, 'explore-scenario.ts')} (scenario)\n`);
    }
    if (interrupts.received !== undefined) return SIGNAL_EXIT[interrupts.received];
    if (outcome.failed.length > 0) return EXIT.usage;
    return section.failure ? EXIT.notReached : EXIT.ok;
  } finally {
    interrupts.dispose();
    await embedded?.close();
  }
}
