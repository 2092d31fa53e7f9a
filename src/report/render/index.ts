// The reporters: console plus five file formats, each rendered from the (normalised) report
// alone, so a direct run and `tck report` on its report.json write the same bytes.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Report } from '../model.js';
import { renderBadge } from './badge.js';
import { renderHtml } from './html.js';
import { renderJson } from './json.js';
import { renderJunit } from './junit.js';
import { renderMarkdown } from './markdown.js';
import type { FileFormat, ReporterName } from './names.js';

export * from './names.js';

export const FILE_FORMATS: Record<FileFormat, { file: string; render: (report: Report) => string }> = {
  json: { file: 'report.json', render: renderJson },
  junit: { file: 'junit.xml', render: renderJunit },
  html: { file: 'report.html', render: renderHtml },
  md: { file: 'summary.md', render: renderMarkdown },
  badge: { file: 'badge.svg', render: renderBadge },
};

export interface FileTarget {
  format: FileFormat;
  path: string;
}

/** The files of `formats` under `dir`, by their standard names. */
export function filesUnder(dir: string, formats: readonly ReporterName[]): FileTarget[] {
  return formats.filter((f): f is FileFormat => f !== 'console').map((format) => ({ format, path: join(dir, FILE_FORMATS[format].file) }));
}

interface WriteOutcome {
  written: FileTarget[];
  /** Each reporter that failed, with its reason; the others were still written. */
  failed: Array<FileTarget & { reason: string }>;
}

/** Renders and writes each target on its own: one failing never stops the others. */
export async function writeReports(report: Report, targets: readonly FileTarget[]): Promise<WriteOutcome> {
  const result: WriteOutcome = { written: [], failed: [] };
  for (const t of targets) {
    try {
      const text = FILE_FORMATS[t.format].render(report);
      await mkdir(dirname(t.path), { recursive: true });
      await writeFile(t.path, text);
      result.written.push(t);
    } catch (err) {
      result.failed.push({ ...t, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return result;
}
