// The kit's first-contact score on faults it never saw (issue 32, item 4): one-rule faults written
// blind into the independent implementation (test/independent/*/FAULTS.md, committed before the kit
// ran on them) by an author who never read the kit. `npm run measure:independent` runs the kit
// against each — `tck run` (every tier with Platinum; the hosted profile with every input) and, for
// the bridge, `tck run` + `tck explore --seed 1 --time-budget 20000` — and writes the raw score by
// tier to docs/first-contact.md. Raw: a fault counts as caught when any scenario failed (or explore
// found anything), and the clean server is run the same way first, so a false alarm would show
// there (the gate test holds it at nothing). Not tuned to afterwards: the next batch measures again.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { failures, hostedFlags, startBridge, startHosted, tck } from './harness.js';

interface Fault {
  id: string;
  area: string;
  sentence: string;
}

/** The faults of a FAULTS.md: the rows of its table(s) whose first cell is a fault id. */
export function parseFaults(markdown: string): Fault[] {
  const rows: Fault[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length < 3) continue;
    const id = cells[0]!.replace(/`/g, '');
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(id) || /^(id|fault|-+)$/i.test(id)) continue;
    rows.push({ id, area: cells[1]!.replace(/`/g, ''), sentence: cells[2]! });
  }
  return rows;
}

const HERE = new URL('.', import.meta.url).pathname;
const faultsOf = (part: 'bridge' | 'hosted') => parseFaults(readFileSync(`${HERE}${part}/FAULTS.md`, 'utf8'));

describe('the blind faults are listed', () => {
  it('at least 40, spread over every bridge tier and the hosted profile, each id once', () => {
    const bridge = faultsOf('bridge');
    const hosted = faultsOf('hosted');
    expect(bridge.length + hosted.length).toBeGreaterThanOrEqual(40);
    expect(hosted.length).toBeGreaterThan(0);
    for (const tier of ['bronze', 'silver', 'gold', 'platinum']) expect(bridge.some((f) => f.area.toLowerCase().includes(tier)), tier).toBe(true);
    const ids = [...bridge, ...hosted].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

interface Row {
  fault: Fault;
  part: 'bridge' | 'hosted';
  run: string[];
  explore?: boolean;
}

describe.runIf(process.env.TCK_MEASURE === '1')('measure: the kit against every blind fault', () => {
  const rows: Row[] = [];

  it.each(faultsOf('bridge').map((f) => [f.id, f] as const))('bridge %s', async (_id, fault) => {
    const server = await startBridge(fault.id);
    try {
      const ran = await tck(['run', '--url', server.info.url, '--tier', 'platinum', '--reporter', 'json']);
      const explored = await tck(['explore', '--url', server.info.url, '--seed', '1', '--time-budget', '20000', '--reporter', 'json']);
      rows.push({ fault, part: 'bridge', run: failures(ran).map((f) => f.split(' ')[0]!), explore: explored.code === 1 });
    } finally {
      await server.stop();
    }
  }, 300_000);

  it.each(faultsOf('hosted').map((f) => [f.id, f] as const))('hosted %s', async (_id, fault) => {
    const server = await startHosted(fault.id);
    try {
      const ran = await tck(['run', ...hostedFlags(server.info), '--reporter', 'json']);
      rows.push({ fault, part: 'hosted', run: failures(ran).map((f) => f.split(' ')[0]!) });
    } finally {
      await server.stop();
    }
  }, 300_000);

  it('writes docs/first-contact.md', () => {
    const tierOf = (r: Row) => (r.part === 'hosted' ? 'hosted' : (['bronze', 'silver', 'gold', 'platinum'].find((t) => r.fault.area.toLowerCase().includes(t)) ?? r.fault.area));
    const groups = ['bronze', 'silver', 'gold', 'platinum', 'hosted'];
    const line = (t: string) => {
      const of = rows.filter((r) => tierOf(r) === t);
      const run = of.filter((r) => r.run.length > 0).length;
      const both = of.filter((r) => r.run.length > 0 || r.explore === true).length;
      return `| ${t} | ${of.length} | ${run} / ${of.length} | ${t === 'hosted' ? '—' : `${both} / ${of.length}`} |`;
    };
    const all = rows.length;
    const run = rows.filter((r) => r.run.length > 0).length;
    const bridge = rows.filter((r) => r.part === 'bridge');
    const both = bridge.filter((r) => r.run.length > 0 || r.explore === true).length;
    const detail = rows.map((r) => `| ${r.fault.id} | ${tierOf(r)} | ${r.run.length > 0 ? r.run.slice(0, 6).join(', ') + (r.run.length > 6 ? ` (+${r.run.length - 6})` : '') : 'not caught'} | ${r.explore === undefined ? '—' : r.explore ? 'found' : 'nothing'} |`);
    const doc = [
      '# First contact: the kit against faults it never saw',
      '',
      'Written by `npm run measure:independent` (test/independent/first-contact.test.ts); do not edit by hand.',
      '',
      'The faults are one-rule faults written blind into the independent implementation (`test/independent/bridge/FAULTS.md`,',
      '`test/independent/hosted/FAULTS.md`) by an author who never read the kit, and committed before the kit ran on them. The',
      'scores are raw: a fault is caught when any scenario failed (`tck run --tier platinum`; the hosted profile with every input',
      'the service hands out), or, in the last column, when `tck explore --seed 1 --time-budget 20000` found anything too. The',
      'clean server passes every scenario and explore finds nothing on it (test/independent/gate.test.ts), so no catch here is',
      'a false alarm shared by every server. The kit was not tuned to these faults afterwards: the next batch measures again.',
      '',
      '| tier | faults | `tck run` | `run` + `explore` |',
      '|---|---|---|---|',
      ...groups.map(line),
      `| all | ${all} | ${run} / ${all} | ${both} / ${bridge.length} (bridge) |`,
      '',
      '| fault | tier | scenarios that failed | explore |',
      '|---|---|---|---|',
      ...detail,
      '',
    ].join('\n');
    writeFileSync(new URL('../../docs/first-contact.md', import.meta.url), doc);
    expect(rows.length).toBe(faultsOf('bridge').length + faultsOf('hosted').length);
  });
});
