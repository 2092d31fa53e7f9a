// Runs scenarios one at a time against one target, whatever protocol it speaks: a RunDriver says
// how to set the target up, build a scenario's context, isolate and run a scenario, and probe the
// target (src/profiles/bridge/driver.ts for a bridge server, src/profiles/hosted/run.ts for a
// hosted REST service). One scenario's crash never stops the run.
//
// Every wait is bounded: each call by the client's request timeout, each scenario (its isolation
// included) by the scenario timeout, the whole run by maxTimeMs. A scenario that ends early has
// its in-flight call cancelled, so the next one starts on a free connection. A target that stops
// answering is detected (liveness.ts) and the rest is marked not run at once. An aborted `signal`
// (SIGINT, SIGTERM) or the time limit ends the run with a partial result.
import { TckError } from './errors.js';
import { printable, type Exchange } from './evidence.js';
import { capText, capValue } from './bounds.js';
import { AssertionFailure, LATEST_CALL, ScenarioFault, ScenarioTimeout, SkipScenario, formatSeconds } from './faults.js';
import { DEFAULT_LIMITS } from '../util/limits.js';
import { Liveness, type Observed } from './liveness.js';
import type { AdvisoryMode, Ending } from './result.js';
import { AssertionLog, withAssertionLog } from './assert.js';

export interface SetupInfo {
  ok: boolean;
  protocolVersion?: string;
  warnings: string[];
  /**
   * Set when the first calls show the target cannot be tested at all (it does not speak the
   * protocol): nothing runs, every scenario is not run with this reason.
   */
  stop?: string;
}

export interface RunOptions<S, R> {
  scenarioTimeoutMs?: number;
  /** Stop after the first failing scenario (true), or after this many (--bail N, --max-failures N). */
  bail?: boolean | number;
  /**
   * Aborting it stops the run: the running scenario and the rest are reported as not run. Abort
   * with a RunStopped to say why (its message completes "not run: …"); any other reason reads
   * "interrupted".
   */
  signal?: AbortSignal;
  /** Bound on the whole run, setup to teardown; what has not finished by then is not run. */
  maxTimeMs?: number;
  /** How long a target that stopped answering gets to come back (see liveness.ts). */
  reconnectWindowMs?: number;
  onResult?: (result: R) => void;
  onStart?: (scenario: S) => void;
  /** Keep the exchanges of passed and skipped scenarios too (a certification bundle replays every scenario). */
  keepExchanges?: boolean;
  /** Keep every assertion of every scenario in its result (`checked`: the clause map, `tck explain`). */
  keepAssertions?: boolean;
  /** Advisories (the kit's own readings) noted beside the verdict (default), or failures. */
  advisories?: AdvisoryMode;
}

/** The limits among a caller's options that are set, as RunOptions (callbacks left to the caller). */
type RunLimits = Pick<RunOptions<unknown, unknown>, 'scenarioTimeoutMs' | 'maxTimeMs' | 'reconnectWindowMs' | 'signal' | 'bail' | 'advisories'>;

