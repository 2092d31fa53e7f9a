// SIGINT and SIGTERM during `tck run`. The first one stops the run — the running scenario's call
// is cancelled, the rest is reported as not run — and lets the command write its reports, marked
// `interrupted`, and exit 130 (SIGINT) or 143 (SIGTERM). A second one exits at once, without
// waiting for anything.
import { EXIT } from '../engine/errors.js';
import { RunStopped } from '../engine/runner.js';

/** The conventional exit codes: 128 + the signal number. */
export const SIGNAL_EXIT = { SIGINT: EXIT.sigint, SIGTERM: EXIT.sigterm } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

interface Interrupts {
  /** Aborted (with a RunStopped) by the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** The first signal received, if any. */
  readonly received: StopSignal | undefined;
  /** Restores the default handling of both signals. */
  dispose(): void;
}

export function watchInterrupts(stderr: NodeJS.WritableStream = process.stderr): Interrupts {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const handlers: Array<[StopSignal, () => void]> = [];
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    const handler = () => {
      if (received !== undefined) {
        stderr.write(`tck: ${sig} again: exiting without waiting for the reports\n`);
        process.exit(SIGNAL_EXIT[sig]);
      }
      received = sig;
      stderr.write(`tck: ${sig} received: stopping the run and writing a partial report (send it again to exit at once)\n`);
      controller.abort(new RunStopped(`interrupted by ${sig}`));
    };
    handlers.push([sig, handler]);
    process.on(sig, handler);
  }
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    dispose() {
      for (const [sig, handler] of handlers.splice(0)) process.off(sig, handler);
    },
  };
}
