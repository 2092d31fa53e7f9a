// The hosted profile as the test set of mutation testing (npm run mutation:hosted): every hosted
// scenario runs, one test each, against the hosted reference service started in this process (as
// a vendor's service: its URL, its bootstrap key, a key of another workspace, tokens past their
// exp, minted identity-provider tokens), so a mutant of its credential or resource code
// (src/servers/hosted: credentials, oauth, http, routes) that changes an observable answer fails at
// least one scenario. A survivor is a rule the profile does not check, or a reading the document
// leaves open: see docs/mutation-triage.md. `npm test` runs it too, as one more run of every hosted scenario against the reference.
import { afterAll, describe, expect, it } from 'vitest';
import { runHostedProfile } from '../../src/run/hosted.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { startHostedVariant, type RunningVariant } from '../hosted/profile-harness.js';

// The service starts inside the first test that runs, not in a beforeAll: a mutant that breaks the
// start (the key format, the bootstrap key's issue, the signing of the expired token the harness
// mints) must FAIL a test. Started in a beforeAll, its error made vitest skip every test of the
// file, and Stryker counted such a mutant as survived with no test run (19 of the first run's
// "survivors"). Every test awaits the same start, so a failed start fails each test it runs.
let started: Promise<RunningVariant> | undefined;
const service = () => (started ??= startHostedVariant());

afterAll(async () => {
  const running = await started?.catch(() => undefined);
  started = undefined;
  await running?.close();
});

describe('the hosted reference service passes every hosted scenario', () => {
  it.each(HOSTED_SCENARIOS.map((s) => [s.id] as const))('%s', async (id) => {
    // Longer timeouts than the harness's: a run instruments every line and shares two cores, where a
    // request of SCN-H-001 once took more than the harness's 5 s and failed the initial run.
    const { section } = await runHostedProfile({ ...(await service()).options, requestTimeoutMs: 20_000, scenarioTimeoutMs: 25_000, scenarios: [id] });
    // The scenario itself must have run and passed: a service that refuses every credential ends the
    // profile before any scenario, with an empty list that a filter of the failures would pass
    // (the first hosted mutation run counted such mutants, isRefusal() -> true among them, as survivors).
    expect(section.scenarios.map((r) => `${r.id} ${r.outcome}${r.outcome === 'passed' ? '' : `: ${r.message}`}`)).toEqual([`${id} passed`]);
  });
});
