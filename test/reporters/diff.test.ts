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

describe('two runs that selected differently (issue 24, item 7)', () => {
  const withSelection = (r: Report, selection: Report['selection']): Report => ({ ...r, selection, requestedTier: selection.tier });
  const full = withSelection(reportOf('gold', { 'SCN-B-001': 'passed', 'SCN-B-002': 'passed', 'SCN-B-003': 'failed' }), { tier: 'gold' });
  const one = withSelection(reportOf(null, { 'SCN-B-001': 'passed' }), { tier: 'gold', scenarios: ['SCN-B-001'] });

  it('compare what both selected: nothing vanished, no tier compared, no regression', () => {
    const d = diffReports(full, one);
    expect(d.scope).toEqual({ common: 1, onlyBefore: 2, onlyAfter: 0, before: 'gold, every scenario', after: 'gold, --scenario SCN-B-001' });
    expect(d.tier.direction).toBe('not-compared');
    expect(d.vanished).toEqual([]);
    expect(isRegression(d)).toBe(false);
    expect(renderDiff(d)).toMatch(/^compared: the 1 scenario both runs selected \(old: gold, every scenario; new: gold, --scenario SCN-B-001\)\nnot compared: 2 only in the old run's selection, 0 only in the new one's\ntier: not compared \(old GOLD, new NONE\)/);
    expect(renderDiff(d)).toMatch(/\nverdict: no regression among the 1 scenario both runs selected\n$/);
  });

  it('a scenario both selected that regressed is still a regression', () => {
    const failedNow = withSelection(reportOf(null, { 'SCN-B-001': 'failed' }), { tier: 'gold', scenarios: ['SCN-B-001'] });
    const d = diffReports(full, failedNow);
    expect(d.regressed.map((c) => c.id)).toEqual(['SCN-B-001']);
    expect(isRegression(d)).toBe(true);
    expect(renderDiff(d)).toMatch(/\nverdict: REGRESSED \(1 scenario\)\n$/);
  });
});
