// Runs the hosted profile: the scenarios of suites/hosted/ against a hosted REST service (or the
// embedded hosted reference service on a free port), through the engine's runner, graded pass or
// fail per group. The result is the `hosted` section of a report.
//
// The driver: setup is a reachability check (GET of the protected-resource metadata at the
// origin) and a check of the run's credential; there is no teardown and no per-scenario reset
// (the REST interface has no clear-all: each scenario creates its own data under fresh ids, and
// revokes the keys it created); the liveness probe is the same GET.
import { printable } from '../../engine/evidence.js';
import type { RunDriver, RunOptions } from '../../engine/runner.js';
import type { Ending } from '../../engine/result.js';
import { TargetUnreachable, runLimits, runWith, unreachableRunOf } from '../../engine/runner.js';
import { selectScenarios, type Selection } from '../../engine/select.js';
import type { HostedGroupSummary, HostedSection } from '../../report/model.js';
import { normalizeEndpoint } from '../../servers/forwarder/forward.js';
import { RestClient, type RestExchange } from './client.js';
import { HostedRecorder, credentialRepro, fromEnv, type HostedTarget } from './context.js';
import { DISCOVERY } from '../../protocols/hosted/document.js';
import { hostedReproScript } from './repro.js';
import { HOSTED_GROUPS, type HostedGroup, type HostedScenario } from './scenario.js';

export interface HostedProfileOptions
  extends Omit<Selection, 'tier'>,
    Pick<RunOptions<HostedScenario, HostedScenarioResult>, 'scenarioTimeoutMs' | 'maxTimeMs' | 'reconnectWindowMs' | 'bail' | 'signal' | 'onStart' | 'onResult'> {
  /** The service's REST base URL (…/v1) or its origin (which gets /v1); omitted: the embedded hosted reference service. */
  url?: string;
  /** The run's API key (with the embedded service: its bootstrap key). */
  apiKey?: string;
  /** The run's OAuth access token (used when no API key is given). */
  token?: string;
  /** Identity-provider tokens for the exchange: one token, or a function minting a fresh one. Without: those scenarios are skipped. */
  idpToken?: string | (() => Promise<string>);
  /** The workspace of the run's credential (default: learned from the key list, when it says). */
  workspaceId?: string;
  /** An API key of another workspace (for "reveal refuses another workspace's key"). */
  otherApiKey?: string;
  requestTimeoutMs?: number;
  maxBodyBytes?: number;
  onExchange?: (exchange: RestExchange) => void;
  /** The scenarios to draw from (default: suites/hosted). */
  suite?: readonly HostedScenario[];
}

export interface HostedLabel {
  id: string;
  group: HostedGroup;
  clauses: string[];
  title: string;
}

export type HostedScenarioResult = HostedLabel & Ending & { repro?: string };

/** A hosted target that did not answer at all; `section` reports every scenario as not run. */
export class HostedTargetUnreachable extends TargetUnreachable {
  section?: HostedSection;
  constructor(url: string, reason: string) {
    super(url, reason);
    this.message = printable(`cannot reach the hosted service at ${url}: ${reason}`);
  }
}

/** Pass/fail per group: a group passes when it has scenarios and every one passed. */
export function gradeHosted(results: readonly Pick<HostedScenarioResult, 'group' | 'outcome'>[]): { groups: HostedGroupSummary[]; passed: boolean } {
  const groups = HOSTED_GROUPS.map((group): HostedGroupSummary => {
    const mine = results.filter((r) => r.group === group);
    const count = (o: HostedScenarioResult['outcome']) => mine.filter((r) => r.outcome === o).length;
    const passed = count('passed');
    return { group, total: mine.length, passed, failed: count('failed'), error: count('error'), skipped: count('skipped'), notRun: count('not-run'), passes: mine.length > 0 && passed === mine.length };
  });
  const ran = groups.filter((g) => g.total > 0);
  return { groups, passed: ran.length > 0 && ran.every((g) => g.passes) };
}

/** The scenarios a selection picks from the hosted suite (--tier does not apply). */
export async function selectHosted(selection: Omit<Selection, 'tier'>, suite?: readonly HostedScenario[]): Promise<HostedScenario[]> {
  const all = suite ?? (await import('../../../suites/hosted/index.js')).HOSTED_SCENARIOS;
  return selectScenarios(all, selection);
}

