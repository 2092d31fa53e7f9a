// The building blocks of `npm run bench` (bench/lib.mjs, over the built kit): a recorded run
// replays to the same statuses, a reset server is as good as fresh, resident data survives
// clear_all_data. Functional only: nothing here is timed.
import { afterEach, describe, expect, it } from 'vitest';
import { ResidentStore, median, recordedRun, replay, startServer, statusMismatches, type BenchServer } from '../../bench/lib.mjs';
import { explore } from '../../src/explore/run.js';

const servers: BenchServer[] = [];
async function server(options?: { latencyMs?: number; resident?: number; hosted?: boolean }): Promise<BenchServer> {
  const s = await startServer(options);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the bench replay', () => {
  it('an exploration of a hosted server (Platinum methods drawn) replays to the same statuses: the explore bench', async () => {
    const s = await server({ hosted: true });
    const sequence: { path: string; body: string; status: number | undefined }[] = [];
    const section = await explore({ url: s.url, seed: 7, runs: 20, timeBudgetMs: 600_000, onExchange: (ex) => sequence.push({ path: new URL(ex.url).pathname, body: JSON.stringify(ex.requestBody), status: ex.status }) });
    expect(section.methods).toContain('bulk_add_messages');
    expect(section.operations).toBeGreaterThan(100);
    s.reset();
    const { statuses } = await replay(s.url, sequence);
    expect(statusMismatches(sequence, statuses)).toEqual([]);
  }, 120_000);

  it('replays a recorded run against a fresh server to the same statuses', async () => {
    // Traces, steps and tool calls: requests that name ids handed out by earlier answers.
    const recording = await recordedRun((await server()).url, { tier: 'silver', grep: 'trace|step|tool' });
    expect(recording.passed).toBe(recording.scenarios);
    expect(recording.scenarios).toBeGreaterThan(10);
    expect(recording.requests).toBe(recording.sequence.length);
    const statuses = new Set(recording.sequence.map((r) => r.status));
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 204, 400]));

    const { statuses: replayed } = await replay((await server()).url, recording.sequence);
    expect(replayed).toHaveLength(recording.requests);
    expect(statusMismatches(recording.sequence, replayed)).toEqual([]);
  });

  it('a reset server replays the same sequence again; latency changes nothing but time', async () => {
    const recording = await recordedRun((await server()).url, { tier: 'bronze', grep: 'get_conversation' });
    const s = await server({ latencyMs: 1 });
    for (let i = 0; i < 2; i++) {
      s.reset();
      const { statuses } = await replay(s.url, recording.sequence);
      expect(statusMismatches(recording.sequence, statuses)).toEqual([]);
    }
  });
});

describe('resident data', () => {
  it('survives clear_all_data, which still removes everything else', () => {
    const store = new ResidentStore(250);
    store.add_message({ session_id: 'mine', role: 'user', content: 'hello' });
    store.add_entity({ name: 'Ada', entity_type: 'PERSON' });
    store.clear_all_data({});
    const snap = store.snapshot();
    expect(snap.sessions.map((s) => [s.session_id, s.messages.length])).toEqual([
      ['bench-resident-0', 100],
      ['bench-resident-1', 100],
      ['bench-resident-2', 50],
    ]);
    expect(snap.entities).toEqual([]);
    expect(store.search_messages({ query: 'benchfill' })).toHaveLength(250);
  });
});

it('median', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([4, 1, 3, 2])).toBe(2.5);
});
