// The `tck` command line. Subcommands load their modules lazily so `tck --version` stays fast.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_REPORTERS, UnknownReporterError, parseReporters, type ReporterName } from '../report/render/names.js';
import { KIT_VERSION } from '../util/kit.js';
import { EXIT, TckError, exitCodeOfError } from '../engine/errors.js';
import { DEFAULT_LIMITS } from '../util/limits.js';
import { EXPLORE_DEFAULTS } from '../explore/defaults.js';
import { TIERS } from '../engine/scenario.js';
import { FileSystemHangs } from './paths.js';
import { nearest } from '../util/words.js';

const GRADINGS = ['strict', 'established'] as const;
const ADVISORY_MODES = ['report', 'fail'] as const;


function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return n;
  };
}
function integer(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new InvalidArgumentError(`${name} must be an integer, got ${JSON.stringify(value)}`);
    return n;
  };
}
function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return n;
}
const collect = (value: string, previous: string[] = []) => [...previous, value];
/**
 * One of `values`, case ignored (`--tier Gold` is gold); anything else is refused with the
 * choices and the nearest one.
 */
function choice<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    const lower = value.trim().toLowerCase();
    if ((values as readonly string[]).includes(lower)) return lower as T;
    const near = nearest(value, values);
    throw new InvalidArgumentError(`Allowed choices are ${values.join(', ')}${near ? `; did you mean '${near}'?` : ''}`);
  };
}
const choiceHelp = (values: readonly string[]) => `(choices: ${values.join(', ')})`;
/** The options of every command that talks to a conformance server: its URL (also TCK_URL) and the config file. */
function targetOptions(command: Command, embedded: string): Command {
  return command
    .addOption(new Option('-u, --url <url>', `conformance server base URL (also TCK_URL, or "url" in the config file; ${embedded})`).env('TCK_URL'))
    .option('--config <file>', 'settings file (JSON; default: tck.config.json or .tckrc in the working directory); flags and TCK_URL win over it');
}
/** What a target command takes from the config file. */
const TARGET_CONFIG = ['url', 'header', 'requestTimeout', 'scenarioTimeout', 'maxTime', 'reconnectWindow'] as const;
/** --reporter a,b (repeatable): the first one given replaces the default list. */
function reporters(value: string, previous: readonly ReporterName[]): ReporterName[] {
  if (value.trim() === '') throw new InvalidArgumentError('an empty list names no reporter (choose from console, json, junit, html, md, badge)');
  try {
    return [...new Set([...(previous === DEFAULT_REPORTERS ? [] : previous), ...parseReporters([value])])];
  } catch (err) {
    if (err instanceof UnknownReporterError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

export function buildProgram(): Command {
  const program = new Command('tck')
    .description('Conformance test kit for agent-memory services: the bridge protocol 0.1.0 (Bronze, Silver and Gold suites, and the optional Platinum tier: tck run --tier platinum) and the hosted REST profile (tck run --hosted [URL]).')
    .version(KIT_VERSION, '-V, --version')
    .option('--debug', 'print stack traces of internal errors')
    .configureOutput({
      // One line per usage error, in the same form as every other error of the kit.
      outputError: (text, write) => write(`tck: ${text.replace(/^error: /, '').trim()} (see \`npx tck --help\`)\n`),
    })
    .exitOverride();

  const run = program
    .command('run', { isDefault: true })
    .description('run the suites against a conformance server (default: the embedded reference server)')
    .addOption(new Option('-u, --url <url>', 'conformance server base URL (omit to start the embedded reference server)').env('TCK_URL'))
    .addOption(new Option('-t, --tier <tier>', `highest tier to run; lower tiers run too (platinum, the optional Volume 5 tier, runs only when named) ${choiceHelp(TIERS)}`).argParser(choice(TIERS)).default('gold'))
    .option('-g, --grep <pattern>', 'run only scenarios whose id, title, clause or group matches (regex, case-insensitive)')
    .option('-s, --scenario <id>', 'run only this scenario (repeatable)', collect)
    .option('--skip <id>', 'skip this scenario (repeatable)', collect)
    .addOption(new Option('--grading <rule>', `grading rule ${choiceHelp(GRADINGS)}`).argParser(choice(GRADINGS)).default('strict'))
    .addOption(new Option('--advisories <mode>', `advisories (the kit's own readings, which no sentence states): report them beside the verdict, or fail their scenarios ${choiceHelp(ADVISORY_MODES)}`).argParser(choice(ADVISORY_MODES)).default('report'))
    .addOption(new Option('--bail [n]', 'stop at the first failing scenario (with N: after N failures)').argParser(positiveInt('--bail')))
    .option('--max-failures <n>', 'stop after N failing scenarios; the rest are reported as not run', positiveInt('--max-failures'))
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), DEFAULT_LIMITS.requestTimeoutMs)
    .option('--scenario-timeout <ms>', 'per-scenario timeout in milliseconds', positiveInt('--scenario-timeout'), DEFAULT_LIMITS.scenarioTimeoutMs)
    .option('--max-body <bytes>', 'largest response body accepted, in bytes', positiveInt('--max-body'), DEFAULT_LIMITS.maxBodyBytes)
    .option('--max-time <ms>', 'bound on the whole run in milliseconds; what is not finished by then is not run', positiveInt('--max-time'), DEFAULT_LIMITS.maxTimeMs)
    .option('--reconnect-window <ms>', 'how long a target that stopped answering gets to come back, in milliseconds', positiveInt('--reconnect-window'), DEFAULT_LIMITS.reconnectWindowMs)
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS); values are never printed", collect)
    .option('--hosted [url]', 'run the hosted profile against the hosted REST service at URL (its /v1 base URL or its origin), or without URL against the embedded hosted reference service; alone it replaces the bridge suites, with --url both run')
    .option('--api-key <key>', 'with --hosted: the API key to test with (also TCK_API_KEY); with the embedded service, its bootstrap key')
    .option('--token <token>', 'with --hosted URL: an OAuth access token, when there is no API key (also TCK_TOKEN)')
    .option('--idp-token <token>', 'with --hosted URL: an identity-provider token for the token exchange scenarios (also TCK_IDP_TOKEN); without one they are skipped')
    .option('--workspace <id>', "with --hosted: the workspace of the credential (also TCK_WORKSPACE; default: learned from the key list)")
    .option('--other-api-key <key>', 'with --hosted: an API key of another workspace, for the reveal and key-list rules (also TCK_OTHER_API_KEY)')
    .option('--expired-token <token>', 'with --hosted URL: an access token of the service past its exp (also TCK_EXPIRED_TOKEN)')
    .option('--expired-idp-token <token>', 'with --hosted URL: an identity-provider token past its exp (also TCK_EXPIRED_IDP_TOKEN)')
    .option('--allow-incomplete', 'with --hosted: exit 0 when the hosted profile is only incomplete (scenarios skipped for an input the run lacked, nothing failed)')
    .option('-o, --out <dir>', 'directory for report files', 'reports')
    .addOption(new Option('-r, --reporter <list>', 'reporters, comma-separated or repeated: console, json, junit, html, md, badge').argParser(reporters).default(DEFAULT_REPORTERS, DEFAULT_REPORTERS.join(',')))
    .option('--baseline <file>', 'known failures (with reasons) that do not fail the gate; the exit code follows the gate')
    .option('--write-baseline <file>', "write this run's failures as a baseline")
    .option('--only-failed <report.json>', 'run again the scenarios that failed, errored or did not run in that report')
    .addOption(new Option('-q, --quiet', 'print only the summary').conflicts('verbose'))
    .option('--failures-only', 'print each failure with its details and the summary, not the scenarios that passed')
    .option('-v, --verbose', 'print every exchange as it happens, and all exchanges of each failure')
    .option('--config <file>', 'settings file (JSON; default: tck.config.json or .tckrc in the working directory); flags and TCK_URL win over it')
    .option('--server <command>', "shell command that starts the server under test; the run waits until --url accepts connections, then stops it")
    .option('--server-timeout <ms>', 'how long --server gets to start answering, in milliseconds', positiveInt('--server-timeout'), DEFAULT_LIMITS.serverStartMs)
    .action(async (_opts, command: Command) => {
      const [{ applyConfig, urlSource }, { runCommand }] = await Promise.all([import('./run-config.js'), import('./run-command.js')]);
      const opts = applyConfig<Parameters<typeof runCommand>[0]>(command);
      process.exitCode = await runCommand({ ...opts, urlFrom: urlSource(command), outFrom: command.getOptionValueSource('out') ?? 'default', tierFrom: command.getOptionValueSource('tier') ?? 'default' });
    });
  run.addHelpText(
    'after',
    `
Examples:
  $ npx tck                                  run every tier against the embedded reference server
  $ npx tck run --url http://127.0.0.1:3001  run against your conformance server
  $ npx tck run --url http://localhost:3001 --tier bronze --header "Authorization: Bearer $TOKEN"
  $ npx tck run --scenario SCN-B-043 --verbose
  $ npx tck run --only-failed reports/report.json   run again what failed, errored or did not run
  $ npx tck run --url http://127.0.0.1:3001 --reporter console,junit,md --baseline known-failures.json
  $ npx tck run --url http://127.0.0.1:3001 --server 'npm run conformance-server'   start it, run, stop it
  $ npx tck run --hosted                     the hosted profile against the embedded hosted reference service
  $ TCK_API_KEY=nams_… TCK_IDP_TOKEN=… npx tck run --hosted https://memory.example.com/v1

Exit codes (docs/exit-codes.md): 0 requested tier reached and, with --hosted, every hosted group passed (or, with --allow-incomplete, is incomplete; with --baseline: the gate passed),
1 not reached (the gate failed),
2 usage error, a report that could not be written, or a target that refuses the credentials or is no bridge server, 3 nothing answers at the target,
130/143 interrupted by SIGINT/SIGTERM (a partial report is written).`,
  );

  program
    .command('serve')
    .description('start the embedded reference server (port: --port, else TCK_BRIDGE_PORT, else 3001); with MEMORY_ENDPOINT set, a bridge server forwarding to that hosted service')
    .option('-p, --port <port>', 'port to listen on (0 picks a free port)', port)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .option('--hosted', 'start the embedded hosted REST reference service instead (default port 3002)')
    .option('--api-key <key>', 'with --hosted: the bootstrap API key, nams_… (default: a random one, printed at start)')
    .option('--workspace <id>', 'with --hosted: the bootstrap workspace (default "default")')
    .option('--bridge-port <port>', 'with --hosted: also serve the bridge reference over the same data on this port', port)
    .option('--idp-issuer <iss>', 'with --hosted: trust this identity provider for the token exchange instead of the development one')
    .option('--idp-jwks-url <url>', "with --idp-issuer: the identity provider's JWK set")
    .option('--idp-audience <aud>', "with --idp-issuer: the audience its tokens must carry")
    .action(async (opts) => {
      const hosted = await import('./hosted-commands.js');
      if (opts.hosted) return hosted.hostedServeCommand(opts);
      hosted.rejectHostedOnlyFlags(opts);
      const { serveCommand } = await import('./serve-command.js');
      await serveCommand(opts);
    });

  program
    .command('token')
    .description('mint a development identity-provider token for the token exchange of `tck serve --hosted`')
    .option('--sub <subject>', 'the subject (sub)', 'dev-user')
    .option('--workspace <id>', "the workspace the exchanged token acts in (default: the service's bootstrap workspace)")
    .option('--scope <scopes>', 'space-separated scopes', 'read write')
    .option('--ttl <seconds>', 'lifetime in seconds', positiveInt('--ttl'), 3600)
    .option('--expired', 'a token already past its exp (by an hour), for `tck run --hosted --expired-idp-token`')
    .action(async (opts) => {
      const { tokenCommand } = await import('./hosted-commands.js');
      await tokenCommand(opts);
    });

  program
    .command('schema')
    .description('write the JSON Schema of every data-model type')
    .option('-o, --out <dir>', 'output directory (default: print one JSON document to stdout)')
    .action(async (opts) => {
      const { schemaCommand } = await import('./info-commands.js');
      await schemaCommand(opts);
    });

  program
    .command('list')
    .description('list the scenarios: id, tier (or "hosted"), clauses, title')
    .addOption(new Option('-t, --tier <tier>', `only this tier (hosted: the hosted profile) ${choiceHelp([...TIERS, 'hosted'])}`).argParser(choice([...TIERS, 'hosted'] as const)))
    .addOption(new Option('--json', 'print JSON').conflicts('markdown'))
    .option('--markdown', 'print the Markdown catalogue (docs/scenarios.md)')
    .action(async (opts) => {
      const { listCommand } = await import('./info-commands.js');
      await listCommand(opts);
    });

  program
    .command('explain')
    .description('explain one scenario (what it asserts, and the sentence each assertion enforces), one sentence of the clause map (the assertions that enforce it), or one advisory')
    .argument('<id>', 'a scenario id (SCN-B-043, SCN-H-023), a sentence id (SPEC-2.2.1, BRIDGE-RESPONSE-6, HOSTED-AUTH-3) or an advisory id (ADV-refuse-missing-param)')
    .action(async (id: string) => {
      const { explainCommand } = await import('./info-commands.js');
      await explainCommand(id);
    });

  program
    .command('report')
    .description('render other formats from a report.json (no option: print its console summary)')
    .argument('<report.json>', 'a report written by `tck run` (or a certification bundle of `tck certify`)')
    .option('--json <file>', 'write the JSON report (normalised) here')
    .option('--junit <file>', 'write JUnit XML here')
    .option('--html <file>', 'write the HTML report here')
    .option('--md <file>', 'write the Markdown summary here')
    .option('--badge <file>', 'write the SVG badge here')
    .action(async (file: string, opts) => {
      const { reportCommand } = await import('./report-commands.js');
      process.exitCode = await reportCommand(file, opts);
    });

  program
    .command('diff')
    .description('compare two reports: regressed, fixed, appeared and vanished scenarios, and the tier change (exit 1 on a regression)')
    .argument('<old.json>', 'the earlier report')
    .argument('<new.json>', 'the later report')
    .option('--json', 'print the differences as JSON')
    .action(async (oldFile: string, newFile: string, opts) => {
      const { diffCommand } = await import('./report-commands.js');
      process.exitCode = await diffCommand(oldFile, newFile, opts);
    });

  const repro = program
    .command('repro')
    .description("print a scenario's requests as a bash script of curl calls that checks the answers: the script exits 0 once the server passes, 1 while it still fails (runs the scenario now, or reads the script from --report)")
    .argument('<id>', 'scenario id, e.g. SCN-B-043');
  targetOptions(repro, 'none: the embedded reference server')
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS)", collect)
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), DEFAULT_LIMITS.requestTimeoutMs)
    .option('--report <report.json>', 'take the script of a failed scenario from this report instead of running it')
    .action(async (id: string, _opts, command: Command) => {
      const [{ applyConfig, urlSource }, { reproCommand }] = await Promise.all([import('./run-config.js'), import('./report-commands.js')]);
      const opts = applyConfig<Parameters<typeof reproCommand>[1]>(command, TARGET_CONFIG);
      process.exitCode = await reproCommand(id, { ...opts, urlFrom: urlSource(command) });
    });

  const explore = program
    .command('explore')
    .description('model-based testing: random sequences of calls, each answer checked against the rules the protocol states, given the state the reference model expects; every distinct disagreement is shrunk to a minimal sequence');
  targetOptions(explore, 'none: the embedded reference server')
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS)", collect)
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), DEFAULT_LIMITS.requestTimeoutMs)
    .option('--runs <n>', 'sequences to try', positiveInt('--runs'), EXPLORE_DEFAULTS.runs)
    .option('--seed <n>', 'seed of the random sequences (default: a new one, printed)', integer('--seed'))
    .option('--path <path>', "with --seed: replay this failing case (fast-check's path, printed with a failure)")
    .option('--replay-path <path>', "with --path: the commands' replay path, printed with a failure")
    .option('--max-steps <n>', 'longest sequence', positiveInt('--max-steps'), EXPLORE_DEFAULTS.maxSteps)
    .option('--methods <list>', 'methods or tiers to draw from, comma-separated (default: every Bronze–Gold method the target has but setup and teardown, and the Platinum ones it answers)')
    .option('--time-budget <ms>', 'bound on the exploration in milliseconds (shrinking included)', positiveInt('--time-budget'), EXPLORE_DEFAULTS.timeBudgetMs)
    .option('--concurrency <n>', 'N clients at once, each on its own connection: every history judged by a linearizability check (docs/concurrency.md)', positiveInt('--concurrency'))
    .option('--classes', 'also draw sequences of the value classes of docs/coverage.md (LIKE wildcards, control characters, Unicode forms, float32-lossy numbers …)')
    .option('--hosted [url]', 'explore the hosted REST service at URL (its /v1 base URL or its origin) instead of a bridge server, or without URL the embedded hosted reference service (docs/explore-hosted.md)')
    .option('--api-key <key>', 'with --hosted URL: the API key to explore with (also TCK_API_KEY)')
    .option('-o, --out <dir>', 'directory for report files', 'reports')
    .option('-r, --reporter <list>', `reporters, comma-separated or repeated: console, json, junit, html, md, badge (default: ${DEFAULT_REPORTERS.join(',')})`, reporters, DEFAULT_REPORTERS)
    .action(async (_opts, command: Command) => {
      const [{ applyConfig, urlSource }, { exploreCommand }] = await Promise.all([import('./run-config.js'), import('./explore-command.js')]);
      const opts = applyConfig<Parameters<typeof exploreCommand>[0]>(command, [...TARGET_CONFIG, 'out', 'reporter']);
      process.exitCode = await exploreCommand({ ...opts, urlFrom: urlSource(command) });
    });

  const probe = program
    .command('probe')
    .description('pre-flight, read-only: call setup and every read of the protocol once (Bronze to Platinum), and show which answer and which tiers are reachable; --destructive calls the writes too');
  targetOptions(probe, 'none: the embedded reference server')
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS)", collect)
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), DEFAULT_LIMITS.requestTimeoutMs)
    .option('--destructive', 'call every method, the writes too (add_*, delete_*, clear_all_data, teardown): DELETES the data at the target')
    .option('--json', 'print the rows and the reachable tiers as JSON')
    .action(async (_opts, command: Command) => {
      const [{ applyConfig, urlSource }, { probeCommand }] = await Promise.all([import('./run-config.js'), import('./probe-command.js')]);
      const opts = applyConfig<Parameters<typeof probeCommand>[0]>(command, TARGET_CONFIG);
      process.exitCode = await probeCommand({ ...opts, urlFrom: urlSource(command) });
    });

  const certify = program
    .command('certify')
    .description('run the full bridge suite (every tier, the optional Platinum included; no selection) against your server and write a certification bundle a reviewer can verify offline');
  targetOptions(certify, 'required, unless --embedded')
    .option('--embedded', "certify the kit's own embedded reference server (a demonstration: the bundle says so)")
    .option('--name <name>', "the implementation's name (required)")
    .option('--impl-version <version>', "the implementation's version (required; after `certify`, --version means this too)")
    .option('--language <language>', "the implementation's language: Python, TypeScript, Go, … (required)")
    .option('--repository <url>', "the implementation's repository URL (required)")
    .option('--report-url <url>', "the registry entry's report_url (where the report will be published)")
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS); values are never recorded", collect)
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), DEFAULT_LIMITS.requestTimeoutMs)
    .option('--scenario-timeout <ms>', 'per-scenario timeout in milliseconds', positiveInt('--scenario-timeout'), DEFAULT_LIMITS.scenarioTimeoutMs)
    .option('--max-time <ms>', 'bound on the whole run in milliseconds', positiveInt('--max-time'), DEFAULT_LIMITS.maxTimeMs)
    .option('-o, --out <file>', 'the bundle file', 'reports/certification.json')
    // Selection flags, declared only to be refused with a clear message (exit 2).
    .addOption(new Option('-t, --tier <tier>').hideHelp())
    .addOption(new Option('-g, --grep <pattern>').hideHelp())
    .addOption(new Option('-s, --scenario <id>').hideHelp())
    .addOption(new Option('--skip <id>').hideHelp())
    .addOption(new Option('--only-failed <file>').hideHelp())
    .addOption(new Option('--bail [n]').hideHelp())
    .addOption(new Option('--max-failures <n>').hideHelp())
    .addOption(new Option('--hosted [url]').hideHelp())
    .action(async (_opts, command: Command) => {
      const [{ applyConfig, urlSource }, { certifyCommand }] = await Promise.all([import('./run-config.js'), import('./certify-command.js')]);
      const opts = applyConfig<Parameters<typeof certifyCommand>[0]>(command, TARGET_CONFIG);
      process.exitCode = await certifyCommand({ ...opts, urlFrom: urlSource(command) });
    });

  program
    .command('verify')
    .description('re-grade a certification bundle offline by replaying its exchanges (exit 0 verified, 1 not verified, 2 unreadable)')
    .argument('<bundle.json>', 'a bundle written by `tck certify`')
    .action(async (file: string) => {
      const { verifyCommand } = await import('./certify-command.js');
      process.exitCode = await verifyCommand(file);
    });

  program
    .command('compare')
    .description('compare implementations: a matrix of scenarios by tier and group, differing ones first (reports or certification bundles)')
    .argument('<files...>', 'reports (report.json) or certification bundles, one per implementation')
    .option('--md <file>', 'write the Markdown matrix here')
    .option('--html <file>', 'write the HTML page here')
    .option('--all', 'print every scenario on the console, not only the differing ones')
    .action(async (files: string[], opts) => {
      const { compareCommand } = await import('./compare-command.js');
      process.exitCode = await compareCommand(files, opts);
    });

  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document of the bridge protocol (or, with --hosted, of the hosted REST interface)')
    .option('--hosted', 'the hosted REST interface instead of the bridge protocol')
    .option('-o, --out <file>', 'write it to this file instead of stdout')
    .action(async (opts) => {
      const { openapiCommand } = await import('./openapi-command.js');
      await openapiCommand(opts);
    });

  program
    .command('init')
    .description('write a config file (tck.config.json), an empty baseline (tck-baseline.json) and a GitHub Actions workflow (.github/workflows/tck.yml) to start from; refuses to overwrite any of them without --force')
    .option('-u, --url <url>', 'your conformance server\'s base URL, for the config file', 'http://127.0.0.1:3001')
    .option('--server <command>', 'the shell command that starts your server (the config file\'s "server": tck run starts and stops it)')
    .addOption(new Option('-t, --tier <tier>', `the tier the config file asks for ${choiceHelp(TIERS)}`).argParser(choice(TIERS)).default('gold'))
    .option('--dir <dir>', 'the project directory to write into', '.')
    .option('--force', 'overwrite files that exist')
    .action(async (opts) => {
      const { initCommand } = await import('./init-command.js');
      await initCommand(opts);
    });

  program.addHelpText(
    'after',
    `
Examples:
  $ npx tck                               full run against the embedded reference server
  $ npx tck run --url http://127.0.0.1:3001
  $ npx tck probe --url http://127.0.0.1:3001
  $ npx tck serve --port 3001
  $ npx tck list --tier bronze
  $ npx tck report reports/report.json --junit junit.xml --md summary.md
  $ npx tck diff before/report.json after/report.json
  $ npx tck repro SCN-B-071 --url http://127.0.0.1:3001 > repro.sh
  $ npx tck certify --url http://127.0.0.1:3001 --name my-memory --version 1.2.0 --language Go --repository https://github.com/me/my-memory
  $ npx tck verify reports/certification.json
  $ npx tck compare mine.json theirs.json --html compare.html
  $ npx tck openapi --out bridge.openapi.json
  $ npx tck init --url http://127.0.0.1:3001 --server 'npm run conformance-server'`,
  );
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // A reader that goes away (`tck run | head`) ends the output, never the run: the report files
  // are still written and the exit code is still the verdict's. Later writes are dropped.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      stream.write = (() => true) as typeof stream.write;
    });
  }
  // Whatever escapes (a bug of the kit) is still one line and exit 70, a stack trace only with --debug.
  const fatal = (err: unknown) => {
    process.exitCode = report(err);
    process.exit();
  };
  process.on('uncaughtException', fatal);
  process.on('unhandledRejection', fatal);
  const program = buildProgram();
  try {
    // After `certify`, --version is the implementation's version (commander would read it as the kit's).
    if (argv[2] === 'certify') argv = argv.map((a, i) => (i > 2 ? a.replace(/^--version(?==|$)/, '--impl-version') : a));
    rejectUnknownCommand(program, argv.slice(2));
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = report(err);
    // A file-system call that never returns would hold the process open forever.
    if (err instanceof FileSystemHangs) process.exit();
  }
}

/**
 * `tck rn`: run is the default command, so commander would read "rn" as an argument of run and say
 * "too many arguments for 'run'". A first word that is no command and no option is said as such,
 * with the nearest command.
 */
function rejectUnknownCommand(program: Command, args: readonly string[]): void {
  const first = args[0];
  if (first === undefined || first.startsWith('-')) return;
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  if (names.includes(first) || first === 'help') return;
  const near = nearest(first, names);
  const hint = near ? ` — did you mean '${near}'?` : '';
  throw new TckError(`unknown command '${first}'${hint} (see \`npx tck --help\`)`);
}

/** Turns any error into one readable line and an exit code; a stack trace only with --debug. */
export function report(err: unknown): number {
  if (err instanceof CommanderError) {
    // Commander has already printed its message (and help) for these.
    if (err.exitCode === 0) return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof TckError) {
    process.stderr.write(`tck: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`tck: internal error: ${message}\n`);
  if (process.argv.includes('--debug') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return exitCodeOfError(err);
}
