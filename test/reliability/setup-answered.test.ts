// Issue 17, item 6: exit 3 means nothing answered. A `setup` that gets an HTTP status with a bad
// body (not JSON, too large, cut short) or a redirect proves a server answers: the run goes on,
// the report says what setup got (the evidence), and the exit code is 1, not 3.
import { afterAll, describe, expect, it } from 'vitest';
import { SAFE, cleanUp, hostile, runAgainst, type Fault } from '../hostile/servers.js';

afterAll(cleanUp);

const onSetup = (answer: (res: Parameters<Fault>[0]['res']) => void): Fault => ({ method, res }) => {
  if (method !== 'setup') return false;
  answer(res);
  return true;
};

describe.concurrent('setup answered, badly', () => {
  it.each([
    ['a redirect', onSetup((res) => res.writeHead(302, { location: 'http://127.0.0.1:1/setup' }).end()), /setup: .*redirect 302 Found to http:\/\/127\.0\.0\.1:1\/setup/],
    ['a body that is not JSON', onSetup((res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>')), /setup: .*body is not JSON: <html>hi<\/html>/],
    ['a body over --max-body', onSetup((res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"ok":true,"pad":"${'x'.repeat(4096)}"}`)), /setup: .*response body too large/],
    ['a body cut short', onSetup((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"ok":');
      setTimeout(() => res.destroy(), 50);
    }), /setup: .*(cut short|reset)/],
  ])('%s: exit 1 with the evidence in the report, not exit 3', async (_what, fault, evidence) => {
    const server = await hostile(fault);
    const { run, report } = await runAgainst(server.url, [...SAFE, '--max-body', '2048', '--scenario', 'SCN-B-027']);
    expect(run.stderr).not.toMatch(/cannot reach/);
    expect(run.code).toBe(1);
    expect(report.warnings.join('\n')).toMatch(evidence);
    expect(report.scenarios.find((s) => s.id === 'SCN-B-027')?.outcome).toBe('passed');
  });
});
