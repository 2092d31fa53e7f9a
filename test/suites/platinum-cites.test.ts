// Every assertion of a Platinum scenario cites the sentence it enforces (issue 21's clause map): run
// on the reference with every assertion kept, the sentences the assertions of a scenario cite are
// the clauses it names, and each clause it names is cited by an assertion of its body or by the
// profile's check of an answer (a method's row: "list_steps answers 200"), so docs/scenarios.md's
// sentence → scenarios map, built from those clauses, is what the assertions check. None relies on
// the scenario's clauses implicitly unless it names a single one.
import { describe, expect, it } from 'vitest';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { createDispatcher, startBridgeServer } from '../../src/servers/bridge/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { platinum } from '../../suites/platinum/index.js';

/** The checks the bridge profile makes of every answer (status and data model), which cite the method's row themselves. */
const PROFILE = / answers (204|200 \(.*\))$|: the answer matches the data model$/;

describe('the assertions of the Platinum scenarios', () => {
  it('cite exactly the clauses their scenario names', async () => {
    const server = await startBridgeServer(createDispatcher(new HostedStore()), { port: 0 });
    const client = new BridgeClient({ url: server.url, timeoutMs: 5_000 });
    try {
      const { results } = await runScenarios(client, platinum, { scenarioTimeoutMs: 20_000, keepAssertions: true });
      const problems = results.flatMap((r) => {
        const scenario = platinum.find((s) => s.id === r.id)!;
        const own = (r.checked ?? []).filter((a) => !PROFILE.test(a.what));
        const cited = new Set(own.flatMap((a) => a.cites));
        const all = new Set((r.checked ?? []).flatMap((a) => a.cites));
        return [
          ...(r.outcome === 'passed' ? [] : [`${r.id}: ${r.outcome} ${r.message}`]),
          ...[...cited].filter((c) => !scenario.clauses.includes(c) && !c.startsWith('ADV-')).map((c) => `${r.id}: cites ${c}, not among its clauses`),
          ...scenario.clauses.filter((c) => !all.has(c)).map((c) => `${r.id}: names ${c}, which no assertion cites`),
          ...(scenario.clauses.length > 1 ? own.filter((a) => a.implicit).map((a) => `${r.id}: "${a.what}" cites nothing itself`) : []),
        ];
      });
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await server.close();
    }
  }, 120_000);
});
