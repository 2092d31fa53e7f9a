// Every exit code the CLI can return is in the README's table, and the table names no other: the
// one map from errors to exit codes (src/engine/errors.ts) and the documentation cannot drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODES } from '../../src/engine/errors.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const table = /### Exit codes\n\n\| code \| meaning \|\n\|---\|---\|\n((?:\|.*\|\n)+)/.exec(readme)?.[1] ?? '';
const documented = new Set([...table.matchAll(/^\| ([\d /]+) \|/gm)].flatMap((m) => m[1]!.split('/').map((c) => Number(c.trim()))));

describe('exit codes', () => {
  it('the README table lists exactly the codes of EXIT', () => {
    expect([...documented].sort((a, b) => a - b)).toEqual([...new Set(Object.values(EXIT))].sort((a, b) => a - b));
  });

  it('every error code maps to a documented exit code', () => {
    expect(Object.entries(EXIT_CODES).filter(([, code]) => !documented.has(code)).map(([name]) => name)).toEqual([]);
  });
});
