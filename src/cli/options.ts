// Option plumbing shared by the commands that talk to a target.
import { InvalidHeaderError, parseHeaderArgs, splitHeaderEnv } from '../bridge/index.js';
import { CliError } from './exit.js';

/** --header values plus TCK_HEADERS, parsed; a malformed one is a usage error. */
export function headersFrom(flags: string[] | undefined): Record<string, string> {
  try {
    return parseHeaderArgs([...splitHeaderEnv(process.env.TCK_HEADERS), ...(flags ?? [])]);
  } catch (err) {
    if (err instanceof InvalidHeaderError) throw new CliError(err.message);
    throw err;
  }
}
