// report.html as a reader meets it: it opens on the failures, each failing row says why in one
// line, the search box filters (with JavaScript; without it the failures filter still works and the
// page points to the browser's find), it fits a 390 px phone, the tier word fits its circle, and
// the badge's white text has a contrast of at least 4.5:1. Screenshots at 1280 and 390 px are kept
// in reports/screenshots/ for a human to look at (TCK_SCREENSHOTS=DIR puts them there instead).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { TIER_COLOUR, informativeLine, renderHtml } from '../../src/report/render/html.js';
import { keepsDeleted, reportOn, tempDir } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = process.env.TCK_SCREENSHOTS || new URL('../../reports/screenshots/', import.meta.url).pathname;

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('badge colours', () => {
  it('the contrast formula is the WCAG one (black on white is 21:1, #777 on white about 4.48:1)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });
  it.each(Object.entries(TIER_COLOUR))('white text on %s (%s) has a contrast of at least 4.5:1', (_name, colour) => {
    expect(contrast('#ffffff', colour)).toBeGreaterThanOrEqual(4.5);
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`report.html layout in headless Chromium (${CHROMIUM})`, () => {
  let browser: import('playwright-core').Browser;
  let report: Report;
  let path: string;

  beforeAll(async () => {
    report = await reportOn(keepsDeleted, { tier: 'gold' });
    path = join(tempDir('tck-html-layout-'), 'report.html');
    writeFileSync(path, renderHtml(report));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);
  afterAll(async () => browser?.close());

  async function open(width: number, javaScriptEnabled = true) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`file://${path}`);
    return { page, context, errors };
  }

  const failing = () => report.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error');

  /** Every tier word fits inside the badge's circle (its widest chord, with a margin). */
  async function wordsFit(page: import('playwright-core').Page) {
    for (const word of ['BRONZE', 'SILVER', 'GOLD', 'NONE', 'PASSED', 'FAILED']) {
      const [value, circle] = (await page.evaluate(`(() => {
        const v = document.querySelector('.badge .value'); v.textContent = ${JSON.stringify(word)};
        return [v.getBoundingClientRect().width, document.querySelector('.badge').getBoundingClientRect().width];
      })()`)) as [number, number];
      expect(value, word).toBeLessThanOrEqual(circle * 0.85);
    }
  }

  it('desktop (1280 px): opens on the failures, each with its one-line message; the search box filters', async () => {
    const { page, context, errors } = await open(1280);
    const bad = failing();
    expect(bad.length).toBeGreaterThan(0);
    expect(await page.locator('#show-failures').isChecked()).toBe(true);
    expect(await page.locator('details.scn:visible').count()).toBe(bad.length);
    const first = page.locator('details.scn.bad').first();
    // Its one-line message is the first informative line, naming the sentences the failed assertion enforces.
    expect(await first.locator('.smsg').innerText()).toBe(`${informativeLine(bad[0]!.message)} [${bad[0]!.cites!.join(', ')}]`);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'html-desktop.png') });

    // The script ran under the CSP (by its hash): the box is shown and filters, with the radio filter.
    expect(await page.locator('#q').isVisible()).toBe(true);
    await page.click('label[for=show-all]');
    await page.fill('#q', bad[0]!.id.toLowerCase());
    expect(await page.locator('details.scn:visible').count()).toBe(1);
    await page.fill('#q', 'delete_message');
    const matching = await page.locator('details.scn:visible').count();
    expect(matching).toBeGreaterThan(1);
    expect(matching).toBeLessThan(report.scenarios.length);
    // Tier headings with nothing left to show are hidden too.
    expect(await page.locator('.tier-group:visible').count()).toBeLessThan(await page.locator('.tier-group').count());
    await page.fill('#q', 'no scenario has this text');
    expect(await page.locator('details.scn:visible').count()).toBe(0);
    await page.fill('#q', '');
    expect(await page.locator('details.scn:visible').count()).toBe(report.scenarios.length);
    await wordsFit(page);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('mobile (390 px): nothing overflows the screen and the tier word fits its circle', async () => {
    const { page, context } = await open(390);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.click('label[for=show-all]');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.click('label[for=show-failures]');
    await page.locator('details.scn.bad > summary').first().click();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, 'html-mobile.png') });
    await page.locator('nav.filter').scrollIntoViewIfNeeded();
    await page.evaluate("document.querySelector('nav.filter').scrollIntoView()");
    await page.screenshot({ path: join(SHOTS, 'html-mobile-list.png') });
    await wordsFit(page);
    await context.close();
  });

  it('without JavaScript: the failures filter works, the box stays hidden, the page points to find', async () => {
    const { page, context } = await open(1280, false);
    expect(await page.locator('details.scn:visible').count()).toBe(failing().length);
    expect(await page.locator('#q').isVisible()).toBe(false);
    expect(await page.locator('.find-hint').innerText()).toMatch(/browser’s find/);
    await page.click('label[for=show-all]');
    expect(await page.locator('details.scn:visible').count()).toBe(report.scenarios.length);
    await context.close();
  });
});
