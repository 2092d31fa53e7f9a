// `tck certify`'s work: a full run (every tier, the optional Platinum included, nothing narrowed)
// that keeps every exchange, made into a certification bundle. Platinum is optional for the grade:
// a server without it reaches Gold.
import type { Exchange } from '../profiles/bridge/index.js';
import { normalizeReport } from '../report/load.js';
import { runTck, type TckOptions } from '../run/run.js';
import { BUNDLE_FORMAT, BUNDLE_FORMAT_VERSION, registryEntry, type Bundle, type Implementation } from '../report/bundle.js';
import { suiteHash } from './hash.js';
import { advisoryHits, securityRecord } from '../report/advisories.js';

/** The options of a certification run: a target and its limits, never a selection. */
type CertifyOptions = Pick<TckOptions, 'url' | 'headers' | 'requestTimeoutMs' | 'scenarioTimeoutMs' | 'maxBodyBytes' | 'maxTimeMs' | 'reconnectWindowMs' | 'signal' | 'onStart' | 'onResult' | 'suite'> & {
  implementation: Implementation;
  /** report_url of the registry entry. */
  reportUrl?: string;
};

export async function certify(options: CertifyOptions): Promise<Bundle> {
  const { implementation, reportUrl, ...run } = options;
  const fixed: { setup?: Exchange; teardown?: Exchange } = {};
  const report = normalizeReport(
    await runTck({
      ...run,
      tier: 'platinum',
      keepExchanges: true,
      onExchange: (ex) => {
        // The run's own: the first setup (before any scenario) and the last teardown (after them all).
        if (ex.method === 'setup') fixed.setup ??= ex;
        else if (ex.method === 'teardown') fixed.teardown = ex;
      },
    }),
  );
  const entry = registryEntry(report, implementation, reportUrl);
  return {
    format: BUNDLE_FORMAT,
    formatVersion: BUNDLE_FORMAT_VERSION,
    kit: report.kit,
    suiteHash: suiteHash(),
    implementation,
    ...(fixed.setup ? { setup: fixed.setup } : {}),
    ...(fixed.teardown ? { teardown: fixed.teardown } : {}),
    report,
    ...(entry ? { certification: entry } : {}),
    advisories: { mode: 'report', failed: advisoryHits(report.scenarios).map(({ id, scenario, message }) => ({ id, scenario, message })) },
    security: securityRecord(report),
  };
}

