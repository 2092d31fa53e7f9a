// The folder tree is the architecture: which folder may import which (ARCHITECTURE.md states the
// same table). Every import specifier of src/, suites/ and fixtures/ (static, re-export, type-only
// and dynamic import()) is read with TypeScript's own pre-processor, resolved to a file, and the
// edge between the two files' folders is checked against the table below. Cycles are refused twice:
// between folders, and between files (a type-only import included: two files that need each other
// are one module split in two, whatever the compiler erases).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The top-level folders of src/, plus suites and fixtures. src/index.ts and src/vitest.ts are the library's entries. */
const FOLDERS = ['engine', 'protocols', 'profiles', 'servers', 'report', 'run', 'certify', 'explore', 'cli', 'util', 'suites', 'fixtures'] as const;
type Folder = (typeof FOLDERS)[number] | 'index';

/** What a folder may import: `only` lists every folder allowed, `never` lists the forbidden ones. */
type Rule = { only: readonly Folder[] } | { never: readonly Folder[] };
const RULES: Partial<Record<Folder, Rule>> = {
  util: { only: [] },
  fixtures: { only: [] },
  engine: { only: ['util'] },
  protocols: { only: ['util'] },
  servers: { only: ['protocols', 'util'] },
  report: { only: ['engine', 'protocols', 'util'] },
  profiles: { never: ['servers', 'run', 'cli', 'suites'] },
  suites: { never: ['servers', 'run', 'cli', 'report'] },
  run: { never: ['cli', 'certify', 'explore'] },
  certify: { never: ['cli'] },
  explore: { never: ['cli'] },
  // cli and index (the library entry) may import any folder; cycles are still refused.
};

interface Edge { from: Folder; to: Folder; file: string; specifier: string }
/** One import between two files of the repository (same folder or not). */
interface FileEdge { from: string; to: string; specifier: string }

function folderOf(file: string): Folder | undefined {
  const [top, second] = file.split('/');
  if (top === 'suites' || top === 'fixtures') return top;
  if (top !== 'src') return undefined;
  if (file === 'src/index.ts' || file === 'src/vitest.ts') return 'index';
  return (FOLDERS as readonly string[]).includes(second ?? '') ? (second as Folder) : undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every file-to-file import whose target is in the repository (node: and npm packages are not). */
function imports(): { edges: Edge[]; fileEdges: FileEdge[]; unplaced: string[] } {
  const edges: Edge[] = [];
  const fileEdges: FileEdge[] = [];
  const unplaced: string[] = [];
  for (const file of ['src', 'suites', 'fixtures'].flatMap(sourceFiles)) {
    const from = folderOf(file);
    if (!from) { unplaced.push(`${file} is in no folder of the architecture table`); continue; }
    for (const { fileName: specifier } of ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles) {
      if (!specifier.startsWith('.')) continue;
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split('\\').join('/');
      const to = folderOf(target);
      if (!to) { unplaced.push(`${file} imports '${specifier}', outside src/, suites/ and fixtures/`); continue; }
      if (to !== from) edges.push({ from, to, file, specifier });
      fileEdges.push({ from: file, to: sourceOf(target), specifier });
    }
  }
  return { edges, fileEdges, unplaced };
}

/** The source file an import's resolved path names: `./x.js` is x.ts, `./x.mjs` is x.mts. */
function sourceOf(target: string): string {
  return target.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts');
}

const allowed = (from: Folder, to: Folder): boolean => {
  const rule = RULES[from];
  if (!rule) return true;
  return 'only' in rule ? rule.only.includes(to) : !rule.never.includes(to);
};

/** Strongly connected components with more than one node (folders or files): the cycles. */
function cycles<T extends string>(pairs: readonly { from: T; to: T }[]): T[][] {
  const next = new Map<T, Set<T>>();
  for (const { from, to } of pairs) next.set(from, (next.get(from) ?? new Set()).add(to));
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const found: T[][] = [];
  const visit = (v: T): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: T[] = [];
    let w: T;
    do { w = stack.pop()!; component.push(w); } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

const line = (e: Edge): string => `${e.file} (${e.from}) imports '${e.specifier}' (${e.to})`;

describe('the import graph between folders', () => {
  const { edges, fileEdges, unplaced } = imports();

  it('reads the imports (the graph is not empty, dynamic import() included)', () => {
    expect(edges.some((e) => e.from === 'cli' && e.to === 'suites')).toBe(true);
    expect(edges.some((e) => e.from === 'index')).toBe(true);
  });

  it('every source file and every import target is in a folder of the table', () => {
    expect(unplaced, 'add the folder to ARCHITECTURE.md and to this test\'s table').toEqual([]);
  });

  it('every import between folders is allowed by the table', () => {
    expect(edges.filter((e) => !allowed(e.from, e.to)).map(line)).toEqual([]);
  });

  it('no import cycles between folders', () => {
    const offending = cycles(edges).flatMap((component) => [
      `cycle between ${component.join(', ')}:`,
      ...edges.filter((e) => component.includes(e.from) && component.includes(e.to)).map((e) => `  ${line(e)}`),
    ]);
    expect(offending).toEqual([]);
  });

  it('finds the cycles it is meant to refuse (a file graph with one is reported, with its imports)', () => {
    const found = cycles([{ from: 'a.ts', to: 'b.ts' }, { from: 'b.ts', to: 'c.ts' }, { from: 'c.ts', to: 'a.ts' }, { from: 'c.ts', to: 'd.ts' }]);
    expect(found).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(fileEdges.some((e) => e.from === 'src/cli/main.ts' && e.to === 'src/cli/run-command.ts'), 'dynamic import() read').toBe(true);
    expect(fileEdges.some((e) => e.from.startsWith('src/explore/') && e.to === 'src/explore/judge.ts'), 'same-folder imports read').toBe(true);
  });

  it('no import cycles between files, type-only imports included', () => {
    const offending = cycles(fileEdges).flatMap((component) => [
      `cycle between ${component.join(', ')}:`,
      ...fileEdges.filter((e) => component.includes(e.from) && component.includes(e.to)).map((e) => `  ${e.from} imports '${e.specifier}'`),
    ]);
    expect(offending).toEqual([]);
  });
});
