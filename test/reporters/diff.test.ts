// `tck diff` logic: each kind of change between two reports, and what counts as a regression.
import { describe, expect, it } from 'vitest';
import { diffReports, isRegression, renderDiff } from '../../src/report/diff.js';
import type { Report, ReportScenario } from '../../src/report/model.js';

type Outcome = ReportScenario['outcome'];
const reportOf = (achieved: Report['achieved'], outcomes: Record<string, Outcome>): Report =>
  ({
    achieved,
    scenarios: Object.entries(outcomes).map(([id, outcome]) => ({ id, title: `t${id.slice(-1)}`, outcome, ...(outcome === 'failed' ? { message: `${id} broke\nmore` } : {}) })),
  }) as Report;

describe('diffReports', () => {
  const before = reportOf('silver', { 'SCN-B-001': 'passed', 'SCN-B-002': 'failed', 'SCN-B-003': 'passed', 'SCN-B-004': 'failed', 'SCN-B-005': 'passed', 'SCN-B-006': 'passed' });
  const after = reportOf('bronze', { 'SCN-B-001': 'failed', 'SCN-B-002': 'passed', 'SCN-B-003': 'passed', 'SCN-B-004': 'error', 'SCN-B-006': 'skipped', 'SCN-B-007': 'failed' });
  const d = diffReports(before, after);

  it('sorts every change into regressed, fixed, appeared, vanished or other', () => {
    expect(d).toEqual({
      tier: { from: 'silver', to: 'bronze', direction: 'down' },
      regressed: [{ id: 'SCN-B-001', title: 't1', from: 'passed', to: 'failed', message: 'SCN-B-001 broke\nmore' }],
      fixed: [{ id: 'SCN-B-002', title: 't2', from: 'failed', to: 'passed' }],
      appeared: [{ id: 'SCN-B-007', title: 't7', outcome: 'failed' }],
      vanished: [{ id: 'SCN-B-005', title: 't5', outcome: 'passed' }],
      changed: [
        { id: 'SCN-B-004', title: 't4', from: 'failed', to: 'error' },
        { id: 'SCN-B-006', title: 't6', from: 'passed', to: 'skipped' },
      ],
    });
    expect(renderDiff(d)).toContain('regressed (1):\n  SCN-B-001 t1: passed → failed — SCN-B-001 broke\n');
  });

  it('a regression is a scenario that regressed or a lower tier; a new failing scenario alone is not', () => {
    expect(isRegression(d)).toBe(true);
    expect(isRegression(diffReports(reportOf('bronze', { 'SCN-B-001': 'failed' }), reportOf('bronze', { 'SCN-B-001': 'failed', 'SCN-B-002': 'failed' })))).toBe(false);
    expect(isRegression(diffReports(reportOf('gold', {}), reportOf('silver', {})))).toBe(true);
    expect(isRegression(diffReports(reportOf(null, {}), reportOf('bronze', {})))).toBe(false);
  });
});
