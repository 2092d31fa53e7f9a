// report.html: one self-contained page that opens offline. The achieved tier as a large badge, a
// bar per tier, a filter (failures only, …), and every scenario expandable to its clauses,
// assertion, diff, exchanges and reproduction script.
//
// Everything that came from the server under test (messages, exchanges, notes, the URL) is
// HTML-escaped by `esc`. The filter is CSS (`:has`) over radio buttons and the scenarios are
// <details>, so the page works without JavaScript. It opens on the failures when there are any.
// The one script is the search box (search.ts), a progressive enhancement: a static file cannot
// filter on typed text without one, and without JavaScript the box stays hidden and the page
// points to the browser's own find. The Content-Security-Policy admits exactly that script by its
// SHA-256 and nothing else, so a hostile answer still could not run code in the report even if
// something slipped through the escaping.
import { causeLine, causesOf, compactIds, rootCount } from '../causes.js';
import { isFailing, type AnyReportScenario, type Gate, type Report } from '../model.js';
import { SEARCH_CSS, SEARCH_SCRIPT, SEARCH_SCRIPT_HASH, searchBox, searchText } from './search.js';
import { findingLines, findingsOf } from './explore.js';
import { OUTCOME_LABEL, advisoryHeadline, clip, diffText, expectedActualDiff, isFailure, placeOf, withCites, type Outcome } from './text.js';
import { advisoriesOf, securityFindings, securityHeadline } from '../advisories.js';
import type { AdvisorySummary } from '../model.js';
import { printable } from '../../engine/evidence.js';
import { cutAt } from '../../util/words.js';
import { shortVerdict, verdicts, viewOf, type ReportView, type SectionRow } from './view.js';

type Exchange = AnyReportScenario['exchanges'][number];
type Summary = Pick<SectionRow, 'total' | 'passed' | 'failed' | 'error' | 'skipped' | 'notRun'>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/**
 * Text for an attribute value that holds what a server sent (the search text of a row): escaped,
 * and `=` written as a character reference too, so no text inside a tag reads as another attribute
 * (`src=`), even to a tool that does not parse HTML. The browser reads it back as it was.
 */
const attr = (value: unknown) => esc(value).replace(/=/g, '&#61;');

/** Largest body shown per exchange in the page (report.json keeps up to 64 KiB). */
const BODY_CAP = 20_000;

/** White text on each of these has a contrast ratio of at least 4.5:1 (WCAG AA; test/reporters/html-layout.test.ts). */
export const TIER_COLOUR: Record<string, string> = { bronze: '#8f5427', silver: '#617080', gold: '#8a6a0e', platinum: '#7e22ce', none: '#b42318', passed: '#1a7f45', failed: '#b42318', incomplete: '#a15c07' };

