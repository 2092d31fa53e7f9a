// The hosted profile as the test set of mutation testing (npm run mutation:hosted): every hosted
// scenario runs, one test each, against the hosted reference service started in this process (as
// a vendor's service: its URL, its bootstrap key, a key of another workspace, tokens past their
// exp, minted identity-provider tokens), so a mutant of its credential or resource code
// (src/servers/hosted: credentials, oauth, http, routes) that changes an observable answer fails at
// least one scenario. A survivor is a rule the profile does not check, or a reading the document
// leaves open: see docs/mutation-triage.md. `npm test` runs it too, as one more run of every hosted scenario against the reference.
import { describe, expect, it } from 'vitest';
import { runHostedProfile } from '../../src/run/hosted.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { startHostedVariant } from '../hosted/profile-harness.js';

// Each test starts its own service, inside the test: a mutant that breaks the start (the key
// format, the bootstrap key's issue, the expired token the harness mints) must FAIL the tests, and
// every test must count as covering the start, since what the start made (the expired tokens of
// SCN-H-053 and SCN-H-057, the key of another workspace) is judged by later scenarios. Started in a
// beforeAll, a failed start made vitest skip every test and Stryker counted the mutant survived
// with no test run (19 of the first run's "survivors"); started once in the first test, Stryker's
// per-test coverage ran only SCN-H-001 for a mutant of the start, which never judges the tokens.
describe('the hosted reference service passes every hosted scenario', () => {
  it.each(HOSTED_SCENARIOS.map((s) => [s.id] as const))('%s', async (id) => {
    // Longer timeouts than the harness's: a run instruments every line and shares two cores, where a
    // request of SCN-H-001 once took more than the harness's 5 s and failed the initial run.
    const service = await startHostedVariant();
    let section;
    try {
      ({ section } = await runHostedProfile({ ...service.options, requestTimeoutMs: 20_000, scenarioTimeoutMs: 25_000, scenarios: [id] }));
    } finally {
      await service.close();
    }
    // The scenario itself must have run and passed: a service that refuses every credential ends the
    // profile before any scenario, with an empty list that a filter of the failures would pass
    // (the first hosted mutation run counted such mutants, isRefusal() -> true among them, as survivors).
    expect(section.scenarios.map((r) => `${r.id} ${r.outcome}${r.outcome === 'passed' ? '' : `: ${r.message}`}`)).toEqual([`${id} passed`]);
  });
});
