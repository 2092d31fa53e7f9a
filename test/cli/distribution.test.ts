// How vendors get the kit: `npx tck` in a fresh checkout must not rebuild it (the `prepare` step
// compiles only when dist/ is stale), and the composite GitHub Action (action.yml) installs the
// kit, runs it against a URL (optionally starting the server), uploads the reports and writes the
// step summary. Its run step is executed here as GitHub would run it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../harness/ports.js';
import { parse } from 'yaml';
// @ts-expect-error -- a plain .mjs script without type declarations
import { isStale } from '../../scripts/build-if-stale.mjs';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

describe('the prepare step compiles only when dist/ is stale', () => {
  const root = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tck-prepare-'));
    mkdirSync(join(dir, 'src/cli'), { recursive: true });
    mkdirSync(join(dir, 'dist/bundle'), { recursive: true });
    writeFileSync(join(dir, 'src/cli/main.ts'), '');
    writeFileSync(join(dir, 'dist/bundle/main.mjs'), '');
    return dir;
  };
  const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

  it('is what `prepare` runs (npm install, and npx in a checkout)', () => {
    expect(pkg.scripts.prepare).toBe('node scripts/build-if-stale.mjs');
  });
  it('no stamp: stale; a stamp newer than every source: up to date; a source changed since: stale', () => {
    const dir = root();
    expect(isStale(dir)).toBe(true);
    writeFileSync(join(dir, 'dist/.build-stamp'), '');
    at(join(dir, 'src/cli/main.ts'), 1_000);
    at(join(dir, 'dist/.build-stamp'), 2_000);
    expect(isStale(dir)).toBe(false);
    at(join(dir, 'src/cli/main.ts'), 3_000);
    expect(isStale(dir)).toBe(true);
    at(join(dir, 'src/cli/main.ts'), 1_000);
    writeFileSync(join(dir, 'tsconfig.json'), '{}');
    at(join(dir, 'tsconfig.json'), 3_000);
    expect(isStale(dir)).toBe(true);
  });
  it('a stamp without the CLI bundle (a checkout built before bin/tck.js ran the bundle): stale', () => {
    const dir = root();
    writeFileSync(join(dir, 'dist/.build-stamp'), '');
    at(join(dir, 'src/cli/main.ts'), 1_000);
    at(join(dir, 'dist/.build-stamp'), 2_000);
    expect(isStale(dir)).toBe(false);
    rmSync(join(dir, 'dist/bundle/main.mjs'));
    expect(isStale(dir)).toBe(true);
  });
});

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};
const steps = action.runs.steps;
const runStep = steps.find((s) => s.id === 'run')!;

