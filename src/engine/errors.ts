// The kit's one error root. Every error meant for the person running the kit is a TckError: it
// carries a stable `code` and, through EXIT_CODES below, the process exit code the CLI returns for
// it. This table is the only place where an error becomes an exit code; the README's exit-code
// table lists every value of EXIT; docs/exit-codes.md says which situation gives which code and line.

/** Every exit code the CLI can return (README, "Exit codes"; docs/exit-codes.md). */
export const EXIT = {
  ok: 0,
  /** The requested tier (or the selection) was not reached; a gate failed; a regression. */
  notReached: 1,
  /**
   * Usage or configuration error, a report that could not be written, or a target that answers
   * but cannot be tested (credentials refused, not a server of the protocol).
   */
  usage: 2,
  /** Nothing answered at the target at all. */
  unreachable: 3,
  /** A defect of the kit itself (EX_SOFTWARE). */
  internal: 70,
  /** Interrupted by SIGINT / SIGTERM (128 + the signal number). */
  sigint: 130,
  sigterm: 143,
} as const;

/** The codes of TckError and the exit code each one means. */
export const EXIT_CODES = {
  /** A flag, argument or environment value the kit cannot use. */
  TCK_USAGE: EXIT.usage,
  /** A malformed `--header`/TCK_HEADERS entry. */
  TCK_INVALID_HEADER: EXIT.usage,
  /** A URL that is not an absolute http(s) URL. */
  TCK_INVALID_TARGET: EXIT.usage,
  /** --scenario/--skip/--grep naming nothing the kit has. */
  TCK_SELECTION: EXIT.usage,
  /** A report, baseline or bundle file that cannot be read or is not valid. */
  TCK_BAD_FILE: EXIT.usage,
  /** A port in use, a host that cannot be bound. */
  TCK_LISTEN: EXIT.usage,
  /** Nothing answered the first request. */
  TCK_UNREACHABLE: EXIT.unreachable,
  /** The target answers but cannot be tested: credentials refused, or not a server of the protocol. */
  TCK_REFUSED: EXIT.usage,
} as const;
export type TckErrorCode = keyof typeof EXIT_CODES;

export class TckError extends Error {
  constructor(
    message: string,
    readonly code: TckErrorCode = 'TCK_USAGE',
  ) {
    super(message);
    this.name = 'TckError';
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }
}

/** The exit code of anything thrown: a TckError's own, otherwise a defect of the kit. */
export function exitCodeOfError(err: unknown): number {
  return err instanceof TckError ? err.exitCode : EXIT.internal;
}
