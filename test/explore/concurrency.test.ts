// tck explore --concurrency: the linearizability check (src/explore/linearize.ts) and the concurrent
// explorer (src/explore/concurrent.ts) — it finds the racing servers of the concurrency proof, shrinks
// each finding to a few clients and calls, and finds nothing on our servers or on valid servers that
// serialise, answer out of order or lock per session.
import { describe, expect, it } from 'vitest';
import { linearize, type Op, type SequentialModel } from '../../src/explore/linearize.js';
import { exploreConcurrently } from '../../src/explore/concurrent.js';
import { HostedStore, createForwarder } from '../../src/servers/hosted/index.js';
import { startBridgeServer } from '../../src/servers/bridge/index.js';
import { startService } from '../hosted/helpers.js';
import { withVariant, type VariantOptions } from '../harness/variants.js';
import { FAULTS, VALID } from '../suites/variants/concurrency.js';
import { tck, tempDir } from '../reporters/support.js';

// A register of a list: add(x) appends, read() answers the list.
type Call = { add: string } | { read: true };
const listModel: SequentialModel<string[], Call, unknown> = {
  init: () => [],
  key: (s) => s.join(','),
  step: (s, call, answer) => ('add' in call ? { ok: true, next: [...s, call.add] } : JSON.stringify(answer) === JSON.stringify(s) ? { ok: true, next: s } : { ok: false, why: `read ${JSON.stringify(answer)}, held ${JSON.stringify(s)}` }),
};
const op = (client: number, call: Call, answer: unknown, invokedMs: number, answeredMs: number): Op<Call, unknown> => ({ client, call, answer, invokedMs, answeredMs });

describe('linearize', () => {
  it('finds the serial order of two overlapping adds that a later read shows', () => {
    const v = linearize([op(0, { add: 'a' }, null, 0, 10), op(1, { add: 'b' }, null, 1, 9), op(0, { read: true }, ['b', 'a'], 11, 12)], listModel);
    expect(v).toMatchObject({ kind: 'linearizable', order: [1, 0, 2] });
  });

  it('accepts a read that overlaps a write either way', () => {
    for (const seen of [['a'], ['a', 'b']]) {
      expect(linearize([op(0, { add: 'a' }, null, 0, 1), op(1, { add: 'b' }, null, 2, 10), op(0, { read: true }, seen, 3, 4)], listModel).kind).toBe('linearizable');
    }
  });

  it('refuses a read, sent after both adds were answered, that lacks one (a lost write), and says why', () => {
    const v = linearize([op(0, { add: 'a' }, null, 0, 10), op(1, { add: 'b' }, null, 1, 9), op(0, { read: true }, ['b'], 11, 12)], listModel);
    expect(v).toMatchObject({ kind: 'not-linearizable', why: expect.stringContaining('read ["b"]') });
  });

  it('respects real time: a read answered before an add was sent cannot show it', () => {
    const v = linearize([op(0, { read: true }, ['a'], 0, 1), op(1, { add: 'a' }, null, 2, 3)], listModel);
    expect(v.kind).toBe('not-linearizable');
  });

  it('gives up past its budget, without a verdict', () => {
    const many = Array.from({ length: 12 }, (_, i) => op(i, { add: String(i) }, null, 0, 100));
    expect(linearize([...many, op(0, { read: true }, ['x'], 101, 102)], listModel, 50).kind).toBe('unknown');
  });
});

const explore = (url: string) => exploreConcurrently({ url, concurrency: 16, runs: 3, callsPerClient: 4, seed: 7, requestTimeoutMs: 5_000, shrinkRuns: 80 });

describe('tck explore --concurrency 16', () => {
  it('finds nothing on the reference server, on tck serve (the hosted store) or on a valid concurrent server', async () => {
    for (const options of [{}, { store: new HostedStore() }, ...VALID.map(([, v]) => v as VariantOptions)]) {
      const r = await withVariant(options, explore);
      expect(r.finding?.columns, JSON.stringify(options)).toBeUndefined();
      expect(r.methods).toContain('record_tool_call');
    }
  }, 120_000);

  it('finds nothing through the forwarder in front of the hosted service (tck serve with MEMORY_ENDPOINT; Bronze: no traces there)', async () => {
    const service = await startService({ store: new HostedStore() });
    const fwd = await startBridgeServer(createForwarder({ endpoint: service.hosted.baseUrl, apiKey: service.hosted.apiKey, timeoutMs: 10_000 }));
    try {
      const r = await explore(fwd.url);
      expect(r.finding?.columns).toBeUndefined();
      expect(r.methods).toEqual(['add_message', 'get_conversation', 'list_sessions']);
    } finally {
      await fwd.close();
      await service.close();
    }
  }, 120_000);

  it('finds a lost message, shrunk to a few clients and calls, printed as columns with a script that replays it', async () => {
    const lost = FAULTS.find(([id, fault]) => id === 'SCN-B-143' && /messages are lost/.test(fault))![2] as VariantOptions;
    const r = await withVariant(lost, explore);
    const f = r.finding!;
    expect(f.why).toMatch(/in no serial order consistent with real time/);
    expect(f.program.length).toBeLessThanOrEqual(4);
    expect(f.program.flat().length).toBeLessThanOrEqual(8);
    expect(f.columns).toMatch(/client 1 +\| client 2/);
    expect(f.script).toMatch(/^#!\/usr\/bin\/env bash/);
    expect(f.script).toContain(') &');
  }, 120_000);

  it.each(FAULTS.filter(([id]) => ['SCN-S-112', 'SCN-S-114', 'SCN-B-146'].includes(id)).map(([id, fault, v]) => [`${id}: ${fault}`, v] as const))('finds %s', async (_name, variant) => {
    const r = await withVariant(variant as VariantOptions, (url) => exploreConcurrently({ url, concurrency: 16, runs: 5, callsPerClient: 4, seed: 11, requestTimeoutMs: 5_000, shrinkRuns: 10 }));
    expect(r.finding?.why).toBeDefined();
  }, 120_000);
});

describe('tck explore --concurrency on the command line', () => {
  it('explores the embedded reference server: every history explained, exit 0', async () => {
    const out = tempDir();
    const r = await tck(['explore', '--concurrency', '8', '--runs', '3', '--seed', '5', '--out', out]);
    expect(r.stdout).toMatch(/8 clients at once, 4 calls each; seed 5\n3 histories judged .*\nevery history had a serial order consistent with real time that explains every answer\n/);
    expect(r.code).toBe(0);
  }, 60_000);

  it('refuses more clients than it bounds, in one line (exit 2)', async () => {
    const r = await tck(['explore', '--concurrency', '100000']);
    expect(r.stderr).toBe('tck: --concurrency 100000: at most 256 clients at once (each holds a connection)\n');
    expect(r.code).toBe(2);
  }, 60_000);
});
