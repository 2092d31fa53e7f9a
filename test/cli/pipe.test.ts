// Issue 14, item 4: a reader that goes away (`tck run … | head -3`) must change neither the exit
// code nor the report files.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, keepsDeleted, startVariant, tempDir } from '../reporters/support.js';

let faulty: Awaited<ReturnType<typeof startVariant>>;
beforeAll(async () => {
  faulty = await startVariant(keepsDeleted);
});
afterAll(async () => faulty?.close());

it('a failing run whose stdout closes after the first line still exits 1 and writes its reports', async () => {
  const out = join(tempDir('tck-pipe-'), 'reports');
  const child = spawn(process.execPath, [BIN, 'run', '--url', faulty.url, '--tier', 'bronze', '--grep', 'delete_message', '--out', out, '-r', 'console,json,junit'], {
    env: cleanEnv(),
  });
  // Like `| head -1`: read one chunk, then close the pipe.
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(1);
  expect(existsSync(join(out, 'report.json'))).toBe(true);
  expect(existsSync(join(out, 'junit.xml'))).toBe(true);
}, 60_000);
