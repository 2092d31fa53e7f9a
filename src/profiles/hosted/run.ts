// Runs the hosted profile: hosted scenarios against a hosted REST service (src/run/hosted.ts starts
// the embedded hosted reference service when no URL is given), through the engine's runner,
// graded pass or fail per group. The result is the `hosted` section of a report.
//
// The driver: setup is a reachability check (GET of the protected-resource metadata at the
// origin) and a check of the run's credential; there is no teardown and no per-scenario reset
// (the REST interface has no clear-all: each scenario creates its own data under fresh ids, and
// revokes the keys it created); the liveness probe is the same GET.
import { printable } from '../../engine/evidence.js';
import type { RunDriver, RunOptions } from '../../engine/runner.js';
import type { Ending } from '../../engine/result.js';
import { TargetRefused, TargetUnreachable, runLimits, runWith, unreachableRunOf } from '../../engine/runner.js';
import { selectScenarios, type Selection } from '../../engine/select.js';
import type { HostedGroupSummary, HostedReportScenario, HostedSection } from '../../report/model.js';
import { gradeLadder } from '../../engine/grading.js';
import { answered } from '../../engine/liveness.js';
import { normalizeEndpoint } from '../../protocols/hosted/endpoint.js';
import { RestClient, type RestExchange } from './client.js';
import { HostedRecorder, credentialRepro, fromEnv, type HostedTarget } from './context.js';
import { DISCOVERY } from '../../protocols/hosted/document.js';
import { reproScript } from '../../report/repro.js';
import { isFailing } from '../../engine/result.js';
import { HOSTED_GROUPS, type HostedGroup, type HostedScenario } from './scenario.js';

export interface HostedProfileOptions
  extends Omit<Selection, 'tier'>,
    Pick<RunOptions<HostedScenario, HostedScenarioResult>, 'scenarioTimeoutMs' | 'maxTimeMs' | 'reconnectWindowMs' | 'bail' | 'signal' | 'onStart' | 'onResult' | 'keepAssertions' | 'advisories'> {
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
  /** An API key of another workspace (for "reveal refuses another workspace's key" and the key list's workspace). */
  otherApiKey?: string;
  /** An access token of the service past its `exp` (for "an expired access token is refused"). */
  expiredToken?: string;
  /** An identity-provider token past its `exp` (for "the exchange refuses an expired subject token"). */
  expiredIdpToken?: string;
  /** An incomplete profile (nothing failed; scenarios skipped for inputs the run lacked) counts as a success. */
  allowIncomplete?: boolean;
  requestTimeoutMs?: number;
  maxBodyBytes?: number;
  onExchange?: (exchange: RestExchange) => void;
  /** The scenarios to draw from (default: suites/hosted). */
  suite?: readonly HostedScenario[];
}

type HostedLabel = Omit<HostedReportScenario, keyof Ending | 'repro'>;
export type HostedScenarioResult = HostedReportScenario;

/** A hosted target that did not answer at all; `section` reports every scenario as not run. */
export class HostedTargetUnreachable extends TargetUnreachable {
  section?: HostedSection;
  /** `refused`: the target answers but cannot be tested (docs/exit-codes.md: exit 2), the whole line. */
  constructor(url: string, reason: string, refused?: string) {
    super(url, reason, 'the hosted service', refused === undefined ? 'TCK_UNREACHABLE' : 'TCK_REFUSED', refused);
  }
}

/** "No such resource here": 404, 405, 501 or a web page (a bridge server, a web app, a wrong base URL). */
const foreignAnswer = (r: { outcome: { kind: string; status?: number; contentType?: string | undefined } }) =>
  r.outcome.kind === 'answer' && ([404, 405, 501].includes(r.outcome.status!) || /html/i.test(r.outcome.contentType ?? ''));

/**
 * Pass/fail per group (the engine's grader, groups not cumulative): a group passes when it has
 * scenarios and every one passed. A group is incomplete, not failed, when its only shortfall is
 * scenarios skipped for an input the run lacked (`incomplete`: the flags that would complete it).
 */
export function gradeHosted(results: readonly Pick<HostedScenarioResult, 'group' | 'outcome' | 'needs'>[]): { groups: HostedGroupSummary[]; passed: boolean; incomplete?: string[] } {
  const required = Object.fromEntries(HOSTED_GROUPS.map((g) => [g, 1])) as Record<HostedGroup, number>;
  const g = gradeLadder(results, (r: { group: HostedGroup }) => r.group, { levels: HOSTED_GROUPS, required, cumulative: false });
  return { groups: g.levels.map(({ level, ...counts }) => ({ group: level, ...counts })), passed: g.passed, ...(g.incomplete !== undefined ? { incomplete: g.incomplete } : {}) };
}

/** The scenarios a selection picks from the hosted suite (--tier does not apply). */
export function selectHosted(selection: Omit<Selection, 'tier'>, suite: readonly HostedScenario[]): HostedScenario[] {
  return selectScenarios(suite, selection);
}

/** An embedded hosted service the caller started (src/run/hosted.ts): its target and a minter of identity-provider tokens. */
export interface EmbeddedHosted {
  target: Pick<HostedTarget, 'baseUrl' | 'origin' | 'apiKey' | 'workspaceId'>;
  mint: () => Promise<string>;
  /** A key of another workspace of the embedded service. */
  otherApiKey: string;
  /** An access token of the embedded service, and an identity-provider token, both past their exp. */
  expiredToken: string;
  expiredIdpToken: string;
}

