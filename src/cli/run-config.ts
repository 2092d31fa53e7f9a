// Settings from a file: `--config FILE`, else `tck.config.json` or `.tckrc` (JSON) in the working
// directory. Every command that talks to a server reads it (`run` all of it; `certify`, `probe`,
// `explore` and `repro` what applies to them: the target, its headers and timeouts), so they all
// test the same target. The file only fills what neither a flag nor an environment variable
// (TCK_URL) set: commander records where each option value came from, and a value from the
// command line or the environment is never replaced. A file that is not valid is one line naming
// the field, exit 2.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Command, OptionValues } from 'commander';
import { z } from 'zod';
import { TckError } from '../engine/errors.js';
import { printable } from '../engine/evidence.js';
import { TIERS } from '../engine/scenario.js';
import { ADVISORY_MODES } from '../engine/result.js';
import { REPORTER_NAMES } from '../report/render/names.js';
import { didYouMean } from '../util/words.js';

const CONFIG_FILES = ['tck.config.json', '.tckrc'] as const;

const ms = z.number().int().positive();
const RunConfig = z.strictObject({
  /** The conformance server's base URL (--url; TCK_URL wins over it). */
  url: z.string().min(1).optional(),
  /** Extra request headers, name to value (merged under --header and TCK_HEADERS). */
  headers: z.record(z.string(), z.string()).optional(),
  reporters: z.array(z.enum(REPORTER_NAMES)).min(1).optional(),
  /** Paths are relative to the file's own directory. */
  out: z.string().min(1).optional(),
  baseline: z.string().min(1).optional(),
  tier: z.enum(TIERS).optional(),
  /** Advisories reported beside the verdict, or failing their scenarios (--advisories). */
  advisories: z.enum(ADVISORY_MODES).optional(),
  /** A shell command that starts the server under test (--server). */
  server: z.string().min(1).optional(),
  timeouts: z
    .strictObject({ request: ms, scenario: ms, maxTime: ms, reconnectWindow: ms, server: ms })
    .partial()
    .optional(),
});
type RunConfig = z.infer<typeof RunConfig>;

/** The config file to read: --config, else the first of CONFIG_FILES in `cwd` (none: undefined). */
function configPath(explicit: string | undefined, cwd: string): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  const found = CONFIG_FILES.map((f) => resolve(cwd, f)).filter((f) => {
    try {
      readFileSync(f);
      return true;
    } catch {
      return false;
    }
  });
  if (found.length > 1) throw new TckError(`both ${CONFIG_FILES.join(' and ')} exist in ${cwd}: keep one (or choose with --config)`);
  return found[0];
}

/** Reads and validates one config file; every problem is one line naming the file and the field. */
function loadRunConfig(path: string): RunConfig {
  const file = relative(process.cwd(), path) || path;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new TckError(`config file ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : 'cannot be read'}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new TckError(`config file ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = RunConfig.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const where = at === '' ? '' : ` in "${at}"`;
    const known = at === '' ? Object.keys(RunConfig.shape) : at === 'timeouts' ? ['request', 'scenario', 'maxTime', 'reconnectWindow', 'server'] : [];
    const hint = issue.keys.length === 1 ? didYouMean(issue.keys[0]!, known).replace(/'/g, '"') : '';
    throw new TckError(`config file ${file}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${where}${hint} (known: ${known.join(', ')})`);
  }
  // A value of the wrong name (a "tier" of "gld") gets the nearest allowed one.
  const got = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string | number, unknown>)[k as string] : undefined), data);
  const options = issue.code === 'invalid_value' ? issue.values.filter((v): v is string => typeof v === 'string') : [];
  const hint = typeof got === 'string' && options.length > 0 ? didYouMean(got, options).replace(/'/g, '"') : '';
  throw new TckError(`config file ${file}: field "${at || '(the file)'}": ${issue.message}${hint}`);
}

/** The options the file can set, by their commander names. */
const CONFIG_OPTIONS = ['url', 'header', 'reporter', 'out', 'baseline', 'tier', 'advisories', 'server', 'requestTimeout', 'scenarioTimeout', 'maxTime', 'reconnectWindow', 'serverTimeout'] as const;
type ConfigOption = (typeof CONFIG_OPTIONS)[number];

/**
 * Applies the config file to a command's options where they still hold their defaults, and
 * returns the options; only the options in `keys` that the command declares are filled (a file
 * written for `tck run` serves `tck probe` too). Headers are the exception: the file's come first,
 * so --header and TCK_HEADERS replace a header of the same name.
 */
export function applyConfig<T extends OptionValues>(command: Command, keys: readonly ConfigOption[] = CONFIG_OPTIONS, cwd = process.cwd()): T {
  const opts = command.opts();
  // An empty TCK_URL counts as unset, like every other TCK_* variable.
  if (opts.url === '' && command.getOptionValueSource('url') === 'env') command.setOptionValueWithSource('url', undefined, 'default');
  const file = configPath(opts.config as string | undefined, cwd);
  if (file === undefined) return command.opts<T>();
  const config = loadRunConfig(file);
  const base = dirname(file);
  const declared = new Set(command.options.map((o) => o.attributeName()));
  const applies = (key: ConfigOption) => keys.includes(key) && declared.has(key);
  const fill = (key: ConfigOption, value: unknown) => {
    if (value === undefined || !applies(key)) return;
    const source = command.getOptionValueSource(key);
    if (source === undefined || source === 'default') command.setOptionValueWithSource(key, value, 'config');
  };
  // Where a value came from, for the line that names the target.
  configFiles.set(command, relative(cwd, file) || file);
  fill('url', config.url);
  fill('reporter', config.reporters);
  fill('out', config.out === undefined ? undefined : resolve(base, config.out));
  fill('baseline', config.baseline === undefined ? undefined : resolve(base, config.baseline));
  fill('tier', config.tier);
  fill('advisories', config.advisories);
  fill('server', config.server);
  // A command from a file found in the working directory runs with the user's rights: say so,
  // naming the file, before it is started (a repository's checked-in .tckrc is not a prompt);
  // escaped, so that no control character in the file can hide what runs.
  if (config.server !== undefined && command.getOptionValueSource('server') === 'config') {
    process.stderr.write(`tck: starting the server command of ${printable(relative(cwd, file) || file)}: ${printable(config.server)}\n`);
  }
  fill('requestTimeout', config.timeouts?.request);
  fill('scenarioTimeout', config.timeouts?.scenario);
  fill('maxTime', config.timeouts?.maxTime);
  fill('reconnectWindow', config.timeouts?.reconnectWindow);
  fill('serverTimeout', config.timeouts?.server);
  if (config.headers && applies('header')) {
    const fromFile = Object.entries(config.headers).map(([name, value]) => `${name}: ${value}`);
    command.setOptionValueWithSource('header', [...fromFile, ...((opts.header as string[] | undefined) ?? [])], 'config');
  }
  return command.opts<T>();
}

/** The config file applied to each command (for naming where its target came from). */
const configFiles = new WeakMap<Command, string>();

/**
 * Where a command's --url came from, in words: "--url", "TCK_URL", "url in tck.config.json";
 * undefined when no target was given (the embedded reference server, where a command allows it).
 */
export function urlSource(command: Command): string | undefined {
  if (command.opts().url === undefined) return undefined;
  switch (command.getOptionValueSource('url')) {
    case 'env':
      return 'TCK_URL';
    case 'config':
      return `"url" in ${configFiles.get(command) ?? 'the config file'}`;
    default:
      return '--url';
  }
}
