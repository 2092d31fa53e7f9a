// Power of the Silver scenarios SCN-S-001 … SCN-S-067 and SCN-S-101 … SCN-S-103: each passes on
// the reference server and on variants that make other allowed choices, and fails on a variant that
// breaks exactly the rule it checks, with a message naming that rule (variants/silver.ts).
import { POWER_PARTS, provePower } from '../harness/power.js';
import { FAULTS, VALID } from './variants/silver.js';

provePower('Silver (SCN-S-001 … 067, 101 … 103)', POWER_PARTS['silver'], FAULTS, VALID);