const PROBE_PATH = DISCOVERY.protectedResource;

export interface HostedRun {
  section: HostedSection;
  /** A signal (SIGINT, SIGTERM) ended the run early. */
  interrupted: boolean;
}

/** The hosted profile against `options.url`, or against `embedded` (started and stopped by the caller). */
export async function runHosted(options: HostedProfileOptions & { suite: readonly HostedScenario[]; embedded?: EmbeddedHosted }): Promise<HostedRun> {
  const started = performance.now();
  const selected = selectHosted(options, options.suite);
  const embedded = options.embedded;
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
    const expiredToken = embedded?.expiredToken ?? options.expiredToken;
    const expiredIdpToken = embedded?.expiredIdpToken ?? options.expiredIdpToken;
    client.learn(apiKey, token, otherApiKey, typeof given === 'string' ? given : undefined, expiredToken, expiredIdpToken);
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
      ...(expiredToken !== undefined ? { expiredToken } : {}),
      ...(expiredIdpToken !== undefined ? { expiredIdpToken } : {}),
      ...(idpToken !== undefined ? { idpToken: async () => { const t = await idpToken(); client.learn(t); return t; } } : {}),
    };
    const section = (results: HostedScenarioResult[], warnings: string[]): HostedSection => {
      const g = gradeHosted(results);
      return {
        profile: 'hosted',
        target: { url: baseUrl, origin: target.origin, embedded: target.embedded, credential: target.credentialKind, idpToken: embedded ? 'minted' : given !== undefined ? 'given' : 'none' },
        groups: g.groups,
        passed: g.passed,
        ...(g.incomplete !== undefined ? { incomplete: g.incomplete } : {}),
        warnings: warnings.map((w) => client.scrub(w)),
        durationMs: performance.now() - started,
        scenarios: results,
      };
    };

    const driver = hostedDriver(client, target);
    const runOptions: RunOptions<HostedScenario, HostedLabel & Ending> = {
      ...runLimits(options),
      ...(options.keepAssertions ? { keepAssertions: true } : {}),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(options.onResult ? { onResult: (r) => options.onResult!(client.scrubValue(r)) } : {}),
    };
    let summary;
    try {
      summary = await runWith(driver, selected, runOptions);
    } catch (err) {
      if (!(err instanceof TargetUnreachable)) throw err;
      const unreachable = new HostedTargetUnreachable(baseUrl, err.reason, err instanceof TargetRefused ? err.message : undefined);
      const run = unreachableRunOf(selected.map(driver.label), unreachable);
      unreachable.section = section(run.results, run.warnings);
      throw unreachable;
    }
    // Whatever a secret learned late may have reached earlier (messages, expected/actual, notes): scrubbed once more.
    const results = summary.results.map((r): HostedScenarioResult => {
      const clean = client.scrubValue(r);
      if (!isFailing(clean.outcome)) return clean;
      const script = reproScript(r, {
        url: baseUrl,
        envVar: 'TCK_HOSTED_URL',
        embedded: target.embedded,
        what: "agent-memory-tck's hosted profile",
        notes: ["No credential is written here: the run's own come from TCK_API_KEY, TCK_TOKEN and TCK_OTHER_API_KEY."],
        authorization: (ex) => credentialRepro(ex as RestExchange),
      });
      return { ...clean, repro: client.scrub(script) };
    });
    return { section: section(results, [...summary.setup.warnings, ...summary.warnings]), interrupted: summary.stopped?.interrupted ?? false };
  } finally {
    await client.close();
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
      // Unreachable only without any HTTP status (see callSetup in src/profiles/bridge/driver.ts).
      if (reach.outcome.kind === 'transport' && !answered(reach)) throw new TargetUnreachable(target.baseUrl, reach.outcome.reason);
      const warnings: string[] = [];
      if (reach.outcome.kind === 'transport') warnings.push(`the probe ${PROBE_PATH} was answered, but: ${reach.outcome.reason}`);
      const auth = await client.request({ method: 'GET', url: `${target.baseUrl}/conversations`, operation: 'setup', authorization: target.credential.authorization!, signal });
      // Nothing can be tested with a refused credential, nor at a server of another interface
      // (a bridge server's URL given to --hosted): one line, exit 2, as on every command.
      if (auth.outcome.kind === 'answer' && (auth.outcome.status === 401 || auth.outcome.status === 403)) {
        const which = target.credentialKind === 'api-key' ? 'API key' : 'access token';
        throw new TargetRefused(target.baseUrl, `${target.baseUrl} refuses the run's ${which}: GET /conversations answered ${auth.outcome.status}; check --api-key KEY or --token TOKEN (or TCK_API_KEY, TCK_TOKEN); no scenario was run`);
      }
      if (foreignAnswer(auth) && foreignAnswer(reach)) {
        const said = (r: typeof auth) => `${r.outcome.kind === 'answer' ? r.outcome.status : ''}${r.outcome.kind === 'answer' && /html/i.test(r.outcome.contentType ?? '') ? ' with an HTML page' : ''}`;
        throw new TargetRefused(target.baseUrl, `${target.baseUrl} is not a hosted REST service: GET /conversations answered ${said(auth)}, GET ${PROBE_PATH} ${said(reach)}; no scenario was run (a bridge server is tested with --url, the hosted service's /v1 base URL with --hosted)`);
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
