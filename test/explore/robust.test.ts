// tck explore is robust like tck run: the time budget ends a run cleanly whatever is in flight; a
// target that is not a bridge server, wants credentials or cannot be reached is one line and its
// exit code; methods the target lacks are not drawn; every distinct disagreement found within the
// budget is reported, grouped by rule.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/run.js';
import { RULES } from '../../src/explore/rules.js';
import { TckError } from '../../src/engine/errors.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { compose, mapResponse, withVariant, type Wrap } from '../harness/variants.js';
import { bronzeOnly } from '../suites/variants/bronze-b.js';
import { tempDir } from '../reporters/support.js';

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;

/** Every answer 100–300 ms late. */
const slow: Wrap = (next) => (m, b) => new Promise((resolve) => setTimeout(() => resolve(next(m, b)), 100 + Math.random() * 200));

/** Runs the CLI; resolves to its exit code and output. */
function tck(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A plain HTTP server answering every request with `status` and `body`. */
async function answering(status: number, body: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': body.startsWith('<') ? 'text/html' : 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => { server.close(() => r()); server.closeAllConnections(); }) };
}

describe('tck explore is robust', () => {
  it('a time budget that ends during slow calls ends the run: nothing found, stopped by the budget', async () => {
    const s = await withVariant({ wrap: slow }, (url) => explore({ url, seed: 1, timeBudgetMs: 2_500 }));
    expect(s.stoppedBy).toBe('time-budget');
    expect(s.findings).toEqual([]);
    expect(s.durationMs).toBeLessThan(2_500 + 3_000);
  }, 60_000);

  it('a finding still being shrunk when the budget ends is reported with its minimal sequence so far', async () => {
    // Every add_message answers another content: found in the first sequence; shrinking slow calls outlasts the budget.
    const fault = compose(slow, mapResponse('add_message', (m) => ({ ...m, content: `${String(m.content)}!` })));
    const s = await withVariant({ wrap: fault }, (url) => explore({ url, seed: 3, timeBudgetMs: 4_000, methods: ['bronze'] }));
    expect(s.findings?.map((f) => f.rule)).toEqual(['message.written']);
    expect(s.failure?.rule).toBe('message.written');
    expect(s.findings![0]!.steps.length).toBeGreaterThan(0);
  }, 60_000);

  it('a URL that does not reach the bridge (a missing path prefix) is one line, nothing explored', async () => {
    const err = await withVariant({ http: { pathPrefix: 'bridge/v1' } }, (url) => explore({ url: url.replace(/\/bridge\/v1$/, ''), seed: 1 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(TckError);
    expect((err as TckError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/is not a bridge server: setup 404, get_conversation 404, list_sessions 404; nothing was explored \(is the URL the bridge's base URL, with its path prefix\?\)/);
  }, 30_000);

  it('a target that wants credentials is one line, nothing explored', async () => {
    const err = await withVariant({ wrap: () => () => ({ status: 401, body: { error: 'missing bearer token' } }) }, (url) => explore({ url, seed: 1 }).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(TckError);
    expect((err as TckError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/refuses the credentials: setup 401 Unauthorized, get_conversation 401 Unauthorized, list_sessions 401 Unauthorized; no credential was sent: pass it with --header 'Authorization: Bearer …' \(repeatable\) or TCK_HEADERS; nothing was explored$/);
  }, 30_000);

  it('methods the target does not implement are not drawn, and the report names them', async () => {
    const s = await withVariant({ wrap: bronzeOnly }, (url) => explore({ url, seed: 1, runs: 30 }));
    expect(s.findings).toEqual([]);
    expect(s.notImplemented).toContain('add_entity');
    expect(s.methods).toContain('add_message');
    expect(s.methods).not.toContain('add_entity');
    const err = await withVariant({ wrap: bronzeOnly }, (url) => explore({ url, seed: 1, runs: 5, methods: ['silver'] }).catch((e: unknown) => e));
    expect((err as Error).message).toMatch(/does not implement .*add_entity.* which --methods silver asks for/);
  }, 60_000);

  it('Platinum methods are drawn when the target answers them, left out silently when it does not', async () => {
    const hosted = await withVariant({ store: new HostedStore() }, (url) => explore({ url, seed: 1, runs: 10 }));
    expect(hosted.methods).toContain('create_conversation');
    const plain = await withVariant({}, (url) => explore({ url, seed: 1, runs: 10 }));
    expect(plain.methods).not.toContain('create_conversation');
    expect(plain.notImplemented).toBeUndefined();
  }, 60_000);

  it('every distinct disagreement is reported, grouped by rule, each with its replay', async () => {
    // Two independent defects: roles read back wrong, and tool stats counting one call too many.
    // From seed 5 explore finds both within its first 10 sequences (the seed makes the sequences,
    // so this does not move): 60 leave room, and a run that stopped at its first finding, or
    // reported one finding only, still fails here.
    const two = compose(
      mapResponse('get_conversation', (c) => ({ ...c, messages: c.messages.map((m: { role: string }) => ({ ...m, role: m.role === 'system' ? 'user' : m.role })) })),
      mapResponse('get_tool_stats', (l) => l.map((x: { total_calls: number }) => ({ ...x, total_calls: x.total_calls + 1 }))),
    );
    const s = await withVariant({ wrap: two }, (url) => explore({ url, seed: 5, runs: 60, timeBudgetMs: 120_000 }));
    const rules = s.findings!.map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['message.kept', 'get_tool_stats.stats']));
    const order = Object.keys(RULES);
    expect(rules.map((r) => order.indexOf(r))).toEqual([...rules.map((r) => order.indexOf(r))].sort((a, b) => a - b));
    for (const f of s.findings!) expect(f.replay).toMatch(new RegExp(`--seed ${f.seed} --path "[^"]+"`));
  }, 180_000);

  it('the CLI: a wrong path is exit 2, credentials exit 2, nothing listening exit 3, each one line', async () => {
    const out = tempDir('tck-explore-robust-');
    const page = await answering(404, '<html><body>Not Found</body></html>');
    const auth = await answering(401, '{"error":"unauthorized"}');
    try {
      const wrongPath = await tck(['explore', '--url', page.url, '--seed', '1', '--out', out]);
      expect(wrongPath.code).toBe(2);
      expect(wrongPath.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tck: .* is not a bridge server: setup 404/)]);
      const wantsKey = await tck(['explore', '--url', auth.url, '--seed', '1', '--out', out]);
      expect(wantsKey.code).toBe(2);
      expect(wantsKey.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tck: .* refuses the credentials: setup 401 Unauthorized/)]);
    } finally {
      await page.close();
      await auth.close();
    }
    const gone = await tck(['explore', '--url', page.url, '--seed', '1', '--out', out]);
    expect(gone.code).toBe(3);
    expect(gone.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tck: cannot reach the conformance server at /)]);
  }, 120_000);
});
