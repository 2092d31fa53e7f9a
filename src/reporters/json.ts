// report.json: the report object itself, validated against its schema before it is written.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ReportSchema, type Report } from '../report/model.js';

export async function writeJsonReport(report: Report, dir: string): Promise<string> {
  ReportSchema.parse(report);
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'report.json');
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
  return path;
}
