// Faulty and valid variants of the reference server, for proving each scenario's power.
// A variant wraps the reference dispatcher (and may use its own store), so it differs from the
// reference in exactly one rule.
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { type AdvisoryMode, type ScenarioResult } from '../../src/engine/result.js';
import { grade } from '../../src/engine/grading.js';
import { MemoryStore, createDispatcher, startBridgeServer, type BridgeResponse } from '../../src/servers/bridge/index.js';
import { ALL_SCENARIOS, findScenario } from '../../suites/index.js';
import { startHttpVariant, type HttpQuirks } from './http-variant.js';

export type Dispatch = (method: string, body: unknown) => BridgeResponse | Promise<BridgeResponse>;
/** Wraps the reference dispatcher: receives the next dispatcher and the store behind it. */
export type Wrap = (next: Dispatch, store: MemoryStore) => Dispatch;

export interface VariantOptions {
  wrap?: Wrap;
  store?: MemoryStore;
  /** HTTP-level choices: the dispatcher is then served by the front of http-variant.ts. */
  http?: HttpQuirks;
}

/** Starts a variant server, runs `fn` with its URL, and always stops it. */
export async function withVariant<T>(options: VariantOptions, fn: (url: string) => Promise<T>): Promise<T> {
  const store = options.store ?? new MemoryStore();
  const base: Dispatch = createDispatcher(store);
  const dispatch = options.wrap ? options.wrap(base, store) : base;
  const server = options.http ? await startHttpVariant(dispatch, options.http) : await startBridgeServer(dispatch, { port: 0 });
  try {
    return await fn(server.url);
  } finally {
    await server.close();
  }
}

/** How a run treats the kit's own readings: noted (the default) or failures (--advisories=fail). */
interface VariantRun {
  advisories?: AdvisoryMode;
}

/** Runs the named scenarios (all when omitted) against a variant. */
export async function runOnVariant(options: VariantOptions, ids?: string[], run: VariantRun = {}): Promise<ScenarioResult[]> {
  // By default the Bronze–Gold suites (the default run); Platinum is opt-in, as in a run.
  const scenarios = ids ? ids.map((id) => mustFind(id)) : ALL_SCENARIOS.filter((s) => s.tier !== 'platinum');
  return withVariant(options, async (url) => {
    const client = new BridgeClient({ url, timeoutMs: 5_000 });
    try {
      const { results } = await runScenarios(client, scenarios, { scenarioTimeoutMs: 10_000, ...(run.advisories ? { advisories: run.advisories } : {}) });
      return results;
    } finally {
      await client.close();
    }
  });
}

export async function gradeVariant(options: VariantOptions, run: VariantRun = {}) {
  const results = await runOnVariant(options, undefined, run);
  return { results, grade: grade(results) };
}

function mustFind(id: string) {
  const s = findScenario(id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
}

/** Helpers to edit answers in a wrap. */
export function mapResponse(
  method: string,
  edit: (body: any, request: any) => unknown,
): Wrap {
  return (next) => async (m, body) => {
    const res = await next(m, body);
    if (m !== method || res.status !== 200) return res;
    return { ...res, body: edit(structuredClone(res.body), body) };
  };
}

/** Edits (a copy of) every 200 answer that has a body, of every method. */
export function mapAnswers(edit: (body: any, method: string) => unknown): Wrap {
  return (next) => async (m, body) => {
    const res = await next(m, body);
    return res.status === 200 && res.body !== undefined ? { ...res, body: edit(structuredClone(res.body), m) } : res;
  };
}

/** Edit the request before the reference sees it (e.g. drop a parameter the variant ignores). */
export function mapRequest(method: string, edit: (body: any) => unknown): Wrap {
  return (next) => (m, body) => (m === method ? next(m, edit(structuredClone(body))) : next(m, body));
}

/** Compose wraps left to right (the first is outermost). */
export function compose(...wraps: Wrap[]): Wrap {
  return (next, store) => wraps.reduceRight<Dispatch>((acc, w) => w(acc, store), next);
}
