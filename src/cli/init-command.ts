// `tck init`: the three files a project needs to run the kit in CI — a config file, a baseline (empty:
// nothing may fail yet) and a GitHub Actions workflow — written into a directory, never over a file
// that is there already unless --force says so. Everything is checked before anything is written.
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { TckError } from '../engine/errors.js';
import type { ScenarioTier } from '../engine/scenario.js';
import { inWords } from '../util/words.js';

interface InitFlags {
  dir: string;
  url: string;
  server?: string;
  tier: ScenarioTier;
  force?: boolean;
}

const INIT_FILES = { config: 'tck.config.json', baseline: 'tck-baseline.json', workflow: '.github/workflows/tck.yml' } as const;

/** A URL the kit can test: http or https, parsed as such (the same rule as --url, said in one line). */
function checkUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TckError(`--url ${JSON.stringify(url)} is not a URL (e.g. http://127.0.0.1:3001)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TckError(`--url ${JSON.stringify(url)}: ${parsed.protocol} is not supported (http or https)`);
}

/** The YAML scalar of a shell command: JSON's double-quoted string is valid YAML. */
const yamlString = (s: string) => JSON.stringify(s);

function files(flags: InitFlags): Record<keyof typeof INIT_FILES, string> {
  const config = {
    url: flags.url,
    ...(flags.server ? { server: flags.server } : {}),
    tier: flags.tier,
    baseline: INIT_FILES.baseline,
    out: 'reports',
    reporters: ['console', 'json', 'junit', 'html', 'md'],
  };
  const baseline = { format: 'agent-memory-tck/baseline', formatVersion: '1.0', scenarios: [] };
  const workflow = [
    '# Written by `npx tck init`: runs the agent-memory conformance kit on every push and pull request.',
    '# tck.config.json says where the server is (and, with "server", how to start it); the job fails on',
    '# any failure that tck-baseline.json does not list, and on a listed one that now passes.',
    'name: conformance',
    'on: [push, pull_request]',
    'jobs:',
    '  tck:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: 20',
    '      - run: npm ci                 # agent-memory-tck is a devDependency (docs/ci.md: installing it)',
    ...(flags.server ? [] : ['      # Start your conformance server here (in the background), or add "server" to tck.config.json.']),
    '      - name: Run the TCK',
    `        run: ${yamlString('npx tck run --config tck.config.json')}`,
    '      - name: Upload the reports',
    '        if: always()',
    '        uses: actions/upload-artifact@v4',
    '        with:',
    '          name: tck-reports',
    '          path: reports/',
    '',
  ].join('\n');
  return { config: `${JSON.stringify(config, null, 2)}\n`, baseline: `${JSON.stringify(baseline, null, 2)}\n`, workflow };
}

const exists = async (path: string) => lstat(path).then(() => true, (err: NodeJS.ErrnoException) => {
  if (err.code === 'ENOENT') return false;
  throw new TckError(`cannot look at ${path}: ${inWords(err)}`);
});

export async function initCommand(flags: InitFlags): Promise<void> {
  checkUrl(flags.url);
  const dir = resolve(flags.dir);
  const stat = await lstat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) throw new TckError(`--dir ${flags.dir}: no such directory`);
  const content = files(flags);
  const targets = (Object.keys(INIT_FILES) as (keyof typeof INIT_FILES)[]).map((k) => ({ path: join(dir, INIT_FILES[k]), text: content[k] }));
  const present = [];
  for (const t of targets) if (await exists(t.path)) present.push(relative(process.cwd(), t.path) || t.path);
  if (present.length > 0 && !flags.force) throw new TckError(`${present.join(', ')} already exist${present.length === 1 ? 's' : ''}; nothing was written (--force overwrites)`);
  for (const t of targets) {
    try {
      await mkdir(dirname(t.path), { recursive: true });
      await writeFile(t.path, t.text);
    } catch (err) {
      throw new TckError(`cannot write ${t.path}: ${inWords(err)}`);
    }
    process.stdout.write(`wrote ${relative(process.cwd(), t.path) || t.path}\n`);
  }
  process.stdout.write(
    [
      '',
      'Next:',
      `  npx tck probe --config ${relative(process.cwd(), targets[0]!.path) || INIT_FILES.config}     which methods your server answers`,
      `  npx tck run --config ${relative(process.cwd(), targets[0]!.path) || INIT_FILES.config}       a run; it fails on any failure the baseline does not list`,
      `  npx tck run --config ${relative(process.cwd(), targets[0]!.path) || INIT_FILES.config} --write-baseline ${INIT_FILES.baseline}   accept today's failures (then edit each reason)`,
      '',
    ].join('\n'),
  );
}
