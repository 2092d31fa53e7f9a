// Issue 17, item 2 (and issue 12, item 4): one answer that is large but legal does not unbind the
// runner. A server answers search_messages with a 1 000 000-element array, once of elements the
// model rejects and once of valid elements each with a field the model does not know: the run
// judges it in bounded time and memory, words a bounded number of issues and notes, and writes
// every report, each of a bounded size.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, hostile, runAgainst } from '../hostile/servers.js';

afterAll(cleanUp);

const ELEMENTS = 1_000_000;
const REPORTS = ['report.json', 'junit.xml', 'report.html', 'summary.md', 'badge.svg'];

async function answering(element: string) {
  const body = Buffer.from(`[${Array(ELEMENTS).fill(element).join(',')}]`);
  return hostile(({ method, res }) => {
    if (method !== 'search_messages') return false;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
    return true;
  });
}

const run = (url: string) =>
  runAgainst(url, [...SAFE, '--max-body', String(256 * 1024 * 1024), '--scenario', 'SCN-B-055', '--reporter', 'console,json,junit,html,md,badge']);

describe('a 1 000 000-element search_messages answer', () => {
  it('of invalid elements: failed with 20 issues named and the rest counted, every report written and small', async () => {
    const server = await answering('{"a":1}');
    const { run: r, report, dir } = await run(server.url);
    expect(r.code).toBe(1);
    const s = byId(report, 'SCN-B-055');
    expect(s.outcome).toBe('failed');
    expect(s.message).toMatch(/^search_messages: response does not match the data model:\n {2}\[0\]\.id: is missing \(required\)/);
    expect(s.message).toMatch(/the other 99999\d elements were not judged/);
    expect(s.message!.split('\n').length).toBeLessThanOrEqual(23);
    expect(s.message!.length).toBeLessThan(8 * 1024);
    for (const f of REPORTS) expect(statSync(join(dir, f)).size, f).toBeLessThan(2 * 1024 * 1024);
    // Before the fix: 60 s or more of synchronous judging, 4 GB, a 1 GB report set.
    expect(r.ms).toBeLessThan(30_000);
  });

  it('of valid elements with an unknown field: notes bounded, every report written and small', async () => {
    const server = await answering('{"id":"00000000-0000-4000-8000-000000000001","role":"user","content":"x","timestamp":"2024-01-01T00:00:00Z","metadata":{},"x":1}');
    const { run: r, report, dir } = await run(server.url);
    const s = byId(report, 'SCN-B-055');
    // The answer holds no message the scenario added: an assertion failure, not a crash.
    expect(['failed', 'error']).toContain(s.outcome);
    expect(s.notes.length).toBeLessThanOrEqual(25);
    for (const f of REPORTS) expect(statSync(join(dir, f)).size, f).toBeLessThan(2 * 1024 * 1024);
    expect(r.ms).toBeLessThan(30_000);
  });
});

describe('validateList', () => {
  it('gives the event loop a turn and stops when the scenario is over', async () => {
    const { validateList, YIELD_EVERY } = await import('../../src/protocols/bridge/validate-list.js');
    const { Message } = await import('../../src/protocols/bridge/index.js');
    const valid = { id: '00000000-0000-4000-8000-000000000001', role: 'user', content: 'x', timestamp: '2024-01-01T00:00:00Z', metadata: {} };
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    let asked = 0;
    const r = await validateList(Message, Array(YIELD_EVERY * 10).fill(valid), () => ++asked >= 3);
    clearInterval(timer);
    expect(asked).toBe(3);
    expect(turns).toBeGreaterThan(0);
    expect(r.ok).toBe(true);
  });
});
