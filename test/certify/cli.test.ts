// tck certify / verify / compare / openapi as a user meets them (the built launcher; npm test builds
// first): a certify → verify round trip against a separately started `tck serve`, exit codes, one-line errors.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;
const env = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '' };
const dir = mkdtempSync(join(tmpdir(), 'tck-certify-cli-'));
const IMPL = ['--name', 'ref', '--version', '1.2.3', '--language', 'TypeScript', '--repository', 'https://example.com/ref'];

function tck(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env, timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** tck as a child that does not block the event loop (the server under test runs in another child). */
function tckAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('tck certify → tck verify against a separately started tck serve', () => {
  it('writes a bundle that verifies offline (exit 0), and a tampered copy does not (exit 1, one line)', async () => {
    const server = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        server.stdout.on('data', (d) => {
          out += d;
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        server.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      const bundle = join(dir, 'bundle.json');
      const c = await tckAsync(['certify', '--url', url, ...IMPL, '--out', bundle]);
      expect(c.stderr).toBe('');
      expect(c.code).toBe(0);
      // Every tier, Platinum included (issue 33, item 8): tck serve has Platinum; the registry knows Bronze–Gold.
      expect(c.stdout).toMatch(/certification bundle written to .*bundle\.json: ref 1\.2\.3, PLATINUM \(Gold in the registry, which knows Bronze–Gold\)/);
      const b = JSON.parse(readFileSync(bundle, 'utf8'));
      expect(b.certification).toMatchObject({ name: 'ref', version: '1.2.3', tier: 'gold' });
      expect(b.report.target.url).toBe(url);
    } finally {
      server.kill('SIGTERM');
    }
    // Offline: the server is gone.
    const v = tck(['verify', join(dir, 'bundle.json')]);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^verified: ref 1\.2\.3 reaches PLATINUM \(tested at http:\/\/127\.0\.0\.1:\d+\); \d+ scenarios replayed/);

    const b = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8'));
    b.report.scenarios = b.report.scenarios.slice(1);
    writeFileSync(join(dir, 'cut.json'), JSON.stringify(b));
    const t = tck(['verify', join(dir, 'cut.json')]);
    expect(t.code).toBe(1);
    expect(t.stdout).toMatch(/^not verified: SCN-B-\d+ is missing from the bundle .*\n$/);
    expect(t.stdout.split('\n')).toHaveLength(2);
  }, 120_000);
});

describe('usage errors: one line, exit 2', () => {
  it.each([
    ['--tier', 'bronze'],
    ['--grep', 'search'],
    ['--scenario', 'SCN-B-043'],
  ])('certify refuses the selection %s', (flag, value) => {
    const r = tck(['certify', ...IMPL, flag, value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tck: certify runs the full bridge suite, every tier, the optional Platinum included; ${flag} ${flag === '--tier' ? `${value} ` : ''}would narrow it (use \`npx tck run\` for a partial run)\n`);
  });
  it('certify needs the implementation named', () => {
    const r = tck(['certify', '--name', 'ref', '--language', 'Go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('tck: certify needs --name, --version, --language and --repository; missing --version, --repository\n');
  });
  it('certify needs a repository URL', () => {
    const r = tck(['certify', ...IMPL.slice(0, -1), 'not a url']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: --repository: .*\(got "not a url"\)\n$/);
  });
  it('verify of an unreadable or foreign file', () => {
    expect(tck(['verify', join(dir, 'nothing.json')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tck: bundle .*nothing\.json: does not exist \(ENOENT\)\n$/) });
    writeFileSync(join(dir, 'foreign.json'), '{"format":"x"}');
    expect(tck(['verify', join(dir, 'foreign.json')])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^tck: .*foreign\.json is not a certification bundle: format: /) });
  });
  it('compare needs two files', () => {
    expect(tck(['compare', join(dir, 'foreign.json')])).toMatchObject({ code: 2, stderr: 'tck: compare needs at least two reports or bundles\n' });
  });
});

describe('tck openapi', () => {
  it('prints the bridge document, or writes the hosted one to --out', () => {
    const r = tck(['openapi']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ openapi: '3.1.0', paths: { '/add_message': { post: { operationId: 'add_message' } } } });
    const out = join(dir, 'hosted.json');
    expect(tck(['openapi', '--hosted', '--out', out]).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).paths['/conversations'].get.operationId).toBe('list_conversations');
  });
});
