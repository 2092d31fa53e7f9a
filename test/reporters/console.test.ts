// The console reporter: live progress lines on a TTY, plain lines elsewhere (or with CI set),
// --quiet and --verbose, the evidence of each failure, the tier table, and colour only on a TTY
// without NO_COLOR.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selectScenarios, type Selection } from '../../src/engine/select.js';
import { normalizeReport } from '../../src/report/load.js';
import { ConsoleReporter, type ConsoleOptions } from '../../src/report/render/console.js';
import { runTck } from '../../src/run/run.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { withVariant } from '../harness/variants.js';
import { keepsDeleted } from './support.js';

const SELECTION: Selection = { tier: 'bronze', scenarios: ['SCN-B-070', 'SCN-B-071', 'SCN-B-073'] };
const CURSOR_UP = /\x1b\[\d+A/;
const SGR = /\x1b\[\d+(;\d+)*m/;

/** Runs SELECTION against the never-deleting server with a console reporter on a fake stream. */
async function consoleOf(options: Omit<ConsoleOptions, 'stream'>, stream: { isTTY?: boolean; columns?: number } = {}) {
  let text = '';
  const out = { ...stream, write: (s: string) => ((text += s), true) };
  const reporter = new ConsoleReporter({ ...options, stream: out });
  reporter.begin(selectScenarios(ALL_SCENARIOS, SELECTION));
  const report = await withVariant({ wrap: keepsDeleted }, (url) =>
    runTck({
      url,
      ...SELECTION,
      onStart: (s) => reporter.onStart(s),
      onResult: (r) => reporter.onResult(r),
      onExchange: (ex) => reporter.onExchange(ex),
    }),
  );
  reporter.onEnd(normalizeReport(report));
  return text;
}

const saved = { NO_COLOR: process.env.NO_COLOR, CI: process.env.CI, FORCE_COLOR: process.env.FORCE_COLOR };
beforeEach(() => {
  delete process.env.NO_COLOR;
  delete process.env.CI;
  delete process.env.FORCE_COLOR;
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('console output', () => {
  it('not a TTY: one plain line per scenario, every failure with its evidence, the table; no colour', async () => {
    const text = await consoleOf({});
    expect(text).not.toMatch(SGR);
    expect(text).not.toMatch(CURSOR_UP);
    expect(text).toMatch(/^PASS    SCN-B-070 delete_message of a stored message answers deleted: true \d+ ms\nFAIL    SCN-B-071 /);
    // The failure: id and title, clause, assertion, diff, the exchange that shows it, how to reproduce.
    const failure = text.slice(text.indexOf('\nFAIL SCN-B-071'));
    expect(failure).toContain('FAIL SCN-B-071 a deleted message is gone from the conversation and from search');
    expect(failure).toContain('  clauses: SPEC-2.5.2 (bronze, delete_message)');
    expect(failure).toMatch(/get_conversation\(session_id="delete-gone"\) after deleting the second of 2 messages: expected 1 message\(s\), got 2/);
    expect(failure).toMatch(/diff \(- expected, \+ actual\):\n(.*\n)*\s+\+\s+"content": "Delete me: a unique walrus sentence",/);
    expect(failure).toMatch(/\(last 3 of 5 exchanges; --verbose or the JSON report shows all\)/);
    expect(failure).toMatch(/POST \/get_conversation \{"session_id":"delete-gone"\}\n\s+→ 200 application\/json/);
    expect(failure).toMatch(/reproduce: npx tck repro SCN-B-071 --url http:\/\/127\.0\.0\.1:\d+\n/);
    expect(text).toMatch(/tier\s+passed failed\s+error skipped not run\s+its own scenarios\s+tier reached\nbronze\s+1\s+2\s+0\s+0\s+0\s+3 of \d+ ran\s+no: a selection reaches no tier\n/);
    expect(text).toMatch(/Selection FAILED \(1 of 3 selected passed; 3 of \d+ Bronze scenarios\), no tier awarded to a partial run, against http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it('a TTY: live progress lines per tier with counts and time, failures scroll above; colour', async () => {
    const text = await consoleOf({}, { isTTY: true, columns: 120 });
    expect(text).toMatch(CURSOR_UP);
    expect(text).toMatch(SGR);
    const plain = text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    expect(plain).toMatch(/bronze  ░{12} +0\/3  0 passed · 0 failed · 0 error {2}\n/);
    expect(plain).toMatch(/bronze  █{12} +3\/3  1 passed · 2 failed · 0 error  \d+\.\d s\n/);
    expect(plain).toMatch(/FAIL    SCN-B-071 a deleted message/);
    expect(plain).not.toMatch(/PASS    SCN-B-070/); // passes only count, they do not scroll
  });

  it('CI set: plain lines even on a TTY; NO_COLOR: no colour on a TTY', async () => {
    process.env.CI = 'true';
    const ci = await consoleOf({}, { isTTY: true });
    expect(ci).not.toMatch(CURSOR_UP);
    expect(ci).toMatch(/^(\x1b\[\d+m)*PASS/);
    delete process.env.CI;
    process.env.NO_COLOR = '1';
    const nocolor = await consoleOf({}, { isTTY: true });
    expect(nocolor).not.toMatch(SGR);
    expect(nocolor).toMatch(CURSOR_UP);
  });

  it('--quiet: only the table, the totals and the verdict', async () => {
    const text = await consoleOf({ quiet: true });
    expect(text.split('\n')[0]).toBe('');
    expect(text).not.toMatch(/SCN-B-07/);
    // SCN-B-071 and SCN-B-073 fail alike (deleted messages still listed): one cause.
    expect(text).toMatch(/^\ntier .*\nbronze .*\n\n3 scenarios: 1 passed, 2 failed \(1 cause\) in \d+\.\d s\nSelection FAILED .*\n$/);
  });

  it('--verbose: every exchange as it happens, and all exchanges of a failure', async () => {
    const text = await consoleOf({ verbose: true }, { isTTY: true });
    expect(text).not.toMatch(CURSOR_UP);
    const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
    expect(plain).toMatch(/▶ SCN-B-070 delete_message of a stored message answers deleted: true\n {4}POST \/clear_all_data \{\}\n {4}→ 204/);
    expect(plain).toMatch(/POST \/setup \{\}/);
    expect(plain).not.toMatch(/\(last \d+ of \d+ exchanges/);
  });
});
