// Every id the kit cites is in the clause map, and the map in docs/ is current. What an assertion
// cites is known for certain only when it runs (ids are computed: `HOSTED-ENDPOINT-${operation}`),
// so every scenario is run against the embedded reference servers, keeping every assertion (a
// recording run); a scan of the string literals of suites/ and src/ adds the ids on paths the
// reference never takes (a failure branch). A merge that cites an id the registry lacks fails here.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADVISORIES, SENTENCES, advisoryOf, sentenceOf } from '../../src/protocols/clauses/index.js';
import { ClauseIndex, clauseAnchor, renderClauseMap, stableText, usesOfResults, type Use } from '../../src/report/clause-map.js';
import { renderCatalogue } from '../../src/report/catalogue.js';
import { recordAssertions, type Recording } from '../../src/run/record.js';
import { explainText } from '../../src/cli/info-commands.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const known = (id: string) => sentenceOf(id) !== undefined || advisoryOf(id) !== undefined;

let recording: Recording;
let uses: Use[];
beforeAll(async () => {
  recording = await recordAssertions();
  uses = usesOfResults([...recording.bridge, ...recording.hosted]);
}, 600_000);

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** What looks like a clause id of the scheme (placeholders such as SPEC-2.1.x or HOSTED-AUTH-n do not). */
const ID = /\b(?:SPEC-(?:V5-)?\d+\.\d+\.\d+[a-z]?|SPEC-V1-[A-Za-z]+\.[a-z_]+|SPEC-V3-[a-z_]+|SPEC-V5-scope|BRIDGE-[A-Z]+-[A-Za-z0-9_.-]*[A-Za-z0-9_]|HOSTED-[A-Z]+(?:-[A-Za-z0-9_.-]*[A-Za-z0-9_])?|RFC\d+-[A-Za-z0-9_.]*[A-Za-z0-9_]|ADV-[a-z0-9]+(?:-[a-z0-9]+)*)/g;

/**
 * The ids in the string literals of a file: whole strings and template parts, an id cut by an
 * interpolation (`HOSTED-ENDPOINT-${operation}`) left to the recording run.
 */
