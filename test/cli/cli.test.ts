// The `tck` binary as a user meets it: exit codes, one-line errors, `serve`, `schema`, `probe`.
// Runs the built launcher (npm test builds first).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../harness/ports.js';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { probe } from '../../src/cli/probe-command.js';

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;
const env = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '' };

function tck(args: string[], extraEnv: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...env, ...extraEnv }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

/** Starts `tck serve` and resolves with its URL once it prints it. */
function serve(args: string[], extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], { env: { ...env, ...extraEnv } });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, url, exited, output: () => out };
}

describe('tck usage errors', () => {
  it('--version prints the version', () => {
    const r = tck(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
  });
  it('an unknown flag is one line and exit 2', () => {
    const r = tck(['run', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("tck: unknown option '--bogus' (see `npx tck --help`)\n");
  });
  it('a bad tier is exit 2 and names the choices', () => {
    const r = tck(['run', '--tier', 'diamond']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: .*'diamond' is invalid\. Allowed choices are bronze, silver, gold, platinum/);
  });
  it('a URL that is not http(s) is exit 2', () => {
    const r = tck(['run', '--url', 'ftp://example']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/ftp: is not supported/);
  });
  it('a malformed --header is exit 2', () => {
    const r = tck(['run', '--header', 'no-colon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: header #1 is malformed/);
  });
  it('an unknown scenario is exit 2', () => {
    const r = tck(['run', '--scenario', 'SCN-B-999']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: unknown scenario SCN-B-999; SCN-B-001 to SCN-B-\d+ exist \(see `npx tck list`\)\n$/);
  });
  it('a bad TCK_BRIDGE_PORT is exit 2', () => {
    const r = tck(['serve'], { TCK_BRIDGE_PORT: 'http' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: TCK_BRIDGE_PORT must be an integer/);
  });
});

describe('unreachable targets: one line, exit 3, no stack trace', () => {
  it('nothing listening', async () => {
    const port = await freePort();
    const r = tck(['run', '--url', `http://127.0.0.1:${port}`, '--out', mkdtempSync(join(tmpdir(), 'tck-'))]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`tck: cannot reach the conformance server at http://127.0.0.1:${port}: connection refused: nothing listens there; start the server first (tck run --server 'command' starts it for you), or check the host and port\n`);
    noStack(r.stderr);
  });
  it('a host name that does not resolve', () => {
    const r = tck(['run', '--url', 'http://no-such-host.invalid:3001']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tck: cannot reach the conformance server at http:\/\/no-such-host\.invalid:3001: .*no-such-host\.invalid/);
    noStack(r.stderr);
  });
  it('probe of a dead URL', async () => {
    const port = await freePort();
    const r = tck(['probe', '--url', `http://127.0.0.1:${port}`]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^tck: cannot reach the conformance server/);
  });
});

describe('tck serve', () => {
  it('--port 0 serves every one of the 48 methods (26 of the protocol, 22 Platinum) with its documented shape, and stops on SIGTERM', async () => {
    const s = serve(['--port', '0']);
    const url = await s.url;
    const client = new BridgeClient({ url });
    try {
      const rows = await probe(client, true);
      expect(rows).toHaveLength(48);
      expect(rows.filter((r) => r.status !== 'answers')).toEqual([]);
      // A plain POST, as curl would send it.
      const res = await fetch(`${url}/add_message`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"session_id":"c","role":"user","content":"hi"}' });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ role: 'user', content: 'hi', metadata: {} });
    } finally {
      await client.close();
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
    expect(s.output()).toMatch(/received SIGTERM, shutting down/);
  });

  it('`tck run --url` against a separately started `tck serve` reaches Gold with every scenario passing', async () => {
    const s = serve(['--port', '0']);
    const url = await s.url;
    const out = mkdtempSync(join(tmpdir(), 'tck-gold-'));
    try {
      const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'run', '--url', url, '--out', out, '--reporter', 'console,json'], { env });
        let stdout = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.on('exit', (code) => resolve({ code, stdout }));
      });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Achieved tier: GOLD/);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { achieved: string; scenarios: { outcome: string }[] };
      expect(report.achieved).toBe('gold');
      expect(report.scenarios.length).toBeGreaterThanOrEqual(178);
      expect(report.scenarios.filter((x) => x.outcome !== 'passed')).toEqual([]);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('takes its port from TCK_BRIDGE_PORT; --port wins over it', async () => {
    const port = await freePort();
    const a = serve([], { TCK_BRIDGE_PORT: String(port) });
    expect(await a.url).toBe(`http://127.0.0.1:${port}`);
    const b = serve(['--port', '0'], { TCK_BRIDGE_PORT: String(port) });
    expect(await b.url).not.toBe(`http://127.0.0.1:${port}`);
    const busy = tck(['serve', '--port', String(port)]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`^tck: port ${port} is already in use`));
    a.child.kill('SIGINT');
    b.child.kill('SIGINT');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  });
});

describe('tck schema, list, explain', () => {
  it('schema --out writes one JSON Schema per type', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tck-schema-'));
    const r = tck(['schema', '--out', dir]);
    expect(r.code).toBe(0);
    const files = readdirSync(dir).sort();
    expect(files).toEqual(expect.arrayContaining(['Message.schema.json', 'Conversation.schema.json', 'ToolStats.schema.json', 'Report.schema.json']));
    const message = JSON.parse(readFileSync(join(dir, 'Message.schema.json'), 'utf8'));
    expect(message.properties.role.enum).toEqual(['user', 'assistant', 'system']);
  });
  it('list --json and explain describe the scenarios', () => {
    const list = JSON.parse(tck(['list', '--json']).stdout) as { id: string; clauses: string[] }[];
    expect(list.length).toBeGreaterThanOrEqual(178);
    const r = tck(['explain', 'scn-b-043']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^SCN-B-043 /);
    expect(r.stdout).toMatch(/clauses:\s+SPEC-2\.2\.1/);
  });
});
