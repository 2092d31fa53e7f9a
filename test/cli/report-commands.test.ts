// The report side of the `tck` binary: every format from one run and from `tck report` on its
// JSON (byte for byte), `tck diff`, `--only-failed`, baselines and their exit codes, a reporter
// that fails, GitHub Actions, `tck repro`, and header values absent from everything written.
// Runs the built launcher (npm test builds first) against faulty servers in this process.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { DELETE_GREP, keepsDeleted, startVariant, tck, tempDir } from '../reporters/support.js';

const ALL = 'console,json,junit,html,md,badge';
const FILES = ['badge.svg', 'junit.xml', 'report.html', 'report.json', 'summary.md'];

let faulty: Awaited<ReturnType<typeof startVariant>>;
let reference: Awaited<ReturnType<typeof startVariant>>;
const work = tempDir('tck-cli-report-');
const dirOf = (name: string) => join(work, name);
const readReport = (dir: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));
const run = (url: string, out: string, ...more: string[]) => tck(['run', '--url', url, '--tier', 'bronze', '--grep', DELETE_GREP, '--out', out, ...more]);
const failuresOf = (r: Report) => r.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error').map((s) => s.id);

let faultyRun: Awaited<ReturnType<typeof tck>>;
let referenceRun: Awaited<ReturnType<typeof tck>>;

beforeAll(async () => {
  [faulty, reference] = await Promise.all([startVariant(keepsDeleted), startVariant()]);
  // One run against each server; most tests below work on their reports.
  [faultyRun, referenceRun] = await Promise.all([run(faulty.url, dirOf('faulty'), '--reporter', ALL), run(reference.url, dirOf('reference'))]);
}, 60_000);
afterAll(async () => Promise.all([faulty?.close(), reference?.close()]));

