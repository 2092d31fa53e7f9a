// Nothing a server sends can make the kit write outside its output directory or run anything:
// a server that answers path traversals, shell metacharacters, terminal escapes and markup in
// every string of every answer, in its error messages, its headers and its protocol_version.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SAFE, cleanUp, filesUnder, hostile, noStackTrace, outDir, readReport, tck } from './servers.js';

afterEach(cleanUp);

describe('hostile content in every field', () => {
  it('full run with every reporter: files only under --out, nothing executed, no raw escape reaches the terminal', async () => {
    const sandbox = outDir('tck-hostile-sandbox-');
    const cwd = join(sandbox, 'cwd');
    mkdirSync(cwd);
    const out = join(sandbox, 'cwd', 'out');
    const pwned = (n: number) => join(sandbox, `pwned-${n}`);
    const EVIL = [
      '../../../../../../../../tmp/tck-escaped.json',
      `../${'../'.repeat(8)}${sandbox.slice(1)}/escaped-${'x'}.html`,
      `$(touch ${pwned(1)})`,
      `\`touch ${pwned(2)}\``,
      `'; touch ${pwned(3)}; echo '`,
      `"; touch ${pwned(4)}; echo "`,
      `| touch ${pwned(5)}`,
      `\n touch ${pwned(6)}\n`,
      '..\\..\\..\\windows\\system32',
      '/etc/passwd\u0000.json',
      '\u001b]0;owned\u0007\u001b[2J\u001b[31mred',
      '\u009b2J\u009d0;owned\u009c',
      '<script>alert(1)</script>]]><!--',
      '%2e%2e%2f%2e%2e%2fescaped',
      '${HOME}',
    ];
    let k = 0;
    const evil = () => EVIL[k++ % EVIL.length]!;
    const poison = (v: unknown): unknown => {
      if (typeof v === 'string') return `${v}${evil()}`;
      if (Array.isArray(v)) return v.map(poison);
      if (v !== null && typeof v === 'object') return Object.fromEntries([...Object.entries(v).map(([key, x]) => [key, poison(x)]), [evil(), evil()]]);
      return v;
    };
    const server = await hostile(({ method, res, reference }) => {
      void reference().then((r) => {
        if (res.destroyed) return;
        const headers = { 'content-type': `application/json; x=${evil().replace(/[^\x20-\x7e]/g, '')}`, 'x-file': encodeURIComponent(evil()) };
        if (method === 'search_messages') {
          // Not JSON at all: raw terminal escapes and a shell line in the body itself.
          res.writeHead(200, headers).end(`\u001b]0;owned\u0007\u001b[2J\r$(touch ${pwned(7)})\u0000`);
          return;
        }
        if (method === 'setup') {
          res.writeHead(200, headers).end(JSON.stringify({ ok: true, protocol_version: evil() }));
          return;
        }
        if (r.status === 204 || r.body === undefined) {
          const refuse = method !== 'clear_all_data' && k % 3 === 0;
          res.writeHead(refuse ? 400 : 204, headers).end(refuse ? JSON.stringify({ error: evil() }) : undefined);
          return;
        }
        res.writeHead(r.status, headers).end(JSON.stringify(poison(r.body)));
      });
      return true;
    });
    const run = await tck(['run', '--url', server.url, '--out', 'out', ...SAFE, '--reporter', 'console,json,junit,html,md,badge', '--verbose'], { cwd });
    noStackTrace(run);
    expect(run.code).toBe(1);
    const report = readReport(out);
    expect(report.scenarios.length).toBeGreaterThan(150);
    // The hostile text did reach the report (so the test means something) …
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toContain('touch');
    // … but every file the kit wrote is under --out, and nothing ran.
    const written = filesUnder(sandbox);
    expect(written.filter((f) => !f.startsWith('cwd/out/'))).toEqual([]);
    expect(written.length).toBeGreaterThanOrEqual(5); // one file per file reporter
    for (let n = 1; n <= 7; n++) expect(existsSync(pwned(n))).toBe(false);
    expect(existsSync('/tmp/tck-escaped.json')).toBe(false);
    // The server's escape sequences never reach the terminal raw (NO_COLOR: the kit prints none).
    expect(run.stdout + run.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.ms).toBeLessThan(20_000);
  });
});
