// The rules of explore's oracle cite sentences by the ids of the clause map, and every rule is
// checked somewhere (a rule no check names would be a promise the oracle does not keep).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METHODS, MODEL } from '../../src/protocols/bridge/index.js';
import { RULES, Violation } from '../../src/explore/rules.js';

const methods = new Set(Object.keys(METHODS));
const SCHEME: [RegExp, (m: RegExpExecArray) => boolean][] = [
  [/^SPEC-[1-5]\.\d+\.\d+$/, () => true],
  [/^SPEC-V5-5\.[1-5]\.[1-4][ab]?$/, () => true],
  [/^SPEC-V3-([a-z_]+)$/, (m) => methods.has(m[1]!)],
  [/^BRIDGE-(GENERAL|STATES|ENDPOINT|REQUEST|RESPONSE|ERRORS|VERSION|SERVICE)-\d$/, () => true],
  [/^BRIDGE-MODEL-([A-Za-z]+)(\.[a-z_]+)?$/, (m) => m[1]! in MODEL],
  [/^BRIDGE-(METHOD|LIFECYCLE)-([a-z_]+)$/, (m) => methods.has(m[2]!)],
  [/^HOSTED-ENDPOINT-([a-z_]+)$/, (m) => methods.has(m[1]!)],
];
const valid = (id: string) => SCHEME.some(([re, ok]) => {
  const m = re.exec(id);
  return m !== null && ok(m);
});

describe("explore's rules", () => {
  it('every rule cites at least one sentence, each an id of the clause map', () => {
    const bad = Object.entries(RULES as Record<string, { cites: readonly string[] }>).flatMap(([rule, r]) => (r.cites.length === 0 ? [`${rule}: no sentence`] : r.cites.filter((c) => !valid(c)).map((c) => `${rule}: ${c}`)));
    expect(bad).toEqual([]);
  });

  it('every rule is checked by the oracle', () => {
    const source = ['oracle', 'platinum', 'model', 'run'].map((f) => readFileSync(new URL(`../../src/explore/${f}.ts`, import.meta.url), 'utf8')).join('\n');
    expect(Object.keys(RULES).filter((rule) => !source.includes(`'${rule}'`))).toEqual([]);
  });

  it('a violation carries its rule, the rule\'s sentences and the call\'s', () => {
    const v = new Violation('list_sessions.counts', 'message_count of "s-1" is 2, it has 1 live messages', ['BRIDGE-METHOD-list_sessions']);
    expect(v.cites).toEqual([...RULES['list_sessions.counts'].cites, 'BRIDGE-METHOD-list_sessions']);
    expect(v.message).toMatch(/message_count/);
  });
});
