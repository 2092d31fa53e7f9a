// `tck run --advisories report|fail` and `"advisories"` in the config file, as a user meets them:
// the mode reaches the report (and says so), a flag wins over the file, a wrong value is one line, exit 2.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { tck, tempDir } from '../reporters/support.js';

const reportIn = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('--advisories', () => {
  it('fail: the report records the mode and the console says advisories count as failures; report (the default) says they do not', async () => {
    const [failDir, defaultDir] = [tempDir('tck-adv-fail-'), tempDir('tck-adv-default-')];
    const [fail, byDefault] = await Promise.all([
      tck(['run', '-s', 'SCN-B-129', '--advisories', 'fail', '-r', 'console,json', '-o', failDir]),
      tck(['run', '-s', 'SCN-B-129', '-r', 'json', '-o', defaultDir]),
    ]);
    expect(fail.stderr).toBe('');
    expect(reportIn(failDir).advisories?.mode).toBe('fail');
    expect(fail.stdout).toMatch(/^Advisories: \d+ of \d+ advisor(y|ies) checked did not hold; counted as failures \(--advisories fail\)$/m);
    expect(byDefault.stderr).toBe('');
    expect(reportIn(defaultDir).advisories?.mode).toBe('report');
  });

  it('"advisories" in the config file sets the mode; the flag wins over it; a wrong value in either is one line, exit 2', async () => {
    const dir = tempDir('tck-adv-config-');
    writeFileSync(join(dir, 'fail.json'), JSON.stringify({ advisories: 'fail', reporters: ['json'], out: 'out' }));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ advisories: 'strict' }));
    const [fromFile, flagWins, badFlag, badFile] = await Promise.all([
      tck(['run', '-s', 'SCN-B-001', '--config', join(dir, 'fail.json')]),
      tck(['run', '-s', 'SCN-B-001', '--config', join(dir, 'fail.json'), '--advisories', 'report', '-o', join(dir, 'flag')]),
      tck(['run', '--advisories', 'strict']),
      tck(['run', '--config', join(dir, 'bad.json')]),
    ]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(reportIn(join(dir, 'out')).advisories?.mode).toBe('fail');
    expect(flagWins.code, flagWins.stderr).toBe(0);
    expect(reportIn(join(dir, 'flag')).advisories?.mode).toBe('report');
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toBe("tck: option '--advisories <mode>' argument 'strict' is invalid. Allowed choices are report, fail (see `npx tck --help`)\n");
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toMatch(/^tck: config file .*bad\.json: field "advisories": /);
    expect(badFile.stderr.trim().split('\n')).toHaveLength(1);
  });
});
