// Every valid server of the test harness, in one list, for explore's false-alarm proof: the harness's
// valid variants (test/harness/valid-variants.ts: VARIANTS each reaching Gold, PLATINUM_VARIANTS
// each reaching Platinum), the valid rows of the suites'
// variant tables (test/suites/variants/*.ts), and the Platinum ones (over the hosted reference
// store). A suite's valid row is proven valid against its own part of the suites only; the rows
// that break a rule another part checks are listed in PART_ONLY with that rule, and explore is
// expected to find exactly that.
import { HostedStore } from '../../src/servers/hosted/store.js';
import { MemoryStore } from '../../src/servers/bridge/index.js';
import type { Variant } from '../harness/power.js';
import { PLATINUM_VARIANTS, VARIANTS } from '../harness/valid-variants.js';
import type { VariantOptions } from '../harness/variants.js';
import { VALID as BRONZE_A } from '../suites/variants/bronze-a.js';
import { VALID as BRONZE_B } from '../suites/variants/bronze-b.js';
import { VALID as FIDELITY } from '../suites/variants/fidelity.js';
import { VALID as GOLD } from '../suites/variants/gold.js';
import { VALID as PLATINUM } from '../suites/variants/platinum.js';
import { VALID as SILVER } from '../suites/variants/silver.js';

interface ValidServer {
  /** `<name>` for the harness's variants, `<table>: <name>` for a suite's valid row. */
  name: string;
  make: () => VariantOptions;
  /** Over the hosted reference store: explore may draw the Platinum methods. */
  platinum?: true;
  /** It implements Bronze only (explore is asked for --methods bronze). */
  bronzeOnly?: true;
}

/** A suite row's variant as options, on a fresh store each time (a stateful store must not be shared between runs). */
function optionsOf(v: Variant): VariantOptions {
  if (typeof v === 'function') return { wrap: v };
  if (v.store === undefined) return v;
  const Store = v.store.constructor as new () => MemoryStore;
  return { ...v, store: new Store() };
}

const rows = (table: string, list: readonly [string, Variant][]): ValidServer[] => list.map(([name, v]) => ({ name: `${table}: ${name}`, make: () => optionsOf(v) }));

/**
 * Suite rows valid only against their own part: the rule each breaks (a scenario of another part
 * fails on it), so explore must not be held to silence there. Measured by
 * test/explore/no-false-alarm.test.ts (each still fails that scenario).
 */
export const PART_ONLY: Record<string, { breaks: string; scenario: string }> = {
  'bronze-b: timestamps in other zones, with microseconds (strings sort backwards)': {
    breaks: 'SPEC-1.1.14 (a message read back carries another instant than its creation time)', scenario: 'SCN-B-001',
  },
  'bronze-a: uppercase UUIDs': {
    breaks: 'SPEC-3.7.1, SPEC-4.5.1 … (it answers ids in upper case and accepts them back in delete_message only)', scenario: 'SCN-B-128',
  },
  'bronze-b: the target implements Bronze only (Silver and Gold answer 500 {"error": …})': {
    breaks: 'SPEC-4.1.1, SPEC-3.1.x … (it refuses every Silver and Gold method; valid for Bronze, which needs none)', scenario: 'SCN-S-022',
  },
  'silver: follows outgoing relationships only': {
    breaks: 'SPEC-5.3.2 (its outgoing edges are the ones add_relationship made: a merge does not move them)', scenario: 'SCN-G-013',
  },
};

export const VALID_SERVERS: ValidServer[] = [
  ...VARIANTS.map(([name, make]) => ({ name, make })),
  ...PLATINUM_VARIANTS.map(([name, make]): ValidServer => ({ name, make, platinum: true })),
  ...rows('bronze-a', BRONZE_A),
  ...rows('bronze-b', BRONZE_B).map((s) => (s.name === 'bronze-b: the target implements Bronze only (Silver and Gold answer 404)' ? { ...s, bronzeOnly: true as const } : s)),
  ...rows('fidelity', FIDELITY),
  ...rows('gold', GOLD),
  ...rows('silver', SILVER),
  ...PLATINUM.map(([name, v]): ValidServer => ({
    name: `platinum: ${name}`, platinum: true,
    make: () => ({ store: v.ticking ? new HostedStore({ now: ticking() }) : new HostedStore(), ...(v.wrap ? { wrap: v.wrap } : {}) }),
  })),
];

/**
 * The servers tck explore must find nothing on (no-false-alarm.test.ts): the embedded reference
 * and every valid server but the PART_ONLY rows.
 */
export const HELD_SILENT: ValidServer[] = [
  { name: 'the embedded reference', make: () => ({}) },
  ...VALID_SERVERS.filter((s) => PART_ONLY[s.name] === undefined),
];

/**
 * The Platinum table's ticking clock ("created_at values differ: a real clock between calls"),
 * here a real clock that moves on by at least 1 ms on each reading, so it stays near the kit's
 * (the table's starts in January 2026: fine for the Platinum scenarios, which never compare a
 * timestamp with the kit's clock, but not a clock any Bronze rule allows).
 */
function ticking(): () => Date {
  let t = 0;
  return () => new Date((t = Math.max(Date.now(), t + 1)));
}