describe('action.yml, the composite GitHub Action', () => {
  it('is a composite action whose inputs are described; url is required, the rest optional', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.description).toMatch(/conformance/);
    expect(action.inputs.url!.required).toBe(true);
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toBeTruthy();
      if (name !== 'url') expect(input.default, name).toBeDefined();
    }
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['url', 'server', 'tier', 'baseline', 'args', 'out']));
    expect(action.outputs['exit-code']!.value).toBe('${{ steps.run.outputs.exit-code }}');
  });
  it('every run step names its shell; inputs reach scripts only through env (no ${{ }} in a script)', () => {
    for (const s of steps.filter((x) => x.run !== undefined)) {
      expect(s.shell, s.name).toBe('bash');
      expect(s.run, s.name).not.toContain('${{');
    }
  });
  it('installs the kit from its own checkout, runs bin/tck.js, and uploads the reports even on failure', () => {
    const install = steps.find((s) => s.run?.includes('npm ci'))!;
    expect(install['working-directory']).toBe('${{ github.action_path }}');
    expect(steps.indexOf(install)).toBeLessThan(steps.indexOf(runStep));
    expect(runStep.run).toContain('node "$GITHUB_ACTION_PATH/bin/tck.js"');
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with!.path).toBe('${{ inputs.out }}');
    expect(steps.indexOf(upload)).toBeGreaterThan(steps.indexOf(runStep));
  });

  it('installs only what running the kit needs (production dependencies, the compiler in a scratch folder) and caches it', () => {
    const install = steps.find((s) => s.run?.includes('npm ci'))!;
    expect(install.run).toMatch(/npm ci --omit=dev --ignore-scripts/);
    // The full development install (test runner, linters, mutation testing, a browser driver) is never made.
    expect(install.run).not.toMatch(/npm ci(?![^\n]*--omit=dev)/);
    expect(install.run).toMatch(/--noCheck --typeRoots "\$build\/node_modules\/@types"/);
    // Restored by a cache keyed on the kit's sources; installed only when the cache missed.
    const fingerprint = steps.find((s) => s.id === 'kit')!;
    const cache = steps.find((s) => s.uses?.startsWith('actions/cache@'))!;
    expect(cache.with!.key).toBe('${{ steps.kit.outputs.key }}');
    expect(cache.with!.path).toContain('${{ github.action_path }}/node_modules');
    expect(cache.with!.path).toContain('${{ github.action_path }}/dist');
    expect(install.if).toBe(`steps.${cache.id}.outputs.cache-hit != 'true'`);
    expect(steps.indexOf(fingerprint)).toBeLessThan(steps.indexOf(cache));
    expect(steps.indexOf(cache)).toBeLessThan(steps.indexOf(install));
    // The versions the compiler step asks for are the lockfile's (the line runs as the step runs it).
    const line = /versions=\$\(node -p "(.*)"\)/.exec(install.run!)![1]!;
    const versions = spawnSync(process.execPath, ['-p', line], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')).packages;
    expect(versions).toBe(`typescript@${lock["node_modules/typescript"].version} @types/node@${lock["node_modules/@types/node"].version} esbuild@${lock["node_modules/esbuild"].version}`);
    // The fingerprint runs and names the kit's sources.
    const output = join(mkdtempSync(join(tmpdir(), 'tck-key-')), 'out');
    const key = spawnSync('bash', ['-e', '-c', fingerprint.run!], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH!, RUNNER_OS: 'Linux', GITHUB_OUTPUT: output } });
    expect(key.status).toBe(0);
    expect(readFileSync(output, 'utf8')).toMatch(/^key=agent-memory-tck-Linux-[0-9a-f]{16}-[0-9a-f]{16}\n$/);
  });

  /** Runs the action's run step with bash, as the runner would, with `inputs` in its env. */
  function runTheStep(inputs: Record<string, string>) {
    const work = mkdtempSync(join(tmpdir(), 'tck-action-'));
    const env: Record<string, string> = { GITHUB_ACTION_PATH: ROOT, GITHUB_OUTPUT: join(work, 'output'), GITHUB_STEP_SUMMARY: join(work, 'summary.md'), RUNNER_TEMP: work, GITHUB_ACTIONS: 'true' };
    writeFileSync(env.GITHUB_STEP_SUMMARY!, '');
    const values: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? '']));
    for (const [k, expr] of Object.entries(runStep.env!)) env[k] = expr.replace(/^\$\{\{ inputs\.([\w-]+) \}\}$/, (_m, name: string) => values[name]!);
    const r = spawnSync('bash', ['-e', '-c', runStep.run!], { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH!, HOME: process.env.HOME ?? work, NO_COLOR: '1', ...env }, timeout: 120_000 });
    return { ...r, work, output: existsSync(env.GITHUB_OUTPUT!) ? readFileSync(env.GITHUB_OUTPUT!, 'utf8') : '', summary: readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8') };
  }

  it('its run step starts the server, runs the kit, writes the reports, the summary and the exit code', async () => {
    const port = await freePort();
    const r = runTheStep({
      url: `http://127.0.0.1:${port}`,
      server: `node "${join(ROOT, 'bin/tck.js')}" serve --port ${port}`,
      tier: 'bronze',
      args: "--scenario SCN-B-001 --header 'X-Tenant: ci'",
    });
    expect(r.stderr).not.toMatch(/unknown option|tck: /);
    expect(r.output).toMatch(/^exit-code=\d+\n$/);
    expect(r.status).toBe(Number(r.output.split('=')[1]));
    const report = JSON.parse(readFileSync(join(r.work, 'tck-reports/report.json'), 'utf8'));
    expect(report.scenarios.map((s: { id: string; outcome: string }) => [s.id, s.outcome])).toEqual([['SCN-B-001', 'passed']]);
    for (const f of ['junit.xml', 'report.html', 'summary.md', 'badge.svg', 'server.log']) expect(existsSync(join(r.work, 'tck-reports', f)), f).toBe(true);
    expect(r.summary).toMatch(/^## agent-memory-tck: /);
  }, 120_000);

  it('a run that ends before any report still says why in the step summary', async () => {
    const r = runTheStep({ url: `http://127.0.0.1:${await freePort()}`, server: 'exit 4' });
    expect(r.status).toBe(3);
    expect(r.output).toBe('exit-code=3\n');
    expect(r.summary).toMatch(/^### agent-memory-tck: the run did not complete \(exit 3\)\n\n```\n(.*\n)*tck: --server: "exit 4" exited with code 4/);
  }, 120_000);
});
