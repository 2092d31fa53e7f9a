// The rule every suite owes, checked across all of them: each scenario of the kit, bridge and
// hosted, has at least one faulty variant that it must fail, and belongs to exactly one power proof.
// The scenarios come from the suites (ALL_SCENARIOS, HOSTED_SCENARIOS), not from hand-kept lists, so
// a new scenario cannot escape; the faulty variants are the tables the proofs run.
import { describe, expect, it } from 'vitest';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { POWER_PARTS, type PowerPart } from '../harness/power.js';
import { FAULTS as bronzeA } from './variants/bronze-a.js';
import { FAULTS as bronzeB } from './variants/bronze-b.js';
import { FAULTS as silver } from './variants/silver.js';
import { FAULTS as gold } from './variants/gold.js';
import { FAULTS as fidelity } from './variants/fidelity.js';
import { FAULTS as concurrency } from './variants/concurrency.js';
import { FAULTS as platinum } from './variants/platinum.js';
import { FAULTS as histories2, PLATINUM_FAULTS as histories2Platinum } from './variants/histories-2.js';
import { FAULTS as hosted } from '../hosted/profile-variants.js';

/** The faulty variants of each proof: the scenario id of every row. */
const FAULTY: Record<PowerPart, string[]> = {
  'bronze-a': bronzeA.map((row) => row[0]),
  'bronze-b': bronzeB.map((row) => row[0]),
  silver: silver.map((row) => row[0]),
  gold: gold.map((row) => row[0]),
  fidelity: fidelity.map((row) => row[0]),
  concurrency: concurrency.map((row) => row[0]),
  platinum: platinum.map((row) => row[0]),
  'histories-2': [...histories2, ...histories2Platinum].map((row) => row[0]),
  hosted: hosted.map((row) => row[0]),
};
const EVERY = [...ALL_SCENARIOS, ...HOSTED_SCENARIOS].map((s) => s.id);
const PARTS = Object.keys(POWER_PARTS) as PowerPart[];

describe('the power proofs cover every scenario of the kit', () => {
  it('every scenario has at least one faulty variant', () => {
    const caught = new Set(Object.values(FAULTY).flat());
    expect(EVERY.filter((id) => !caught.has(id))).toEqual([]);
  });

  it('every scenario is in exactly one proof', () => {
    const inParts = (id: string) => PARTS.filter((p) => (POWER_PARTS[p] as readonly string[]).includes(id));
    expect(EVERY.map((id) => ({ id, parts: inParts(id) })).filter((x) => x.parts.length !== 1)).toEqual([]);
  });

  it('every faulty variant is run against a scenario of its own proof', () => {
    const strays = PARTS.flatMap((p) => FAULTY[p].filter((id) => !(POWER_PARTS[p] as readonly string[]).includes(id)).map((id) => `${p}: ${id}`));
    expect(strays).toEqual([]);
  });
});
