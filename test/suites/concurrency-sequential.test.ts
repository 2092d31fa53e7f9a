// The other half of the concurrency proof (concurrency.test.ts): every racing server of
// variants/concurrency.ts passes every sequential scenario of Bronze to Gold, so only a concurrent
// scenario catches it, and every valid concurrent server passes every scenario, concurrent ones
// included (it reaches Gold). A full run per server: in the deep project (vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { runOnVariant, type VariantOptions } from '../harness/variants.js';
import { FAULTS, VALID } from './variants/concurrency.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { bulkFromStaleConversation, refreshCheckedThenSpent, runOnHostedVariant } from '../hosted/profile-harness.js';

const BRONZE_TO_GOLD = ALL_SCENARIOS.filter((s) => s.tier !== 'platinum');
const SEQUENTIAL = BRONZE_TO_GOLD.filter((s) => s.group !== 'concurrency').map((s) => s.id);
const unpassed = (results: { id: string; outcome: string; message?: string | undefined }[]) =>
  results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`);

/** Each racing server once (a server may be in the table for more than one scenario). */
const RACES = [...new Map(FAULTS.map(([id, fault, variant]) => [variant, `${fault} (caught by ${id})`])).entries()].map(([variant, name]) => [name, variant] as const);

describe('no sequential scenario catches a race', () => {
  it.each(RACES)('every sequential scenario passes when %s', async (_name, variant) => {
    const results = await runOnVariant(variant as VariantOptions, SEQUENTIAL);
    expect(unpassed(results)).toEqual([]);
    expect(results).toHaveLength(SEQUENTIAL.length);
  }, 300_000);
});

describe('a valid concurrent server reaches Gold', () => {
  it.each(VALID)('every scenario passes when %s', async (_choice, variant) => {
    const results = await runOnVariant(variant as VariantOptions, BRONZE_TO_GOLD.map((s) => s.id));
    expect(unpassed(results)).toEqual([]);
  }, 300_000);
});

/** The hosted scenarios that send requests at once (SCN-H-059, SCN-H-063), and the racing services each catches. */
const HOSTED_CONCURRENT = ['SCN-H-059', 'SCN-H-063'];
describe('no sequential hosted scenario catches a racing hosted service', () => {
  const sequential = HOSTED_SCENARIOS.map((s) => s.id).filter((id) => !HOSTED_CONCURRENT.includes(id));
  it.each([
    ['the refresh checks its token, awaits, then spends it', refreshCheckedThenSpent()],
    ['a bulk add writes back the conversation it read before an await', bulkFromStaleConversation()],
  ] as const)('every other hosted scenario passes when %s', async (_name, variant) => {
    const results = await runOnHostedVariant(variant, sequential);
    expect(unpassed(results)).toEqual([]);
  }, 300_000);
});
