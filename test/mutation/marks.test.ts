// The Stryker disable comments in the mutated files are the triage of mutants no conforming client
// can tell apart from the reference (docs/mutation-triage.md). Each must say which kind it is, and
// what it names must exist: a silent point of the bridge must be an entry of the table, a reading
// of the hosted document a valid variant of the hosted profile (test/hosted/profile-variants.ts),
// an advisory an entry of the advisory table. So a mark cannot hide an unchecked rule behind a
// reason nobody can follow. Every Stryker config's mutate list is read (stryker*.config.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SILENT_POINTS } from '../../src/engine/silent-points.js';
import { ADVISORIES } from '../../src/protocols/clauses/index.js';
import { VALID as HOSTED_VALID } from '../hosted/profile-variants.js';

// (A valid variant's name ends with a quote, where a word boundary cannot follow: it stands outside the \b group.)
const KINDS = /^(?:(?:equivalent|equivalent over HTTP|equivalent in practice|silent points? [a-z-]+(?: and [a-z-]+)*|advisory ADV-[a-z0-9-]+|timing|not a protocol rule|outside the mutation run)\b|silent \(hosted\): valid variant "[^"]+")/;
// The files every Stryker config of the kit mutates (stryker.config.mjs, stryker.<part>.config.mjs),
// a line range (`file:a-b`) read as its file.
const CONFIGS = readdirSync('.').filter((f) => /^stryker(\.[\w-]+)?\.config\.mjs$/.test(f));
const mutate = (await Promise.all(CONFIGS.map(async (f) => ((await import(pathToFileURL(f).href)) as { default: { mutate: string[] } }).default.mutate))).flat();
const mutated = [...new Set(mutate.map((m) => m.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, '')))];
const marks = mutated.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line, i) => ({ file, line: i + 1, text: line.trim() }))
    .filter((l) => l.text.startsWith('// Stryker disable')),
);
const reasonOf = (text: string) => /^\/\/ Stryker disable(?: next-line)? [\w,]+: (.+)$/.exec(text)?.[1];

describe('Stryker disable marks in the mutated files', () => {
  it('there are marks to check (the mutate lists name the reference files of every run)', () => {
    expect(CONFIGS).toEqual(expect.arrayContaining(['stryker.config.mjs', 'stryker.platinum.config.mjs', 'stryker.hosted.config.mjs']));
    expect(mutated).toEqual(expect.arrayContaining(['src/servers/bridge/store.ts', 'src/servers/hosted/store.ts', 'src/servers/hosted/query.ts', 'src/servers/hosted/oauth.ts']));
    expect(marks.length).toBeGreaterThan(20);
  });

  it.each(marks.map((m) => [`${m.file}:${m.line}`, m.text] as const))('%s gives a kind and a reason', (_at, text) => {
    const reason = reasonOf(text);
    expect(reason, 'a mark without a reason').toBeDefined();
    expect(reason).toMatch(KINDS);
  });

  // Stryker reads a directive only as the leading comment of the next node. So a next-line mark above
  // "} catch", "} else", "else if" or a link of a chain (".catch(", ".then(") reaches nothing, and a
  // restore before a closing brace is never read: the region it closes runs on to the end of the
  // file, hiding every later mutant of its mutators (found in the Platinum and hosted runs).
  it('every mark stands where Stryker reads it', () => {
    const misplaced = mutated.flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      const nextCode = (i: number) => {
        for (let j = i + 1; j < lines.length; j++) if (!lines[j]!.trim().startsWith('//') && lines[j]!.trim() !== '') return lines[j]!.trim();
        return '';
      };
      return lines.flatMap((line, i) => {
        const t = line.trim();
        const next = nextCode(i);
        if (t.startsWith('// Stryker disable next-line') && /^(}|else\b|\.(?!\.\.))/.test(next)) return [`${file}:${i + 1}: a next-line mark above "${next.slice(0, 20)}"`];
        if (t.startsWith('// Stryker restore') && (next === '' || next.startsWith('}'))) return [`${file}:${i + 1}: a restore before "${next.slice(0, 20)}"`];
        return [];
      });
    });
    expect(misplaced).toEqual([]);
  });

  it('every silent point a mark names is in the table', () => {
    const known = new Set(SILENT_POINTS.map((p) => p.id));
    const named = marks.flatMap((m) => [...m.text.matchAll(/silent points? ([a-z-]+)(?: and ([a-z-]+))?/g)].flatMap((x) => [x[1], x[2]]).filter((x): x is string => x !== undefined));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((id) => !known.has(id))).toEqual([]);
  });

  it('every valid variant and advisory a mark of the hosted service names exists', () => {
    const variants = new Set(HOSTED_VALID.map((v) => v[0]));
    const advisories = new Set(ADVISORIES.map((a) => a.id));
    const named = marks.map((m) => reasonOf(m.text) ?? '');
    expect(named.flatMap((r) => [.../silent \(hosted\): valid variant "([^"]+)"/g.exec(r)?.slice(1) ?? []]).filter((v) => !variants.has(v))).toEqual([]);
    expect(named.flatMap((r) => [.../^advisory (ADV-[a-z0-9-]+)/.exec(r)?.slice(1) ?? []]).filter((a) => !advisories.has(a))).toEqual([]);
  });
});
