// The Markdown summary (summary.md, and $GITHUB_STEP_SUMMARY on GitHub Actions): the verdict, the
// tier table, the baseline gate, and each failure folded in <details> with its evidence in a
// code block. Server text only ever appears inside code blocks; kit text in HTML is escaped.
import { bridgeRan, type Report } from '../model.js';
import { exploreFailureLines, exploreSummary } from './explore.js';
import { esc } from './html.js';
import { OUTCOME_LABEL, clip, failureText, failuresOf, tierName } from './text.js';

/** Failures shown with their evidence; the rest are listed one per line (GitHub caps a summary at 1 MiB). */
const DETAILED = 50;
const EVIDENCE_CAP = 6_000;

/** A fenced code block whose fence is longer than any backtick run inside. */
export function codeBlock(text: string, lang = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

/** Inline code that survives backticks in its text. */
function inlineCode(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${longest ? ` ${text} ` : text}${ticks}`;
}

export function renderMarkdown(report: Report): string {
  const out: string[] = [];
  const bridge = bridgeRan(report);
  const h = report.hosted;
  const headline = bridge ? tierName(report.achieved) : h ? `hosted profile ${h.passed ? 'PASSED' : 'FAILED'}` : `explore ${report.success ? 'PASSED' : 'FAILED'}`;
  out.push(`## agent-memory-tck: ${headline} ${report.success ? '✅' : '❌'}`, '');
  if (bridge) {
    const where = `${inlineCode(report.target.url)}${report.target.embedded ? ' (embedded reference server)' : ''}`;
    out.push(`**Achieved tier: ${tierName(report.achieved)}** (requested ${report.requestedTier}, grading ${report.grading.rule}) against ${where}`, '');
  }
  if (h) {
    const where = `${inlineCode(h.target.url)}${h.target.embedded ? ' (embedded hosted reference service)' : ''}`;
    out.push(`**Hosted profile: ${h.passed ? 'PASSED' : 'FAILED'}** (each group passes when every one of its scenarios passed) against ${where}`, '');
  }
  out.push(
    `kit ${esc(report.kit.version)} · bridge protocol ${esc(report.kit.protocol)} · ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.interrupted ? ' · **interrupted**' : ''}`,
    '',
  );
  if (bridge) {
    out.push('| tier | passed | failed | error | skipped | not run | reached |', '|---|---:|---:|---:|---:|---:|:---:|');
    for (const t of report.tiers.filter((x) => x.total > 0)) {
      out.push(`| ${t.tier} | ${t.passed} | ${t.failed} | ${t.error} | ${t.skipped} | ${t.notRun} | ${t.passes ? '✅' : '❌'} |`);
    }
    out.push('');
  }
  if (h) {
    out.push('| hosted group | passed | failed | error | skipped | not run | group passes |', '|---|---:|---:|---:|---:|---:|:---:|');
    for (const g of h.groups.filter((x) => x.total > 0)) {
      out.push(`| ${g.group} | ${g.passed} | ${g.failed} | ${g.error} | ${g.skipped} | ${g.notRun} | ${g.passes ? '✅' : '❌'} |`);
    }
    out.push('');
  }
  const g = report.gate;
  if (g) {
    out.push(`**Baseline gate ${g.passed ? 'passed' : 'FAILED'}** (${inlineCode(g.baseline)}): ${g.known.length} known failure(s) allowed, ${g.unexpected.length} new, ${g.fixed.length} fixed.`, '');
    for (const u of g.unexpected) out.push(`- new failure (${u.outcome}): ${esc(u.id)}`);
    for (const id of g.fixed) out.push(`- fixed: remove ${esc(id)} from the baseline`);
    if (g.unexpected.length || g.fixed.length) out.push('');
  }
  const e = report.explore;
  if (e) {
    out.push(`**${esc(exploreSummary(e))}**`, '');
    if (e.failure) out.push('<details><summary>minimal failing sequence</summary>', '', codeBlock(clip(exploreFailureLines(e).join('\n'), EVIDENCE_CAP)), '', '</details>', '');
  }
  for (const w of report.warnings) out.push(`> warning: ${esc(w)}`, '');
  for (const w of h?.warnings ?? []) out.push(`> warning (hosted): ${esc(w)}`, '');
  const bad = failuresOf(report);
  if (bad.length) {
    out.push(`### Failures (${bad.length})`, '');
    for (const s of bad.slice(0, DETAILED)) {
      out.push(`<details><summary><b>${OUTCOME_LABEL[s.outcome]}</b> ${esc(s.id)} ${esc(s.title)} (${esc(s.clauses.join(', '))})</summary>`, '');
      out.push(codeBlock(clip(failureText(s), EVIDENCE_CAP)), '');
      out.push('</details>', '');
    }
    for (const s of bad.slice(DETAILED)) out.push(`- **${OUTCOME_LABEL[s.outcome]}** ${esc(s.id)} ${esc(s.title)}`);
    if (bad.length > DETAILED) out.push('', `(${bad.length - DETAILED} more failures without detail; see report.html or report.json)`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
