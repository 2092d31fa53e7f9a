// Certification bundles: a full run that keeps every exchange, re-graded offline by replaying them
// into the same scenarios; and every kind of hand edit rejected with one line naming what differs.
import { describe, expect, it } from 'vitest';
import { parseBundle, type Bundle } from '../../src/report/bundle.js';
import { certify } from '../../src/certify/certify.js';
import { suiteFiles, suiteHash } from '../../src/certify/hash.js';
import { RegistrySchema } from '../../src/report/registry.js';
import { verifyBundle } from '../../src/certify/verify.js';
/** A certification runs every tier, the optional Platinum included (issue 33, item 8). */
import { ALL_SCENARIOS } from '../../suites/index.js';
import { mapResponse, withVariant } from '../harness/variants.js';

const implementation = { name: 'reference', version: '0.1.0', language: 'TypeScript', repository: 'https://github.com/example/agent-memory-tck' };

/** A deep copy to edit, as a reviewer's tamperer would edit the file. */
const copy = (b: Bundle): Bundle => parseBundle(JSON.parse(JSON.stringify(b)), 'copy');

let clean: Promise<Bundle> | undefined;
/** One certification of the embedded reference server, shared by the tests that tamper with it. */
const reference = () => (clean ??= certify({ implementation }));

/**
 * A variant whose list_traces answers miss their last trace: a few Gold scenarios fail, and the run
 * still reaches Bronze (a bundle of a run that reaches no tier certifies nothing: verify rejects it).
 */
const lossy = mapResponse('list_traces', (body) => body.slice(0, -1));
let faulty: Promise<Bundle> | undefined;
const faultyBundle = () => (faulty ??= withVariant({ wrap: lossy }, (url) => certify({ url, implementation: { ...implementation, name: 'lossy' } })));

const firstProblem = async (b: Bundle) => {
  const v = await verifyBundle(b);
  expect(v.ok).toBe(false);
  return v.problems[0]!;
};

describe('tck certify: the bundle', () => {
  it('holds the full run, every scenario with its exchanges (passed ones too), the kit, the suite hash and a registry entry', async () => {
    const b = await reference();
    expect(b.report.scenarios.map((s) => s.id)).toEqual(ALL_SCENARIOS.map((s) => s.id));
    expect(b.report.scenarios.every((s) => s.outcome === 'passed')).toBe(true);
    // Every scenario at least clears the store first: nothing was dropped for passing.
    expect(b.report.scenarios.filter((s) => s.exchanges[0]?.method !== 'clear_all_data')).toEqual([]);
    expect(b.setup?.method).toBe('setup');
    expect(b.teardown?.method).toBe('teardown');
    expect(b.suiteHash).toBe(suiteHash());
    expect(b.certification).toMatchObject({ name: 'reference', tier: 'gold', language: 'TypeScript', tck_version: b.kit.version });
    expect(RegistrySchema.safeParse({ tck_version: b.kit.version, certifications: [b.certification] }).success).toBe(true);
  }, 120_000);

  it('hashes the sources of the three tiers and the index, deterministically', () => {
    const files = suiteFiles();
    expect(files).toContain('index.ts');
    expect(files.some((f) => f.startsWith('gold/'))).toBe(true);
    expect(files.some((f) => f.startsWith('hosted/'))).toBe(false);
    expect(suiteHash()).toBe(suiteHash());
  });
});

