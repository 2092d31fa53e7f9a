// Console output: a line per scenario as it finishes, then every failure with its evidence,
// then the tier table and the verdict.
import type { ChalkInstance } from 'chalk';
import { formatExchange } from '../bridge/index.js';
import type { ScenarioResult } from '../engine/runner.js';
import type { Report } from '../report/model.js';
import { colorFor } from './color.js';

export interface ConsoleOptions {
  quiet?: boolean;
  verbose?: boolean;
  stream?: NodeJS.WriteStream;
}

const MARK: Record<ScenarioResult['outcome'], string> = {
  passed: 'PASS',
  failed: 'FAIL',
  error: 'ERROR',
  skipped: 'SKIP',
  'not-run': 'NOT RUN',
};

export class ConsoleReporter {
  private readonly out: NodeJS.WriteStream;
  private readonly c: ChalkInstance;

  constructor(private readonly options: ConsoleOptions = {}) {
    this.out = options.stream ?? process.stdout;
    this.c = colorFor(this.out);
  }

  private paint(outcome: ScenarioResult['outcome'], text: string): string {
    const c = this.c;
    return outcome === 'passed' ? c.green(text) : outcome === 'skipped' || outcome === 'not-run' ? c.yellow(text) : c.red(text);
  }

  onResult(r: ScenarioResult): void {
    if (this.options.quiet) return;
    const mark = this.paint(r.outcome, MARK[r.outcome].padEnd(7));
    const ms = this.c.dim(`${Math.round(r.durationMs)} ms`);
    this.out.write(`${mark} ${r.id} ${r.title} ${ms}\n`);
  }

  onEnd(report: Report): void {
    const c = this.c;
    const w = (s = '') => this.out.write(`${s}\n`);
    const bad = report.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error');
    if (!this.options.quiet && bad.length > 0) {
      w();
      w(c.bold(`Failures (${bad.length})`));
      for (const r of bad) {
        w();
        w(this.paint(r.outcome, `${MARK[r.outcome]} ${r.id} ${r.title}`));
        w(`  clauses: ${r.clauses.join(', ')}`);
        w(indent(r.message ?? '', '  '));
        const shown = this.options.verbose ? r.exchanges : r.exchanges.slice(-2);
        if (shown.length < r.exchanges.length) w(c.dim(`  (last ${shown.length} of ${r.exchanges.length} exchanges; --verbose or the JSON report shows all)`));
        for (const ex of shown) w(c.dim(indent(formatExchange(ex), '    ')));
      }
    }
    for (const warning of report.warnings) w(c.yellow(`warning: ${warning}`));
    w();
    w(`${'tier'.padEnd(8)} ${'passed'.padStart(6)} ${'failed'.padStart(6)} ${'error'.padStart(6)} ${'skipped'.padStart(7)} ${'not run'.padStart(7)}`);
    for (const t of report.tiers) {
      if (t.total === 0) continue;
      const line = `${t.tier.padEnd(8)} ${String(t.passed).padStart(6)} ${String(t.failed).padStart(6)} ${String(t.error).padStart(6)} ${String(t.skipped).padStart(7)} ${String(t.notRun).padStart(7)}`;
      w(t.passes ? c.green(line) : c.red(line));
    }
    w();
    const achieved = report.achieved ? report.achieved.toUpperCase() : 'NONE';
    const verdict = `Achieved tier: ${achieved} (requested ${report.requestedTier}, grading ${report.grading.rule}) against ${report.target.url}${report.target.embedded ? ' (embedded reference server)' : ''}`;
    w(report.success ? c.bold.green(verdict) : c.bold.red(verdict));
  }
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((l) => pad + l)
    .join('\n');
}
