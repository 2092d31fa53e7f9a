// Console output. On a terminal: a live progress line per tier (counts, elapsed time, the running
// scenario), with each failure printed above it as it happens. Elsewhere (a pipe, a file, or CI
// set): one plain line per scenario. Then every failure with its evidence, the tier table and the
// verdict. --quiet: only the table and the verdict; --verbose: every exchange as it happens.
import type { ChalkInstance } from 'chalk';
import type { Exchange } from '../../engine/evidence.js';
import type { AnyReportScenario, Gate, Report } from '../model.js';
import { causeLine, causesOf, compactIds, rootCount } from '../causes.js';
import { exploreFailureLines } from './explore.js';
import { colorFor, type ColorTarget } from './color.js';
import { totalsLine } from './totals.js';
import { OUTCOME_LABEL, advisoryDetail, advisoryHeadline, evidenceText, failureLines, indent, layOut, type FailureLine, type Outcome } from './text.js';
import { advisoriesOf, securityFindings, securityHeadline } from '../advisories.js';
import { verdicts, viewOf, type SectionRow } from './view.js';

export interface ConsoleStream extends ColorTarget {
  write(chunk: string): unknown;
  columns?: number;
}

export interface ConsoleOptions {
  quiet?: boolean;
  /** Between quiet and the default: each failure (as it happens, and with its details), no passed lines. */
  failuresOnly?: boolean;
  verbose?: boolean;
  stream?: ConsoleStream;
  /** Live progress lines; default: on a TTY when CI is not set and neither quiet nor verbose. */
  live?: boolean;
}

/** A bridge tier, or "hosted" for the hosted profile's scenarios. */
type Tier = string;
interface Planned {
  id: string;
  tier: Tier;
  title?: string;
}
interface TierProgress {
  tier: Tier;
  total: number;
  done: number;
  counts: Record<Outcome, number>;
  started?: number;
  ended?: number;
}

const REDRAW_MS = 200;
/** Redraws caused by events come at most this often (the timer draws what they skipped). */
const MIN_REDRAW_MS = 50;
const zero = (): Record<Outcome, number> => ({ passed: 0, failed: 0, error: 0, skipped: 0, 'not-run': 0 });

