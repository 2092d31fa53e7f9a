// Grading, shown in every report as data. One grader serves every profile: a ladder of levels
// (the bridge tiers, reached in order; the hosted groups, each on its own) and the share of each
// level's scenarios that must pass. Not run never reads as passed.
import type { LevelCounts, Outcome, TierSummary } from './result.js';
import { TIERS, type ScenarioTier } from './scenario.js';

export type GradingRuleName = 'strict' | 'established';

interface GradingRule {
  name: GradingRuleName;
  description: string;
  /** Share of a tier's scenarios that must pass, per tier. */
  required: Record<ScenarioTier, number>;
}

export const GRADING_RULES: Record<GradingRuleName, GradingRule> = {
  strict: {
    name: 'strict',
    description:
      'A tier is reached when it and every lower tier ran and passed every scenario. Failed, errored, skipped and not-run scenarios count against their tier. Platinum (opt-in) is the same: every Platinum scenario ran and passed.',
    required: { bronze: 1, silver: 1, gold: 1, platinum: 1 },
  },
  established: {
    name: 'established',
    description:
      "The established TCK's rule: Bronze and Silver need every scenario passing, Gold needs Silver and at least 80 % of Gold passing, Platinum needs Gold and every Platinum scenario passing (its documented 100 % bar). Skipped and not-run scenarios count as not passing, and a tier none of whose scenarios ran is not reached.",
    required: { bronze: 1, silver: 1, gold: 0.8, platinum: 1 },
  },
};

/** Levels to grade: their order, the share each needs, and whether each needs the ones below. */
interface Ladder<L extends string> {
  levels: readonly L[];
  required: Record<L, number>;
  /** Tiers are cumulative (a tier needs every lower one); groups are not. */
  cumulative: boolean;
}

interface LadderGrade<L extends string> {
  levels: (LevelCounts & { level: L })[];
  /** Cumulative ladders: the highest level reached with every lower one; null when none. */
  achieved: L | null;
  /** Every level that has scenarios passes (and at least one has). */
  passed: boolean;
  /**
   * Not passed, yet nothing failed: every level that has scenarios passes or is incomplete, and at
   * least one is incomplete. The flags that would complete the run; undefined otherwise.
   */
  incomplete?: string[];
}

const COUNT_KEY: Record<Outcome, 'passed' | 'failed' | 'error' | 'skipped' | 'notRun'> = {
  passed: 'passed',
  failed: 'failed',
  error: 'error',
  skipped: 'skipped',
  'not-run': 'notRun',
};

/**
 * The one grader: counts each level's outcomes and applies the ladder's rule. `population`: how
 * many scenarios each level has in full; a level of which fewer are in `results` (a narrowed
 * selection) never passes, whatever those that ran did.
 */
export function gradeLadder<L extends string>(
  results: readonly { outcome: Outcome; needs?: string | undefined }[],
  levelOf: (r: never) => L,
  ladder: Ladder<L>,
  population?: Partial<Record<L, number>>,
): LadderGrade<L> {
  const levels = ladder.levels.map((level) => {
    const counts: LevelCounts & { level: L } = { level, total: 0, passed: 0, failed: 0, error: 0, skipped: 0, notRun: 0, passes: false };
    /** The inputs the level's scenarios skipped for lack of (one per such scenario). */
    const lacking: string[] = [];
    for (const r of results) {
      if ((levelOf as (r: unknown) => L)(r) !== level) continue;
      counts.total++;
      counts[COUNT_KEY[r.outcome]]++;
      if (r.outcome === 'skipped' && r.needs !== undefined) lacking.push(r.needs);
    }
    // A level none of whose scenarios ran is never reached (ran = passed, failed or errored).
    const ran = counts.passed + counts.failed + counts.error;
    const full = population?.[level];
    if (full !== undefined && full > counts.total) counts.inLevel = full;
    counts.passes = ran > 0 && counts.inLevel === undefined && counts.passed >= ladder.required[level] * counts.total;
    // Incomplete, not failed: every scenario passed but those skipped for an input the run lacked.
    if (!counts.passes && counts.inLevel === undefined && lacking.length > 0 && counts.passed + lacking.length === counts.total) {
      counts.incomplete = [...new Set(lacking)];
    }
    return counts;
  });
  let achieved: L | null = null;
  if (ladder.cumulative) {
    for (const l of levels) {
      if (!l.passes) break;
      achieved = l.level;
    }
  }
  const present = levels.filter((l) => l.total > 0);
  const passed = present.length > 0 && present.every((l) => l.passes);
  const incomplete = !passed && present.length > 0 && present.every((l) => l.passes || l.incomplete !== undefined) ? [...new Set(present.flatMap((l) => l.incomplete ?? []))] : undefined;
  return { levels, achieved, passed, ...(incomplete !== undefined ? { incomplete } : {}) };
}

export interface Grade {
  rule: GradingRule;
  tiers: TierSummary[];
  /** Highest tier reached with every lower tier also reached; null when none. */
  achieved: ScenarioTier | null;
}

/** The bridge tiers under a grading rule (`population`: each tier's scenarios in full, see gradeLadder). */
export function grade(results: readonly { outcome: Outcome; tier: ScenarioTier }[], ruleName: GradingRuleName = 'strict', population?: Partial<Record<ScenarioTier, number>>): Grade {
  const rule = GRADING_RULES[ruleName];
  const g = gradeLadder(results, (r: { tier: ScenarioTier }) => r.tier, { levels: TIERS, required: rule.required, cumulative: true }, population);
  return { rule, tiers: g.levels.map(({ level, ...counts }) => ({ tier: level, ...counts })), achieved: g.achieved };
}

export const TIER_RANK: Record<ScenarioTier, number> = Object.fromEntries(TIERS.map((t, i) => [t, i + 1])) as Record<ScenarioTier, number>;

export function reaches(achieved: ScenarioTier | null, wanted: ScenarioTier): boolean {
  return achieved !== null && TIER_RANK[achieved] >= TIER_RANK[wanted];
}
