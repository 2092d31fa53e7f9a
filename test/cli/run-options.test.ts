// `tck run` as CI and a vendor's shell meet it: TCK_URL, the config file (tck.config.json, .tckrc,
// --config), --server (start, wait, stop — also on failure and Ctrl-C), `probe --json`, FORCE_COLOR
// and the closing totals line. Runs the built launcher (npm test builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../harness/ports.js';
import { METHODS } from '../../src/protocols/bridge/methods.js';

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '' };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CI', 'TCK_URL', 'FORCE_COLOR']) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs the built `tck` in `cwd` without blocking this process; `onSpawn` gets the child. */
function tck(args: string[], o: { cwd?: string; env?: Record<string, string | undefined>; onSpawn?: (c: ReturnType<typeof spawn>) => void } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: o.cwd ?? tempDir(), env: cleanEnv(o.env ?? {}) });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    o.onSpawn?.(child);
  });
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'tck-run-options-'));

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

/** Whether a process runs (a zombie waiting for a reaper does not count). */
async function alive(pid: number): Promise<boolean> {
  for (let i = 0; i < 40; i++) {
    let state: string;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0]!;
    } catch {
      return false;
    }
    if (state === 'Z') return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

const oneLine = (text: string) => expect(text.trim().split('\n')).toHaveLength(1);

describe('TCK_URL', () => {
  it('is the target when --url is absent', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    const r = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { env: { TCK_URL: url } });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`cannot reach the conformance server at ${url}`);
  });
  it('--url wins over it; an empty TCK_URL counts as unset', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const r = await tck(['run', '-s', 'SCN-B-001', '-r', 'console', '--url', dead], { env: { TCK_URL: 'http://127.0.0.1:1' } });
    expect(r.stderr).toContain(`at ${dead}`);
    const empty = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { env: { TCK_URL: '' } });
    expect(empty.code).not.toBe(3);
    expect(empty.stdout).toMatch(/PASS +SCN-B-001 .*\n(.*\n)*.*embedded reference server/);
  });
});

describe('the config file', () => {
  it('tck.config.json in the working directory sets url, reporters and out (relative to the file)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tck.config.json'), JSON.stringify({ reporters: ['json'], out: 'conformance', tier: 'bronze' }));
    const r = await tck(['run', '-s', 'SCN-B-001'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('PASS');
    const report = JSON.parse(readFileSync(join(dir, 'conformance', 'report.json'), 'utf8'));
    expect(report.requestedTier).toBe('bronze');
  });
  it('.tckrc and --config are read too; flags win over the file', async () => {
    const dir = tempDir();
    const dead = `http://127.0.0.1:${await freePort()}`;
    writeFileSync(join(dir, '.tckrc'), JSON.stringify({ url: dead }));
    const r = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(dead);
    writeFileSync(join(dir, 'other.json'), JSON.stringify({ url: dead, timeouts: { request: 2000 } }));
    const explicit = await tck(['run', '-s', 'SCN-B-001', '-r', 'console', '--config', join(dir, 'other.json')], { cwd: tempDir() });
    expect(explicit.code).toBe(3);
    const overridden = await tck(['run', '-s', 'SCN-B-001', '-r', 'console', '--url', 'http://127.0.0.1:1'], { cwd: dir });
    expect(overridden.stderr).toContain('http://127.0.0.1:1');
    expect(overridden.stderr).not.toContain(dead);
  });
  it.each([
    [{ url: 5 }, /config file tck\.config\.json: field "url": .*expected string/],
    [{ urll: 'http://x' }, /config file tck\.config\.json: unknown field "urll" \(did you mean "url"\?\) \(known: url, headers, /],
    [{ timeouts: { request: '10s' } }, /field "timeouts\.request": .*expected number/],
    [{ reporters: ['pdf'] }, /field "reporters\.0": /],
    ['{not json', /config file tck\.config\.json is not valid JSON/],
  ])('a bad file is one line naming the field, exit 2, before anything runs: %j', async (content, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, 'tck.config.json'), typeof content === 'string' ? content : JSON.stringify(content));
    const r = await tck(['run'], { cwd: dir });
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });
  it('a server command from the file is printed, with the file, before it is started (escaped)', async () => {
    const dir = tempDir();
    const port = await freePort();
    writeFileSync(join(dir, '.tckrc'), JSON.stringify({ url: `http://127.0.0.1:${port}`, server: 'echo started-by-config; exit 7 \u001b[2K\u202e' }));
    const r = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tck: starting the server command of \.tckrc: echo started-by-config; exit 7 \\u001b\[2K\\u202e\n\[server\] started-by-config\n/);
    // A command given on the command line is the user's own: nothing more is printed.
    const flag = await tck(['run', '-s', 'SCN-B-001', '-r', 'console', '--server', 'echo from-the-flag; exit 7'], { cwd: dir });
    expect(flag.stderr).not.toContain('starting the server command');
  });
  it('--config naming no file is exit 2', async () => {
    const r = await tck(['run', '--config', 'missing.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tck: config file missing.json: no such file\n');
  });
});

