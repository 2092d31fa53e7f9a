// Plain-text pieces every format shares: the verdict words of a tier, the expected/actual diff, and
// a failure with its evidence as structured lines (the console paints them, the other formats join
// them). Pure functions of the report.
import { formatExchange, printable } from '../../engine/evidence.js';
import { cutAt } from '../../util/words.js';
import { reaches } from '../../engine/grading.js';
import { TIERS } from '../../engine/scenario.js';
import { isFailing, type AdvisorySummary, type AnyReportScenario, type Report, type ScenarioOutcome as Outcome } from '../model.js';

export type { Outcome };

export const OUTCOME_LABEL: Record<Outcome, string> = {
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  skipped: 'SKIP',
  'not-run': 'NOT RUN',
};

export const isFailure = (s: { outcome: Outcome }): boolean => isFailing(s.outcome);

/** Where a scenario belongs, for "(tier, group)": its tier, or "hosted". */
export const placeOf = (s: AnyReportScenario): string => ('tier' in s ? s.tier : 'hosted');

export const tierName = (tier: string | null): string => (tier ? tier.toUpperCase() : 'NONE');

export const capital = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** "Bronze", "Bronze and Silver", "Bronze, Silver and Gold": the tiers up to `tier`. */
function tiersUpTo(tier: string): string {
  const names = TIERS.slice(0, TIERS.indexOf(tier as (typeof TIERS)[number]) + 1).map(capital);
  return names.length <= 1 ? (names[0] ?? capital(tier)) : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** What an --only-failed run covered: "a re-run of r.json's 3 failed, 1 errored and 209 not run"; undefined for another run. */
export function rerunWords(report: Pick<Report, 'selection'>): string | undefined {
  const r = report.selection.rerun;
  if (!r) return undefined;
  const parts = [[r.failed, 'failed'], [r.error, 'errored'], [r.notRun, 'not run']].filter(([n]) => n !== 0).map(([n, w]) => `${n} ${w}`);
  const list = parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `a re-run of ${r.from}'s ${list}`;
}

/**
 * A narrowed run's verdict in words: "selection passed (13 of 111 Bronze scenarios)" or
 * "selection FAILED (11 of 13 selected passed; 13 of 111 Bronze scenarios)"; undefined when the
 * run was not narrowed. A re-run (--only-failed) says what it re-ran.
 */
export function selectionVerdict(report: Report): string | undefined {
  const n = report.narrowed;
  if (!n) return undefined;
  const rerun = rerunWords(report);
  const of = `${rerun ? `${rerun}: ` : ''}${n.selected} of ${n.population} ${tiersUpTo(report.requestedTier)} scenarios`;
  return n.passed ? `selection passed (${of})` : `selection FAILED (${n.passing} of ${n.selected} selected passed; ${of})`;
}

/**
 * A tier row's standing, in words nobody can misread: whether all of its own scenarios passed
 * (apart from the tiers below it), and whether the tier is reached (which needs those too).
 */
export function tierStanding(report: Report, t: Report['tiers'][number]): { own: string; reached: string; ok: boolean } {
  const ranAll = t.inLevel === undefined;
  const required = report.grading.required[t.tier] ?? 1;
  const own = !ranAll
    ? `${t.total} of ${t.inLevel} ran`
    : t.passes
      ? required < 1 && t.passed < t.total
        ? `${t.passed} of ${t.total} passed (${Math.round(required * 100)} % needed)`
        : 'all passed'
      : `${t.passed} of ${t.total} passed`;
  const isReached = reaches(report.achieved, t.tier);
  const below = TIERS.slice(0, TIERS.indexOf(t.tier)).find((lower) => !reaches(report.achieved, lower));
  const reached = report.narrowed
    ? 'no: a selection reaches no tier'
    : isReached
      ? 'yes'
      : t.passes && below
        ? `no: ${below} is not reached`
        : 'no';
  return { own, reached, ok: isReached || (report.narrowed !== undefined && t.passed === t.total - t.skipped && t.failed + t.error === 0) };
}

/**
 * formatExchange for either profile: a hosted exchange shows its own HTTP method, path and query
 * (no body for GET and DELETE), and the credential it carried, in words.
 */
export function evidenceText(ex: Parameters<typeof formatExchange>[0] & { httpMethod?: string | undefined; credential?: string | undefined }): string {
  const text = formatExchange(ex);
  if (ex.httpMethod === undefined) return text;
  const lines = text.split('\n');
  let target = ex.url;
  try {
    const u = new URL(ex.url);
    target = `${u.pathname}${u.search}`;
  } catch {
    /* shown as recorded */
  }
  const bodyless = ex.httpMethod === 'GET' || ex.httpMethod === 'DELETE';
  const body = bodyless ? '' : lines[0]!.slice(lines[0]!.indexOf(' ', 5) + 1);
  lines[0] = printable(`${ex.httpMethod} ${target}${body === '' ? '' : ` ${body}`}`);
  const auth = lines.findIndex((l) => l === '  authorization: ***');
  if (auth >= 0 && ex.credential !== undefined) lines[auth] += printable(` (${ex.credential})`);
  else if (auth < 0 && ex.credential !== undefined) lines.splice(1, 0, printable(`  (${ex.credential})`));
  return lines.join('\n');
}

/** Cuts text longer than `max` characters, saying how much was cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = cutAt(text, max);
  return `${head}…[${text.length - head.length} more characters]`;
}

export function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** JSON with sorted keys, two-space indented: a stable text to diff. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(sort(value), null, 2) ?? String(value);
}

/** Lines of an LCS diff longer than this on either side are not aligned (shown whole instead). */
const MAX_DIFF_LINES = 400;
/** Unchanged lines kept around each change. */
const CONTEXT = 3;

interface DiffLine {
  kind: ' ' | '-' | '+' | '…';
  text: string;
}

/**
 * A line diff of expected against actual (`-` expected, `+` actual), with unchanged runs cut to a
 * little context; undefined when no diff applies (a value missing, or both plain one-liners that
 * the assertion message already shows).
 */
export function expectedActualDiff(s: { expected?: unknown; actual?: unknown }): DiffLine[] | undefined {
  if (s.expected === undefined || s.actual === undefined) return undefined;
  const structured = (v: unknown) => (v !== null && typeof v === 'object') || (typeof v === 'string' && v.includes('\n'));
  if (!structured(s.expected) && !structured(s.actual)) return undefined;
  // Escaped like every other text from a server (JSON.stringify leaves C1 and bidi controls raw).
  const text = (v: unknown) => printable(typeof v === 'string' ? v : stableJson(v));
  const a = text(s.expected).split('\n');
  const b = text(s.actual).split('\n');
  if (a.length > MAX_DIFF_LINES || b.length > MAX_DIFF_LINES) {
    return [...a.map((t): DiffLine => ({ kind: '-', text: t })), ...b.map((t): DiffLine => ({ kind: '+', text: t }))];
  }
  return collapse(lcsDiff(a, b));
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
  // lengths[i][j]: length of the LCS of a[i..] and b[j..]
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      out.push({ kind: '-', text: a[i++]! });
    } else {
      out.push({ kind: '+', text: b[j++]! });
    }
  }
  return out;
}

