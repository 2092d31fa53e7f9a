// `tck explore`: fast-check's model-based testing (fc.commands + fc.asyncModelRun) of a server,
// judged by the rules of rules.ts against the state the reference model expects. fast-check draws
// the sequences, shrinks a failing one and replays it by seed and path; this module checks the
// target first (reachable, a bridge server, credentials accepted, which methods it has), bounds
// the run (time budget, signal), goes on after a finding to find the next distinct one (a rule
// broken by a method: each is reported once, grouped by rule), and replays each minimal sequence
// once more to record both sides' answers for the report.
import fc from 'fast-check';
import { BridgeClient, type Exchange } from '../profiles/bridge/index.js';
import { ABSENT_METHOD, answersLikeAbsent, readAnswer } from '../profiles/bridge/classify.js';
import { credentialsLine, firstContact } from '../profiles/bridge/contact.js';
import { TargetRefused } from '../engine/runner.js';
import { TckError } from '../engine/errors.js';
import { METHODS, PLATINUM_METHODS, validate, type MethodName } from '../protocols/bridge/index.js';
import type { ExploreSection } from '../report/model.js';
import type { Answer } from './judge.js';
import { BridgeCommand, explorableMethods, sequences, type StepRecord, type Target, type World } from './commands.js';
import { EXPLORE_DEFAULTS } from './defaults.js';
import { ExploreModel } from './model.js';
import { OPEN } from './open.js';
import { curlScript, scenarioFile } from './repro.js';
import { RULES, Violation, shapeCites, callCites } from './rules.js';

export interface ExploreOptions {
  url: string;
  headers?: Record<string, string>;
  requestTimeoutMs?: number;
  /** Sequences to try (default EXPLORE_DEFAULTS.runs). */
  runs?: number;
  /** Default: a random one (printed, so the run can be replayed). */
  seed?: number;
  /** fast-check's path of a failing case, with replayPath: replays it directly (and stops at its finding). */
  path?: string;
  replayPath?: string;
  /** Longest sequence (default EXPLORE_DEFAULTS.maxSteps). */
  maxSteps?: number;
  /**
   * Method names or tiers to draw from (default: every Bronze–Gold method but setup and teardown,
   * and the Platinum methods the target answers).
   */
  methods?: string[];
  /** Default 60 000: then no new sequence starts, and shrinking stops where it is. */
  timeBudgetMs?: number;
  signal?: AbortSignal;
  /** How the replay line names the target (default: --url <url>). */
  replayTarget?: string;
  /** Stop at the first finding (a replay does). */
  firstOnly?: boolean;
  /** Also draw sequences of the coverage matrix's value classes (src/explore/classes.ts); off by default, so a seed's sequences stay as they were. */
  classes?: boolean;
  /** After each sequence and each finding: how far the run is (the command's live progress line). */
  onProgress?: (progress: ExploreProgress) => void;
  /** Every HTTP exchange, as it completes (the bench records explore's requests to replay them). */
  onExchange?: (exchange: Exchange) => void;
}

export interface ExploreProgress {
  runsDone: number;
  operations: number;
  findings: number;
  elapsedMs: number;
}

/** The run was stopped (time budget or signal): the call in flight does not count against the server. */
class Stopped extends Error {
  constructor() {
    super('stopped: the time budget is spent or the run was interrupted');
  }
}

/** A finding in the making: where it was first met. */
interface Met {
  runs: number;
  operations: number;
  ms: number;
  originalLength: number;
}

type Finding = NonNullable<ExploreSection['findings']>[number];

/** 401/403: the target wants credentials; nothing explore finds would mean anything. */
function credentialsRefused(url: string, method: string, exchange: Exchange): TckError {
  return new TargetRefused(url, credentialsLine(url, [`${method} ${exchange.status}`], Object.keys(exchange.requestHeaders), 'exploring stopped'));
}

