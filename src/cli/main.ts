// The `tck` command line. Subcommands load their modules lazily so `tck --version` stays fast.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { KIT_VERSION } from '../version.js';
import { CliError, EXIT } from './exit.js';

const TIERS = ['bronze', 'silver', 'gold'];

function positiveInt(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
    return n;
  };
}
function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return n;
}
const collect = (value: string, previous: string[] = []) => [...previous, value];

export function buildProgram(): Command {
  const program = new Command('tck')
    .description('Conformance test kit for agent-memory services (bridge protocol 0.1.0): Bronze, Silver and Gold suites.')
    .version(KIT_VERSION, '-V, --version')
    .option('--debug', 'print stack traces of internal errors')
    .configureOutput({
      // One line per usage error, in the same form as every other error of the kit.
      outputError: (text, write) => write(`tck: ${text.replace(/^error: /, '').trim()} (see \`tck --help\`)\n`),
    })
    .exitOverride();

  const run = program
    .command('run', { isDefault: true })
    .description('run the suites against a conformance server (default: the embedded reference server)')
    .option('-u, --url <url>', 'conformance server base URL (omit to start the embedded reference server)')
    .addOption(new Option('-t, --tier <tier>', 'highest tier to run; lower tiers run too').choices(TIERS).default('gold'))
    .option('-g, --grep <pattern>', 'run only scenarios whose id, title, clause or group matches (regex, case-insensitive)')
    .option('-s, --scenario <id>', 'run only this scenario (repeatable)', collect)
    .option('--skip <id>', 'skip this scenario (repeatable)', collect)
    .addOption(new Option('--grading <rule>', 'grading rule').choices(['strict', 'established']).default('strict'))
    .option('--bail', 'stop at the first failing scenario')
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), 10_000)
    .option('--scenario-timeout <ms>', 'per-scenario timeout in milliseconds', positiveInt('--scenario-timeout'), 30_000)
    .option('--max-body <bytes>', 'largest response body accepted, in bytes', positiveInt('--max-body'), 16 * 1024 * 1024)
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable; also TCK_HEADERS); values are never printed", collect)
    .option('-o, --out <dir>', 'directory for report files', 'reports')
    .option('-q, --quiet', 'print only the summary')
    .option('-v, --verbose', 'print every exchange of a failing scenario')
    .action(async (opts) => {
      const { runCommand } = await import('./run-command.js');
      process.exitCode = await runCommand(opts);
    });
  run.addHelpText(
    'after',
    `
Examples:
  $ tck                                  run every tier against the embedded reference server
  $ tck run --url http://127.0.0.1:3001  run against your conformance server
  $ tck run --url http://localhost:3001 --tier bronze --header 'Authorization: Bearer $TOKEN'
  $ tck run --scenario SCN-B-043 --verbose

Exit codes: 0 requested tier reached, 1 not reached, 2 usage error, 3 target unreachable.`,
  );

  program
    .command('serve')
    .description('start the embedded reference server (port: --port, else TCK_BRIDGE_PORT, else 3001)')
    .option('-p, --port <port>', 'port to listen on (0 picks a free port)', port)
    .option('--host <host>', 'address to bind', '127.0.0.1')
    .action(async (opts) => {
      const { serveCommand } = await import('./serve-command.js');
      await serveCommand(opts);
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
    .description('list the scenarios: id, tier, clauses, title')
    .addOption(new Option('-t, --tier <tier>', 'only this tier').choices(TIERS))
    .option('--json', 'print JSON')
    .option('--markdown', 'print the Markdown catalogue (docs/scenarios.md)')
    .action(async (opts) => {
      const { listCommand } = await import('./info-commands.js');
      await listCommand(opts);
    });

  program
    .command('explain')
    .description('explain one scenario: its clauses, what it does and what it asserts')
    .argument('<id>', 'scenario id, e.g. SCN-B-043')
    .action(async (id: string) => {
      const { explainCommand } = await import('./info-commands.js');
      await explainCommand(id);
    });

  program
    .command('probe')
    .description('pre-flight: call each of the 26 methods once and show which answer and which tiers are reachable')
    .option('-u, --url <url>', 'conformance server base URL (omit to probe the embedded reference server)')
    .option('-H, --header <header>', "extra request header 'Name: value' (repeatable)", collect)
    .option('--request-timeout <ms>', 'per-request timeout in milliseconds', positiveInt('--request-timeout'), 10_000)
    .action(async (opts) => {
      const { probeCommand } = await import('./probe-command.js');
      process.exitCode = await probeCommand(opts);
    });

  program.addHelpText(
    'after',
    `
Examples:
  $ npx tck                               full run against the embedded reference server
  $ npx tck run --url http://127.0.0.1:3001
  $ npx tck probe --url http://127.0.0.1:3001
  $ npx tck serve --port 3001
  $ npx tck list --tier bronze`,
  );
  return program;
}

export async function main(argv: string[]): Promise<void> {
  // A reader that goes away (`tck list | head`) ends the output, not the process with a trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = report(err);
  }
}

/** Turns any error into one readable line and an exit code; a stack trace only with --debug. */
export function report(err: unknown): number {
  if (err instanceof CommanderError) {
    // Commander has already printed its message (and help) for these.
    if (err.exitCode === 0) return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof CliError) {
    process.stderr.write(`tck: ${err.message}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`tck: internal error: ${message}\n`);
  if (process.argv.includes('--debug') && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
  return 70;
}