function collapse(lines: DiffLine[]): DiffLine[] {
  const near = lines.map((_, i) => lines.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((l) => l.kind !== ' '));
  const out: DiffLine[] = [];
  lines.forEach((l, i) => {
    if (near[i]) out.push(l);
    else if (out.at(-1)?.kind !== '…') out.push({ kind: '…', text: '' });
  });
  return out;
}

export function diffText(lines: readonly DiffLine[]): string {
  return lines.map((l) => (l.kind === '…' ? '  …' : `${l.kind} ${l.text}`)).join('\n');
}

/** The exchanges a failure shows by default: the last few, which hold the answer judged. */
const SHOWN_EXCHANGES = 3;

/**
 * How to reproduce a failure: with the target's real URL; against the embedded server (gone with
 * the run) or for a hosted scenario, from the report.
 */
function reproHint(s: AnyReportScenario, target?: Report['target']): string {
  const from = !('tier' in s) || target === undefined || target.embedded ? '--report report.json' : `--url ${shellWord(target.url)}`;
  return `npx tck repro ${s.id} ${from}`;
}

/** A word the shell passes through unchanged (quoted when it must be). */
export const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/** What a line of a failure is, for its colour on a console. */
type FailureLineKind = 'heading' | 'clauses' | 'message' | 'diff-minus' | 'diff-plus' | 'diff-same' | 'exchange' | 'repro' | 'note';

export interface FailureLine {
  kind: FailureLineKind;
  /** Nesting: 0 the heading, 1 what is said of it, 2 the diff's and the exchanges' lines. */
  depth: 0 | 1 | 2;
  text: string;
  /** Said after the text, quieter (where the scenario belongs). */
  aside?: string;
}

const DIFF_KIND = { '-': 'diff-minus', '+': 'diff-plus', ' ': 'diff-same', '…': 'diff-same' } as const;

