// Dead-server detection: is the target still there, or are the remaining scenarios pointless?
//
// The runner shows every call's result to `observe`. A call that got no HTTP status at all
// (connection refused or reset before any answer, no response within the timeout, a host that no
// longer resolves) is a *connectivity failure*; any call that received a status line, whatever
// it was, proves the server answers and resets the count. After FAILURES_BEFORE_PROBE
// consecutive connectivity failures the runner asks `check` before the next scenario.
//
// The probe is `POST /clear_all_data {}`: the very call the runner makes before every scenario,
// so it changes nothing a run would not (the target is a test instance; the run empties it
// anyway). Any HTTP answer counts as alive — a 404, a 500 or HTML from a proxy included; only the
// absence of a status line counts as dead. A target that does not answer is probed again every
// PROBE_INTERVAL_MS until the reconnect window (`--reconnect-window`, default 10 s) has passed,
// so a server that restarts within it is found again and the run goes on. Each attempt is
// bounded by the request timeout and by what is left of the window; the whole check by the
// window (and by the run's own signal: --max-time, SIGINT, SIGTERM).
import { formatSeconds } from './faults.js';
import { DEFAULT_LIMITS } from '../util/limits.js';

/** Consecutive connectivity failures after which the target is probed. */
const FAILURES_BEFORE_PROBE = 3;
/** Pause between two probes of a target that did not answer. */
const PROBE_INTERVAL_MS = 250;
/** How long a target that stopped answering gets to come back (`--reconnect-window`). */
const DEFAULT_RECONNECT_WINDOW_MS = DEFAULT_LIMITS.reconnectWindowMs;
/** The method the probe calls. */
const PROBE_METHOD = 'clear_all_data';

/** What the tracker needs of a call's result (a bridge CallResult, or a hosted REST one). */
export interface Observed {
  outcome: { kind: string; reason?: string; failure?: string };
  exchange: { status?: number | undefined };
}

/**
 * Whether a call reached a server: it got a status, or its failure came after one. Response
 * headers too large (a transport failure `too-large` without a status) end a response whose
 * status line has arrived: the server answered, too much.
 */
export function answered(result: Observed): boolean {
  return result.exchange.status !== undefined || result.outcome.kind !== 'transport' || result.outcome.failure === 'too-large';
}

/** One probe request: bounded by `timeoutMs`, cancelled by `signal`. */
type Call = (method: string, params: Record<string, unknown>, opts: { signal?: AbortSignal; timeoutMs?: number }) => Promise<Observed>;

/** Dead: `reason` is the last probe's failure; `summary` says how the verdict was reached. */
type Verdict = { alive: true } | { alive: false; reason: string; summary: string };

export class Liveness {
  #consecutive = 0;

  constructor(
    private readonly windowMs: number = DEFAULT_RECONNECT_WINDOW_MS,
    private readonly threshold: number = FAILURES_BEFORE_PROBE,
  ) {}

  /** Counts a call: no status at all is a connectivity failure, anything else an answer. */
  observe(result: Observed): void {
    if (answered(result)) this.#consecutive = 0;
    else this.#consecutive++;
  }

  /** Consecutive connectivity failures so far. */
  get failures(): number {
    return this.#consecutive;
  }

  /** Enough consecutive failures to ask whether the target is still there. */
  get suspect(): boolean {
    return this.#consecutive >= this.threshold;
  }

  /**
   * Probes the target until it answers or the reconnect window has passed. An aborted `signal`
   * ends the check early; the verdict is then "alive" (the caller stops for its own reason).
   * `probeName` names the probe in the summary (a target without clear_all_data probes otherwise).
   */
  async check(call: Call, requestTimeoutMs: number, signal: AbortSignal, probeName: string = PROBE_METHOD): Promise<Verdict> {
    const failures = this.#consecutive;
    const deadline = performance.now() + this.windowMs;
    let reason: string | undefined;
    for (;;) {
      const timeoutMs = Math.max(1, Math.min(requestTimeoutMs, Math.round(deadline - performance.now())));
      const result = await call(PROBE_METHOD, {}, { timeoutMs, signal });
      const { outcome } = result;
      if (signal.aborted) return { alive: true };
      if (answered(result)) {
        this.#consecutive = 0;
        return { alive: true };
      }
      // The reason shown is that of a whole attempt, not of one cut short by the window's end.
      if (outcome.kind === 'transport' && (timeoutMs === requestTimeoutMs || reason === undefined)) reason = outcome.reason ?? 'no answer';
      const rest = deadline - performance.now();
      if (rest <= 0) break;
      await sleep(Math.min(PROBE_INTERVAL_MS, rest), signal);
      if (signal.aborted) return { alive: true };
    }
    reason ??= 'no answer';
    return {
      alive: false,
      reason,
      summary:
        `${failures} consecutive calls got no answer, and neither did ${probeName} probes ` +
        `for ${formatSeconds(this.windowMs)} (last: ${reason})`,
    };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
