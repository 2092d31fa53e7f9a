// The Stryker disable comments in the mutated files are the triage of mutants no conforming client
// can tell apart from the reference (docs/mutation-triage.md). Each must say which kind it is, and
// a silent point it names must be an entry of the table, so a mark cannot hide an unchecked rule
// behind a reason nobody can follow.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SILENT_POINTS } from '../../src/engine/silent-points.js';

const KINDS = /^(equivalent|equivalent over HTTP|equivalent in practice|silent points? [a-z-]+(?: and [a-z-]+)*|timing|not a protocol rule|outside the mutation run)\b/;
// The mutate list as stryker.config.mjs writes it (read as text: the config is untyped JavaScript).
const mutated = [...(/mutate: \[([^\]]*)\]/.exec(readFileSync('stryker.config.mjs', 'utf8'))?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
const marks = mutated.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
    .filter((l) => l.text.startsWith('// Stryker disable')),
);

describe('Stryker disable marks in the mutated files', () => {
  it('there are marks to check (the mutate list names the reference files)', () => {
    expect(mutated).toContain('src/servers/bridge/store.ts');
    expect(marks.length).toBeGreaterThan(20);
  });

  it.each(marks.map((m) => [`${m.file}:${m.line}`, m.text] as const))('%s gives a kind and a reason', (_at, text) => {
    const reason = /^\/\/ Stryker disable(?: next-line)? [\w,]+: (.+)$/.exec(text)?.[1];
    expect(reason, 'a mark without a reason').toBeDefined();
    expect(reason).toMatch(KINDS);
  });

  it('every silent point a mark names is in the table', () => {
    const known = new Set(SILENT_POINTS.map((p) => p.id));
    const named = marks.flatMap((m) => [...m.text.matchAll(/silent points? ([a-z-]+)(?: and ([a-z-]+))?/g)].flatMap((x) => [x[1], x[2]]).filter((x): x is string => x !== undefined));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });
});
