// Grading rules, shown in every report as data. Not run never reads as passed.
import type { Outcome, ScenarioResult } from './result.js';
import { TIERS, type ScenarioTier } from './scenario.js';

export type GradingRuleName = 'strict' | 'established';

export interface GradingRule {
  name: GradingRuleName;
  description: string;
  /** Share of a tier's scenarios that must pass, per tier. */
  required: Record<ScenarioTier, number>;
}

export const GRADING_RULES: Record<GradingRuleName, GradingRule> = {
  strict: {
    name: 'strict',
    description:
      'A tier is reached when it and every lower tier ran and passed every scenario. Failed, errored, skipped and not-run scenarios count against their tier.',
    required: { bronze: 1, silver: 1, gold: 1 },
  },
  established: {
    name: 'established',
    description:
      "The established TCK's rule: Bronze and Silver need every scenario passing, Gold needs Silver and at least 80 % of Gold passing. Skipped and not-run scenarios count as not passing, and a tier none of whose scenarios ran is not reached.",
    required: { bronze: 1, silver: 1, gold: 0.8 },
  },
};

export interface TierSummary {
  tier: ScenarioTier;
  total: number;
  passed: number;
  failed: number;
  error: number;
  skipped: number;
  notRun: number;
  /** This tier's own requirement holds (regardless of lower tiers). */
  passes: boolean;
}

export interface Grade {
  rule: GradingRule;
  tiers: TierSummary[];
  /** Highest tier reached with every lower tier also reached; null when none. */
  achieved: ScenarioTier | null;
}

const COUNT_KEY: Record<Outcome, keyof Omit<TierSummary, 'tier' | 'total' | 'passes'>> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  skipped: 'skipped',
  'not-run': 'notRun',
};

export function grade(results: readonly ScenarioResult[], ruleName: GradingRuleName = 'strict'): Grade {
  const rule = GRADING_RULES[ruleName];
  const tiers = TIERS.map((tier): TierSummary => {
    const summary: TierSummary = { tier, total: 0, passed: 0, failed: 0, error: 0, skipped: 0, notRun: 0, passes: false };
    for (const r of results) {
      if (r.tier !== tier) continue;
      summary.total++;
      summary[COUNT_KEY[r.outcome]]++;
    }
    // A tier none of whose scenarios ran is never reached (ran = passed, failed or errored).
    const ran = summary.passed + summary.failed + summary.error;
    summary.passes = ran > 0 && summary.passed >= rule.required[tier] * summary.total;
    return summary;
  });
  let achieved: ScenarioTier | null = null;
  for (const t of tiers) {
    if (!t.passes) break;
    achieved = t.tier;
  }
  return { rule, tiers, achieved };
}

export const TIER_RANK: Record<ScenarioTier, number> = { bronze: 1, silver: 2, gold: 3 };

export function reaches(achieved: ScenarioTier | null, wanted: ScenarioTier): boolean {
  return achieved !== null && TIER_RANK[achieved] >= TIER_RANK[wanted];
}
