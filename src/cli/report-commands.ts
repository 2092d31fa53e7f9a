// The reports of `tck run` (what goes where, the baseline gate, the exit code), and the commands
// that work on reports: `tck report`, `tck diff`, `tck repro`.
import { resolve } from 'node:path';
import { ensureReadableFile, ensureWritableDir, ensureWritableFile } from './paths.js';
import { baselineFrom, evaluateBaseline, loadBaseline, writeBaseline, type Baseline } from '../report/baseline.js';
import type { Exchange } from '../engine/evidence.js';
import type { Scenario } from '../profiles/bridge/scenario.js';
import type { Selection } from '../engine/select.js';
import { diffReports, isRegression, renderDiff } from '../report/diff.js';
import { loadReport, normalizeReport } from '../report/load.js';
import type { Report } from '../report/model.js';
import { ConsoleReporter } from '../report/render/console.js';
import { publishToGithub } from '../report/render/github.js';
import { filesUnder, writeReports, type FileFormat, type FileTarget, type ReporterName } from '../report/render/index.js';
import { isFailure, shellWord } from '../report/render/text.js';
import { scenariosOf } from '../report/render/view.js';
import { reproScript } from '../report/repro.js';
import { EXIT, TckError } from '../engine/errors.js';
import { targetWords, type TargetFlags } from './target.js';

/** The report-related flags of `tck run`. */
export interface ReportingFlags {
  out: string;
  reporter: readonly ReporterName[];
  baseline?: string;
  writeBaseline?: string;
  onlyFailed?: string;
  scenario?: string[];
  quiet?: boolean;
}

export interface RunPreparation {
  baseline?: Baseline;
  /** The scenarios --only-failed selects (undefined without it). */
  scenarios?: string[];
  /** What --only-failed re-runs, as the report's selection records it. */
  rerun?: NonNullable<Report['selection']['rerun']>;
  /** Set when there is nothing to run (--only-failed on a report without failures). */
  nothingToRun?: string;
}


/**
 * Reads --baseline and --only-failed before anything runs: a bad file is a usage error. `hosted`:
 * the hosted profile's scenario ids when it runs (its failures are re-run only then).
 */
export async function prepareRun(flags: ReportingFlags, known: readonly string[], hosted: readonly string[] = []): Promise<RunPreparation> {
  const prep: RunPreparation = {};
  // Where the reports go is checked first: a run must not end in "cannot write".
  await ensureWritableDir(flags.out, '--out');
  if (flags.writeBaseline) await ensureWritableFile(flags.writeBaseline, '--write-baseline');
  if (flags.baseline) await ensureReadableFile(flags.baseline, '--baseline');
  if (flags.onlyFailed) await ensureReadableFile(flags.onlyFailed, '--only-failed');
  if (flags.baseline) {
    prep.baseline = await loadBaseline(resolve(flags.baseline!));
    // A typo in a baseline would silently never match: name the ids this kit does not have.
    const unknown = prep.baseline.scenarios.map((s) => s.id).filter((id) => !known.includes(id) && !(id.startsWith('SCN-H-') && hosted.length === 0));
    if (unknown.length) process.stderr.write(`tck: warning: the baseline ${flags.baseline} names ${unknown.join(', ')}, which this kit does not have\n`);
  }
  if (flags.onlyFailed) {
    if (flags.scenario?.length) throw new TckError('--only-failed and --scenario cannot be combined');
    const previous = await loadReport(resolve(flags.onlyFailed!));
    // Everything that was not checked to pass: a run cut short (interrupted, a dead target, --bail)
    // left most of it not run, and a re-run of its few failures alone would go green on nothing.
    const again = scenariosOf(previous).filter((s) => isFailure(s) || s.outcome === 'not-run');
    const failed = again.map((s) => s.id);
    const all = [...known, ...hosted];
    // A re-run that leaves failures out could pass on what it left out: hosted failures without
    // --hosted are a usage error (exit 2), never a pass, and so is a re-run left with nothing.
    const notHosted = failed.filter((id) => id.startsWith('SCN-H-') && hosted.length === 0);
    if (notHosted.length) {
      const target = previous.hosted === undefined || previous.hosted.target.embedded ? '--hosted' : `--hosted ${shellWord(previous.hosted.target.url)} and its credential`;
      throw new TckError(`--only-failed ${flags.onlyFailed}: ${notHosted.length} of what it re-runs ${notHosted.length === 1 ? 'is a hosted scenario' : 'are hosted scenarios'} (${cutList(notHosted)}); add ${target}`, 'TCK_SELECTION');
    }
    const gone = failed.filter((id) => !all.includes(id));
    prep.scenarios = failed.filter((id) => all.includes(id));
    if (gone.length && prep.scenarios.length === 0) throw new TckError(`--only-failed ${flags.onlyFailed}: ${cutList(gone)} no longer exist in this kit: nothing it names can run`, 'TCK_SELECTION');
    if (gone.length) process.stderr.write(`tck: --only-failed: ${cutList(gone)} no longer exist in this kit; left out\n`);
    const kept = again.filter((s) => prep.scenarios!.includes(s.id));
    prep.rerun = {
      from: flags.onlyFailed,
      failed: kept.filter((s) => s.outcome === 'failed').length,
      error: kept.filter((s) => s.outcome === 'error').length,
      notRun: kept.filter((s) => s.outcome === 'not-run').length,
    };
    if (prep.scenarios.length === 0) prep.nothingToRun = `nothing failed, errored or was left not run in ${flags.onlyFailed}: nothing to re-run`;
  }
  return prep;
}

