// Issue 24: every command honest (item 1, one target for every command, is targets.test.ts):
// --only-failed re-runs what did not run too; every output path checked first; a server that
// refuses every call stops the run; diff of two selections; the wording of the small mistakes.
// Runs the built launcher (npm test builds first) against faulty servers in this process.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { startVariant, tck, tempDir } from '../reporters/support.js';
import type { Wrap } from '../harness/variants.js';
import { createdToWrites, locked } from './faulty.js';
import { METHODS } from '../../src/protocols/bridge/methods.js';

const work = tempDir('tck-commands-');
const IMPL = ['--name', 'a', '--version', '1', '--language', 'x', '--repository', 'https://x.example/r'];
const readReport = (file: string): Report => ReportSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const oneLine = (text: string) => expect(text.trim().split('\n')).toHaveLength(1);

let faulty: Awaited<ReturnType<typeof startVariant>>;
let refusing: Awaited<ReturnType<typeof startVariant>>;
beforeAll(async () => {
  [faulty, refusing] = await Promise.all([startVariant(createdToWrites), startVariant(locked)]);
});
afterAll(async () => Promise.all([faulty?.close(), refusing?.close()]));

describe('item 2: --only-failed re-runs what failed, errored or did not run, and says so', () => {
  it('after a run cut short by --bail: the error and every scenario not run are re-run', async () => {
    const before = join(work, 'bailed');
    const first = await tck(['run', '--url', faulty.url, '--tier', 'bronze', '--bail', '-r', 'console,json', '-o', before]);
    expect(first.code).toBe(1);
    // A failing run ends with the command that re-runs it.
    expect(first.stdout).toMatch(/\nre-run what failed, errored or did not run: npx tck run --only-failed .*bailed\/report\.json --url http:\/\/127\.0\.0\.1:\d+\n$/);
    const old = readReport(join(before, 'report.json'));
    const notRun = old.scenarios.filter((s) => s.outcome === 'not-run').length;
    expect(notRun).toBeGreaterThan(100);
    const again = join(work, 'again');
    const r = await tck(['run', '--only-failed', join(before, 'report.json'), '--tier', 'bronze', '-r', 'console,json', '-o', again]);
    const report = readReport(join(again, 'report.json'));
    // Everything but what passed before runs again (the reference server passes it all).
    expect(report.scenarios.filter((s) => s.outcome === 'passed')).toHaveLength(notRun + 1);
    expect(report.selection.rerun).toEqual({ from: join(before, 'report.json'), failed: 0, error: 1, notRun });
    expect(r.stdout).toContain(`a re-run of ${join(before, 'report.json')}'s 1 errored and ${notRun} not run`);
    expect(r.code).toBe(0);
  }, 60_000);

  it('after an interrupted run (3 passed, the rest not run): no "nothing to re-run"', async () => {
    const full = join(work, 'full');
    await tck(['run', '--tier', 'bronze', '-r', 'json', '-o', full]);
    const cut = readReport(join(full, 'report.json'));
    cut.interrupted = true;
    cut.scenarios = cut.scenarios.map((s, i) => (i < 3 ? s : { ...s, outcome: 'not-run', message: 'not run: interrupted by SIGINT' }));
    writeFileSync(join(work, 'interrupted.json'), JSON.stringify(cut));
    const r = await tck(['run', '--only-failed', join(work, 'interrupted.json'), '--tier', 'bronze', '-r', 'console', '-o', join(work, 'again2')]);
    expect(r.stdout).not.toContain('nothing to re-run');
    expect(r.stdout).toMatch(new RegExp(`Selection passed \\(a re-run of .*interrupted\\.json's ${cut.scenarios.length - 3} not run: ${cut.scenarios.length - 3} of ${cut.scenarios.length} Bronze scenarios\\)`));
    expect(r.code).toBe(0);
  }, 60_000);
});

