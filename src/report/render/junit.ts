// JUnit XML (junit-report-builder), in the shape Jenkins and the Surefire plugin read: one
// testsuite per tier, one testcase per scenario (classname "tier.group", name "id title"),
// failure/error/skipped with the message and, in the element body, the evidence and the times.
// The hosted profile adds one testsuite per group (classname "hosted.group").
import junitModule, { type Builder } from 'junit-report-builder';
import type { AnyReportScenario, Report } from '../model.js';
import { findingLines, findingsOf } from './explore.js';
import { citedFirstLine, failureText, placeOf } from './text.js';
import { advisoriesOf, failedAdvisory, securityFindings, securityHeadline } from '../advisories.js';
import type { AdvisorySummary } from '../model.js';
import { scenariosOf, viewOf } from './view.js';

// The package is CommonJS (`module.exports = builder`) while its types declare a default export.
export const junit: Builder = (junitModule as unknown as { default?: Builder }).default ?? (junitModule as unknown as Builder);

/** Characters XML 1.0 cannot hold (most C0 controls, lone surrogates, U+FFFE/U+FFFF), written as \uXXXX. */
// eslint-disable-next-line no-control-regex -- control characters are what it escapes
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as it may reach the builder: characters XML 1.0 cannot hold written as \uXXXX, and every
 * "]]>" written "]]\u003e". The builder puts element text in CDATA sections and escapes only the
 * first "]]>" of each (xmlbuilder's `replace` with a string), so a second one would end the
 * section and let the rest of a server's answer be read as markup: forged test cases.
 */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).replaceAll(']]>', ']]\\u003e');
}

/** Seconds with millisecond precision, never in exponent notation (the schema's time pattern). */
const seconds = (ms: number) => Math.round(ms) / 1000;

function firstLine(text: string | undefined, fallback: string): string {
  const line = (text ?? '').split('\n')[0]!.trim();
  return line === '' ? fallback : line;
}

/** A skipped case's reason, in the order the cases are added (the builder writes a bare <skipped/>). */
type SkipReasons = string[];

/** A property in a test case's output, in the inline form JUnit consumers read (`[[PROPERTY|name=value]]`): one line, no `]`. */
const inlineProperty = (name: string, value: string) => `[[PROPERTY|${name}=${value.replace(/[\r\n]+/g, ' ').replace(/\]/g, ')').trim() || '-'}]]`;

/**
 * What a test case says of its advisories that did not hold: a note per advisory (it stays passed
 * unless the run fails advisories) and a property per advisory, `tck.advisory.<ID>` (numbered when
 * one fails twice). Properties go in the output because the JUnit schemas of Jenkins (xunit) and
 * Surefire allow <properties> on a test suite only, and a consumer must still read the file.
 */
function advisoryOutput(s: AnyReportScenario): string[] {
  const notes = s.advisories ?? [];
  if (notes.length === 0) return [];
  const seen = new Map<string, number>();
  return [
    `advisories that did not hold (${notes.length}; the kit's own readings, not failures):`,
    ...notes.map((n) => `  ${n.id}: ${n.message}`),
    ...notes.map((n) => {
      const k = (seen.get(n.id) ?? 0) + 1;
      seen.set(n.id, k);
      return inlineProperty(`tck.advisory.${n.id}${k > 1 ? `.${k}` : ''}`, n.message);
    }),
  ];
}

function addCase(suite: ReturnType<Builder['testSuite']>, s: AnyReportScenario, reasons: SkipReasons, target: Report['target']): void {
  const tc = suite
    .testCase()
    .className(`${placeOf(s)}.${s.group}`)
    .name(xmlSafe(`${s.id} ${s.title}`))
    .time(seconds(s.durationMs));
  const body = xmlSafe(failureText(s, { all: true, target }));
  const message = xmlSafe(citedFirstLine(s, s.outcome));
  const advised = advisoryOutput(s);
  const output = (lines: string[]) => {
    const all = [...lines, ...advised];
    if (all.length > 0) tc.standardOutput(xmlSafe(all.join('\n')));
  };
  switch (s.outcome) {
    case 'failed': {
      const advisory = failedAdvisory(s);
      tc.failure(message, s.notImplemented ? 'not-implemented' : advisory !== undefined ? 'advisory' : 'assertion').stacktrace(body);
      output(advisory !== undefined ? [inlineProperty(`tck.advisory.${advisory}`, s.message ?? advisory)] : []);
      break;
    }
    case 'error':
      tc.error(message, 'protocol-or-transport', body);
      output([]);
      break;
    case 'skipped':
    case 'not-run':
      tc.skipped();
      reasons.push(xmlSafe(firstLine(s.message, s.outcome === 'skipped' ? 'skipped' : 'not run')));
      output(s.message ? [`${s.outcome}: ${s.message}`] : []);
      break;
    case 'passed':
      output(s.notes);
      break;
  }
}

/** The run's advisories as properties of every test suite: how they were treated, and how many did not hold. */
const advisoryFacts = (a: AdvisorySummary): [string, string][] => [
  ['advisories', a.mode === 'fail' ? 'fail (an advisory that does not hold fails its scenario)' : "report (the kit's own readings, never a failure)"],
  ['advisories.checked', String(a.checked)],
  ['advisories.failed', String(a.failed)],
];

