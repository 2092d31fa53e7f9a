// `tck diff old.json new.json`: what changed between two runs, scenario by scenario. Two runs that
// selected differently (a full run against a --scenario run) are compared on what both selected
// only: the rest did not vanish, it was not asked for, and no tier is compared (a selection reaches
// none).
import { TIER_RANK } from '../engine/grading.js';
import { isFailing, type Report, type ScenarioOutcome as Outcome } from './model.js';

interface Change {
  id: string;
  title: string;
  from: Outcome;
  to: Outcome;
  /** The new run's message (for a regression: why it fails now). */
  message?: string;
}

interface Presence {
  id: string;
  title: string;
  outcome: Outcome;
}

interface ReportDiff {
  /** 'not-compared': the runs selected differently, so their tiers say nothing about each other. */
  tier: { from: string | null; to: string | null; direction: 'up' | 'down' | 'same' | 'not-compared' };
  /**
   * Present when the runs selected differently: only the scenarios both ran are compared; how many
   * each had besides, and each selection in words.
   */
  scope?: { common: number; onlyBefore: number; onlyAfter: number; before: string; after: string };
  /** Passed before, failed or errored now. */
  regressed: Change[];
  /** Failed or errored before, passed now. */
  fixed: Change[];
  /** Only in the new run. */
  appeared: Presence[];
  /** Only in the old run. */
  vanished: Presence[];
  /** Any other change of outcome (failed → error, passed → skipped, …). */
  changed: Change[];
}

const rank = (tier: string | null) => (tier === null ? 0 : TIER_RANK[tier as keyof typeof TIER_RANK]);

/** A run's selection in words: "gold, every scenario", "gold, --scenario SCN-B-001". */
function selectionWords(r: Pick<Report, 'selection' | 'requestedTier'>): string {
  const s = r.selection;
  const parts = [
    ...(s?.grep !== undefined ? [`--grep ${JSON.stringify(s.grep)}`] : []),
    ...(s?.scenarios?.length ? [s.rerun ? `--only-failed ${s.rerun.from} (${s.scenarios.length})` : `--scenario ${s.scenarios.length <= 3 ? s.scenarios.join(' ') : `(${s.scenarios.length} scenarios)`}`] : []),
    ...(s?.skip?.length ? [`--skip ${s.skip.join(' ')}`] : []),
  ];
  return `${r.requestedTier ?? s?.tier ?? 'gold'}${parts.length ? `, ${parts.join(', ')}` : ', every scenario'}`;
}

const selectionKey = (r: Pick<Report, 'selection' | 'requestedTier'>) =>
  JSON.stringify([r.requestedTier ?? r.selection?.tier, r.selection?.grep, [...(r.selection?.scenarios ?? [])].sort(), [...(r.selection?.skip ?? [])].sort()]);

export function diffReports(before: Report, after: Report): ReportDiff {
  const sameSelection = before.selection === undefined || after.selection === undefined || selectionKey(before) === selectionKey(after);
  const oldAll = new Map(before.scenarios.map((s) => [s.id, s]));
  const nowAll = new Map(after.scenarios.map((s) => [s.id, s]));
  // Selected differently: only what both ran is compared.
  const both = (s: { id: string }, other: Map<string, unknown>) => sameSelection || other.has(s.id);
  const beforeScenarios = before.scenarios.filter((s) => both(s, nowAll));
  const afterScenarios = after.scenarios.filter((s) => both(s, oldAll));
  const old = new Map(beforeScenarios.map((s) => [s.id, s]));
  const now = new Map(afterScenarios.map((s) => [s.id, s]));
  const d: ReportDiff = {
    tier: {
      from: before.achieved,
      to: after.achieved,
      direction: !sameSelection ? 'not-compared' : rank(after.achieved) > rank(before.achieved) ? 'up' : rank(after.achieved) < rank(before.achieved) ? 'down' : 'same',
    },
    ...(sameSelection
      ? {}
      : {
          scope: {
            common: afterScenarios.length,
            onlyBefore: before.scenarios.length - beforeScenarios.length,
            onlyAfter: after.scenarios.length - afterScenarios.length,
            before: selectionWords(before),
            after: selectionWords(after),
          },
        }),
    regressed: [],
    fixed: [],
    appeared: [],
    vanished: [],
    changed: [],
  };
  for (const s of afterScenarios) {
    const o = old.get(s.id);
    if (!o) {
      d.appeared.push({ id: s.id, title: s.title, outcome: s.outcome });
      continue;
    }
    if (o.outcome === s.outcome) continue;
    const change: Change = { id: s.id, title: s.title, from: o.outcome, to: s.outcome, ...(s.message ? { message: s.message } : {}) };
    if (o.outcome === 'passed' && isFailing(s.outcome)) d.regressed.push(change);
    else if (isFailing(o.outcome) && s.outcome === 'passed') d.fixed.push(change);
    else d.changed.push(change);
  }
  for (const s of beforeScenarios) if (!now.has(s.id)) d.vanished.push({ id: s.id, title: s.title, outcome: s.outcome });
  return d;
}

/** Any scenario regressed, or the achieved tier went down. */
export const isRegression = (d: ReportDiff): boolean => d.regressed.length > 0 || d.tier.direction === 'down';

export function renderDiff(d: ReportDiff): string {
  const name = (t: string | null) => (t ? t.toUpperCase() : 'NONE');
  const lines = d.scope
    ? [
        `compared: the ${d.scope.common} scenario${d.scope.common === 1 ? '' : 's'} both runs selected (old: ${d.scope.before}; new: ${d.scope.after})`,
        `not compared: ${d.scope.onlyBefore} only in the old run's selection, ${d.scope.onlyAfter} only in the new one's`,
        `tier: not compared (old ${name(d.tier.from)}, new ${name(d.tier.to)}): the runs selected differently`,
      ]
    : [`tier: ${name(d.tier.from)} → ${name(d.tier.to)}${d.tier.direction === 'same' ? ' (unchanged)' : d.tier.direction === 'up' ? ' (up)' : ' (DOWN)'}`];
  const section = <T>(title: string, items: T[], line: (x: T) => string) => {
    lines.push('', `${title} (${items.length})${items.length ? ':' : ''}`);
    for (const x of items) lines.push(`  ${line(x)}`);
  };
  const firstLine = (m?: string) => (m ? ` — ${m.split('\n')[0]}` : '');
  section('regressed', d.regressed, (c) => `${c.id} ${c.title}: ${c.from} → ${c.to}${firstLine(c.message)}`);
  section('fixed', d.fixed, (c) => `${c.id} ${c.title}: ${c.from} → ${c.to}`);
  section('appeared', d.appeared, (p) => `${p.id} ${p.title}: ${p.outcome}`);
  section('vanished', d.vanished, (p) => `${p.id} ${p.title}: was ${p.outcome}`);
  section('other changes', d.changed, (c) => `${c.id} ${c.title}: ${c.from} → ${c.to}`);
  lines.push('', isRegression(d) ? `verdict: REGRESSED (${d.regressed.length} scenario${d.regressed.length === 1 ? '' : 's'}${d.tier.direction === 'down' ? ', the tier went down' : ''})` : `verdict: no regression${d.scope ? ` among the ${d.scope.common} scenario${d.scope.common === 1 ? '' : 's'} both runs selected` : ''}`);
  return `${lines.join('\n')}\n`;
}
