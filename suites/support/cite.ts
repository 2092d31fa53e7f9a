// The check a helper makes: citing the sentences its caller names, else the scenario's clauses.
import { check, type Check } from '../../src/engine/assert.js';
import { UnexpectedError } from '../../src/engine/faults.js';

/** Sentence ids of the clause map (src/protocols/clauses): what a helper's assertion enforces. */
export type Cites = readonly string[];

/** `check.by(...cites)`, or the plain check (the scenario's clauses) when none are named. */
export const citing = (cites?: Cites): Check => (cites !== undefined && cites.length > 0 ? check.by(...cites) : check);

/**
 * Awaits a call that `cites` says must succeed ("MUST accept", "MUST NOT raise an error"): a refusal
 * (400/500, UnexpectedError) cites those sentences before the method's own row; a success is recorded
 * under them.
 */
export async function mustSucceed<T>(call: Promise<T>, what: string, cites: Cites): Promise<T> {
  try {
    const value = await call;
    check.by(...cites).ok(true, `${what}: succeeds`);
    return value;
  } catch (err) {
    if (err instanceof UnexpectedError) err.cites = [...cites, ...(err.cites ?? [])];
    throw err;
  }
}
