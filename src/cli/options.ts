// Option plumbing shared by the commands that talk to a target.
import { parseHeaderArgs, splitHeaderEnv } from '../profiles/http/headers.js';

/** --header values plus TCK_HEADERS, parsed; a malformed one is a usage error (InvalidHeaderError, exit 2). */
export function headersFrom(flags: string[] | undefined): Record<string, string> {
  return parseHeaderArgs([...splitHeaderEnv(process.env.TCK_HEADERS), ...(flags ?? [])]);
}
