// The report of a `tck explore` run: the explore section, no scenarios, nothing graded.
import type { ExploreSection, Report } from '../report/model.js';
import { KIT_NAME, KIT_VERSION } from '../util/kit.js';
import { PROTOCOL_VERSION } from '../protocols/bridge/version.js';
import { REPORT_FORMAT_VERSION } from '../report/model.js';
import { GRADING_RULES } from '../engine/grading.js';

/** A report holding only an explore section (no scenarios ran, nothing graded). */
export function exploreReport(section: ExploreSection, target: Report['target'], startedAt: Date, interrupted: boolean): Report {
  const endedAt = new Date();
  const rule = GRADING_RULES.strict;
  return {
    format: 'agent-memory-tck/report',
    formatVersion: REPORT_FORMAT_VERSION,
    kit: { name: KIT_NAME, version: KIT_VERSION, protocol: PROTOCOL_VERSION },
    target,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: endedAt.getTime() - startedAt.getTime(),
    environment: { node: process.version, platform: process.platform, arch: process.arch },
    selection: { tier: 'gold' },
    grading: { rule: rule.name, description: rule.description, required: rule.required },
    tiers: [],
    achieved: null,
    requestedTier: 'gold',
    success: section.failure === undefined,
    warnings: [],
    interrupted,
    scenarios: [],
    profiles: [],
    explore: section,
  };
}
