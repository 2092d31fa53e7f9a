// Power of the fidelity scenarios (defects only visible after history, with inputs that expose
// truncation, normalisation and case-folding, or at the HTTP level): each fails a server breaking
// its one rule, with a message naming the method, what was sent and got, and the clause
// (variants/fidelity.ts).
import { POWER_PARTS, provePower } from '../harness/power.js';
import { FAULTS, VALID } from './variants/fidelity.js';

provePower('fidelity: history, truncation, case-folding and framing', POWER_PARTS.fidelity, FAULTS, VALID);
