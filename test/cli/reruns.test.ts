// Issue 33, items 3 and 5: --only-failed is never a false pass and never destroys its input. The
// hint after a failed hosted run re-runs the hosted scenarios (it names --hosted); a re-run whose
// failures the command leaves out (hosted ones without --hosted) is a usage error, exit 2, not
// "nothing to re-run", exit 0; and with the default --out the re-run's reports go apart from the
// report it reads, which is kept byte for byte (an --out given onto it is refused).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { BIN, cleanEnv, tempDir, type Ran } from '../reporters/support.js';

/** The built tck in `cwd` (the default --out is relative to it). */
function tckIn(cwd: string, args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv({ TCK_URL: '' }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('--only-failed after a hosted run', () => {
  const cwd = tempDir('tck-reruns-');
  const first = join(cwd, 'reports', 'report.json');

  it('the hint names --hosted; followed without it, exit 2 naming --hosted (never a pass)', async () => {
    // --max-time 1: nothing runs in time, every hosted scenario is "not run", the run fails.
    const r = await tckIn(cwd, ['run', '--hosted', '--max-time', '1', '-r', 'console,json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/\nre-run what failed, errored or did not run: npx tck run --only-failed reports\/report\.json --hosted\n$/);
    const without = await tckIn(cwd, ['run', '--only-failed', 'reports/report.json']);
    expect(without.stdout).not.toContain('nothing to re-run');
    expect(without.stderr).toMatch(new RegExp(String.raw`^tck: --only-failed reports\/report\.json: ${HOSTED_SCENARIOS.length} of what it re-runs are hosted scenarios \(SCN-H-001, .* and ${HOSTED_SCENARIOS.length - 5} more\); add --hosted\n$`));
    expect(without.code).toBe(2);
  }, 60_000);

  it('with the default --out the re-run writes apart and the report it read is kept; the same command works again', async () => {
    const before = readFileSync(first, 'utf8');
    for (let i = 0; i < 2; i++) {
      const r = await tckIn(cwd, ['run', '--only-failed', 'reports/report.json', '--hosted', '-r', 'console,json']);
      expect(r.stderr).toContain(`tck: the re-run's reports go to reports/rerun (reports/report.json is kept)`);
      expect(r.stdout).not.toContain('nothing to re-run');
      expect(r.code).toBe(0);
      expect(readFileSync(first, 'utf8')).toBe(before);
      expect(JSON.parse(readFileSync(join(cwd, 'reports/rerun/report.json'), 'utf8')).selection.rerun.notRun).toBe(HOSTED_SCENARIOS.length);
    }
  }, 60_000);

  it('an --out given onto the report it reads is refused before anything runs', async () => {
    const before = readFileSync(first, 'utf8');
    const r = await tckIn(cwd, ['run', '--only-failed', 'reports/report.json', '--hosted', '--out', 'reports']);
    expect(r.stderr).toBe('tck: --out reports would overwrite reports/report.json, the report --only-failed reads: choose another --out\n');
    expect(r.code).toBe(2);
    expect(readFileSync(first, 'utf8')).toBe(before);
    expect(existsSync(join(cwd, 'reports/rerun/junit.xml'))).toBe(false);
  }, 60_000);
});
