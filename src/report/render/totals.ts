// The closing totals line of a run: how many scenarios, what became of them, and how long it took,
// e.g. "202 scenarios: 199 passed, 3 failed (2 causes) in 1.4 s". Zero counts other than "passed"
// are left out; the number of root causes (src/report/causes.ts) follows the failures when given.
import type { Report } from '../model.js';
import { scenariosOf } from './view.js';

const PARTS = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['error', 'error'],
  ['skipped', 'skipped'],
  ['not-run', 'not run'],
] as const;

export function totalsLine(report: Report, causes?: number): string {
  const all = scenariosOf(report);
  const counts = PARTS.map(([outcome, word]) => [all.filter((s) => s.outcome === outcome).length, word] as const);
  const parts = counts.filter(([n, word]) => n > 0 || word === 'passed').map(([n, word]) => `${n} ${word}`);
  const failing = all.filter((s) => s.outcome === 'failed' || s.outcome === 'error').length;
  const why = causes !== undefined && failing > 0 ? ` (${causes} cause${causes === 1 ? '' : 's'})` : '';
  const seconds = report.durationMs / 1000;
  return `${all.length} scenario${all.length === 1 ? '' : 's'}: ${parts.join(', ')}${why} in ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
}
