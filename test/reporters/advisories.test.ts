// Advisories (the kit's own readings, issue 21) in every format: a scenario whose advisory does not
// hold still passes, and the advisory is reported apart with its reason in JSON, JUnit (read by a
// real consumer, valid against the Jenkins/Surefire schema), HTML, Markdown, the console and GitHub
// notices; `advisories: 'fail'` fails it like any failure. Failures name the sentences they break.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { normalizeReport } from '../../src/report/load.js';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { ConsoleReporter } from '../../src/report/render/console.js';
import { githubAnnotations } from '../../src/report/render/github.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderJson } from '../../src/report/render/json.js';
import { renderJunit } from '../../src/report/render/junit.js';
import { renderMarkdown } from '../../src/report/render/markdown.js';
import { runTck } from '../../src/run/run.js';
import { tempDir } from './support.js';

const { parse } = createRequire(import.meta.url)('test-results-parser') as {
  parse(o: { type: 'junit'; files: string[] }): {
    status: string;
    failed: number;
    suites: { metadata: Record<string, string>; cases: { name: string; status: string; failure: string; metadata: Record<string, string> }[] }[];
  };
};
const XSD = readFileSync(new URL('./fixtures/jenkins-junit.xsd', import.meta.url), 'utf8');
const dir = tempDir('tck-advisories-');

/** What the reference answers: a call without session_id is refused, so the advisory is made to miss here on purpose. */
const MISSED = 'add_message without session_id answered 200 {"id": …}: <b>accepted</b>';

const scenario = (id: string, run: Scenario['run']): Scenario => defineScenario({ id, tier: 'bronze', group: 'advisories', clauses: ['SPEC-2.1.1'], title: `${id} title`, asserts: 'test', run });
const advised = scenario('SCN-B-901', async ({ bridge, check }) => {
  await bridge.add_message({ session_id: 's', role: 'user', content: 'x' });
  check.advise('ADV-refuse-missing-param').ok(false, MISSED);
  check.by('SPEC-2.1.1').ok(true, 'a rule that holds');
});
const plain = scenario('SCN-B-902', async ({ check }) => void check.ok(true, 'holds'));
const broken = scenario('SCN-B-903', async ({ check }) => check.by('SPEC-2.2.1', 'BRIDGE-MODEL-Message').equal(['m2', 'm1'], ['m1', 'm2'], 'get_conversation: message ids in insertion order'));

let reported: Report;
let failing: Report;
let cited: Report;
beforeAll(async () => {
  [reported, failing, cited] = await Promise.all([
    runTck({ suite: [advised, plain], tier: 'bronze' }).then(normalizeReport),
    runTck({ suite: [advised, plain], tier: 'bronze', advisories: 'fail' }).then(normalizeReport),
    runTck({ suite: [broken], tier: 'bronze' }).then(normalizeReport),
  ]);
}, 60_000);

function consoleText(report: Report): string {
  let text = '';
  new ConsoleReporter({ live: false, stream: { write: (s: string) => ((text += s), true) } }).onEnd(report);
  return text;
}

function junitOf(report: Report, name: string) {
  const xml = renderJunit(report);
  const path = join(dir, `${name}.xml`);
  writeFileSync(path, xml);
  return { xml, parsed: parse({ type: 'junit', files: [path] }) };
}

