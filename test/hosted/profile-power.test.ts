// The power of the hosted profile: every scenario passes on the hosted reference service and on
// variants that make other choices the document leaves open, and fails on a variant that breaks
// exactly the rule it checks, with a message naming that rule (profile-variants.ts).
import { POWER_PARTS, provePowerWith } from '../harness/power.js';
import { runOnHostedVariant } from './profile-harness.js';
import { FAULTS, VALID } from './profile-variants.js';

provePowerWith('the hosted profile', POWER_PARTS.hosted, FAULTS, VALID, (variant, ids) => runOnHostedVariant(variant, ids));
