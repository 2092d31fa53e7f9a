// Reproduction scripts: ids the server handed out are captured and passed on, header values never
// appear, and a script run with bash against the faulty server shows the same wrong answer — with
// jq, and with the node fallback when jq is missing.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/profiles/bridge/index.js';
import { reproScript } from '../../src/report/repro.js';
import { runTck } from '../../src/run/run.js';
import { withVariant } from '../harness/variants.js';
import { keepsDeleted, tempDir } from './support.js';
import { nullAs404 } from '../suites/variants/bronze-b.js';

const ID = '11111111-2222-4333-8444-555555555555';

function exchange(method: string, requestBody: Record<string, unknown>, answer: unknown, headers: Record<string, string> = {}): Exchange {
  return {
    method,
    url: `http://h/${method}`,
    requestBody,
    requestHeaders: headers,
    status: 200,
    contentType: 'application/json',
    responseText: JSON.stringify(answer),
    durationMs: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
  };
}

const source = (exchanges: Exchange[]) => ({ id: 'SCN-B-071', title: 't', clauses: ['SPEC-2.5.2'], outcome: 'failed' as const, message: 'line one\nline two', exchanges });

describe('reproScript', () => {
  it('captures a value first seen in an answer and sent again; literal values stay literal', () => {
    const script = reproScript(
      source([
        exchange('add_message', { session_id: 's1', role: 'user', content: "it's" }, { id: ID, session_id: 's1', role: 'user' }),
        exchange('get_conversation', { session_id: 's1' }, { messages: [{ id: ID }] }),
        exchange('delete_message', { message_id: ID, note: 's1' }, { deleted: true }),
      ]),
      { url: 'http://h' },
    );
    expect(script).toContain(`call POST "$BASE/add_message" '' '{"session_id":"s1","role":"user","content":"it'\\''s"}'\n`);
    // The id handed out by answer 0 is spliced in as JSON; "s1" was sent first, so it stays literal.
    expect(script).toContain(`call POST "$BASE/delete_message" '' '{"message_id":'"$(json 0 '.id')"',"note":"s1"}'`);
    expect(script).toContain('BASE="${1:-${TCK_URL:-http://h}}"');
    expect(script).toContain("# The kit's verdict: failed: line one\n# line two\n");
    expect(script.match(/\$\(json /g)).toHaveLength(1); // used once
  });

  it('names the headers the run sent and takes their values from the environment, never from the report', () => {
    const script = reproScript(source([exchange('setup', {}, { ok: true }, { authorization: '***', 'x-tenant': '***' })]), { url: 'http://h' });
    expect(script).toContain('CURL_HEADERS+=(-H "authorization: ${TCK_HEADER_AUTHORIZATION:?set TCK_HEADER_AUTHORIZATION to the value of the authorization header}")');
    expect(script).toContain('CURL_HEADERS+=(-H "x-tenant: ${TCK_HEADER_X_TENANT:?');
  });

  it('paths of keys that are not identifiers are quoted for jq and the node fallback', () => {
    const script = reproScript(
      source([exchange('a', {}, { 'odd key': [{ id: ID }] }), exchange('b', { x: ID }, {})]),
      { url: 'http://h' },
    );
    expect(script).toContain(`"$(json 0 '.["odd key"][0].id')"`);
    const list = reproScript(source([exchange('list', {}, [{ id: ID }]), exchange('b', { x: ID }, {})]), { url: 'http://h' });
    expect(list).toContain(`"$(json 0 '.[0].id')"`);
  });
});

/** Runs a script with bash; resolves with its output. */
function bash(script: string, url: string, path?: string): Promise<{ code: number | null; out: string }> {
  const dir = tempDir('tck-repro-');
  const file = join(dir, 'repro.sh');
  writeFileSync(file, script);
  return new Promise((resolve) => {
    const { TCK_URL: _, ...env } = process.env; // the URL is the argument's (or none)
    const child = spawn('/bin/bash', url === '' ? [file] : [file, url], { env: { ...env, ...(path ? { PATH: path } : {}) } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** A bin directory with curl, node and the few coreutils the script uses, and no jq. */
function pathWithoutJq(): string {
  const dir = join(tempDir('tck-nojq-'), 'bin');
  mkdirSync(dir);
  for (const tool of ['curl', 'mktemp', 'rm', 'cat']) {
    const found = ['/usr/bin', '/bin', '/usr/local/bin'].map((d) => join(d, tool)).find((p) => existsSync(p));
    if (found) symlinkSync(found, join(dir, tool));
  }
  symlinkSync(process.execPath, join(dir, 'node'));
  return dir;
}

/** Ids and instants differ from run to run; the rest of an answer must not. */
const normalise = (text: string) =>
  JSON.parse(text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>').replace(/\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)/g, '<time>'));

describe('a repro script against the faulty server', () => {
  it.each([
    ['with jq (when installed)', undefined],
    ['with the node fallback (no jq on PATH)', pathWithoutJq()],
  ])('shows the same wrong answer and exits 1; against the reference server it exits 0 %s', async (_how, path) => {
    await withVariant({ wrap: keepsDeleted }, async (url) => {
      const report = await runTck({ url, scenarios: ['SCN-B-071'] });
      const [s] = report.scenarios;
      expect(s!.outcome).toBe('failed');
      const judged = s!.exchanges.at(-1)!;
      expect(judged.method).toBe('get_conversation');

      const { code, out } = await bash(s!.repro!, url, path);
      // A regression check: the value the failed check expected (only the message kept) is not there yet.
      expect(out).toMatch(/\nSTILL FAILING SCN-B-071: get_conversation\(session_id="delete-gone"\) after deleting/);
      expect(out).toMatch(/answer 4 at \.messages is \[.*"Delete me: a unique walrus sentence".*\], expected \[\{"id":"[0-9a-f-]{36}","role":"user","content":"Keep me"\}\]/);
      expect(code, out).toBe(1);
      // Once the server deletes, the same script passes: exit 0.
      const fixed = await withVariant({}, (ref) => bash(s!.repro!, ref, path));
      expect(fixed.out).toContain('FIXED: every check of SCN-B-071 passes (statuses and the value the failed check expected)');
      expect(fixed.code, fixed.out).toBe(0);
      // The id of the message to delete was captured from add_message's answer and sent on.
      expect(out).toMatch(/>>> \[\d+\] POST \/delete_message \{"message_id":"[0-9a-f-]{36}"\}\n<<< 200\n\{"deleted":true\}/);
      const answers = [...out.matchAll(/<<< (\d+)\n(.*)\n/g)];
      const last = answers.at(-1)!;
      expect(last[1]).toBe(String(judged.status));
      // The same wrong answer: both messages still there.
      expect(normalise(last[2]!)).toEqual(normalise(judged.responseText!));
      expect(normalise(last[2]!).messages).toHaveLength(2);
    });
  });
});

describe('what a repro script checks', () => {
  it('a wrong status: the judged call must answer the status the protocol requires (exit 1 on the faulty server, 0 on the reference)', async () => {
    await withVariant({ wrap: nullAs404('get_entity_by_name') }, async (url) => {
      const report = await runTck({ url, scenarios: ['SCN-S-019'] });
      const s = report.scenarios[0]!;
      expect(s.judged).toEqual({ exchange: 2, status: [200] });
      const faulty = await bash(s.repro!, url);
      expect(faulty.out).toContain('call 2 answered status 404, expected 200');
      expect(faulty.code, faulty.out).toBe(1);
      const fixed = await withVariant({}, (ref) => bash(s.repro!, ref));
      expect(fixed.code, fixed.out).toBe(0);
    });
  });

  it('a run on the embedded server: the script needs a URL and says so in one line (exit 2)', async () => {
    const script = reproScript(source([exchange('list_sessions', {}, [])]), { url: 'http://127.0.0.1:40001', embedded: true });
    expect(script).not.toContain('40001');
    const { code, out } = await bash(script, '');
    expect(out).toMatch(/^usage: bash \S+\/repro\.sh URL \(or set TCK_URL\): the run used the kit's embedded server, which is gone\n$/);
    expect(code).toBe(2);
  });

  it('a failed check it cannot make (a rule in words): statuses as in the run, then exit 3, never 0', async () => {
    await withVariant({}, async (url) => {
      const s = { ...source([{ ...exchange('list_sessions', {}, []), url: 'http://h/list_sessions' }]), expected: 'newest first', actual: 3 };
      const { code, out } = await bash(reproScript(s, { url: 'http://h' }), url);
      expect(out).toContain('NOT JUDGED: every status is as expected, but the failed check of SCN-B-071 is not one this script can make');
      expect(code).toBe(3);
    });
  });
});
