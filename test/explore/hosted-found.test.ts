// `tck explore --hosted`, the deep part: what seeds 1–3 find of the faults of hosted-faults.ts at
// the default budget (each fault's sequences, requests and seconds until found are printed), and
// that the same seeds find nothing against the hosted reference service and against the
// independent hosted service (written blind, correct): any finding there is a false alarm.
import { describe, expect, it } from 'vitest';
import { EXPLORE_DEFAULTS } from '../../src/explore/defaults.js';
import { exploreHosted, type HostedExploreResult } from '../../src/explore/hosted.js';
import { startHosted } from '../independent/harness.js';
import { startHostedVariant } from '../hosted/profile-harness.js';
import { HOSTED_FAULTS } from './hosted-faults.js';
import { HOSTED_EXPLORE_VALID } from './hosted-valid.js';
import { VALID } from '../hosted/profile-variants.js';

const SEEDS = [1, 2, 3];
/** Sequences for the correct services: a finding on either would be a false alarm. */
const CLEAN_RUNS = 300;

const explore = (baseUrl: string, apiKey: string, seed: number, extra: Partial<Parameters<typeof exploreHosted>[0]> = {}): Promise<HostedExploreResult> =>
  exploreHosted({ baseUrl, apiKey, seed, runs: EXPLORE_DEFAULTS.runs, maxSteps: EXPLORE_DEFAULTS.maxSteps, timeBudgetMs: EXPLORE_DEFAULTS.timeBudgetMs, ...extra });

describe('tck explore --hosted: seeds 1–3 against the faults', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed} finds most of the ${HOSTED_FAULTS.length} faults`, async () => {
      const found: string[] = [];
      const lines: string[] = [];
      for (const f of HOSTED_FAULTS) {
        const v = await startHostedVariant(f.variant());
        try {
          const r = await explore(v.server.baseUrl, v.server.apiKey, seed, { stopWhen: (x) => f.finds.test(x.message) });
          const hit = r.findings.find((x) => f.finds.test(x.message));
          if (hit !== undefined) found.push(f.name);
          lines.push(`  ${hit ? 'found' : 'MISSED'}  ${f.name}: ${hit ? `sequence ${hit.sequenceIndex + 1}, shrunk ${hit.shrunkFrom} -> ${hit.sequence.length} operations, ` : ''}${r.sequences} sequences, ${r.requests} requests (${Math.round(r.requests / Math.max(1, r.sequences))} a sequence), ${(r.durationMs / 1000).toFixed(1)} s`);
        } finally {
          await v.close();
        }
      }
      console.log(`seed ${seed}: ${found.length}/${HOSTED_FAULTS.length} faults found\n${lines.join('\n')}`);
      expect(found.length, lines.join('\n')).toBeGreaterThanOrEqual(HOSTED_FAULTS.length - 1);
    }, 20 * 60_000);
  }
});

describe('tck explore --hosted: nothing found where nothing is wrong', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: the hosted reference service`, async () => {
      const v = await startHostedVariant();
      try {
        const r = await explore(v.server.baseUrl, v.server.apiKey, seed, { runs: CLEAN_RUNS });
        console.log(`reference, seed ${seed}: ${r.sequences} sequences, ${r.requests} requests, ${(r.durationMs / 1000).toFixed(1)} s, ${r.findings.length} findings`);
        expect(r.findings.map((f) => f.message)).toEqual([]);
        expect(r.sequences).toBeGreaterThan(20);
      } finally {
        await v.close();
      }
    }, 5 * 60_000);

    it(`seed ${seed}: the independent hosted service`, async () => {
      const h = await startHosted();
      try {
        const r = await explore(`${h.info.url}/v1`, h.info.api_key, seed, { runs: CLEAN_RUNS });
        console.log(`independent, seed ${seed}: ${r.sequences} sequences, ${r.requests} requests, ${(r.durationMs / 1000).toFixed(1)} s, ${r.findings.length} findings`);
        expect(r.findings.map((f) => f.message)).toEqual([]);
        expect(r.sequences).toBeGreaterThan(20);
      } finally {
        await h.stop();
      }
    }, 5 * 60_000);
  }
});

describe('tck explore --hosted: nothing found against the valid variants', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: every valid variant of explore's own readings`, async () => {
      const found: string[] = [];
      for (const [name, variant] of HOSTED_EXPLORE_VALID) {
        const v = await startHostedVariant(variant());
        try {
          const r = await explore(v.server.baseUrl, v.server.apiKey, seed, { runs: 50 });
          found.push(...r.findings.map((f) => `${name}: ${f.message}`));
        } finally {
          await v.close();
        }
      }
      expect(found).toEqual([]);
    }, 15 * 60_000);
  }

  it("seed 1: every valid variant of the hosted profile's readings (test/hosted/profile-variants.ts)", async () => {
    const found: string[] = [];
    for (const [name, variant] of VALID) {
      const v = await startHostedVariant(variant);
      try {
        const r = await explore(v.server.baseUrl, v.server.apiKey, 1, { runs: 15 });
        found.push(...r.findings.map((f) => `${name}: ${f.message}`));
      } finally {
        await v.close();
      }
    }
    expect(found).toEqual([]);
  }, 20 * 60_000);
});
