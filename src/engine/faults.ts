// What can end a scenario other than passing. Each fault maps to one outcome:
// AssertionFailure and SchemaViolation -> failed; ProtocolFault and TransportFault -> error
// (except "not implemented", which counts as failed); ScenarioTimeout -> error.

export abstract class ScenarioFault extends Error {
  abstract readonly outcome: 'failed' | 'error';
}

/** A behaviour rule was broken: what was expected and what came back. */
export class AssertionFailure extends ScenarioFault {
  readonly outcome = 'failed' as const;
  constructor(
    message: string,
    readonly expected?: unknown,
    readonly actual?: unknown,
  ) {
    super(message);
  }
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

/** A scenario declared that it cannot run here (e.g. a precondition the target lacks). */
export class SkipScenario extends Error {}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
