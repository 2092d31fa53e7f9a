// report.json: the report object itself, validated against its schema before it is written.
import { ReportSchema, type Report } from '../model.js';

export function renderJson(report: Report): string {
  return `${JSON.stringify(ReportSchema.parse(report), null, 2)}\n`;
}
