// Power of the Gold scenarios SCN-G-001 … SCN-G-018 and SCN-G-101 … SCN-G-103: each passes on the
// reference server and on variants that make other allowed Gold choices, and fails on a variant that
// breaks exactly the rule it checks, with a message naming that rule (variants/gold.ts).
import { POWER_PARTS, provePower } from '../harness/power.js';
import { FAULTS, VALID } from './variants/gold.js';

provePower('Gold (SCN-G-001 … 018, 101 … 103)', POWER_PARTS['gold'], FAULTS, VALID);
