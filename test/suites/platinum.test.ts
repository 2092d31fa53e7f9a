// Power of the Platinum scenarios SCN-P-001 … SCN-P-011 and SCN-P-101 … SCN-P-125: each passes on
// the reference (a HostedStore, the store that implements Volume 5) and on variants that make
// other allowed choices, and fails on a variant that breaks exactly the rule it checks. A server
// without the Platinum methods (MemoryStore: they answer 501) fails every Platinum scenario as
// "not implemented" and still reaches Gold; Platinum is reached only when it is asked for.
import { describe, expect, it } from 'vitest';
import { platinum } from '../../suites/platinum/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { FAULTS, VALID, run } from './variants/platinum.js';
import { MemoryStore } from '../../src/servers/bridge/index.js';
import { grade } from '../../src/engine/grading.js';
import { selectScenarios } from '../../src/engine/select.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { runOnVariant, type Wrap } from '../harness/variants.js';
import { POWER_PARTS, provePowerWith } from '../harness/power.js';
import { METHODS, isMethodName } from '../../src/protocols/bridge/index.js';

const platinumMethod = (m: string) => isMethodName(m) && METHODS[m].tier === 'platinum';

const IDS = platinum.map((s) => s.id);

provePowerWith('Platinum scenarios', POWER_PARTS['platinum'], FAULTS, VALID, run);

describe('a server without the Platinum methods', () => {
  it('fails every Platinum scenario as not implemented (never a crash) and still reaches Gold', async () => {
    const results = await runOnVariant({ store: new MemoryStore() }, selectScenarios(ALL_SCENARIOS, { tier: 'platinum' }).map((s) => s.id));
    const plat = results.filter((r) => IDS.includes(r.id));
    expect(plat).toHaveLength(IDS.length);
    expect(plat.filter((r) => !(r.outcome === 'failed' && /not implemented/.test(r.message ?? ''))).map((r) => `${r.id} ${r.outcome} ${r.message}`)).toEqual([]);
    const g = grade(results);
    expect(g.achieved).toBe('gold');
    expect(g.tiers.find((t) => t.tier === 'platinum')).toMatchObject({ total: IDS.length, passed: 0, passes: false });
  });

  it('a server that answers the Platinum methods 404 (no such route) fails them as not implemented too', async () => {
    const missing: Wrap = (next) => (m, b) => (platinumMethod(m) ? { status: 404, body: { error: `unknown method: ${m}` } } : next(m, b));
    const results = await runOnVariant({ store: new HostedStore(), wrap: missing }, ['SCN-P-001', 'SCN-P-011']);
    expect(results.map((r) => [r.id, r.outcome, /not implemented/.test(r.message ?? '')])).toEqual([['SCN-P-001', 'failed', true], ['SCN-P-011', 'failed', true]]);
  });

  it('a default run (tier gold) selects no Platinum scenario: Gold is the highest tier it can report', () => {
    const selected = selectScenarios(ALL_SCENARIOS, {});
    expect(selected.filter((s) => s.tier === 'platinum')).toEqual([]);
    expect(selectScenarios(ALL_SCENARIOS, { tier: 'platinum' }).filter((s) => s.tier === 'platinum').map((s) => s.id)).toEqual(IDS.slice().sort((a, b) => a.localeCompare(b)));
  });

  it('Platinum is not reached unless every Platinum scenario ran and passed (both rules)', () => {
    const base = ALL_SCENARIOS.filter((s) => s.tier !== 'platinum').map((s) => ({ tier: s.tier, outcome: 'passed' as const }));
    const plat = IDS.map(() => ({ tier: 'platinum' as const, outcome: 'passed' as const }));
    expect(grade([...base, ...plat]).achieved).toBe('platinum');
    const oneSkipped = [...base, ...plat.slice(1), { tier: 'platinum' as const, outcome: 'skipped' as const }];
    expect(grade(oneSkipped).achieved).toBe('gold');
    expect(grade(oneSkipped, 'established').achieved).toBe('gold');
    expect(grade(base).achieved).toBe('gold');
  });
});