const CSS = `
:root { --fg:#1d2430; --muted:#5b6573; --line:#d9dee5; --bg:#f6f7f9; --pass:#1f8a4c; --fail:#c4322b; --err:#d9730d; --skip:#8a94a3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header.top { display: flex; gap: 28px; align-items: center; padding: 24px 32px; background: #fff; border-bottom: 1px solid var(--line); }
.badge { flex: none; width: 168px; height: 168px; border-radius: 50%; display: flex; flex-direction: column; align-items: center; justify-content: center; color: #fff; box-shadow: inset 0 -6px 0 rgba(0,0,0,.15); }
.badge .label { font-size: 12px; letter-spacing: .08em; text-transform: uppercase; }
.badge .value { font-size: 28px; font-weight: 800; letter-spacing: .04em; }
/* PLATINUM, INCOMPLETE: a longer word in a smaller size, whole inside the circle. */
.badge .value.long { font-size: 20px; letter-spacing: .02em; }
h1 { margin: 0 0 6px; font-size: 22px; }
.verdict { font-weight: 600; margin: 0 0 10px; }
.verdict.ok { color: var(--pass); } .verdict.bad { color: var(--fail); } .verdict.incomplete { color: var(--err); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; color: var(--muted); }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; overflow-wrap: anywhere; }
section, main, footer, nav.filter { padding: 16px 32px; }
.tiers { display: grid; gap: 10px; }
.tier { display: grid; grid-template-columns: 90px minmax(160px, 1fr) auto minmax(100px, max-content); gap: 14px; align-items: center; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.tier .name { font-weight: 700; text-transform: capitalize; }
.bar { display: flex; height: 16px; border-radius: 8px; overflow: hidden; background: #eceff3; }
.bar span { display: block; height: 100%; }
.seg-passed { background: var(--pass); } .seg-failed { background: var(--fail); } .seg-error { background: var(--err); } .seg-skipped, .seg-not-run { background: var(--skip); }
.counts { color: var(--muted); font-variant-numeric: tabular-nums; }
.reached { font-weight: 700; text-align: right; } .reached.yes { color: var(--pass); } .reached.no { color: var(--fail); } .reached.incomplete { color: var(--err); }
.security { background: #fdecec; border: 2px solid #c62828; border-radius: 8px; padding: 10px 14px; margin: 0 0 12px; color: #7f1010; } .security li { overflow-wrap: anywhere; }
.notice { background: #fff7e6; border: 1px solid #f3d19c; border-radius: 8px; padding: 10px 14px; margin: 0 0 8px; }
.gate.ok { background: #ecf8f0; border-color: #a6dcb9; } .gate.bad { background: #fdeceb; border-color: #f2b8b5; }
.filter { display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.filter input { position: absolute; opacity: 0; pointer-events: none; }
.filter label { border: 1px solid var(--line); background: #fff; border-radius: 999px; padding: 4px 12px; cursor: pointer; }
.filter input:checked + label { background: var(--fg); color: #fff; border-color: var(--fg); }
.filter input:focus-visible + label { outline: 2px solid #3b82f6; }
body:has(#show-failures:checked) .scn:not(.bad), body:has(#show-passed:checked) .scn:not(.o-passed),
body:has(#show-skipped:checked) .scn:not(.o-skipped):not(.o-not-run) { display: none; }
body:has(#show-failures:checked) .tier-group:not(:has(.scn.bad)),
body:has(#show-passed:checked) .tier-group:not(:has(.scn.o-passed)),
body:has(#show-skipped:checked) .tier-group:not(:has(.scn.o-skipped, .scn.o-not-run)) { display: none; }
body:has(#show-advisories:checked) .scn:not(.adv) { display: none; }
body:has(#show-advisories:checked) .tier-group:not(:has(.scn.adv)) { display: none; }
.adv-badge { display: inline-block; margin-left: 10px; padding: 2px 10px; border-radius: 999px; background: #fff7e6; border: 1px solid #f3d19c; color: #8a5a00; font-size: 13px; font-weight: 600; vertical-align: middle; }
.advmark { flex: none; font-size: 11px; font-weight: 700; color: #8a5a00; }
.advisories li { margin: 0 0 8px; overflow-wrap: anywhere; } .advisories .why { color: var(--muted); font-size: 12px; }
h2 { font-size: 16px; text-transform: capitalize; margin: 18px 0 8px; }
details.scn { background: #fff; border: 1px solid var(--line); border-left: 5px solid var(--skip); border-radius: 6px; margin: 0 0 6px; }
details.scn.o-passed { border-left-color: var(--pass); } details.scn.o-failed { border-left-color: var(--fail); } details.scn.o-error { border-left-color: var(--err); }
details.scn > summary { cursor: pointer; padding: 7px 12px; display: flex; gap: 10px; align-items: baseline; }
.outcome { flex: none; width: 64px; font-size: 11px; font-weight: 700; letter-spacing: .05em; }
.o-passed .outcome { color: var(--pass); } .o-failed .outcome { color: var(--fail); } .o-error .outcome { color: var(--err); } .o-skipped .outcome, .o-not-run .outcome { color: var(--skip); }
.sid { flex: none; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
.stitle { flex: 1; } .ms { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
.sbody { padding: 4px 14px 12px 86px; }
.sbody p { margin: 4px 0; color: var(--muted); }
pre { margin: 6px 0; padding: 8px 10px; background: #f3f5f8; border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: 420px; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
pre.message { background: #fdeceb; border-color: #f2b8b5; color: #7a1c17; }
.diff .del { color: #b42318; background: #fde8e7; display: block; } .diff .add { color: #146c2e; background: #e6f6ea; display: block; } .diff .ctx { color: var(--muted); display: block; }
details.ex, details.repro { margin: 4px 0; } details.ex > summary, details.repro > summary { cursor: pointer; color: var(--muted); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
footer { color: var(--muted); font-size: 12px; }
.smsg { flex-basis: 100%; margin-left: 74px; color: #7a1c17; font-size: 12px; overflow-wrap: anywhere; }
details.scn > summary { flex-wrap: wrap; }
.causes ol { margin: 0; padding-left: 22px; } .causes li { margin: 0 0 6px; overflow-wrap: anywhere; } .causes .ids { color: var(--muted); font-size: 12px; }
@media (max-width: 640px) {
  header.top { flex-direction: column; align-items: flex-start; gap: 14px; padding: 16px; }
  .badge { width: 128px; height: 128px; } .badge .value { font-size: 28px; } .badge .value.long { font-size: 16px; }
  section, main, footer, nav.filter { padding: 12px 16px; }
  .tier { grid-template-columns: 1fr; gap: 6px; } .reached { text-align: left; }
  .sbody { padding: 4px 10px 10px; } .smsg { margin-left: 0; }
  dl.meta { grid-template-columns: 1fr; }
}
.cap { color: var(--muted); font-size: 11px; text-transform: uppercase; letter-spacing: .06em; margin-top: 6px; }
.stitle { min-width: 0; overflow-wrap: anywhere; }
.smsg { display: block; color: var(--fail); font-size: 12px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
${SEARCH_CSS}
@media (max-width: 640px) {
  header.top { flex-direction: column; align-items: flex-start; gap: 14px; padding: 16px; }
  .badge { width: 128px; height: 128px; } .badge .value { font-size: 20px; } .badge .value.long { font-size: 14px; } .badge .label { font-size: 10px; }
  section, main, footer, nav.filter { padding: 12px 16px; }
  .tier { grid-template-columns: 1fr auto; gap: 6px 10px; }
  .tier .bar, .tier .counts { grid-column: 1 / -1; }
  .tier .name { grid-row: 1; grid-column: 1; } .tier .reached { grid-row: 1; grid-column: 2; } .tier .bar { grid-row: 2; }
  details.scn > summary { flex-wrap: wrap; gap: 2px 10px; }
  .stitle { flex-basis: 100%; }
  .sbody { padding: 4px 12px 12px; }
}
`;

