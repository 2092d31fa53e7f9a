// JUnit XML (junit-report-builder), in the shape Jenkins and the Surefire plugin read: one
// testsuite per tier, one testcase per scenario (classname "tier.group", name "id title"),
// failure/error/skipped with the message and, in the element body, the evidence and the times.
// The hosted profile adds one testsuite per group (classname "hosted.group").
import junitModule, { type Builder } from 'junit-report-builder';
import type { AnyReportScenario, Report } from '../model.js';
import { exploreFailureLines } from './explore.js';
import { failureText, placeOf } from './text.js';

// The package is CommonJS (`module.exports = builder`) while its types declare a default export.
export const junit: Builder = (junitModule as unknown as { default?: Builder }).default ?? (junitModule as unknown as Builder);

/** Characters XML 1.0 cannot hold (most C0 controls, lone surrogates, U+FFFE/U+FFFF), written as \uXXXX. */
// eslint-disable-next-line no-control-regex -- control characters are what it escapes
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlSafe(text: string): string {
  return text.replace(NOT_XML, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Seconds with millisecond precision, never in exponent notation (the schema's time pattern). */
const seconds = (ms: number) => Math.round(ms) / 1000;

function firstLine(text: string | undefined, fallback: string): string {
  const line = (text ?? '').split('\n')[0]!.trim();
  return line === '' ? fallback : line;
}

function addCase(suite: ReturnType<Builder['testSuite']>, s: AnyReportScenario): void {
  const tc = suite
    .testCase()
    .className(`${placeOf(s)}.${s.group}`)
    .name(xmlSafe(`${s.id} ${s.title}`))
    .time(seconds(s.durationMs));
  const body = xmlSafe(failureText(s, { all: true }));
  const message = xmlSafe(firstLine(s.message, s.outcome));
  switch (s.outcome) {
    case 'failed':
      tc.failure(message, s.notImplemented ? 'not-implemented' : 'assertion').stacktrace(body);
      break;
    case 'error':
      tc.error(message, 'protocol-or-transport', body);
      break;
    case 'skipped':
    case 'not-run':
      tc.skipped();
      if (s.message) tc.standardOutput(xmlSafe(`${s.outcome}: ${s.message}`));
      break;
    case 'passed':
      if (s.notes.length) tc.standardOutput(xmlSafe(s.notes.join('\n')));
      break;
  }
}

export function renderJunit(report: Report): string {
  const builder = junit.newBuilder().name(`agent-memory-tck ${report.target.url}`);
  for (const t of report.tiers) {
    const scenarios = report.scenarios.filter((s) => s.tier === t.tier);
    if (scenarios.length === 0) continue;
    const suite = builder
      .testSuite()
      .name(`agent-memory-tck ${t.tier}`)
      .timestamp(report.startedAt.slice(0, 19))
      .time(seconds(scenarios.reduce((sum, s) => sum + s.durationMs, 0)))
      .property('target', xmlSafe(report.target.url))
      .property('kit', `${report.kit.name} ${report.kit.version}`)
      .property('protocol', report.kit.protocol)
      .property('grading', report.grading.rule)
      .property('tier.reached', String(t.passes))
      .property('achieved', report.achieved ?? 'none');
    for (const s of scenarios) addCase(suite, s);
  }
  const h = report.hosted;
  for (const g of h?.groups ?? []) {
    const scenarios = h!.scenarios.filter((s) => s.group === g.group);
    if (scenarios.length === 0) continue;
    const suite = builder
      .testSuite()
      .name(`agent-memory-tck hosted ${g.group}`)
      .timestamp(report.startedAt.slice(0, 19))
      .time(seconds(scenarios.reduce((sum, s) => sum + s.durationMs, 0)))
      .property('target', xmlSafe(h!.target.url))
      .property('kit', `${report.kit.name} ${report.kit.version}`)
      .property('profile', 'hosted')
      .property('group.passed', String(g.passes))
      .property('hosted.passed', String(h!.passed));
    for (const s of scenarios) addCase(suite, s);
  }
  const e = report.explore;
  if (e) {
    // Explore: one testcase, failed with the minimal sequence when a disagreement was found.
    const suite = builder.testSuite().name('agent-memory-tck explore').timestamp(report.startedAt.slice(0, 19)).time(seconds(e.durationMs))
      .property('target', xmlSafe(report.target.url)).property('seed', String(e.seed)).property('runs', String(e.runsDone));
    const tc = suite.testCase().className('explore').name(`explore seed ${e.seed}`).time(seconds(e.durationMs));
    if (e.failure) tc.failure(xmlSafe(e.failure.message.split('\n')[0]!)).stacktrace(xmlSafe(exploreFailureLines(e).join('\n')));
  }
  // The Jenkins/Surefire schema has no `skipped` attribute on <testsuites> (each testsuite has it).
  return `${builder.build().replace(/(<testsuites\b[^>]*?) skipped="\d+"/, '$1')}\n`;
}
