// docs/cli.md is the `--help` of every command, generated: the command table of src/cli/main.ts is
// the one source, so the reference cannot say what the CLI does not do. A change of any option
// that leaves docs/cli.md as it was fails here; `npm run docs:cli` (or `npm run docs`) rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';

const PATH = new URL('../../docs/cli.md', import.meta.url);

/** What `tck <command> --help` prints, at a fixed width and without colour, whatever the terminal. */
function help(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => { text += s; }, writeErr: (s) => { text += s; }, getOutHelpWidth: () => 100, getOutHasColors: () => false });
  command.outputHelp();
  return text.trimEnd();
}

function render(): string {
  const program = buildProgram();
  const commands = program.commands.filter((c) => c.name() !== 'help');
  const name = (c: Command) => `tck ${c.name()}`;
  return [
    '# Command reference',
    '',
    'Generated from each command\'s `--help` by `test/cli/reference-doc.test.ts`; `npm run docs:cli` rewrites it',
    '(a test fails while it differs from the CLI). Every command is also `npx tck <command> --help`. Exit codes:',
    '[exit-codes.md](exit-codes.md); the config file and what each option does in a run: [running.md](running.md).',
    '',
    ...commands.map((c) => `- [\`${name(c)}\`](#${name(c).replace(/ /g, '-')}) — ${c.description().split('\n')[0]}`),
    '',
    '## tck',
    '',
    '```text',
    help(program),
    '```',
    ...commands.flatMap((c) => ['', `## ${name(c)}`, '', '```text', help(c), '```']),
    '',
  ].join('\n');
}

describe('docs/cli.md', () => {
  it('is every command\'s --help, current (regenerate with `npm run docs:cli`)', () => {
    const expected = render();
    if (process.env.TCK_UPDATE_DOCS === '1') writeFileSync(PATH, expected);
    expect(readFileSync(PATH, 'utf8'), 'docs/cli.md is stale: run `npm run docs:cli`').toBe(expected);
  });

  it('holds every command and every long option of the CLI', () => {
    const doc = readFileSync(PATH, 'utf8');
    const program = buildProgram();
    const missing = program.commands.flatMap((c) => [`## tck ${c.name()}`, ...c.options.map((o) => o.long ?? o.flags)].filter((s) => !doc.includes(s)).map((s) => `${c.name()}: ${s}`));
    expect(missing).toEqual([]);
  });
});
