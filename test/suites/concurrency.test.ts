// Power of the concurrency scenarios (suites/*/concurrency.ts): each passes on the reference and on
// valid servers that serialise every request, answer out of arrival order or lock per session, and
// fails on a server with an `await` between a read and a write (variants/concurrency.ts). The
// sequential suites' half of the proof (no sequential scenario catches any of these races) is
// concurrency-sequential.test.ts, in the deep project.
import { POWER_PARTS, provePower } from '../harness/power.js';
import { FAULTS, VALID } from './variants/concurrency.js';

provePower('Concurrency (SCN-B-143 … 146, SCN-S-112 … 116, SCN-G-108 … 109)', POWER_PARTS['concurrency'], FAULTS, VALID);