function bridgeTarget(client: BridgeClient, stopped: () => boolean, signal: AbortSignal | undefined): Target {
  return {
    async call(method: MethodName, params: Record<string, unknown>): Promise<Answer> {
      const { outcome, exchange } = await client.call(method, params, signal ? { signal } : {});
      if (stopped()) throw new Stopped();
      if (exchange.status === 401 || exchange.status === 403) throw credentialsRefused(client.url, method, exchange);
      // The one reading the suites share (readAnswer): a 200 null is "found nothing" for every
      // method, and the oracle decides whether the call may find nothing.
      const reading = readAnswer(outcome);
      switch (reading.kind) {
        case 'null':
          return { status: 200, body: null };
        case 'refused':
          return { status: reading.status, body: { error: reading.message } };
        case 'absent':
        case 'violation':
        case 'transport':
          throw new Violation('call.answer', `${method}: ${reading.reason}`, callCites(method));
        case 'accepted': {
          if (reading.value === undefined) return { status: 204 };
          const schema = METHODS[method].result;
          const value = reading.value;
          if (schema !== null) {
            const items = outcome.kind === 'list' ? (value as unknown[]) : [value];
            for (const [i, item] of items.entries()) {
              const v = validate(schema, item, outcome.kind === 'list' ? `[${i}]` : '');
              if (!v.ok) throw new Violation('call.answer', `${method}: the answer does not match the data model: ${v.issues.join('; ')}`, shapeCites(method));
            }
          }
          return { status: 200, body: value };
        }
      }
    },
  };
}

/**
 * Before exploring: the target answers (else exit 3), is a bridge server (else one line, exit 2),
 * takes the credentials (else one line, exit 2); and which of the methods asked for it has.
 */
async function preflight(client: BridgeClient, probe: BridgeClient, wanted: readonly MethodName[]): Promise<{ have: MethodName[]; missing: MethodName[] }> {
  // Nothing answers (exit 3), credentials refused or no bridge server (exit 2): contact.ts.
  await firstContact(client, 'nothing was explored');
  // Which methods it has: each is sent {} (a call of a method it lacks answers like a method no
  // server has), several at a time so that a slow server does not spend the time budget here.
  const absent = (await probe.call(ABSENT_METHOD, {})).exchange;
  const lacks = await Promise.all(wanted.map(async (m) => {
    if (m === 'clear_all_data') return false;
    const { outcome, exchange } = await probe.call(m, {});
    return exchange.status === 405 || (outcome.kind === 'violation' && outcome.notImplemented === true && (exchange.status === 501 || answersLikeAbsent(exchange, absent, m)));
  }));
  return { have: wanted.filter((_, i) => !lacks[i]), missing: wanted.filter((_, i) => lacks[i]) };
}

/** The replay path fast-check writes into a failing sequence's text: /*replayPath="…"*\/. */
const replayPathOf = (text: string) => /replayPath="([^"]*)"/.exec(text)?.[1];

/** What a finding is keyed by: the rule and the method that broke it (each such pair is reported once). */
const keyOf = (v: Violation) => `${v.rule}|${v.method ?? ''}`;

