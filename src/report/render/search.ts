// The search box of report.html: a progressive enhancement. A static file cannot filter on typed
// text without a script (a GET form only reloads the same file), so the box is hidden in the
// markup and shown by this one small script; without JavaScript the page says to use the
// browser's find, which searches the ids, titles and one-line messages on every row. The script
// is a constant, so the page's Content-Security-Policy admits it by its SHA-256 and nothing else.
//
// The script only toggles a class on each scenario; CSS hides what does not match, together with
// the failures/passed/skipped filter, and every tier heading left with nothing to show.
import { createHash } from 'node:crypto';
import type { AnyReportScenario } from '../model.js';

export const SEARCH_SCRIPT =
  "(function(){var q=document.getElementById('q');if(!q)return;q.parentNode.hidden=false;" +
  "var rows=Array.prototype.map.call(document.querySelectorAll('details.scn'),function(d){" +
  "return [d,(d.getAttribute('data-search')+' '+d.querySelector('summary').textContent).toLowerCase()];});" +
  "q.addEventListener('input',function(){var t=q.value.trim().toLowerCase();" +
  "rows.forEach(function(r){r[0].classList.toggle('nomatch',t!==''&&r[1].indexOf(t)<0);});});})();";

/** The CSP source that admits SEARCH_SCRIPT (and only it). */
export const SEARCH_SCRIPT_HASH = `sha256-${createHash('sha256').update(SEARCH_SCRIPT).digest('base64')}`;

export const SEARCH_CSS = `
.filter label.search { border: 0; background: none; padding: 0; cursor: auto; }
.filter .search input { position: static; opacity: 1; pointer-events: auto; font: inherit; border: 1px solid var(--line); border-radius: 999px; padding: 4px 12px; width: 16em; max-width: 100%; }
.search, .find-hint { margin-left: auto; } .find-hint { color: var(--muted); font-size: 12px; }
details.scn.nomatch, .tier-group:not(:has(details.scn:not(.nomatch))) { display: none; }
body:has(#show-failures:checked) .tier-group:not(:has(.scn.bad:not(.nomatch))),
body:has(#show-passed:checked) .tier-group:not(:has(.scn.o-passed:not(.nomatch))),
body:has(#show-skipped:checked) .tier-group:not(:has(.scn.o-skipped:not(.nomatch), .scn.o-not-run:not(.nomatch))) { display: none; }
body:has(#show-advisories:checked) .tier-group:not(:has(.scn.adv:not(.nomatch))) { display: none; }`;

/** How much of a message the box searches (a message is at most 64 KiB; its head names what failed). */
const MESSAGE_SEARCHED = 2_000;

/**
 * What the box matches a scenario on besides its row's text (id, title, one-line message): its
 * clauses, the sentences its failure cites, the advisories that did not hold in it, its group and its whole message (a field a
 * data-model issue names is often past the first line). The attribute is escaped like every other text of the page.
 */
export function searchText(s: AnyReportScenario): string {
  return [...new Set([...s.clauses, ...(s.cites ?? []), ...(s.advisories ?? []).map((a) => a.id), ...(s.advisories?.length ? ['advisory'] : []), s.group]), (s.message ?? '').slice(0, MESSAGE_SEARCHED).replace(/\s+/g, ' ')].join(' ');
}

/** The box (hidden until the script runs) and, without JavaScript, the hint. */
export function searchBox(): string {
  return (
    '<label class="search" hidden>Search <input type="search" id="q" placeholder="id, title, clause, advisory, message" autocomplete="off"></label>' +
    '<noscript><span class="find-hint">search: your browser’s find (Ctrl-F / ⌘-F)</span></noscript>'
  );
}
