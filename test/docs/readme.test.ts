// The README and the written pages of docs/ say what the kit does, so they are checked against it:
// the README stays short, its figures are the real counts of the suites, every `npx tck …` line of
// a code block names a command and options the CLI has, and every relative link (and every anchor
// into the generated clause map) points at something that exists.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
/** Pages generated from the code (checked by their own tests), and pages another change writes. */
const GENERATED = new Set(['docs/cli.md', 'docs/clauses.md', 'docs/scenarios.md']);
const WRITTEN = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).filter((f) => !GENERATED.has(f))];
/** Linked before it exists: docs/exit-codes.md is written by the exit-code work of issue 33 (items 1–13). */
const PENDING = new Set<string>();

const count = (tier: string) => ALL_SCENARIOS.filter((s) => s.tier === tier).length;

/** Every `npx tck …` command of the fenced code blocks of a Markdown text (comments cut off). */
function commands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```(?:sh|bash|console)?\n([\s\S]*?)^```/gm)].map((m) => m[1]!);
  return blocks.flatMap((b) => b.split('\n')).flatMap((line) => [...line.replace(/\s#\s.*$/, '').matchAll(/npx tck(?: [^|;&)`]*)?/g)].map((m) => m[0].trim()));
}

describe('README.md', () => {
  it('is short, with a table of contents whose links are its own headings', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(220);
    const contents = README.slice(README.indexOf('## Contents'), README.indexOf('\n## ', README.indexOf('## Contents') + 1));
    const headings = new Set([...README.matchAll(/^#{2,3} (.+)$/gm)].map((m) => m[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));
    const targets = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(targets.length).toBeGreaterThanOrEqual(5);
    expect(targets.filter((t) => !headings.has(t))).toEqual([]);
  });

  it('gives the real number of scenarios of every tier and of the hosted profile', () => {
    const row = (name: string) => new RegExp(`^\\| ${name}[^\\n]*\\| (\\d+) \\|$`, 'm').exec(README)?.[1];
    expect({ bronze: row('Bronze'), silver: row('Silver'), gold: row('Gold'), platinum: row('Platinum'), hosted: row('hosted profile') }).toEqual({
      bronze: String(count('bronze')), silver: String(count('silver')), gold: String(count('gold')), platinum: String(count('platinum')), hosted: String(HOSTED_SCENARIOS.length),
    });
    const core = count('bronze') + count('silver') + count('gold');
    // The quick start's output and the five steps' comments: a full run, a Bronze run, a hosted run.
    for (const n of [...README.matchAll(/(\d+) scenarios: (\d+) passed/g)].map((m) => Number(m[1]))) expect([core, count('bronze'), HOSTED_SCENARIOS.length]).toContain(n);
    expect(README).toContain(`${core} scenarios: ${core} passed`);
  });
});

describe('the written documentation', () => {
  const program = buildProgram();
  const known = new Map(program.commands.map((c) => [c.name(), new Set(c.options.flatMap((o) => [o.long, o.short]).filter(Boolean))]));

  it.each(WRITTEN)('%s: every `npx tck …` of a code block names a command and options the CLI has', (page) => {
    const wrong: string[] = [];
    for (const line of commands(read(page))) {
      const words = line.split(/\s+/).slice(2);
      const name = words[0] && !words[0].startsWith('-') ? words[0] : 'run';
      const options = known.get(name);
      if (!options) { wrong.push(`${line}: no command '${name}'`); continue; }
      for (const w of words) {
        const flag = /^(--?[a-zA-Z][\w-]*)/.exec(w)?.[1];
        // After `certify`, --version is the implementation's (main.ts reads it as --impl-version).
        const also = name === 'certify' ? ['--version'] : [];
        if (flag && flag !== '--help' && !options.has(flag) && ![...also, '--debug'].includes(flag)) wrong.push(`${line}: '${name}' has no option ${flag}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(WRITTEN)('%s: every relative link points at a file that exists, and every anchor into clauses.md at a sentence', (page) => {
    const broken: string[] = [];
    const clauses = read('docs/clauses.md');
    for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!) || target!.startsWith('#')) continue;
      const [path, anchor] = target!.split('#');
      const file = join(dirname(join(ROOT, page)), path!);
      const relative = file.slice(ROOT.length + 1);
      if (!existsSync(file) && !PENDING.has(relative)) broken.push(`${target}: no file ${relative}`);
      if (anchor && relative === 'docs/clauses.md' && !clauses.includes(`<a id="${anchor}"></a>`)) broken.push(`${target}: no sentence with that anchor`);
    }
    expect(broken).toEqual([]);
  });
});
