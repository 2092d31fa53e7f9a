// A recording run: scenarios run against the embedded reference servers (the bridge reference with
// the Platinum methods, and the hosted reference service) keeping every assertion they make, with
// the sentences each one cites. The clause map (docs/clauses.md), `tck explain` and the tests that
// check every cited id exists are built from it: what an assertion enforces is what it cited when
// it ran, whatever code path computed the id.
import type { ScenarioResult } from '../engine/result.js';
import type { HostedReportScenario } from '../report/model.js';
import { isHostedId, runTck } from './run.js';

export interface Recording {
  bridge: ScenarioResult[];
  hosted: HostedReportScenario[];
}

/** Every scenario (or those of `scenarios`, or of one profile), every tier and the hosted profile, with their assertions. */
export async function recordAssertions(options: { scenarios?: readonly string[]; only?: 'bridge' | 'hosted' } = {}): Promise<Recording> {
  const ids = options.scenarios;
  const bridgeIds = options.only === 'hosted' ? [] : ids?.filter((id) => !isHostedId(id));
  const hostedIds = options.only === 'bridge' ? [] : ids?.filter(isHostedId);
  const bridge =
    bridgeIds === undefined || bridgeIds.length > 0
      ? (await runTck({ tier: 'platinum', keepAssertions: true, ...(bridgeIds ? { scenarios: [...bridgeIds] } : {}) })).scenarios
      : [];
  const hosted =
    hostedIds === undefined || hostedIds.length > 0
      ? ((await runTck({ hosted: {}, keepAssertions: true, ...(hostedIds ? { scenarios: [...hostedIds] } : {}) })).hosted?.scenarios ?? [])
      : [];
  return { bridge, hosted };
}
