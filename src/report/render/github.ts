// GitHub Actions: each failure as an `::error` workflow command (a known failure of a baseline as
// `::warning`), and the Markdown summary appended to $GITHUB_STEP_SUMMARY.
import { appendFile } from 'node:fs/promises';
import type { Report } from '../model.js';
import { renderMarkdown } from './markdown.js';
import { causeLine, causesOf, compactIds } from '../causes.js';
import { clip, withCites } from './text.js';
import { advisoriesOf, securityFindings, securityHeadline } from '../advisories.js';
import { scenariosOf } from './view.js';

const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub shows about ten annotations per step: one per root cause up to this many, then a pointer to the summary. */
const MAX_ANNOTATIONS = 10;
/** Advisories get their own few: notices, one per advisory id. */
const MAX_ADVISORY_NOTICES = 5;

/** The workflow commands for a report's failures, one per root cause (and a gate's fixed scenarios). */
export function githubAnnotations(report: Report): string[] {
  const known = new Set(report.gate?.known.map((k) => k.id));
  const all = scenariosOf(report);
  // New failures' causes first (errors), then the causes of failures the baseline knows (warnings).
  const part = (isKnown: boolean) => causesOf(all.filter((s) => known.has(s.id) === isKnown));
  const causes = [...part(false), ...part(true)];
  const shown = causes.length > MAX_ANNOTATIONS ? causes.slice(0, MAX_ANNOTATIONS - 1) : causes;
  const lines = shown.map((c) => {
    const allKnown = c.scenarios.every((s) => known.has(s.id));
    const n = c.scenarios.length;
    const title = `${n} scenario${n === 1 ? '' : 's'} ${allKnown ? 'known (in the baseline): ' : 'failing: '}${c.blockedBy ? `blocked by ${c.blockedBy}` : (c.method ?? (c.methods.length > 0 ? c.methods.join(', ') : c.scenarios[0]!.id))}`;
    const first = c.scenarios[0]!;
    const body = `${causeLine(c)}\nscenarios: ${compactIds(c.scenarios.map((s) => s.id))}\nfirst: ${first.id} ${first.title}: ${withCites((first.message ?? first.outcome).split('\n')[0]!, first.cites?.length ? first.cites : first.clauses)}`;
    return `::${allKnown ? 'warning' : 'error'} title=${escapeProperty(title)}::${escapeData(clip(body, 4000))}`;
  });
  // A run that did not check everything (unreachable, interrupted, cut by a limit) says so first.
  const notRun = all.filter((s) => s.outcome === 'not-run').length;
  if (notRun > 0 || report.interrupted) {
    lines.unshift(`::error title=${escapeProperty(`${notRun} scenarios not run`)}::${escapeData(clip(report.warnings[0] ?? (report.interrupted ? 'the run was interrupted' : 'the run stopped early'), 4000))}`);
  }
  // SECURITY advisories that did not hold lead everything (docs/isolation.md): warnings, never errors (they fail nothing).
  const security = securityHeadline(advisoriesOf(report));
  if (security !== undefined) {
    const found = securityFindings(advisoriesOf(report)).flatMap((f) => f.scenarios.slice(0, 5).map((x) => `${x.id}: ${x.message.split('\n')[0]}`));
    lines.unshift(`::warning title=${escapeProperty(security.split(':').slice(0, 2).join(':'))}::${escapeData(clip(`${security}\n${found.join('\n')}`, 4000))}`);
  }
  if (shown.length < causes.length) {
    const rest = causes.slice(shown.length);
    const n = rest.reduce((sum, c) => sum + c.scenarios.length, 0);
    lines.push(`::error title=${escapeProperty(`${rest.length} more causes`)}::${escapeData(`${rest.length} more causes (${n} scenarios) in the step summary and report.json`)}`);
  }
  // Advisories that did not hold (run "report"): notices, never errors; they fail nothing.
  const advisories = advisoriesOf(report);
  if (advisories.mode === 'report') {
    for (const b of advisories.byId.slice(0, MAX_ADVISORY_NOTICES)) {
      const title = `advisory ${b.id}: ${b.failed} did not hold`;
      const body = `expects ${b.expects}\nwhy it is not a rule: ${b.reason}\n${b.scenarios.slice(0, 5).map((s) => `${s.id}: ${s.message.split('\n')[0]}`).join('\n')}`;
      lines.push(`::notice title=${escapeProperty(title)}::${escapeData(clip(body, 4000))}`);
    }
    if (advisories.byId.length > MAX_ADVISORY_NOTICES) lines.push(`::notice title=${escapeProperty(`${advisories.byId.length - MAX_ADVISORY_NOTICES} more advisories`)}::${escapeData('in the step summary and report.json')}`);
  }
  // An incomplete hosted profile (issue 27): not a failure, but not a pass either; it says what completes it.
  const incomplete = report.hosted?.incomplete;
  if (incomplete) lines.push(`::warning title=${escapeProperty('hosted profile incomplete')}::${escapeData(`scenarios were skipped for inputs the run lacked: pass ${incomplete.join(' and ')} to complete it`)}`);
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
