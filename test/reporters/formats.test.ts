// The file formats, rendered from one report of a faulty server: JSON against its schema, JUnit
// against the Jenkins/Surefire XSD, Markdown, the badge, GitHub annotations, and reporter isolation.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { causesOf } from '../../src/report/causes.js';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { renderBadge } from '../../src/report/render/badge.js';
import { githubAnnotations, publishToGithub } from '../../src/report/render/github.js';
import { FILE_FORMATS, filesUnder, writeReports } from '../../src/report/render/index.js';
import { junit, renderJunit, xmlSafe } from '../../src/report/render/junit.js';
import { codeBlock, renderMarkdown } from '../../src/report/render/markdown.js';
import { expectedActualDiff } from '../../src/report/render/text.js';
import { HOSTILE_GREP, XSS, hostile, reportOn, tempDir } from './support.js';

const XSD = readFileSync(new URL('./fixtures/jenkins-junit.xsd', import.meta.url), 'utf8');

async function validateJunit(xml: string) {
  return validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'jenkins-junit.xsd', contents: XSD }] });
}

let report: Report;
/** The hostile report plus one scenario of every other outcome (and control characters in a message). */
let everyOutcome: Report;

beforeAll(async () => {
  report = await reportOn(hostile, { tier: 'silver', grep: HOSTILE_GREP });
  const [first] = report.scenarios;
  const extra = (['skipped', 'not-run', 'error'] as const).map((outcome, i) => ({
    ...first!,
    id: `SCN-S-99${i}`,
    outcome,
    message: `${outcome}: a message with \u0001 control \u001b[31m characters, ]]> and a lone \ud800 surrogate`,
  }));
  everyOutcome = { ...report, scenarios: [...report.scenarios, ...extra] };
});

