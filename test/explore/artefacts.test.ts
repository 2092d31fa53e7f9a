// Issue 24, item 10: what tck explore leaves a vendor says what it found, and nothing else: the
// printed minimal sequence names ids as the scenario file and the script do (r1.id), counts read
// "1 step", a silent point is not the finding's label, the curl script ends with the explore line
// that replays the finding (no scenario "tck-explore"), the scenario's title is whole, and the HTML
// page of an explore report has no empty filter or search box.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/run.js';
import { withVariant } from '../harness/variants.js';
import type { Exchange } from '../../src/engine/evidence.js';
import { exploreReport } from '../../src/explore/report.js';
import { curlScript, scenarioFile } from '../../src/explore/repro.js';
import type { ExploreSection } from '../../src/report/model.js';
import { renderHtml } from '../../src/report/render/html.js';
import { exploreFailureLines, exploreSummary } from '../../src/report/render/explore.js';
import { renderJunit } from '../../src/report/render/junit.js';
import { renderMarkdown } from '../../src/report/render/markdown.js';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const entity = (id: string, name: string) => ({ id, name, type: 'PERSON', created_at: '2026-01-01T00:00:00Z' });

const section: ExploreSection = {
  seed: 7, runs: 10, runsDone: 1, operations: 3, opsPerSecond: 30, maxSteps: 40, methods: ['add_entity', 'merge_duplicate_entities'],
  timeBudgetMs: 60_000, durationMs: 100, stoppedBy: 'failure', tolerances: ['list-order'],
  failure: {
    message: 'merge_duplicate_entities: the merged-away entity is still listed {"id":"' + A + '","name":"Ada Lovelace and a very long name that goes on"}',
    tolerance: 'list-order',
    steps: [
      { call: 'add_entity(name: "Ada")', method: 'add_entity', request: { name: 'Ada', entity_type: 'PERSON' }, server: { status: 200, body: entity(A, 'Ada') }, model: { status: 200, body: entity('m1', 'Ada') } },
      { call: 'add_entity(name: "Ada L.")', method: 'add_entity', request: { name: 'Ada L.', entity_type: 'PERSON' }, server: { status: 200, body: entity(B, 'Ada L.') }, model: { status: 200, body: entity('m2', 'Ada L.') } },
      // How the generator labelled it before: both ends "entity#0".
      { call: 'merge_duplicate_entities(source_id: entity#0, target_id: entity#0)', method: 'merge_duplicate_entities', request: { source_id: A, target_id: B } },
    ],
    foundAfter: { runs: 1, operations: 3, ms: 50 }, originalLength: 3, shrinks: 1, path: '0:1', replay: 'tck explore --url http://x --seed 7 --path "0:1"', curl: '', scenario: '',
  },
};

