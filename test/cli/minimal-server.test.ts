// The example of docs/writing-a-server.md, as a newcomer runs it: examples/minimal-server.mjs in a
// process of its own, and `tck run --tier bronze` against it (the built launcher; npm test builds
// first). It must reach Bronze, exit 0. The same server with one rule broken (messages read back
// newest first) must not: the run is a real check of the example, not a formality.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerFile } from './server-file.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/tck.js');
const EXAMPLE = join(ROOT, 'examples/minimal-server.mjs');
const env = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '', TCK_URL: '' };
const children: ChildProcess[] = [];
afterEach(() => { for (const c of children.splice(0)) c.kill(); });

/** Starts a server file on a free port; resolves with the URL it prints. */
const start = (file: string): Promise<string> => startServerFile(file, children, env);

async function bronzeRun(file: string) {
  const url = await start(file);
  const out = mkdtempSync(join(tmpdir(), 'tck-minimal-'));
  const r = spawnSync(process.execPath, [BIN, 'run', '--url', url, '--tier', 'bronze', '--reporter', 'json', '--out', out], { encoding: 'utf8', env, timeout: 120_000 });
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { achieved: string | null; scenarios: { id: string; outcome: string }[] };
  return { code: r.status, stderr: r.stderr, report };
}

describe('examples/minimal-server.mjs', () => {
  it('reaches Bronze: every Bronze scenario passes, exit 0', async () => {
    const { code, stderr, report } = await bronzeRun(EXAMPLE);
    expect(report.scenarios.filter((s) => s.outcome !== 'passed').map((s) => `${s.id} ${s.outcome}`)).toEqual([]);
    expect(report.achieved).toBe('bronze');
    expect(code, stderr).toBe(0);
  }, 120_000);

  it('with one rule broken (a conversation read back newest first) it does not, exit 1', async () => {
    const source = readFileSync(EXAMPLE, 'utf8');
    const broken = source.replace('messages: lastN(s.messages, p.limit)', 'messages: lastN(s.messages, p.limit).reverse()');
    expect(broken).not.toBe(source);
    const file = join(mkdtempSync(join(tmpdir(), 'tck-minimal-broken-')), 'server.mjs');
    writeFileSync(file, broken);
    const { code, report } = await bronzeRun(file);
    expect(report.scenarios.find((s) => s.id === 'SCN-B-043')?.outcome).toBe('failed');
    expect(report.achieved).toBeNull();
    expect(code).toBe(1);
  }, 120_000);
});