describe('an advisory that does not hold, in a run that reports advisories (the default)', () => {
  it('the scenario passes and the tier is reached; the advisory is noted with what was found', () => {
    expect(reported.achieved).toBe('bronze');
    expect(reported.scenarios[0]).toMatchObject({ id: 'SCN-B-901', outcome: 'passed', advisories: [{ id: 'ADV-refuse-missing-param', message: MISSED }], advisoryChecks: 1 });
    expect(reported.tiers.find((t) => t.tier === 'bronze')).toMatchObject({ passed: 2, failed: 0 });
  });

  it('JSON: the run-level summary says the mode, how many were checked and did not hold, by id with the reason', () => {
    const json = JSON.parse(renderJson(reported)) as Report;
    expect(ReportSchema.safeParse(json).success).toBe(true);
    expect(json.advisories).toEqual({
      mode: 'report',
      checked: 1,
      failed: 1,
      byId: [{ id: 'ADV-refuse-missing-param', expects: expect.stringContaining('refused'), reason: expect.stringContaining('no sentence says'), failed: 1, scenarios: [{ id: 'SCN-B-901', message: MISSED }] }],
    });
  });

  it('JUnit: the test case stays passed, with a note in system-out and a property per advisory a real consumer reads; still valid', async () => {
    const { xml, parsed } = junitOf(reported, 'report');
    expect(parsed.status).toBe('PASS');
    const c = parsed.suites.flatMap((s) => s.cases).find((x) => x.name.startsWith('SCN-B-901'))!;
    expect(c.status).toBe('PASS');
    expect(c.metadata['tck.advisory.ADV-refuse-missing-param']).toBe(MISSED);
    expect(xml).toContain("advisories that did not hold (1; the kit's own readings, not failures):");
    expect(parsed.suites[0]!.metadata).toMatchObject({ 'advisories.failed': 1, 'advisories.checked': 1 });
    const valid = await validateXML({ xml: [{ fileName: 'junit.xml', contents: xml }], schema: [{ fileName: 'jenkins-junit.xsd', contents: XSD }] });
    expect(valid.errors).toEqual([]);
  });

  it('HTML: a badge count, a section with the reason, the row marked and searchable by the advisory id, server text escaped', () => {
    const html = renderHtml(reported);
    expect(html).toContain('<span class="adv-badge"');
    expect(html).toMatch(/>1 advisory<\/span>/);
    expect(html).toContain('<section class="advisories">');
    expect(html).toContain('why it is not a rule: the method tables mark parameters required');
    expect(html).toMatch(/<details class="scn o-passed adv" id="SCN-B-901" data-search="[^"]*ADV-refuse-missing-param/);
    expect(html).toContain('id="show-advisories"');
    expect(html).toContain('&lt;b&gt;accepted&lt;/b&gt;');
    expect(html).not.toContain('<b>accepted</b>');
  });

  it('Markdown: the advisories line and a section after the failures, what the server said in a code block', () => {
    const md = renderMarkdown(reported);
    // Issue 33, item 16: no &#39; in Markdown (an apostrophe is text there).
    expect(md).toContain("**Advisories: 1 of 1 advisory checked did not hold; the kit's own readings, counted apart, never a failure (--advisories fail makes them failures)**");
    expect(md).toContain('### Advisories that did not hold (1)');
    expect(md).toMatch(/```text\nSCN-B-901: add_message without session_id answered 200 \{"id": …\}: <b>accepted<\/b>\n```/);
    expect(md).not.toContain('### Failures');
  });

  it('console: a section apart from the failures, and a line after the totals; the table counts no failure', () => {
    const text = consoleText(reported);
    expect(text).toContain("Advisories that did not hold (1): the kit's own readings, not failures");
    expect(text).toContain(`ADV-refuse-missing-param (1×): expects a call missing a required parameter`);
    expect(text).toContain(`  SCN-B-901: ${MISSED}`);
    expect(text).not.toContain('Failures (');
    expect(text).toMatch(/2 scenarios: 2 passed in [\d.]+ s\nAdvisories: 1 of 1 advisory checked did not hold/);
    expect(text).toMatch(/bronze +2 +0 +0/);
  });

  it('GitHub: a notice per advisory, never an error', () => {
    const lines = githubAnnotations(reported);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::notice title=advisory ADV-refuse-missing-param%3A 1 did not hold::expects a call missing/);
  });
});

describe('--advisories fail', () => {
  it('the scenario fails like any failure, citing the advisory, and the tier is not reached; the report says the mode', () => {
    expect(failing.scenarios[0]).toMatchObject({ outcome: 'failed', cites: ['ADV-refuse-missing-param'], message: `advisory ADV-refuse-missing-param (--advisories=fail): ${MISSED}` });
    expect(failing.achieved).toBeNull();
    expect(failing.advisories).toMatchObject({ mode: 'fail', checked: 1, failed: 1, byId: [{ id: 'ADV-refuse-missing-param', failed: 1 }] });
    expect(consoleText(failing)).toContain('Advisories: 1 of 1 advisory checked did not hold; counted as failures (--advisories fail)');
    expect(renderMarkdown(failing)).toContain('counted as failures (--advisories fail)');
    expect(renderHtml(failing)).toContain('(failing)</span>');
  });

  it('JUnit: a failed test case of type advisory, its property still there', () => {
    const { xml, parsed } = junitOf(failing, 'fail');
    expect(parsed.status).toBe('FAIL');
    const c = parsed.suites.flatMap((s) => s.cases).find((x) => x.name.startsWith('SCN-B-901'))!;
    expect(c.status).toBe('FAIL');
    expect(c.metadata['tck.advisory.ADV-refuse-missing-param']).toContain(MISSED);
    expect(xml).toMatch(/<failure message="advisory ADV-refuse-missing-param \(--advisories=fail\): [^"]*" type="advisory">/);
  });

  it('GitHub: the failure is an error (a failure like any other), not a notice', () => {
    const lines = githubAnnotations(failing);
    expect(lines.some((l) => l.startsWith('::error'))).toBe(true);
    expect(lines.some((l) => l.startsWith('::notice'))).toBe(false);
  });
});

describe('a failure names the sentences it breaks, in every format', () => {
  const tag = '[SPEC-2.2.1, BRIDGE-MODEL-Message]';
  it('JSON carries the cites; console, JUnit, HTML, Markdown and GitHub put them on the failure line', () => {
    const s = cited.scenarios[0]!;
    expect(s).toMatchObject({ outcome: 'failed', cites: ['SPEC-2.2.1', 'BRIDGE-MODEL-Message'] });
    const first = `get_conversation: message ids in insertion order: expected ["m1","m2"], got ["m2","m1"] ${tag}`;
    expect(consoleText(cited)).toContain(first);
    expect(renderJunit(cited)).toContain(`<failure message="${first.replace(/"/g, '&quot;')}" type="assertion">`);
    expect(renderHtml(cited)).toContain(first.replace(/"/g, '&quot;'));
    expect(renderMarkdown(cited)).toContain(first);
    expect(githubAnnotations(cited).join('\n')).toContain(tag);
  });
});
