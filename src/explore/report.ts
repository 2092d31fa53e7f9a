// The report of a `tck explore` run: the explore section, no scenarios, nothing graded.
import type { ExploreSection, Report } from '../report/model.js';
import { GRADING_RULES } from '../engine/grading.js';
import { reportEnvelope } from '../report/envelope.js';

/** A report holding only an explore section (no scenarios ran, nothing graded). */
export function exploreReport(section: ExploreSection, target: Report['target'], startedAt: Date, interrupted: boolean): Report {
  const endedAt = new Date();
  const rule = GRADING_RULES.strict;
  return {
    ...reportEnvelope(target, startedAt, endedAt),
    selection: { tier: 'gold' },
    grading: { rule: rule.name, description: rule.description, required: rule.required },
    tiers: [],
    achieved: null,
    requestedTier: 'gold',
    // Nothing checked is no pass (tck explore exits 1 then too).
    success: section.failure === undefined && section.runsDone > 0 && section.operations > 0,
    warnings: [],
    interrupted,
    scenarios: [],
    profiles: [],
    explore: section,
  };
}
