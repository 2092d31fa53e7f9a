// Issue 14, item 19: the README's first command must not make npx install the checkout again, and
// vendors get a path that works today (a composite action in this repository).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8');

it('the quick start runs the checkout\'s own launcher, not `npx tck`', () => {
  const quick = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(read('README.md'))![1]!;
  expect(quick).toMatch(/^node bin\/tck\.js/m);
  expect(quick).not.toMatch(/^npx tck/m);
});

it('action.yml is a composite action that installs the kit from its checkout and runs bin/tck.js', () => {
  const action = read('action.yml');
  expect(action).toMatch(/^runs:\n  using: composite$/m);
  expect(action).toMatch(/working-directory: \$\{\{ github\.action_path \}\}\n\s+run: npm ci/);
  expect(action).toContain('node "${{ github.action_path }}/bin/tck.js" run');
  expect(action).toMatch(/uses: actions\/upload-artifact@v4/);
  // The step summary is the kit's own (GITHUB_STEP_SUMMARY), written on every exit code.
  expect(read('README.md')).toMatch(/uses: OWNER\/agent-memory-tck@v0\.1\.0/);
});
