// Reading a report.json back (for `tck report`, `tck diff`, `--only-failed`), and the one
// normalisation every output goes through, so a direct run and `tck report` render the same bytes.
import { TckError } from '../engine/errors.js';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ReportSchema, type Report } from './model.js';
import { inWords, showInvisibles } from '../util/words.js';

/** A report file that cannot be read or is not a report of this format. */
export class ReportFileError extends TckError {
  constructor(message: string) {
    super(message, 'TCK_BAD_FILE');
  }
}

/**
 * The report exactly as report.json holds it: a JSON round trip (undefined dropped, values made
 * plain) and the schema's parse (unknown keys dropped). Throws when the report breaks its schema.
 */
export function normalizeReport(report: Report): Report {
  return ReportSchema.parse(JSON.parse(JSON.stringify(report)));
}

/** Reads a JSON file (`noun` names it in errors: "cannot read report …"); ReportFileError when it cannot. */
export async function readJsonFile(path: string, noun: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new ReportFileError(`cannot read ${noun} ${path}: ${inWords(err)}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    // The parser quotes the text it stopped at, line breaks included: kept on one line, whole.
    const said = showInvisibles((err as Error).message.replace(/\r?\n/g, '\\n'));
    throw new ReportFileError(`${path} is not JSON: ${said}`);
  }
}

/** Reads and validates a report.json. */
export async function loadReport(path: string): Promise<Report> {
  const data = await readJsonFile(path, 'report');
  const parsed = ReportSchema.safeParse(data);
  if (!parsed.success) throw new ReportFileError(`${path} is not an agent-memory-tck report: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** One line naming the first schema issue and where it is. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '(top level)';
  return `${where}: ${issue.message}`;
}
