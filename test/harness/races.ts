// Servers that race: the reference store with an `await` between reading a piece of its state and
// writing it back, as async code over a database has (a row read, an `await`, the row written).
// Each faulty variant of the concurrency scenarios (test/suites/variants/concurrency.ts) is one
// such read-await-write; the valid ones make the same await harmless (a lock, one request at a
// time) or answer in another order.
//
// The race happens by design, not by machine speed: every racy call reads, then waits at a
// barrier until every other request the server has in progress has reached it too (or finished),
// and only then writes. So requests that are at the server together all read the same state and
// all write from it, whatever the machine; a request that is alone at the server (every call of a
// sequential scenario) passes the barrier after one turn of the event loop and behaves exactly as
// the reference does.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MemoryStore, type BridgeResponse } from '../../src/servers/bridge/index.js';
import type { Entity, Message, ReasoningStep, ReasoningTrace, Relationship, ToolCall } from '../../src/protocols/bridge/index.js';
import type { Dispatch, Wrap } from './variants.js';

/** The reference store's state, as a faulty variant reads and writes it behind the store's back. */
export interface OpenState {
  sessions: Map<string, { session_id: string; messages: { message: Message }[] }>;
  messages: Map<string, { message: Message; session: { session_id: string; messages: { message: Message }[] } }>;
  entities: Map<string, { entity: Entity }>;
  traces: Map<string, { trace: ReasoningTrace }>;
  steps: Map<string, { step: ReasoningStep & { tool_calls: ToolCall[] } }>;
  relationships: Relationship[];
}

/** The reference store whose protected state a variant may reach (`open`). */
export class OpenStore extends MemoryStore {
  get open(): OpenState {
    return this as unknown as OpenState;
  }
}

/** A clock that never gives the same millisecond twice: two calls are always ordered in time. */
export function strictClock(): () => Date {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last);
  };
}

/** A barrier's safety bound: a request is never held longer than this (the barrier then opens). */
const HOLD_BOUND_MS = 2_000;

/**
 * The meeting point of the requests a server has in progress. `track` counts them; `meet` holds a
 * request until every request in progress is held there too (or has finished), then lets them all
 * go, in arrival order or (`laterFirst`) the other way round.
 */
export class Race {
  #inflight = 0;
  #held: (() => void)[] = [];

  constructor(private readonly laterFirst = false) {}

  /** Wraps the whole dispatcher: the requests in progress are the ones it counts. */
  track(dispatch: Dispatch): Dispatch {
    return async (method, body) => {
      this.enter();
      try {
        return await dispatch(method, body);
      } finally {
        this.leave();
      }
    };
  }

  /** A request has arrived (any server: call `leave` when it is answered). */
  enter(): void {
    this.#inflight++;
  }

  leave(): void {
    this.#inflight--;
    this.#open();
  }

  /** Waits (one turn of the event loop at least) until no request in progress is still on its way here. */
  async meet(): Promise<void> {
    // A turn of the event loop: what the other connections have sent meanwhile is read and dispatched.
    await nextTurn();
    if (this.#inflight - this.#held.length <= 1) {
      // Alone (or the last to arrive): go, with everyone held.
      this.#openWith();
      return;
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.#release(resolve), HOLD_BOUND_MS);
      timer.unref();
      this.#held.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #release(resolve: () => void): void {
    this.#held = this.#held.filter((h) => h !== resolve);
    resolve();
  }

  /** When every request in progress is held, they all go. */
  #open(): void {
    if (this.#held.length > 0 && this.#inflight === this.#held.length) this.#openWith();
  }

  #openWith(): void {
    const go = this.laterFirst ? this.#held.reverse() : this.#held;
    this.#held = [];
    for (const release of go) release();
  }
}

/**
 * A read-modify-write of `method`: `read` the state (what the write will be based on), meet the
 * other requests in progress, call the reference, then `write` from what was read. Sequentially
 * `write` finds the state exactly as `read` left it, so it changes nothing the reference did.
 * A body the reference refuses (400) is answered as the reference answers it.
 */
export function readAwaitWrite<R>(
  method: string,
  read: (state: OpenState, body: any) => R,
  write: (state: OpenState, body: any, answer: any, before: R) => unknown,
  options: { laterFirst?: boolean; also?: string[] } = {},
): Wrap {
  return (next, store) => {
    const state = (store as OpenStore).open;
    const race = new Race(options.laterFirst);
    const meeting = new Set([method, ...(options.also ?? [])]);
    return race.track(async (m, body) => {
      if (!meeting.has(m)) return next(m, body);
      let before: R | undefined;
      try {
        before = m === method ? read(state, body) : undefined;
      } catch {
        before = undefined; // a body the reference will refuse
      }
      await race.meet();
      const res: BridgeResponse = await next(m, body);
      if (m !== method || res.status !== 200 || before === undefined) return res;
      const edited = write(state, body, res.body, before);
      return edited === undefined ? res : { ...res, body: edited };
    });
  };
}

/** An id the variant counts out itself (a sequence, a counter row): a valid version-4 UUID. */
export const countedId = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** An async mutex per key: what runs under one key runs one at a time, in arrival order. */
export class Locks {
  #tails = new Map<string, Promise<void>>();

  async with<T>(key: string, body: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => mine);
    this.#tails.set(key, tail);
    await before;
    try {
      return await body();
    } finally {
      done();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
