// The runner's outcomes, each provoked by a scenario or a server made for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { TargetUnreachable } from '../../src/engine/runner.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { MemoryStore, createDispatcher, startBridgeServer } from '../../src/servers/bridge/index.js';
import type { Dispatch } from '../harness/variants.js';

const scenario = (id: string, run: Scenario['run'], tier: Scenario['tier'] = 'bronze'): Scenario =>
  defineScenario({ id, tier, group: 'test', clauses: ['TEST-1'], title: id, asserts: 'test', run });

let calls: string[] = [];
let server: Awaited<ReturnType<typeof startBridgeServer>>;
let client: BridgeClient;
let override: Dispatch | undefined;

beforeAll(async () => {
  const reference = createDispatcher(new MemoryStore());
  server = await startBridgeServer((m, b) => {
    calls.push(m);
    return override ? override(m, b) : reference(m, b);
  }, { port: 0 });
  client = new BridgeClient({ url: server.url, timeoutMs: 2_000 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

async function runWith(scenarios: Scenario[], dispatch?: Dispatch, opts = {}) {
  calls = [];
  override = dispatch;
  try {
    return await runScenarios(client, scenarios, opts);
  } finally {
    override = undefined;
  }
}

describe('runner outcomes', () => {
  it('setup once, clear_all_data before every scenario, teardown at the end', async () => {
    const noop = async () => {};
    await runWith([scenario('SCN-B-901', noop), scenario('SCN-B-902', noop)]);
    expect(calls).toEqual(['setup', 'clear_all_data', 'clear_all_data', 'teardown']);
  });

  it('passed scenarios carry no exchanges; failed ones carry every exchange as evidence', async () => {
    const { results } = await runWith([
      scenario('SCN-B-901', async ({ bridge }) => {
        await bridge.add_message({ session_id: 's', role: 'user', content: 'x' });
      }),
      scenario('SCN-B-902', async ({ bridge, check }) => {
        const m = await bridge.add_message({ session_id: 's', role: 'user', content: 'x' });
        check.equal(m.content, 'y', 'add_message: content round-trips');
      }),
    ]);
    expect(results[0]).toMatchObject({ outcome: 'passed', exchanges: [] });
    expect(results[1]).toMatchObject({ outcome: 'failed', message: 'add_message: content round-trips: expected "y", got "x"', expected: 'y', actual: 'x' });
    expect(results[1]!.exchanges.map((e) => e.method)).toEqual(['clear_all_data', 'add_message']);
    expect(results[1]!.exchanges[1]!.responseText).toContain('"content":"x"');
  });

  it('a response that breaks the data model fails with the path and value', async () => {
    const { results } = await runWith(
      [scenario('SCN-B-901', async ({ bridge }) => void (await bridge.add_message({ session_id: 's', role: 'user', content: 'x' })))],
      async (m, b) => {
        const res = await createDispatcher(new MemoryStore())(m, b);
        return m === 'add_message' ? { ...res, body: { ...(res.body as object), timestamp: '1700000000' } } : res;
      },
    );
    expect(results[0]!.outcome).toBe('failed');
    expect(results[0]!.message).toMatch(/^add_message: response does not match the data model:\n\s+timestamp: "1700000000" is not an ISO 8601 date-time/);
  });

  it('a 400 where success was needed fails with the server text', async () => {
    const { results } = await runWith(
      [scenario('SCN-B-901', async ({ bridge }) => void (await bridge.list_sessions({})))],
      (m, b) => (m === 'list_sessions' ? { status: 400, body: { error: 'nope' } } : createDispatcher(new MemoryStore())(m, b)),
    );
    expect(results[0]).toMatchObject({ outcome: 'failed', message: 'list_sessions: expected success, got 400 {"error": "nope"}' });
  });

  it('a protocol violation is an error; 404 is "not implemented" and counts as failed', async () => {
    let lookups = 0;
    const ref = createDispatcher(new MemoryStore());
    const { results } = await runWith(
      [
        scenario('SCN-B-901', async ({ bridge }) => void (await bridge.clear_session({ session_id: 's' }))),
        scenario('SCN-G-901', async ({ bridge }) => void (await bridge.get_similar_traces({ task: 't' })), 'gold'),
        scenario('SCN-G-902', async ({ bridge }) => void (await bridge.get_similar_traces({ task: 't' })), 'gold'),
      ],
      // get_similar_traces first answers as the reference answers every unknown method, then with a 404 of its own.
      (m, b) =>
        m === 'clear_session' ? { status: 200, body: { ok: true } }
        : m === 'get_similar_traces' ? { status: 404, body: { error: (b as { task: string }).task === 't' && ++lookups > 1 ? 'no' : `unknown method: ${m}` } }
        : ref(m, b),
    );
    expect(results[0]!.outcome).toBe('error');
    expect(results[0]!.message).toMatch(/^clear_session: 204 expected, got 200/);
    expect(results[1]).toMatchObject({ outcome: 'failed', notImplemented: true });
    expect(results[1]!.message).toMatch(/^get_similar_traces: not implemented/);
    // A 404 other than the one a method that does not exist gets: the method is there, the answer breaks the protocol.
    expect(results[2]).toMatchObject({ outcome: 'error' });
    expect(results[2]!.notImplemented).toBeUndefined();
    expect(results[2]!.message).toMatch(/^get_similar_traces: 404 Not Found \{"error":"no"\}, though a method that does not exist \(tck_no_such_method\) answers 404 Not Found .*: get_similar_traces exists, so this is a protocol error, not a missing method$/);
  });

  it('a scenario that overruns its timeout is an error and makes no further calls', async () => {
    const { results } = await runWith(
      [
        scenario('SCN-B-901', async ({ bridge }) => {
          await new Promise((r) => setTimeout(r, 400));
          await bridge.list_sessions({});
        }),
      ],
      undefined,
      { scenarioTimeoutMs: 100 },
    );
    expect(results[0]).toMatchObject({ outcome: 'error', message: 'scenario did not finish within 0.1 s' });
    await new Promise((r) => setTimeout(r, 500));
    expect(calls).not.toContain('list_sessions');
  });

  it('skip and internal errors are reported, and the run goes on', async () => {
    const { results } = await runWith([
      scenario('SCN-B-901', async ({ skip }) => skip('needs a thing')),
      scenario('SCN-B-902', async () => {
        throw new TypeError('oops');
      }),
      scenario('SCN-B-903', async () => {}),
    ]);
    expect(results.map((x) => x.outcome)).toEqual(['skipped', 'error', 'passed']);
    expect(results[0]!.message).toBe('needs a thing');
    expect(results[1]!.message).toBe('internal error in scenario: oops');
  });

  it('--bail marks the rest not run', async () => {
    const { results } = await runWith(
      [scenario('SCN-B-901', async ({ check }) => check.ok(false, 'no')), scenario('SCN-B-902', async () => {})],
      undefined,
      { bail: true },
    );
    expect(results.map((x) => x.outcome)).toEqual(['failed', 'not-run']);
  });

  it('records protocol_version and warns when it is absent or differs', async () => {
    const ref = createDispatcher(new MemoryStore());
    const withVersion = (v?: string): Dispatch => (m, b) => (m === 'setup' ? { status: 200, body: v ? { ok: true, protocol_version: v } : { ok: true } } : ref(m, b));
    expect((await runWith([], withVersion('0.1.3'))).setup).toEqual({ ok: true, protocolVersion: '0.1.3', warnings: [] });
    expect((await runWith([], withVersion('0.2.0'))).setup.warnings[0]).toMatch(/protocol_version 0\.2\.0; the kit checks 0\.1\.0/);
    expect((await runWith([], withVersion())).setup.warnings[0]).toMatch(/did not report protocol_version/);
  });

  it('an unreachable target ends the run before any scenario', async () => {
    const dead = new BridgeClient({ url: 'http://127.0.0.1:1', timeoutMs: 1_000 });
    await expect(runScenarios(dead, [scenario('SCN-B-901', async () => {})])).rejects.toBeInstanceOf(TargetUnreachable);
    await dead.close();
  });
});
