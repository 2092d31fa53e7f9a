// The comparison of implementations: reports or certification bundles read into one matrix of
// scenarios (bridge suites, grouped by tier and group) × implementations, the scenarios whose
// verdicts differ first. Every renderer (render.ts) draws this one model.
import { basename } from 'node:path';
import { BUNDLE_FORMAT, parseBundle } from './bundle.js';
import { ReportFileError, firstIssue, readJsonFile } from './load.js';
import { ReportSchema, type Report, type ScenarioOutcome } from './model.js';
import type { ScenarioTier } from '../engine/scenario.js';
import { TIER_RANK } from '../engine/grading.js';

export interface Implementation {
  /** The name shown (a bundle's name and version; a report's file name, or its target or path when file names clash). */
  name: string;
  file: string;
  /** What the file was. */
  kind: 'report' | 'bundle';
  achieved: Report['achieved'];
  /**
   * The verdict in a word, as the matrix shows it: the tier reached (GOLD, NONE), SELECTION
   * PASSED/FAILED for a narrowed run (which reaches no tier), HOSTED PASSED/INCOMPLETE/FAILED for a
   * hosted-only run; and the colour key of report.html's badge for it.
   */
  verdict: string;
  colour: string;
  kit: string;
}

/** A report's verdict in a word (see Implementation.verdict). */
function verdictOf(report: Report): { verdict: string; colour: string } {
  const bridge = report.scenarios.length > 0 || report.hosted === undefined;
  if (!bridge) {
    const h = report.hosted!;
    const word = h.passed ? 'passed' : h.incomplete !== undefined ? 'incomplete' : 'failed';
    return { verdict: `HOSTED ${word.toUpperCase()}`, colour: word };
  }
  if (report.narrowed) return { verdict: `SELECTION ${report.narrowed.passed ? 'PASSED' : 'FAILED'}`, colour: report.narrowed.passed ? 'passed' : 'failed' };
  return { verdict: report.achieved ? report.achieved.toUpperCase() : 'NONE', colour: report.achieved ?? 'none' };
}

export interface Row {
  id: string;
  /** A bridge tier, or "hosted" for a scenario of the hosted profile. */
  tier: ScenarioTier | 'hosted';
  group: string;
  title: string;
  /** One per implementation, in their order; undefined when its file has no such scenario. */
  outcomes: (ScenarioOutcome | undefined)[];
  /** Every file has it and the verdicts are not all the same. */
  differs: boolean;
}

export interface Section {
  tier: Row['tier'];
  group: string;
  rows: Row[];
}

export interface Comparison {
  implementations: Implementation[];
  /** Scenarios whose verdicts differ, by tier and group. */
  differing: Section[];
  /** Scenarios every implementation has the same verdict on, by tier and group. */
  same: Section[];
  /**
   * Scenarios only some of the files hold (runs of different selections: a Gold run beside a
   * Platinum one): not compared, as `tck diff` compares only what both runs selected.
   */
  partial: Section[];
  /** Scenarios every file holds (compared). */
  total: number;
}

/** Reads one report or bundle: ReportFileError when it is neither. */
export async function loadComparable(file: string): Promise<{ report: Report; implementation: Implementation }> {
  const data = await readJsonFile(file, 'file');
  if ((data as { format?: unknown } | null)?.format === BUNDLE_FORMAT) {
    let bundle;
    try {
      bundle = parseBundle(data, file);
    } catch (err) {
      throw new ReportFileError((err as Error).message);
    }
    const { report, implementation: impl } = bundle;
    return { report, implementation: { name: `${impl.name} ${impl.version}`, file, kind: 'bundle', achieved: report.achieved, ...verdictOf(report), kit: report.kit.version } };
  }
  const parsed = ReportSchema.safeParse(data);
  if (!parsed.success) throw new ReportFileError(`${file} is neither an agent-memory-tck report nor a certification bundle: ${firstIssue(parsed.error)}`);
  const report = parsed.data;
  return { report, implementation: { name: basename(file).replace(/\.json$/i, ''), file, kind: 'report', achieved: report.achieved, ...verdictOf(report), kit: report.kit.version } };
}

