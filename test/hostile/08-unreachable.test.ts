// Fault 8: nothing listens from the start, a host name that does not resolve, a URL that is not
// http(s). One line on stderr, exit 3 (2 for the URL, a usage error), no stack trace, and for an
// unreachable target a report that says so scenario by scenario.
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { deadPort } from '../bridge/servers.js';
import { cleanUp, count, noStackTrace, outDir, readReport, tck, hangGuard } from './servers.js';

// The tests of this file run concurrently (none of them races a short timeout): clean up at the end.
afterAll(cleanUp);

describe.concurrent('a target that is not there', () => {
  it('nothing listening: one line, exit 3, a report with every scenario not run', async () => {
    const url = `http://127.0.0.1:${await deadPort()}`;
    const dir = outDir();
    const run = await tck(['run', '--url', url, '--out', dir]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`tck: cannot reach the conformance server at ${url}: connection refused: nothing listens there; start the server first (tck run --server 'command' starts it for you), or check the host and port\n`);
    noStackTrace(run);
    const report = readReport(dir);
    expect(count(report, 'not-run')).toBe(report.scenarios.length);
    expect(report.scenarios[0]!.message).toBe(`not run: target unreachable (connection refused at ${url})`);
    expect(report.warnings).toEqual([`cannot reach the conformance server at ${url}: connection refused: nothing listens there; start the server first (tck run --server 'command' starts it for you), or check the host and port`]);
    expect(report.achieved).toBeNull();
    expect(run.ms).toBeLessThan(hangGuard(5_000));
  });

  it('a host name that does not resolve: one line, exit 3', async () => {
    const dir = outDir();
    const run = await tck(['run', '--url', 'http://tck-no-such-host.invalid:3001', '--out', dir, '--request-timeout', '3000']);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^tck: cannot reach the conformance server at http:\/\/tck-no-such-host\.invalid:3001: (cannot resolve host tck-no-such-host\.invalid \(\w+\): check the host name in the URL|setup: no response within 3 s.*)\n$/);
    noStackTrace(run);
    expect(count(readReport(dir), 'not-run')).toBeGreaterThan(150);
    expect(run.ms).toBeLessThan(hangGuard(3_000 + 4_000));
  });

  it('a URL that is not http(s): a usage error, exit 2, nothing written', async () => {
    for (const url of ['file:///etc/passwd', '127.0.0.1:3001']) {
      const dir = outDir();
      const run = await tck(['run', '--url', url, '--out', dir]);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')).toHaveLength(2); // one line and its newline
      expect(run.stderr).toMatch(/^tck: invalid target URL/);
      noStackTrace(run);
      expect(readdirSync(dir)).toEqual([]);
      expect(run.ms).toBeLessThan(hangGuard(5_000));
    }
  });
});
