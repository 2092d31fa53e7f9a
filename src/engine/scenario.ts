// A scenario: one stable id, its tier, the clauses it checks, and a body that reads like them.
import type { ScenarioContext } from '../profiles/bridge/context.js';

export type ScenarioTier = 'bronze' | 'silver' | 'gold';
export const TIERS: readonly ScenarioTier[] = ['bronze', 'silver', 'gold'];

export interface Scenario {
  /** SCN-B-001… (registry counterparts keep the established ids; ours start at 101). */
  id: string;
  tier: ScenarioTier;
  /** Spec clauses checked (SPEC-2.1.1 …; PROTO-… for bridge-protocol rules). */
  clauses: string[];
  /** One line: what the scenario is about. */
  title: string;
  /** One or two lines for `tck explain`: what it does and what it asserts. */
  asserts: string;
  /** Group inside the tier, for reports (e.g. "short-term", "protocol"). */
  group: string;
  run(ctx: ScenarioContext): Promise<void>;
}

export function defineScenario(s: Scenario): Scenario {
  if (!/^SCN-[BSG]-\d{3}$/.test(s.id)) throw new Error(`bad scenario id ${s.id}`);
  const letter = s.id[4];
  if ({ B: 'bronze', S: 'silver', G: 'gold' }[letter as 'B'] !== s.tier) {
    throw new Error(`${s.id}: id letter does not match tier ${s.tier}`);
  }
  return s;
}