export const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'";

/** A tier's (or a hosted group's) bar; `standing` words its verdict (a tier: its own scenarios, then whether it is reached). */
function bar(t: Summary, name: string, standing: { text: string; ok: boolean; incomplete?: true }, largest = t.total): string {
  const segs: [string, number][] = [
    ['passed', t.passed],
    ['failed', t.failed],
    ['error', t.error],
    ['skipped', t.skipped],
    ['not-run', t.notRun],
  ];
  const spans = segs
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `<span class="seg-${k}" style="width:${((n / t.total) * 100).toFixed(3)}%" title="${n} ${k}"></span>`)
    .join('');
  const counts = `${t.passed} passed · ${t.failed} failed · ${t.error} error · ${t.skipped} skipped · ${t.notRun} not run`;
  // One scale for every bar: a tier of 37 scenarios is a shorter bar than one of 142.
  const width = largest > 0 ? ((t.total / largest) * 100).toFixed(3) : '100';
  return `<div class="tier"><div class="name">${esc(name)}</div><div class="bar" style="width:${width}%" role="img" aria-label="${esc(counts)}">${spans}</div><div class="counts">${esc(counts)}</div><div class="reached ${standing.ok ? 'yes' : standing.incomplete ? 'incomplete' : 'no'}">${esc(standing.text)}</div></div>`;
}

function prettyBody(ex: Exchange): string {
  try {
    return JSON.stringify(ex.requestBody, null, 2);
  } catch {
    return '<unserialisable body>';
  }
}

function prettyAnswer(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text; // not JSON (or cut for display): shown as received
  }
}

