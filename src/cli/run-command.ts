// `tck run`: select, run, report, and turn the verdict into an exit code.
import { join, relative, resolve } from 'node:path';
import type { Exchange } from '../profiles/bridge/index.js';
import { scenariosOf } from '../report/render/view.js';
import { shellWord } from '../report/render/text.js';
import { targetWords, type TargetFlags } from './target.js';
import type { ScenarioTier } from '../engine/scenario.js';
import type { GradingRuleName } from '../engine/grading.js';
import type { AdvisoryMode } from '../engine/result.js';
import { ConsoleReporter, SILENT } from '../report/render/console.js';
import { RunUnreachable, isHostedId, profilesOf, runTck, type HostedOptions } from '../run/run.js';
import { EXIT, TckError } from '../engine/errors.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';
import { headersFrom } from './options.js';
import { startVendorServer, type VendorServer } from './vendor-server.js';
import { exitCodeOf, finalReport, planOf, prepareRun, publishRun, writeRunFiles, type ReportingFlags, type RunPreparation } from './report-commands.js';

interface RunFlags extends ReportingFlags, TargetFlags {
  tier: ScenarioTier;
  grep?: string;
  scenario?: string[];
  skip?: string[];
  grading: GradingRuleName;
  advisories: AdvisoryMode;
  /** --bail (true) or --bail N. */
  bail?: boolean | number;
  maxFailures?: number;
  requestTimeout: number;
  scenarioTimeout: number;
  maxBody: number;
  maxTime: number;
  reconnectWindow: number;
  header?: string[];
  out: string;
  /** Where --out came from (commander's source: "default", "cli", "config"). */
  outFrom?: string;
  /** Where --tier came from (the same). */
  tierFrom?: string;
  quiet?: boolean;
  failuresOnly?: boolean;
  verbose?: boolean;
  /** A shell command that starts the server under test (vendor-server.ts). */
  server?: string;
  serverTimeout: number;
  /** true: the embedded hosted reference service; a string: the hosted service's URL. */
  hosted?: boolean | string;
  apiKey?: string;
  token?: string;
  idpToken?: string;
  workspace?: string;
  otherApiKey?: string;
  expiredToken?: string;
  expiredIdpToken?: string;
  allowIncomplete?: boolean;
}

const HOSTED_FLAGS: [keyof RunFlags, string][] = [
  ['apiKey', '--api-key'],
  ['token', '--token'],
  ['idpToken', '--idp-token'],
  ['workspace', '--workspace'],
  ['otherApiKey', '--other-api-key'],
  ['expiredToken', '--expired-token'],
  ['expiredIdpToken', '--expired-idp-token'],
  ['allowIncomplete', '--allow-incomplete'],
];

/**
 * The hosted profile's options from the flags and the environment (flags win; an empty variable
 * counts as unset). With the embedded service only the flags apply: it issues its own credentials.
 */
