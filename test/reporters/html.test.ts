// report.html against a hostile server: everything from the server is escaped (statically, and in
// a real headless Chromium, where no injected script runs), the filter and the expandable
// scenarios work, and a screenshot is kept for a human to look at.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { esc, renderHtml } from '../../src/report/render/html.js';
import { SEARCH_SCRIPT } from '../../src/report/render/search.js';
import { HOSTILE_GREP, XSS, hostile, reportOn, tempDir } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
/** Where the screenshot is kept (reports/ is not under version control). */
export const SCREENSHOT = new URL('../../reports/screenshots/report-html.png', import.meta.url).pathname;

let report: Report;
let html: string;

beforeAll(async () => {
  report = await reportOn(hostile, { tier: 'silver', grep: HOSTILE_GREP });
  html = renderHtml(report);
});

describe('report.html escapes everything from the server', () => {
  it("has one script, the kit's own search, and a CSP that admits that script by hash and no other", () => {
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).toContain(`<script>${SEARCH_SCRIPT}</script>`);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';[^"]*; script-src 'sha256-[A-Za-z0-9+/]+=*'">/);
    expect(html).not.toMatch(/unsafe-inline'[^"]*script-src[^"]*unsafe-inline|script-src[^"]*unsafe/);
  });

  it('holds the hostile texts only escaped', () => {
    for (const x of Object.values(XSS)) {
      expect(html).not.toContain(x);
      // Up to the first double quote: inside JSON texts the rest is backslash-escaped.
      expect(html).toContain(esc(x.split('"')[0]));
    }
    expect(html).not.toMatch(/<img/i);
  });

  it('is self-contained: nothing is loaded from anywhere', () => {
    expect(html).not.toMatch(/<[^>]*\s(src|href)=/i);
    expect(html).not.toMatch(/url\((?!#)/);
    expect(html).not.toMatch(/@import/);
  });
});

describe.skipIf(!existsSync(CHROMIUM))(`report.html in headless Chromium (${CHROMIUM})`, () => {
  let context: import('playwright-core').BrowserContext;
  const dir = tempDir('tck-html-');

  beforeAll(async () => {
    const { chromium } = await import('playwright-core');
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tck-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 30_000);
  afterAll(async () => context?.close());

  /** Opens a page of `markup`; reports whether any script ran (a dialog, a changed title, an error). */
  async function open(markup: string, name: string) {
    const path = join(dir, name);
    writeFileSync(path, markup);
    const page = await context.newPage();
    const ran: string[] = [];
    page.on('dialog', (d) => (ran.push(`dialog ${d.message()}`), void d.dismiss()));
    page.on('pageerror', (e) => ran.push(`error ${e.message}`));
    await page.goto(`file://${path}`);
    return { page, ran };
  }

  it('renders: badge, a bar per tier, the filter, expandable scenarios; no injected script runs', async () => {
    const { page, ran } = await open(html, 'report.html');
    const title = await page.title();
    expect(title).toBe(`agent-memory-tck: selection FAILED — ${report.target.url}`);
    expect(await page.locator('.badge .value').innerText()).toBe('FAILED');
    expect(await page.locator('.tier').count()).toBe(report.tiers.filter((t) => t.total > 0).length);
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img, iframe').count()).toBe(0);

    // The page opens on the failures; "All" shows every scenario; a scenario opens to its evidence.
    const all = report.scenarios.length;
    const bad = report.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error').length;
    expect(await page.locator('details.scn:visible').count()).toBe(bad);
    await page.click('label[for=show-all]');
    expect(await page.locator('details.scn:visible').count()).toBe(all);
    await page.click('label[for=show-failures]');
    expect(await page.locator('details.scn:visible').count()).toBe(bad);
    const failing = page.locator('details.scn.bad').first();
    await failing.locator(':scope > summary').click();
    expect(await failing.locator('pre.message').isVisible()).toBe(true);
    // A scenario whose evidence holds the hostile content shows it as text.
    const errored = page.locator('details.scn', { hasText: 'pwned:error' }).first();
    await errored.locator(':scope > summary').click();
    expect(await errored.innerText()).toContain(XSS.error);
    await page.evaluate('window.scrollTo(0, 0)'); // (strings: the kit's types have no DOM)
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    expect(await page.title()).toBe(title);
    expect(ran).toEqual([]);
    await page.close();
  });

  it('fits a 390 px phone: no horizontal scroll, the verdict word inside its circle', async () => {
    const { page } = await open(html, 'mobile.html');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const fits = await page.evaluate("(() => { const v = document.querySelector('.badge .value'); return v.scrollWidth <= v.parentElement.clientWidth; })()");
    expect(fits).toBe(true);
    await page.close();
  });

  it('escaping alone holds: without the CSP no injected script runs either', async () => {
    const { page, ran } = await open(html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''), 'no-csp.html');
    await page.click('label[for=show-failures]');
    await page.evaluate("document.querySelectorAll('details').forEach((d) => (d.open = true))");
    expect(await page.title()).not.toMatch(/pwned/);
    expect(await page.locator('img').count()).toBe(0);
    expect(ran).toEqual([]);
    await page.close();
  });

  it('the control: the same payload unescaped does run (so the checks above can fail)', async () => {
    const { page } = await open(`<!doctype html><title>t</title><body>${XSS.content}</body>`, 'control.html');
    expect(await page.title()).toBe('pwned:content');
    await page.close();
  });
});
