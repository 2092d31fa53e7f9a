// `tck explore --hosted [URL] --api-key KEY`: seeded sequences over a hosted REST service's resource
// endpoints, judged by src/explore/hosted.ts. Checks the target first as `tck run --hosted` does
// (something answers; the credential is accepted; it is a hosted REST service), then explores,
// prints each finding with its minimal sequence and the sentence it breaks, and writes
// explore-hosted.json and a curl script per finding under --out. Without URL: the embedded hosted
// reference service.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { exploreHosted, HostedTransportError, type HostedExploreResult, type HostedFinding } from '../explore/hosted.js';
import { RestClient } from '../profiles/hosted/client.js';
import { fromEnv } from '../profiles/hosted/context.js';
import { normalizeEndpoint } from '../protocols/hosted/endpoint.js';
import { DISCOVERY } from '../protocols/hosted/document.js';
import { sentenceOf } from '../protocols/clauses/index.js';
import { reproScript } from '../report/repro.js';
import { EXIT, TckError } from '../engine/errors.js';
import { TargetRefused, TargetUnreachable } from '../engine/runner.js';
import { answered } from '../engine/liveness.js';
import { KIT_VERSION } from '../util/kit.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';
import { ensureWritableDir } from './paths.js';

interface ExploreHostedFlags {
  hosted: true | string;
  apiKey?: string;
  url?: string;
  seed?: number;
  runs: number;
  maxSteps: number;
  timeBudget: number;
  requestTimeout: number;
  out: string;
  reporter: readonly string[];
  path?: string;
  methods?: string;
  classes?: boolean;
  concurrency?: number;
  header?: string[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Nothing answers, a refused key, or no hosted REST service there: one line, exit 3 or 2. */
async function checkTarget(baseUrl: string, apiKey: string, requestTimeoutMs: number): Promise<void> {
  const client = new RestClient({ timeoutMs: requestTimeoutMs });
  client.learn(apiKey);
  try {
    const origin = new URL(baseUrl).origin;
    const reach = await client.request({ method: 'GET', url: `${origin}${DISCOVERY.protectedResource}`, operation: 'probe' });
    if (reach.outcome.kind === 'transport' && !answered(reach)) throw new TargetUnreachable(baseUrl, reach.outcome.reason, 'the hosted service');
    const auth = await client.request({ method: 'GET', url: `${baseUrl}/conversations`, operation: 'setup', authorization: `Bearer ${apiKey}` });
    if (auth.outcome.kind === 'transport' && !answered(auth)) throw new TargetUnreachable(baseUrl, auth.outcome.reason, 'the hosted service');
    const status = (r: typeof auth) => (r.outcome.kind === 'answer' ? r.outcome.status : undefined);
    if (status(auth) === 401 || status(auth) === 403) {
      throw new TargetRefused(baseUrl, `${baseUrl} refuses the run's API key: GET /conversations answered ${status(auth)}; check --api-key KEY (or TCK_API_KEY); nothing was explored`);
    }
    const foreign = (r: typeof auth) => r.outcome.kind === 'answer' && ([404, 405, 501].includes(r.outcome.status) || /html/i.test(r.outcome.contentType ?? '') || !r.outcome.isJson);
    const said = (r: typeof auth) => (r.outcome.kind === 'answer' ? `${r.outcome.status}${/html/i.test(r.outcome.contentType ?? '') ? ' with an HTML page' : r.outcome.isJson ? '' : ' without JSON'}` : r.outcome.reason);
    if (foreign(auth) && (foreign(reach) || status(auth) !== 200)) {
      throw new TargetRefused(baseUrl, `${baseUrl} is not a hosted REST service: GET /conversations answered ${said(auth)}, GET ${DISCOVERY.protectedResource} ${said(reach)}; nothing was explored (a bridge server is explored with --url, the hosted service's /v1 base URL with --hosted)`);
    }
  } finally {
    await client.close();
  }
}

/** The finding as the console shows it: the rule, the minimal sequence, what was sent, what came back, what was expected, the sentence. */
function findingLines(f: HostedFinding, i: number, replay: string): string[] {
  const lines = [`${i + 1}. ${f.operation}: ${f.message}`];
  for (const id of f.cites) {
    const s = sentenceOf(id);
    lines.push(`   sentence: ${id}${s ? ` — ${JSON.stringify(s.text.length > 200 ? `${s.text.slice(0, 200)}…` : s.text)}` : ''}`);
  }
  lines.push(`   minimal sequence (${plural(f.sequence.length, 'operation')}, shrunk from ${f.shrunkFrom}; ${plural(f.requests.length, 'request')}):`);
  let op = -1;
  for (const r of f.requests) {
    if (r.n !== op) {
      op = r.n;
      lines.push(`     ${r.op}`);
    }
    lines.push(`       ${r.method} ${r.url}${r.body !== undefined ? ` ${short(r.body)}` : ''} -> ${r.status}`);
  }
  lines.push(`   sent:     ${f.request.method} ${f.request.url}${f.request.body !== undefined ? ` ${short(f.request.body)}` : ''}`);
  lines.push(`   got:      ${f.got.status} ${short(f.got.body)}`);
  lines.push(`   expected: ${f.expected}`);
  lines.push(`   replay:   ${replay}`);
  return lines;
}

const short = (v: unknown, n = 200): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s;
};

export async function exploreHostedCommand(flags: ExploreHostedFlags): Promise<number> {
  const unsupported = ([['url', '--url'], ['path', '--path'], ['methods', '--methods'], ['classes', '--classes'], ['concurrency', '--concurrency'], ['header', '--header']] as const).filter(([k]) => flags[k] !== undefined).map(([, f]) => f);
  if (unsupported.length > 0) throw new TckError(`${unsupported.join(', ')} ${unsupported.length === 1 ? 'does' : 'do'} not apply to tck explore --hosted (it draws every resource endpoint of the hosted REST interface)`);
  const embedded = flags.hosted === true;
  if (embedded && flags.apiKey !== undefined) throw new TckError('--api-key needs --hosted URL: the embedded hosted service issues its own key');
  let baseUrl: string;
  let apiKey: string;
  let close = async () => {};
  await ensureWritableDir(flags.out, '--out');
  if (embedded) {
    const { DevIdentityProvider, startHostedServer } = await import('../servers/hosted/index.js');
    const idp = await DevIdentityProvider.generate();
    const server = await startHostedServer({ port: 0, identityProviders: [idp.trustedIssuer()] });
    baseUrl = server.baseUrl;
    apiKey = server.apiKey;
    close = () => server.close();
  } else {
    try {
      baseUrl = normalizeEndpoint(flags.hosted as string, { url: '--hosted URL', key: '--api-key or TCK_API_KEY' });
    } catch (err) {
      throw new TckError((err as Error).message, 'TCK_INVALID_TARGET');
    }
    const key = flags.apiKey ?? (process.env.TCK_API_KEY || undefined);
    if (key === undefined) throw new TckError('--hosted URL needs a credential: --api-key KEY (or TCK_API_KEY)');
    apiKey = key;
  }
  const consoleOn = flags.reporter.includes('console');
  const out = (text: string) => consoleOn && process.stdout.write(`${text}\n`);
  const interrupts = watchInterrupts();
  try {
    if (!embedded) await checkTarget(baseUrl, apiKey, flags.requestTimeout);
    const seed = flags.seed ?? Math.floor(Math.random() * 2 ** 31);
    out(`exploring the hosted service at ${embedded ? `${baseUrl} (the embedded hosted reference service)` : baseUrl}: seed ${seed}, up to ${plural(flags.runs, 'sequence')} of ${flags.maxSteps} operations, ${Math.round(flags.timeBudget / 1000)} s`);
    let last = Date.now();
    let result: HostedExploreResult;
    try {
      result = await exploreHosted({
        baseUrl, apiKey, seed, runs: flags.runs, maxSteps: flags.maxSteps, timeBudgetMs: flags.timeBudget, requestTimeoutMs: flags.requestTimeout, signal: interrupts.signal,
        onProgress: (p) => {
          if (Date.now() - last < 10_000) return;
          last = Date.now();
          out(`exploring: ${plural(p.sequences, 'sequence')}, ${p.requests} requests, ${plural(p.findings, 'finding')} so far, ${Math.round(p.elapsedMs / 1000)} s`);
        },
      });
    } catch (err) {
      if (err instanceof HostedTransportError && interrupts.received === undefined) throw new TargetUnreachable(baseUrl, `it stopped answering during the exploration: ${err.message}`, 'the hosted service');
      if (err instanceof HostedTransportError) return SIGNAL_EXIT[interrupts.received!];
      throw err;
    }
    const target = embedded ? 'the embedded service (omit --hosted URL)' : `--hosted ${baseUrl}`;
    const replayOf = (f: Pick<HostedFinding, 'sequenceIndex'>) => `npx tck explore --hosted${embedded ? '' : ` ${baseUrl}`} --seed ${seed} --runs ${f.sequenceIndex + 1} --max-steps ${flags.maxSteps}${embedded ? '' : ' (with TCK_API_KEY set)'}`;
    const perSequence = result.sequences > 0 ? Math.round(result.requests / result.sequences) : 0;
    const figures = `${plural(result.sequences, 'sequence')}, ${result.requests} requests (${perSequence} a sequence) in ${(result.durationMs / 1000).toFixed(1)} s; seed ${seed}`;
    out('');
    if (result.findings.length > 0) {
      out(`Explore: FOUND ${result.findings.length} DISAGREEMENT${result.findings.length === 1 ? '' : 'S'} (${figures})`);
      for (const [i, f] of result.findings.entries()) out(['', ...findingLines(f, i, replayOf(f))].join('\n'));
    } else if (result.sequences === 0 || result.requests === 0) out(`Explore: NOTHING CHECKED (${figures})`);
    else out(`Explore: nothing found (${figures}${result.stoppedBy === 'time-budget' ? `, stopped by --time-budget ${flags.timeBudget} ms` : ''})`);

    await mkdir(flags.out, { recursive: true });
    const report = {
      tool: 'agent-memory-tck', version: KIT_VERSION, command: 'explore --hosted', target: { baseUrl, embedded },
      seed, runs: flags.runs, maxSteps: flags.maxSteps, timeBudgetMs: flags.timeBudget,
      sequences: result.sequences, requests: result.requests, requestsPerSequence: perSequence, durationMs: result.durationMs, stoppedBy: interrupts.received !== undefined ? 'interrupted' : result.stoppedBy,
      statuses: result.statuses,
      findings: result.findings.map(({ exchanges: _e, ...f }) => ({ ...f, sentences: f.cites.map((id) => ({ id, text: sentenceOf(id)?.text ?? null })), replay: replayOf(f) })),
    };
    await writeFile(join(flags.out, 'explore-hosted.json'), `${JSON.stringify(report, null, 2)}\n`);
    const written = [join(flags.out, 'explore-hosted.json')];
    for (const [i, f] of result.findings.entries()) {
      const file = join(flags.out, `explore-hosted-repro${i === 0 ? '' : `-${i + 1}`}.sh`);
      const script = reproScript(
        { id: 'explore-hosted', title: `the minimal sequence tck explore --hosted found: ${f.operation}`, clauses: f.cites, outcome: 'failed', message: f.message, exchanges: f.exchanges },
        { url: baseUrl, envVar: 'TCK_HOSTED_URL', embedded, what: 'tck explore --hosted', notes: ["No credential is written here: the run's API key comes from TCK_API_KEY."], authorization: () => fromEnv('TCK_API_KEY', "the run's API key"), judgeWith: `npx tck explore --hosted %s --seed ${seed} --runs ${f.sequenceIndex + 1}` },
      );
      await writeFile(file, script, { mode: 0o755 });
      written.push(file);
    }
    out(`\nwritten: ${written.join(', ')}${result.findings.length > 0 ? ` (replays name ${target})` : ''}`);
    if (interrupts.received !== undefined) return SIGNAL_EXIT[interrupts.received];
    if (result.findings.length > 0) return EXIT.notReached;
    if (result.sequences === 0 || result.requests === 0) {
      process.stderr.write(`tck: explore checked nothing: ${plural(result.sequences, 'sequence')} in ${result.durationMs} ms (--time-budget ${flags.timeBudget} ms is too short for one sequence: give it more); not a pass\n`);
      return EXIT.notReached;
    }
    return EXIT.ok;
  } finally {
    interrupts.dispose();
    await close();
  }
}
