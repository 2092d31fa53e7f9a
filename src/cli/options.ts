// Option plumbing shared by the commands that talk to a target.
import { BridgeUsageError, InvalidHeaderError, parseHeaderArgs, splitHeaderEnv } from '../profiles/bridge/index.js';
import { TargetUnreachable } from '../engine/runner.js';
import { SelectionError } from '../engine/select.js';
import { EXIT, TckError } from '../engine/errors.js';

/** --header values plus TCK_HEADERS, parsed; a malformed one is a usage error. */
export function headersFrom(flags: string[] | undefined): Record<string, string> {
  try {
    return parseHeaderArgs([...splitHeaderEnv(process.env.TCK_HEADERS), ...(flags ?? [])]);
  } catch (err) {
    if (err instanceof InvalidHeaderError) throw new TckError(err.message);
    throw err;
  }
}

/** A run's own errors as the user meets them: an unreachable target exits 3, bad input exits 2. */
export function err: unknown): unknown {
  if (err instanceof TargetUnreachable) return new TckError(err.message, EXIT.unreachable;
  if (err instanceof BridgeUsageError || err instanceof SelectionError) return new TckError(err.message);
  return err;
}
