// Exit codes (documented in the README) and the one-line error for the user.
export const EXIT = {
  ok: 0,
  /** The requested tier was not reached. */
  notReached: 1,
  /** Usage or configuration error. */
  usage: 2,
  /** The target cannot be reached at all. */
  unreachable: 3,
} as const;

/** An error meant for the user: printed as one line, no stack trace, with its exit code. */
export class TckError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
  }
}