export function runLimits(o: RunLimits): RunLimits {
  return {
    ...(o.scenarioTimeoutMs !== undefined ? { scenarioTimeoutMs: o.scenarioTimeoutMs } : {}),
    ...(o.maxTimeMs !== undefined ? { maxTimeMs: o.maxTimeMs } : {}),
    ...(o.reconnectWindowMs !== undefined ? { reconnectWindowMs: o.reconnectWindowMs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.bail !== undefined ? { bail: o.bail } : {}),
    ...(o.advisories !== undefined ? { advisories: o.advisories } : {}),
  };
}

export interface RunSummary<R> {
  setup: SetupInfo;
  results: R[];
  /** What a reader of the report must know about the run itself (a dead target, a stop). */
  warnings: string[];
  /** Set when a signal or the time limit ended the run before its end. */
  stopped?: { reason: string; interrupted: boolean };
}

/** Why a run stops early, as the reason of RunOptions.signal; `interrupted` marks the report. */
export class RunStopped extends Error {
  constructor(
    message: string,
    readonly interrupted = true,
  ) {
    super(message);
  }
}

function stopOf(signal: AbortSignal): RunStopped {
  return signal.reason instanceof RunStopped ? signal.reason : new RunStopped('interrupted');
}

/** A transport failure's reason with what to do about it (docs/exit-codes.md). */
function withFix(reason: string): string {
  if (/^connection refused/.test(reason)) return `${reason}: nothing listens there; start the server first (tck run --server 'command' starts it for you), or check the host and port`;
  if (/^cannot resolve host/.test(reason)) return `${reason}: check the host name in the URL`;
  if (/not complete within|timeout/i.test(reason)) return `${reason}: nothing answered in time; check the URL, or give it longer with --request-timeout`;
  return reason;
}

/**
 * The very first request (setup) could not reach the target: nothing can be judged (exit 3). Its
 * subclass TargetRefused: the target answers but cannot be tested (exit 2). docs/exit-codes.md.
 */
export class TargetUnreachable extends TckError {
  constructor(
    readonly url: string,
    readonly reason: string,
    what = 'the conformance server',
    code: 'TCK_UNREACHABLE' | 'TCK_REFUSED' = 'TCK_UNREACHABLE',
    message = `cannot reach ${what} at ${url}: ${withFix(reason.replace(/ at (\S+)$/, (m, at: string) => (url.startsWith(at) ? '' : m)))}`,
  ) {
    super(printable(message), code);
  }
}

/**
 * The target answers, but nothing can be tested there: it refuses the credentials sent (or their
 * absence) on every call, or it is no server of the protocol (a web page, 404 to every method).
 * `message` is the whole line (what answered what, and how to fix it); exit 2.
 */
export class TargetRefused extends TargetUnreachable {
  constructor(url: string, message: string) {
    super(url, message, undefined, 'TCK_REFUSED', message);
  }
}

/** unreachableRun for any profile: the labels of the scenarios that could not run. */
export function unreachableRunOf<L>(labels: readonly L[], err: TargetUnreachable): RunSummary<L & Ending> {
  return {
    setup: { ok: false, warnings: [] },
    results: labels.map((l) => notRunOf(l, printable(err instanceof TargetRefused ? `not run: ${err.reason}` : `not run: target unreachable (${err.reason})`))),
    warnings: [err.message],
  };
}

/** What a scenario's context must offer the runner: its evidence, its notes, and a stop. */
export interface RunContext {
  readonly exchanges: readonly Exchange[];
  readonly notes: string[];
  /** After the scenario ended early: its body must not reach the target again. */
  stop(): void;
}

/** Where a scenario's calls go: `signal` cancels them when it ends; `observe` shows each result to the liveness tracker. */
export interface CallScope {
  signal: AbortSignal;
  observe<T extends Observed>(result: T): T;
}

/** What the runner needs of a target, whatever protocol it speaks. */
export interface RunDriver<S, C extends RunContext, L> {
  /** The fields a result of `s` starts with (id, group, clauses, title; a bridge one its tier). */
  label(s: S): L;
  /** Once, first. Throws TargetUnreachable when nothing answers at all. */
  setup(signal: AbortSignal): Promise<SetupInfo>;
  /** Once, last, unless the run stopped or the target died. */
  teardown(signal: AbortSignal): Promise<void>;
  /** A fresh context for one scenario, its calls made through `scope`. */
  context(scope: CallScope): C;
  /** One scenario's body, the target's isolation included (the bridge: clear_all_data first). */
  run(s: S, ctx: C): Promise<void>;
  /** The liveness probe (see liveness.ts): one harmless request; any HTTP answer means alive. */
  probe: Parameters<Liveness['check']>[0];
  /** How the summary of a dead target names the probe (default clear_all_data). */
  probeName?: string;
  /** The bound on one request, which bounds each probe. */
  requestTimeoutMs: number;
}

/** Runs `scenarios` one at a time through `driver` (see the head of this file). */
export async function runWith<S extends { id: string; clauses?: readonly string[] }, C extends RunContext, L>(
  driver: RunDriver<S, C, L>,
  scenarios: readonly S[],
  options: RunOptions<S, L & Ending> = {},
): Promise<RunSummary<L & Ending>> {
  const timeoutMs = options.scenarioTimeoutMs ?? DEFAULT_LIMITS.scenarioTimeoutMs;
  const run = runControl(options);
  try {
    const setup = await driver.setup(run.signal);
    if (setup.stop !== undefined) {
      const why = printable(setup.stop);
      return { setup, results: scenarios.map((s) => notRunOf(driver.label(s), `not run: ${why}`)), warnings: [why] };
    }
    const liveness = new Liveness(options.reconnectWindowMs ?? DEFAULT_LIMITS.reconnectWindowMs);
    const results: (L & Ending)[] = [];
    const warnings: string[] = [];
    let stopped: RunStopped | undefined;
    let dead = false;
    const maxFailures = options.bail === true ? 1 : typeof options.bail === 'number' ? options.bail : undefined;
    let failures = 0;
    /** The message of every scenario left, once the run has stopped going on. */
    let rest: string | undefined;
    const halt = () => {
      if (rest !== undefined || !run.signal.aborted) return;
      stopped = stopOf(run.signal);
      rest = `not run: ${stopped.message}`;
    };
    for (const scenario of scenarios) {
      halt();
      if (rest !== undefined) {
        results.push(notRunOf(driver.label(scenario), rest));
        continue;
      }
      options.onStart?.(scenario);
      const result = printableResult(await runOne(driver, scenario, timeoutMs, run.signal, liveness, options));
      results.push(result);
      options.onResult?.(result);
      halt();
      if (rest !== undefined) continue;
      if (result.outcome !== 'passed' && result.outcome !== 'skipped') failures++;
      if (maxFailures !== undefined && failures >= maxFailures) {
        rest = maxFailures === 1 ? 'not run: stopped by --bail after the first failure' : `not run: stopped by --max-failures ${maxFailures} after ${maxFailures} failures`;
      } else if (liveness.suspect && results.length < scenarios.length) {
        const verdict = await liveness.check(driver.probe, driver.requestTimeoutMs, run.signal, driver.probeName);
        if (!verdict.alive) {
          dead = true;
          rest = printable(`not run: target unreachable (${verdict.reason})`);
          const left = scenarios.length - results.length;
          warnings.push(printable(`the target stopped answering after ${scenario.id}: ${verdict.summary}; ${plural(left, 'scenario')} not run`));
        }
      }
    }
    if (stopped !== undefined) {
      const cut = results.filter((r) => r.outcome === 'not-run' && r.message?.endsWith(stopped!.message)).length;
      warnings.push(`${stopped.message}: ${plural(cut, 'scenario')} not run or not finished`);
    } else if (!dead) {
      // Bounded like every call; a target that cannot clean up is its own business.
      await driver.teardown(run.signal);
    }
    return { setup, results, warnings, ...(stopped ? { stopped: { reason: stopped.message, interrupted: stopped.interrupted } } : {}) };
  } finally {
    run.dispose();
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Messages and notes quote what the server sent; their control characters are escaped, so that
 * no reporter can pass a server's terminal escape sequences on (JSON.stringify leaves C1 as is).
 */
function printableResult<R extends Ending>(r: R): R {
  return {
    ...r,
    ...(r.message !== undefined ? { message: printable(capText(r.message)) } : {}),
    // Bounded too (bounds.ts): a result of a huge answer must not make the report unwritable.
    ...('expected' in r ? { expected: capValue(r.expected) } : {}),
    ...('actual' in r ? { actual: capValue(r.actual) } : {}),
    notes: r.notes.map((n) => printable(capText(n))),
    ...(r.advisories ? { advisories: r.advisories.map((a) => ({ ...a, message: printable(capText(a.message)), ...('expected' in a ? { expected: capValue(a.expected) } : {}), ...('actual' in a ? { actual: capValue(a.actual) } : {}) })) } : {}),
    ...(r.checked ? { checked: r.checked.map((c) => ({ ...c, what: printable(capText(c.what)) })) } : {}),
  };
}

/** One signal for the whole run: the caller's, or the time limit, whichever comes first. */
function runControl(options: Pick<RunLimits, 'signal' | 'maxTimeMs'>): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const outer = options.signal;
  const forward = () => controller.abort(stopOf(outer!));
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  const max = options.maxTimeMs;
  const timer =
    max === undefined
      ? undefined
      : setTimeout(() => controller.abort(new RunStopped(`the run reached its time limit (--max-time ${formatSeconds(max)})`, false)), max);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forward);
    },
  };
}

