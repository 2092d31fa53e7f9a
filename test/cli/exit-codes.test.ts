// Issue 33, item 7: one situation, one exit code and one line, on every command that talks to a
// server (docs/exit-codes.md). Each command runs against the same broken servers: nothing
// listening (exit 3), 401 to everything (exit 2, how to pass a credential), a web page instead of
// a bridge (exit 2, check the URL); and the hosted run against a refused key and a bridge URL.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../harness/ports.js';
import { startVariant, tck, tempDir } from '../reporters/support.js';
import { locked } from './faulty.js';

const work = tempDir('tck-exit-codes-');
const IMPL = ['--name', 'a', '--version', '1', '--language', 'x', '--repository', 'https://x.example/r'];

/** Every command that talks to a bridge server, its arguments for `url` (reports under `work`). */
const COMMANDS: [string, (url: string, n: number) => string[]][] = [
  ['run', (url, n) => ['run', '--url', url, '-o', join(work, `run-${n}`)]],
  ['probe', (url) => ['probe', '--url', url]],
  ['explore', (url, n) => ['explore', '--url', url, '--seed', '1', '-o', join(work, `explore-${n}`)]],
  ['repro', (url) => ['repro', 'SCN-B-001', '--url', url]],
  ['certify', (url, n) => ['certify', '--url', url, ...IMPL, '-o', join(work, `bundle-${n}.json`)]],
];

let page: Server;
let pageUrl: string;
let refusing: Awaited<ReturnType<typeof startVariant>>;
let silent: string;
beforeAll(async () => {
  page = createServer((_q, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>'));
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(page.address() as { port: number }).port}`;
  refusing = await startVariant(locked);
  silent = `http://127.0.0.1:${await freePort()}`;
});
afterAll(async () => {
  await new Promise((r) => page.close(r));
  await refusing.close();
});

/** The one line on stderr (after a command's own "tck: warning" lines, none here). */
const lineOf = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0]!;
};

describe('the same situation gives the same exit code and line on every command', () => {
  it.each(COMMANDS)('%s: nothing listens → exit 3, "cannot reach …"', async (_name, args) => {
    const r = await tck(args(silent, 1));
    expect(lineOf(r.stderr)).toMatch(new RegExp(`^tck: cannot reach the conformance server at ${silent.replace(/[.]/g, '\\.')}: connection refused`));
    expect(r.code).toBe(3);
  });

  it.each(COMMANDS)('%s: 401 to everything → exit 2, how to pass a credential', async (_name, args) => {
    const r = await tck(args(refusing.url, 2));
    expect(lineOf(r.stderr)).toMatch(new RegExp(`^tck: ${refusing.url.replace(/[.]/g, '\\.')} refuses the credentials: setup 401 Unauthorized, get_conversation 401 Unauthorized, list_sessions 401 Unauthorized; no credential was sent: pass it with --header 'Authorization: Bearer …' \\(repeatable\\) or TCK_HEADERS; `));
    expect(r.code).toBe(2);
  });

  it.each(COMMANDS)('%s: a web page, not a bridge server → exit 2, check the URL (not "cannot reach")', async (_name, args) => {
    const r = await tck(args(pageUrl, 3));
    expect(lineOf(r.stderr)).toMatch(new RegExp(`^tck: ${pageUrl.replace(/[.]/g, '\\.')} is not a bridge server: setup 404 with an HTML page, get_conversation 404 with an HTML page, list_sessions 404 with an HTML page; .* \\(is the URL the bridge's base URL, with its path prefix\\?\\)$`));
    expect(r.code).toBe(2);
  });

  it('nothing was written where nothing ran: no certification bundle, no repro script', async () => {
    for (const url of [refusing.url, pageUrl, silent]) {
      const repro = await tck(['repro', 'SCN-B-001', '--url', url]);
      expect(repro.stdout).toBe('');
    }
    const { existsSync } = await import('node:fs');
    for (const n of [1, 2, 3]) expect(existsSync(join(work, `bundle-${n}.json`))).toBe(false);
  });
});

describe('the hosted run: the same table', () => {
  let hosted: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const { startHostedServer } = await import('../../src/servers/hosted/index.js');
    hosted = await startHostedServer({ port: 0, apiKey: 'nams_the_right_key_0123456789' });
  });
  afterAll(async () => hosted?.close());

  it('a refused API key → exit 2, one line naming --api-key; no scenario runs', async () => {
    const r = await tck(['run', '--hosted', hosted.url, '--api-key', 'nams_a_wrong_key_0123456789', '-o', join(work, 'hosted-refused')]);
    expect(lineOf(r.stderr)).toMatch(/^tck: .* refuses the run's API key: GET \/conversations answered 401; check --api-key KEY or --token TOKEN \(or TCK_API_KEY, TCK_TOKEN\); no scenario was run$/);
    expect(r.stdout).not.toMatch(/^(FAIL|PASS) /m);
    expect(r.code).toBe(2);
  });

  it('a bridge server given to --hosted → exit 2, not a hosted service', async () => {
    const bridge = await startVariant();
    try {
      const r = await tck(['run', '--hosted', bridge.url, '--api-key', 'nams_a_wrong_key_0123456789', '-o', join(work, 'hosted-bridge')]);
      expect(lineOf(r.stderr)).toMatch(/ is not a hosted REST service: GET \/conversations answered 404, GET \/\.well-known\/oauth-protected-resource 404; no scenario was run \(a bridge server is tested with --url/);
      expect(r.code).toBe(2);
    } finally {
      await bridge.close();
    }
  });

  it('--hosted alone with --tier → exit 2 (it was ignored); TCK_URL does not add the bridge suites', async () => {
    const tier = await tck(['run', '--hosted', '--tier', 'gold']);
    expect(lineOf(tier.stderr)).toMatch(/^tck: --tier gold applies to the bridge suites; --hosted alone runs the hosted profile/);
    expect(tier.code).toBe(2);
    const out = join(work, 'hosted-env');
    const env = await tck(['run', '--hosted', '--scenario', 'SCN-H-001', '-r', 'console,json', '-o', out], { TCK_URL: refusing.url });
    expect(env.stderr).toBe('tck: TCK_URL is not used: --hosted runs the hosted profile alone; add --url to run the bridge suites too\n');
    expect(env.code).toBe(0);
    const { readFileSync } = await import('node:fs');
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).profiles).toEqual(['hosted']);
  });
});