async function hostedOptionsOf(flags: RunFlags, env: NodeJS.ProcessEnv = process.env): Promise<HostedOptions | undefined> {
  if (flags.hosted === undefined || flags.hosted === false) {
    const used = HOSTED_FLAGS.filter(([k]) => flags[k] !== undefined).map(([, f]) => f);
    if (used.length > 0) throw new TckError(`${used.join(', ')} ${used.length === 1 ? 'needs' : 'need'} --hosted`);
    return undefined;
  }
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] === '' ? undefined : env[name]);
  if (flags.hosted === true) {
    const { ApiKeyRegistry } = await import('../servers/hosted/index.js');
    for (const [k, f] of [['token', '--token'], ['idpToken', '--idp-token'], ['otherApiKey', '--other-api-key'], ['expiredToken', '--expired-token'], ['expiredIdpToken', '--expired-idp-token']] as const) {
      if (flags[k] !== undefined) throw new TckError(`${f} needs --hosted URL: the embedded hosted service issues its own credentials and tokens`);
    }
    if (flags.apiKey !== undefined && !ApiKeyRegistry.isWellFormed(flags.apiKey)) {
      throw new TckError('--api-key for the embedded hosted service must be "nams_" followed by at least 16 characters of A-Z a-z 0-9 _ -');
    }
    return { ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}), ...(flags.workspace !== undefined ? { workspaceId: flags.workspace } : {}), ...(flags.allowIncomplete ? { allowIncomplete: true } : {}) };
  }
  const { normalizeEndpoint } = await import('../servers/hosted/index.js');
  let url: string;
  try {
    url = normalizeEndpoint(flags.hosted, { url: '--hosted URL', key: '--api-key or TCK_API_KEY' });
  } catch (err) {
    throw new TckError((err as Error).message);
  }
  const apiKey = pick(flags.apiKey, 'TCK_API_KEY');
  const token = pick(flags.token, 'TCK_TOKEN');
  if (apiKey === undefined && token === undefined) throw new TckError('--hosted URL needs a credential: --api-key KEY or --token TOKEN (or TCK_API_KEY, TCK_TOKEN)');
  const optional = {
    idpToken: pick(flags.idpToken, 'TCK_IDP_TOKEN'),
    workspaceId: pick(flags.workspace, 'TCK_WORKSPACE'),
    otherApiKey: pick(flags.otherApiKey, 'TCK_OTHER_API_KEY'),
    expiredToken: pick(flags.expiredToken, 'TCK_EXPIRED_TOKEN'),
    expiredIdpToken: pick(flags.expiredIdpToken, 'TCK_EXPIRED_IDP_TOKEN'),
  };
  return {
    url,
    ...(flags.allowIncomplete ? { allowIncomplete: true } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(token !== undefined ? { token } : {}),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

export async function runCommand(flags: RunFlags): Promise<number> {
  // TCK_URL stands in for --url (an empty value counts as unset), as TCK_HEADERS does for --header.
  if (flags.url === undefined && (process.env.TCK_URL ?? '') !== '') flags = { ...flags, url: process.env.TCK_URL!, urlFrom: 'TCK_URL' };
  // With --hosted only a --url on the command line adds the bridge suites: a TCK_URL left in the
  // environment (or a config file's url) is the bridge target of other runs, not a request for both.
  if (isHostedRun(flags) && flags.url !== undefined && flags.urlFrom !== '--url') {
    process.stderr.write(`tck: ${flags.urlFrom ?? 'TCK_URL'} is not used: --hosted runs the hosted profile alone; add --url to run the bridge suites too\n`);
    flags = { ...flags, url: undefined, urlFrom: undefined };
  }
  // The hosted profile has groups, not tiers: --tier with --hosted alone would be silently ignored.
  if (isHostedRun(flags) && flags.url === undefined && flags.tierFrom === 'cli') {
    throw new TckError(`--tier ${flags.tier} applies to the bridge suites; --hosted alone runs the hosted profile, whose groups have no tiers (add --url to run the bridge suites up to ${flags.tier} too)`);
  }
  const apart = reportsApart(flags);
  flags = apart.flags;
  const headers = headersFrom(flags.header);
  bailOf(flags); // --bail N against --max-failures M: refused before anything runs
  const hosted = await hostedOptionsOf(flags);
  const { HOSTED_SCENARIOS } = await import('../../suites/hosted/index.js');
  const prep = await prepareRun(flags, (await planOf({})).map((s) => s.id), hosted !== undefined ? HOSTED_SCENARIOS.map((s) => s.id) : []);
  if (apart.note) process.stderr.write(`tck: ${apart.note}\n`);
  if (prep.nothingToRun) {
    process.stdout.write(`${prep.nothingToRun}\n`);
    return EXIT.ok;
  }
  if (flags.server !== undefined && flags.url === undefined) throw new TckError('--server needs --url (or TCK_URL, or "url" in the config file): the address the server will answer at');
  const console = new ConsoleReporter({ quiet: !!flags.quiet, failuresOnly: !!flags.failuresOnly, verbose: !!flags.verbose, ...(flags.reporter.includes('console') ? {} : { stream: SILENT }) });
  // From here on SIGINT/SIGTERM stop the run and still get the reports written (exit 130/143).
  const interrupts = watchInterrupts();
  let server: VendorServer | undefined;
  try {
    if (flags.server !== undefined) {
      server = await startVendorServer({ command: flags.server, url: flags.url!, timeoutMs: flags.serverTimeout, outDir: flags.out, echo: !!flags.verbose, signal: interrupts.signal });
    }
    const code = await runAndReport(flags, headers, hosted, console, interrupts.signal, prep);
    return interrupts.received ? SIGNAL_EXIT[interrupts.received] : code;
  } finally {
    await server?.stop();
    interrupts.dispose();
  }
}

async function runAndReport(
  flags: RunFlags,
  headers: Record<string, string>,
  hosted: HostedOptions | undefined,
  console: ConsoleReporter,
  signal: AbortSignal,
  prep: RunPreparation,
): Promise<number> {
  let report;
  try {
    const selection = {
      tier: flags.tier,
      ...(flags.grep !== undefined ? { grep: flags.grep } : {}),
      scenarios: prep.scenarios ?? (flags.scenario ?? []).map((s) => s.toUpperCase()),
      skip: (flags.skip ?? []).map((s) => s.toUpperCase()),
    };
    const strays = [...selection.scenarios, ...selection.skip].filter(isHostedId);
    if (hosted === undefined && strays.length > 0) throw new TckError(`${strays.join(', ')}: scenarios of the hosted profile; add --hosted [URL]`);
    const profiles = profilesOf({ ...selection, ...(flags.url !== undefined ? { url: flags.url } : {}), ...(hosted ? { hosted } : {}) });
    const [{ selectHosted }, { HOSTED_SCENARIOS }] = await Promise.all([import('../profiles/hosted/run.js'), import('../../suites/hosted/index.js')]);
    const plan = [
      ...(profiles.bridge ? await planOf({ ...selection, ...profiles.bridge }) : []),
      ...(profiles.hosted ? selectHosted({ ...selection, ...profiles.hosted }, HOSTED_SCENARIOS).map((s) => ({ id: s.id, tier: 'hosted', title: s.title })) : []),
    ];
    // A selection of nothing would read as a failed run; it is a usage mistake.
    if (plan.length === 0) throw new TckError(`no scenario matches the selection${flags.grep !== undefined ? ` (--grep ${JSON.stringify(flags.grep)})` : ''} (see \`npx tck list\`)`, 'TCK_SELECTION');
    // Where the target came from, as every command that talks to a server says it (target.ts); a
    // URL that cannot be one is refused first (exit 2, nothing printed).
    if (flags.url !== undefined) (await import('../profiles/bridge/client.js')).parseTarget(flags.url);
    if (flags.reporter.includes('console') && !flags.quiet) process.stdout.write(`${runTargetLine(flags)}\n`);
    console.begin(plan);
    report = await runTck({
      ...(hosted !== undefined
        ? {
            hosted: {
              ...hosted,
              onStart: (s) => console.onStart({ id: s.id, tier: 'hosted', title: s.title }),
              onResult: (r) => console.onResult({ ...r, tier: 'hosted' }),
              ...(flags.verbose ? { onExchange: (ex: Exchange) => console.onExchange(ex) } : {}),
            },
          }
        : {}),
      ...(flags.url !== undefined ? { url: flags.url } : {}),
      ...selection,
      grading: flags.grading,
      advisories: flags.advisories,
      bail: bailOf(flags),
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
    if (err instanceof RunUnreachable) {
      // One line and exit 3; the report (every scenario not run, and why) is still written, quietly.
      console.stop();
      await writeRunFiles(err.report, flags, true);
      // Exit 3 is the commonest CI failure: the step summary and an annotation still say what happened.
      await publishRun(err.report, { ...flags, writeBaseline: undefined }, undefined).catch(() => undefined);
    }
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
  const code = exitCodeOf(final.report);
  // A run that did not pass ends with the command that re-runs what it did not check to pass.
  const again = scenariosOf(final.report).some((s) => s.outcome === 'failed' || s.outcome === 'error' || s.outcome === 'not-run');
  if (code !== EXIT.ok && again && !flags.quiet && flags.reporter.includes('json') && flags.reporter.includes('console')) {
    const file = relative(process.cwd(), join(resolve(flags.out), 'report.json')) || 'report.json';
    // The target given on the command line goes with it; TCK_URL and the config file apply again by themselves.
    const url = flags.urlFrom === '--url' && flags.url !== undefined ? ` --url ${shellWord(flags.url)}` : '';
    process.stdout.write(`re-run what failed, errored or did not run: npx tck run --only-failed ${shellWord(file)}${url}${hostedHint(flags)}\n`);
  }
  return code;
}

/** "testing http://… (from TCK_URL)", the bridge target and the hosted one, each with where it came from. */
function runTargetLine(flags: RunFlags): string {
  const hosted = isHostedRun(flags) ? (flags.hosted === true ? 'the embedded hosted reference service' : `the hosted service at ${String(flags.hosted)} (from --hosted)`) : undefined;
  const bridge = flags.url !== undefined ? targetWords(flags.url, flags.urlFrom, false) : hosted === undefined ? 'the embedded reference server (no --url, TCK_URL or "url" in a config file)' : undefined;
  return `testing ${[bridge, hosted].filter((t) => t !== undefined).join(' and ')}`;
}

const isHostedRun = (flags: Pick<RunFlags, 'hosted'>) => flags.hosted !== undefined && flags.hosted !== false;

/**
 * --only-failed never overwrites the report it reads (nor the files written beside it by the same
 * run): with the default --out the re-run's reports go to a folder of their own under it; an --out
 * given that would overwrite it is refused.
 */
function reportsApart(flags: RunFlags): { flags: RunFlags; note?: string } {
  if (flags.onlyFailed === undefined || resolve(flags.out, 'report.json') !== resolve(flags.onlyFailed)) return { flags };
  if (flags.outFrom !== undefined && flags.outFrom !== 'default') {
    throw new TckError(`--out ${flags.out} would overwrite ${flags.onlyFailed}, the report --only-failed reads: choose another --out`);
  }
  const out = join(flags.out, 'rerun');
  return { flags: { ...flags, out }, note: `the re-run's reports go to ${out} (${flags.onlyFailed} is kept)` };
}

/** The hosted flags of the re-run hint: --hosted [URL], and a placeholder for a credential given as a flag (never its value). */
function hostedHint(flags: RunFlags): string {
  if (!isHostedRun(flags)) return '';
  if (flags.hosted === true) return ' --hosted';
  const credential = flags.apiKey !== undefined ? ' --api-key KEY' : flags.token !== undefined ? ' --token TOKEN' : '';
  return ` --hosted ${shellWord(flags.hosted as string)}${credential}`;
}

/** --bail, --bail N and --max-failures N as one bound: how many failures stop the run (false: none). */
function bailOf(flags: Pick<RunFlags, 'bail' | 'maxFailures'>): boolean | number {
  const n = flags.maxFailures ?? (flags.bail === true ? 1 : flags.bail);
  if (flags.maxFailures !== undefined && typeof flags.bail === 'number' && flags.bail !== flags.maxFailures) throw new TckError(`--bail ${flags.bail} and --max-failures ${flags.maxFailures} disagree: give one`);
  return n === undefined || n === false ? false : n;
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
