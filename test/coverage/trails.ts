// The trails the coverage matrix is read from: every request the fixed scenarios send to the
// embedded reference servers (bridge, Platinum included, and hosted), grouped by scenario, and
// every request a seeded `tck explore` (and `tck explore --hosted`) sends to the embedded reference,
// grouped by sequence.
import type { Exchange } from '../../src/engine/evidence.js';
import { exploreHosted } from '../../src/explore/hosted.js';
import { explore } from '../../src/explore/run.js';
import type { HostedCall, HostedTrail, Trail } from '../../src/report/coverage.js';
import { runTck } from '../../src/run/run.js';
import { startReferenceServer } from '../../src/servers/bridge/index.js';
import { startHostedServer } from '../../src/servers/hosted/index.js';
import { HostedStore } from '../../src/servers/hosted/store.js';

/** The fixed seed and number of sequences of the exploration the matrix reads. */
export const EXPLORE_SAMPLE = { seed: 1, runs: 60, classesRuns: 60 } as const;

/** The fixed seed, number of sequences and operations drawn per sequence of the hosted exploration the matrix reads. */
export const HOSTED_EXPLORE_SAMPLE = { seed: 1, runs: 60, maxSteps: 40 } as const;

const parsed = (text: string | undefined): unknown => {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

const hostedCallOf = (e: Exchange & { httpMethod?: string; credential?: string }): HostedCall => ({
  operation: e.method, url: e.url, params: e.requestBody, ...(e.httpMethod !== undefined ? { httpMethod: e.httpMethod } : {}),
  ...(e.credential !== undefined ? { credential: e.credential } : {}), ...(e.status !== undefined ? { status: e.status } : {}), body: parsed(e.responseText),
});

const callOf = (e: Exchange) => ({ method: e.method, params: e.requestBody, ...(e.status !== undefined ? { status: e.status } : {}), body: parsed(e.responseText) });

/** Every fixed scenario's requests, bridge and hosted. */
export async function fixedTrails(): Promise<{ bridge: Trail[]; hosted: HostedTrail[] }> {
  const bridge = new Map<string, Trail>();
  let current = '';
  await runTck({
    tier: 'platinum',
    onStart: (s) => { current = s.id; },
    onExchange: (e) => (bridge.get(current) ?? bridge.set(current, { source: current, calls: [] }).get(current)!).calls.push(callOf(e)),
  });
  const hosted = new Map<string, HostedTrail>();
  let hostedCurrent = '';
  await runTck({
    hosted: {
      onStart: (s) => { hostedCurrent = s.id; },
      onExchange: (e) => (hosted.get(hostedCurrent) ?? hosted.set(hostedCurrent, { source: hostedCurrent, calls: [] }).get(hostedCurrent)!).calls.push(hostedCallOf(e)),
    },
  });
  return { bridge: [...bridge.values()], hosted: [...hosted.values()] };
}

/** The requests of a seeded exploration of the embedded reference, one trail per sequence (each starts with clear_all_data). */
export async function exploreTrails(sample: { seed: number; runs: number } = EXPLORE_SAMPLE, classes = false): Promise<{ trails: Trail[]; runsDone: number; findings: number }> {
  const server = await startReferenceServer({ port: 0, store: new HostedStore() });
  const trails: Trail[] = [];
  try {
    const section = await explore({
      url: server.url, seed: sample.seed, runs: sample.runs, timeBudgetMs: 600_000, classes,
      onExchange: (e) => {
        if (e.method === 'clear_all_data') trails.push({ source: `explore#${trails.length + 1}`, calls: [] });
        else trails.at(-1)?.calls.push(callOf(e));
      },
    });
    return { trails, runsDone: section.runsDone, findings: section.findings?.length ?? 0 };
  } finally {
    await server.close();
  }
}

/**
 * The requests of a seeded `tck explore --hosted` of the embedded hosted reference service, one trail
 * per run of a sequence (its cleanup deletes included: they are sent and answered too).
 */
export async function hostedExploreTrails(sample: { seed: number; runs: number; maxSteps: number } = HOSTED_EXPLORE_SAMPLE): Promise<{ trails: HostedTrail[]; sequences: number; findings: number }> {
  const server = await startHostedServer({ port: 0 });
  const trails = new Map<number, HostedTrail>();
  try {
    const result = await exploreHosted({
      baseUrl: server.baseUrl, apiKey: server.apiKey, seed: sample.seed, runs: sample.runs, maxSteps: sample.maxSteps, timeBudgetMs: 600_000,
      onExchange: (e, from) => (trails.get(from.attempt) ?? trails.set(from.attempt, { source: `explore --hosted#${from.sequence + 1}`, calls: [] }).get(from.attempt)!).calls.push(hostedCallOf(e)),
    });
    return { trails: [...trails.values()], sequences: result.sequences, findings: result.findings.length };
  } finally {
    await server.close();
  }
}