describe('item 4: output paths are checked first, bounded, exit 2, one line', () => {
  const file = join(work, 'a-file');
  beforeAll(() => writeFileSync(file, 'x'));
  const report = () => join(work, 'full', 'report.json');

  it.each([
    ['report --junit', () => ['report', report(), '--junit', '/proc/x/y.xml'], /^tck: --junit \/proc\/x\/y\.xml cannot be written: its folder \/proc\/x cannot be created \(ENOENT\)\n$/],
    ['compare --html', () => ['compare', report(), report(), '--html', '/proc/x/c.html'], /^tck: --html \/proc\/x\/c\.html cannot be written/],
    ['compare --md', () => ['compare', report(), report(), '--md', '/proc/x/c.md'], /^tck: --md \/proc\/x\/c\.md cannot be written/],
    ['openapi -o', () => ['openapi', '-o', '/proc/x/o.json'], /^tck: --out \/proc\/x\/o\.json cannot be written/],
    ['certify -o /proc', () => ['certify', '--embedded', ...IMPL, '-o', '/proc/x/c.json'], /^tck: --out \/proc\/x\/c\.json cannot be written/],
    ['certify -o under a file', () => ['certify', '--embedded', ...IMPL, '-o', join(file, 'c.json')], /^tck: --out .*a-file\/c\.json cannot be written: its folder .*a-file exists and is not a directory \(EEXIST\)\n$/],
    ['explore --out /proc', () => ['explore', '--out', '/proc/x'], /^tck: --out \/proc\/x is not a directory that can be written: \/proc\/x cannot be created \(ENOENT\)\n$/],
    ['explore --out a file', () => ['explore', '--out', file], /^tck: --out .*a-file is not a directory that can be written: exists and is not a directory \(EEXIST\)\n$/],
    ['report --md a directory', () => ['report', report(), '--md', work], /^tck: --md .* cannot be written: it is a directory/],
  ])('%s', async (_name, args, message) => {
    const r = await tck(args());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    // Nothing ran: certify printed no tier table, explore explored nothing.
    expect(r.stdout).toBe('');
  }, 30_000);
});

