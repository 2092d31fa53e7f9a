// The comparison in three forms: console text, Markdown (a registry page, a PR comment) and one
// self-contained HTML page with no script (the report page's rules: everything escaped by `esc`,
// a Content-Security-Policy that forbids scripts, nothing loaded from anywhere).
import { basename } from 'node:path';
import { printable } from '../../engine/evidence.js';
import { CSP, TIER_COLOUR, esc } from './html.js';
import { OUTCOME_LABEL } from './text.js';
import { passCount, type Comparison, type Row, type Section } from '../compare.js';

const label = (o: Row['outcomes'][number]) => (o === undefined ? '—' : OUTCOME_LABEL[o]);
/** A, B, C, …: the column letters of the console and Markdown tables. */
const letter = (i: number) => (i < 26 ? String.fromCharCode(65 + i) : `#${i + 1}`);
const heading = (s: Section) => `${s.tier === 'hosted' ? 'Hosted profile' : `${s.tier[0]!.toUpperCase()}${s.tier.slice(1)}`} · ${s.group}`;
const differCount = (c: Comparison) => c.differing.reduce((n, s) => n + s.rows.length, 0);

const partialCount = (c: Comparison) => c.partial.reduce((n, s) => n + s.rows.length, 0);

function summaryLine(c: Comparison): string {
  const n = differCount(c);
  const p = partialCount(c);
  // Runs of different selections: only what every file holds is compared (as tck diff does).
  const apart = p > 0 ? `; ${p} more ${p === 1 ? 'is' : 'are'} in only some of the files (different selections), not compared` : '';
  if (c.total === 0) return `no scenario is in every file (different selections): nothing compared; ${p} ${p === 1 ? 'is' : 'are'} in only some of the files`;
  const head = n === 0 ? `all ${c.total} scenarios ${p > 0 ? 'every file holds ' : ''}have the same verdict in every implementation` : `${n} of the ${c.total} scenarios ${p > 0 ? 'every file holds ' : ''}differ`;
  return `${head}${apart}`;
}

export function renderCompareText(c: Comparison, options: { all?: boolean } = {}): string {
  const out: string[] = ['Implementations:'];
  const width = Math.max(...c.implementations.map((m) => m.name.length));
  const verdictWidth = Math.max(6, ...c.implementations.map((m) => m.verdict.length));
  c.implementations.forEach((m, i) => {
    const { passed, total } = passCount(c, i);
    out.push(`  ${letter(i)}  ${printable(m.name).padEnd(width)}  ${m.verdict.padEnd(verdictWidth)}  ${passed}/${total} passed  (${m.kind}, kit ${printable(m.kit)})`);
  });
  out.push('', `${summaryLine(c)}:`);
  const table = (sections: Section[]) => {
    for (const s of sections) {
      out.push('', heading(s));
      for (const r of s.rows) out.push(`  ${r.id.padEnd(10)} ${r.outcomes.map((o, i) => `${letter(i)} ${label(o).padEnd(7)}`).join(' ')}  ${printable(r.title)}`);
    }
  };
  table(c.differing);
  if (options.all) {
    out.push('', 'Same verdict everywhere:');
    table(c.same);
  } else if (c.same.length > 0) {
    out.push('', `(${c.total - differCount(c)} scenarios have the same verdict everywhere; --all lists them)`);
  }
  return `${out.join('\n')}\n`;
}

/** A Markdown table cell: pipes and line breaks cannot end it, HTML in it is escaped. */
const cell = (text: string) => esc(printable(text)).replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
const MD_MARK: Record<string, string> = { passed: '✅', failed: '❌', error: '⚠️', skipped: '⏭️', 'not-run': '⏸️' };

export function renderCompareMarkdown(c: Comparison): string {
  const out: string[] = ['## agent-memory-tck: comparison', '', '| | implementation | tier | passed | from |', '|---|---|---|---|---|'];
  c.implementations.forEach((m, i) => {
    const { passed, total } = passCount(c, i);
    out.push(`| ${letter(i)} | ${cell(m.name)} | **${cell(m.verdict)}** | ${passed}/${total} | ${m.kind}, kit ${cell(m.kit)} |`);
  });
  out.push('', `**${summaryLine(c)}.**`, '');
  const table = (sections: Section[]) => {
    for (const s of sections) {
      out.push(`### ${heading(s)}`, '', `| scenario | title | ${c.implementations.map((_, i) => letter(i)).join(' | ')} |`, `|---|---|${c.implementations.map(() => '---').join('|')}|`);
      for (const r of s.rows) out.push(`| ${r.id} | ${cell(r.title)} | ${r.outcomes.map((o) => (o === undefined ? '—' : `${MD_MARK[o]} ${OUTCOME_LABEL[o]}`)).join(' | ')} |`);
      out.push('');
    }
  };
  if (c.differing.length > 0) {
    out.push('## Where they differ', '');
    table(c.differing);
  }
  if (c.same.length > 0) {
    out.push('<details><summary>Same verdict everywhere</summary>', '');
    table(c.same);
    out.push('</details>', '');
  }
  out.push(`Legend: ${Object.entries(MD_MARK).map(([k, v]) => `${v} ${k}`).join(' · ')}, — not in that file`);
  return `${out.join('\n')}\n`;
}