// Sequential: runs against one server would interleave their clear_all_data calls and judge
// each other's data (the baseline tests also build on each other).
describe('reports', () => {
  describe('tck run writes the reports --reporter names', () => {
    it('every format from one run, exit 1 when the tier is not reached', () => {
      expect(faultyRun.code).toBe(1);
      expect(readdirSync(dirOf('faulty')).sort()).toEqual(FILES);
      for (const f of FILES) expect(faultyRun.stdout).toContain(`report: ${join(dirOf('faulty'), f)}\n`);
      expect(failuresOf(readReport(dirOf('faulty'))).length).toBeGreaterThan(3);
    });

    it('the default is console, json, junit and html; exit 0 when the tier is reached', () => {
      expect(referenceRun.code).toBe(0);
      expect(readdirSync(dirOf('reference')).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
      expect(referenceRun.stdout).toMatch(/Selection passed \(\d+ of \d+ Bronze scenarios\)/);
    });

    it('an unknown reporter is a usage error', async () => {
      const r = await tck(['run', '--reporter', 'json,pdf']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^tck: .*unknown reporter "pdf" \(choose from console, json, junit, html, md, badge\)/);
    });

    it('a reporter that cannot write is one line on stderr, the others are still written, exit 2', async () => {
      const out = dirOf('blocked');
      mkdirSync(join(out, 'junit.xml'), { recursive: true }); // a directory where the file should go
      const r = await run(reference.url, out, '--reporter', 'console,json,junit,html');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^tck: the junit report could not be written to ${join(out, 'junit.xml')}: EISDIR`));
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(readdirSync(out).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
      expect(r.stdout).toMatch(/Selection passed/);
    });
  });

  describe('tck report', () => {
    it('renders every format from report.json with content identical to the run', async () => {
      const out = dirOf('rendered');
      const src = dirOf('faulty');
      const r = await tck(['report', join(src, 'report.json'), '--json', join(out, 'report.json'), '--junit', join(out, 'junit.xml'), '--html', join(out, 'report.html'), '--md', join(out, 'summary.md'), '--badge', join(out, 'badge.svg')]);
      expect(r.code).toBe(0);
      expect(readdirSync(out).sort()).toEqual(FILES);
      for (const f of FILES) expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(src, f), 'utf8'));
    });

    it('without an output option prints the console summary; a file that is not a report is exit 2', async () => {
      const r = await tck(['report', join(dirOf('faulty'), 'report.json')]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Failures \(\d+\) from \d+ causes\n\nCause 1 of \d+: .*\n  scenarios: SCN-B-[^\n]+\n(  the first of them:)?\nFAIL SCN-B-0\d\d /);
      expect(r.stdout).toMatch(/Selection FAILED/);
      const bad = join(work, 'not-a-report.json');
      writeFileSync(bad, '{"format":"something else"}');
      const b = await tck(['report', bad, '--html', join(work, 'x.html')]);
      expect(b.code).toBe(2);
      expect(b.stderr).toMatch(/^tck: .*not-a-report\.json is neither an agent-memory-tck report nor a certification bundle: format: /);
    });
  });

  describe('tck diff', () => {
    it("lists exactly the fault's scenarios as regressed, and exits 1", async () => {
      const r = await tck(['diff', join(dirOf('reference'), 'report.json'), join(dirOf('faulty'), 'report.json'), '--json']);
      expect(r.code).toBe(1);
      const d = JSON.parse(r.stdout);
      expect(d.regressed.map((c: { id: string }) => c.id)).toEqual(failuresOf(readReport(dirOf('faulty'))));
      expect(d).toMatchObject({ tier: { from: null, to: null, direction: 'same' }, fixed: [], appeared: [], vanished: [], changed: [] });
    });

    it('the other way round they are fixed, exit 0; as text', async () => {
      const r = await tck(['diff', join(dirOf('faulty'), 'report.json'), join(dirOf('reference'), 'report.json')]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^tier: NONE → NONE \(unchanged\)\n\nregressed \(0\)\n\nfixed \(\d+\):\n  SCN-B-071 a deleted message is gone from the conversation and from search: failed → passed\n/);
    });
  });

  describe('--only-failed', () => {
    it('re-runs just the scenarios that failed or errored in a report', async () => {
      const out = dirOf('only-failed');
      const r = await tck(['run', '--url', reference.url, '--tier', 'bronze', '--only-failed', join(dirOf('faulty'), 'report.json'), '--out', out, '--reporter', 'json']);
      expect(r.code).toBe(0);
      expect(readReport(out).scenarios.map((s) => s.id)).toEqual(failuresOf(readReport(dirOf('faulty'))));
    });
    it('nothing to re-run is exit 0 and says so', async () => {
      const r = await tck(['run', '--url', reference.url, '--only-failed', join(dirOf('reference'), 'report.json'), '--out', dirOf('nothing')]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^nothing failed, errored or was left not run in .*reference\/report\.json: nothing to re-run\n$/);
    });
  });

  describe('tck repro', () => {
    it('runs the scenario and prints its script; with --report prints the one the report carries', async () => {
      const r = await tck(['repro', 'scn-b-071', '--url', faulty.url]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/^tck: SCN-B-071 failed against http:\/\/127\.0\.0\.1:\d+ \(from --url\): get_conversation/);
      expect(r.stdout).toMatch(/^#!\/usr\/bin\/env bash\n# Reproduces SCN-B-071 /);
      expect(r.stdout).toMatch(/\ncall POST "\$BASE\/delete_message" '' '\{"message_id":'"\$\(json \d+ '\.id'\)"'\}'\n/);

      const stored = readReport(dirOf('faulty')).scenarios.find((s) => s.id === 'SCN-B-071')!.repro;
      const fromReport = await tck(['repro', 'SCN-B-071', '--report', join(dirOf('faulty'), 'report.json')]);
      expect(fromReport.stdout).toBe(stored);
      const passed = await tck(['repro', 'SCN-B-070', '--report', join(dirOf('faulty'), 'report.json')]);
      expect(passed.code).toBe(2);
      expect(passed.stderr).toMatch(/^tck: SCN-B-070 passed in .*: nothing to reproduce/);
    });
    it('reproduces a Platinum scenario too: repro takes no --tier, the scenario named is the selection', async () => {
      const r = await tck(['repro', 'SCN-P-102']);
      expect(r.stderr).toMatch(/^tck: SCN-P-102 passed against the embedded reference server .*the script replays its requests\n$/);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^#!\/usr\/bin\/env bash\n# Reproduces SCN-P-102 /);
      expect(r.stdout).toContain('"$BASE/bulk_add_messages"');
    });
  });

  describe('GitHub Actions and secrets', () => {
    it('annotations and the step summary; no header value in any output or file', async () => {
      const secret = 'Bearer s3cr3t-t0ken-0f-the-vend0r';
      const out = dirOf('github');
      const summary = join(work, 'step-summary.md');
      const baselineFile = join(work, 'secret-baseline.json');
      const r = await tck(['run', '--url', faulty.url, '--tier', 'bronze', '--grep', DELETE_GREP, '--out', out, '--reporter', ALL, '--header', `Authorization: ${secret}`, '--write-baseline', baselineFile], {
        GITHUB_ACTIONS: 'true',
        GITHUB_STEP_SUMMARY: summary,
        TCK_HEADERS: 'X-Api-Key: k3y-v4lue-0f-the-vend0r',
      });
      // The baseline being written makes these failures known: warnings (an unlisted one is an ::error).
      // SCN-B-071, 073 and 076 fail alike (deleted messages still listed): one cause, one annotation.
      expect(r.stdout).toMatch(/^::warning title=3 scenarios known \(in the baseline\)%3A get_conversation::get_conversation after deleting .*scenarios: SCN-B-071, SCN-B-073, SCN-B-076%0A/m);
      expect(readFileSync(summary, 'utf8')).toBe(`${readFileSync(join(out, 'summary.md'), 'utf8')}\n`);
      const repro = await tck(['repro', 'SCN-B-071', '--url', faulty.url, '--header', `Authorization: ${secret}`]);
      expect(repro.stdout).toContain('TCK_HEADER_AUTHORIZATION');

      const texts = [r.stdout, r.stderr, repro.stdout, repro.stderr, readFileSync(summary, 'utf8'), readFileSync(baselineFile, 'utf8'), ...readdirSync(out).map((f) => readFileSync(join(out, f), 'utf8'))];
      expect(texts).toHaveLength(4 + 2 + FILES.length);
      for (const value of [secret, 's3cr3t-t0ken-0f-the-vend0r', 'k3y-v4lue-0f-the-vend0r']) {
        for (const t of texts) expect(t.includes(value)).toBe(false);
      }
      expect(readFileSync(join(out, 'report.json'), 'utf8')).toContain('"authorization": "***"');
    });
  });
});

describe.sequential('baselines: the exit code follows the gate', () => {
  const kf = join(work, 'known-failures.json');

  it('--write-baseline writes the current failures with reasons; the gate it sets passes (exit 0)', async () => {
    const r = await run(faulty.url, dirOf('write-baseline'), '--write-baseline', kf, '--reporter', 'console,json');
    expect(r.code).toBe(0);
    const written = JSON.parse(readFileSync(kf, 'utf8'));
    expect(written.format).toBe('agent-memory-tck/baseline');
    expect(written.scenarios.map((s: { id: string }) => s.id)).toEqual(failuresOf(readReport(dirOf('faulty'))));
    expect(written.scenarios[0].reason).toMatch(/^failed: /);
    expect(r.stdout).toMatch(/baseline: .*known-failures\.json \(\d+ known failure\(s\)\)/);
  });

  it('listed failures do not fail the gate: exit 0 though the tier is not reached', async () => {
    const r = await run(faulty.url, dirOf('listed'), '--baseline', kf, '--reporter', 'console,json');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Selection FAILED/);
    expect(r.stdout).toMatch(/Baseline .*known-failures\.json: \d+ known failure\(s\) allowed, 0 new failure\(s\), 0 fixed\nGate: passed\n/);
    expect(readReport(dirOf('listed')).gate).toMatchObject({ passed: true, unexpected: [], fixed: [] });
  });

  it('a failure not listed fails the gate: exit 1', async () => {
    const partial = join(work, 'partial.json');
    const b = JSON.parse(readFileSync(kf, 'utf8'));
    const dropped = b.scenarios.shift().id as string;
    writeFileSync(partial, JSON.stringify(b));
    const r = await run(faulty.url, dirOf('new-failure'), '--baseline', partial, '--reporter', 'console');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`new failure (failed): ${dropped}`);
    expect(r.stdout).toMatch(/Gate: FAILED\n$/);
  });

  it('a listed scenario that now passes fails the gate, with "fixed: remove … from the baseline": exit 1', async () => {
    const r = await run(reference.url, dirOf('fixed'), '--baseline', kf, '--reporter', 'console');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Selection passed/);
    expect(r.stdout).toContain('fixed: remove SCN-B-071 from the baseline');
  });

  it('a baseline that is not valid is a usage error before anything runs', async () => {
    const bad = join(work, 'bad-baseline.json');
    writeFileSync(bad, JSON.stringify({ format: 'agent-memory-tck/baseline', formatVersion: '1.0', scenarios: [{ id: 'SCN-B-071' }] }));
    const r = await run(faulty.url, dirOf('bad-baseline'), '--baseline', bad);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^tck: baseline .*bad-baseline\.json is not valid: scenarios\[0\]\.reason: /);
  });
});
