// The closing totals line of a run: how many scenarios, what became of them, and how long it took,
// e.g. "202 scenarios: 199 passed, 3 failed in 1.4 s". Zero counts other than "passed" are left out.
import type { Report } from '../model.js';

const PARTS = [
  ['passed', 'passed'],
  ['failed', 'failed'],
  ['error', 'error'],
  ['skipped', 'skipped'],
  ['not-run', 'not run'],
] as const;

export function totalsLine(report: Report): string {
  const all = [...report.scenarios, ...(report.hosted?.scenarios ?? [])];
  const counts = PARTS.map(([outcome, word]) => [all.filter((s) => s.outcome === outcome).length, word] as const);
  const parts = counts.filter(([n, word]) => n > 0 || word === 'passed').map(([n, word]) => `${n} ${word}`);
  const seconds = report.durationMs / 1000;
  return `${all.length} scenario${all.length === 1 ? '' : 's'}: ${parts.join(', ')} in ${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
}