const CSS = `
:root { --fg:#1d2430; --muted:#5b6573; --line:#d9dee5; --bg:#f6f7f9; --pass:#1f8a4c; --fail:#c4322b; --err:#d9730d; --skip:#8a94a3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: 22px 32px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 4px; font-size: 22px; } .lead { margin: 0 0 14px; color: var(--muted); }
.impls { display: flex; gap: 14px; flex-wrap: wrap; }
.impl { display: flex; gap: 12px; align-items: center; background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: 10px 14px; }
.dot { flex: none; width: 64px; height: 64px; border-radius: 50%; color: #fff; display: flex; align-items: center; justify-content: center; font-weight: 800; font-size: 12px; letter-spacing: .05em; box-shadow: inset 0 -4px 0 rgba(0,0,0,.15); }
.impl .name { font-weight: 700; overflow-wrap: anywhere; max-width: 260px; } .impl .sub { color: var(--muted); font-size: 12px; }
main { padding: 8px 32px 24px; }
h2 { font-size: 17px; margin: 20px 0 8px; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); margin: 0 0 14px; }
th, td { border-bottom: 1px solid var(--line); padding: 5px 10px; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; position: sticky; top: 0; font-size: 12px; }
th.group { background: #f3f5f8; font-size: 13px; }
td.sid { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: nowrap; }
td.o { text-align: center; font-size: 11px; font-weight: 700; letter-spacing: .04em; white-space: nowrap; width: 1%; }
td.o-passed { background: #e6f6ea; color: var(--pass); } td.o-failed { background: #fde8e7; color: var(--fail); } td.o-error { background: #fff1e0; color: var(--err); }
td.o-skipped, td.o-not-run, td.o-none { background: #f1f3f6; color: var(--skip); }
details > summary { cursor: pointer; font-weight: 600; margin: 16px 0 8px; }
footer { padding: 0 32px 24px; color: var(--muted); font-size: 12px; }
.letter { display: inline-block; min-width: 1.4em; padding: 0 4px; border-radius: 4px; background: var(--fg); color: #fff; font-size: 11px; text-align: center; }
th.impl-col { overflow-wrap: anywhere; min-width: 6em; }
td.sid .stitle { display: none; }
.scroll { overflow-x: auto; }
@media (max-width: 640px) {
  header, main, footer { padding-left: 12px; padding-right: 12px; }
  .impl { width: 100%; } .impl .name { max-width: none; }
  /* The verdicts stay on screen: the title moves under the id, the columns keep their letters. */
  th.title, td.title, th.impl-col .iname { display: none; }
  th.impl-col { min-width: 0; }
  td.sid { white-space: normal; } td.sid .stitle { display: block; font-family: system-ui, sans-serif; font-size: 12px; color: var(--muted); }
  th, td { padding: 4px 6px; }
}
`;

function tableHtml(c: Comparison, sections: readonly Section[]): string {
  // Each verdict column: its letter (the cards above name it) and, where there is room, the name.
  const head = `<thead><tr><th>scenario</th><th class="title">title</th>${c.implementations.map((m, i) => `<th class="impl-col" title="${esc(m.name)}"><span class="letter">${letter(i)}</span> <span class="iname">${esc(m.name)}</span></th>`).join('')}</tr></thead>`;
  const body = sections
    .map((s) => {
      const rows = s.rows
        .map((r) => `<tr><td class="sid">${esc(r.id)}<span class="stitle">${esc(r.title)}</span></td><td class="title">${esc(r.title)}</td>${r.outcomes.map((o) => `<td class="o o-${o ?? 'none'}">${esc(label(o))}</td>`).join('')}</tr>`)
        .join('');
      return `<tr><th class="group" colspan="${2 + c.implementations.length}">${esc(heading(s))}</th></tr>${rows}`;
    })
    .join('');
  return `<div class="scroll"><table>${head}<tbody>${body}</tbody></table></div>`;
}

export function renderCompareHtml(c: Comparison): string {
  const impls = c.implementations
    .map((m, i) => {
      const { passed, total } = passCount(c, i);
      const colour = TIER_COLOUR[m.colour] ?? TIER_COLOUR.none;
      return `<div class="impl"><div class="dot" style="background:${colour}">${esc(m.verdict)}</div><div><div class="name"><span class="letter">${letter(i)}</span> ${esc(m.name)}</div><div class="sub">${passed}/${total} passed · ${esc(m.kind)} · kit ${esc(m.kit)}</div></div></div>`;
    })
    .join('');
  const differing = c.differing.length > 0 ? `<h2>Where they differ (${differCount(c)})</h2>${tableHtml(c, c.differing)}` : '<h2>No scenario differs</h2>';
  const same = c.same.length > 0 ? `<details><summary>Same verdict everywhere (${c.total - differCount(c)})</summary>${tableHtml(c, c.same)}</details>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>agent-memory-tck comparison</title><style>${CSS}</style></head>
<body><header><h1>agent-memory-tck: ${c.implementations.length} implementations compared</h1><p class="lead">${esc(summaryLine(c))}; grouped by tier (the hosted profile last) and group.</p><div class="impls">${impls}</div></header>
<main>${differing}${same}</main><footer>Generated by tck compare from ${c.implementations.map((m) => esc(basename(m.file))).join(', ')}.</footer></body></html>
`;
}
