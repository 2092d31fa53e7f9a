// The reporter names of `--reporter` (kept apart from the renderers so the CLI parses them cheaply).
import { TckError } from '../../engine/errors.js';
export const REPORTER_NAMES = ['console', 'json', 'junit', 'html', 'md', 'badge'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];
export type FileFormat = Exclude<ReporterName, 'console'>;
export const DEFAULT_REPORTERS: readonly ReporterName[] = ['console', 'json', 'junit', 'html'];

export class UnknownReporterError extends TckError {}

/** `console,json,junit` (comma-separated, repeatable) to reporter names; an unknown name throws. */
export function parseReporters(values: readonly string[]): ReporterName[] {
  const names = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');
  for (const n of names) {
    if (!(REPORTER_NAMES as readonly string[]).includes(n)) {
      throw new UnknownReporterError(`unknown reporter ${JSON.stringify(n)} (choose from ${REPORTER_NAMES.join(', ')})`);
    }
  }
  return [...new Set(names as ReporterName[])];
}
