// Offline re-grading of a certification bundle: the kit's own scenarios are run again through the
// ReplayTransport (so through the same runner, context and checks as a live run), and everything
// the bundle claims is compared with what the replay finds. This proves the verdicts, the tier and
// the suite follow from the recorded evidence; it cannot prove the evidence came from the server
// (whoever edits answers and verdicts consistently makes another valid bundle: re-run to check that).
import { grade } from '../engine/grading.js';
import { runScenarios } from '../profiles/bridge/driver.js';
import { type ScenarioResult } from '../engine/result.js';
import type { Scenario } from '../profiles/bridge/scenario.js';
import { stableJson } from '../report/render/text.js';
import { KIT_VERSION } from '../util/kit.js';
import { notCertifiable, registryTier, type Bundle } from '../report/bundle.js';
import { suiteHash } from './hash.js';
import { ReplayTransport, withReplayClock } from './replay.js';
import { advisoryHits, securityRecord } from '../report/advisories.js';

interface Verification {
  ok: boolean;
  /** What does not match, most telling first; empty when verified. */
  problems: string[];
  /** How many scenarios were replayed. */
  replayed: number;
}

interface VerifyOptions {
  /** The scenarios to replay into (default: every bridge scenario of the kit). */
  suite?: readonly Scenario[];
  /** The hash the suites must have (default: suiteHash() of this kit). */
  hash?: string;
}

export async function verifyBundle(bundle: Bundle, options: VerifyOptions = {}): Promise<Verification> {
  // A certification runs every tier, the optional Platinum included (bundles of kits before it: up to Gold).
  const report = bundle.report;
  const all = (await import('../../suites/index.js')).ALL_SCENARIOS;
  const suite = options.suite ?? (report.selection.tier === 'platinum' ? all : all.filter((s) => s.tier !== 'platinum'));
  const problems: string[] = [];
  const done = (replayed = 0): Verification => ({ ok: problems.length === 0, problems, replayed });

  if (bundle.kit.version !== KIT_VERSION) problems.push(`the bundle was made by ${bundle.kit.name} ${bundle.kit.version}; this is ${KIT_VERSION} (verify with the same version)`);
  const hash = options.hash ?? suiteHash();
  if (bundle.suiteHash !== hash) problems.push(`suite hash: the bundle says ${bundle.suiteHash}, this kit's suites hash to ${hash}`);
  if (bundle.security !== undefined && JSON.stringify(bundle.security) !== JSON.stringify(securityRecord(report))) {
    problems.push('the bundle\'s security record does not match its report (SECURITY advisories that did not hold, and those not checked)');
  }
  if (bundle.advisories?.mode === 'fail') problems.push('the bundle fails advisories: a certification reports them beside the tier and never fails them');
  const sel = report.selection;
  if ((sel.tier !== 'gold' && sel.tier !== 'platinum') || sel.grep !== undefined || sel.scenarios !== undefined || sel.skip !== undefined || report.hosted !== undefined) {
    problems.push('the report is not of a full run (a selection, or the hosted profile, was given)');
  }
  // The rule certify writes by: a bundle of a run that reached no tier, or ran nothing, certifies nothing.
  const nothing = notCertifiable(report);
  if (nothing !== undefined) problems.push(nothing);
  const entry = bundle.certification;
  if (entry !== undefined) {
    const claims: [string, unknown, unknown][] = [
      ['tier', entry.tier, report.achieved === null ? null : registryTier(report.achieved)],
      ['name', entry.name, bundle.implementation.name],
      ['version', entry.version, bundle.implementation.version],
      ['language', entry.language, bundle.implementation.language],
      ['repository', entry.repository, bundle.implementation.repository],
      ['tck_version', entry.tck_version, bundle.kit.version],
    ];
    for (const [field, said, is] of claims) if (said !== is) problems.push(`registry entry: ${field} ${JSON.stringify(said)}, the bundle's report and implementation say ${JSON.stringify(is)}`);
  } else if (report.achieved !== null) {
    problems.push(`the report reaches ${report.achieved} but the bundle has no registry entry`);
  }

  const recorded = new Map<string, ScenarioResult>();
  for (const r of report.scenarios) {
    if (recorded.has(r.id)) problems.push(`${r.id} appears twice in the bundle`);
    recorded.set(r.id, r);
  }
  const known = new Set(suite.map((s) => s.id));
  for (const s of suite) if (!recorded.has(s.id)) problems.push(`${s.id} is missing from the bundle (the full suite has ${suite.length} scenarios, the bundle ${report.scenarios.length})`);
  for (const id of recorded.keys()) if (!known.has(id)) problems.push(`${id} in the bundle is not a scenario of this kit`);
  if (problems.length > 0) return done();

  // Replay: each scenario answered from its own recorded exchanges.
  const replay = new ReplayTransport(report.target.url, { setup: bundle.setup, teardown: bundle.teardown }, report.startedAt);
  const summary = await withReplayClock(replay, () =>
    runScenarios(replay, suite, {
      onStart: (s) => replay.begin(s.id, recorded.get(s.id)!.exchanges),
      onResult: () => replay.end(),
    }),
  );
  problems.push(...replay.mismatches);
  for (const r of summary.results) {
    const claimed = recorded.get(r.id)!;
    if (claimed.outcome !== r.outcome) {
      problems.push(`${r.id}: the bundle says ${claimed.outcome}, its exchanges replay to ${r.outcome}${r.message ? ` (${r.message.split('\n')[0]})` : ''}`);
    }
  }
  // The advisories the bundle claims did not hold are those the replay finds (ids and scenarios).
  if (bundle.advisories !== undefined) {
    const key = (h: { id: string; scenario: string }) => `${h.scenario} ${h.id}`;
    const claimed = bundle.advisories.failed.map(key).sort().join(', ');
    const found = advisoryHits(summary.results).map(key).sort().join(', ');
    if (claimed !== found) problems.push(`advisories: the bundle says ${claimed || 'none'} did not hold, the replay finds ${found || 'none'}`);
  }
  const g = grade(summary.results, report.grading.rule);
  if (g.achieved !== report.achieved) problems.push(`tier: the bundle says ${report.achieved ?? 'none'}, the replay reaches ${g.achieved ?? 'none'}`);
  else if (stableJson(g.tiers) !== stableJson(report.tiers)) problems.push('tier counts: the report\'s tier summaries do not match the replayed verdicts');
  return done(summary.results.length);
}
