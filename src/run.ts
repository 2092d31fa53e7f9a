// The programmatic entry point: runTck resolves to the same report object the JSON reporter writes.
import { BridgeClient } from './bridge/index.js';
import type { Exchange } from './bridge/index.js';
import { grade, reaches, type GradingRuleName } from './engine/grading.js';
import { KIT_PROTOCOL, runScenarios, type ScenarioResult } from './engine/runner.js';
import type { Scenario, ScenarioTier } from './engine/scenario.js';
import { selectScenarios, type Selection } from './engine/select.js';
import { REPORT_FORMAT_VERSION, type Report } from './report/model.js';
import { KIT_NAME, KIT_VERSION } from './version.js';

export interface TckOptions extends Selection {
  /** Conformance server URL; omitted: the embedded reference server on a free port. */
  url?: string;
  grading?: GradingRuleName;
  bail?: boolean;
  requestTimeoutMs?: number;
  scenarioTimeoutMs?: number;
  maxBodyBytes?: number;
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
  try {
    const { setup, results } = await runScenarios(client, selected, {
      ...(options.scenarioTimeoutMs !== undefined ? { scenarioTimeoutMs: options.scenarioTimeoutMs } : {}),
      ...(options.bail !== undefined ? { bail: options.bail } : {}),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onResult ? { onResult: options.onResult } : {}),
    });
    const endedAt = new Date();
    const g = grade(results, options.grading ?? 'strict');
    return {
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
      warnings: setup.warnings,
      interrupted: false,
      scenarios: results,
    };
  } finally {
    await client.close();
    await embedded?.close();
  }
}

async function startEmbedded() {
  const { startReferenceServer } = await import('./reference/index.js');
  return startReferenceServer({ port: 0 });
}