export function renderJunit(report: Report): string {
  const builder = junit.newBuilder().name(xmlSafe(`agent-memory-tck ${report.target.url}`));
  const reasons: SkipReasons = [];
  const advisories = advisoryFacts(advisoriesOf(report));
  securitySuite(builder, report);
  runCase(builder, report);
  for (const section of viewOf(report).sections) {
    for (const row of section.rows) {
      if (row.scenarios.length === 0) continue;
      const suite = builder
        .testSuite()
        .name(`agent-memory-tck ${row.path.join(' ')}`)
        .timestamp(report.startedAt.slice(0, 19))
        .time(seconds(row.scenarios.reduce((sum, s) => sum + s.durationMs, 0)))
        .property('target', xmlSafe(section.target.url))
        .property('kit', `${report.kit.name} ${report.kit.version}`);
      for (const [name, value] of [...row.facts, ...advisories]) suite.property(name, xmlSafe(value));
      for (const s of row.scenarios) addCase(suite, s, reasons, report.target);
    }
  }
  const e = report.explore;
  if (e) {
    // Explore: one testcase, failed with the minimal sequence when a disagreement was found.
    const suite = builder.testSuite().name('agent-memory-tck explore').timestamp(report.startedAt.slice(0, 19)).time(seconds(e.durationMs))
      .property('target', xmlSafe(report.target.url)).property('seed', String(e.seed)).property('runs', String(e.runsDone));
    // One test case per distinct finding (a CI consumer counts them), or one passing case.
    const findings = findingsOf(e);
    if (findings.length === 0) suite.testCase().className('explore').name(`explore seed ${e.seed}`).time(seconds(e.durationMs));
    findings.forEach((f, i) => {
      const tc = suite.testCase().className('explore').name(`explore seed ${e.seed}${findings.length > 1 ? ` finding ${i + 1} of ${findings.length}` : ''}`).time(seconds(i === 0 ? e.durationMs : 0));
      tc.failure(xmlSafe(f.message.split('\n')[0]!)).stacktrace(xmlSafe(findingLines(f).join('\n')));
    });
  }
  // The Jenkins/Surefire schema has no `skipped` attribute on <testsuites> (each testsuite has it).
  let next = 0;
  const xml = outsideCdata(builder.build(), (markup) =>
    markup
      .replace(/(<testsuites\b[^>]*?) skipped="\d+"/, '$1')
      // Every <skipped> carries its reason (text escaped: no markup can reach the attribute).
      .replace(/<skipped\/>/g, () => `<skipped message="${escAttr(reasons[next++] ?? 'skipped')}"/>`));
  return `${xml}\n`;
}

/** `edit` applied to the markup only: never inside a CDATA section, whose text is a server's (xmlSafe leaves none a "]]>" of its own). */
function outsideCdata(xml: string, edit: (markup: string) => string): string {
  return xml.split(/(<!\[CDATA\[[\s\S]*?\]\]>)/).map((part, i) => (i % 2 === 1 ? part : edit(part))).join('');
}

const escAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;');

/**
 * A run that did not check everything it was asked to (interrupted, the target unreachable, the
 * time bound hit) must not read as green in a CI consumer that counts only failures and errors:
 * it gets one errored test case of its own, first, saying what was not checked.
 */
/**
 * The SECURITY advisories that did not hold (docs/isolation.md): the first test suite, one test case
 * per advisory, its findings in system-out and a property each. Passed: an advisory is never a
 * failure, but the suite's name and properties say SECURITY where every CI view lists suites.
 */
function securitySuite(builder: Builder, report: Report): void {
  const a = advisoriesOf(report);
  const headline = securityHeadline(a);
  if (headline === undefined) return;
  const suite = builder.testSuite().name('agent-memory-tck SECURITY').timestamp(report.startedAt.slice(0, 19)).property('security', xmlSafe(headline));
  for (const f of securityFindings(a)) {
    const tc = suite.testCase().className('security').name(xmlSafe(`SECURITY ${f.id}: ${f.failed} finding(s): ${f.expects}`));
    f.scenarios.forEach((x, i) => tc.property(`tck.security.${f.id}${i > 0 ? `.${i + 1}` : ''}`, xmlSafe(`${x.id}: ${x.message.split('\n')[0]}`)));
    tc.standardOutput(xmlSafe(f.scenarios.map((x) => `${x.id}: ${x.message}`).join('\n')));
  }
}

function runCase(builder: Builder, report: Report): void {
  const all = scenariosOf(report);
  const notRun = all.filter((s) => s.outcome === 'not-run');
  if (!report.interrupted && notRun.length === 0) return;
  const why = report.interrupted ? 'the run was interrupted' : firstLine(notRun[0]?.message, 'the run stopped early');
  const message = xmlSafe(`${why}: ${notRun.length} of ${all.length} scenarios not run`);
  builder
    .testSuite()
    .name('agent-memory-tck run')
    .timestamp(report.startedAt.slice(0, 19))
    .time(seconds(report.durationMs))
    .testCase()
    .className('run')
    .name('the run checked every selected scenario')
    .time(seconds(report.durationMs))
    .error(message, 'incomplete-run', message);
}