export class ConsoleReporter {
  private readonly out: ConsoleStream;
  private readonly c: ChalkInstance;
  private readonly live: boolean;
  private progress: TierProgress[] = [];
  private current: string | undefined;
  private drawn = 0;
  private lastDraw = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConsoleOptions = {}) {
    this.out = options.stream ?? process.stdout;
    this.c = colorFor(this.out);
    this.live =
      options.live ?? (!!this.out.isTTY && (process.env.CI ?? '') === '' && !options.quiet && !options.verbose);
  }

  private w(text = ''): void {
    this.out.write(`${text}\n`);
  }

  private paint(outcome: Outcome, text: string): string {
    const c = this.c;
    return outcome === 'passed' ? c.green(text) : outcome === 'skipped' || outcome === 'not-run' ? c.yellow(text) : c.red(text);
  }

  /** The scenarios about to run, for the per-tier totals of the live lines. */
  begin(plan: readonly Planned[]): void {
    const tiers = [...new Set(plan.map((s) => s.tier))];
    this.progress = tiers.map((tier) => ({ tier, total: plan.filter((s) => s.tier === tier).length, done: 0, counts: zero() }));
    // On GitHub Actions the per-scenario lines fold into one group; the causes and verdict stay visible.
    if (!this.live && !this.options.quiet && this.grouped) {
      this.w(`::group::${plan.length} scenarios, one line each`);
      this.inGroup = true;
    }
    if (!this.live) return;
    this.draw();
    this.timer = setInterval(() => this.draw(), REDRAW_MS);
    this.timer.unref();
  }

  onStart(s: Planned): void {
    this.current = s.id;
    const p = this.tierOf(s.tier);
    if (p && p.started === undefined) p.started = performance.now();
    if (this.options.verbose && !this.options.quiet) this.w(this.c.bold(`▶ ${s.id} ${s.title ?? ''}`.trimEnd()));
    if (this.live && performance.now() - this.lastDraw >= MIN_REDRAW_MS) this.draw();
  }

  onExchange(ex: Exchange): void {
    if (this.options.verbose && !this.options.quiet) this.w(this.c.dim(indent(evidenceText(ex), '    ')));
  }

  onResult(r: { id: string; tier: Tier; title: string; outcome: Outcome; durationMs: number }): void {
    const p = this.tierOf(r.tier);
    if (p) {
      p.done++;
      p.counts[r.outcome]++;
      if (p.done === p.total) p.ended = performance.now();
    }
    if (this.options.quiet || (this.options.failuresOnly && r.outcome === 'passed' && !this.live)) return;
    const line = `${this.paint(r.outcome, OUTCOME_LABEL[r.outcome].padEnd(7))} ${r.id} ${r.title} ${this.c.dim(`${Math.round(r.durationMs)} ms`)}`;
    if (!this.live) {
      this.w(line);
      return;
    }
    // Live: only what needs attention scrolls above the progress lines.
    if (r.outcome !== 'passed') {
      this.erase();
      this.w(line);
      this.draw();
    } else if (performance.now() - this.lastDraw >= MIN_REDRAW_MS || p?.done === p?.total) {
      this.draw();
    }
  }

  private readonly grouped = process.env.GITHUB_ACTIONS === 'true';
  private inGroup = false;

  /** Stops the live lines (idempotent); they stay on screen as drawn last. */
  stop(): void {
    if (this.inGroup) {
      this.w('::endgroup::');
      this.inGroup = false;
    }
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.live && this.drawn > 0) {
      this.current = undefined;
      this.draw();
      this.drawn = 0;
    }
  }

  private tierOf(tier: Tier): TierProgress | undefined {
    return this.progress.find((p) => p.tier === tier);
  }

  private erase(): void {
    if (this.drawn > 0) this.out.write(`\x1b[${this.drawn}A\r\x1b[J`);
    this.drawn = 0;
  }

  private draw(): void {
    this.erase();
    // A terminal that reports no width (0, e.g. under `script`) gets 100 columns.
    const width = Math.max(40, (this.out.columns || 100) - 1);
    for (const p of this.progress) {
      const cells = 12;
      const filled = p.total === 0 ? cells : Math.round((p.done / p.total) * cells);
      const bad = p.counts.failed + p.counts.error;
      const skipped = p.counts.skipped + p.counts['not-run'];
      const elapsed = p.started === undefined ? '' : `${(((p.ended ?? performance.now()) - p.started) / 1000).toFixed(1)} s`;
      const running = this.current !== undefined && p.started !== undefined && p.ended === undefined ? `  ${this.current}` : '';
      const text =
        `${p.tier.padEnd(7)} ${'█'.repeat(filled)}${'░'.repeat(cells - filled)} ${String(p.done).padStart(3)}/${p.total}  ` +
        `${p.counts.passed} passed · ${p.counts.failed} failed · ${p.counts.error} error${skipped ? ` · ${skipped} skipped` : ''}  ${elapsed}${running}`;
      const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
      const c = this.c;
      this.out.write(`${bad > 0 ? c.red(line) : p.done === p.total && p.total > 0 ? c.green(line) : line}\n`);
    }
    this.drawn = this.progress.length;
    this.lastDraw = performance.now();
  }

  /** The target of the report being printed (for the repro hint). */
  private target: Report['target'] | undefined;

  onEnd(report: Report): void {
    this.stop();
    this.target = report.target;
    const c = this.c;
    const view = viewOf(report);
    const bad = view.failures;
    const causes = causesOf(view.scenarios);
    // SECURITY advisories that did not hold come before everything (docs/isolation.md), quiet or not.
    this.security(advisoriesOf(report));
    if (!this.options.quiet && bad.length > 0) {
      // Causes first: one defect failing 200 scenarios is one entry, shown by its first scenario.
      this.w();
      const roots = rootCount(causes);
      this.w(c.bold(`Failures (${bad.length}) from ${roots} cause${roots === 1 ? '' : 's'}`));
      let i = 0;
      for (const cause of causes) {
        this.w();
        // A follow-on is told under the cause it repeats, by its line alone.
        this.w(cause.sameAs ? `  follow-on: ${causeLine(cause)}` : c.bold(`Cause ${++i} of ${roots}: ${causeLine(cause)}`));
        this.w(`  scenarios: ${compactIds(cause.scenarios.map((s) => s.id))}`);
        if (!this.options.verbose && !cause.sameAs) this.failure(cause.scenarios[0]!, cause.scenarios.length > 1 ? '  the first of them:' : undefined);
      }
      if (this.options.verbose) {
        this.w();
        this.w(c.bold(`Every failure (${bad.length})`));
        for (const r of bad) this.failure(r);
      }
    }
    const advisories = advisoriesOf(report);
    if (!this.options.quiet && advisories.failed > 0 && advisories.mode === 'report') this.advisories(advisories);
    for (const warning of view.warnings) this.w(c.yellow(`warning: ${warning}`));
    this.w();
    view.sections.forEach((section, i) => {
      if (i > 0) this.w();
      this.table(section.heading, section.columns, section.rows);
    });
    this.w();
    // An explore-only report has no graded section: its own verdict line says what ran.
    if (view.sections.length > 0 || report.explore === undefined) this.w(totalsLine(report, rootCount(causes)));
    const headline = advisoryHeadline(advisories);
    if (headline !== undefined) this.w(advisories.failed > 0 ? c.yellow(headline) : headline);
    for (const v of verdicts(report)) this.w(v.ok ? c.bold.green(v.text) : v.incomplete ? c.bold.yellow(v.text) : c.bold.red(v.text));
    if (report.explore) for (const line of exploreFailureLines(report.explore)) this.w(line);
    if (report.gate) this.gate(report.gate);
  }

  /** The SECURITY advisories that did not hold: first, in red, with where each was found. */
  private security(a: ReturnType<typeof advisoriesOf>): void {
    const headline = securityHeadline(a);
    if (headline === undefined) return;
    const c = this.c;
    this.w();
    this.w(c.bold.red(headline));
    for (const f of securityFindings(a)) {
      for (const s of f.scenarios.slice(0, this.options.verbose ? Infinity : 5)) this.w(c.red(`  ${s.id}: ${s.message.split('\n')[0]}`));
      if (!this.options.verbose && f.scenarios.length > 5) this.w(c.red(`  … ${f.scenarios.length - 5} more (--verbose, or report.json's "security")`));
    }
  }

  /** The advisories that did not hold, after the failures and apart from them: never counted in the table. */
  private advisories(a: ReturnType<typeof advisoriesOf>): void {
    const c = this.c;
    this.w();
    this.w(c.bold.yellow(`Advisories that did not hold (${a.failed}): the kit's own readings, not failures`));
    for (const d of advisoryDetail(a, this.options.verbose ? Infinity : 5)) {
      this.w();
      this.w(c.yellow(d.head));
      this.w(c.dim(`  ${d.why}`));
      for (const line of d.scenarios) this.w(`  ${line}`);
    }
  }

  private failure(r: AnyReportScenario, intro?: string): void {
    const c = this.c;
    const colour: Record<FailureLine['kind'], (l: FailureLine) => string> = {
      heading: (l) => this.paint(r.outcome, c.bold(l.text)),
      clauses: (l) => `${l.text} ${c.dim(l.aside ?? '')}`,
      message: (l) => l.text,
      'diff-minus': (l) => c.red(l.text),
      'diff-plus': (l) => c.green(l.text),
      'diff-same': (l) => c.dim(l.text),
      exchange: (l) => c.dim(l.text),
      repro: (l) => c.dim(l.text),
      note: (l) => c.dim(l.text),
    };
    this.w(intro ?? '');
    for (const line of layOut(failureLines(r, { all: this.options.verbose, target: this.target }), '  ', 0, (l) => colour[l.kind](l))) this.w(line);
  }

  /** A section's table (the tiers, the hosted groups): counts per row, and the verdicts in the last columns. */
  private table(title: string, last: string[], rows: readonly SectionRow[]): void {
    const c = this.c;
    const width = Math.max(8, title.length, ...rows.map((r) => r.name.length));
    const shown = rows.filter((t) => t.total > 0);
    const widths = last.map((h, i) => Math.max(h.length, ...shown.map((r) => r.verdict[i]!.text.length)));
    const row = (cells: string[], tail: string[]) =>
      `${cells[0]!.padEnd(width)} ${cells.slice(1, 6).map((x, i) => x.padStart(i === 3 || i === 4 ? 7 : 6)).join(' ')}  ${tail.map((x, i) => (i === tail.length - 1 ? x : x.padEnd(widths[i]!))).join('  ')}`;
    this.w(c.bold(row([title, 'passed', 'failed', 'error', 'skipped', 'not run'], last)));
    for (const t of shown) {
      const line = row([t.name, ...[t.passed, t.failed, t.error, t.skipped, t.notRun].map(String)], t.verdict.map((v) => v.text));
      this.w(t.ok ? c.green(line) : t.incomplete ? c.yellow(line) : c.red(line));
    }
  }

  private gate(g: Gate): void {
    const c = this.c;
    this.w();
    this.w(
      `Baseline ${g.baseline}: ${g.known.length} known failure(s) allowed, ${g.unexpected.length} new failure(s), ${g.fixed.length} fixed` +
        (g.unchecked.length ? `, ${g.unchecked.length} not checked in this run` : ''),
    );
    for (const u of g.unexpected) this.w(c.red(`  new failure (${u.outcome}): ${u.id}`));
    for (const id of g.fixed) this.w(c.yellow(`  fixed: remove ${id} from the baseline`));
    this.w(g.passed ? c.bold.green('Gate: passed') : c.bold.red('Gate: FAILED'));
  }
}

/** "202 scenarios: 199 passed, 3 failed (2 causes) in 1.4 s" */
/** A stream that drops everything (the console reporter when `console` is not among --reporter). */
export const SILENT: ConsoleStream = { write: () => true };
