// Ctrl-C during `tck explore`: what was explored so far is still reported (the report marked
// interrupted, its explore section stopped by "interrupted"), and the exit code is 130.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../reporters/support.js';

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;

describe('tck explore interrupted', () => {
  it('SIGINT writes the report of what was explored so far and exits 130', async () => {
    const out = tempDir('tck-explore-int-');
    const child = spawn(process.execPath, [BIN, 'explore', '--runs', '1000000', '--seed', '7', '--time-budget', '120000', '--out', out, '--reporter', 'console,json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    // Interrupt once it is exploring: the "exploring …" line is out (the embedded server is up,
    // the interrupt handler follows at once), then a little longer so that sequences have run. A
    // fixed wait from spawn was too short on a loaded machine (SIGINT before the handler: no report).
    await new Promise<void>((r) => {
      const ready = () => /exploring /.test(output) && (clearInterval(poll), setTimeout(r, 1_000));
      const poll = setInterval(ready, 50);
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, output).toBe(130);
    const file = join(out, 'report.json');
    expect(existsSync(file), output).toBe(true);
    const report = JSON.parse(readFileSync(file, 'utf8'));
    expect(report.interrupted).toBe(true);
    expect(report.explore.stoppedBy).toBe('interrupted');
    expect(report.explore.runs).toBeGreaterThan(0);
  }, 60_000);
});
