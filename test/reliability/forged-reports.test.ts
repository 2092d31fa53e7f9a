// Issue 25, items 5 and 8: a hostile server cannot forge the reports. junit-report-builder escapes
// only the first "]]>" of a CDATA section, so an answer holding two of them ended the section and
// wrote the rest as markup: test cases that passed, in the file CI gates read. And the bidi
// controls (U+202E "right-to-left override" and the others) reached the console and the reports
// raw, reordering what a reader sees. A full run (`tck run`, every reporter) against a server
// whose answers carry both; each file is then read the way its consumer reads it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printable } from '../../src/engine/evidence.js';
import type { Report } from '../../src/report/model.js';
import { compose, mapResponse } from '../harness/variants.js';
import { startVariant, tck, tempDir, type Ran } from '../reporters/support.js';

const { parse } = createRequire(import.meta.url)('test-results-parser') as {
  parse(o: { type: 'junit'; files: string[] }): { total: number; suites: { total: number; cases: { name: string }[] }[] };
};
const XSD = readFileSync(new URL('../reporters/fixtures/jenkins-junit.xsd', import.meta.url), 'utf8');

/** Closes the CDATA section of a failure's (or an error's) evidence and writes test cases that pass. */
const FORGE = [
  ']]>',
  "]]></failure></testcase><testcase classname='forged' name='FORGED-PASS-1' time='0'/><testcase classname='forged' name='x'><failure><![CDATA[",
  "]]></error></testcase><testcase classname='forged' name='FORGED-PASS-2' time='0'/><testcase classname='forged' name='y'><error><![CDATA[",
].join('');
/** Every bidirectional control: embeddings, overrides, isolates and the marks. */
const BIDI = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
const RAW_BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

let server: { url: string; close(): Promise<void> };
let run: Ran;
let out: string;
let report: Report;

beforeAll(async () => {
  server = await startVariant(
    compose(
      mapResponse('add_message', (m) => ({ ...m, content: `${m.content}${FORGE}${BIDI}txt.exe` })),
      (next) => (m, body) => (m === 'search_messages' ? { status: 400, body: { error: `${FORGE}${BIDI}` } } : next(m, body)),
    ),
  );
  out = tempDir('tck-forged-');
  run = await tck(['run', '--url', server.url, '--tier', 'bronze', '--grep', 'add_message|search_messages', '--reporter', 'console,json,junit,html,md', '--out', out, '--verbose']);
  report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
}, 120_000);
afterAll(() => server.close());

describe('a hostile server cannot forge junit.xml', () => {
  it('the forging text reached the report (so the checks below test something)', () => {
    expect(run.code).toBe(1);
    expect(JSON.stringify(report)).toContain('FORGED-PASS-1');
    expect(report.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error').length).toBeGreaterThan(2);
  });

  it('is well-formed and valid against the Jenkins/Surefire XSD', async () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    const result = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'jenkins-junit.xsd', contents: XSD }] });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('a JUnit consumer reads exactly the scenarios run, and no forged test case', () => {
    const parsed = parse({ type: 'junit', files: [join(out, 'junit.xml')] });
    const names = parsed.suites.flatMap((s) => s.cases.map((c) => c.name));
    expect(names.filter((n) => /FORGED|^[xy]$/.test(n))).toEqual([]);
    expect(names).toHaveLength(report.scenarios.length);
    expect(parsed.total).toBe(report.scenarios.length);
  });

  it('the evidence is kept, with each "]]>" written "]]\\u003e"', () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(xml).toContain("]]\\u003e</failure></testcase><testcase classname='forged' name='FORGED-PASS-1'");
  });
});

describe('the other formats', () => {
  it('HTML and Markdown show the forging text as text, never as markup', () => {
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain('FORGED-PASS-1');
    expect(html).not.toMatch(/<testcase|<failure|<!\[CDATA\[/);
    const md = readFileSync(join(out, 'summary.md'), 'utf8');
    // Server text appears only inside fenced code blocks.
    const outside = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
    expect(outside).not.toMatch(/<testcase|<failure/);
  });

  it('report.json keeps the answers as data and parses back', () => {
    expect(() => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as unknown).not.toThrow();
  });
});

describe('bidi controls from a server never reach the console or a report raw', () => {
  it('printable escapes every bidi control as it does ESC and C1', () => {
    expect(printable(`a${BIDI}b\u001b\u009b`)).toBe('a\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061cb\\u001b\\u009b');
  });

  it('the console, junit.xml, report.html and summary.md hold none raw; the escapes are there', () => {
    expect(run.stdout + run.stderr).not.toMatch(RAW_BIDI);
    expect(run.stdout).toContain('\\u202e');
    for (const file of ['junit.xml', 'report.html', 'summary.md']) {
      const text = readFileSync(join(out, file), 'utf8');
      expect(text, file).not.toMatch(RAW_BIDI);
      expect(text, file).toContain('\\u202e');
    }
  });
});
