// GitHub Actions: each failure as an `::error` workflow command (a known failure of a baseline as
// `::warning`), and the Markdown summary appended to $GITHUB_STEP_SUMMARY.
import { appendFile } from 'node:fs/promises';
import type { Report } from '../model.js';
import { renderMarkdown } from './markdown.js';
import { clip, failuresOf } from './text.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The workflow commands for a report's failures (and a gate's fixed scenarios). */
export function githubAnnotations(report: Report): string[] {
  const known = new Set(report.gate?.known.map((k) => k.id));
  const lines = failuresOf(report).map((s) => {
    const level = known.has(s.id) ? 'warning' : 'error';
    const title = `${s.id} ${s.outcome}${known.has(s.id) ? ' (known, in the baseline)' : ''} (${s.clauses.join(', ')})`;
    return `::${level} title=${escapeProperty(title)}::${escapeData(clip(`${s.title}\n${s.message ?? ''}`.trimEnd(), 4000))}`;
  });
  for (const id of report.gate?.fixed ?? []) {
    lines.push(`::error title=${escapeProperty(`${id} fixed`)}::${escapeData(`fixed: remove ${id} from the baseline ${report.gate!.baseline}`)}`);
  }
  return lines;
}

/** Annotations when GITHUB_ACTIONS is set, the summary when GITHUB_STEP_SUMMARY is. */
export async function publishToGithub(report: Report, env: NodeJS.ProcessEnv = process.env, out: { write(s: string): unknown } = process.stdout): Promise<void> {
  if (env.GITHUB_ACTIONS === 'true') for (const line of githubAnnotations(report)) out.write(`${line}\n`);
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, `${renderMarkdown(report)}\n`);
}
