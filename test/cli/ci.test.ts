// Issue 14, items 16–17: GitHub Actions on exit 3, the per-scenario log in a group, TCK_URL, FORCE_COLOR.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startVariant, tck, tempDir } from '../reporters/support.js';

const work = tempDir('tck-ci-');

it('exit 3 on GitHub Actions still writes the step summary and an annotation', async () => {
  const summary = join(work, 'summary.md');
  const r = await tck(['run', '--url', 'http://127.0.0.1:9', '--out', join(work, 'u')], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary });
  expect(r.code).toBe(3);
  expect(existsSync(summary)).toBe(true);
  expect(readFileSync(summary, 'utf8')).toMatch(/^## agent-memory-tck: NONE ❌/);
  expect(r.stdout).toMatch(/^::error title=\d+ scenarios not run::cannot reach the conformance server at http:\/\/127\.0\.0\.1:9/m);
});

it('TCK_URL stands in for --url; on GitHub the scenario lines are one ::group::; FORCE_COLOR colours a pipe (NO_COLOR, when set, wins: no-color.org)', async () => {
  const server = await startVariant();
  try {
    const r = await tck(['run', '--tier', 'bronze', '--grep', 'SCN-B-00[12]', '-r', 'console', '--out', join(work, 'g')], { TCK_URL: server.url, GITHUB_ACTIONS: 'true', FORCE_COLOR: '1', NO_COLOR: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`against ${server.url}`);
    // Issue 33, item 11: run says where its target came from, first.
    expect(r.stdout).toMatch(new RegExp(`^testing ${server.url.replace(/[.]/g, '\\.')} \\(from TCK_URL\\)\n::group::2 scenarios, one line each\n(.*PASS.*\n){2}::endgroup::\n`));
    expect(r.stdout).toMatch(/\x1b\[3\dm/);
  } finally {
    await server.close();
  }
});
