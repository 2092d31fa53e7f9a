// `tck explain` as a user meets it (the built launcher): a scenario with the sentence each of its
// assertions enforces, and an id nobody has: one line, exit 2, with the nearest id. (A sentence and
// an advisory, which run every scenario, are explained from the recording of test/clauses/map.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { tck, type Ran } from '../reporters/support.js';

const ARGS = { scenario: 'scn-b-044', typo: 'SPEC-2.2.99', junk: '<script>' } as const;
const ran = {} as Record<keyof typeof ARGS, Ran>;
beforeAll(async () => {
  const entries = await Promise.all(Object.entries(ARGS).map(async ([k, id]) => [k, await tck(['explain', id])] as const));
  for (const [k, r] of entries) ran[k as keyof typeof ARGS] = r;
}, 300_000);

describe('tck explain', () => {
  it('a scenario: its assertions, identical ones once, each with the sentences it enforces and their text', () => {
    const r = ran.scenario;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('SCN-B-044  get_conversation honours limit\n');
    expect(r.stdout).toMatch(/Assertions \(\d+ made against the embedded reference server; identical ones shown once, ×n\), each with the sentences it enforces:/);
    // The profile's check of every answer: the method's row and the response rule, quoted.
    expect(r.stdout).toMatch(/ {2}add_message answers 200 \(object\) {2}×8\n {6}BRIDGE-METHOD-add_message +\| POST \/add_message \| session_id, role, content, metadata\? \| Message \|\n {6}BRIDGE-RESPONSE-1 +\| Single object \| 200 \| the object \|/);
    // The scenario's own checks cite its clause, with the kit's summary of it.
    expect(r.stdout).toMatch(/get_conversation\(session_id="tck-b044", limit=2\) on 5 messages: expected 2 messages, got 2 {2}\(the scenario's clauses\)\n {6}SPEC-2\.2\.2 \(MUST\) +limit bounds the messages returned/);
    // Its limit-window check is the kit's own reading: shown as an advisory, with why no sentence states it.
    expect(r.stdout).toMatch(/ {6}ADV-limit-window +ADVISORY: get_conversation\(limit=N\) keeps the first N or the last N/);
    expect(r.stdout).toContain('Advisories it may raise (never a failure, unless a run is given --advisories fail):\n  ADV-limit-window: expects');
    expect(r.stdout).toMatch(/why it is not a rule: SPEC-2\.2\.2 and SPEC-2\.2\.6 fix how many messages/);
  });

  it('an id nobody has: one line, exit 2, the nearest id suggested; nothing runs', () => {
    const { typo, junk } = ran;
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toBe('tck: unknown id "SPEC-2.2.99": no scenario, sentence of the clause map or advisory has it — did you mean SPEC-2.2.9? (see `npx tck list` and docs/clauses.md)\n');
    expect(junk.code).toBe(2);
    expect(junk.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(junk.stderr).not.toContain('did you mean');
  });
});
