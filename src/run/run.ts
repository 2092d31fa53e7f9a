// The programmatic entry point: runTck resolves to the same report object the JSON reporter writes.
//
// Profiles: the bridge suites run against `url` (or the embedded reference server); with `hosted`,
// the hosted profile runs against `hosted.url` (or the embedded hosted reference service). With
// `hosted` and no `url` only the hosted profile runs; with both, both run, the bridge suites first,
// each graded on its own, and `success` needs both.
import { BridgeClient } from '../profiles/bridge/index.js';
import type { Exchange } from '../profiles/bridge/index.js';
import { TIER_RANK, grade, reaches, type GradingRuleName } from '../engine/grading.js';
import { TargetUnreachable, runLimits } from '../engine/runner.js';
import { labelOf, runScenarios, unreachableRun, type BridgeRunSummary } from '../profiles/bridge/driver.js';
import { type AdvisoryMode, type ScenarioResult } from '../engine/result.js';
import { DEFAULT_TIER, type ScenarioTier } from '../engine/scenario.js';
import type { Scenario } from '../profiles/bridge/scenario.js';
import { SelectionError, selectScenarios, type Selection } from '../engine/select.js';
import type { HostedProfileOptions, HostedRun } from '../profiles/hosted/run.js';
import type { Report } from '../report/model.js';
import { withRepros } from '../report/repro.js';
import { DEFAULT_LIMITS } from '../util/limits.js';
import { reportEnvelope } from '../report/envelope.js';
import { advisorySummary } from '../report/advisories.js';

export interface TckOptions extends Selection {
  /** Conformance server URL; omitted: the embedded reference server on a free port. */
  url?: string;
  grading?: GradingRuleName;
  /** Advisories (the kit's own readings): noted beside the verdict (default), or failures. */
  advisories?: AdvisoryMode;
  /** Stop after the first failing scenario (true), or after this many. */
  bail?: boolean | number;
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
  /** Keep every scenario's exchanges, passed ones included (`tck certify`). */
  keepExchanges?: boolean;
  /** Keep every assertion of every scenario in its result, `checked` (the clause map, `tck explain`). */
  keepAssertions?: boolean;
  /** Scenarios to draw from (default: every suite of the kit). */
  suite?: readonly Scenario[];
  /**
   * Run the hosted profile too (alone when `url` is not given): its target, credentials and
   * callbacks. Selection, timeouts, bail and the signal are the run's.
   */
  hosted?: HostedOptions;
}

/** The hosted profile's own options within runTck. */
export type HostedOptions = Omit<HostedProfileOptions, keyof Selection | 'requestTimeoutMs' | 'scenarioTimeoutMs' | 'maxBodyBytes' | 'maxTimeMs' | 'reconnectWindowMs' | 'bail' | 'signal' | 'keepAssertions' | 'advisories'>;

/** Hosted scenario ids (SCN-H-…) select the hosted profile's scenarios; the others the bridge suites'. */
export const isHostedId = (id: string): boolean => /^SCN-H-/i.test(id);

/** Which profiles a run's options run, and each one's part of --scenario and --skip. */
export function profilesOf(options: Pick<TckOptions, 'url' | 'hosted' | 'scenarios' | 'skip'>): { bridge?: Selection; hosted?: Selection } {
  const ids = options.scenarios ?? [];
  const pick = (hosted: boolean) => ({
    scenarios: ids.filter((id) => isHostedId(id) === hosted),
    skip: (options.skip ?? []).filter((id) => isHostedId(id) === hosted),
  });
  const bridge = pick(false);
  const hosted = pick(true);
  const wantsBridge = options.hosted === undefined || options.url !== undefined;
  return {
    // With --scenario, a profile none of whose ids are listed does not run.
    ...(wantsBridge && (ids.length === 0 || bridge.scenarios.length > 0) ? { bridge } : {}),
    ...(options.hosted !== undefined && (ids.length === 0 || hosted.scenarios.length > 0) ? { hosted } : {}),
  };
}

