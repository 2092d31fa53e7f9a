// Issue 24, item 8: a failing row of report.html shows the first informative line of its message
// (a data-model failure's issue, not "response does not match the data model:" alone), and the
// search box searches the messages (a field name such as sessionId finds every failure naming it).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { informativeLine, renderHtml } from '../../src/report/render/html.js';
import { mapResponse } from '../harness/variants.js';
import { reportOn, tempDir } from './support.js';

const CHROMIUM = '/usr/bin/chromium';
const camel = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(camel) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(x)])) : v;

let report: Report;
let html: string;
let naming: string[];
beforeAll(async () => {
  report = await reportOn(mapResponse('list_sessions', (list) => camel(list)), { tier: 'bronze' });
  html = renderHtml(report);
  naming = report.scenarios.filter((s) => s.outcome !== 'passed' && s.message?.includes('sessionId')).map((s) => s.id);
}, 120_000);

describe('report.html rows and search', () => {
  it('the one-line message of a data-model failure is its issue, not the announcement', () => {
    expect(informativeLine('list_sessions: response does not match the data model:\n  [0].session_id: is missing (required)')).toBe('list_sessions: response does not match the data model: [0].session_id: is missing (required)');
    expect(informativeLine('add_message: expected 2 item(s), got 3\nmore')).toBe('add_message: expected 2 item(s), got 3');
    expect(naming.length).toBeGreaterThan(3);
    const rows = [...html.matchAll(/<span class="smsg">([^<]*)<\/span>/g)].map((m) => m[1]!);
    expect(rows.length).toBe(naming.length);
    for (const row of rows) expect(row).toMatch(/response does not match the data model: .*session_id: is missing \(required\); sessionId is present/);
  });

  it('every failure naming sessionId carries it in what the search box searches', () => {
    const searched = [...html.matchAll(/<details class="scn [^"]*" id="([^"]+)" data-search="([^"]*)"/g)].filter((m) => m[2]!.includes('sessionId')).map((m) => m[1]);
    expect(searched).toEqual(naming);
  });

  it.skipIf(!existsSync(CHROMIUM))('in Chromium, typing sessionId shows exactly those failures', async () => {
    const path = join(tempDir('tck-html-rows-'), 'report.html');
    writeFileSync(path, html);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const page = await browser.newPage();
      await page.goto(`file://${path}`);
      await page.click('label[for=show-all]');
      await page.fill('#q', 'sessionId');
      expect(await page.locator('details.scn:visible').count()).toBe(naming.length);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
