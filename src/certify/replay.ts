// The replay transport: a BridgeTransport (the seam the bridge driver calls through, beside the
// real BridgeClient) that answers each call of a scenario with the next exchange recorded for it,
// classified afresh, so the same scenarios, context and runner re-grade a bundle offline.
//
// A call that is not the one recorded next (another method or another body) is a mismatch: it is
// answered as a transport failure and noted. The bridge suites send no value they generate
// themselves (ids and contents are fixed in the scenario code); what they do generate is the kit's
// clock reading around a call (Date.now(), for "a recent timestamp" checks), so while a replay
// runs Date.now() reads the recorded clock: the start of the scenario's first exchange, then the
// end of the last exchange answered.
import { classifyResponse, type CallResult, type Exchange, type Outcome } from '../profiles/bridge/index.js';
import { expectedKind, omitNulls, type CallOptions } from '../profiles/bridge/client.js';
import type { BridgeTransport } from '../profiles/bridge/driver.js';

interface Queue {
  id: string;
  exchanges: readonly Exchange[];
  next: number;
}

export class ReplayTransport implements BridgeTransport {
  readonly timeoutMs = 10_000;
  /** What the replay found that the recording does not hold, one line each, in order. */
  readonly mismatches: string[] = [];
  #queue: Queue | undefined;
  #clock: number;
  readonly #fixed: Map<string, Exchange | undefined>;

  constructor(
    readonly url: string,
    /** The exchanges of setup and teardown, which come outside any scenario. */
    fixed: { setup?: Exchange | undefined; teardown?: Exchange | undefined },
    startedAt: string,
  ) {
    this.#fixed = new Map([
      ['setup', fixed.setup],
      ['teardown', fixed.teardown],
    ]);
    this.#clock = Date.parse(startedAt);
  }

  /** A scenario starts: its calls are answered from `exchanges`, in order. */
  begin(id: string, exchanges: readonly Exchange[]): void {
    this.#queue = { id, exchanges, next: 0 };
    const first = exchanges[0];
    if (first !== undefined) this.#clock = Date.parse(first.startedAt);
  }

  /** The scenario ended: a recorded exchange it did not ask for is a mismatch. */
  end(): void {
    const q = this.#queue;
    this.#queue = undefined;
    if (q === undefined || q.next >= q.exchanges.length) return;
    const left = q.exchanges.length - q.next;
    this.mismatches.push(`${q.id}: the bundle records ${left} exchange${left === 1 ? '' : 's'} more than the scenario makes (the next: ${q.exchanges[q.next]!.method})`);
  }

  /** The recorded clock, for Date.now() while the replay runs. */
  now(): number {
    return this.#clock;
  }

  call(method: string, params: Record<string, unknown> = {}, opts?: CallOptions): Promise<CallResult> {
    const body = JSON.stringify(omitNulls(params));
    const q = this.#queue;
    const recorded = q === undefined ? this.#fixed.get(method) : q.exchanges[q.next];
    const where = q === undefined ? method : `${q.id}, call ${q.next + 1}`;
    if (q !== undefined) q.next++;
    const problem =
      recorded === undefined
        ? `${where}: the scenario asks ${method} ${body}, the bundle records no more calls`
        : recorded.method !== method || JSON.stringify(recorded.requestBody) !== body
          ? `${where}: the scenario asks ${method} ${body}, the bundle records ${recorded.method} ${JSON.stringify(recorded.requestBody)}`
          : undefined;
    if (problem !== undefined || recorded === undefined) {
      this.mismatches.push(problem!);
      const exchange: Exchange = { method, url: `${this.url}/${method}`, requestBody: JSON.parse(body), requestHeaders: {}, durationMs: 0, startedAt: new Date(this.#clock).toISOString() };
      return Promise.resolve({ outcome: { kind: 'transport', failure: 'other', reason: `${method}: not in the recording (${problem})` }, exchange });
    }
    this.#clock = Math.max(this.#clock, Date.parse(recorded.startedAt) + Math.ceil(recorded.durationMs));
    return Promise.resolve({ outcome: outcomeOf(recorded, opts?.expect ?? expectedKind(method)), exchange: { ...recorded } });
  }
}

/** A recorded exchange classified as the client classified it when it happened. */
function outcomeOf(ex: Exchange, expect: Parameters<typeof classifyResponse>[0]): Outcome {
  if (ex.transportError !== undefined || ex.status === undefined) {
    return { kind: 'transport', failure: 'other', reason: ex.transportError ?? `${ex.method}: the connection ended without a response` };
  }
  const text = ex.responseText ?? '';
  return classifyResponse(expect, { status: ex.status, text, bytes: ex.responseBytes ?? Buffer.byteLength(text) });
}

/** Runs `fn` with Date.now() reading the replay's clock; the real clock is back after it. */
export async function withReplayClock<T>(replay: ReplayTransport, fn: () => Promise<T>): Promise<T> {
  const real = Date.now;
  Date.now = () => replay.now();
  try {
    return await fn();
  } finally {
    Date.now = real;
  }
}
