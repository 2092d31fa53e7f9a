// The hosted profile: the scenario files of this folder, by group then id.
import { HOSTED_GROUPS, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { scenarios as resources } from './resources.js';
import { scenarios as readback } from './readback.js';
import { scenarios as credentials } from './credentials.js';
import { scenarios as attacks } from './attacks.js';
import { scenarios as discovery } from './discovery.js';
import { scenarios as isolation } from './isolation.js';
import { scenarios as values } from './values.js';
import { scenarios as histories } from './histories.js';

export const HOSTED_SCENARIOS: readonly HostedScenario[] = [...resources, ...readback, ...credentials, ...attacks, ...isolation, ...values, ...histories, ...discovery].sort(
  (a, b) => HOSTED_GROUPS.indexOf(a.group) - HOSTED_GROUPS.indexOf(b.group) || a.id.localeCompare(b.id),
);