/** What was requested: the bridge method posted, or a hosted request's method, path and query. */
function requestLine(ex: Exchange): string {
  if (ex.httpMethod === undefined) return `POST ${ex.method}`;
  try {
    const u = new URL(ex.url);
    return `${ex.httpMethod} ${u.pathname}${u.search} (${ex.method})`;
  } catch {
    return `${ex.httpMethod} ${ex.url}`;
  }
}

function exchange(ex: Exchange, open: boolean): string {
  const status = ex.status === undefined ? `no response (${ex.transportError ?? 'transport failure'})` : `${ex.status}`;
  const head = `${esc(requestLine(ex))} → ${esc(status)} (${Math.round(ex.durationMs)} ms)`;
  const credential = ex.credential === undefined ? '' : ` (${ex.credential})`;
  const headers = Object.keys(ex.requestHeaders).map((n) => `${n}: ***${n === 'authorization' ? credential : ''}\n`).join('') || (credential ? `no authorization${credential}\n` : '');
  const bodyless = ex.httpMethod === 'GET' || ex.httpMethod === 'DELETE';
  const answer =
    ex.status === undefined
      ? ''
      : `<div class="cap">answer</div><pre>${esc(printable(`${ex.status} ${ex.contentType ?? '(no content-type)'}${ex.responseBytes === undefined ? '' : `, ${ex.responseBytes} bytes`}\n${clip(prettyAnswer(ex.responseText ?? ''), BODY_CAP)}`))}</pre>`;
  // printable: control and bidi characters of a server's answer shown escaped, as on the console.
  return `<details class="ex"${open ? ' open' : ''}><summary>${head}</summary><div class="cap">request</div><pre>${esc(printable(`${headers}${bodyless ? '' : clip(prettyBody(ex), BODY_CAP)}`))}</pre>${answer}</details>`;
}

function diff(s: AnyReportScenario): string {
  const lines = expectedActualDiff(s);
  if (!lines) return '';
  const cls = { '-': 'del', '+': 'add', ' ': 'ctx', '…': 'ctx' } as const;
  const body = lines.map((l) => `<span class="${cls[l.kind]}">${esc(diffText([l]))}</span>`).join('');
  return `<p>diff (− expected, + actual)</p><pre class="diff">${body}</pre>`;
}

/** The causes the failures come from, first on the page when there are any (server text escaped). */
function causesSection(view: ReportView): string {
  const causes = causesOf(view.scenarios);
  if (causes.length === 0) return '';
  const items = causes.map(
    (c) => `<li>${esc(causeLine(c))}<div class="ids">${esc(compactIds(c.scenarios.map((s) => s.id)))}</div></li>`,
  );
  const roots = rootCount(causes);
  return `<section class="causes"><div class="notice"><strong>${roots} cause${roots === 1 ? '' : 's'} of the failures</strong><ol>${items.join('')}</ol></div></section>`;
}

/**
 * A failure's one line: its first line, and when that only announces what follows
 * ("add_message: response does not match the data model:"), the first line that says it.
 */
export function informativeLine(message: string | undefined): string {
  const lines = (message ?? '').split('\n');
  const first = lines[0] ?? '';
  const next = lines.slice(1).find((l) => l.trim() !== '');
  return first.trimEnd().endsWith(':') && next !== undefined ? `${first.trimEnd()} ${next.trim()}` : first;
}