describe('tck verify: offline re-grading', () => {
  it('verifies an untouched bundle of the reference server', async () => {
    const v = await verifyBundle(await reference());
    expect(v.problems).toEqual([]);
    expect(v.replayed).toBe(ALL_SCENARIOS.length);
  }, 120_000);

  it('verifies an untouched bundle with failures (the verdicts follow from the evidence either way)', async () => {
    const b = await faultyBundle();
    expect(b.report.scenarios.filter((s) => s.outcome === 'failed').length).toBeGreaterThan(0);
    expect((await verifyBundle(b)).problems).toEqual([]);
  }, 120_000);

  it('rejects a failure turned into a pass', async () => {
    const b = copy(await faultyBundle());
    const s = b.report.scenarios.find((r) => r.outcome === 'failed')!;
    s.outcome = 'passed';
    delete s.message;
    expect(await firstProblem(b)).toBe(`${s.id}: the bundle says passed, its exchanges replay to failed (${(await faultyBundle()).report.scenarios.find((r) => r.id === s.id)!.message!.split('\n')[0]})`);
  }, 120_000);

  it('rejects an altered answer (a response edited)', async () => {
    const b = copy(await reference());
    const s = b.report.scenarios.find((r) => r.id === 'SCN-B-043')!;
    const ex = s.exchanges.findLast((e) => e.method === 'get_conversation')!;
    const answer = JSON.parse(ex.responseText!);
    answer.messages.reverse();
    ex.responseText = JSON.stringify(answer);
    expect(await firstProblem(b)).toMatch(/^SCN-B-043: the bundle says passed, its exchanges replay to failed/);
  }, 120_000);

  it('rejects an altered request (a body edited)', async () => {
    const b = copy(await reference());
    const s = b.report.scenarios.find((r) => r.id === 'SCN-B-043')!;
    const i = s.exchanges.findIndex((e) => e.method === 'add_message');
    s.exchanges[i]!.requestBody = { ...s.exchanges[i]!.requestBody, content: 'something else' };
    expect(await firstProblem(b)).toMatch(new RegExp(`^SCN-B-043, call ${i + 1}: the scenario asks add_message \\{.*\\}, the bundle records add_message \\{.*"content":"something else"`));
  }, 120_000);

  it('rejects a removed exchange and an added one', async () => {
    const cut = copy(await reference());
    cut.report.scenarios.find((r) => r.id === 'SCN-B-043')!.exchanges.pop();
    expect(await firstProblem(cut)).toMatch(/^SCN-B-043, call \d+: the scenario asks get_conversation .*, the bundle records no more calls$/);
    const extra = copy(await reference());
    const ex = extra.report.scenarios.find((r) => r.id === 'SCN-B-043')!.exchanges;
    ex.push({ ...ex[0]! });
    expect(await firstProblem(extra)).toBe('SCN-B-043: the bundle records 1 exchange more than the scenario makes (the next: clear_all_data)');
  }, 120_000);

  it('rejects a removed scenario', async () => {
    const b = copy(await reference());
    b.report.scenarios = b.report.scenarios.filter((r) => r.id !== 'SCN-S-052');
    expect(await firstProblem(b)).toBe(`SCN-S-052 is missing from the bundle (the full suite has ${ALL_SCENARIOS.length} scenarios, the bundle ${ALL_SCENARIOS.length - 1})`);
  });

  it('rejects a changed suite hash', async () => {
    const b = copy(await reference());
    b.suiteHash = `sha256:${'0'.repeat(64)}`;
    expect(await firstProblem(b)).toBe(`suite hash: the bundle says sha256:${'0'.repeat(64)}, this kit's suites hash to ${suiteHash()}`);
  });

  it('rejects a tier claimed higher than the verdicts give', async () => {
    const b = copy(await faultyBundle());
    const real = b.report.achieved;
    expect(real).not.toBe('gold');
    b.report.achieved = 'gold';
    b.certification = { ...(await reference()).certification!, name: 'lossy', tier: 'gold' };
    expect(await firstProblem(b)).toBe(`tier: the bundle says gold, the replay reaches ${real ?? 'none'}`);
  }, 120_000);

  it('rejects a registry entry that disagrees with the report', async () => {
    const b = copy(await reference());
    b.certification = { ...b.certification!, name: 'someone-else' };
    expect(await firstProblem(b)).toBe('registry entry: name "someone-else", the bundle\'s report and implementation say "reference"');
  });
});
