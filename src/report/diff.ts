// `tck diff old.json new.json`: what changed between two runs, scenario by scenario.
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
  tier: { from: string | null; to: string | null; direction: 'up' | 'down' | 'same' };
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

export function diffReports(before: Report, after: Report): ReportDiff {
  const old = new Map(before.scenarios.map((s) => [s.id, s]));
  const now = new Map(after.scenarios.map((s) => [s.id, s]));
  const d: ReportDiff = {
    tier: {
      from: before.achieved,
      to: after.achieved,
      direction: rank(after.achieved) > rank(before.achieved) ? 'up' : rank(after.achieved) < rank(before.achieved) ? 'down' : 'same',
    },
    regressed: [],
    fixed: [],
    appeared: [],
    vanished: [],
    changed: [],
  };
  for (const s of after.scenarios) {
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
  for (const s of before.scenarios) if (!now.has(s.id)) d.vanished.push({ id: s.id, title: s.title, outcome: s.outcome });
  return d;
}

/** Any scenario regressed, or the achieved tier went down. */
export const isRegression = (d: ReportDiff): boolean => d.regressed.length > 0 || d.tier.direction === 'down';

export function renderDiff(d: ReportDiff): string {
  const name = (t: string | null) => (t ? t.toUpperCase() : 'NONE');
  const lines = [`tier: ${name(d.tier.from)} → ${name(d.tier.to)}${d.tier.direction === 'same' ? ' (unchanged)' : d.tier.direction === 'up' ? ' (up)' : ' (DOWN)'}`];
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
  return `${lines.join('\n')}\n`;
}
