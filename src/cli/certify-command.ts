// `tck certify`: the full suite against a server, written as one certification bundle, and
// `tck verify BUNDLE`: that bundle re-graded offline (src/certify/).
import { resolve } from 'node:path';
import { z } from 'zod';
import { ImplementationSchema, loadBundle, notCertifiable, type Bundle } from '../report/bundle.js';
import { printable } from '../engine/evidence.js';
import { ConsoleReporter } from '../report/render/console.js';
import { tierName } from '../report/render/text.js';
import { verdictLine } from '../report/render/view.js';
import { EXIT, TckError } from '../engine/errors.js';
import { SIGNAL_EXIT, watchInterrupts } from './interrupt.js';
import { headersFrom } from './options.js';
import { writeOutputFile } from './output-file.js';
import { ensureReadableFile, ensureWritableFile } from './paths.js';
import { planOf } from './report-commands.js';
import { targetWords, type TargetFlags } from './target.js';

interface CertifyFlags extends TargetFlags {
  name?: string;
  implVersion?: string;
  language?: string;
  repository?: string;
  /** Certify the kit's own embedded reference server (only when asked: never by default). */
  embedded?: boolean;
  reportUrl?: string;
  header?: string[];
  requestTimeout: number;
  scenarioTimeout: number;
  maxTime: number;
  out: string;
  /** Selection flags, accepted only to be refused: a certification runs everything. */
  tier?: string;
  grep?: string;
  scenario?: string[];
  skip?: string[];
  onlyFailed?: string;
  bail?: boolean | number;
  maxFailures?: number;
  hosted?: unknown;
}

/** The selection flags certify refuses, by their property and their spelling. */
const SELECTION_FLAGS: [keyof CertifyFlags, string][] = [
  ['tier', '--tier'],
  ['grep', '--grep'],
  ['scenario', '--scenario'],
  ['skip', '--skip'],
  ['onlyFailed', '--only-failed'],
  ['bail', '--bail'],
  ['maxFailures', '--max-failures'],
  ['hosted', '--hosted'],
];

export async function certifyCommand(flags: CertifyFlags): Promise<number> {
  // --tier platinum asks for what certify does anyway (every tier, Platinum included).
  const narrowed = SELECTION_FLAGS.filter(([k]) => flags[k] !== undefined && !(k === 'tier' && String(flags.tier).trim().toLowerCase() === 'platinum')).map(([, f]) => (f === '--tier' ? `--tier ${String(flags.tier)}` : f));
  if (narrowed.length > 0) throw new TckError(`certify runs the full bridge suite, every tier, the optional Platinum included; ${narrowed.join(', ')} would narrow it (use \`npx tck run\` for a partial run)`);
  const missing = (['name', 'implVersion', 'language', 'repository'] as const).filter((k) => flags[k] === undefined).map((k) => (k === 'implVersion' ? '--version' : `--${k}`));
  if (missing.length > 0) throw new TckError(`certify needs --name, --version, --language and --repository; missing ${missing.join(', ')}`);
  const parsed = ImplementationSchema.safeParse({ name: flags.name, version: flags.implVersion, language: flags.language, repository: flags.repository });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new TckError(`--${issue.path[0] === 'version' ? 'version' : String(issue.path[0])}: ${issue.message}${issue.path[0] === 'repository' ? ` (got ${JSON.stringify(flags.repository)})` : ''}`);
  }
  if (flags.reportUrl !== undefined && !z.string().min(1).safeParse(flags.reportUrl).success) throw new TckError('--report-url must not be empty');
  // A certification is of a server of yours: never the kit's own reference server by default.
  if (flags.embedded && flags.url !== undefined) throw new TckError(`--embedded certifies the kit's own reference server; the target ${flags.url} (from ${flags.urlFrom ?? '--url'}) says otherwise: give one of them`);
  if (!flags.embedded && flags.url === undefined) {
    throw new TckError('certify needs the server to certify: --url URL (or TCK_URL, or "url" in tck.config.json); --embedded certifies the kit\'s own reference server, as a demonstration');
  }
  const headers = headersFrom(flags.header);
  // The bundle's file is checked before the run, not after it.
  await ensureWritableFile(flags.out, '--out');
  const console = new ConsoleReporter({ quiet: true });
  console.begin(await planOf({ tier: 'platinum' }));
  const interrupts = watchInterrupts();
  let bundle;
  try {
    const { certify } = await import('../certify/certify.js');
    if (flags.url !== undefined) process.stdout.write(`certifying ${targetWords(flags.url, flags.urlFrom, false)}\n`);
    else process.stdout.write("certifying the kit's own embedded reference server (--embedded): a demonstration, not a certification of your server\n");
    bundle = await certify({
      ...(flags.url !== undefined ? { url: flags.url } : {}),
      headers,
      requestTimeoutMs: flags.requestTimeout,
      scenarioTimeoutMs: flags.scenarioTimeout,
      maxTimeMs: flags.maxTime,
      signal: interrupts.signal,
      onStart: (s) => console.onStart(s),
      onResult: (r) => console.onResult(r),
      implementation: parsed.data,
      ...(flags.reportUrl !== undefined ? { reportUrl: flags.reportUrl } : {}),
    });
  } catch (err) {
    console.stop();
    throw err;
  } finally {
    interrupts.dispose();
  }
  console.onEnd(bundle.report);
  if (interrupts.received || bundle.report.interrupted) {
    process.stderr.write('tck: the run was interrupted: no certification bundle written\n');
    return interrupts.received ? SIGNAL_EXIT[interrupts.received] : EXIT.notReached;
  }
  // The rule verify checks by (report/bundle.ts): no bundle of a run that ran nothing or reached no tier.
  const nothing = notCertifiable(bundle.report);
  if (nothing !== undefined) {
    process.stderr.write(`tck: no certification bundle written: ${nothing}\n`);
    return EXIT.notReached;
  }
  const out = await writeOutputFile(flags.out, `${JSON.stringify(bundle, null, 2)}\n`);
  const entry = bundle.certification;
  const of = bundle.report.target.embedded ? "the kit's own embedded reference server" : bundle.report.target.url;
  process.stdout.write(
    entry
      ? `certification bundle written to ${out}: ${bundle.implementation.name} ${bundle.implementation.version}, ${tierName(bundle.report.achieved)}${bundle.report.achieved === 'platinum' ? ' (Gold in the registry, which knows Bronze–Gold)' : ''} (${bundle.suiteHash.slice(0, 19)}…), against ${of}${bundle.advisories?.failed.length ? `; ${advisoryLines(bundle)[0]}` : ''}
`
      : `certification bundle written to ${out}, without a registry entry: ${verdictLine(bundle.report)}\n`,
  );
  return entry ? EXIT.ok : EXIT.notReached;
}

