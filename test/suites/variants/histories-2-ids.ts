// The scenarios of suites/*/histories-2.ts (issue 34): one proof, test/suites/histories-2.test.ts.
import { scenarios as bronze } from '../../../suites/bronze/histories-2.js';
import { scenarios as silver } from '../../../suites/silver/histories-2.js';
import { scenarios as gold } from '../../../suites/gold/histories-2.js';
import { scenarios as platinum } from '../../../suites/platinum/histories-2.js';

export const HISTORIES_2: readonly string[] = [...bronze, ...silver, ...gold, ...platinum].map((s) => s.id);
/** The Platinum ones: run on the hosted reference store (the store that implements Volume 5). */
export const HISTORIES_2_PLATINUM: readonly string[] = platinum.map((s) => s.id);
