// A scenario of the hosted profile: the engine's scenario shape (id, group, clauses, title,
// asserts, run), with a group of the profile instead of a tier, and a HostedContext.
import type { HostedContext } from './context.js';

export const HOSTED_GROUPS = ['resources', 'credentials', 'discovery'] as const;
export type HostedGroup = (typeof HOSTED_GROUPS)[number];

/** What `tck list` and the reports show in the place of a bridge tier. */
export const HOSTED_PROFILE = 'hosted';

export interface HostedScenario {
  /** SCN-H-001… */
  id: string;
  group: HostedGroup;
  /** Rules checked: HOSTED-… for hosted-rest-api.md, RFC…-member for the RFCs it names. */
  clauses: string[];
  title: string;
  /** One or two lines for `tck explain`. */
  asserts: string;
  run(ctx: HostedContext): Promise<void>;
}

export function defineHostedScenario(s: HostedScenario): HostedScenario {
  if (!/^SCN-H-\d{3}$/.test(s.id)) throw new Error(`bad hosted scenario id ${s.id}`);
  if (!(HOSTED_GROUPS as readonly string[]).includes(s.group)) throw new Error(`${s.id}: unknown group ${s.group}`);
  return s;
}
