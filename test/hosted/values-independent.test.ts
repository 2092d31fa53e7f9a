// The independent hosted service (Python, written blind from the documents: test/independent/)
// passes every value scenario of the hosted profile (suites/hosted/values.ts), with no advisory
// noted: its readings (types stored upper-case, 400 for a score out of range, a 1 MiB body limit)
// are among those the scenarios accept. In the deep project: it needs python3 with cryptography.
// (test/independent/gate.test.ts runs the whole hosted profile against it too, through the CLI.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios } from '../../suites/hosted/values.js';
import { runHostedProfile } from '../../src/run/hosted.js';
import { startHosted, type HostedInputs, type Started } from '../independent/harness.js';

const IDS = scenarios.map((s) => s.id);

describe('the independent hosted service (Python, written blind)', () => {
  let hosted: Started<HostedInputs>;
  beforeAll(async () => (hosted = await startHosted()));
  afterAll(async () => hosted?.stop());

  it('passes every value scenario, with no advisory noted', async () => {
    const h = hosted.info;
    const { section } = await runHostedProfile({
      url: h.url, apiKey: h.api_key, workspaceId: h.workspace, otherApiKey: h.other_api_key, idpToken: h.idp_token,
      expiredToken: h.expired_token, expiredIdpToken: h.expired_idp_token, scenarios: IDS, advisories: 'fail',
    });
    expect(section.scenarios.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`)).toEqual([]);
    expect(section.scenarios).toHaveLength(IDS.length);
  }, 60_000);
});