function scenario(s: AnyReportScenario): string {
  const bad = isFailure(s);
  const parts = [`<p>clauses ${esc(s.clauses.join(', '))} · group ${esc(s.group)} · ${esc(placeOf(s))}${s.notImplemented ? ' · not implemented' : ''}</p>`];
  if (s.message) parts.push(`<pre class="${bad ? 'message' : ''}">${esc(bad ? [withCites(s.message.split('\n')[0]!, s.cites), ...s.message.split('\n').slice(1)].join('\n') : s.message)}</pre>`);
  const notes = s.advisories ?? [];
  if (notes.length) parts.push(`<p>advisories that did not hold (the kit's own readings, not failures)</p><ul>${notes.map((n) => `<li>${esc(n.id)}: ${esc(n.message)}</li>`).join('')}</ul>`);
  parts.push(diff(s));
  if (s.notes.length) parts.push(`<p>notes</p><ul>${s.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>`);
  if (s.exchanges.length) {
    parts.push(`<p>exchanges (${s.exchanges.length})</p>`, ...s.exchanges.map((ex, i) => exchange(ex, i === s.exchanges.length - 1)));
  }
  if (s.repro) parts.push(`<details class="repro"><summary>reproduce with curl (bash)</summary><pre>${esc(s.repro)}</pre></details>`);
  const ms = `${Math.round(s.durationMs)} ms`;
  // A failing row says why in one line, so the list reads without opening anything.
  const informative = informativeLine(s.message);
  const first = informative ? withCites(informative, s.cites) : '';
  const line = bad && first ? `<span class="smsg">${esc(first.length > 300 ? `${cutAt(first, 300)}…` : first)}</span>` : '';
  const mark = notes.length ? `<span class="advmark" title="advisories that did not hold">ADVISORY ×${notes.length}</span>` : '';
  return (
    `<details class="scn o-${esc(s.outcome)}${bad ? ' bad' : ''}${notes.length ? ' adv' : ''}" id="${esc(s.id)}" data-search="${attr(searchText(s))}">` +
    `<summary><span class="outcome">${esc(OUTCOME_LABEL[s.outcome])}</span><span class="sid">${esc(s.id)}</span><span class="stitle">${esc(s.title)}${line}</span>${mark}<span class="ms">${ms}</span></summary>` +
    `<div class="sbody">${parts.join('')}</div></details>`
  );
}

/** The SECURITY advisories that did not hold: the first thing on the page (docs/isolation.md); server text escaped. */
function securitySection(a: AdvisorySummary): string {
  const headline = securityHeadline(a);
  if (headline === undefined) return '';
  const items = securityFindings(a).flatMap((f) => f.scenarios.map((x) => `<li>${esc(x.id)}: ${esc(clip(x.message.split('\n')[0]!, 600))}</li>`));
  return `<section class="security" role="alert"><strong>${esc(headline)}</strong><ul>${items.join('')}</ul></section>`;
}

/** The advisories that did not hold, by id: what each expects and why it is not a rule, and where (server text escaped). */
function advisoriesSection(a: AdvisorySummary): string {
  if (a.failed === 0) return '';
  const items = a.byId.map(
    (b) =>
      `<li><strong>${esc(b.id)}</strong> (${b.failed}×): expects ${esc(b.expects)}<div class="why">why it is not a rule: ${esc(b.reason)}</div>` +
      `<ul>${b.scenarios.map((x) => `<li><a href="#${esc(x.id)}">${esc(x.id)}</a>: ${esc(x.message.split('\n')[0])}</li>`).join('')}</ul></li>`,
  );
  return `<section class="advisories"><div class="notice"><strong>${esc(advisoryHeadline(a) ?? '')}</strong><ol>${items.join('')}</ol></div></section>`;
}

function gate(g: Gate): string {
  const items = [
    ...g.unexpected.map((u) => `<li>new failure (${esc(u.outcome)}): ${esc(u.id)}</li>`),
    ...g.fixed.map((id) => `<li>fixed: remove ${esc(id)} from the baseline</li>`),
  ];
  return (
    `<div class="notice gate ${g.passed ? 'ok' : 'bad'}"><strong>Baseline gate ${g.passed ? 'passed' : 'FAILED'}</strong> (${esc(g.baseline)}): ` +
    `${g.known.length} known failure(s) allowed, ${g.unexpected.length} new, ${g.fixed.length} fixed${g.unchecked.length ? `, ${g.unchecked.length} not checked` : ''}.` +
    `${items.length ? `<ul>${items.join('')}</ul>` : ''}</div>`
  );
}

function filter(view: ReportView): string {
  const all = view.scenarios;
  // Nothing to filter or search (an explore report): no empty controls.
  if (all.length === 0) return '';
  const count = (f: (o: Outcome) => boolean) => all.filter((s) => f(s.outcome)).length;
  const options: [string, string, number][] = [
    ['all', 'All', all.length],
    ['failures', 'Failures', count(isFailing)],
    ['passed', 'Passed', count((o) => o === 'passed')],
    ['skipped', 'Skipped / not run', count((o) => o === 'skipped' || o === 'not-run')],
    ...(all.some((x) => x.advisories?.length) ? [['advisories', 'Advisories', all.filter((x) => x.advisories?.length).length] as [string, string, number]] : []),
  ];
  // Open on the failures when there are any: they are what the reader came for.
  const first = options[1]![2] > 0 ? 'failures' : 'all';
  return `<nav class="filter" aria-label="filter scenarios"><span>Show:</span>${options
    .map(([k, label, n]) => `<input type="radio" name="show" id="show-${k}"${k === first ? ' checked' : ''}><label for="show-${k}">${label} (${n})</label>`)
    .join('')}${searchBox()}</nav>`;
}

