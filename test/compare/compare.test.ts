// `tck compare`: three implementations (the reference and two faulty variants) side by side, the
// differing scenarios first, in text, Markdown and a no-script HTML page looked at in Chromium.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compare, loadComparable, type Comparison } from '../../src/report/compare.js';
import { renderCompareHtml, renderCompareMarkdown, renderCompareText } from '../../src/report/render/compare.js';
import { runTck } from '../../src/index.js';
import { certify } from '../../src/certify/certify.js';
import { mapResponse, withVariant } from '../harness/variants.js';
import { XSS } from '../reporters/support.js';

const CHROMIUM = '/usr/bin/chromium';
/** Where the screenshot is kept (reports/ is not under version control). */
const SCREENSHOT = new URL('../../reports/screenshots/compare-html.png', import.meta.url).pathname;

/** get_conversation drops the last message (Bronze); get_similar_traces never finds anything (Gold). */
const lossy = mapResponse('get_conversation', (body) => ({ ...body, messages: body.messages.slice(0, -1) }));
const blind = mapResponse('get_similar_traces', () => []);

const dir = mkdtempSync(join(tmpdir(), 'tck-compare-'));
let c: Comparison;
let files: string[];

beforeAll(async () => {
  const write = (name: string, data: unknown) => {
    const f = join(dir, name);
    writeFileSync(f, JSON.stringify(data));
    return f;
  };
  // The reference as a certification bundle, the variants as plain reports: compare reads both.
  const reference = await certify({ implementation: { name: 'reference', version: '0.1.0', language: 'TypeScript', repository: 'https://example.com/ref' } });
  files = [
    write('reference.json', reference),
    write('lossy-conversation.json', await withVariant({ wrap: lossy }, (url) => runTck({ url }))),
    write('no-similar-traces.json', await withVariant({ wrap: blind }, (url) => runTck({ url }))),
  ];
  c = compare(await Promise.all(files.map((f) => loadComparable(f))));
}, 120_000);

describe('the comparison matrix', () => {
  it('names each implementation with its tier, from a bundle and from reports', () => {
    expect(c.implementations.map((m) => [m.name, m.kind, m.achieved])).toEqual([
      ['reference 0.1.0', 'bundle', 'gold'],
      ['lossy-conversation', 'report', null],
      ['no-similar-traces', 'report', 'silver'],
    ]);
  });

  it('puts exactly the scenarios whose verdicts differ first, grouped by tier and group', () => {
    const differing = c.differing.flatMap((s) => s.rows);
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.every((r) => new Set(r.outcomes).size > 1)).toBe(true);
    expect(c.same.flatMap((s) => s.rows).every((r) => new Set(r.outcomes).size === 1)).toBe(true);
    expect(differing.length + c.same.flatMap((s) => s.rows).length).toBe(c.total);
    // A lossy get_conversation fails a get_conversation scenario the others pass.
    expect(differing.find((r) => r.id === 'SCN-B-043')?.outcomes).toEqual(['passed', 'failed', 'passed']);
    // Sections run bronze → silver → gold and never repeat a (tier, group).
    const keys = c.differing.map((s) => `${s.tier}/${s.group}`);
    expect(new Set(keys).size).toBe(keys.length);
    const rank = { bronze: 0, silver: 1, gold: 2, platinum: 3 };
    expect(c.differing.map((s) => rank[s.tier])).toEqual([...c.differing.map((s) => rank[s.tier])].sort());
  });

  it('renders text and Markdown with the differing scenarios before the rest', () => {
    const text = renderCompareText(c);
    expect(text).toMatch(/A {2}reference 0\.1\.0 +GOLD/);
    expect(text).toMatch(/SCN-B-043 +A PASS +B FAIL +C PASS/);
    expect(text).toMatch(/scenarios have the same verdict everywhere; --all lists them/);
    const md = renderCompareMarkdown(c);
    expect(md.indexOf('## Where they differ')).toBeLessThan(md.indexOf('Same verdict everywhere'));
    expect(md).toContain('| SCN-B-043 |');
  });

  it('escapes what a file brings (a hostile name) in HTML and Markdown, and has no script', () => {
    const hostile: Comparison = { ...c, implementations: c.implementations.map((m, i) => (i === 1 ? { ...m, name: XSS.content } : m)) };
    const html = renderCompareHtml(hostile);
    expect(html).not.toContain(XSS.content);
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
    expect(html).not.toMatch(/<[^>]*\s(src|href)=/i);
    expect(renderCompareMarkdown(hostile)).not.toContain(XSS.content);
  });

  it('refuses a file that is neither a report nor a bundle', async () => {
    const f = join(dir, 'other.json');
    writeFileSync(f, '{"format":"something"}');
    await expect(loadComparable(f)).rejects.toThrow(/other\.json is neither an agent-memory-tck report nor a certification bundle: /);
  });
});

describe.skipIf(!existsSync(CHROMIUM))('compare.html in headless Chromium', () => {
  it('shows the three implementations and the differing table; no script runs; a screenshot is kept', async () => {
    const { chromium } = await import('playwright-core');
    const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tck-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 900 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const path = join(dir, 'compare.html');
      writeFileSync(path, renderCompareHtml(c));
      const page = await context.newPage();
      const ran: string[] = [];
      page.on('pageerror', (e) => ran.push(e.message));
      await page.goto(`file://${path}`);
      expect(await page.locator('.impl').count()).toBe(3);
      expect(await page.locator('.impl .dot').allInnerTexts()).toEqual(['GOLD', 'NONE', 'SILVER']);
      expect(await page.locator('main > table td.o-failed').count()).toBeGreaterThan(0);
      expect(await page.locator('script').count()).toBe(0);
      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(ran).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
