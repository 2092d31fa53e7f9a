// Issue 33, item 16: the HTML page's badge holds a long tier word whole (PLATINUM, INCOMPLETE: a
// smaller size), and the tier bars share one scale (a tier of fewer scenarios is a shorter bar).
import { describe, expect, it } from 'vitest';
import { normalizeReport } from '../../src/report/load.js';
import { renderHtml } from '../../src/report/render/html.js';
import { runTck } from '../../src/run/run.js';

describe('report.html: badge and bars', () => {
  it('PLATINUM is set in the smaller size; the bars are as long as their tiers are large', async () => {
    const report = normalizeReport(await runTck({ tier: 'platinum' }));
    expect(report.achieved).toBe('platinum');
    const html = renderHtml(report);
    expect(html).toContain('<span class="value long">PLATINUM</span>');
    const widths = [...html.matchAll(/<div class="bar" style="width:([\d.]+)%"/g)].map((m) => Number(m[1]));
    const totals = report.tiers.map((t) => t.total);
    const largest = Math.max(...totals);
    expect(widths).toEqual(totals.map((t) => Number(((t / largest) * 100).toFixed(3))));
    expect(new Set(widths).size).toBeGreaterThan(1);
    expect(Math.max(...widths)).toBe(100);
  }, 60_000);
});