export async function explore(options: ExploreOptions): Promise<ExploreSection> {
  const runs = options.runs ?? EXPLORE_DEFAULTS.runs;
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const maxSteps = options.maxSteps ?? EXPLORE_DEFAULTS.maxSteps;
  const timeBudgetMs = options.timeBudgetMs ?? EXPLORE_DEFAULTS.timeBudgetMs;
  const started = Date.now();
  const deadline = started + timeBudgetMs;
  const stopped = () => options.signal?.aborted === true || Date.now() > deadline;

  // The exchanges of a final replay, for the curl script.
  let recording: Exchange[] | undefined;
  const client = new BridgeClient({
    url: options.url, headers: options.headers ?? {}, timeoutMs: options.requestTimeoutMs ?? 10_000,
    onExchange: (ex) => {
      recording?.push(ex);
      options.onExchange?.(ex);
    },
  });
  const probe = new BridgeClient({ url: options.url, headers: options.headers ?? {}, timeoutMs: options.requestTimeoutMs ?? 10_000, connections: 8 });
  const firstOnly = options.firstOnly ?? options.path !== undefined;
  try {
    const asked = options.methods;
    const wanted = explorableMethods(asked, asked === undefined);
    const { have, missing } = await preflight(client, probe, wanted).finally(() => probe.close());
    const explicit = asked?.filter((m) => missing.includes(m as MethodName)) ?? [];
    if (explicit.length > 0 || (asked !== undefined && missing.length > 0 && have.length <= 1)) {
      throw new TckError(`the target does not implement ${missing.join(', ')} (404/501), which --methods ${asked!.join(',')} asks for`);
    }
    // By default the optional Platinum methods are drawn only when the target has them; a missing
    // Bronze–Gold method is not drawn either, and the report says so.
    const methods = have;
    if (methods.filter((m) => m !== 'clear_all_data').length === 0) throw new TckError(`the target implements none of the methods explore draws (${missing.join(', ')} answer 404/501)`);
    const platinum = methods.some((m) => PLATINUM_METHODS.includes(m as (typeof PLATINUM_METHODS)[number]));
    const unexpected = missing.filter((m) => asked !== undefined || METHODS[m].tier !== 'platinum');
    const target = bridgeTarget(client, stopped, options.signal);
    let operations = 0;
    let runsDone = 0;

    const fresh = async (t: Target, stop?: () => boolean): Promise<World> => {
      const cleared = await t.call('clear_all_data', {});
      if (cleared.status !== 204) throw new Violation('call.succeeds', `clear_all_data: answered ${cleared.status}`, callCites('clear_all_data'));
      return { model: new ExploreModel(platinum), target: t, steps: [], onOperation: () => void operations++, ...(stop ? { stopped: stop } : {}) };
    };

    const findings: Finding[] = [];
    const known = new Set<string>();
    let fatal: unknown;
    let round = 0;
    while (!stopped() && runsDone < runs && fatal === undefined && !(firstOnly && findings.length > 0)) {
      const roundSeed = round === 0 ? seed : (seed + round * 104_729) % 2 ** 31;
      let met: Met | undefined;
      const cutShort = (): true => {
        if (met === undefined) throw new Stopped();
        return true;
      };
      const property = fc.asyncProperty(
        sequences(methods, { maxCommands: maxSteps, ...(options.classes ? { classes: true } : {}), ...(options.replayPath && round === 0 ? { replayPath: options.replayPath } : {}) }),
        async (cmds) => {
          // Stopped before a finding: end fast-check's loop at once (a returned `true` would let it
          // generate every remaining sequence first). Stopped while shrinking a finding: each
          // candidate passes, so the smallest failing sequence so far stays the counterexample.
          if (stopped() || fatal !== undefined) return cutShort();
          if (met === undefined) runsDone++;
          options.onProgress?.({ runsDone, operations, findings: findings.length, elapsedMs: Date.now() - started });
          let world: World | undefined;
          try {
            await fc.asyncModelRun(async () => {
              world = await fresh(target, stopped);
              return { model: world, real: world };
            }, cmds);
          } catch (err) {
            if (err instanceof Stopped || stopped()) return cutShort(); // cut short, not a failure
            if (!(err instanceof Violation)) {
              fatal = err; // a refused credential, or a defect of the kit: ends the run
              return cutShort();
            }
            if (err.method === undefined) err.method = world?.steps.at(-1)?.method;
            // A rule this run has already reported for this method: nothing new in this sequence.
            if (known.has(keyOf(err))) return true;
            met ??= { runs: runsDone, operations, ms: Date.now() - started, originalLength: world?.steps.length ?? 0 };
            throw err;
          }
          return true;
        },
      );
      const checked = await fc.check(property, {
        numRuns: Math.max(1, runs - runsDone), seed: roundSeed,
        ...(options.path && round === 0 ? { path: options.path } : {}),
      });
      round++;
      if (fatal !== undefined) throw fatal;
      if (!checked.failed || !(checked.errorInstance instanceof Violation) || checked.counterexample === null) break;
      const found = await replayFinding(checked.counterexample[0] as Iterable<BridgeCommand>, checked.errorInstance);
      known.add(keyOf(found.violation));
      const minimal = [...(checked.counterexample[0] as Iterable<unknown>)];
      findings.push(finding(found, { text: String(checked.counterexample[0]), path: checked.counterexamplePath ?? '', shrinks: checked.numShrinks, commands: minimal.length }, roundSeed, met ?? { runs: runsDone, operations, ms: Date.now() - started, originalLength: 0 }));
      options.onProgress?.({ runsDone, operations, findings: findings.length, elapsedMs: Date.now() - started });
    }

    /** Runs the minimal sequence once more (no budget: it is short), recording both sides' answers and the exchanges. */
    async function replayFinding(cmds: Iterable<BridgeCommand>, original: Violation): Promise<{ violation: Violation; steps: StepRecord[]; exchanges: Exchange[]; again: boolean }> {
      recording = [];
      const quiet = bridgeTarget(client, () => false, undefined);
      let world: World | undefined;
      let violation: Violation | undefined;
      try {
        world = await fresh(quiet);
        for (const cmd of cmds) {
          if (!cmd.check(world)) continue;
          await cmd.run(world);
        }
      } catch (err) {
        if (!(err instanceof Violation)) throw err;
        violation = err;
        violation.method ??= world?.steps.at(-1)?.method;
      }
      const exchanges = recording;
      recording = undefined;
      return { violation: violation ?? original, steps: world?.steps ?? [], exchanges, again: violation !== undefined };
    }

    function finding(found: Awaited<ReturnType<typeof replayFinding>>, checked: { text: string; path: string; shrinks: number; commands: number }, roundSeed: number, first: Met): Finding {
      const v = found.violation;
      const replayPath = replayPathOf(checked.text);
      const pinned = asked !== undefined ? asked : unexpected.length > 0 ? methods : undefined;
      const flags = [`--seed ${roundSeed}`, `--path ${JSON.stringify(checked.path)}`, ...(replayPath ? [`--replay-path ${JSON.stringify(replayPath)}`] : []),
        `--max-steps ${maxSteps}`, ...(pinned ? [`--methods ${pinned.join(',')}`] : []), ...(options.classes ? ['--classes'] : [])];
      const message = found.again ? v.message : `${v.message} (the minimal sequence did not fail again when replayed: the fault may depend on timing)`;
      return {
        rule: v.rule,
        states: RULES[v.rule].states,
        cites: [...v.cites],
        ...(v.method ? { method: v.method } : {}),
        message,
        steps: found.steps.map(stepOut),
        commands: checked.commands,
        foundAfter: { runs: first.runs, operations: first.operations, ms: first.ms },
        originalLength: first.originalLength,
        shrinks: checked.shrinks,
        seed: roundSeed,
        path: checked.path,
        ...(replayPath ? { replayPath } : {}),
        replay: `npx tck explore ${options.replayTarget ?? `--url ${options.url}`} ${flags.join(' ')}`.replace(/ {2,}/g, ' '),
        curl: curlScript(found.exchanges, message, options.url, flags.join(' ')),
        scenario: scenarioFile(found.steps, message, roundSeed),
      };
    }

    const durationMs = Date.now() - started;
    // Grouped by rule (in the order of RULES), the order they were found within a rule.
    const order = Object.keys(RULES);
    findings.sort((a, b) => order.indexOf(a.rule) - order.indexOf(b.rule));
    const section: ExploreSection = {
      seed, runs, runsDone, operations,
      opsPerSecond: durationMs > 0 ? Math.round((operations / durationMs) * 1000 * 10) / 10 : 0,
      maxSteps, methods, timeBudgetMs, durationMs,
      stoppedBy: options.signal?.aborted ? 'interrupted' : stopped() ? 'time-budget' : findings.length > 0 && firstOnly ? 'failure' : 'completed',
      tolerances: Object.keys(OPEN),
      // The optional Platinum methods a server leaves out are not worth a line; the others are.
      ...(unexpected.length > 0 ? { notImplemented: unexpected } : {}),
      findings,
    };
    const first = findings[0];
    if (first !== undefined) {
      section.failure = {
        message: first.message, rule: first.rule, cites: first.cites, steps: first.steps, foundAfter: first.foundAfter, originalLength: first.originalLength,
        shrinks: first.shrinks, path: first.path, ...(first.replayPath ? { replayPath: first.replayPath } : {}), replay: first.replay, curl: first.curl, scenario: first.scenario,
      };
    }
    return section;
  } finally {
    await client.close();
  }
}

function stepOut(s: StepRecord): Finding['steps'][number] {
  return {
    call: s.label,
    method: s.method,
    request: s.serverParams,
    ...(s.server ? { server: s.server } : {}),
    ...(s.model ? { model: s.model } : {}),
  };
}
