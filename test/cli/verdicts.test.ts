// Issue 14, items 1–3: a narrowed run (--scenario, --grep, --skip, --only-failed) is judged as a
// selection in every format and never awarded a tier; its exit code follows the selection; the
// tier table tells "all of its own scenarios passed" apart from "reached".
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { renderBadge } from '../../src/report/render/badge.js';
import { renderMarkdown } from '../../src/report/render/markdown.js';
import { renderHtml } from '../../src/report/render/html.js';
import { renderJunit } from '../../src/report/render/junit.js';
import { tierStanding } from '../../src/report/render/text.js';
import { verdictLine } from '../../src/report/render/view.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { keepsDeleted, reportOn, startVariant, tck, tempDir } from '../reporters/support.js';
import { mapRequest } from '../harness/variants.js';

/** How many Bronze scenarios the kit has (the population a Bronze selection is a part of). */
const BRONZE = ALL_SCENARIOS.filter((s) => s.tier === 'bronze').length;

const work = tempDir('tck-verdicts-');
const readReport = (dir: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')));

let faulty: Awaited<ReturnType<typeof startVariant>>;
beforeAll(async () => {
  faulty = await startVariant(keepsDeleted);
});
afterAll(async () => faulty?.close());

describe('a narrowed run is a selection, never a tier', () => {
  it('--scenario with --tier bronze: "selection passed (1 of N Bronze scenarios)" in console, JSON, Markdown, badge; exit 0', async () => {
    const out = join(work, 'one');
    const r = await tck(['run', '--scenario', 'SCN-B-043', '--tier', 'bronze', '-r', 'console,json,md,badge,junit,html', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/Achieved tier/);
    expect(r.stdout).toMatch(new RegExp(String.raw`Selection passed \(1 of ${BRONZE} Bronze scenarios\), no tier awarded`));
    const report = readReport(out);
    expect(report.achieved).toBeNull();
    expect(report.success).toBe(true);
    expect(report.narrowed).toEqual({ passed: true, selected: 1, passing: 1, population: BRONZE });
    expect(readFileSync(join(out, 'summary.md'), 'utf8')).toMatch(new RegExp(String.raw`^## agent-memory-tck: selection passed \(1 of ${BRONZE} Bronze scenarios\) ✅`));
    expect(readFileSync(join(out, 'badge.svg'), 'utf8')).toMatch(/aria-label="agent-memory tck: selection passed"/);
    expect(readFileSync(join(out, 'badge.svg'), 'utf8')).not.toMatch(/bronze/);
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(new RegExp(String.raw`name="verdict" value="selection passed \(1 of ${BRONZE} Bronze scenarios\)"`));
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(/<span class="label">selection<\/span><span class="value">PASSED<\/span>/);
  });

  it('--grep against a failing server: "selection FAILED", exit 1, no tier', async () => {
    const out = join(work, 'grep');
    const r = await tck(['run', '--url', faulty.url, '--grep', 'delete_message', '--tier', 'bronze', '-r', 'console,json', '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(String.raw`Selection FAILED \(\d+ of \d+ selected passed; \d+ of ${BRONZE} Bronze scenarios\)`));
    expect(readReport(out).achieved).toBeNull();
  });

  it('--skip keeps the scenario in the report as skipped, and the run reaches no tier', async () => {
    const out = join(work, 'skip');
    const r = await tck(['run', '--skip', 'SCN-B-001', '--tier', 'bronze', '-q', '-r', 'console,json', '--out', out]);
    expect(r.code).toBe(0); // every selected scenario passed
    const report = readReport(out);
    expect(report.scenarios.find((s) => s.id === 'SCN-B-001')).toMatchObject({ outcome: 'skipped', message: 'skipped by --skip' });
    expect(report.achieved).toBeNull();
    expect(report.tiers[0]).toMatchObject({ total: BRONZE, skipped: 1, passes: false });
    expect(r.stdout).toMatch(new RegExp(`Selection passed \\(${BRONZE - 1} of ${BRONZE} Bronze scenarios\\)`));
  });

  it('--only-failed exits 0 once the failures are fixed', async () => {
    const before = join(work, 'before');
    await tck(['run', '--url', faulty.url, '--grep', 'delete_message', '--tier', 'bronze', '-r', 'json', '--out', before]);
    const again = await tck(['run', '--only-failed', join(before, 'report.json'), '--tier', 'bronze', '-r', 'console', '--out', join(work, 'again')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Selection passed/);
  });

  it('the full tier (no narrowing) still earns it', async () => {
    const report = await reportOn(undefined, { tier: 'bronze' });
    expect(report.narrowed).toBeUndefined();
    expect(report.achieved).toBe('bronze');
    expect(verdictLine(report)).toMatch(/^Achieved tier: BRONZE/);
  });

  it('a report of format 1.0 without the field still loads', () => {
    const legacy = JSON.parse(readFileSync(join(work, 'one', 'report.json'), 'utf8'));
    delete legacy.narrowed;
    expect(() => ReportSchema.parse(legacy)).not.toThrow();
  });
});

describe('the tier table: "all its own scenarios passed" apart from "reached"', () => {
  it('silver passing all its scenarios above a failed bronze reads "all passed" and "no: bronze is not reached" everywhere', async () => {
    // search_messages ignoring session_id breaks Bronze scenarios, none of Silver's.
    const report = await reportOn(
      mapRequest('search_messages', (b) => ({ ...b, session_id: undefined })),
      { tier: 'silver' },
    );
    const silver = report.tiers.find((t) => t.tier === 'silver')!;
    expect(silver.passes).toBe(true);
    expect(report.achieved).toBeNull();
    expect(tierStanding(report, silver)).toEqual({ own: 'all passed', reached: 'no: bronze is not reached', ok: false });
    expect(renderMarkdown(report)).toMatch(/\| silver \| \d+ \| 0 \| 0 \| 0 \| 0 \| all passed \| ❌ no: bronze is not reached \|/);
    expect(renderHtml(report)).toMatch(/<div class="reached no">all passed; reached: no: bronze is not reached<\/div>/);
    expect(renderJunit(report)).toMatch(/name="tier.all-passed" value="true"\/>\s*<property name="tier.reached" value="false"/);
    expect(renderBadge(report)).toMatch(/: none"/);
  });
});
