// Issue 14, items 10–15: bad input is one line and exit 2 before anything runs, never a hang.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startVariant, tck, tempDir } from '../reporters/support.js';

const work = tempDir('tck-input-');
const oneLine = (r: { stderr: string }) => expect(r.stderr.trim().split('\n')).toHaveLength(1);

describe('usage mistakes: one line, exit 2, before any run', () => {
  it.each([
    [['rn'], "tck: unknown command 'rn' — did you mean 'run'?"],
    [['lsit'], "tck: unknown command 'lsit' — did you mean 'list'?"],
    [['expalin', 'SCN-B-001'], "tck: unknown command 'expalin' — did you mean 'explain'?"],
    [['serv', '--port', '0'], "tck: unknown command 'serv' — did you mean 'serve'?"],
    [['run', '-r', ''], 'an empty list names no reporter'],
    [['run', '-q', '-v'], "option '-q, --quiet' cannot be used with option '-v, --verbose'"],
    [['list', '--json', '--markdown'], "option '--json' cannot be used with option '--markdown'"],
    [['run', '--url', 'http://127.0.0.1:99999'], 'port 99999 is out of range (1–65535)'],
    [['run', '--scenario', 'SCN-S-001', '--tier', 'bronze'], 'SCN-S-001 is a silver scenario, above --tier bronze'],
    [['run', '--scenario', 'SCN-P-102'], 'SCN-P-102 is a platinum scenario, above --tier gold: raise --tier or leave it out'],
    [['run', '--grep', 'matches-no-scenario-at-all'], 'no scenario matches the selection (--grep "matches-no-scenario-at-all")'],
    [['report', ''], 'tck: report: an empty path names no file'],
    [['report', join(work, 'missing.json')], 'does not exist (ENOENT)'],
  ])('tck %j', async (args, text) => {
    const r = await tck(args);
    expect(r.code).toBe(2);
    oneLine(r);
    expect(r.stderr).toContain(text);
    expect(r.stdout).toBe('');
  });

  it('a report that is not JSON: one line', async () => {
    const bad = join(work, 'notjson.txt');
    writeFileSync(bad, '{"a":\n');
    const r = await tck(['report', bad]);
    expect(r.code).toBe(2);
    oneLine(r);
  });

  it('--out naming a file, for run and schema: exit 2 at once, nothing runs', async () => {
    const file = join(work, 'a-file');
    writeFileSync(file, 'x');
    for (const args of [['run', '--out', file], ['schema', '--out', file]]) {
      const r = await tck(args);
      expect(r.code).toBe(2);
      oneLine(r);
      expect(r.stderr).toMatch(/--out .*a-file is not a directory that can be written: exists and is not a directory \(EEXIST\)/);
      expect(r.stdout).toBe('');
    }
  });

  it('--out under /proc never hangs: refused within the bound', async () => {
    for (const args of [['run', '--out', '/proc/x'], ['schema', '--out', '/proc/x']]) {
      const r = await tck(args);
      expect(r.code).toBe(2);
      oneLine(r);
      // Refused at once (each folder made one level at a time: /proc refuses the first), else within the bound.
      expect(r.stderr).toMatch(/^tck: --out \/proc\/x(: no answer from the file system within 3 s| is not a directory that can be written: \/proc\/x cannot be created \(ENOENT\))\n$/);
    }
  }, 30_000);

  it('https:// against plain HTTP says so in one line', async () => {
    const server = await startVariant();
    try {
      const r = await tck(['run', '--url', server.url.replace('http:', 'https:'), '--out', join(work, 'tls')]);
      expect(r.code).toBe(3);
      oneLine(r);
      expect(r.stderr).toMatch(/does not speak TLS; try http:\/\/127\.0\.0\.1:\d+/);
    } finally {
      await server.close();
    }
  });
});

describe('run --help', () => {
  it('shows the header example in double quotes (so $TOKEN expands) and the reporter default once', async () => {
    const r = await tck(['run', '--help']);
    expect(r.stdout).toContain(`--header "Authorization: Bearer $TOKEN"`);
    expect(r.stdout.replace(/\s+/g, ' ').match(/default: console,json,junit,html/g)).toHaveLength(1);
  });
});

describe('warnings for what would silently never match', () => {
  it('a baseline naming a scenario the kit does not have', async () => {
    const file = join(work, 'typo-baseline.json');
    writeFileSync(file, JSON.stringify({ format: 'agent-memory-tck/baseline', formatVersion: '1.0', scenarios: [{ id: 'SCN-B-999', reason: 'typo' }] }));
    const r = await tck(['run', '--scenario', 'SCN-B-001', '--baseline', file, '-r', 'json', '--out', join(work, 'bl')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`tck: warning: the baseline ${file} names SCN-B-999, which this kit does not have\n`);
  });
});
