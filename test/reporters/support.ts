// Shared by the report tests: faulty servers (a hostile one that answers with markup, one that
// never deletes), a report from a run against one, and the `tck` binary run asynchronously (the
// faulty server lives in the test process, so the event loop must stay free while tck runs).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore, createDispatcher, startBridgeServer } from '../../src/servers/bridge/index.js';
import { normalizeReport } from '../../src/report/load.js';
import type { Report } from '../../src/report/model.js';
import { runTck, type TckOptions } from '../../src/run/run.js';
import { compose, mapResponse, withVariant, type Wrap } from '../harness/variants.js';

/** Markup a hostile server puts in message content, entity names and error texts. */
export const XSS = {
  content: `<script>document.title='pwned:content'</script>`,
  name: `<img src=x onerror="document.title='pwned:name'">`,
  error: `</pre></details><script>document.title='pwned:error'</script>`,
} as const;

/** Answers with script tags: in add_message content, add_entity names, and search_messages errors. */
export const hostile: Wrap = compose(
  mapResponse('add_message', (m) => ({ ...m, content: `${XSS.content}${m.content}` })),
  mapResponse('add_entity', (e) => ({ ...e, name: XSS.name })),
  (next) => (m, body) => (m === 'search_messages' ? { status: 400, body: { error: XSS.error } } : next(m, body)),
);
// (Not the concurrency scenarios: their batches of 16 add no hostile text of their own, only more causes, which would push the annotations these reports test past their cap.)
export const HOSTILE_GREP = '^(?!.* concurrency$).*(add_message|search_messages|add_entity)';

/** delete_message answers {"deleted": true} and deletes nothing. */
export const keepsDeleted: Wrap = (next) => (m, body) => (m === 'delete_message' ? { status: 200, body: { deleted: true } } : next(m, body));
export const DELETE_GREP = 'delete_message';

/** A run of `selection` against a variant (none: the reference server), as report.json holds it. */
export async function reportOn(wrap: Wrap | undefined, selection: TckOptions): Promise<Report> {
  return withVariant(wrap ? { wrap } : {}, async (url) => normalizeReport(await runTck({ url, requestTimeoutMs: 5_000, ...selection })));
}

export const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;

/** Environment of a child tck: no colour, no CI integrations, no inherited headers. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '' };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CI']) delete env[k];
  return { ...env, ...extra };
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `tck` without blocking this process. */
export function tck(args: string[], extra: Record<string, string> = {}, killAfterMs = 60_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(extra) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export const tempDir = (name = 'tck-report-') => mkdtempSync(join(tmpdir(), name));

/** A variant server that stays up across tests (withVariant's counterpart for beforeAll/afterAll). */
export async function startVariant(wrap?: Wrap): Promise<{ url: string; close(): Promise<void> }> {
  const store = new MemoryStore();
  const base = createDispatcher(store);
  return startBridgeServer(wrap ? wrap(base, store) : base, { port: 0 });
}