/** A report's target in a few words: its URL, or "embedded reference server". */
const targetName = (r: Report) => (r.target.embedded ? 'embedded reference server' : r.target.url);

/** The shortest ends of the paths (`a/report.json`, `ci/a/report.json`) that tell them apart. */
function distinctPaths(files: readonly string[]): string[] {
  const parts = files.map((f) => f.split(/[\\/]+/).filter((p) => p !== ''));
  const longest = Math.max(...parts.map((p) => p.length));
  for (let n = 1; n <= longest; n++) {
    const ends = parts.map((p) => p.slice(-n).join('/'));
    if (new Set(ends).size === ends.length) return ends;
  }
  return files.slice();
}

/**
 * The matrix of the given reports, implementations in the order given. A report has no name of
 * its own: reports whose file names collide (three report.json) are named by their targets when
 * those differ, else by the ends of their paths; "(2)" only when nothing else tells them apart.
 */
export function compare(inputs: readonly { report: Report; implementation: Implementation }[]): Comparison {
  const named = inputs.map(({ implementation }) => implementation);
  const clashing = (name: string) => named.filter((m) => m.name === name);
  const relabelled = named.map((m, i) => {
    const same = clashing(m.name);
    if (same.length < 2 || m.kind !== 'report') return m;
    const peers = inputs.filter(({ implementation }) => implementation.name === m.name && implementation.kind === 'report');
    const targets = peers.map(({ report }) => targetName(report));
    if (new Set(targets).size === targets.length) return { ...m, name: targetName(inputs[i]!.report) };
    const paths = distinctPaths(peers.map(({ implementation }) => implementation.file));
    return { ...m, name: paths[peers.findIndex(({ implementation }) => implementation === m)]! };
  });
  const seen = new Map<string, number>();
  const implementations = relabelled.map((implementation) => {
    const n = (seen.get(implementation.name) ?? 0) + 1;
    seen.set(implementation.name, n);
    return n === 1 ? implementation : { ...implementation, name: `${implementation.name} (${n})` };
  });
  const rows = new Map<string, Row>();
  inputs.forEach(({ report }, i) => {
    const scenarios = [...report.scenarios, ...(report.hosted?.scenarios ?? []).map((s) => ({ ...s, tier: 'hosted' as const }))];
    for (const s of scenarios) {
      const row = rows.get(s.id) ?? { id: s.id, tier: s.tier, group: s.group, title: s.title, outcomes: new Array(inputs.length).fill(undefined), differs: false };
      row.outcomes[i] = s.outcome;
      rows.set(s.id, row);
    }
  });
  const rank = (t: Row['tier']) => (t === 'hosted' ? Number.MAX_SAFE_INTEGER : TIER_RANK[t]);
  const all = [...rows.values()].sort((a, b) => rank(a.tier) - rank(b.tier) || a.group.localeCompare(b.group) || a.id.localeCompare(b.id));
  const everywhere = (r: Row) => r.outcomes.every((o) => o !== undefined);
  for (const r of all) r.differs = everywhere(r) && new Set(r.outcomes).size > 1;
  const compared = all.filter(everywhere);
  return {
    implementations,
    differing: sections(compared.filter((r) => r.differs)),
    same: sections(compared.filter((r) => !r.differs)),
    partial: sections(all.filter((r) => !everywhere(r))),
    total: compared.length,
  };
}

function sections(rows: readonly Row[]): Section[] {
  const out: Section[] = [];
  for (const r of rows) {
    const last = out[out.length - 1];
    if (last !== undefined && last.tier === r.tier && last.group === r.group) last.rows.push(r);
    else out.push({ tier: r.tier, group: r.group, rows: [r] });
  }
  return out;
}

/** How many scenarios an implementation passed, of those its file holds. */
export function passCount(c: Comparison, i: number): { passed: number; total: number } {
  let passed = 0;
  let total = 0;
  for (const sec of [...c.differing, ...c.same, ...c.partial]) {
    for (const r of sec.rows) {
      if (r.outcomes[i] === undefined) continue;
      total++;
      if (r.outcomes[i] === 'passed') passed++;
    }
  }
  return { passed, total };
}
