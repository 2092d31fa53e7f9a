// The histories and limits of the hosted profile (suites/hosted/histories.ts, issue 34): each
// scenario passes on the reference service and on the valid variants of histories-variants.ts
// (other readings of what the document leaves open), and fails on each faulty variant with a
// message naming what is wrong. The whole hosted profile's proof (profile-power.test.ts) runs these
// scenarios against every other valid hosted variant too.
import { describe, expect, it } from 'vitest';
import { scenarios } from '../../suites/hosted/histories.js';
import { HISTORY_FAULTS, HISTORY_VALID } from './histories-variants.js';
import { runOnHostedVariant } from './profile-harness.js';
import { runHostedProfile } from '../../src/run/hosted.js';
import { startHosted } from '../independent/harness.js';

const IDS = scenarios.map((s) => s.id);
const unpassed = (results: { id: string; outcome: string; message?: string | undefined }[]) => results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

describe('hosted histories and limits', () => {
  it('every histories scenario passes on the reference service, with no advisory noted', async () => {
    const results = await runOnHostedVariant(undefined, IDS, { advisories: 'fail' });
    expect(unpassed(results)).toEqual([]);
    expect(results).toHaveLength(IDS.length);
  });

  it.each(HISTORY_VALID)('every histories scenario passes when %s (an allowed reading)', async (_choice, variant) => {
    expect(unpassed(await runOnHostedVariant(variant, IDS))).toEqual([]);
  });

  it('every histories scenario has a fault it catches', () => {
    expect(IDS.filter((id) => !HISTORY_FAULTS.some((f) => f[0] === id))).toEqual([]);
  });

  it.each(HISTORY_FAULTS)('%s fails when %s', async (id, _fault, variant, message) => {
    const [r] = await runOnHostedVariant(variant, [id]);
    expect({ outcome: r!.outcome, message: r!.message }).toMatchObject({ outcome: 'failed', message: expect.stringMatching(message) });
  });

  it('the independent hosted service (written blind) passes every histories scenario, with no advisory noted', async () => {
    const h = await startHosted();
    try {
      const { section } = await runHostedProfile({
        url: h.info.url, apiKey: h.info.api_key, workspaceId: h.info.workspace, otherApiKey: h.info.other_api_key, idpToken: h.info.idp_token,
        expiredToken: h.info.expired_token, expiredIdpToken: h.info.expired_idp_token, scenarios: IDS, advisories: 'fail', requestTimeoutMs: 10_000, scenarioTimeoutMs: 30_000,
      });
      expect(unpassed(section.scenarios)).toEqual([]);
      // No note: every conditional check was judged (its relationships, mentions and searches show).
      expect(section.scenarios.filter((r) => (r.notes ?? []).length > 0).map((r) => [r.id, r.notes])).toEqual([]);
    } finally {
      await h.stop();
    }
  }, 60_000);
});
