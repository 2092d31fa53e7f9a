// The conformance suites as the test set of mutation testing (npm run mutation): every scenario of
// the kit runs, one test each, against the reference server started in this process, so a mutant
// of src/servers/bridge (store, dispatch, search) that changes an observable answer fails at least
// one scenario. A mutant that survives is a rule the suites do not check, or a silent point: see
// docs/mutation-triage.md. Not part of `npm test` (vitest.config.ts does not include this folder).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { MemoryStore, createDispatcher, startBridgeServer, type RunningBridgeServer } from '../../src/servers/bridge/index.js';
import { ALL_SCENARIOS } from '../../suites/index.js';

let server: RunningBridgeServer;
let client: BridgeClient;

beforeAll(async () => {
  server = await startBridgeServer(createDispatcher(new MemoryStore()), { port: 0 });
  client = new BridgeClient({ url: server.url, timeoutMs: 5_000 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

describe('the reference server passes every scenario', () => {
  // Platinum is served by the hosted store (src/servers/hosted), not by the bridge reference mutated here.
  it.each(ALL_SCENARIOS.filter((s) => s.tier !== 'platinum').map((s) => [s.id, s] as const))('%s', async (_id, scenario) => {
    const { results } = await runScenarios(client, [scenario], { scenarioTimeoutMs: 10_000 });
    const failing = results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);
    expect(failing).toEqual([]);
  });
});