interface Embedded {
  target: Pick<HostedTarget, 'baseUrl' | 'origin' | 'apiKey' | 'workspaceId'>;
  mint: () => Promise<string>;
  /** A key of another workspace of the embedded service. */
  otherApiKey: string;
  close(): Promise<void>;
}

/** The embedded hosted reference service on a free port, trusting an in-memory development identity provider. */
async function startEmbedded(apiKey: string | undefined, workspaceId: string | undefined): Promise<Embedded> {
  const { DevIdentityProvider, startHostedServer } = await import('../../servers/hosted/index.js');
  const idp = await DevIdentityProvider.generate();
  const server = await startHostedServer({
    port: 0,
    identityProviders: [idp.trustedIssuer()],
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(workspaceId !== undefined ? { workspaceId } : {}),
  });
  // A key of a second workspace, for the reveal rule: the service does not let a caller found one.
  const other = await server.keys.issue({ label: 'tck-other-workspace', scopes: ['read', 'write'], workspaceId: `${server.workspaceId}-other` });
  return {
    otherApiKey: other.key,
    target: { baseUrl: server.baseUrl, origin: server.url, apiKey: server.apiKey, workspaceId: server.workspaceId },
    mint: () => idp.mint({ workspaceId: server.workspaceId }),
    close: () => server.close(),
  };
}

const PROBE_PATH = DISCOVERY.protectedResource;

export interface HostedRun {
  section: HostedSection;
  /** A signal (SIGINT, SIGTERM) ended the run early. */
  interrupted: boolean;
}

