// The regression guard of issue 26: `node bench/run.mjs --guard` measures a full Gold
// run as a whole cold process and warm in a process that has run it before, both against one
// `tck serve`, and the warm run against the bare replay of its requests. Only the two ratios are
// judged, never a time: they hold on any machine and under any load both sides share. The bounds
// are generous: on the shared 2-core machine at load average 16 the guard measured cold / warm
// 4.2 and run / replay 1.65 (docs/performance.md); what crosses them is a clear regression, such
// as the CLI loading far more than a run needs, or work of a request's size added to every request.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const COLD_OVER_WARM_AT_MOST = 8;
const RUN_OVER_REPLAY_AT_MOST = 4;

describe('the bench guard (ratios, not times)', () => {
  it('a cold whole-process Gold run and a run against its bare replay stay within their bounds', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['bench/run.mjs', '--guard'], { cwd: ROOT, encoding: 'utf8', timeout: 280_000 });
    const guard = JSON.parse(stdout.trim().split('\n').pop()!) as { coldOverWarm: number; runOverReplay: number };
    const seen = JSON.stringify(guard);
    expect(guard.coldOverWarm, seen).toBeGreaterThan(1);
    expect(guard.coldOverWarm, seen).toBeLessThanOrEqual(COLD_OVER_WARM_AT_MOST);
    expect(guard.runOverReplay, seen).toBeGreaterThan(0);
    expect(guard.runOverReplay, seen).toBeLessThanOrEqual(RUN_OVER_REPLAY_AT_MOST);
  }, 300_000);
});