describe('explore artefacts', () => {
  it('the printed sequence names ids by the step that answered them; counts agree in number; the silent point is not a label', () => {
    const lines = exploreFailureLines(section);
    expect(lines).toContain('  3. merge_duplicate_entities(source_id: r1.id, target_id: r2.id)');
    expect(lines.join('\n')).not.toContain('entity#0');
    expect(lines[0]).toMatch(/ \(outside what the silent point list-order allows\)$/);
    expect(lines.join('\n')).not.toContain('[silent point');
    expect(lines[1]).toBe('  minimal sequence: 3 steps (from 3, 1 shrink; first met after 1 sequence, 3 operations, 0.1 s)');
    expect(lines).toContain("       server: (its answer is the finding above)");
    expect(exploreSummary(section)).toMatch(/— 1 sequence, 3 operations in/);
  });

  it('the curl script leaves what it cannot judge to the explore line that replays the finding', () => {
    const ex = (method: string, body: Record<string, unknown>, status: number, answer: unknown): Exchange => ({
      method, url: `http://127.0.0.1:1/${method}`, requestBody: body, requestHeaders: {}, status, contentType: 'application/json', responseText: JSON.stringify(answer), responseBytes: 10, durationMs: 1, startedAt: '2026-01-01T00:00:00Z',
    });
    const exchanges = [ex('clear_all_data', {}, 204, ''), ex('start_trace', { session_id: 's', task: 't' }, 201, { id: A })];
    const script = curlScript(exchanges, 'start_trace: the trace lists a step it was never given', 'http://127.0.0.1:1', '--seed 7 --path "0:1"');
    expect(script).not.toMatch(/--scenario/);
    expect(script).toContain('run the kit: npx tck explore --url %s --seed 7 --path "0:1"');
    expect(script).toContain('usage: bash explore-repro.sh');
    // A finding about a status is one the script checks itself: it can say FIXED.
    const status = curlScript(exchanges, 'start_trace: 200 expected, got 201 Created with body {…}', 'http://127.0.0.1:1', '--seed 7 --path "0:1"');
    expect(status).toContain("status 1 '200'");
    expect(status).toContain('FIXED: every check of explore-repro passes');
  });

  it('the scenario file has a whole title, and the finding in its asserts', () => {
    const steps = [
      { method: 'add_entity' as const, label: 'add_entity', serverParams: { name: 'Ada', entity_type: 'PERSON' }, modelParams: { name: 'Ada', entity_type: 'PERSON' }, server: { status: 200, body: entity(A, 'Ada') }, model: { status: 200, body: entity('m1', 'Ada') } },
      { method: 'get_entity_by_name' as const, label: 'get_entity_by_name', serverParams: { name: 'Ada' }, modelParams: { name: 'Ada' }, server: { status: 200, body: null }, model: { status: 200, body: entity('m1', 'Ada') } },
    ];
    const file = scenarioFile(steps, section.failure!.message, 7);
    const title = JSON.parse(/^ {2}title: (".*"),$/m.exec(file)![1]!) as string;
    expect(title).toBe('explore: get_entity_by_name after 1 earlier step (seed 7)');
    expect(file).toContain('Replays the 2 steps tck explore found (seed 7)');
    expect(file).toContain(JSON.stringify(section.failure!.message).slice(1, -1));
  });

  it('the HTML page of an explore report has no empty filter or search box', () => {
    const html = renderHtml(exploreReport(section, { url: 'http://x', embedded: false }, new Date(), false));
    expect(html).not.toContain('<nav class="filter"');
    expect(html).not.toContain('id="q"');
    expect(html).toContain('explore: minimal failing sequence');
  });

  it('a refusal the protocol does not allow: the script fails on the server as it was (exit 1) and passes once it is fixed (exit 0)', async () => {
    // get_tool_stats answers 500: explore's finding is "refused with 500", which the script must judge as the status 200.
    const broken = { wrap: (next: (m: string, b: unknown) => unknown) => async (m: string, b: unknown) => (m === 'get_tool_stats' ? { status: 500, body: { error: 'boom' } } : next(m, b)) };
    const dir = mkdtempSync(join(tmpdir(), 'tck-explore-repro-'));
    const script = join(dir, 'explore-repro.sh');
    // Asynchronously: the servers answer from this process.
    const runScript = (url: string) =>
      new Promise<{ status: number | null; stdout: string }>((done) => {
        const child = spawn('bash', [script, url], { stdio: ['ignore', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.on('close', (status) => done({ status, stdout }));
      });
    await withVariant(broken as Parameters<typeof withVariant>[0], async (url) => {
      const section = await explore({ url, seed: 1, runs: 50, methods: ['get_tool_stats', 'start_trace'], timeBudgetMs: 20_000, firstOnly: true });
      expect(section.failure?.message).toMatch(/^get_tool_stats: refused with 500/);
      writeFileSync(script, section.failure!.curl);
      const before = await runScript(url);
      expect(before.stdout).toContain('STILL FAILING');
      expect(before.status).toBe(1);
    });
    await withVariant({}, async (url) => {
      const after = await runScript(url);
      expect(after.stdout).toContain('FIXED');
      expect(after.status).toBe(0);
    });
  }, 60_000);

  it('every finding is shown, not only the first: console lines, HTML, Markdown and JUnit (issue 33, item 6)', () => {
    const f = section.failure!;
    const finding = (method: string, i: number) => ({
      ...f, rule: `rule.${i}`, states: 'a rule', cites: [], method, message: `${method}: finding number ${i}`, commands: f.steps.length, seed: 7, path: `0:${i}`, replay: `tck explore --seed 7 --path "0:${i}"`,
    });
    const three: ExploreSection = { ...section, findings: [finding('add_entity', 1), finding('merge_duplicate_entities', 2), finding('get_entity_by_name', 3)] };
    expect(exploreSummary(three)).toMatch(/^Explore: FOUND 3 DISAGREEMENTS — /);
    const lines = exploreFailureLines(three).join('\n');
    for (const i of [1, 2, 3]) {
      expect(lines).toContain(`finding ${i} of 3:`);
      expect(lines).toContain(`finding number ${i}`);
      expect(lines).toContain(`--path "0:${i}"`);
    }
    const report = exploreReport(three, { url: 'http://x', embedded: false }, new Date(), false);
    const html = renderHtml(report);
    expect(html.match(/<h2>explore: minimal failing sequence \(finding \d of 3\)<\/h2>/g)).toHaveLength(3);
    expect(renderMarkdown(report).match(/finding number \d/g)).toHaveLength(3);
    const junit = renderJunit(report);
    expect(junit.match(/<failure /g)).toHaveLength(3);
    expect(junit).toContain('finding number 3');
  });

  it('a run that checked nothing is no pass: "NOTHING CHECKED", success false', () => {
    const none: ExploreSection = { ...section, runsDone: 0, operations: 0, stoppedBy: 'time-budget' };
    delete none.failure;
    expect(exploreSummary(none)).toMatch(/^Explore: NOTHING CHECKED — 0 sequences/);
    expect(exploreReport(none, { url: 'http://x', embedded: false }, new Date(), false).success).toBe(false);
  });
});
