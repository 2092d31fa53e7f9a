// One view of a report for every renderer: the graded parts of a run (the bridge tiers, the hosted
// profile's groups) as sections of one shape, each with its rows (counts and verdict words), its
// scenarios, its target and its verdict line. The renderers loop over the sections instead of
// branching on `report.tiers` and `report.hosted`; the view is derived at render time, so the JSON
// report keeps its 1.x shape.
import { reaches } from '../../engine/grading.js';
import type { LevelCounts } from '../../engine/result.js';
import type { ScenarioTier } from '../../engine/scenario.js';
import { bridgeRan, isFailing, type AnyReportScenario, type Report } from '../model.js';
import { exploreSummary } from './explore.js';
import { capital, rerunWords, selectionVerdict, tierName, tierStanding } from './text.js';

/** A verdict in words and whether it is good (the renderers colour or mark it). */
export interface Standing {
  text: string;
  ok: boolean;
  /** Neither passed nor failed: scenarios were skipped for an input the run lacked (never with ok). */
  incomplete?: true;
}

/** One graded row: a bridge tier or a hosted group. */
export interface SectionRow extends LevelCounts {
  /** "bronze", "resources". */
  name: string;
  /** The name qualified for a list of every section's rows: ["bronze"], ["hosted", "resources"]. */
  path: string[];
  /** One verdict per column of the section's `columns`. */
  verdict: Standing[];
  /** The verdicts in one line: "all passed; reached: yes", "passed". */
  standing: string;
  /** The row as a whole is good (its colour). */
  ok: boolean;
  scenarios: AnyReportScenario[];
  /** The section's and the row's verdict as name/value pairs (JUnit properties). */
  facts: [string, string][];
}

export interface GradedSection {
  profile: 'bridge' | 'hosted';
  /** What a row is. */
  title: 'tier' | 'group';
  /** The rows' column heading in a table: "tier", "hosted". */
  heading: string;
  /** The headings of the verdict columns. */
  columns: string[];
  /** Every row, in order; the renderers show those with scenarios (total > 0). */
  rows: SectionRow[];
  scenarios: AnyReportScenario[];
  /** Its URL, and `where`: the URL with what it is when the kit started it ("… (embedded reference server)"). */
  target: { url: string; where: string };
  /** The verdict in a few words (a summary's title): "GOLD", "selection passed (…)", "hosted profile PASSED". */
  headline: string;
  /** The verdict line: "Achieved tier: GOLD" + " (requested gold, grading strict)" (+ " against WHERE"). */
  verdict: Standing & { head: string; detail: string };
  /**
   * The short verdict a badge shows: `label` and `value` on the report's round badge, `short` on the
   * small SVG badge, whose label `tag` qualifies ("" for the bridge tiers).
   */
  badge: { label: string; value: string; short: string; tag: string; colour: ScenarioTier | 'none' | 'passed' | 'failed' | 'incomplete' };
  /** What was run and how it is graded, as labelled lines (the HTML report's header). */
  about: [string, string][];
  warnings: string[];
}

export interface ReportView {
  sections: GradedSection[];
  /** Every section's scenarios, in order. */
  scenarios: AnyReportScenario[];
  /** The failed and errored ones. */
  failures: AnyReportScenario[];
  /** Every warning, a section's other than the bridge's tagged: "(hosted) …". */
  warnings: string[];
}

const word = (passed: boolean) => (passed ? 'passed' : 'failed');

function bridgeSection(report: Report): GradedSection {
  const where = `${report.target.url}${report.target.embedded ? ' (embedded reference server)' : ''}`;
  const selection = selectionVerdict(report);
  const n = report.narrowed;
  const verdict = selection
    ? { head: capital(selection), detail: ', no tier awarded to a partial run,', ok: n!.passed }
    : {
        head: `Achieved tier: ${tierName(report.achieved)}`,
        detail: ` (requested ${report.requestedTier}, grading ${report.grading.rule}${rerunWords(report) ? `; ${rerunWords(report)}` : ''})`,
        ok: reaches(report.achieved, report.requestedTier),
      };
  const facts = (t: Report['tiers'][number]): [string, string][] => [
    ['protocol', report.kit.protocol],
    ['grading', report.grading.rule],
    ['tier.all-passed', String(t.passes)],
    ['tier.reached', String(reaches(report.achieved, t.tier))],
    ['achieved', report.achieved ?? 'none'],
    ['verdict', selection ?? `achieved tier ${report.achieved ?? 'none'}`],
  ];
  return {
    profile: 'bridge',
    title: 'tier',
    heading: 'tier',
    columns: ['its own scenarios', 'tier reached'],
    rows: report.tiers.map((t) => {
      const s = tierStanding(report, t);
      return {
        ...t,
        name: t.tier,
        path: [t.tier],
        verdict: [{ text: s.own, ok: t.passes }, { text: s.reached, ok: reaches(report.achieved, t.tier) }],
        standing: `${s.own}; reached: ${s.reached}`,
        ok: s.ok,
        scenarios: report.scenarios.filter((x) => x.tier === t.tier),
        facts: facts(t),
      };
    }),
    scenarios: report.scenarios,
    target: { url: report.target.url, where },
    headline: selection ?? tierName(report.achieved),
    verdict: { ...verdict, text: `${verdict.head}${verdict.detail} against ${where}` },
    badge: n
      ? { label: 'selection', value: n.passed ? 'PASSED' : 'FAILED', short: `selection ${word(n.passed)}`, tag: '', colour: word(n.passed) }
      : { label: 'achieved tier', value: tierName(report.achieved), short: report.achieved ?? 'none', tag: '', colour: report.achieved ?? 'none' },
    about: [
      ['target', where],
      ['requested', `${report.requestedTier}${report.interrupted ? ' (run interrupted)' : ''}`],
      ['grading', `${report.grading.rule}: ${report.grading.description}`],
    ],
    warnings: report.warnings,
  };
}

