// The programmatic entry point: runTck resolves to the same report object the JSON reporter writes.
import { BridgeClient } from './bridge/index.js';
import type { Exchange } from './bridge/index.js';
import { grade, reaches, type GradingRuleName } from './engine/grading.js';
import { KIT_PROTOCOL, TargetUnreachable, runScenarios, unreachableRun, type ScenarioResult } from './engine/runner.js';
import type { Scenario, ScenarioTier } from './engine/scenario.js';
import { selectScenarios, type Selection } from './engine/select.js';
import { REPORT_FORMAT_VERSION, type Report } from './report/model.js';
import { withRepros } from './repro.js';
import { KIT_NAME, KIT_VERSION } from './version.js';

export interface TckOptions extends Selection {
  /** Conformance server URL; omitted: the embedded reference server on a free port. */
  url?: string;
  grading?: GradingRuleName;
  bail?: boolean;
  requestTimeoutMs?: number;
  scenarioTimeoutMs?: number;
  maxBodyBytes?: number;
  /** Bound on the whole run; scenarios not finished by then are reported as not run. */
  maxTimeMs?: number;
  /** How long a target that stopped answering gets to come back before the rest is not run. */
  reconnectWindowMs?: number;
  /**
   * Aborting it stops the run and resolves a partial report marked `interrupted` (abort with a
   * RunStopped from the engine to word the reason, e.g. "interrupted by SIGINT").
   */
  signal?: AbortSignal;
  /** Extra request headers (e.g. Authorization); their values never reach a report. */
  headers?: Record<string, string>;
  onStart?: (scenario: Scenario) => void;
  onResult?: (result: ScenarioResult) => void;
  onExchange?: (exchange: Exchange) => void;
  /** Scenarios to draw from (default: every suite of the kit). */
  suite?: readonly Scenario[];
}

export async function runTck(options: TckOptions = {}): Promise<Report> {
  const all = options.suite ?? (await import('../suites/index.js')).ALL_SCENARIOS;
  const tier: ScenarioTier = options.tier ?? 'gold';
  const selected = selectScenarios(all, options);
  const embedded = options.url === undefined ? await startEmbedded() : undefined;
  const url = options.url ?? embedded!.url;
  const startedAt = new Date();
  const client = new BridgeClient({
    url,
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  let unreachable: TargetUnreachable | undefined;
  try {
    const { setup, results, warnings, stopped } = await runScenarios(client, selected, {
      ...(options.scenarioTimeoutMs !== undefined ? { scenarioTimeoutMs: options.scenarioTimeoutMs } : {}),
      ...(options.maxTimeMs !== undefined ? { maxTimeMs: options.maxTimeMs } : {}),
      ...(options.reconnectWindowMs !== undefined ? { reconnectWindowMs: options.reconnectWindowMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.bail !== undefined ? { bail: options.bail } : {}),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onResult ? { onResult: options.onResult } : {}),
    }).catch((err: unknown) => {
      // Nothing answered the first request: the error still carries a report that says so.
      if (!(err instanceof TargetUnreachable)) throw err;
      unreachable = err;
      return unreachableRun(selected, err);
    });
    const endedAt = new Date();
    const g = grade(results, options.grading ?? 'strict');
    const report: Report = {
      format: 'agent-memory-tck/report',
      formatVersion: REPORT_FORMAT_VERSION,
      kit: { name: KIT_NAME, version: KIT_VERSION, protocol: KIT_PROTOCOL },
      target: { url: client.url, embedded: embedded !== undefined, ...(setup.protocolVersion ? { protocolVersion: setup.protocolVersion } : {}) },
      startedAt: startedAt.toISOString(),
      endedAt: endedAt.toISOString(),
      durationMs: endedAt.getTime() - startedAt.getTime(),
      environment: { node: process.version, platform: process.platform, arch: process.arch },
      selection: {
        tier,
        ...(options.grep ? { grep: options.grep } : {}),
        ...(options.scenarios?.length ? { scenarios: options.scenarios } : {}),
        ...(options.skip?.length ? { skip: options.skip } : {}),
      },
      grading: { rule: g.rule.name, description: g.rule.description, required: g.rule.required },
      tiers: g.tiers,
      achieved: g.achieved,
      requestedTier: tier,
      success: reaches(g.achieved, tier),
      warnings: [...setup.warnings, ...warnings],
      interrupted: stopped?.interrupted ?? false,
      scenarios: withRepros(results, client.url),
    };
    if (unreachable) {
      unreachable.report = report;
      throw unreachable;
    }
    return report;
  } finally {
    await client.close();
    await embedded?.close();
  }
}

async function startEmbedded() {
  const { startReferenceServer } = await import('./reference/index.js');
  return startReferenceServer({ port: 0 });
}
