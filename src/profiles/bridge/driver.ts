// The bridge profile's RunDriver: `setup` once (its protocol_version checked), `clear_all_data`
// before every scenario, `teardown` at the end, a Recorder per scenario. The loop itself is the
// engine's (runWith).
import { printable } from '../../engine/evidence.js';
import type { ScenarioLabel, ScenarioResult } from '../../engine/result.js';
import { TargetUnreachable, runWith, unreachableRunOf, type RunDriver, type RunOptions, type RunSummary, type SetupInfo } from '../../engine/runner.js';
import { PROTOCOL_VERSION, majorMinor } from '../../protocols/bridge/version.js';
import { firstContact } from './contact.js';
import type { BridgeClient } from './client.js';
import type { Exchange } from '../../engine/evidence.js';
import { Recorder, describeOutcome } from './context.js';
import type { Scenario } from './scenario.js';

/** What the bridge driver needs of a client: the BridgeClient, or a replay of recorded exchanges (src/certify). */
export type BridgeTransport = Pick<BridgeClient, 'call' | 'url' | 'timeoutMs'> & Partial<Pick<BridgeClient, 'fork'>>;

type BridgeRunOptions = RunOptions<Scenario, ScenarioResult>;
export type BridgeRunSummary = RunSummary<ScenarioResult>;

export async function runScenarios(client: BridgeTransport, scenarios: readonly Scenario[], options: BridgeRunOptions = {}): Promise<BridgeRunSummary> {
  return runWith(bridgeDriver(client), scenarios, options);
}

/** The bridge: setup/teardown calls, clear_all_data before each scenario, a Recorder per scenario. */
export function bridgeDriver(client: BridgeTransport): RunDriver<Scenario, Recorder, ScenarioLabel> {
  return {
    label: labelOf,
    setup: (signal) => callSetup(client, signal),
    teardown: async (signal) => void (await client.call('teardown', {}, { signal })),
    context: (scope) => {
      const scoped = (c: Pick<BridgeClient, 'call'>): Pick<BridgeClient, 'call'> => ({
        call: (method, params, opts) => c.call(method, params, { ...opts, signal: scope.signal }).then((r) => scope.observe(r)),
      });
      const fork = client.fork?.bind(client);
      return new Recorder(scoped(client), fork === undefined ? undefined : (shape) => {
        const lane = fork(shape);
        return { caller: scoped(lane), close: () => lane.close(), connectionsOpened: () => lane.connectionsOpened };
      });
    },
    run: async (scenario, ctx) => {
      // A scenario cannot be judged on a dirty store.
      await ctx.bridge.clear_all_data();
      await scenario.run(ctx);
    },
    probe: (m, p, o) => client.call(m, p, o),
    requestTimeoutMs: client.timeoutMs,
  };
}

export const labelOf = (s: Scenario): ScenarioLabel => ({ id: s.id, tier: s.tier, group: s.group, clauses: s.clauses, title: s.title });

/** The summary of a run whose first request found no target: every scenario not run. */
export function unreachableRun(scenarios: readonly Scenario[], err: TargetUnreachable): BridgeRunSummary {
  return unreachableRunOf(scenarios.map(labelOf), err);
}

/** A fault's reason after "got": "got 200 expected, got 401 …" would read twice; the status leads instead. */
function withStatus(reason: string, exchange: Exchange): string {
  const m = /^.+? expected, got (.*)$/s.exec(reason);
  if (m) return m[1]!;
  return exchange.status === undefined ? reason : `${exchange.status}: ${reason}`;
}

async function callSetup(client: BridgeTransport, signal: AbortSignal): Promise<SetupInfo> {
  // Nothing answers (exit 3), credentials refused or no bridge server (exit 2): contact.ts.
  const { outcome, exchange } = await firstContact(client, 'no scenario was run', signal);
  // Stopped before the first answer: nothing is judged, every scenario is reported as not run.
  if (signal.aborted) return { ok: false, warnings: [] };
  const warnings: string[] = [];
  if (outcome.kind !== 'object' || outcome.value.ok !== true) {
    warnings.push(printable(`setup: expected 200 {"ok": true}, got ${outcome.kind === 'violation' || outcome.kind === 'transport' ? withStatus(outcome.reason, exchange) : describeOutcome(outcome)}`));
    return { ok: false, warnings };
  }
  const reported = outcome.value.protocol_version;
  if (typeof reported !== 'string') {
    warnings.push(`setup did not report protocol_version; the kit checks bridge protocol ${PROTOCOL_VERSION}`);
    return { ok: true, warnings };
  }
  const version = printable(reported);
  if (majorMinor(version) !== majorMinor(PROTOCOL_VERSION)) {
    warnings.push(`target reports protocol_version ${version}; the kit checks ${PROTOCOL_VERSION}`);
  }
  return { ok: true, protocolVersion: version, warnings };
}
