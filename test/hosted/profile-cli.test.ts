// `tck run --hosted` as a user meets it (the built launcher): the embedded run, the flags and their
// mistakes as one-line usage errors, an unreachable service, and `tck list`/`explain`/`repro`.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { tck, tempDir } from '../reporters/support.js';

/** A port nothing listens on (one just given back by the system). */
const unusedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

describe('tck run --hosted', () => {
  it('against the embedded hosted reference service: every group passes, exit 0', async () => {
    const r = await tck(['run', '--hosted', '-r', 'console,json', '-o', tempDir('tck-hosted-cli-')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^PASS {4}SCN-H-001 /m);
    expect(r.stdout).toMatch(/Hosted profile: PASSED \(resources passed, credentials passed, discovery passed\) against http:\/\/127\.0\.0\.1:\d+\/v1 \(embedded hosted reference service\)/);
    expect(r.stdout).not.toContain('Achieved tier');
  });

  it('mistakes are one-line usage errors (exit 2); a service that does not answer is exit 3', async () => {
    const port = await unusedPort();
    const [noHosted, noCredential, embeddedToken, badKey, hostedId, unreachable] = await Promise.all([
      tck(['run', '--api-key', 'nams_abcdefghijklmnopqrstu']),
      tck(['run', '--hosted', `http://127.0.0.1:${port}`]),
      tck(['run', '--hosted', '--token', 'abc.def.ghi']),
      tck(['run', '--hosted', '--api-key', 'secret']),
      tck(['run', '--scenario', 'SCN-H-001']),
      tck(['run', '--hosted', `http://127.0.0.1:${port}/v1`, '-r', 'console', '-q'], { TCK_API_KEY: 'nams_abcdefghijklmnopqrstu' }),
    ]);
    expect([noHosted.code, noHosted.stderr]).toEqual([2, 'tck: --api-key needs --hosted\n']);
    expect([noCredential.code, noCredential.stderr]).toEqual([2, 'tck: --hosted URL needs a credential: --api-key KEY or --token TOKEN (or TCK_API_KEY, TCK_TOKEN)\n']);
    expect([embeddedToken.code, embeddedToken.stderr]).toEqual([2, 'tck: --token needs --hosted URL: the embedded hosted service issues its own credentials and tokens\n']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).not.toContain('secret');
    expect([hostedId.code, hostedId.stderr]).toEqual([2, 'tck: SCN-H-001: scenarios of the hosted profile; add --hosted [URL]\n']);
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toBe(`tck: cannot reach the hosted service at http://127.0.0.1:${port}/v1: connection refused: nothing listens there; start the server first (tck run --server 'command' starts it for you), or check the host and port\n`);
    expect(unreachable.stderr + unreachable.stdout).not.toContain('nams_abcdefghijklmnopqrstu');
  });
});

describe('tck list, explain and repro know the hosted scenarios', () => {
  it('list --tier hosted, list --json, explain, and repro without a report', async () => {
    const [list, json, explain, repro] = await Promise.all([
      tck(['list', '--tier', 'hosted']),
      tck(['list', '--json']),
      tck(['explain', 'scn-h-023']),
      tck(['repro', 'SCN-H-023']),
    ]);
    expect(list.stdout).toContain(`${HOSTED_SCENARIOS.length} scenarios\n`);
    expect(list.stdout).toMatch(/^SCN-H-023  hosted  HOSTED-AUTH-3,HOSTED-KEYSTATE-3  Revoking a key takes effect on the very next request$/m);
    const rows = JSON.parse(json.stdout) as { id: string; tier: string }[];
    expect(rows.filter((r) => r.tier === 'hosted').map((r) => r.id)).toEqual(HOSTED_SCENARIOS.map((s) => s.id));
    expect(rows.filter((r) => r.tier !== 'hosted').length).toBeGreaterThanOrEqual(178);
    expect(explain.stdout).toContain('tier:     hosted (the hosted profile, graded per group)\ngroup:    credentials\nclauses:  HOSTED-AUTH-3, HOSTED-KEYSTATE-3\n');
    expect(repro.code).toBe(2);
    expect(repro.stderr).toContain('SCN-H-023 is a hosted scenario: run it with `npx tck run --hosted [URL] --scenario SCN-H-023`');
  });
});