export async function verifyCommand(file: string): Promise<number> {
  await ensureReadableFile(file, 'bundle');
  const bundle = await loadBundle(resolve(file));
  const { verifyBundle } = await import('../certify/verify.js');
  const v = await verifyBundle(bundle);
  if (!v.ok) {
    const more = v.problems.length - 1;
    process.stdout.write(`not verified: ${v.problems[0]}${more > 0 ? ` (and ${more} more)` : ''}\n`);
    return EXIT.notReached;
  }
  process.stdout.write(verifiedText(bundle, v.replayed));
  return EXIT.ok;
}

/** What `tck verify` prints for a verified bundle: the tier, with the advisories that did not hold beside it (one line each after). */
export function verifiedText(bundle: Bundle, replayed: number): string {
  const { name, version } = bundle.implementation;
  const advised = advisoryLines(bundle);
  // A bundle of the kit's own reference server proves the kit, not an implementation: say so first.
  const whose = bundle.report.target.embedded ? " — a bundle of the kit's own embedded reference server, not of an implementation's server" : ` (tested at ${bundle.report.target.url})`;
  const head = `verified: ${name} ${version} reaches ${tierName(bundle.report.achieved)}${whose}${advised.length > 0 ? ` (${advised[0]})` : ''}; ${replayed} scenarios replayed from the bundle, every verdict and the suite hash match`;
  return [head, ...advised.slice(1).map((l) => `  ${l}`)].join('\n') + '\n';
}

/** The advisories a bundle records as not holding: a summary (beside the tier, which they never change), then one line each. */
function advisoryLines(bundle: Bundle): string[] {
  const failed = bundle.advisories?.failed ?? [];
  if (failed.length === 0) return [];
  const ids = [...new Set(failed.map((f) => f.id))].map((id) => `${id} in ${failed.filter((f) => f.id === id).map((f) => f.scenario).join(', ')}`);
  return [`${failed.length} advisor${failed.length === 1 ? 'y' : 'ies'} did not hold, which never changes the tier: ${ids.join('; ')}`, ...failed.map((f) => `${f.id} ${f.scenario}: ${printable(f.message.split('\n')[0]!)}`)];
}
