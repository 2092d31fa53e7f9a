// `tck run`: select, run, report, and turn the verdict into an exit code.
import { resolve } from 'node:path';
import { BridgeUsageError } from '../bridge/index.js';
import { TargetUnreachable } from '../engine/runner.js';
import { SelectionError } from '../engine/select.js';
import type { ScenarioTier } from '../engine/scenario.js';
import type { GradingRuleName } from '../engine/grading.js';
import { ConsoleReporter } from '../reporters/console.js';
import { writeJsonReport } from '../reporters/json.js';
import { runTck } from '../run.js';
import { CliError, EXIT } from './exit.js';
import { headersFrom } from './options.js';

export interface RunFlags {
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
  header?: string[];
  out: string;
  quiet?: boolean;
  verbose?: boolean;
}

export async function runCommand(flags: RunFlags): Promise<number> {
  const headers = headersFrom(flags.header);
  const console = new ConsoleReporter({ quiet: !!flags.quiet, verbose: !!flags.verbose });
  let report;
  try {
    report = await runTck({
      ...(flags.url !== undefined ? { url: flags.url } : {}),
      tier: flags.tier,
      ...(flags.grep !== undefined ? { grep: flags.grep } : {}),
      scenarios: (flags.scenario ?? []).map((s) => s.toUpperCase()),
      skip: (flags.skip ?? []).map((s) => s.toUpperCase()),
      grading: flags.grading,
      bail: !!flags.bail,
      requestTimeoutMs: flags.requestTimeout,
      scenarioTimeoutMs: flags.scenarioTimeout,
      maxBodyBytes: flags.maxBody,
      headers,
      onResult: (r) => console.onResult(r),
    });
  } catch (err) {
    if (err instanceof TargetUnreachable) throw new CliError(err.message, EXIT.unreachable);
    if (err instanceof BridgeUsageError || err instanceof SelectionError) throw new CliError(err.message);
    throw err;
  }
  console.onEnd(report);
  const path = await writeJsonReport(report, resolve(flags.out));
  if (!flags.quiet) process.stdout.write(`report: ${path}\n`);
  return report.success ? EXIT.ok : EXIT.notReached;
}
