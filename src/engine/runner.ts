// Runs scenarios one at a time against one target: `setup` once, `clear_all_data` before every
// scenario, `teardown` at the end. One scenario's crash never stops the run.
import type { BridgeClient, Exchange } from '../bridge/index.js';
import { AssertionFailure, ScenarioFault, ScenarioTimeout, SkipScenario } from './faults.js';
import { Recorder, describeOutcome } from './context.js';
import type { Scenario, ScenarioTier } from './scenario.js';

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped' | 'not-run';

export interface ScenarioResult {
  id: string;
  tier: ScenarioTier;
  group: string;
  clauses: string[];
  title: string;
  outcome: Outcome;
  /** True when the failure is a method answering 404/501. */
  notImplemented?: boolean;
  message?: string;
  expected?: unknown;
  actual?: unknown;
  durationMs: number;
  /** The HTTP exchanges of a scenario that did not pass (evidence); empty for passed ones. */
  exchanges: Exchange[];
  notes: string[];
}

export interface SetupInfo {
  ok: boolean;
  protocolVersion?: string;
  warnings: string[];
}

export interface RunOptions {
  scenarioTimeoutMs?: number;
  bail?: boolean;
  onResult?: (result: ScenarioResult) => void;
  onStart?: (scenario: Scenario) => void;
}

export const KIT_PROTOCOL = '0.1.0';

/** The very first request (setup) could not reach the target: nothing can be judged. */
export class TargetUnreachable extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`cannot reach the conformance server at ${url}: ${reason}`);
  }
}

export async function runScenarios(
  client: BridgeClient,
  scenarios: readonly Scenario[],
  options: RunOptions = {},
): Promise<{ setup: SetupInfo; results: ScenarioResult[] }> {
  const timeoutMs = options.scenarioTimeoutMs ?? 30_000;
  const setup = await callSetup(client);
  const results: ScenarioResult[] = [];
  let stop = false;
  for (const scenario of scenarios) {
    if (stop) {
      results.push(notRun(scenario, 'not run: stopped by --bail after the first failure'));
      continue;
    }
    options.onStart?.(scenario);
    const result = await runOne(client, scenario, timeoutMs);
    results.push(result);
    options.onResult?.(result);
    if (options.bail && result.outcome !== 'passed' && result.outcome !== 'skipped') stop = true;
  }
  await client.call('teardown', {});
  return { setup, results };
}

async function callSetup(client: BridgeClient): Promise<SetupInfo> {
  const { outcome } = await client.call('setup', {});
  if (outcome.kind === 'transport') throw new TargetUnreachable(client.url, outcome.reason);
  const warnings: string[] = [];
  if (outcome.kind !== 'object' || outcome.value.ok !== true) {
    warnings.push(`setup: expected 200 {"ok": true}, got ${describeOutcome(outcome)}`);
    return { ok: false, warnings };
  }
  const version = outcome.value.protocol_version;
  if (typeof version !== 'string') {
    warnings.push(`setup did not report protocol_version; the kit checks bridge protocol ${KIT_PROTOCOL}`);
    return { ok: true, warnings };
  }
  if (majorMinor(version) !== majorMinor(KIT_PROTOCOL)) {
    warnings.push(`target reports protocol_version ${version}; the kit checks ${KIT_PROTOCOL}`);
  }
  return { ok: true, protocolVersion: version, warnings };
}

const majorMinor = (v: string) => v.split('.').slice(0, 2).join('.');

async function runOne(client: BridgeClient, scenario: Scenario, timeoutMs: number): Promise<ScenarioResult> {
  const started = performance.now();
  const ctx = new Recorder(client);
  const base = {
    id: scenario.id,
    tier: scenario.tier,
    group: scenario.group,
    clauses: scenario.clauses,
    title: scenario.title,
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await isolate(ctx);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ScenarioTimeout(timeoutMs)), timeoutMs);
    });
    const body = scenario.run(ctx);
    // After a timeout the body is abandoned; whatever it ends with later is of no interest.
    body.catch(() => {});
    await Promise.race([body, timeout]);
    return { ...base, outcome: 'passed', durationMs: performance.now() - started, exchanges: [], notes: ctx.notes };
  } catch (err) {
    ctx.stop();
    const durationMs = performance.now() - started;
    if (err instanceof SkipScenario) {
      return { ...base, outcome: 'skipped', message: err.message, durationMs, exchanges: [], notes: ctx.notes };
    }
    if (err instanceof ScenarioFault) {
      return {
        ...base,
        outcome: err.outcome,
        ...('notImplemented' in err && err.notImplemented ? { notImplemented: true } : {}),
        message: err.message,
        ...(err instanceof AssertionFailure ? { expected: err.expected, actual: err.actual } : {}),
        durationMs,
        exchanges: ctx.exchanges.slice(),
        notes: ctx.notes,
      };
    }
    // A bug in a scenario body is the kit's fault, not the target's: report it plainly.
    const message = err instanceof Error ? `internal error in scenario: ${err.message}` : String(err);
    return { ...base, outcome: 'error', message, durationMs, exchanges: ctx.exchanges.slice(), notes: ctx.notes };
  } finally {
    clearTimeout(timer);
  }
}

/** clear_all_data before every scenario; a scenario cannot be judged on a dirty store. */
async function isolate(ctx: Recorder): Promise<void> {
  await ctx.bridge.clear_all_data();
}

export function notRun(scenario: Scenario, message: string): ScenarioResult {
  return {
    id: scenario.id,
    tier: scenario.tier,
    group: scenario.group,
    clauses: scenario.clauses,
    title: scenario.title,
    outcome: 'not-run',
    message,
    durationMs: 0,
    exchanges: [],
    notes: [],
  };
}