describe('--server', () => {
  it("starts the vendor's server, waits for it, runs, and stops it; its output goes to server.log", async () => {
    const port = await freePort();
    const out = tempDir();
    const r = await tck(['run', '--url', `http://127.0.0.1:${port}`, '--server', `"${process.execPath}" "${BIN}" serve --port ${port}`, '-s', 'SCN-B-001', '-r', 'console', '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/PASS +SCN-B-001 /);
    expect(r.stdout).toContain(`against http://127.0.0.1:${port}`);
    expect(await listening(port)).toBe(false);
    expect(readFileSync(join(out, 'server.log'), 'utf8')).toContain(`listening on http://127.0.0.1:${port}`);
  });
  it('a server that exits before answering: one line, exit 3, its last output shown', async () => {
    const port = await freePort();
    const r = await tck(['run', '--url', `http://127.0.0.1:${port}`, '--server', 'echo boom; exit 7', '-o', tempDir()]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^\[server\] boom\ntck: --server: "echo boom; exit 7" exited with code 7 before anything answered at 127\.0\.0\.1:\d+/);
  });
  it('a server that never answers is stopped after --server-timeout (the whole process group)', async () => {
    const port = await freePort();
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const r = await tck(['run', '--url', `http://127.0.0.1:${port}`, '--server', `sh -c 'echo $$ > "${pidFile}"; exec sleep 60'`, '--server-timeout', '800', '-o', dir]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/nothing answered at 127\.0\.0\.1:\d+ within 0\.8 s of starting/);
    expect(await alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  });
  it('is stopped on Ctrl-C too (exit 130, the partial report written)', async () => {
    const port = await freePort();
    const out = tempDir();
    let child: ReturnType<typeof spawn> | undefined;
    const ran = tck(['run', '--url', `http://127.0.0.1:${port}`, '--server', `"${process.execPath}" "${BIN}" serve --port ${port}`, '-r', 'console,json', '-o', out], {
      onSpawn: (c) => (child = c),
    });
    // Interrupt once the run is under way (the server answers and the first scenario was printed).
    for (let i = 0; i < 600 && !(existsSync(join(out, 'server.log')) && (await listening(port))); i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    child!.kill('SIGINT');
    const r = await ran;
    expect(r.code).toBe(130);
    expect(await listening(port)).toBe(false);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).interrupted).toBe(true);
  });
  it('needs --url; something already listening there is refused', async () => {
    const r = await tck(['run', '--server', 'true']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: --server needs --url/);
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((res) => busy.once('listening', res));
    const { port } = busy.address() as { port: number };
    try {
      const taken = await tck(['run', '--url', `http://127.0.0.1:${port}`, '--server', 'true']);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toMatch(/something already listens at 127\.0\.0\.1:\d+/);
    } finally {
      busy.close();
    }
  });
});

describe('console output levels, totals and colour', () => {
  it('closes with the totals line and the total duration', async () => {
    const r = await tck(['run', '-s', 'SCN-B-001', '-s', 'SCN-B-002', '-r', 'console']);
    expect(r.stdout).toMatch(/\n2 scenarios: 2 passed in \d+\.\d s\n/);
    const quiet = await tck(['run', '-s', 'SCN-B-001', '-r', 'console', '-q']);
    expect(quiet.stdout).toMatch(/\n1 scenario: 1 passed in \d+\.\d s\n/);
  });
  it('FORCE_COLOR colours a pipe; FORCE_COLOR=0 and NO_COLOR do not', async () => {
    const SGR = /\x1b\[\d+(;\d+)*m/;
    const forced = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(SGR);
    const zero = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { env: { NO_COLOR: undefined, FORCE_COLOR: '0' } });
    expect(zero.stdout).not.toMatch(SGR);
    const both = await tck(['run', '-s', 'SCN-B-001', '-r', 'console'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(both.stdout).not.toMatch(SGR);
  });
});

describe('tck probe --json', () => {
  it('prints every row and the reachable tiers as JSON', async () => {
    const r = await tck(['probe', '--json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    // Every method of the table, one row each, Platinum's included; the embedded server answers them all.
    expect(data.rows).toHaveLength(Object.keys(METHODS).length);
    expect(data.rows[0]).toEqual({ method: 'setup', tier: 'lifecycle', status: 'answers', detail: 'object' });
    expect(data.reachableTiers).toEqual(['bronze', 'silver', 'gold', 'platinum']);
  });
});
