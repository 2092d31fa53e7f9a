// Console output. On a terminal: a live progress line per tier (counts, elapsed time, the running
// scenario), with each failure printed above it as it happens. Elsewhere (a pipe, a file, or CI
// set): one plain line per scenario. Then every failure with its evidence, the tier table and the
// verdict. --quiet: only the table and the verdict; --verbose: every exchange as it happens.
import type { ChalkInstance } from 'chalk';
import type { Exchange } from '../../engine/evidence.js';
import { bridgeRan, type AnyReportScenario, type Gate, type Report } from '../model.js';
import { exploreFailureLines } from './explore.js';
import { colorFor, type ColorTarget } from './color.js';
import { OUTCOME_LABEL, SHOWN_EXCHANGES, diffText, evidenceText, expectedActualDiff, failuresOf, indent, placeOf, verdicts, type Outcome } from './text.js';

export interface ConsoleStream extends ColorTarget {
  write(chunk: string): unknown;
  columns?: number;
}

export interface ConsoleOptions {
  quiet?: boolean;
  verbose?: boolean;
  stream?: ConsoleStream;
  /** Live progress lines; default: on a TTY when CI is not set and neither quiet nor verbose. */
  live?: boolean;
}

/** A bridge tier, or "hosted" for the hosted profile's scenarios. */
type Tier = string;
type Summary = Pick<Report['tiers'][number], 'total' | 'passed' | 'failed' | 'error' | 'skipped' | 'notRun' | 'passes'>;
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
    if (this.options.quiet) return;
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

  /** Stops the live lines (idempotent); they stay on screen as drawn last. */
  stop(): void {
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

  onEnd(report: Report): void {
    this.stop();
    const c = this.c;
    const bad = failuresOf(report);
    if (!this.options.quiet && bad.length > 0) {
      this.w();
      this.w(c.bold(`Failures (${bad.length})`));
      for (const r of bad) this.failure(r);
    }
    for (const warning of report.warnings) this.w(c.yellow(`warning: ${warning}`));
    for (const w of report.hosted?.warnings ?? []) this.w(c.yellow(`warning (hosted): ${w}`));
    this.w();
    if (bridgeRan(report)) this.table('tier', report.tiers.map((t) => ({ ...t, name: t.tier })), ['yes', 'no'], 'reached');
    if (report.hosted) {
      if (bridgeRan(report)) this.w();
      this.table('hosted', report.hosted.groups.map((g) => ({ ...g, name: g.group })), ['passed', 'failed'], 'group');
    }
    this.w();
    for (const v of verdicts(report)) this.w(v.ok ? c.bold.green(v.text) : c.bold.red(v.text));
    if (report.explore) for (const line of exploreFailureLines(report.explore)) this.w(line);
    if (report.gate) this.gate(report.gate);
  }

  private failure(r: AnyReportScenario): void {
    const c = this.c;
    this.w();
    this.w(this.paint(r.outcome, c.bold(`${OUTCOME_LABEL[r.outcome]} ${r.id} ${r.title}`)));
    this.w(`  clauses: ${r.clauses.join(', ')} ${c.dim(`(${placeOf(r)}, ${r.group})`)}`);
    if (r.message) this.w(indent(r.message, '  '));
    const diff = expectedActualDiff(r);
    if (diff) {
      this.w(c.dim('  diff (- expected, + actual):'));
      for (const line of diffText(diff).split('\n')) {
        this.w(`    ${line.startsWith('-') ? c.red(line) : line.startsWith('+') ? c.green(line) : c.dim(line)}`);
      }
    }
    const shown = this.options.verbose ? r.exchanges : r.exchanges.slice(-SHOWN_EXCHANGES);
    if (shown.length < r.exchanges.length) this.w(c.dim(`  (last ${shown.length} of ${r.exchanges.length} exchanges; --verbose or the JSON report shows all)`));
    for (const ex of shown) this.w(c.dim(indent(evidenceText(ex), '    ')));
    if (r.repro) this.w(c.dim(`  reproduce: tck repro ${r.id} ${'tier' in r ? '--url URL' : '--report report.json'}`));
  }

  /** The tier table, or the hosted group table: counts per row, and the verdict in the last column. */
  private table(title: string, rows: (Summary & { name: string })[], verdict: [string, string], last: string): void {
    const c = this.c;
    const width = Math.max(8, ...rows.map((r) => r.name.length));
    const row = (cells: string[]) => `${cells[0]!.padEnd(width)} ${cells.slice(1, 6).map((x, i) => x.padStart(i === 3 || i === 4 ? 7 : 6)).join(' ')}  ${cells[6]}`;
    this.w(c.bold(row([title, 'passed', 'failed', 'error', 'skipped', 'not run', last])));
    for (const t of rows) {
      if (t.total === 0) continue;
      const line = row([t.name, ...[t.passed, t.failed, t.error, t.skipped, t.notRun].map(String), t.passes ? verdict[0] : verdict[1]]);
      this.w(t.passes ? c.green(line) : c.red(line));
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

/** A stream that drops everything (the console reporter when `console` is not among --reporter). */
export const SILENT: ConsoleStream = { write: () => true };
