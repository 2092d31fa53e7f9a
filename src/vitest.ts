// agent-memory-tck/vitest: the kit's scenarios as live vitest tests. Each selected scenario is its
// own `it` (under a `describe` per tier) that runs that scenario against the server when vitest
// runs it, so vitest's filtering (-t), watch mode, reporters and IDE integration apply to each one.
//
// The lifecycle is the protocol's: setup once before the first test, clear_all_data before each
// scenario (the runner's isolation), teardown after the last. Without `url`, the embedded
// reference server is started for the file and stopped after it.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { BridgeClient } from './profiles/bridge/index.js';
import { runWith } from './engine/runner.js';
import { bridgeDriver } from './profiles/bridge/driver.js';
import { type ScenarioResult } from './engine/result.js';
import { describeOutcome } from './profiles/bridge/context.js';
import { TIERS } from './engine/scenario.js';
import { type Scenario } from './profiles/bridge/scenario.js';
import { selectScenarios, type Selection } from './engine/select.js';
import { failureText } from './report/render/text.js';
import { ALL_SCENARIOS } from '../suites/index.js';
import { DEFAULT_LIMITS } from './util/limits.js';

export interface VitestTckOptions extends Selection {
  /** Conformance server base URL; omitted: the embedded reference server. */
  url?: string;
  /** Extra request headers (e.g. Authorization); their values never appear in a message. */
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  /** Bound on each scenario; vitest's own test timeout is set a little above it. */
  scenarioTimeoutMs?: number;
  /** Scenarios to draw from (default: every bridge scenario of the kit). */
  suite?: readonly Scenario[];
  /** The name of the outer describe (default "agent-memory-tck"). */
  name?: string;
}

/** Runs one scenario through `client` (no setup/teardown: the file does those once). */
export async function runScenarioOnce(client: BridgeClient, scenario: Scenario, scenarioTimeoutMs: number = DEFAULT_LIMITS.scenarioTimeoutMs): Promise<ScenarioResult> {
  const driver = { ...bridgeDriver(client), setup: async () => ({ ok: true, warnings: [] }), teardown: async () => {} };
  const { results } = await runWith(driver, [scenario], { scenarioTimeoutMs });
  return results[0]!;
}

/** A scenario's verdict as a test's: passes, skips with the kit's reason, or throws its evidence. */
export function assertPassed(result: ScenarioResult, skip: (reason: string) => void): void {
  if (result.outcome === 'passed') return;
  if (result.outcome === 'skipped' || result.outcome === 'not-run') return skip(result.message ?? result.outcome);
  const err = new Error(failureText(result, { all: true }));
  err.name = `${result.id} ${result.outcome}`;
  throw err;
}

/** Registers every selected scenario as its own vitest test: describe per tier, it per scenario. */
export function registerScenarios(options: VitestTckOptions = {}): void {
  const selected = selectScenarios(options.suite ?? ALL_SCENARIOS, options);
  const timeout = options.scenarioTimeoutMs ?? 30_000;
  let client: BridgeClient | undefined;
  let close: (() => Promise<void>) | undefined;

  describe(options.name ?? 'agent-memory-tck', () => {
    beforeAll(async () => {
      let url = options.url;
      if (url === undefined) {
        const { startReferenceServer } = await import('./servers/bridge/index.js');
        const server = await startReferenceServer({ port: 0 });
        url = server.url;
        close = () => server.close();
      }
      client = new BridgeClient({
        url,
        ...(options.headers ? { headers: options.headers } : {}),
        ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
      });
      const { outcome } = await client.call('setup', {});
      if (outcome.kind === 'transport') throw new Error(`cannot reach the conformance server at ${client.url}: ${outcome.reason}`);
      if (outcome.kind !== 'object' || outcome.value.ok !== true) throw new Error(`setup: expected 200 {"ok": true}, got ${describeOutcome(outcome)}`);
    }, 60_000);

    afterAll(async () => {
      try {
        await client?.call('teardown', {});
        await client?.close();
      } finally {
        await close?.();
      }
    });

    for (const tier of TIERS) {
      const scenarios = selected.filter((s) => s.tier === tier);
      if (scenarios.length === 0) continue;
      describe(tier, () => {
        for (const scenario of scenarios) {
          it(`${scenario.id} ${scenario.title}`, async (ctx) => {
            assertPassed(await runScenarioOnce(client!, scenario, timeout), (reason) => ctx.skip(reason));
          }, timeout + 5_000);
        }
      });
    }
  });
}
