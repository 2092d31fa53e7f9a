// The conformance suites as the test set of the Platinum mutation run (npm run mutation:platinum):
// every Platinum scenario, and the core scenarios of the methods the hosted store overrides
// (clear_session, add_entity, merge_duplicate_entities, relationships), one test each, against the
// hosted store in this process, so a mutant of src/servers/hosted/store.ts or query.ts that changes
// an observable answer fails at least one scenario. (The other core scenarios reach no hosted-store
// code but clear_all_data, which every scenario calls anyway.) Survivors are triaged in
// docs/mutation-triage.md ("The Platinum run").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { createDispatcher, startBridgeServer, type RunningBridgeServer } from '../../src/servers/bridge/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { ALL_SCENARIOS } from '../../suites/index.js';

let server: RunningBridgeServer;
let client: BridgeClient;

beforeAll(async () => {
  server = await startBridgeServer(createDispatcher(new HostedStore()), { port: 0 });
  client = new BridgeClient({ url: server.url, timeoutMs: 20_000 });
});

afterAll(async () => {
  await client.close();
  await server.close();
});

/** The core groups whose methods HostedStore overrides or extends. */
const OVERRIDDEN = new Set(['clear_session', 'add_entity', 'merge', 'relationships']);
const SCENARIOS = ALL_SCENARIOS.filter((s) => s.tier === 'platinum' || OVERRIDDEN.has(s.group));

describe('the hosted store passes the Platinum scenarios and those of the core methods it overrides', () => {
  it('runs them all', () => expect(SCENARIOS.filter((s) => s.tier === 'platinum').length).toBeGreaterThan(30));

  it.each(SCENARIOS.map((s) => [s.id, s] as const))('%s', async (_id, scenario) => {
    const { results } = await runScenarios(client, [scenario], { scenarioTimeoutMs: 25_000 });
    const failing = results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);
    expect(failing.join('\n')).toBe('');
  });
});
