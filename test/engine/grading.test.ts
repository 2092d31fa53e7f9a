import { describe, expect, it } from 'vitest';
import { grade, reaches } from '../../src/engine/grading.js';
import type { Outcome, ScenarioResult } from '../../src/engine/result.js';
import type { ScenarioTier } from '../../src/engine/scenario.js';

const r = (tier: ScenarioTier, outcome: Outcome, n = 1): ScenarioResult[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${tier}-${outcome}-${i}`, tier, group: 'g', clauses: [], title: '', outcome, durationMs: 0, exchanges: [], notes: [] }));

describe('strict grading', () => {
  it('reaches gold when every scenario of every tier passed', () => {
    expect(grade([...r('bronze', 'passed', 3), ...r('silver', 'passed', 2), ...r('gold', 'passed', 2)]).achieved).toBe('gold');
  });
  it('one failure in a tier stops at the tier below', () => {
    expect(grade([...r('bronze', 'passed', 3), ...r('silver', 'passed', 2), ...r('silver', 'failed'), ...r('gold', 'passed', 2)]).achieved).toBe('bronze');
  });
  it.each(['failed', 'error', 'skipped', 'not-run'] as const)('a %s scenario counts against its tier', (outcome) => {
    expect(grade([...r('bronze', 'passed', 5), ...r('bronze', outcome)]).achieved).toBeNull();
  });
  it('a run that tested nothing reaches no tier', () => {
    expect(grade([]).achieved).toBeNull();
    expect(grade(r('bronze', 'skipped', 4)).achieved).toBeNull();
    expect(grade(r('bronze', 'not-run', 4)).achieved).toBeNull();
  });
  it('a higher tier passing does not lift a failed lower tier', () => {
    expect(grade([...r('bronze', 'failed'), ...r('silver', 'passed'), ...r('gold', 'passed')]).achieved).toBeNull();
  });
  it('a tier with no scenarios selected is not reached', () => {
    expect(grade([...r('bronze', 'passed'), ...r('gold', 'passed')]).achieved).toBe('bronze');
  });
  it('counts each outcome per tier', () => {
    const g = grade([...r('bronze', 'passed', 2), ...r('bronze', 'failed'), ...r('bronze', 'error'), ...r('bronze', 'skipped'), ...r('bronze', 'not-run')]);
    expect(g.tiers[0]).toEqual({ tier: 'bronze', total: 6, passed: 2, failed: 1, error: 1, skipped: 1, notRun: 1, passes: false });
    expect(g.rule.name).toBe('strict');
  });
});

describe('established grading', () => {
  it('gold needs silver and at least 80 % of gold', () => {
    const base = [...r('bronze', 'passed', 2), ...r('silver', 'passed', 2)];
    expect(grade([...base, ...r('gold', 'passed', 8), ...r('gold', 'failed', 2)], 'established').achieved).toBe('gold');
    expect(grade([...base, ...r('gold', 'passed', 7), ...r('gold', 'failed', 3)], 'established').achieved).toBe('silver');
  });
  it('bronze and silver still need every scenario', () => {
    expect(grade([...r('bronze', 'passed', 9), ...r('bronze', 'failed')], 'established').achieved).toBeNull();
  });
  it('skipped gold scenarios count as not passing, unlike the established kit', () => {
    const base = [...r('bronze', 'passed'), ...r('silver', 'passed')];
    expect(grade([...base, ...r('gold', 'passed', 1), ...r('gold', 'skipped', 9)], 'established').achieved).toBe('silver');
  });
  it('a run that tested nothing reaches no tier, unlike the established kit', () => {
    expect(grade(r('gold', 'skipped', 3), 'established').achieved).toBeNull();
  });
});

describe('reaches', () => {
  it('compares tiers by rank', () => {
    expect(reaches('gold', 'bronze')).toBe(true);
    expect(reaches('bronze', 'silver')).toBe(false);
    expect(reaches(null, 'bronze')).toBe(false);
  });
});

describe('a narrowed selection (population given)', () => {
  it('a tier of which only part ran never passes, however well that part did', () => {
    const g = grade(r('bronze', 'passed', 13), 'strict', { bronze: 111 });
    expect(g.achieved).toBeNull();
    expect(g.tiers[0]).toMatchObject({ total: 13, passed: 13, passes: false, inLevel: 111 });
  });
  it('a tier that ran in full passes as before, and carries no inLevel', () => {
    const g = grade(r('bronze', 'passed', 3), 'strict', { bronze: 3 });
    expect(g.achieved).toBe('bronze');
    expect(g.tiers[0]).not.toHaveProperty('inLevel');
  });
});
