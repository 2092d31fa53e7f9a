// Issue 25, item 6: `npm run soak` passes, and a short one runs in `npm test` so that it cannot rot
// again (at one time its fuzz stage failed at once: it counted the 501 that the Bronze-Gold
// reference answers to Platinum methods as a crash, so the concurrency and abuse stages never ran).
// Over the built kit (dist/): `npm test` builds first.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const SOAK = new URL('../../bench/soak.mjs', import.meta.url).pathname;
// In the order bench/abuse.mjs runs them.
const ATTACKS = ['cypher-return-nodes', 'deep-unknown-key', 'wide-add-message', 'related-cycle'];

function soak(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SOAK, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 280_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run soak, short', () => {
  it('every stage runs and passes: fuzz of the three servers, concurrent writers, and attacks on the work of a request', async () => {
    const r = await soak(['--requests', '400', '--writes', '40', '--seconds', '270', '--abuse', ATTACKS.join(',')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { soak?: string; measure?: string; requests?: number; statuses?: Record<string, number> });
    const stage = (name: string) => lines.find((l) => l.soak === name);
    for (const name of ['fuzz bridge', 'fuzz bridge over HostedStore', 'fuzz hosted']) expect(stage(name)?.requests, name).toBe(400);
    // The Platinum methods answer 501 from the Bronze-Gold reference, and are served over HostedStore.
    expect(stage('fuzz bridge')?.statuses?.['501']).toBeGreaterThan(0);
    expect(stage('fuzz bridge over HostedStore')?.statuses?.['501']).toBeUndefined();
    expect(stage('concurrency')).toBeDefined();
    expect(lines.filter((l) => l.measure?.startsWith('work ')).map((l) => l.measure)).toEqual(ATTACKS.map((a) => `work ${a}`));
  }, 300_000);
});