export async function runHostedProfile(options: HostedProfileOptions = {}): Promise<HostedRun> {
  const started = performance.now();
  const selected = await selectHosted(options, options.suite);
  const embedded = options.url === undefined ? await startEmbedded(options.apiKey, options.workspaceId) : undefined;
  const client = new RestClient({
    ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  try {
    const baseUrl = embedded?.target.baseUrl ?? normalizeEndpoint(options.url!, { url: '--hosted URL', key: '--api-key or TCK_API_KEY' });
    const apiKey = embedded?.target.apiKey ?? options.apiKey;
    const token = options.token;
    if (apiKey === undefined && token === undefined) throw new Error('the hosted profile needs a credential: --api-key KEY or --token TOKEN (or TCK_API_KEY, TCK_TOKEN)');
    const given = options.idpToken;
    const idpToken = embedded?.mint ?? (typeof given === 'string' ? async () => given : given);
    const otherApiKey = embedded?.otherApiKey ?? options.otherApiKey;
    client.learn(apiKey, token, otherApiKey, typeof given === 'string' ? given : undefined);
    const target: HostedTarget = {
      baseUrl,
      origin: new URL(baseUrl).origin,
      embedded: embedded !== undefined,
      credential: apiKey !== undefined
        ? { authorization: `Bearer ${apiKey}`, label: "the run's API key", repro: fromEnv('TCK_API_KEY', "the run's API key") }
        : { authorization: `Bearer ${token}`, label: "the run's access token", repro: fromEnv('TCK_TOKEN', "the run's access token") },
      credentialKind: apiKey !== undefined ? 'api-key' : 'access-token',
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(token !== undefined ? { accessToken: token } : {}),
      ...((embedded?.target.workspaceId ?? options.workspaceId) !== undefined ? { workspaceId: (embedded?.target.workspaceId ?? options.workspaceId)! } : {}),
      ...(otherApiKey !== undefined ? { otherApiKey } : {}),
      ...(idpToken !== undefined ? { idpToken: async () => { const t = await idpToken(); client.learn(t); return t; } } : {}),
    };
    const section = (results: HostedScenarioResult[], warnings: string[]): HostedSection => {
      const g = gradeHosted(results);
      return {
        profile: 'hosted',
        target: { url: baseUrl, origin: target.origin, embedded: target.embedded, credential: target.credentialKind, idpToken: embedded ? 'minted' : given !== undefined ? 'given' : 'none' },
        groups: g.groups,
        passed: g.passed,
        warnings: warnings.map((w) => client.scrub(w)),
        durationMs: performance.now() - started,
        scenarios: results,
      };
    };

    const driver = hostedDriver(client, target);
    const runOptions: RunOptions<HostedScenario, HostedLabel & Ending> = {
      ...runLimits(options),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onResult ? { onResult: (r) => options.onResult!(client.scrubValue(r)) } : {}),
    };
    let summary;
    try {
      summary = await runWith(driver, selected, runOptions);
    } catch (err) {
      if (!(err instanceof TargetUnreachable)) throw err;
      const unreachable = new HostedTargetUnreachable(baseUrl, err.reason);
      const run = unreachableRunOf(selected.map(driver.label), unreachable);
      unreachable.section = section(run.results, run.warnings);
      throw unreachable;
    }
    // Whatever a secret learned late may have reached earlier (messages, expected/actual, notes): scrubbed once more.
    const results = summary.results.map((r): HostedScenarioResult => {
      const clean = client.scrubValue(r);
      if (clean.outcome !== 'failed' && clean.outcome !== 'error') return clean;
      const script = hostedReproScript(r as HostedScenarioResult & { exchanges: RestExchange[] }, baseUrl, target.origin, credentialRepro);
      return { ...clean, repro: client.scrub(script) };
    });
    return { section: section(results, [...summary.setup.warnings, ...summary.warnings]), interrupted: summary.stopped?.interrupted ?? false };
  } finally {
    await client.close();
    await embedded?.close();
  }
}

function hostedDriver(client: RestClient, target: HostedTarget): RunDriver<HostedScenario, HostedRecorder, HostedLabel> {
  const probe = (signal: AbortSignal, timeoutMs?: number) =>
    client.request({ method: 'GET', url: `${target.origin}${PROBE_PATH}`, operation: 'probe', signal, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  return {
    label: (s) => ({ id: s.id, group: s.group, clauses: s.clauses, title: s.title }),
    setup: async (signal) => {
      const reach = await probe(signal);
      if (signal.aborted) return { ok: false, warnings: [] };
      // Unreachable only without any HTTP status (see callSetup in src/engine/runner.ts).
      if (reach.outcome.kind === 'transport' && reach.exchange.status === undefined) throw new TargetUnreachable(target.baseUrl, reach.outcome.reason);
      const warnings: string[] = [];
      if (reach.outcome.kind === 'transport') warnings.push(`the probe ${PROBE_PATH} was answered, but: ${reach.outcome.reason}`);
      const auth = await client.request({ method: 'GET', url: `${target.baseUrl}/conversations`, operation: 'setup', authorization: target.credential.authorization!, signal });
      if (auth.outcome.kind === 'answer' && (auth.outcome.status === 401 || auth.outcome.status === 403)) {
        warnings.push(`the run's credential was refused (GET /conversations answered ${auth.outcome.status}): every scenario that needs it fails`);
      }
      if (target.workspaceId === undefined) await learnWorkspace(client, target, signal);
      return { ok: warnings.length === 0, warnings };
    },
    teardown: async () => {},
    context: (scope) => new HostedRecorder(client, target, scope),
    run: async (scenario, ctx) => {
      try {
        await scenario.run(ctx);
      } finally {
        await ctx.cleanup();
      }
    },
    probe: (_method, _params, opts) => probe(opts.signal ?? new AbortController().signal, opts.timeoutMs),
    probeName: `GET ${PROBE_PATH}`,
    requestTimeoutMs: client.timeoutMs,
  };
}

/**
 * The workspace of the run's credential when the key list says it (a top-level workspaceId, or
 * the keys' own). // silent: where the list puts the workspace, and whether it does at all.
 */
async function learnWorkspace(client: RestClient, target: HostedTarget, signal: AbortSignal): Promise<void> {
  const r = await client.request({ method: 'GET', url: `${target.baseUrl}/auth/api-keys`, operation: 'setup', authorization: target.credential.authorization!, signal });
  if (r.outcome.kind !== 'answer' || !r.outcome.isJson) return;
  const body = r.outcome.json as Record<string, unknown> | unknown[] | null;
  const items = Array.isArray(body) ? body : body !== null && typeof body === 'object' ? Object.values(body).find(Array.isArray) ?? [] : [];
  const top = body !== null && typeof body === 'object' && !Array.isArray(body) ? body.workspaceId : undefined;
  const first = (items as { workspaceId?: unknown }[]).find((k) => k !== null && typeof k === 'object' && typeof k.workspaceId === 'string')?.workspaceId;
  const found = typeof top === 'string' ? top : typeof first === 'string' ? first : undefined;
  if (found !== undefined) target.workspaceId = printable(found);
}
