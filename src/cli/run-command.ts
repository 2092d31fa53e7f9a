// `tck run`: select, run, report, and turn the verdict into an exit code.
import { BridgeUsageError, type Exchange } from '../bridge/index.js';
import { TargetUnreachable } from '../engine/runner.js';
import { SelectionError } from '../engine/select.js';
import type { ScenarioTier } from '../engine/scenario.js';
import type { GradingRuleName } from '../engine/grading.js';
import { ConsoleReporter, SILENT } from '../reporters/console.js';
import { runTck } from '../run.js';
import { CliError, EXIT } from './exit.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';
import { headersFrom } from './options.js';
import { exitCodeOf, finalReport, planOf, prepareRun, publishRun, writeRunFiles, type ReportingFlags, type RunPreparation } from './report-commands.js';

export interface RunFlags extends ReportingFlags {
  url?: string;
  tier: ScenarioTier;
  grep?: string;
  scenario?: string[];
  skip?: string[];
  grading: GradingRuleName;
  bail?: boolean;
  requestTimeout: number;
  scenarioTimeout: number;
  maxBody: number;
  maxTime: number;
  reconnectWindow: number;
  header?: string[];
  out: string;
  quiet?: boolean;
  verbose?: boolean;
}

export async function runCommand(flags: RunFlags): Promise<number> {
  const headers = headersFrom(flags.header);
  const prep = await prepareRun(flags, (await planOf({})).map((s) => s.id));
  if (prep.nothingToRun) {
    process.stdout.write(`${prep.nothingToRun}\n`);
    return EXIT.ok;
  }
  const console = new ConsoleReporter({ quiet: !!flags.quiet, verbose: !!flags.verbose, ...(flags.reporter.includes('console') ? {} : { stream: SILENT }) });
  // From here on SIGINT/SIGTERM stop the run and still get the reports written (exit 130/143).
  const interrupts = watchInterrupts();
  try {
    const code = await runAndReport(flags, headers, console, interrupts.signal, prep);
    return interrupts.received ? SIGNAL_EXIT[interrupts.received] : code;
  } finally {
    interrupts.dispose();
  }
}

async function runAndReport(flags: RunFlags, headers: Record<string, string>, console: ConsoleReporter, signal: AbortSignal, prep: RunPreparation): Promise<number> {
  let report;
  try {
    const selection = {
      tier: flags.tier,
      ...(flags.grep !== undefined ? { grep: flags.grep } : {}),
      scenarios: prep.scenarios ?? (flags.scenario ?? []).map((s) => s.toUpperCase()),
      skip: (flags.skip ?? []).map((s) => s.toUpperCase()),
    };
    console.begin(await planOf(selection));
    report = await runTck({
      ...(flags.url !== undefined ? { url: flags.url } : {}),
      ...selection,
      grading: flags.grading,
      bail: !!flags.bail,
      requestTimeoutMs: flags.requestTimeout,
      scenarioTimeoutMs: flags.scenarioTimeout,
      maxBodyBytes: flags.maxBody,
      maxTimeMs: flags.maxTime,
      reconnectWindowMs: flags.reconnectWindow,
      signal,
      headers,
      onStart: (s) => console.onStart(s),
      onResult: (r) => console.onResult(r),
      ...(flags.verbose ? { onExchange: (ex: Exchange) => console.onExchange(ex) } : {}),
    });
  } catch (err) {
    if (err instanceof TargetUnreachable) {
      // One line and exit 3; the report (every scenario not run, and why) is still written, quietly.
      console.stop();
      if (err.report) await writeRunFiles(err.report, flags, true);
      throw new CliError(err.message, EXIT.unreachable);
    }
    if (err instanceof BridgeUsageError || err instanceof SelectionError) throw new CliError(err.message);
    throw err;
  }
  // Each reporter on its own: one that fails is named on stderr, and never stops the others.
  const final = finalReport(report, flags, prep);
  const failed = [
    await isolated('console', () => console.onEnd(final.report)),
    ...(await writeRunFiles(final.report, flags)),
    ...(await publishRun(final.report, flags, final.newBaseline)),
  ];
  if (failed.some((f) => f !== undefined)) return EXIT.usage;
  return exitCodeOf(final.report);
}

/** Runs one reporter; a failure becomes one line on stderr (a stack trace only with --debug). */
async function isolated(name: string, write: () => unknown): Promise<string | undefined> {
  try {
    await write();
    return undefined;
  } catch (err) {
    process.stderr.write(`tck: the ${name} report could not be written: ${err instanceof Error ? err.message : String(err)}\n`);
    if (process.argv.includes('--debug') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return name;
  }
}