export function renderHtml(report: Report): string {
  const view = viewOf(report);
  // The badge: the first section's verdict (the tier reached, a selection's, the hosted profile's).
  const badge = shortVerdict(report);
  const colour = TIER_COLOUR[badge.colour]!;
  const advisories = advisoriesOf(report);
  const headline = advisoryHeadline(advisories);
  const meta: [string, string][] = [
    ...view.sections.flatMap((s) => s.about),
    ...(headline !== undefined ? [['advisories', headline] as [string, string]] : []),
    ['kit', `${report.kit.name} ${report.kit.version}, bridge protocol ${report.kit.protocol}${report.target.protocolVersion ? ` (target reports ${report.target.protocolVersion})` : ''}`],
    ['run', `${report.startedAt} – ${report.endedAt} (${(report.durationMs / 1000).toFixed(1)} s)`],
    ['environment', `node ${report.environment.node}, ${report.environment.platform}/${report.environment.arch}`],
  ];
  const rows = view.sections.flatMap((section) => section.rows.filter((r) => r.total > 0));
  const groups = rows.map((r) => `<div class="tier-group"><h2>${esc(r.path.join(': '))}</h2>${r.scenarios.map(scenario).join('\n')}</div>`);
  const largest = Math.max(0, ...rows.map((r) => r.total));
  const bars = rows.map((r) => bar(r, r.path.join(' '), { text: r.standing, ok: r.ok, ...(r.incomplete ? { incomplete: true as const } : {}) }, largest));
  const warnings = view.warnings;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}; script-src '${SEARCH_SCRIPT_HASH}'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agent-memory-tck: ${esc(badge.label)} ${esc(badge.value)} — ${esc(report.target.url)}</title>
<style>${CSS}</style>
</head>
<body>
${securitySection(advisories)}
<header class="top">
<div class="badge" style="background:${colour}" role="img" aria-label="${esc(badge.label)} ${esc(badge.value)}"><span class="label">${esc(badge.label)}</span><span class="value${badge.value.length > 6 ? ' long' : ''}">${esc(badge.value)}</span></div>
<div>
<h1>agent-memory-tck conformance report${advisories.failed > 0 ? `<span class="adv-badge" title="${esc(headline ?? '')}">${advisories.failed} advisor${advisories.failed === 1 ? 'y' : 'ies'}${advisories.mode === 'fail' ? ' (failing)' : ''}</span>` : ''}</h1>
${verdicts(report).map((v) => `<p class="verdict ${v.ok ? 'ok' : v.incomplete ? 'incomplete' : 'bad'}">${esc(v.text)}</p>`).join('\n')}
<dl class="meta">${meta.map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join('')}</dl>
</div>
</header>
<section class="tiers">${bars.join('')}</section>
${report.explore ? findingsOf(report.explore).map((f, i, all) => `<section><h2>explore: minimal failing sequence${all.length > 1 ? ` (finding ${i + 1} of ${all.length})` : ''}</h2><pre>${esc(findingLines(f).join('\n'))}</pre></section>`).join('\n') : ''}
${report.gate || warnings.length ? `<section>${report.gate ? gate(report.gate) : ''}${warnings.map((w) => `<div class="notice">warning: ${esc(w)}</div>`).join('')}</section>` : ''}
${causesSection(view)}
${advisoriesSection(advisories)}
${filter(view)}
<main>
${groups.join('\n')}
</main>
<script>${SEARCH_SCRIPT}</script>
<footer>report format ${esc(report.formatVersion)} · rendered by ${esc(report.kit.name)} ${esc(report.kit.version)} · the same content as report.json</footer>
</body>
</html>
`;
}
