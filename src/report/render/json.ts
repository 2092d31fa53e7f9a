// report.json: the report object itself, validated against its schema before it is written.
import { ReportSchema, type Report } from '../model.js';
import { advisoriesOf, securityFindings } from '../advisories.js';

export function renderJson(report: Report): string {
  // The SECURITY advisories that did not hold lead the report, right after its format (docs/isolation.md).
  const security = securityFindings(advisoriesOf(report));
  return `${JSON.stringify(ReportSchema.parse({ ...report, ...(security.length > 0 ? { security } : {}) }), null, 2)}\n`;
}
