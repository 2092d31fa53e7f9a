// Issue 14, items 6–8: one defect is one root cause (console, Markdown, GitHub lead with causes);
// a failure in a setup call reads "blocked by <method>"; a target that is no bridge server at all
// stops at once; the obvious fix for camelCase fields is said; repeated list issues are capped;
// a 404 with an error body from a method that exists is a protocol error, not "not implemented".
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import { causeLine, causesOf, compactIds } from '../../src/report/causes.js';
import { githubAnnotations } from '../../src/report/render/github.js';
import { renderMarkdown } from '../../src/report/render/markdown.js';
import { mapAnswers, runOnVariant } from '../harness/variants.js';
import { reportOn, tck } from './support.js';

/** clear_all_data answers 200 {"ok": true} where 204 is due. */
const clear200 = (next: (m: string, b: unknown) => unknown) => async (m: string, b: unknown) => {
  const r = await next(m, b);
  return m === 'clear_all_data' ? { status: 200, body: { ok: true } } : r;
};
const camel = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(camel) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(x)])) : v;

describe('root causes', () => {
  it('a void method answering 200 before every scenario is one cause, "blocked by clear_all_data", in console order, Markdown and GitHub', async () => {
    const report = await reportOn(clear200 as never, { tier: 'bronze', grep: 'SCN-B-00[1-9]|SCN-B-12[67]' });
    const causes = causesOf(report.scenarios);
    expect(causes).toHaveLength(1);
    expect(causeLine(causes[0]!)).toBe('blocked by clear_all_data: 204 expected, got 200 with body {"ok":true} — 11 scenarios');
    expect(compactIds(causes[0]!.scenarios.map((s) => s.id))).toBe('SCN-B-001–009, SCN-B-126, SCN-B-127');
    const md = renderMarkdown(report);
    expect(md.indexOf('### 1 cause of 11 failures')).toBeLessThan(md.indexOf('### Failures (11)'));
    const notes = githubAnnotations(report);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^::error title=11 scenarios failing%3A blocked by clear_all_data::blocked by clear_all_data: 204 expected/);
  });

  it('never more than ten annotations: nine causes, then "N more causes"', () => {
    const s = (i: number) => ({ id: `SCN-B-${100 + i}`, tier: 'bronze' as const, group: 'g', clauses: ['X'], title: 't', outcome: 'failed' as const, message: `add_message: defect number ${'x'.repeat(i)}`, durationMs: 0, exchanges: [], notes: [] });
    const notes = githubAnnotations({ scenarios: Array.from({ length: 15 }, (_, i) => s(i)) } as never);
    expect(notes).toHaveLength(10);
    expect(notes.at(-1)).toMatch(/^::error title=6 more causes::6 more causes \(6 scenarios\) in the step summary/);
  });

  it('the console leads with the causes and shows one scenario per cause in full', async () => {
    await withServer(async (url) => {
      const r = await tck(['run', '--url', url, '--tier', 'bronze', '--grep', 'SCN-B-0[0-4]', '-r', 'console', '--out', '/tmp']);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/\nFailures \(\d+\) from \d causes?\n\nCause 1 of \d: /);
      expect(r.stdout.match(/^(FAIL|ERROR) SCN-/gm)!.length).toBe(Number(/from (\d) cause/.exec(r.stdout)![1]));
      expect(r.stdout).toMatch(/\n\d+ scenarios: \d+ passed, \d+ failed \(\d causes?\) in \d+\.\d s\n/);
    }, (_m, body) => camel(body));
  });

  it('a target that is no bridge server stops after three calls, with one line; the report is written; exit 2', async () => {
    const server = createServer((_q, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const r = await tck(['run', '--url', url, '-r', 'console,json', '--out', `/tmp/tck-notbridge-${process.pid}`]);
      // Issue 33, item 7: the same line and exit code on every command (docs/exit-codes.md).
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`tck: ${url} is not a bridge server: setup 404 with an HTML page, get_conversation 404 with an HTML page, list_sessions 404 with an HTML page; no scenario was run (is the URL the bridge's base URL, with its path prefix?)\n`);
      expect(r.stdout).not.toMatch(/^(FAIL|ERROR|NOT RUN)/m);
      const report = JSON.parse(readFileSync(`/tmp/tck-notbridge-${process.pid}/report.json`, 'utf8')) as { scenarios: { outcome: string }[] };
      expect(report.scenarios.every((s) => s.outcome === 'not-run')).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('messages that say the fix', () => {
  it('a camelCase twin of a missing snake_case field is named; the same issue in every list element is said once', async () => {
    const [one, list] = await runOnVariant({ wrap: mapAnswers((body) => camel(body)) }, ['SCN-B-001', 'SCN-B-062']);
    expect(one!.message).toContain('session_id: is missing (required); sessionId is present: the protocol names it session_id (snake_case)');
    expect(list!.message).toMatch(/\[0\]\.session_id: is missing \(required\); sessionId is present: .* \(and the same in \d+ more elements?\)/);
    expect(list!.message).not.toMatch(/\[1\]\.session_id/);
  });

  it('get_entity_by_name answering 404 {"error"} after answering 200: a protocol error, not "not implemented"', async () => {
    const notFound404 = (next: (m: string, b: unknown) => unknown) => async (m: string, b: unknown) => {
      const r = (await next(m, b)) as { status: number; body: unknown };
      return m === 'get_entity_by_name' && r.body === null ? { status: 404, body: { error: 'not found' } } : r;
    };
    const [b128, s019] = await runOnVariant({ wrap: notFound404 as never }, ['SCN-B-128', 'SCN-S-019']);
    expect(b128).toMatchObject({ outcome: 'error' });
    expect(s019).toMatchObject({ outcome: 'error' });
    expect(s019!.notImplemented).toBeUndefined();
    expect(s019!.message).toBe('get_entity_by_name: 404 Not Found {"error":"not found"}, though get_entity_by_name answered earlier in this run: get_entity_by_name exists, so this is a protocol error, not a missing method (a lookup that finds nothing answers 200 null)');
  });
});

/** A bridge server whose every answer body goes through `edit`. */
async function withServer(fn: (url: string) => Promise<void>, edit: (m: string, body: unknown) => unknown) {
  const { MemoryStore, createDispatcher, startBridgeServer } = await import('../../src/servers/bridge/index.js');
  const base = createDispatcher(new MemoryStore());
  const server = await startBridgeServer(async (m, b) => {
    const r = await base(m, b);
    return { ...r, body: edit(m, r.body) };
  }, { port: 0 });
  try {
    await fn(server.url);
  } finally {
    await server.close();
  }
}