export async function runTck(options: TckOptions = {}): Promise<Report> {
  const strays = [...(options.scenarios ?? []), ...(options.skip ?? [])].filter(isHostedId);
  if (options.hosted === undefined && strays.length > 0) throw new SelectionError(`${strays.join(', ')}: scenarios of the hosted profile, which runs with the option hosted`);
  const profiles = profilesOf(options);
  const tier: ScenarioTier = options.tier ?? DEFAULT_TIER;
  const startedAt = new Date();
  let bridge: BridgeRun | undefined;
  let unreachable: TargetUnreachable | undefined;
  if (profiles.bridge !== undefined) {
    bridge = await runBridge({ ...options, ...profiles.bridge });
    unreachable = bridge.unreachable;
  }
  let hosted: HostedRun | undefined;
  if (profiles.hosted !== undefined && unreachable === undefined) {
    const [{ runHostedProfile }, { HostedTargetUnreachable }] = await Promise.all([import('./hosted.js'), import('../profiles/hosted/run.js')]);
    try {
      hosted = await runHostedProfile({
        ...options.hosted!,
        ...profiles.hosted,
        ...(options.grep !== undefined ? { grep: options.grep } : {}),
        ...(options.requestTimeoutMs !== undefined ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
        ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
        ...(options.keepAssertions ? { keepAssertions: true } : {}),
        ...runLimits(options),
      });
    } catch (err) {
      if (!(err instanceof HostedTargetUnreachable) || err.section === undefined) throw err;
      unreachable = err;
      hosted = { section: err.section, interrupted: false };
    }
  }
  const endedAt = new Date();
  const results = bridge?.summary.results ?? [];
  const g = grade(results, options.grading ?? 'strict', bridge?.population);
  // A narrowed run (fewer scenarios than its tiers have) is judged as a selection and reaches no tier.
  const selected = results.filter((r) => !r.skippedBySelection);
  const narrowed =
    bridge !== undefined && selected.length < bridge.populationTotal
      // setup is the selection's first call: a setup answered against the protocol fails it too.
      ? { passed: bridge.summary.setup.ok && selected.length > 0 && selected.every((r) => r.outcome === 'passed'), selected: selected.length, passing: selected.filter((r) => r.outcome === 'passed').length, population: bridge.populationTotal }
      : undefined;
  if (narrowed) g.achieved = null;
  const bridgeSuccess = narrowed ? narrowed.passed : reaches(g.achieved, tier);
  const target = bridge?.target ?? { url: hosted?.section.target.url ?? '', embedded: hosted?.section.target.embedded ?? false };
  const report: Report = {
    ...reportEnvelope(target, startedAt, endedAt),
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
    ...(narrowed ? { narrowed } : {}),
    success: (bridge === undefined || bridgeSuccess) && (hosted === undefined || hostedSuccess(hosted.section, options.hosted?.allowIncomplete)) && (bridge !== undefined || hosted !== undefined),
    warnings: [...(bridge?.summary.setup.warnings ?? []), ...(bridge?.summary.warnings ?? [])],
    interrupted: (bridge?.summary.stopped?.interrupted ?? false) || (hosted?.interrupted ?? false),
    scenarios: bridge === undefined ? [] : withRepros(results.map(({ skippedBySelection: _, ...r }) => r), { url: bridge.target.url, embedded: bridge.target.embedded }),
    ...(hosted !== undefined || bridge === undefined ? { profiles: [...(bridge ? ['bridge' as const] : []), ...(hosted ? ['hosted' as const] : [])] } : {}),
    ...(hosted !== undefined ? { hosted: hosted.section } : {}),
    advisories: advisorySummary([...results, ...(hosted?.section.scenarios ?? [])], options.advisories ?? 'report'),
  };
  if (unreachable) throw new RunUnreachable(unreachable, report);
  return report;
}

/** Nothing answered the first request; the error still carries the report that says so (every scenario not run). */
export class RunUnreachable extends TargetUnreachable {
  constructor(
    cause: TargetUnreachable,
    readonly report: Report,
  ) {
    super(cause.url, cause.reason, undefined, cause.code as 'TCK_UNREACHABLE' | 'TCK_REFUSED', cause.message);
  }
}

interface BridgeRun {
  /** Results in suite order; those --skip left out are `skipped` and marked. */
  summary: { results: (ScenarioResult & { skippedBySelection?: true })[] } & Omit<BridgeRunSummary, 'results'>;
  /** Scenarios each tier up to the requested one has in full, and their sum. */
  population: Partial<Record<ScenarioTier, number>>;
  populationTotal: number;
  target: Report['target'];
  /** Set when nothing answered the first request (the summary then says every scenario was not run). */
  unreachable?: TargetUnreachable;
}

/** The bridge suites against `options.url` (or the embedded reference server). */
async function runBridge(options: TckOptions): Promise<BridgeRun> {
  const all = options.suite ?? (await import('../../suites/index.js')).ALL_SCENARIOS;
  const selected = selectScenarios(all, options);
  const upTo = TIER_RANK[options.tier ?? 'gold'];
  const inTiers = all.filter((s) => TIER_RANK[s.tier] <= upTo);
  const population: Partial<Record<ScenarioTier, number>> = {};
  for (const s of inTiers) population[s.tier] = (population[s.tier] ?? 0) + 1;
  // --skip leaves a scenario out of the run, not out of the report: it counts against its tier.
  const skipped = inTiers.filter((s) => options.skip?.includes(s.id) && (!options.scenarios?.length || options.scenarios.includes(s.id)));
  const inSuiteOrder = (results: ScenarioResult[]) => {
    const byId = new Map<string, ScenarioResult & { skippedBySelection?: true }>(results.map((r) => [r.id, r]));
    for (const s of skipped) byId.set(s.id, { ...labelOf(s), outcome: 'skipped', message: 'skipped by --skip', durationMs: 0, exchanges: [], notes: [], skippedBySelection: true });
    return inTiers.filter((s) => byId.has(s.id)).map((s) => byId.get(s.id)!);
  };
  const embedded = options.url === undefined ? await startEmbedded() : undefined;
  const url = options.url ?? embedded!.url;
  const client = new BridgeClient({
    url,
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    // A certification replays every exchange offline: it keeps each body whole (up to --max-body).
    ...(options.keepExchanges ? { evidenceBytes: options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes } : {}),
  });
  let unreachable: TargetUnreachable | undefined;
  try {
    const { setup, results, warnings, stopped } = await runScenarios(client, selected, {
      ...runLimits(options),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onResult ? { onResult: options.onResult } : {}),
      ...(options.keepExchanges ? { keepExchanges: true } : {}),
      ...(options.keepAssertions ? { keepAssertions: true } : {}),
    }).catch((err: unknown) => {
      // Nothing answered the first request: the error still carries a report that says so.
      if (!(err instanceof TargetUnreachable)) throw err;
      unreachable = err;
      return unreachableRun(selected, err);
    });
    return {
      summary: { setup, results: inSuiteOrder(results), warnings, ...(stopped ? { stopped } : {}) },
      population,
      populationTotal: inTiers.length,
      target: { url: client.url, embedded: embedded !== undefined, ...(setup.protocolVersion ? { protocolVersion: setup.protocolVersion } : {}) },
      ...(unreachable ? { unreachable } : {}),
    };
  } finally {
    await client.close();
    await embedded?.close();
  }
}

async function startEmbedded() {
  // The hosted reference store: the Bronze–Gold reference plus the Platinum methods.
  const [{ startReferenceServer }, { HostedStore }] = await Promise.all([import('../servers/bridge/index.js'), import('../servers/hosted/store.js')]);
  return startReferenceServer({ port: 0, store: new HostedStore() });
}

/** The hosted profile passed; or, when the run allows it, nothing of it failed and it is only incomplete. */
const hostedSuccess = (section: HostedRun['section'], allowIncomplete = false): boolean => section.passed || (allowIncomplete && section.incomplete !== undefined);