/** The reason given to a scenario's cancel.abort(): without one, abort() builds a DOMException (stack and all) per scenario. */
const SCENARIO_OVER = new Error('the scenario is over');

async function runOne<S extends { clauses?: readonly string[] }, C extends RunContext, L>(
  driver: RunDriver<S, C, L>,
  scenario: S,
  timeoutMs: number,
  runSignal: AbortSignal,
  liveness: Liveness,
  options: Pick<RunOptions<S, L & Ending>, 'keepExchanges' | 'keepAssertions' | 'advisories'>,
): Promise<L & Ending> {
  const started = performance.now();
  const keepExchanges = options.keepExchanges ?? false;
  // The scenario's assertions: counted, cited, and its advisories that did not hold.
  const log = new AssertionLog(scenario.clauses ?? [], options.advisories ?? 'report');
  const checked = () => ({
    assertions: log.count,
    ...(log.advised > 0 ? { advisoryChecks: log.advised } : {}),
    ...(log.advisories.length > 0 ? { advisories: log.advisories.slice() } : {}),
    ...(options.keepAssertions ? { checked: log.records.slice() } : {}),
  });
  // Every call of the scenario can be cancelled when it ends early, and is shown to the liveness
  // tracker (unless the run itself is stopping: a call cancelled for that says nothing).
  const cancel = new AbortController();
  const ctx = driver.context({
    signal: cancel.signal,
    observe: (r) => {
      if (!runSignal.aborted) liveness.observe(r);
      return r;
    },
  });
  const base = driver.label(scenario);
  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  try {
    const ended = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ScenarioTimeout(timeoutMs)), timeoutMs);
      onStop = () => reject(stopOf(runSignal));
      if (runSignal.aborted) onStop();
      else runSignal.addEventListener('abort', onStop, { once: true });
    });
    const body = withAssertionLog(log, () => driver.run(scenario, ctx));
    // After a timeout the body is abandoned; whatever it ends with later is of no interest.
    body.catch(() => {});
    await Promise.race([body, ended]);
    return { ...base, outcome: 'passed', ...checked(), durationMs: performance.now() - started, exchanges: keepExchanges ? ctx.exchanges.slice() : [], notes: ctx.notes };
  } catch (err) {
    ctx.stop();
    cancel.abort(SCENARIO_OVER);
    const durationMs = performance.now() - started;
    if (err instanceof RunStopped) {
      return { ...base, outcome: 'not-run', message: `not finished: ${err.message}`, ...checked(), durationMs, exchanges: ctx.exchanges.slice(), notes: ctx.notes };
    }
    if (err instanceof SkipScenario) {
      return { ...base, outcome: 'skipped', message: err.message, ...(err.needs !== undefined ? { needs: err.needs } : {}), ...checked(), durationMs, exchanges: keepExchanges ? ctx.exchanges.slice() : [], notes: ctx.notes };
    }
    if (err instanceof ScenarioFault) {
      return {
        ...base,
        outcome: err.outcome,
        ...('notImplemented' in err && err.notImplemented ? { notImplemented: true } : {}),
        message: err.message,
        ...(err instanceof AssertionFailure ? { expected: err.expected, actual: err.actual } : {}),
        ...(err.cites && err.cites.length > 0 ? { cites: [...err.cites] } : {}),
        ...checked(),
        ...(err.judged ? { judged: { ...err.judged, exchange: err.judged.exchange === LATEST_CALL ? ctx.exchanges.length - 1 : err.judged.exchange } } : {}),
        durationMs,
        exchanges: ctx.exchanges.slice(),
        notes: ctx.notes,
      };
    }
    // A bug in a scenario body is the kit's fault, not the target's: report it plainly.
    const message = err instanceof Error ? `internal error in scenario: ${err.message}` : String(err);
    return { ...base, outcome: 'error', message, ...checked(), durationMs, exchanges: ctx.exchanges.slice(), notes: ctx.notes };
  } finally {
    clearTimeout(timer);
    if (onStop) runSignal.removeEventListener('abort', onStop);
    ctx.stop();
    cancel.abort(SCENARIO_OVER);
  }
}

/** A result "not run" for any profile's label. */
function notRunOf<L>(label: L, message: string): L & Ending {
  return {
    ...label,
    outcome: 'not-run',
    message,
    durationMs: 0,
    exchanges: [],
    notes: [],
  };
}