function literalIds(file: string): { id: string; where: string }[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { id: string; where: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const s = node.text;
      const cut = ts.isTemplateHead(node) || ts.isTemplateMiddle(node);
      for (const m of s.matchAll(ID)) {
        const end = m.index + m[0].length;
        if (s[end] === '-' || (cut && end === s.length)) continue;
        found.push({ id: m[0], where: `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}` });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('every id the kit cites is in the clause map', () => {
  it('the recording run ran every scenario of every tier and of the hosted profile, and they passed against the reference', () => {
    expect(recording.bridge.map((r) => r.id).sort()).toEqual(ALL_SCENARIOS.map((s) => s.id).sort());
    expect(recording.hosted.map((r) => r.id).sort()).toEqual(HOSTED_SCENARIOS.map((s) => s.id).sort());
    const notPassed = [...recording.bridge, ...recording.hosted].filter((r) => r.outcome !== 'passed').map((r) => `${r.id}: ${r.outcome} ${r.message ?? ''}`);
    expect(notPassed).toEqual([]);
  });

  it('every hosted scenario that passed against the reference recorded checks that held, citing one of its clauses', () => {
    // A check written `if (bad) check.fail(…)` records only when it fails: a scenario that passes
    // with checks like that alone records nothing, and its sentences read "not checked" in the map.
    const silent = recording.hosted
      .filter((r) => r.outcome === 'passed')
      .filter((r) => !(r.checked ?? []).some((c) => c.passed && !c.implicit && !c.advisory && c.cites.some((id) => r.clauses.includes(id))))
      .map((r) => `${r.id}: ${(r.checked ?? []).length} assertion(s) recorded, none held citing ${r.clauses.join(', ')}`);
    expect(silent).toEqual([]);
  });

  it('every id an assertion cited when it ran (its own, its scenario\'s clauses, a profile\'s check of each answer)', () => {
    expect(new ClauseIndex(uses).unknown()).toEqual([]);
  });

  it("every clause a scenario names (its `clauses`)", () => {
    const missing = [...ALL_SCENARIOS, ...HOSTED_SCENARIOS].flatMap((s) => s.clauses.filter((c) => !known(c)).map((c) => `${s.id}: ${c}`));
    expect(missing).toEqual([]);
  });

  it('an advisory cites itself alone, and only advisories are cited as advisories', () => {
    const bad = uses.filter((u) => (u.advisory ? u.cites.length !== 1 || advisoryOf(u.cites[0]!) === undefined : u.cites.some((c) => advisoryOf(c) !== undefined)));
    expect(bad.map((u) => `${u.scenario}: ${u.what} ${JSON.stringify(u.cites)}`)).toEqual([]);
  });

  it('every id in a string literal of suites/ and src/ (check.by, clause:, cites:, messages), on paths the reference does not take too', () => {
    const files = [...sources(resolve(ROOT, 'suites')), ...sources(resolve(ROOT, 'src'))];
    const unknown = files.flatMap(literalIds).filter((f) => !known(f.id));
    expect(unknown.map((f) => `${f.where}: ${f.id}`)).toEqual([]);
  });

  it('the scan finds what it looks for (a literal, a template part, and not an id cut by an interpolation)', () => {
    const ids = literalIds(resolve(ROOT, 'suites/hosted/discovery.ts')).map((f) => f.id);
    expect(ids).toContain('RFC9728-resource');
    expect(ids).toContain('HOSTED-DISCOVERY-2');
    expect(ids.filter((id) => id === 'RFC8414')).toEqual([]);
  });

  it('no sentence both is checked and says why it is not (a stale reason)', () => {
    const index = new ClauseIndex(uses);
    expect(SENTENCES.filter((s) => s.unchecked !== undefined && index.usesOf(s.id).length > 0).map((s) => s.id)).toEqual([]);
  });

  it('assertion texts read the same from run to run once ids, times and random names are replaced', () => {
    expect(stableText('message 6f1c2a9e-0000-4000-8000-000000000000 at 2026-11-26T00:41:35.698Z from http://127.0.0.1:40123/v1 by tck-user-1a2b3c4d')).toBe(
      'message <id> at <time> from <url>/v1 by tck-user-<random>',
    );
    expect(stableText('a JWT signed by a key of the kit under the real kid "ENcj8dNBy-amcXC6kYxtAbc1K2APOiTl1bjCqnP2iEk"')).toBe('a JWT signed by a key of the kit under the real kid "<kid>"');
  });
});

describe('docs/', () => {
  // `npm run docs` sets TCK_UPDATE_DOCS: the files are rewritten, like a snapshot update.
  const current = (name: string, render: () => string) => {
    const path = resolve(ROOT, 'docs', name);
    if (process.env.TCK_UPDATE_DOCS === '1') writeFileSync(path, render());
    expect(readFileSync(path, 'utf8'), `docs/${name} is stale: run \`npm run docs\``).toBe(render());
  };

  it('docs/clauses.md is current (regenerate with `npm run docs`)', () => current('clauses.md', () => renderClauseMap(uses)));

  it('docs/scenarios.md is current (regenerate with `npm run docs`)', () => current('scenarios.md', () => renderCatalogue(ALL_SCENARIOS, HOSTED_SCENARIOS)));

  it('the map lists every advisory and every sentence', () => {
    const map = renderClauseMap(uses);
    expect(ADVISORIES.filter((a) => !map.includes(`| ${a.id} |`)).map((a) => a.id)).toEqual([]);
    expect(SENTENCES.filter((s) => !map.includes(`</a>${s.id}`)).map((s) => s.id)).toEqual([]);
    // Each row's anchor is its id in lower case, so a page can link one sentence (clauses.md#bridge-response-6).
    expect(map).toContain(`| <a id="${clauseAnchor('BRIDGE-RESPONSE-6')}"></a>BRIDGE-RESPONSE-6 |`);
    expect(clauseAnchor('BRIDGE-RESPONSE-6')).toBe('bridge-response-6');
  });
});

describe('tck explain, of a sentence and of an advisory (from this recording)', () => {
  /** explain's recorder, answered from the recording made once above. */
  const fromRecording = async ({ only }: { only?: 'bridge' | 'hosted' }) => ({ bridge: only === 'hosted' ? [] : recording.bridge, hosted: only === 'bridge' ? [] : recording.hosted });

  it('a sentence: where it stands, its text, and the assertions that enforce it, with their scenarios', async () => {
    const out = await explainText('spec-2.2.2', fromRecording);
    expect(out).toContain('SPEC-2.2.2 (MUST)\nsource:   the established SPEC.md (the kit\'s summary), Volume 2 › 2.2 get_conversation\ntext:     limit bounds the messages returned\n');
    expect(out).toMatch(/Assertions that enforce it \(\d+ in 2 scenarios/);
    expect(out).toMatch(/ {2}SCN-B-044: get_conversation\(session_id="tck-b044", limit=2\) on 5 messages: expected 2 messages, got 2/);
    expect(out).toContain('Scenarios that name it in their clauses: SCN-B-044, SCN-B-137');
  });

  it('a row of a table: the assertions that check the table as a whole count for it', async () => {
    const out = await explainText('BRIDGE-MODEL-ToolCall.status', fromRecording);
    expect(out).toContain('text:     | status | string | pending, success, failure, error, timeout, cancelled |\npart of:  BRIDGE-MODEL-ToolCall');
    expect(out).toMatch(/record_tool_call: the answer matches the data model {2}×\d+ {2}\(through BRIDGE-MODEL-ToolCall\)/);
  });

  it('an advisory: what it expects, why it is not a rule, and its nearest sentences with their text', async () => {
    const out = await explainText('ADV-refuse-wrong-type', fromRecording);
    expect(out).toContain("ADV-refuse-wrong-type  (an advisory: the kit's own reading, never a failure unless a run is given --advisories fail)");
    expect(out).toContain('why it is not a rule: the data model gives the types of fields');
    expect(out).toMatch(/BRIDGE-ERRORS-1 +A failed call returns status 400 or 500/);
  });
});
