// Power of the Bronze scenarios of part A, SCN-B-001 … SCN-B-054 and SCN-B-101, SCN-B-102 (the data
// model, add_message, get_conversation): each passes on the reference server and on every valid
// variant, and fails on a variant that breaks exactly the rule it checks (variants/bronze-a.ts).
import { POWER_PARTS, provePower } from '../harness/power.js';
import { FAULTS, VALID } from './variants/bronze-a.js';

provePower('Bronze part A (SCN-B-001 … 054, 101, 102)', POWER_PARTS['bronze-a'], FAULTS, VALID);
