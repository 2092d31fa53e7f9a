// The advisories of a run, summed up for every format: which did not hold, where, and why each is
// the kit's own reading and not a rule. A scenario carries those that did not hold as notes (run
// "report"), or failed on the first one (run "fail": its failure cites the advisory alone).
import type { AdvisoryMode } from '../engine/result.js';
import { ADVISORIES, advisoryOf } from '../protocols/clauses/index.js';
import type { Bundle } from './bundle.js';
import type { AdvisorySummary, AnyReportScenario, Report } from './model.js';

/** One advisory that did not hold, in one scenario. */
interface AdvisoryHit {
  id: string;
  scenario: string;
  message: string;
}

/** The advisory a failed scenario failed on (run "fail"): its failure cites that advisory alone. */
export function failedAdvisory(s: Pick<AnyReportScenario, 'outcome' | 'cites'>): string | undefined {
  const only = s.outcome === 'failed' && s.cites?.length === 1 ? s.cites[0]! : undefined;
  return only !== undefined && advisoryOf(only) !== undefined ? only : undefined;
}

/** Every advisory that did not hold, scenario by scenario, in order. */
export function advisoryHits(scenarios: readonly AnyReportScenario[]): AdvisoryHit[] {
  return scenarios.flatMap((s) => {
    const failed = failedAdvisory(s);
    return [
      ...(s.advisories ?? []).map((n) => ({ id: n.id, scenario: s.id, message: n.message })),
      ...(failed !== undefined ? [{ id: failed, scenario: s.id, message: s.message ?? failed }] : []),
    ];
  });
}

/** The run-level summary of the advisories of these scenarios. */
export function advisorySummary(scenarios: readonly AnyReportScenario[], mode: AdvisoryMode): AdvisorySummary {
  const hits = advisoryHits(scenarios);
  const ids = [...new Set(hits.map((h) => h.id))].sort();
  return {
    mode,
    checked: scenarios.reduce((n, s) => n + (s.advisoryChecks ?? 0), 0),
    failed: hits.length,
    // The SECURITY advisories first (docs/isolation.md), then the others, each by id.
    byId: [...ids.filter((id) => advisoryOf(id)?.security), ...ids.filter((id) => !advisoryOf(id)?.security)].map((id) => {
      const a = advisoryOf(id);
      const mine = hits.filter((h) => h.id === id);
      return {
        id,
        ...(a?.security ? { security: true as const } : {}),
        expects: a?.expects ?? '(not an advisory of this kit)',
        reason: a?.reason ?? '(not an advisory of this kit)',
        failed: mine.length,
        scenarios: mine.map((h) => ({ id: h.scenario, message: h.message })),
      };
    }),
  };
}

/** A report's advisories: its own summary, or (a report written before there was one) the summary of its scenarios. */
export function advisoriesOf(report: Pick<Report, 'advisories' | 'scenarios' | 'hosted'>): AdvisorySummary {
  return report.advisories ?? advisorySummary([...report.scenarios, ...(report.hosted?.scenarios ?? [])], 'report');
}

/** The SECURITY advisories that did not hold, by id (empty when none did not hold). */
export function securityFindings(a: AdvisorySummary): NonNullable<Report['security']> {
  // advisoryOf too: a report written before the summary marked them.
  return a.byId.filter((b) => b.security === true || advisoryOf(b.id)?.security === true).map(({ id, expects, failed, scenarios }) => ({ id, expects, failed, scenarios }));
}

/** One line naming the security findings of a run, for the top of every format; undefined when there are none. */
export function securityHeadline(a: AdvisorySummary): string | undefined {
  const found = securityFindings(a);
  if (found.length === 0) return undefined;
  const n = found.reduce((k, f) => k + f.failed, 0);
  return `SECURITY: ${n} finding${n === 1 ? '' : 's'} (${found.map((f) => f.id).join(', ')} did not hold): expected ${found.map((f) => f.expects.split(':')[0]).join('; ')}. An advisory (no sentence of the document states it), never counted as a failure; see docs/isolation.md`;
}

/**
 * The SECURITY advisories of a certification: those that did not hold, and those no scenario of the
 * run checked (a certification is a bridge run; the bridge has no credentials, so workspace
 * isolation is checked by `tck run --hosted URL`, docs/isolation.md).
 */
export function securityRecord(report: Pick<Report, 'scenarios'>): NonNullable<Bundle['security']> {
  const security = ADVISORIES.filter((a) => a.security);
  const findings = advisoryHits(report.scenarios).filter((h) => security.some((a) => a.id === h.id)).map(({ id, scenario, message }) => ({ id, scenario, message }));
  return {
    findings,
    notChecked: security.map((a) => ({
      id: a.id,
      why: 'a certification runs the bridge protocol, which has no credentials and no workspaces; the hosted profile checks it: tck run --hosted URL with --other-api-key (docs/isolation.md)',
    })),
  };
}