/** Ids as one line: the first five, then how many more. */
function cutList(ids: readonly string[]): string {
  return ids.length <= 5 ? ids.join(', ') : `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more`;
}

/** The scenarios a selection runs, in order (for the console's per-tier totals). */
export async function planOf(selection: Selection): Promise<Scenario[]> {
  const [{ ALL_SCENARIOS }, { selectScenarios }] = await Promise.all([import('../../suites/index.js'), import('../engine/select.js')]);
  return selectScenarios(ALL_SCENARIOS, selection);
}

/**
 * The report as every output gets it: normalised (exactly what report.json holds) and, with a
 * baseline (given, or being written), the gate's verdict.
 */
export function finalReport(report: Report, flags: ReportingFlags, prep: RunPreparation): { report: Report; newBaseline?: Baseline } {
  const data = normalizeReport(report);
  if (prep.rerun) data.selection.rerun = prep.rerun;
  const newBaseline = flags.writeBaseline ? baselineFrom(data, prep.baseline) : undefined;
  const against = prep.baseline ?? newBaseline;
  if (against) data.gate = evaluateBaseline(data, against, flags.baseline ?? flags.writeBaseline!);
  return { report: data, ...(newBaseline ? { newBaseline } : {}) };
}

/**
 * Exit code of a finished run: the gate's when there is a baseline, else whether the tier was
 * reached; the hosted profile, which a baseline does not cover, must pass in either case.
 */
export function exitCodeOf(report: Report): number {
  const ok = report.gate ? report.gate.passed && (report.hosted?.passed ?? true) : report.success;
  return ok ? EXIT.ok : EXIT.notReached;
}

/** Writes the file reports of --reporter under --out; names each one that failed (on stderr) and returns them. */
export async function writeRunFiles(report: Report, flags: ReportingFlags, silent = false): Promise<string[]> {
  const { written, failed } = await writeReports(report, filesUnder(resolve(flags.out), flags.reporter));
  for (const f of failed) process.stderr.write(`tck: the ${f.format} report could not be written to ${f.path}: ${f.reason}\n`);
  if (!flags.quiet && !silent) for (const w of written) process.stdout.write(`report: ${w.path}\n`);
  return failed.map((f) => f.format);
}

/** GitHub annotations and step summary, then --write-baseline. Returns the names of the steps that failed. */
export async function publishRun(report: Report, flags: ReportingFlags, newBaseline: Baseline | undefined): Promise<string[]> {
  const failed: string[] = [];
  try {
    await publishToGithub(report);
  } catch (err) {
    process.stderr.write(`tck: the GitHub step summary could not be written: ${(err as Error).message}\n`);
    failed.push('github');
  }
  if (newBaseline && flags.writeBaseline) {
    if (report.interrupted) {
      process.stderr.write(`tck: the baseline ${flags.writeBaseline} was not written: the run was interrupted\n`);
    } else {
      try {
        await writeBaseline(resolve(flags.writeBaseline), newBaseline);
        if (!flags.quiet) process.stdout.write(`baseline: ${flags.writeBaseline} (${newBaseline.scenarios.length} known failure(s))\n`);
      } catch (err) {
        process.stderr.write(`tck: the baseline could not be written to ${flags.writeBaseline}: ${(err as Error).message}\n`);
        failed.push('baseline');
      }
    }
  }
  return failed;
}

// ------------------------------------------------------------------ tck report

type ReportCommandFlags = Partial<Record<FileFormat, string>>;

