// `tck compare`: three implementations (the reference and two faulty variants) side by side, the
// differing scenarios first, in text, Markdown and a no-script HTML page looked at in Chromium.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compare, loadComparable, type Comparison, type Implementation } from '../../src/report/compare.js';
import type { Report } from '../../src/report/model.js';
import { renderCompareHtml, renderCompareMarkdown, renderCompareText } from '../../src/report/render/compare.js';
import { runTck } from '../../src/index.js';
import { certify } from '../../src/certify/certify.js';
import { mapResponse, withVariant, type Wrap } from '../harness/variants.js';
import { XSS } from '../reporters/support.js';
import { ALL_SCENARIOS as ALL } from '../../suites/index.js';

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

describe('issue 33, item 13: runs of different selections, and hosted-only reports', () => {
  it('a Platinum bundle beside Gold runs: the Platinum scenarios only it holds are set apart, not counted as differing', () => {
    const platinum = ALL.filter((s) => s.tier === 'platinum').length;
    expect(c.partial.flatMap((s) => s.rows)).toHaveLength(platinum);
    expect(c.differing.flatMap((s) => s.rows).some((r) => r.tier === 'platinum')).toBe(false);
    expect(renderCompareText(c)).toMatch(new RegExp(`^\\d+ of the ${c.total} scenarios every file holds differ; ${platinum} more are in only some of the files \\(different selections\\), not compared:$`, 'm'));
  });

  it('a hosted-only run shows its verdict and its scenarios, not NONE 0/0', async () => {
    const report = (await runTck({ hosted: {}, scenarios: ['SCN-H-001', 'SCN-H-002'] })) as Report;
    const [f, g] = [join(dir, 'hosted-only.json'), join(dir, 'hosted-again.json')];
    for (const file of [f, g]) writeFileSync(file, JSON.stringify(report));
    const h = compare([await loadComparable(f), await loadComparable(g)]);
    expect(h.implementations[0]).toMatchObject({ verdict: 'HOSTED PASSED', colour: 'passed' });
    expect(h.total).toBe(2);
    expect(renderCompareText(h)).toMatch(/A {2}hosted-only +HOSTED PASSED +2\/2 passed/);
    expect(renderCompareText(h, { all: true })).toContain('Hosted profile · ');
  }, 60_000);
});

describe('the comparison matrix', () => {
  it('names each implementation with its tier, from a bundle and from reports', () => {
    expect(c.implementations.map((m) => [m.name, m.kind, m.achieved])).toEqual([
      ['reference 0.1.0', 'bundle', 'platinum'],
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
    const rank = { bronze: 0, silver: 1, gold: 2, platinum: 3, hosted: 4 };
    expect(c.differing.map((s) => rank[s.tier])).toEqual([...c.differing.map((s) => rank[s.tier])].sort());
  });

  it('renders text and Markdown with the differing scenarios before the rest', () => {
    const text = renderCompareText(c);
    expect(text).toMatch(/A {2}reference 0\.1\.0 +PLATINUM/);
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
      expect(await page.locator('.impl .dot').allInnerTexts()).toEqual(['PLATINUM', 'NONE', 'SILVER']);
      expect(await page.locator('main table td.o-failed').count()).toBeGreaterThan(0);
      expect(await page.locator('script').count()).toBe(0);
      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: false });
      expect(ran).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('reports that are all called report.json (issue 24, item 9)', () => {
  let reports: { report: Report; implementation: Implementation }[];
  beforeAll(async () => {
    const one = (wrap?: Wrap) => withVariant(wrap ? { wrap } : {}, (url) => runTck({ url, tier: 'bronze', grep: 'SCN-B-04[3-4]' }));
    const runs = [await one(), await one(lossy), await one(blind)];
    reports = await Promise.all(
      runs.map((r, i) => {
        const sub = join(dir, `impl-${'abc'[i]}`);
        mkdirSync(sub, { recursive: true });
        writeFileSync(join(sub, 'report.json'), JSON.stringify(r));
        return loadComparable(join(sub, 'report.json'));
      }),
    );
  }, 120_000);

  it('are named by their targets when those differ', () => {
    const names = compare(reports).implementations.map((m) => m.name);
    expect(names).toEqual(reports.map((r) => r.report.target.url));
    expect(new Set(names).size).toBe(3);
  });

  it('by the ends of their paths when the targets are the same', () => {
    const same = reports.map((r) => ({ ...r, report: { ...r.report, target: { ...r.report.target, url: 'http://127.0.0.1:3001' } } }));
    expect(compare(same).implementations.map((m) => m.name)).toEqual(['impl-a/report.json', 'impl-b/report.json', 'impl-c/report.json']);
    expect(renderCompareHtml(compare(same))).toContain('<span class="iname">impl-b/report.json</span>');
  });

  it.skipIf(!existsSync(CHROMIUM))('at 390 px every verdict column is on screen', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      // Long names (URLs of three implementations) and long titles are what pushed the verdicts off.
      const path = join(dir, 'compare-390.html');
      writeFileSync(path, renderCompareHtml(compare([...reports, { ...reports[0]!, implementation: { ...reports[0]!.implementation, name: 'a-very-long-implementation-name-without-any-space-in-it' } }])));
      const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
      await page.goto(`file://${path}`);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      const cells = await page.locator('main table tbody tr:has(td.o) >> nth=0').locator('td.o').all();
      expect(cells.length).toBe(4);
      for (const cell of cells) {
        const box = (await cell.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: join(SCREENSHOT, '..', 'compare-html-390.png'), fullPage: false });
    } finally {
      await browser.close();
    }
  }, 60_000);
});