describe('item 6: a server that answers 401 to everything stops the run', () => {
  it('one line says authentication failed and how to pass credentials; no scenario runs', async () => {
    const out = join(work, 'locked');
    const r = await tck(['run', '--url', refusing.url, '-r', 'console,json', '-o', out]);
    // Issue 33, item 7: one line and exit 2 (docs/exit-codes.md), the report still written.
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tck: ${refusing.url} refuses the credentials: setup 401 Unauthorized, get_conversation 401 Unauthorized, list_sessions 401 Unauthorized; no credential was sent: pass it with --header 'Authorization: Bearer …' (repeatable) or TCK_HEADERS; no scenario was run\n`);
    expect(r.stdout).not.toMatch(/^(FAIL|ERROR) /m);
    expect(r.stdout).not.toContain('--only-failed');
    const report = readReport(join(out, 'report.json'));
    expect(report.scenarios.every((s) => s.outcome === 'not-run')).toBe(true);
    const sent = await tck(['run', '--url', refusing.url, '-H', 'X-Api-Key: wrong', '-r', 'console', '-o', out]);
    expect(sent.stderr).toContain('the header sent (x-api-key) was refused: check the credential given with --header or TCK_HEADERS');
  });
});

describe('item 7: tck diff of a full run and a narrowed one', () => {
  it('compares what both selected, says so, exit 0 when nothing common regressed', async () => {
    const narrowed = join(work, 'narrowed');
    await tck(['run', '--tier', 'bronze', '-s', 'SCN-B-001', '-r', 'json', '-o', narrowed]);
    const r = await tck(['diff', join(work, 'full', 'report.json'), join(narrowed, 'report.json')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^compared: the 1 scenario both runs selected \(old: bronze, every scenario; new: bronze, --scenario SCN-B-001\)\n/);
    expect(r.stdout).toContain('tier: not compared (old BRONZE, new NONE): the runs selected differently');
    expect(r.stdout).toContain('vanished (0)');
    expect(r.stdout).toMatch(/verdict: no regression among the 1 scenario both runs selected\n$/);
  }, 30_000);
});

describe('item 11: wording and choices', () => {
  it('--tier Gold is gold; --tier gld suggests gold; --grading Strict is strict', async () => {
    const ok = await tck(['run', '--tier', 'Gold', '--grading', 'Strict', '-s', 'SCN-B-001', '-r', 'json', '-o', join(work, 'gold')]);
    expect(ok.code).toBe(0);
    expect(readReport(join(work, 'gold', 'report.json')).requestedTier).toBe('gold');
    const near = await tck(['run', '--tier', 'gld']);
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/Allowed choices are bronze, silver, gold, platinum; did you mean 'gold'\?/);
  });

  it('--bail 3 and --max-failures 3 stop after three failures', async () => {
    for (const flags of [['--bail', '3'], ['--max-failures', '3']]) {
      const out = join(work, `bail-${flags[0]}`);
      const r = await tck(['run', '--url', faulty.url, '--tier', 'bronze', ...flags, '-r', 'json', '-o', out]);
      expect(r.stderr).toBe('');
      const report = readReport(join(out, 'report.json'));
      expect(report.scenarios.filter((s) => s.outcome === 'error' || s.outcome === 'failed')).toHaveLength(3);
      expect(report.scenarios.find((s) => s.outcome === 'not-run')?.message).toBe('not run: stopped by --max-failures 3 after 3 failures');
    }
  }, 30_000);

  it.each([
    [['run', '--url', 'localhost:abc'], 'tck: invalid target URL "localhost:abc": it does not start with http:// or https:// (e.g. http://127.0.0.1:3001)\n'],
    [['run', '--url', 'localhost:3001'], 'tck: invalid target URL "localhost:3001": it does not start with http:// or https:// (did you mean http://localhost:3001?)\n'],
    [['verify', '/nonexistent/bundle.json'], 'tck: bundle /nonexistent/bundle.json: does not exist (ENOENT)\n'],
    [['verify', '/tmp'], 'tck: bundle /tmp is a directory, not a file\n'],
    [['compare', '/nonexistent/a.json', '/tmp'], 'tck: compare /nonexistent/a.json: does not exist (ENOENT)\n'],
  ])('tck %j', async (args, line) => {
    const r = await tck(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(line);
  });

  it('report of a file that is not JSON: the parser error whole, on one line', async () => {
    const bad = join(work, 'notjson.txt');
    writeFileSync(bad, 'hello\nworld "quoted\nline"');
    const r = await tck(['report', bad]);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toMatch(/is not JSON: Unexpected token 'h', "hello\\nworl"\.\.\. is not valid JSON\n$/);
  });

  it('an unknown config field gets the nearest known one', async () => {
    const dir = join(work, 'tiers');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tck.config.json'), JSON.stringify({ tiers: 'gold' }));
    const r = await tck(['run', '--config', join(dir, 'tck.config.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown field "tiers" \(did you mean "tier"\?\) \(known: url, /);
  });

  it('probe: help says no fixed count, the 404 lookup hint is said once, the target is named', async () => {
    const help = await tck(['probe', '--help']);
    expect(help.stdout).not.toMatch(/\b26\b/);
    // A server whose every Platinum method answers 404 {"error"}.
    const platinum = new Set(Object.entries(METHODS).filter(([, m]) => m.tier === 'platinum').map(([name]) => name));
    const missing: Wrap = (next) => (m, body) => (platinum.has(m) ? { status: 404, body: { error: 'no such route' } } : next(m, body));
    const server = await startVariant(missing);
    try {
      const r = await tck(['probe', '--url', server.url]);
      expect(r.stdout).toMatch(new RegExp(`^probing ${server.url.replace(/[.]/g, '\\.')} \\(from --url\\)\n`));
      expect(r.stdout).not.toContain('(if the method exists');
      expect(r.stdout.match(/a lookup that found nothing/g)).toHaveLength(1);
      expect(r.stdout).toMatch(/reachable tiers of .*: bronze, silver, gold \(/);
    } finally {
      await server.close();
    }
  });
});

describe('issue 33, item 4: tck probe is read-only unless --destructive is given, and says which', () => {
  const post = (url: string, method: string, body: unknown) =>
    fetch(`${url}/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: r.status === 204 ? null : await r.json() }));

  it('Platinum is optional, but a Platinum method that is there and broken fails the probe (exit 1)', async () => {
    const { startReferenceServer } = await import('../../src/servers/bridge/index.js');
    const { HostedStore } = await import('../../src/servers/hosted/store.js');
    const full = await startReferenceServer({ port: 0, store: new HostedStore() });
    // A front that answers list_entities with a body the data model refuses.
    const { createServer } = await import('node:http');
    const front = createServer((req, res) => {
      if (req.url === '/list_entities') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"not":"a list"}');
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', async () => {
        const r = await fetch(`${full.url}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await r.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const r = await tck(['probe', '--url', `http://127.0.0.1:${(front.address() as { port: number }).port}`]);
      expect(r.stdout).toMatch(/broken +platinum +list_entities/);
      expect(r.stdout).toContain('platinum is optional, but what a server has of it must work: list_entities broken');
      expect(r.code).toBe(1);
    } finally {
      await new Promise((r) => front.close(r));
      await full.close();
    }
  });

  it('a session written before a probe is there after it; with --destructive the probe says it deletes, and does', async () => {
    const server = await startVariant();
    try {
      await post(server.url, 'add_message', { session_id: 'staging-user', role: 'user', content: 'keep me' });
      const r = await tck(['probe', '--url', server.url]);
      expect(r.stdout).toContain('read-only: setup and the reads are called, no write (--destructive calls every method, and deletes the data at the target)');
      expect(r.stdout).toMatch(/not probed +lifecycle +clear_all_data +a write: not called without --destructive/);
      expect(r.stdout).toMatch(/reachable tiers of .*: bronze, silver, gold \(.*; reads only: run with --destructive to probe the writes\)/);
      expect(r.code).toBe(0);
      expect(JSON.stringify((await post(server.url, 'get_conversation', { session_id: 'staging-user' })).body)).toContain('keep me');
      const d = await tck(['probe', '--url', server.url, '--destructive']);
      expect(d.stdout).toContain(`--destructive: the writes are called too, and clear_all_data deletes every piece of data at ${server.url}`);
      expect(d.code).toBe(0);
      expect(JSON.stringify((await post(server.url, 'get_conversation', { session_id: 'staging-user' })).body)).not.toContain('keep me');
    } finally {
      await server.close();
    }
  });
});

