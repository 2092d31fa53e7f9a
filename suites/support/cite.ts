// The check a helper makes: citing the sentences its caller names, else the scenario's clauses.
import { check, type Check } from '../../src/engine/assert.js';

/** Sentence ids of the clause map (src/protocols/clauses): what a helper's assertion enforces. */
export type Cites = readonly string[];

/** `check.by(...cites)`, or the plain check (the scenario's clauses) when none are named. */
export const citing = (cites?: Cites): Check => (cites !== undefined && cites.length > 0 ? check.by(...cites) : check);
