// `tck init` as a project meets it (the built launcher; npm test builds first): the three files it
// writes work together — `tck run` in that directory reads the config and the baseline and passes
// against a server that reaches the tier — and it never writes over a file that is there unless
// --force says so; bad input is one line and exit 2.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerFile } from './server-file.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/tck.js');
const env = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '', TCK_URL: '' };
const children: ChildProcess[] = [];
afterEach(() => { for (const c of children.splice(0)) c.kill(); });

const tck = (args: string[], cwd: string) => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, cwd, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const fresh = () => mkdtempSync(join(tmpdir(), 'tck-init-'));
const FILES = ['tck.config.json', 'tck-baseline.json', '.github/workflows/tck.yml'];

/** The example server of docs/writing-a-server.md on a free port (it reaches Bronze). */
const minimalServer = (): Promise<string> => startServerFile(join(ROOT, 'examples/minimal-server.mjs'), children, env);

describe('tck init', () => {
  it('writes a config, an empty baseline and a workflow that tck run then uses as they are', async () => {
    const dir = fresh();
    const url = await minimalServer();
    const init = tck(['init', '--url', url, '--tier', 'bronze'], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    for (const f of FILES) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(init.stdout).toContain('wrote tck.config.json');
    expect(JSON.parse(readFileSync(join(dir, 'tck.config.json'), 'utf8'))).toMatchObject({ url, tier: 'bronze', baseline: 'tck-baseline.json' });
    const workflow = parse(readFileSync(join(dir, '.github/workflows/tck.yml'), 'utf8')) as { on: string[]; jobs: { tck: { steps: { run?: string }[] } } };
    expect(workflow.on).toEqual(['push', 'pull_request']);
    expect(workflow.jobs.tck.steps.map((s) => s.run).filter(Boolean)).toContain('npx tck run --config tck.config.json');

    // No flag at all: the config file gives the URL, the tier, the baseline and the reports' place.
    const run = tck(['run'], dir);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Achieved tier: BRONZE/);
    expect(run.stdout).toMatch(/gate/i);
    expect(existsSync(join(dir, 'reports/report.json'))).toBe(true);
  }, 120_000);

  it('the config it writes holds a server command when given one, and the workflow says nothing of starting one', () => {
    const dir = fresh();
    expect(tck(['init', '--server', 'npm run conformance-server'], dir).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'tck.config.json'), 'utf8'))).toMatchObject({ url: 'http://127.0.0.1:3001', server: 'npm run conformance-server', tier: 'gold' });
    expect(readFileSync(join(dir, '.github/workflows/tck.yml'), 'utf8')).not.toMatch(/Start your conformance server here/);
  });

  it('refuses to overwrite a file that exists: one line, exit 2, nothing written; --force overwrites', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'tck.config.json'), '{"url": "http://mine"}\n');
    const r = tck(['init'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tck: tck.config.json already exists; nothing was written (--force overwrites)\n');
    expect(readFileSync(join(dir, 'tck.config.json'), 'utf8')).toBe('{"url": "http://mine"}\n');
    expect(existsSync(join(dir, 'tck-baseline.json'))).toBe(false);
    expect(existsSync(join(dir, '.github'))).toBe(false);

    const forced = tck(['init', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'tck.config.json'), 'utf8')).url).toBe('http://127.0.0.1:3001');
  });

  it('names every file in the way when several are', () => {
    const dir = fresh();
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    writeFileSync(join(dir, '.github/workflows/tck.yml'), 'name: mine\n');
    writeFileSync(join(dir, 'tck-baseline.json'), '{}\n');
    expect(tck(['init'], dir).stderr).toBe('tck: tck-baseline.json, .github/workflows/tck.yml already exist; nothing was written (--force overwrites)\n');
  });

  it.each([
    [['--url', 'ftp://example'], /^tck: --url "ftp:\/\/example": ftp: is not supported \(http or https\)\n$/],
    [['--url', 'not a url'], /^tck: --url "not a url" is not a URL \(e\.g\. http:\/\/127\.0\.0\.1:3001\)\n$/],
    [['--dir', 'no/such/dir'], /^tck: --dir no\/such\/dir: no such directory\n$/],
    [['--tier', 'gld'], /^tck: .*'gld' is invalid\. Allowed choices are bronze, silver, gold, platinum; did you mean 'gold'\?/],
  ])('bad input %j is one line and exit 2, and writes nothing', (args, message) => {
    const dir = fresh();
    const r = tck(['init', ...args], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'tck.config.json'))).toBe(false);
  });
});
