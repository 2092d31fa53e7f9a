// Fault 9: a redirect to another host. Never followed: the other host never hears from the kit,
// and no header of the kit (Authorization included) leaves for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, byId, cleanUp, filesUnder, hostile, runAgainst, hangGuard } from './servers.js';

afterEach(cleanUp);

describe('a redirect to another host', () => {
  it('is an error naming the target of the redirect; it is not followed and the rest is graded', async () => {
    const elsewhere = await hostile(() => true);
    const other = elsewhere.url.replace('127.0.0.1', 'localhost');
    const server = await hostile(({ method, res }) => {
      if (method === 'add_message') {
        res.writeHead(307, { location: `${other}/add_message` }).end();
        return true;
      }
      if (method === 'get_conversation') {
        res.writeHead(308, { location: `${other}/get_conversation`, 'content-type': 'text/html' }).end('<a href="elsewhere">moved</a>');
        return true;
      }
      return false;
    });
    const { run, report, dir } = await runAgainst(server.url, [...SAFE, '--header', 'Authorization: Bearer s3cr3t', '--grep', 'SCN-B-01\\d|SCN-B-02\\d|SCN-B-04[3-5]|SCN-S-00\\d']);
    expect(run.code).toBe(1);
    expect(byId(report, 'SCN-B-027')).toMatchObject({
      outcome: 'error',
      message: `add_message: redirect 307 Temporary Redirect to ${other}/add_message not followed: the protocol answers every call directly`,
    });
    expect(byId(report, 'SCN-B-015').outcome).toBe('passed'); // no add_message, no get_conversation
    expect(byId(report, 'SCN-S-001').outcome).toBe('passed');
    expect(elsewhere.requests).toBe(0);
    expect(run.stdout + run.stderr).not.toContain('s3cr3t');
    for (const file of filesUnder(dir)) expect(readFileSync(join(dir, file), 'utf8')).not.toContain('s3cr3t');
    expect(run.ms).toBeLessThan(hangGuard(8_000));
  });
});