describe('report.json', () => {
  it('validates against its zod schema, and failures carry their exchanges and a repro script', () => {
    expect(ReportSchema.safeParse(JSON.parse(FILE_FORMATS.json.render(report))).success).toBe(true);
    const failed = report.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error');
    expect(failed.length).toBeGreaterThan(3);
    for (const s of failed) {
      expect(s.exchanges.length, s.id).toBeGreaterThan(0);
      expect(s.repro, s.id).toMatch(/^#!\/usr\/bin\/env bash\n/);
    }
    // The hostile markup really reached the report, so the escaping tests below test something.
    const text = JSON.stringify(report);
    for (const x of Object.values(XSS)) expect(text).toContain(JSON.stringify(x).slice(1, -1));
  });

  it('is published as JSON Schema with the gate and the repro script', () => {
    const schema = z.toJSONSchema(ReportSchema, { unrepresentable: 'any' }) as { properties: Record<string, any> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(['kit', 'target', 'environment', 'grading', 'tiers', 'achieved', 'scenarios', 'gate']));
    expect(Object.keys(schema.properties.scenarios.items.properties)).toEqual(expect.arrayContaining(['id', 'tier', 'clauses', 'title', 'outcome', 'durationMs', 'message', 'exchanges', 'repro']));
  });
});

describe('JUnit XML', () => {
  it('validates against the Jenkins/Surefire XSD, with every outcome and hostile text', async () => {
    const xml = renderJunit(everyOutcome);
    const result = await validateJunit(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('the XSD bites: a <testsuites skipped=…> (which the builder writes and we drop) is rejected', async () => {
    const raw = junit.newBuilder();
    raw.testSuite().name('s').testCase().name('c').skipped();
    const result = await validateJunit(raw.build());
    expect(result.valid).toBe(false);
    expect(result.errors[0]?.message).toMatch(/skipped/);
  });

  it('has one testsuite per tier and one testcase per scenario, with the evidence in the element body', () => {
    const xml = renderJunit(report);
    expect(xml.match(/<testsuite /g)).toHaveLength(report.tiers.filter((t) => t.total > 0).length);
    expect(xml.match(/<testcase /g)).toHaveLength(report.scenarios.length);
    const s = report.scenarios.find((x) => x.outcome === 'failed')!;
    expect(xml).toContain(`classname="${s.tier}.${s.group}" name="${s.id} ${s.title.replace(/"/g, '&quot;')}"`);
    expect(xml).toMatch(/<failure message="[^"]+" type="assertion"><!\[CDATA\[FAIL SCN-/);
    expect(xml).toContain('POST /');
    expect(xml).not.toMatch(/time="[^"]*e[-+]/); // never exponent notation
  });

  it('xmlSafe writes characters XML cannot hold as \\uXXXX and keeps the rest', () => {
    expect(xmlSafe('a\u0001b\u001bc\ud800d\ttab\u00e9😀')).toBe('a\\u0001b\\u001bc\\ud800d\ttab\u00e9😀');
  });
});

describe('Markdown, badge and GitHub', () => {
  it('the Markdown summary has the verdict, the tier table and each failure in a code block', () => {
    const md = renderMarkdown(report);
    expect(md).toMatch(/^## agent-memory-tck: selection FAILED \(\d+ of \d+ selected passed; \d+ of \d+ Bronze and Silver scenarios\) ❌\n/);
    expect(md).toContain('| tier | passed | failed | error | skipped | not run | its own scenarios | tier reached |');
    expect(md).toMatch(/<details><summary><b>FAIL<\/b> SCN-/);
    // Server text appears only inside fenced code blocks.
    const outside = md.replace(/^(`{3,})text\n[\s\S]*?\n\1$/gm, '');
    for (const x of Object.values(XSS)) expect(outside).not.toContain(x);
  });

  it('a code block fence outlasts any backtick run in its text', () => {
    expect(codeBlock('a ```` b')).toBe('`````text\na ```` b\n`````');
  });

  it('annotations escape newlines and separators; the summary is appended to GITHUB_STEP_SUMMARY', async () => {
    const lines = githubAnnotations(report);
    // One per root cause, never more than ten.
    expect(lines.length).toBe(Math.min(10, causesOf(report.scenarios).length));
    for (const l of lines) expect(l).toMatch(/^::error title=\d+ (scenarios? failing|more causes)[^:]*::[^\n]+$/);
    expect(lines.every((l) => l.includes('%0A'))).toBe(true); // title and message on one line

    const dir = tempDir();
    const summary = join(dir, 'summary.md');
    writeFileSync(summary, '# earlier step\n');
    const out: string[] = [];
    await publishToGithub(report, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary }, { write: (s) => out.push(s) });
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${renderMarkdown(report)}\n`);
    expect(out.join('')).toBe(lines.map((l) => `${l}\n`).join(''));
  });

  it('a known failure of a baseline is a warning annotation, a fixed one an error', () => {
    const [known] = report.scenarios.filter((s) => s.outcome === 'failed');
    const gated: Report = {
      ...report,
      gate: { baseline: 'kf.json', passed: false, known: [{ id: known!.id, outcome: 'failed', reason: 'r' }], unexpected: [], fixed: ['SCN-B-001'], unchecked: [] },
    };
    const lines = githubAnnotations(gated);
    expect(lines.find((l) => l.startsWith('::warning'))).toMatch(new RegExp(`^::warning title=1 scenario known \\(in the baseline\\)%3A .*scenarios: ${known!.id}%0A`));
    expect(lines.at(-1)).toBe('::error title=SCN-B-001 fixed::fixed: remove SCN-B-001 from the baseline kf.json');
  });

  it('the badge is well-formed SVG naming the achieved tier in its colour', async () => {
    for (const [achieved, colour] of [['gold', '#8a6a0e'], [null, '#b42318']] as const) {
      const svg = renderBadge({ ...report, achieved, narrowed: undefined });
      expect(svg).toContain(`aria-label="agent-memory tck: ${achieved ?? 'none'}"`);
      expect(svg).toContain(`fill="${colour}"`);
      const parsed = await validateXML({ xml: [{ fileName: 'badge.svg', contents: svg }], normalization: 'format' });
      expect(parsed.errors).toEqual([]);
    }
  });
});

describe('expected/actual diff', () => {
  it('marks expected lines - and actual lines +, with context cut to a few lines', () => {
    const expected = Array.from({ length: 20 }, (_, i) => `m${i}`);
    const actual = expected.map((x) => (x === 'm10' ? 'm10-changed' : x));
    const lines = expectedActualDiff({ expected, actual })!;
    expect(lines.filter((l) => l.kind === '-')).toEqual([{ kind: '-', text: '  "m10",' }]);
    expect(lines.filter((l) => l.kind === '+')).toEqual([{ kind: '+', text: '  "m10-changed",' }]);
    expect(lines[0]).toEqual({ kind: '…', text: '' });
    expect(lines.length).toBeLessThan(12);
  });
  it('does not apply to two plain values (the message shows them) or a missing side', () => {
    expect(expectedActualDiff({ expected: 2, actual: 5 })).toBeUndefined();
    expect(expectedActualDiff({ expected: [1] })).toBeUndefined();
  });
});

describe('writeReports', () => {
  it('a reporter that fails is named and never stops the others', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'blocker'), 'a file where a directory should be');
    const targets = [...filesUnder(join(dir, 'out'), ['json', 'junit']), { format: 'html' as const, path: join(dir, 'blocker', 'report.html') }, ...filesUnder(join(dir, 'out'), ['md', 'badge'])];
    const { written, failed } = await writeReports(report, targets);
    expect(written.map((w) => w.format)).toEqual(['json', 'junit', 'md', 'badge']);
    expect(failed).toEqual([expect.objectContaining({ format: 'html', reason: expect.stringMatching(/ENOTDIR|EEXIST/) })]);
    expect(readFileSync(join(dir, 'out', 'badge.svg'), 'utf8')).toMatch(/^<svg/);
  });
});
