// What can end a scenario other than passing. Each fault maps to one outcome:
// AssertionFailure and SchemaViolation -> failed; ProtocolFault and TransportFault -> error
// (except "not implemented", which counts as failed); ScenarioTimeout -> error.

/** `judged.exchange` of a failure about the scenario's latest call: the runner puts in its index. */
export const LATEST_CALL = -1;

export abstract class ScenarioFault extends Error {
  abstract readonly outcome: 'failed' | 'error';
  /** Set by the profile for a fault of one call's answer: which exchange, and the statuses it should have had. */
  judged?: { exchange: number; status: number[] };
  /** The sentences of the clause map the broken assertion enforces (set by the check or the profile). */
  cites?: readonly string[];
}

/**
 * A behaviour rule was broken: what was expected and what came back. `expected` is kept only when
 * it is comparable with `actual` (see comparable): a rule in words ("a stored message") set against
 * a JSON item would make a diff of unlike things; the message says the rule.
 */
export class AssertionFailure extends ScenarioFault {
  readonly outcome = 'failed' as const;
  readonly expected?: unknown;
  constructor(
    message: string,
    expected?: unknown,
    readonly actual?: unknown,
  ) {
    super(message);
    if (comparable(expected, actual)) this.expected = expected;
  }
}

/** The JSON kind of a value, as far as a diff of expected against actual cares. */
const kindOf = (v: unknown): 'array' | 'object' | 'scalar' => (Array.isArray(v) ? 'array' : v !== null && typeof v === 'object' ? 'object' : 'scalar');

/**
 * Expected and actual are like with like: both lists, both objects, or both scalars (two scalars
 * never make a diff, the message shows them). Undefined on either side compares with anything.
 */
function comparable(expected: unknown, actual: unknown): boolean {
  return expected === undefined || actual === undefined || kindOf(expected) === kindOf(actual);
}

/** A response did not match the data model. */
export class SchemaViolation extends ScenarioFault {
  readonly outcome = 'failed' as const;
  constructor(
    readonly method: string,
    readonly issues: string[],
  ) {
    super(`${method}: response does not match the data model:\n  ${issues.join('\n  ')}`);
  }
}

/** A method answered 400/500 {"error"} where the scenario needed success. */
export class UnexpectedError extends ScenarioFault {
  readonly outcome = 'failed' as const;
  constructor(
    readonly method: string,
    readonly status: number,
    readonly serverMessage: string,
  ) {
    super(`${method}: expected success, got ${status} {"error": ${JSON.stringify(serverMessage)}}`);
  }
}

/** The answer broke the protocol's response rules (status or shape), or the method is missing. */
export class ProtocolFault extends ScenarioFault {
  readonly outcome: 'failed' | 'error';
  constructor(
    readonly method: string,
    readonly reason: string,
    readonly notImplemented = false,
  ) {
    super(
      notImplemented && !reason.startsWith('not implemented') ? `${method}: not implemented (${reason})` : prefixed(method, reason),
    );
    // A missing method is a gap in the implementation, graded as a failure of its tier.
    this.outcome = notImplemented ? 'failed' : 'error';
  }
}

/** The target could not be reached or did not answer in time. */
export class TransportFault extends ScenarioFault {
  readonly outcome = 'error' as const;
  constructor(
    readonly method: string,
    readonly failure: string,
    readonly reason: string,
  ) {
    super(prefixed(method, reason));
  }
}

/** "method: reason", without naming the method twice when the reason already starts with it. */
function prefixed(method: string, reason: string): string {
  return reason.startsWith(`${method}: `) ? reason : `${method}: ${reason}`;
}

export class ScenarioTimeout extends ScenarioFault {
  readonly outcome = 'error' as const;
  constructor(readonly ms: number) {
    super(`scenario did not finish within ${formatSeconds(ms)}`);
  }
}

/**
 * A scenario declared that it cannot run here (e.g. a precondition the target lacks). `needs`: the
 * input the run lacked, as the flag that gives it (`--idp-token`); a level whose only shortfall is
 * such skips is incomplete, not failed (src/engine/grading.ts).
 */
export class SkipScenario extends Error {
  constructor(
    message: string,
    readonly needs?: string,
  ) {
    super(message);
  }
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
