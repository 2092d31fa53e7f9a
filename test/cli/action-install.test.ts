// The GitHub Action's own install step, run as the runner runs it, in a copy of the kit that holds
// only what a checkout of the action holds (no node_modules, no dist/): it must leave a kit that
// bin/tck.js can run. An install that compiled dist/ with tsc and never built dist/bundle/ (esbuild
// is a development dependency, absent after `npm ci --omit=dev`) made every job using the action
// end with "tck: the kit is not built", exit 2. Needs the npm registry, nothing else; in the deep
// project (vitest.config.ts) for its minute of installing.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { id?: string; name?: string; run?: string; 'working-directory'?: string }[] } };
const install = action.runs.steps.find((s) => s.run?.includes('npm ci'))!;
/** What a checkout of the action holds that the install reads (git ls-files would name the same folders). */
const CHECKOUT = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'src', 'suites', 'fixtures', 'bin', 'scripts'];

describe("action.yml's install step, run in a fresh copy of the kit", () => {
  const dir = mkdtempSync(join(tmpdir(), 'tck-action-install-'));
  const kit = join(dir, 'kit');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs the production dependencies, builds what bin/tck.js loads, and the kit runs a scenario', () => {
    expect(install['working-directory']).toBe('${{ github.action_path }}');
    for (const f of CHECKOUT) cpSync(join(ROOT, f), join(kit, f), { recursive: true });
    // This process's environment (npm's registry settings and certificates), as a runner's would be.
    const env = { ...process.env, RUNNER_TEMP: join(dir, 'runner-temp') };
    const r = spawnSync('bash', ['-e', '-c', install.run!], { cwd: kit, encoding: 'utf8', env, timeout: 300_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    // Only the production dependencies: no esbuild, no TypeScript left behind.
    expect(existsSync(join(kit, 'node_modules/esbuild'))).toBe(false);
    expect(existsSync(join(kit, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(join(kit, 'dist/bundle/main.mjs'))).toBe(true);
    const out = join(dir, 'reports');
    const run = spawnSync(process.execPath, [join(kit, 'bin/tck.js'), 'run', '--scenario', 'SCN-B-001', '--out', out, '--quiet'], { cwd: dir, encoding: 'utf8', env: { ...env, NO_COLOR: '1' }, timeout: 120_000 });
    expect(run.stderr).not.toMatch(/not built/);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).scenarios.map((s: { outcome: string }) => s.outcome)).toEqual(['passed']);
  }, 420_000);
});