/**
 * A failed or errored scenario, once for every format, as lines: heading, clauses, message, the
 * expected/actual diff, the last exchanges (all of them with `all`), and how to reproduce it.
 */
export function failureLines(s: AnyReportScenario, options: { all?: boolean; target?: Report['target'] } = {}): FailureLine[] {
  const lines: FailureLine[] = [
    { kind: 'heading', depth: 0, text: `${OUTCOME_LABEL[s.outcome]} ${s.id} ${s.title}` },
    { kind: 'clauses', depth: 1, text: `clauses: ${s.clauses.join(', ')}`, aside: `(${placeOf(s)}, ${s.group})` },
  ];
  if (s.message) s.message.split('\n').forEach((text, i) => lines.push({ kind: 'message', depth: 1, text: i === 0 ? withCites(text, s.cites) : text }));
  const diff = expectedActualDiff(s);
  if (diff) {
    lines.push({ kind: 'note', depth: 1, text: 'diff (- expected, + actual):' });
    for (const l of diff) lines.push({ kind: DIFF_KIND[l.kind], depth: 2, text: diffText([l]) });
  }
  const shown = options.all ? s.exchanges : s.exchanges.slice(-SHOWN_EXCHANGES);
  if (shown.length > 0) {
    lines.push({
      kind: 'note',
      depth: 1,
      text: shown.length < s.exchanges.length ? `(last ${shown.length} of ${s.exchanges.length} exchanges; --verbose or the JSON report shows all)` : `exchanges (${shown.length}):`,
    });
  }
  for (const ex of shown) for (const text of evidenceText(ex).split('\n')) lines.push({ kind: 'exchange', depth: 2, text });
  if (s.repro) lines.push({ kind: 'repro', depth: 1, text: `reproduce: ${reproHint(s, options.target)}` });
  return lines;
}

/**
 * A failure's first line with the sentences the assertion that broke enforces ("… [SPEC-2.2.1]"),
 * so a vendor sees which sentence broke; ids the line already names are not repeated.
 */
export function withCites(line: string, cites: readonly string[] | undefined): string {
  const missing = (cites ?? []).filter((c) => !line.includes(c));
  return missing.length === 0 ? line : `${line} [${(cites ?? []).join(', ')}]`;
}

/** The first line of a scenario's message, with its cites. */
export const citedFirstLine = (s: Pick<AnyReportScenario, 'message' | 'cites'>, fallback: string): string => {
  const first = (s.message ?? '').split('\n')[0]!.trim();
  return first === '' ? fallback : withCites(first, s.cites);
};

/** The advisories' line of a run: how many were checked, how many did not hold, and what that means; undefined when there is nothing to say. */
export function advisoryHeadline(a: AdvisorySummary): string | undefined {
  if (a.checked === 0 && a.failed === 0 && a.mode === 'report') return undefined;
  const n = `${a.failed} of ${a.checked} advisor${a.checked === 1 ? 'y' : 'ies'} checked did not hold`;
  return a.mode === 'fail'
    ? `Advisories: ${n}; counted as failures (--advisories fail)`
    : `Advisories: ${n}; the kit's own readings, counted apart, never a failure (--advisories fail makes them failures)`;
}

/** Each advisory that did not hold: its id and what it expects, why it is not a rule, and each scenario with what was found (at most `max` per id). */
export function advisoryDetail(a: AdvisorySummary, max = 5): { head: string; why: string; scenarios: string[] }[] {
  return a.byId.map((b) => ({
    head: `${b.id} (${b.failed}×): expects ${b.expects}`,
    why: `why it is not a rule: ${b.reason}`,
    scenarios: [...b.scenarios.slice(0, max).map((s) => `${s.id}: ${s.message.split('\n')[0]}`), ...(b.scenarios.length > max ? [`… ${b.scenarios.length - max} more`] : [])],
  }));
}

/** The lines laid out with `pad` per level below `top` (an empty line stays empty). */
export function layOut(lines: readonly FailureLine[], pad: string, top: number, paint: (l: FailureLine) => string = (l) => (l.aside ? `${l.text} ${l.aside}` : l.text)): string[] {
  return lines.map((l) => (l.text === '' ? '' : pad.repeat(Math.max(0, l.depth - top)) + paint(l)));
}

/** A failure as plain text: the heading and what is said of it flush left, diff and exchanges indented. */
export function failureText(s: AnyReportScenario, options: { all?: boolean; target?: Report['target'] } = {}): string {
  return layOut(failureLines(s, options), '  ', 1).join('\n');
}
