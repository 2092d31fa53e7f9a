// The Stryker disable comments in the mutated files are the triage of mutants no conforming client
// can tell apart from the reference (docs/mutation-triage.md). Each must say which kind it is, and
// a silent point it names must be an entry of the table, so a mark cannot hide an unchecked rule
// behind a reason nobody can follow.
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SILENT_POINTS } from '../../src/engine/silent-points.js';

const KINDS = /^(equivalent|equivalent over HTTP|equivalent in practice|silent points? [a-z-]+(?: and [a-z-]+)*|timing|not a protocol rule|outside the mutation run)\b/;
// The files every Stryker config of the kit mutates (stryker.config.mjs, stryker.<part>.config.mjs),
// a line range (`file:a-b`) read as its file.
const configs = readdirSync('.').filter((f) => /^stryker(\.[\w-]+)?\.config\.mjs$/.test(f));
const mutate = (await Promise.all(configs.map(async (f) => ((await import(pathToFileURL(f).href)) as { default: { mutate: string[] } }).default.mutate))).flat();
const mutated = [...new Set(mutate.map((m) => m.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, '')))];
const marks = mutated.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
    .filter((l) => l.text.startsWith('// Stryker disable')),
);

describe('Stryker disable marks in the mutated files', () => {
  it('there are marks to check (the mutate list names the reference files)', () => {
    expect(mutated).toEqual(expect.arrayContaining(['src/servers/bridge/store.ts', 'src/servers/hosted/store.ts', 'src/servers/hosted/query.ts']));
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
