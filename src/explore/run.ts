// `tck explore`: fast-check's model-based testing (fc.commands + fc.asyncModelRun) of a server
// against the reference model. fast-check draws the sequences, shrinks a failing one and replays
// it by seed and path; this module bounds the run (time budget, signal), counts what ran, and
// replays the minimal sequence once more to record both sides' answers for the report.
import fc from 'fast-check';
import { BridgeClient, type Exchange } from '../profiles/bridge/index.js';
import { TargetUnreachable } from '../engine/runner.js';
import { METHODS, validate, type MethodName } from '../protocols/bridge/index.js';
import type { ExploreSection } from '../report/model.js';
import type { Answer } from './compare.js';
import { BridgeCommand, explorableMethods, sequences, type StepRecord, type Target, type World } from './commands.js';
import { EXPLORE_DEFAULTS } from './defaults.js';
import { ExploreModel, Mismatch } from './model.js';
import { curlScript, scenarioFile } from './repro.js';
import { TOLERANCES } from './tolerances.js';

export interface ExploreOptions {
  url: string;
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  /** Sequences to try (default EXPLORE_DEFAULTS.runs). */
  runs?: number;
  /** Default: a random one (printed, so the run can be replayed). */
  seed?: number;
  /** fast-check's path of a failing case, with replayPath: replays it directly. */
  path?: string;
  replayPath?: string;
  /** Longest sequence (default EXPLORE_DEFAULTS.maxSteps). */
  maxSteps?: number;
  /** Method names or tiers to draw from (default: every Bronze–Gold method but setup and teardown). */
  methods?: string[];
  /** Default 60 000: then no new sequence starts, and shrinking stops where it is. */
  timeBudgetMs?: number;
  signal?: AbortSignal;
  /** How the replay line names the target (default: --url <url>). */
  replayTarget?: string;
}

/** The run was stopped (time budget or signal): the call in flight does not count against the server. */
class Stopped extends Error {}

function bridgeTarget(client: BridgeClient, stopped: () => boolean, signal: AbortSignal | undefined): Target {
  return {
    async call(method: MethodName, params: Record<string, unknown>): Promise<Answer> {
      const { outcome } = await client.call(method, params, signal ? { signal } : {});
      if (stopped()) throw new Stopped();
      switch (outcome.kind) {
        case 'void':
          return { status: 204 };
        case 'null':
          return { status: 200, body: null };
        case 'error':
          return { status: outcome.status, body: { error: outcome.message } };
        case 'violation':
        case 'transport':
          throw new Mismatch(`${method}: ${outcome.reason}`);
        default: {
          const schema = METHODS[method].result;
          const value = outcome.value;
          if (schema !== null) {
            const items = outcome.kind === 'list' ? (value as unknown[]) : [value];
            for (const [i, item] of items.entries()) {
              const v = validate(schema, item, outcome.kind === 'list' ? `[${i}]` : '');
              if (!v.ok) throw new Mismatch(`${method}: ${v.issues.join('; ')}`);
            }
          }
          return { status: 200, body: value };
        }
      }
    },
  };
}

/** The replay path fast-check writes into a failing sequence's text: /*replayPath="…"*\/. */
const replayPathOf = (text: string) => /replayPath="([^"]*)"/.exec(text)?.[1];

