// Baseline semantics: a listed failure is allowed, an unlisted one fails the gate, a listed
// scenario that passes fails it too ("fixed: remove … from the baseline"), and a bad file is named.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BaselineError, baselineFrom, evaluateBaseline, loadBaseline, type Baseline } from '../../src/report/baseline.js';
import type { Report, ReportScenario } from '../../src/report/model.js';
import { tempDir } from './support.js';

type Outcome = ReportScenario['outcome'];

function reportOf(outcomes: Record<string, Outcome>, extra: Partial<Report> = {}): Report {
  const scenarios = Object.entries(outcomes).map(
    ([id, outcome]): ReportScenario => ({
      id,
      tier: 'bronze',
      group: 'g',
      clauses: ['SPEC-1'],
      title: `title of ${id}`,
      outcome,
      ...(outcome === 'passed' ? {} : { message: `${id} went wrong\nsecond line` }),
      durationMs: 1,
      exchanges: [],
      notes: [],
    }),
  );
  return { scenarios, interrupted: false, endedAt: '2026-01-01T00:00:00Z', kit: { name: 'agent-memory-tck', version: '0.1.0', protocol: '0.1.0' }, target: { url: 'http://h', embedded: false }, ...extra } as Report;
}

const baseline = (...ids: string[]): Baseline => ({
  format: 'agent-memory-tck/baseline',
  formatVersion: '1.0',
  scenarios: ids.map((id) => ({ id, reason: `known: ${id}` })),
});

describe('evaluateBaseline', () => {
  it('a listed failure (failed or error) is allowed: the gate passes', () => {
    const gate = evaluateBaseline(reportOf({ 'SCN-B-001': 'failed', 'SCN-B-002': 'error', 'SCN-B-003': 'passed' }), baseline('SCN-B-001', 'SCN-B-002'), 'kf.json');
    expect(gate).toEqual({
      baseline: 'kf.json',
      passed: true,
      known: [
        { id: 'SCN-B-001', outcome: 'failed', reason: 'known: SCN-B-001' },
        { id: 'SCN-B-002', outcome: 'error', reason: 'known: SCN-B-002' },
      ],
      unexpected: [],
      fixed: [],
      unchecked: [],
    });
  });

  it('a failure not listed fails the gate', () => {
    const gate = evaluateBaseline(reportOf({ 'SCN-B-001': 'failed', 'SCN-B-002': 'failed' }), baseline('SCN-B-001'), 'kf.json');
    expect(gate.passed).toBe(false);
    expect(gate.unexpected).toEqual([{ id: 'SCN-B-002', outcome: 'failed' }]);
  });

  it('a listed scenario that now passes fails the gate, as fixed', () => {
    const gate = evaluateBaseline(reportOf({ 'SCN-B-001': 'passed' }), baseline('SCN-B-001'), 'kf.json');
    expect(gate.passed).toBe(false);
    expect(gate.fixed).toEqual(['SCN-B-001']);
  });

  it('a listed scenario that did not run here is neither allowed nor fixed; an interrupted run never passes', () => {
    const gate = evaluateBaseline(reportOf({ 'SCN-B-001': 'skipped', 'SCN-B-002': 'not-run' }), baseline('SCN-B-001', 'SCN-B-002', 'SCN-B-003'), 'kf.json');
    expect(gate).toMatchObject({ passed: true, unchecked: ['SCN-B-001', 'SCN-B-002', 'SCN-B-003'], fixed: [] });
    expect(evaluateBaseline(reportOf({ 'SCN-B-001': 'passed' }, { interrupted: true }), baseline(), 'kf.json').passed).toBe(false);
  });
});

describe('baselineFrom', () => {
  it("lists the run's failures; a scenario already in the previous baseline keeps its reason", () => {
    const b = baselineFrom(reportOf({ 'SCN-B-001': 'failed', 'SCN-B-002': 'error', 'SCN-B-003': 'passed' }), baseline('SCN-B-002'));
    expect(b.scenarios).toEqual([
      { id: 'SCN-B-001', reason: 'failed: SCN-B-001 went wrong' },
      { id: 'SCN-B-002', reason: 'known: SCN-B-002' },
    ]);
    expect(b.generated).toEqual({ at: '2026-01-01T00:00:00Z', kit: 'agent-memory-tck 0.1.0', target: 'http://h' });
  });
});

describe('loadBaseline', () => {
  const write = (content: string) => {
    const path = join(tempDir(), 'kf.json');
    writeFileSync(path, content);
    return path;
  };
  it('reads a valid file', async () => {
    expect(await loadBaseline(write(JSON.stringify(baseline('SCN-B-001'))))).toEqual(baseline('SCN-B-001'));
  });
  it.each([
    ['not JSON', '{', /is not JSON|not JSON/],
    ['a reason missing', JSON.stringify({ ...baseline(), scenarios: [{ id: 'SCN-B-001', reason: ' ' }] }), /scenarios\[0\]\.reason: say why/],
    ['a bad id', JSON.stringify({ ...baseline(), scenarios: [{ id: 'B-1', reason: 'r' }] }), /scenarios\[0\]\.id: a scenario id/],
    ['an id listed twice', JSON.stringify(baseline('SCN-B-001', 'SCN-B-001')), /SCN-B-001 is listed twice/],
    ['another format', JSON.stringify({ scenarios: [] }), /format/],
  ])('names what is wrong: %s', async (_what, content, message) => {
    const path = write(content);
    await expect(loadBaseline(path)).rejects.toThrow(BaselineError);
    await expect(loadBaseline(path)).rejects.toThrow(message);
  });
  it('a missing file', async () => {
    await expect(loadBaseline('/nonexistent/kf.json')).rejects.toThrow(/cannot read baseline \/nonexistent\/kf.json: ENOENT/);
  });
});
