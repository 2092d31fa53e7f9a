// badge.svg: the achieved tier as a shields.io-style flat badge, for a vendor's README.
import type { Report } from '../model.js';
import { TIER_COLOUR as COLOUR, esc } from './html.js';
import { shortVerdict } from './view.js';

/** Approximate advance widths of Verdana 11px (shields' font), enough to size the two halves. */
function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) {
    if ('iljtf.,:;!|\' '.includes(ch)) w += 3.9;
    else if ('mwMW'.includes(ch)) w += 10.5;
    else if (ch >= 'A' && ch <= 'Z') w += 7.6;
    else w += 6.8;
  }
  return Math.round(w);
}

export function renderBadge(report: Report, defaultLabel = 'agent-memory tck'): string {
  // The first section's verdict: the tier reached, a narrowed run's or the hosted profile's (tagged).
  const verdict = shortVerdict(report);
  const label = verdict.tag ? `${defaultLabel} ${verdict.tag}` : defaultLabel;
  const value = verdict.short;
  const colour = COLOUR[verdict.colour]!;
  const lw = textWidth(label) + 12;
  const vw = textWidth(value) + 12;
  const total = lw + vw;
  const text = (x: number, s: string) =>
    `<text x="${x * 10}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${(textWidth(s)) * 10}">${esc(s)}</text>` +
    `<text x="${x * 10}" y="140" transform="scale(.1)" fill="#fff" textLength="${textWidth(s) * 10}">${esc(s)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${esc(`${label}: ${value}`)}">
<title>${esc(`${label}: ${value}`)}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${total}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/><rect x="${lw}" width="${vw}" height="20" fill="${colour}"/><rect width="${total}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">${text(lw / 2, label)}${text(lw + vw / 2, value)}</g>
</svg>
`;
}
