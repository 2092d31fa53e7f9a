// The value dimension of the hosted profile (suites/hosted/values.ts, issue 34). Its faulty variants
// (values-variants.ts) join the hosted power proof (profile-power.test.ts, through
// profile-variants.ts), which also runs these scenarios on the reference and on every valid variant
// of the profile. Here: the readings of values the document leaves open, each a valid variant the
// scenarios must pass (with the advisory noted where the variant refuses a class). The independent
// hosted service is run on them in values-independent.test.ts (deep: it needs python3).
import { describe, expect, it } from 'vitest';
import { runOnHostedVariant } from './profile-harness.js';
import { VALID } from './values-variants.js';
import { scenarios } from '../../suites/hosted/values.js';

const IDS = scenarios.map((s) => s.id);
const unpassed = (results: { id: string; outcome: string; message?: string | undefined }[]) => results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

describe('the hosted value scenarios', () => {
  it('are SCN-H-200 … SCN-H-207, in the resources group', () => {
    expect(IDS).toEqual(['SCN-H-200', 'SCN-H-201', 'SCN-H-202', 'SCN-H-203', 'SCN-H-204', 'SCN-H-205', 'SCN-H-206', 'SCN-H-207']);
    expect(new Set(scenarios.map((s) => s.group))).toEqual(new Set(['resources']));
  });

  it.each(VALID)('all pass when %s (an allowed choice)', async (_choice, variant) => {
    expect(unpassed(await runOnHostedVariant(variant, IDS))).toEqual([]);
  });

  it('a refusal of a class no sentence names is an advisory, and fails under --advisories fail', async () => {
    const nul = VALID.find(([choice]) => choice.includes('NUL'))![1];
    const noted = await runOnHostedVariant(nul, ['SCN-H-200', 'SCN-H-203']);
    expect(unpassed(noted)).toEqual([]);
    const strict = await runOnHostedVariant(nul, ['SCN-H-200', 'SCN-H-203'], { advisories: 'fail' });
    expect(strict.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(strict.map((r) => r.message)).toEqual([
      expect.stringMatching(/^advisory ADV-string-class-accepted \(--advisories=fail\): add_message \(POST \/v1\/conversations\/[\w-]+\/messages\) refused content of class "NUL" "tck-value-\w+-00 before\\u0000after": 400 Bad Request/),
      expect.stringMatching(/^advisory ADV-string-class-accepted \(--advisories=fail\): create_conversation \(POST \/v1\/conversations\) refused the userId of class "NUL" .*: 400 Bad Request/),
    ]);
  });
});
