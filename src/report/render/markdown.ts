// The Markdown summary (summary.md, and $GITHUB_STEP_SUMMARY on GitHub Actions): the verdict, the
// tier table, the baseline gate, and each failure folded in <details> with its evidence in a
// code block. Server text only ever appears inside code blocks; kit text in HTML is escaped.
import { causeLine, causesOf, compactIds, rootCount } from '../causes.js';
import type { Report } from '../model.js';
import { exploreSummary, findingLines, findingsOf } from './explore.js';
import { OUTCOME_LABEL, advisoryDetail, advisoryHeadline, clip, failureText } from './text.js';
import { advisoriesOf, securityFindings, securityHeadline } from '../advisories.js';
import { viewOf, type SectionRow } from './view.js';

/**
 * Text made safe in Markdown read as HTML: a server's `<script>` or `&` cannot become markup. Only
 * what starts markup is escaped: quotes are text here (never in an attribute), and `&#39;` would
 * show as such wherever the Markdown is read as plain text.
 */
const esc = (value: unknown): string => String(value).replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));

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
  const view = viewOf(report);
  const headline = view.sections[0]?.headline ?? `explore ${report.success ? 'PASSED' : 'FAILED'}`;
  // Incomplete (issue 27): nothing failed, some input was missing; neither the pass nor the fail mark.
  const incomplete = view.sections.some((s) => s.verdict.incomplete) && view.sections.every((s) => s.verdict.ok || s.verdict.incomplete);
  out.push(`## agent-memory-tck: ${headline} ${incomplete ? '⚠️' : report.success ? '✅' : '❌'}`, '');
  // SECURITY advisories that did not hold, before everything else (docs/isolation.md); server text only in a code block.
  const security = securityHeadline(advisoriesOf(report));
  if (security !== undefined) {
    out.push(`> [!CAUTION]`, `> **${esc(security)}**`, '');
    out.push(codeBlock(clip(securityFindings(advisoriesOf(report)).flatMap((f) => f.scenarios.slice(0, DETAILED).map((x) => `${x.id}: ${x.message.split('\n')[0]}`)).join('\n'), EVIDENCE_CAP)), '');
  }
  for (const s of view.sections) {
    const { url, where } = s.target;
    out.push(`**${esc(s.verdict.head)}**${esc(s.verdict.detail)} against ${inlineCode(url)}${esc(where.slice(url.length))}`, '');
  }
  out.push(
    `kit ${esc(report.kit.version)} · bridge protocol ${esc(report.kit.protocol)} · ${esc(report.startedAt)} · ${(report.durationMs / 1000).toFixed(1)} s${report.interrupted ? ' · **interrupted**' : ''}`,
    '',
  );
  for (const s of view.sections) {
    // A row's last verdict (the tier reached, the group passing) carries the mark.
    const cells = (r: SectionRow) => r.verdict.map((v, i) => `${i === r.verdict.length - 1 ? `${v.ok ? '✅' : v.incomplete ? '⚠️' : '❌'} ` : ''}${esc(v.text)}`);
    out.push(`| ${s.heading} | passed | failed | error | skipped | not run | ${s.columns.join(' | ')} |`, `|---|---:|---:|---:|---:|---:|${s.columns.map(() => '---|').join('')}`);
    for (const r of s.rows.filter((x) => x.total > 0)) out.push(`| ${r.name} | ${r.passed} | ${r.failed} | ${r.error} | ${r.skipped} | ${r.notRun} | ${cells(r).join(' | ')} |`);
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
    findingsOf(e).forEach((f, i, all) => out.push(`<details><summary>minimal failing sequence${all.length > 1 ? ` (finding ${i + 1} of ${all.length})` : ''}</summary>`, '', codeBlock(clip(findingLines(f).join('\n'), EVIDENCE_CAP)), '', '</details>', ''));
  }
  for (const w of view.warnings) out.push(`> warning: ${esc(w)}`, '');
  const advisories = advisoriesOf(report);
  const advisoryLine = advisoryHeadline(advisories);
  if (advisoryLine !== undefined) out.push(`**${esc(advisoryLine)}**`, '');
  const bad = view.failures;
  if (bad.length) {
    // Causes lead: server text only ever inside a code block.
    const causes = causesOf(view.scenarios);
    const roots = rootCount(causes);
    out.push(`### ${roots} cause${roots === 1 ? '' : 's'} of ${bad.length} failure${bad.length === 1 ? '' : 's'}`, '');
    out.push(codeBlock(clip(causes.map((c, i) => `${i + 1}. ${causeLine(c)}\n   ${compactIds(c.scenarios.map((s) => s.id))}`).join('\n'), EVIDENCE_CAP)), '');
    out.push(`### Failures (${bad.length})`, '');
    for (const s of bad.slice(0, DETAILED)) {
      out.push(`<details><summary><b>${OUTCOME_LABEL[s.outcome]}</b> ${esc(s.id)} ${esc(s.title)} (${esc((s.cites?.length ? s.cites : s.clauses).join(', '))})</summary>`, '');
      out.push(codeBlock(clip(failureText(s, { target: report.target }), EVIDENCE_CAP)), '');
      out.push('</details>', '');
    }
    for (const s of bad.slice(DETAILED)) out.push(`- **${OUTCOME_LABEL[s.outcome]}** ${esc(s.id)} ${esc(s.title)}`);
    if (bad.length > DETAILED) out.push('', `(${bad.length - DETAILED} more failures without detail; see report.html or report.json)`, '');
  }
  if (advisories.failed > 0) {
    // Apart from the failures, after them; what the server said only inside a code block.
    out.push(`### Advisories that did not hold (${advisories.failed})`, '');
    for (const d of advisoryDetail(advisories, DETAILED)) {
      out.push(`<details><summary>${esc(d.head)}</summary>`, '', esc(d.why), '', codeBlock(clip(d.scenarios.join('\n'), EVIDENCE_CAP)), '', '</details>', '');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}