/** `tck report FILE [--junit F] [--html F] [--md F] [--badge F] [--json F]`; no flag: the console summary. */
export async function reportCommand(file: string, flags: ReportCommandFlags): Promise<number> {
  await ensureReadableFile(file, 'report');
  const formats = (['json', 'junit', 'html', 'md', 'badge'] as const).filter((f) => flags[f] !== undefined);
  // Every output path is checked before the report is read and rendered.
  for (const f of formats) await ensureWritableFile(flags[f]!, `--${f}`);
  // A certification bundle holds a report: rendered as any other (compare reads both too).
  const { loadComparable } = await import('../report/compare.js');
  const { report } = await loadComparable(resolve(file));
  const targets: FileTarget[] = formats.map((format) => ({ format, path: resolve(flags[format]!) }));
  if (targets.length === 0) {
    new ConsoleReporter().onEnd(report);
    return EXIT.ok;
  }
  const { written, failed } = await writeReports(report, targets);
  for (const w of written) process.stdout.write(`wrote ${w.format}: ${w.path}\n`);
  for (const f of failed) process.stderr.write(`tck: the ${f.format} report could not be written to ${f.path}: ${f.reason}\n`);
  return failed.length ? EXIT.usage : EXIT.ok;
}

// ------------------------------------------------------------------ tck diff

export async function diffCommand(oldFile: string, newFile: string, flags: { json?: boolean }): Promise<number> {
  for (const f of [oldFile, newFile]) await ensureReadableFile(f, 'diff');
  const [before, after] = [await loadReport(resolve(oldFile)), await loadReport(resolve(newFile))];
  // Runs of different selections differ in what ran, not in what the server does: diffReports
  // compares what both selected, and the verdict says so.
  const d = diffReports(before, after);
  process.stdout.write(flags.json ? `${JSON.stringify(d, null, 2)}\n` : renderDiff(d));
  return isRegression(d) ? EXIT.notReached : EXIT.ok;
}

// ------------------------------------------------------------------ tck repro

interface ReproFlags extends TargetFlags {
  header?: string[];
  requestTimeout: number;
  report?: string;
}

/** Prints the reproduction script of one scenario: from a report, or from running it now. */
export async function reproCommand(rawId: string, flags: ReproFlags): Promise<number> {
  const id = rawId.toUpperCase();
  if (flags.report) {
    await ensureReadableFile(flags.report, '--report');
    const report = await loadReport(resolve(flags.report!));
    const s = scenariosOf(report).find((x) => x.id === id);
    if (!s) throw new TckError(`${id} is not in ${flags.report}`);
    if (!isFailure(s)) throw new TckError(`${id} ${s.outcome} in ${flags.report}: nothing to reproduce (run \`npx tck repro ${id} --url URL\` to get its requests)`);
    if (s.repro === undefined && !('tier' in s)) throw new TckError(`${id} in ${flags.report} has no reproduction script`);
    process.stdout.write(s.repro ?? reproScript(s, { url: report.target.url, embedded: report.target.embedded }));
    return EXIT.ok;
  }
  if (id.startsWith('SCN-H-')) {
    throw new TckError(`${id} is a hosted scenario: run it with \`npx tck run --hosted [URL] --scenario ${id}\` and take its script from the report (\`npx tck repro ${id} --report reports/report.json\`)`);
  }
  // Loaded here: `tck report` and `tck diff` never talk to a server.
  const [{ runTck }, { headersFrom }] = await Promise.all([import('../run/run.js'), import('./options.js')]);
  const exchanges: Exchange[] = [];
  let recording = false;
  const report: Report = await runTck({
    ...(flags.url !== undefined ? { url: flags.url } : {}),
    scenarios: [id],
    // repro takes no --tier: the scenario named is the selection, whatever its tier.
    tier: 'platinum',
    headers: headersFrom(flags.header),
    requestTimeoutMs: flags.requestTimeout,
    onStart: () => (recording = true),
    onExchange: (ex) => recording && exchanges.push(ex),
    onResult: () => (recording = false),
  });
  const result = report.scenarios[0]!;
  const url = report.target.url;
  const against = targetWords(url, flags.urlFrom, report.target.embedded);
  process.stderr.write(
    isFailure(result)
      ? `tck: ${id} ${result.outcome} against ${against}: ${(result.message ?? '').split('\n')[0]}\n`
      : `tck: ${id} ${result.outcome} against ${against}; the script replays its requests\n`,
  );
  process.stdout.write(reproScript({ ...result, exchanges }, { url, embedded: report.target.embedded }));
  return EXIT.ok;
}
