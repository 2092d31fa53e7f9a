// The hosted worked example (issue 33 item 9), end to end with the built CLI, as a newcomer runs it:
// `tck serve --hosted` in one terminal; in another, the exports it printed (its bootstrap key, a
// second workspace's key, an access token past its exp, and `tck token` / `tck token --expired`
// for the identity-provider tokens) and `tck run --hosted URL`: exit 0, every group complete.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, tck, tempDir } from '../reporters/support.js';

const dir = tempDir('tck-worked-example-');
const env = { TCK_DEV_IDP_KEY_FILE: join(dir, 'dev-idp-key.json') };
const serve = spawn(process.execPath, [BIN, 'serve', '--hosted', '--port', '0'], { env: cleanEnv(env) });
afterAll(() => void serve.kill());

/** What the service printed, once it has printed the command to run. */
const printed = new Promise<string>((resolve, reject) => {
  let out = '';
  serve.stdout.on('data', (d) => {
    out += d;
    if (/npx tck run --hosted \S+\n/.test(out)) resolve(out);
  });
  serve.on('error', reject);
  serve.on('close', (code) => reject(new Error(`tck serve --hosted exited ${code}: ${out}`)));
});

describe('the hosted worked example', () => {
  it('tck serve --hosted prints what the profile needs, and tck run --hosted with it exits 0 with no group incomplete', async () => {
    const text = await printed;
    const exported = Object.fromEntries([...text.matchAll(/^ {4}export (TCK_\w+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(Object.keys(exported).sort()).toEqual(['TCK_API_KEY', 'TCK_EXPIRED_TOKEN', 'TCK_OTHER_API_KEY']);
    expect(text).toContain('export TCK_IDP_TOKEN=$(npx tck token) TCK_EXPIRED_IDP_TOKEN=$(npx tck token --expired)');
    const url = /npx tck run --hosted (\S+)\n/.exec(text)![1]!;
    // The command substitutions of the printed line.
    const [idp, expiredIdp] = await Promise.all([tck(['token'], env), tck(['token', '--expired'], env)]);
    expect([idp.code, expiredIdp.code]).toEqual([0, 0]);
    const out = join(dir, 'reports');
    const ran = await tck(['run', '--hosted', url, '--out', out], { ...env, ...exported, TCK_IDP_TOKEN: idp.stdout.trim(), TCK_EXPIRED_IDP_TOKEN: expiredIdp.stdout.trim() }, 120_000);
    const hosted = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).hosted;
    expect(hosted.scenarios.filter((s: { outcome: string }) => s.outcome !== 'passed').map((s: { id: string; message?: string }) => `${s.id}: ${s.message}`)).toEqual([]);
    expect(hosted.incomplete).toBeUndefined();
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
  }, 150_000);
});
