// Issue 24, item 1: every command that talks to a server tests the same target — --url, then
// TCK_URL, then "url" in the config file — and names it; certify never certifies the embedded
// reference server unless asked (--embedded), and verify says whose server a bundle is of.
// Runs the built launcher (npm test builds first) against a faulty server in this process.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/report/model.js';
import { startVariant, tck, tempDir } from '../reporters/support.js';
import { createdToWrites } from './faulty.js';

const work = tempDir('tck-targets-');
const IMPL = ['--name', 'a', '--version', '1', '--language', 'x', '--repository', 'https://x.example/r'];
const readReport = (file: string): Report => ReportSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
const oneLine = (text: string) => expect(text.trim().split('\n')).toHaveLength(1);

let faulty: Awaited<ReturnType<typeof startVariant>>;
beforeAll(async () => {
  faulty = await startVariant(createdToWrites);
});
afterAll(async () => faulty?.close());

describe('item 1: every command tests the same target (--url, TCK_URL, the config file)', () => {
  it('certify with TCK_URL certifies that server, not the embedded one; verify names it', async () => {
    const out = join(work, 'certify-env.json');
    const r = await tck(['certify', ...IMPL, '-o', out], { TCK_URL: faulty.url });
    expect(r.stdout).toContain(`certifying ${faulty.url} (from TCK_URL)`);
    expect(r.stdout).toContain(`against ${faulty.url}`);
    // Issue 33, item 8: a run that reaches no tier certifies nothing: no bundle (verify would reject it).
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('tck: no certification bundle written: the run reaches no tier (not even Bronze): there is nothing to certify\n');
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('certify with "url" in tck.config.json: the same', async () => {
    const dir = join(work, 'cfg');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tck.config.json'), JSON.stringify({ url: faulty.url }));
    const out = join(dir, 'bundle.json');
    const r = await tck(['certify', ...IMPL, '-o', out, '--config', join(dir, 'tck.config.json')]);
    expect(r.stdout).toContain(`certifying ${faulty.url} (from "url" in `);
    expect(r.stdout).toContain(`against ${faulty.url}`);
    expect(r.code).toBe(1);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('certify with no target at all is exit 2 and runs nothing; --embedded certifies the reference, and says so', async () => {
    const none = await tck(['certify', ...IMPL, '-o', join(work, 'none.json')]);
    expect(none.code).toBe(2);
    oneLine(none.stderr);
    expect(none.stderr).toMatch(/^tck: certify needs the server to certify: --url URL \(or TCK_URL, or "url" in tck\.config\.json\)/);
    expect(existsSync(join(work, 'none.json'))).toBe(false);
    const out = join(work, 'embedded.json');
    const e = await tck(['certify', '--embedded', ...IMPL, '-o', out]);
    expect(e.code).toBe(0);
    expect(e.stdout).toMatch(/^certifying the kit's own embedded reference server \(--embedded\)/);
    const v = await tck(['verify', out]);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^verified: a 1 reaches PLATINUM — a bundle of the kit's own embedded reference server, not of an implementation's server;/);
    // The same rule in verify: a bundle whose run reaches no tier is rejected, exit 1.
    const noTier = JSON.parse(readFileSync(out, 'utf8'));
    noTier.report.achieved = null;
    delete noTier.certification;
    writeFileSync(join(work, 'none-tier.json'), JSON.stringify(noTier));
    const n = await tck(['verify', join(work, 'none-tier.json')]);
    expect(n.stdout).toMatch(/^not verified: the run reaches no tier \(not even Bronze\): there is nothing to certify/);
    expect(n.code).toBe(1);
    const both = await tck(['certify', '--embedded', ...IMPL, '-o', out], { TCK_URL: faulty.url });
    expect(both.code).toBe(2);
  }, 60_000);

  it('probe with TCK_URL probes that server and names it', async () => {
    const r = await tck(['probe', '--destructive'], { TCK_URL: faulty.url });
    expect(r.stdout).toMatch(new RegExp(`^probing ${faulty.url.replace(/[.]/g, '\\.')} \\(from TCK_URL\\)\n`));
    expect(r.stdout).toMatch(/broken +bronze +add_message +200 expected, got 201 Created/);
    expect(r.stdout).toMatch(/reachable tiers of .*: none/);
    expect(r.code).toBe(1);
    const json = JSON.parse((await tck(['probe', '--json', '--destructive'], { TCK_URL: faulty.url })).stdout);
    expect(json).toMatchObject({ url: faulty.url, from: 'TCK_URL', reachableTiers: [] });
  });

  it('repro with TCK_URL runs the scenario against that server', async () => {
    const r = await tck(['repro', 'SCN-B-056'], { TCK_URL: faulty.url });
    expect(r.stderr).toMatch(new RegExp(`^tck: SCN-B-056 error against ${faulty.url.replace(/[.]/g, '\\.')} \\(from TCK_URL\\): add_message: 200 expected, got 201`));
  });

  it('explore with TCK_URL explores that server and names it', async () => {
    const out = join(work, 'explore-env');
    const r = await tck(['explore', '--runs', '5', '--seed', '1', '--time-budget', '20000', '--out', out, '-r', 'console,json'], { TCK_URL: faulty.url });
    expect(r.stdout).toMatch(new RegExp(`^exploring ${faulty.url.replace(/[.]/g, '\\.')} \\(from TCK_URL\\)\n`));
    expect(r.code).toBe(1);
    expect(readReport(join(out, 'report.json')).target.url).toBe(faulty.url);
  }, 60_000);
});

