// A scenario of the hosted profile: the engine's scenario shape with a group of the profile
// (graded on its own) instead of a tier, and a HostedContext.
import type { ScenarioBase } from '../../engine/scenario.js';
import { HOSTED_GROUPS, type HostedGroup } from '../../protocols/hosted/document.js';
import type { HostedContext } from './context.js';

export { HOSTED_GROUPS, type HostedGroup };

/** What `tck list` and the reports show in the place of a bridge tier. */
export const HOSTED_PROFILE = 'hosted';

/** SCN-H-001…; clauses: HOSTED-… for hosted-rest-api.md, RFC…-member for the RFCs it names. */
export interface HostedScenario extends ScenarioBase<HostedContext> {
  group: HostedGroup;
}

export function defineHostedScenario(s: HostedScenario): HostedScenario {
  if (!/^SCN-H-\d{3}$/.test(s.id)) throw new Error(`bad hosted scenario id ${s.id}`);
  if (!(HOSTED_GROUPS as readonly string[]).includes(s.group)) throw new Error(`${s.id}: unknown group ${s.group}`);
  return s;
}