describe('issue 33, item 16: the small mistakes get the nearest name, in one line', () => {
  it('run --scenario SCN-B-43 / SCN-B-999, a config tier "gld", explore --methods add_mesage', async () => {
    const padded = await tck(['run', '--scenario', 'SCN-B-43']);
    expect(padded.stderr).toMatch(/^tck: unknown scenario SCN-B-43 \(did you mean 'SCN-B-043'\?\); SCN-B-001 to SCN-B-\d+ exist \(see `npx tck list`\)\n$/);
    expect(padded.code).toBe(2);
    const none = await tck(['run', '--scenario', 'SCN-B-999']);
    expect(none.stderr).toMatch(/^tck: unknown scenario SCN-B-999; SCN-B-001 to SCN-B-\d+ exist \(see `npx tck list`\)\n$/);
    const dir = join(work, 'cfg-tier');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tck.config.json'), JSON.stringify({ tier: 'gld' }));
    const cfg = await tck(['run', '--config', join(dir, 'tck.config.json')]);
    expect(cfg.stderr).toMatch(/field "tier": .*\(did you mean "gold"\?\)\n$/);
    expect(cfg.code).toBe(2);
    const methods = await tck(['explore', '--methods', 'add_mesage', '-o', join(work, 'ex-methods')]);
    expect(methods.stderr).toMatch(/^tck: --methods add_mesage: names no method or tier explore can draw \(did you mean 'add_message'\?\)/);
    expect(methods.code).toBe(2);
  });

  it('tck report renders a certification bundle as the report it holds', async () => {
    const bundle = join(work, 'report-bundle.json');
    const c = await tck(['certify', '--embedded', ...IMPL, '-o', bundle]);
    expect(c.code).toBe(0);
    const r = await tck(['report', bundle, '--md', join(work, 'bundle.md')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(work, 'bundle.md'), 'utf8')).toMatch(/^## agent-memory-tck: PLATINUM/);
  }, 60_000);
});
