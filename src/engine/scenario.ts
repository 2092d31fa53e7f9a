// A scenario: one stable id, the clauses it checks, and a body that reads like them. The engine
// knows no protocol: `C` is the context a profile hands the body (the bridge's ScenarioContext,
// the hosted profile's HostedContext).

/**
 * The bridge tiers, lowest first; grading reaches them in this order. Platinum (the established
 * kit's Volume 5, hosted-service operations) is optional: a run selects it only when asked
 * (`--tier platinum`), and a server without it still reaches Gold.
 */
export const TIERS = ['bronze', 'silver', 'gold', 'platinum'] as const;
export type ScenarioTier = (typeof TIERS)[number];
/** The highest tier a run selects unless told otherwise (Platinum is opt-in). */
export const DEFAULT_TIER = 'gold' satisfies ScenarioTier;

export interface ScenarioBase<C> {
  /** SCN-B-001… (registry counterparts keep the established ids; ours start at 101). */
  id: string;
  /** Spec clauses checked (SPEC-2.1.1 …; PROTO-… for bridge-protocol rules; HOSTED-… for the hosted document). */
  clauses: string[];
  /** One line: what the scenario is about. */
  title: string;
  /** One or two lines for `tck explain`: what it does and what it asserts. */
  asserts: string;
  /** Group, for reports (e.g. "short-term", "protocol", "credentials"). */
  group: string;
  run(ctx: C): Promise<void>;
}

/** A scenario graded in a tier (the bridge suites). */
export interface TieredScenario<C> extends ScenarioBase<C> {
  tier: ScenarioTier;
}