export async function explore(options: ExploreOptions): Promise<ExploreSection> {
  const runs = options.runs ?? EXPLORE_DEFAULTS.runs;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const maxSteps = options.maxSteps ?? EXPLORE_DEFAULTS.maxSteps;
  const timeBudgetMs = options.timeBudgetMs ?? EXPLORE_DEFAULTS.timeBudgetMs;
  const methods = explorableMethods(options.methods);
  const started = Date.now();
  const deadline = started + timeBudgetMs;
  const stopped = () => options.signal?.aborted === true || Date.now() > deadline;

  // The exchanges of the final replay, for the curl script.
  let recording: Exchange[] | undefined;
  const client = new BridgeClient({
    url: options.url, headers: options.headers ?? {}, timeoutMs: options.requestTimeoutMs ?? 10_000,
    onExchange: (ex) => void recording?.push(ex),
  });
  try {
    const first = await client.call('setup', {});
    if (first.outcome.kind === 'transport') throw new TargetUnreachable(client.url, first.outcome.reason);
    const target = bridgeTarget(client, stopped, options.signal);
    let operations = 0;
    let runsDone = 0;
    let foundAfter: { runs: number; operations: number; ms: number } | undefined;
    let originalLength = 0;

    const fresh = async (): Promise<World> => {
      const cleared = await target.call('clear_all_data', {});
      if (cleared.status !== 204) throw new Mismatch(`clear_all_data: answered ${cleared.status}`);
      const world: World = { model: new ExploreModel(), target, steps: [], onOperation: () => void operations++, stopped };
      return world;
    };

    const cutShort = (): true => {
      if (foundAfter === undefined) throw new Stopped();
      return true;
    };
    const property = fc.asyncProperty(
      sequences(methods, { maxCommands: maxSteps, ...(options.replayPath ? { replayPath: options.replayPath } : {}) }),
      async (cmds) => {
        // Stopped before any finding: end fast-check's loop at once (a returned `true` would let it
        // generate every remaining sequence first). Stopped while shrinking a finding: each candidate
        // passes, so the smallest failing sequence so far stays the counterexample.
        if (stopped()) return cutShort();
        if (foundAfter === undefined) runsDone++;
        let world: World | undefined;
        try {
          await fc.asyncModelRun(async () => {
            world = await fresh();
            return { model: world, real: world };
          }, cmds);
        } catch (err) {
          if (err instanceof Stopped || stopped()) return cutShort(); // cut short, not a failure
          if (foundAfter === undefined) {
            foundAfter = { runs: runsDone, operations, ms: Date.now() - started };
            originalLength = world?.steps.length ?? 0;
          }
          throw err;
        }
        return true;
      },
    );
    const checked = await fc.check(property, { numRuns: runs, seed, ...(options.path ? { path: options.path } : {}) });
    // A Stopped "failure" is the loop ended early on purpose, not a finding.
    const details = checked.failed && checked.errorInstance instanceof Stopped ? { ...checked, failed: false, counterexample: null } : checked;

    const section: ExploreSection = {
      seed, runs, runsDone, operations,
      opsPerSecond: 0, maxSteps, methods, timeBudgetMs, durationMs: 0,
      stoppedBy: details.failed ? 'failure' : options.signal?.aborted ? 'interrupted' : stopped() ? 'time-budget' : 'completed',
      tolerances: Object.keys(TOLERANCES),
    };
    if (details.failed && details.counterexample !== null) {
      const cmds = details.counterexample[0];
      const text = String(cmds);
      const replayPath = replayPathOf(text);
      // Replay the minimal sequence once more, recording both sides' answers.
      recording = [];
      const world = await fresh();
      let mismatch: Mismatch | undefined;
      for (const cmd of cmds as Iterable<BridgeCommand>) {
        if (!cmd.check(world)) continue;
        try {
          await cmd.run(world);
        } catch (err) {
          mismatch = err instanceof Mismatch ? err : new Mismatch(err instanceof Error ? err.message : String(err));
          break;
        }
      }
      const original = details.errorInstance;
      const message = mismatch?.message ?? (original instanceof Error ? original.message : String(original));
      const steps = world.steps.map(stepOut);
      const flags = [`--seed ${seed}`, `--path ${JSON.stringify(details.counterexamplePath ?? '')}`, ...(replayPath ? [`--replay-path ${JSON.stringify(replayPath)}`] : []),
        `--max-steps ${maxSteps}`, ...(options.methods ? [`--methods ${options.methods.join(',')}`] : [])];
      section.failure = {
        message: mismatch === undefined ? `${message} (the minimal sequence did not fail again when replayed: the fault may depend on timing)` : message,
        ...(mismatch?.tolerance ? { tolerance: mismatch.tolerance } : {}),
        steps,
        foundAfter: foundAfter ?? { runs: runsDone, operations, ms: Date.now() - started },
        originalLength,
        shrinks: details.numShrinks,
        path: details.counterexamplePath ?? '',
        ...(replayPath ? { replayPath } : {}),
        replay: `tck explore ${options.replayTarget ?? `--url ${options.url}`} ${flags.join(' ')}`,
        curl: curlScript(recording, message, options.url, flags.join(' ')),
        scenario: scenarioFile(world.steps, message, seed),
      };
    }
    section.durationMs = Date.now() - started;
    section.opsPerSecond = section.durationMs > 0 ? Math.round((operations / section.durationMs) * 1000 * 10) / 10 : 0;
    return section;
  } finally {
    await client.close();
  }
}

function stepOut(s: StepRecord): NonNullable<ExploreSection['failure']>['steps'][number] {
  return {
    call: s.label,
    method: s.method,
    request: s.serverParams,
    ...(s.server ? { server: s.server } : {}),
    ...(s.model ? { model: s.model } : {}),
  };
}
