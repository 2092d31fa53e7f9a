// report.json: the report object itself, validated against its schema before it is written.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReportSchema, type Report } from '../model.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
}

/** Writes DIR/report.json; returns its path. */
export async function writeJsonReport(report: Report, dir: string): Promise<string> {
  const text = renderJson(report);
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'report.json');
  await writeFile(path, text);
  return path;
}
