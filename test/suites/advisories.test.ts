// The advisories of the bridge suites, proven both ways (issue 21): a server that breaks only the
// kit's own readings passes the scenario with the advisory noted (its id, its message), and fails
// it when the run asks for the stricter bar (advisories: 'fail', the CLI's --advisories=fail); one
// server breaking many readings at once still reaches Gold, and reaches nothing under 'fail'. Every
// advisory of the table has such a proof, and every advisory a suite names is in the table.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVISORIES, advisoryOf } from '../../src/protocols/clauses/index.js';
import { gradeVariant, runOnVariant } from '../harness/variants.js';
import { ADVISORY_ROWS, BY_THE_KITS_READING } from './variants/advisories.js';

/** The advisory ids the bridge suites name (check.advise, expectRefusal's advise). */
function advisoriesNamedBySuites(): Set<string> {
  const named = new Set<string>();
  for (const dir of ['bronze', 'silver', 'gold', 'support']) {
    for (const file of readdirSync(join('suites', dir)).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(join('suites', dir, file), 'utf8').matchAll(/'(ADV-[a-z0-9-]+)'/g)) named.add(m[1]!);
    }
  }
  return named;
}

describe('advisories of the bridge suites', () => {
  it('every advisory a suite names is in the table, with what it expects, why it is no rule and the sentences nearest', () => {
    const missing = [...advisoriesNamedBySuites()].filter((id) => advisoryOf(id) === undefined);
    expect(missing).toEqual([]);
    for (const a of ADVISORIES) {
      expect(a.expects.length, a.id).toBeGreaterThan(20);
      expect(a.reason.length, a.id).toBeGreaterThan(40);
      expect(a.near.length, a.id).toBeGreaterThan(0);
      expect(a.near.filter((id) => id.startsWith('ADV-')), a.id).toEqual([]);
    }
  });

  it('every advisory of the table has a server that breaks it and is proven below', () => {
    const proven = new Set(ADVISORY_ROWS.map((row) => row[3]));
    expect(ADVISORIES.map((a) => a.id).filter((id) => !proven.has(id))).toEqual([]);
  });

  const rows = ADVISORY_ROWS.map(([id, fault, variant, advisory]) => ({ id, fault, variant, advisory }));
  it.each(rows)('$id passes when $fault, noting $advisory, and fails under advisories: fail', async ({ id, variant, advisory }) => {
    const [noted] = await runOnVariant(variant, [id]);
    expect({ outcome: noted!.outcome, message: noted!.message }).toEqual({ outcome: 'passed', message: undefined });
    expect(noted!.advisories?.map((a) => a.id)).toContain(advisory);
    const note = noted!.advisories!.find((a) => a.id === advisory)!;
    expect(note.message.length).toBeGreaterThan(20);

    const [strict] = await runOnVariant(variant, [id], { advisories: 'fail' });
    expect(strict!.outcome).toBe('failed');
    expect(strict!.message).toMatch(/^advisory ADV-[a-z0-9-]+ \(--advisories=fail\): /);
    expect(strict!.cites?.[0]).toMatch(/^ADV-/);
  });

  it('a server breaking many of the kit\'s readings at once reaches Gold with them noted, and no tier when they fail', async () => {
    const { results, grade } = await gradeVariant({ wrap: BY_THE_KITS_READING });
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => `${r.id} ${r.outcome}: ${r.message}`)).toEqual([]);
    expect(grade.achieved).toBe('gold');
    const noted = new Set(results.flatMap((r) => r.advisories ?? []).map((a) => a.id));
    expect([...noted].sort()).toEqual(
      ['ADV-limit-window', 'ADV-properties-not-null', 'ADV-refuse-missing-param', 'ADV-refuse-unknown-status', 'ADV-refuse-unknown-trace', 'ADV-refuse-wrong-type', 'ADV-search-preferences-limit', 'ADV-search-results-distinct'],
    );

    const strict = await gradeVariant({ wrap: BY_THE_KITS_READING }, { advisories: 'fail' });
    expect(strict.grade.achieved).toBeNull();
    expect(strict.results.filter((r) => r.outcome === 'failed').every((r) => r.cites?.[0]?.startsWith('ADV-'))).toBe(true);
  }, 120_000);
});