/** A hosted group's (or the profile's) verdict word: passed, failed, or incomplete (issue 27). */
const groupWord = (passed: boolean, incomplete: readonly string[] | undefined) => (passed ? 'passed' : incomplete ? 'incomplete' : 'failed');
/** What completes an incomplete group or profile: "pass --other-api-key". */
const completedBy = (flags: readonly string[]) => `pass ${flags.join(' and ')} to complete it`;

function hostedSection(report: Report, h: NonNullable<Report['hosted']>): GradedSection {
  const where = `${h.target.url}${h.target.embedded ? ' (embedded hosted reference service)' : ''}`;
  const groups = h.groups.filter((g) => g.total > 0).map((g) => `${g.group} ${groupWord(g.passes, g.incomplete)}`).join(', ');
  const verdictWord = groupWord(h.passed, h.incomplete).toUpperCase();
  const head = `Hosted profile: ${verdictWord}`;
  const detail = ` (${groups || 'nothing ran'}${h.incomplete ? `; ${completedBy(h.incomplete)}` : ''})`;
  const flag = h.incomplete ? ({ incomplete: true } as const) : {};
  const interrupted = !bridgeRan(report) && report.interrupted ? ' (run interrupted)' : '';
  return {
    profile: 'hosted',
    title: 'group',
    heading: 'hosted',
    columns: ['group'],
    rows: h.groups.map((g) => {
      const text = g.incomplete ? `incomplete: ${completedBy(g.incomplete)}` : word(g.passes);
      return {
        ...g,
        name: g.group,
        path: ['hosted', g.group],
        verdict: [{ text, ok: g.passes, ...(g.incomplete ? { incomplete: true as const } : {}) }],
        standing: text,
        ok: g.passes,
        scenarios: h.scenarios.filter((s) => s.group === g.group),
        facts: [
          ['profile', 'hosted'],
          ['group.passed', String(g.passes)],
          ...(g.incomplete ? [['group.incomplete', g.incomplete.join(' ')] as [string, string]] : []),
          ['hosted.passed', String(h.passed)],
        ],
      };
    }),
    scenarios: h.scenarios,
    target: { url: h.target.url, where },
    headline: `hosted profile ${verdictWord}`,
    verdict: { head, detail, text: `${head}${detail} against ${where}`, ok: h.passed, ...flag },
    badge: { label: 'hosted profile', value: verdictWord, short: groupWord(h.passed, h.incomplete), tag: 'hosted', colour: groupWord(h.passed, h.incomplete) as 'passed' | 'failed' | 'incomplete' },
    about: [
      ['hosted', `${where}, ${h.target.credential === 'api-key' ? 'an API key' : 'an access token'}, identity-provider token ${h.target.idpToken}${interrupted}`],
      ['hosted grade', 'a group passes when every one of its scenarios passed; failed, errored and not-run scenarios fail it, and so do skipped ones, unless each was skipped for an input the run lacked: then the group is incomplete (the flag that completes it is named)'],
    ],
    warnings: h.warnings,
  };
}

/** Every scenario of a report, in the sections' order (the bridge suites', then the hosted profile's). */
export const scenariosOf = (report: Pick<Report, 'scenarios' | 'hosted'>): AnyReportScenario[] => [...report.scenarios, ...(report.hosted?.scenarios ?? [])];

/** The report as the renderers see it: its graded sections, the bridge tiers first. */
export function viewOf(report: Report): ReportView {
  const sections = [...(bridgeRan(report) ? [bridgeSection(report)] : []), ...(report.hosted ? [hostedSection(report, report.hosted)] : [])];
  const scenarios = scenariosOf(report);
  return {
    sections,
    scenarios,
    failures: scenarios.filter((s) => isFailing(s.outcome)),
    // The run's own warnings (the bridge's) whatever ran, then each other section's, tagged.
    warnings: [...report.warnings, ...sections.filter((s) => s.profile !== 'bridge').flatMap((s) => s.warnings.map((w) => `(${s.profile}) ${w}`))],
  };
}

/**
 * The verdict, one line per section, and explore's when it ran, and whether each is good:
 * "Achieved tier: GOLD (requested gold, grading strict) against URL", "Hosted profile: PASSED (resources passed, …) against URL".
 */
export function verdicts(report: Report): Standing[] {
  const lines: Standing[] = viewOf(report).sections.map((s) => s.verdict);
  if (report.explore) lines.push({ text: `${exploreSummary(report.explore)} against ${report.target.url}`, ok: report.explore.failure === undefined });
  return lines;
}

/** Every verdict of a report in one line (the bridge tiers, and the hosted groups when they ran). */
export const verdictLine = (report: Report): string => verdicts(report).map((v) => v.text).join('; ');

/** The short verdict a badge or a title shows: the first section's, or explore's when nothing else ran. */
export function shortVerdict(report: Report): GradedSection['badge'] {
  const first = viewOf(report).sections[0];
  return first?.badge ?? { label: 'explore', value: report.success ? 'PASSED' : 'FAILED', short: word(report.success), tag: 'explore', colour: word(report.success) };
}
