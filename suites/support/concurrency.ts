// Calls sent at once, as agent frameworks make them: several agents sharing one store, one agent's
// tools run in parallel, an API server serving many users. Every batch has MANY calls in flight,
// over one socket each (SOCKETS) or pipelined on one kept-alive connection (ONE_SOCKET).
//
// What the documents say of a batch is what they say of each call: a message that was added is
// stored, ids are unique, counts equal what was recorded, an answer is the answer to its request.
// They say nothing of the order among calls in flight at once, so every check here accepts every
// serial order of a batch (silent: the order among concurrent calls) and demands only that calls
// answered before a batch was sent come before it, and calls sent after it come after.
import { ConnectionReopened, type BridgeApi, type ScenarioContext } from '../../src/profiles/bridge/context.js';
import type { ConcurrencyShape } from '../../src/profiles/bridge/client.js';

/** How many calls a batch has in flight at once. */
export const MANY = 16;

/** One socket per call in flight: several clients at once. */
export const SOCKETS: ConcurrencyShape = { connections: MANY, pipelining: 1 };
/** Every call of the batch pipelined on one kept-alive connection (HTTP/1.1): one client, many requests in flight. */
export const ONE_SOCKET: ConcurrencyShape = { connections: 1, pipelining: MANY };

/** The two shapes in words, for titles and messages. */
export const shapeName = (shape: ConcurrencyShape): string =>
  shape.connections === 1 ? `pipelined on one kept-alive connection` : `over ${shape.connections} connections`;

/** 0 … n-1. */
export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * Sends the batch `calls(bridge)` makes at once over `shape`. The sockets are opened first (a
 * list_sessions on each, at once: a read changes nothing), so the batch's calls leave together
 * rather than one socket's connect after another.
 */
export async function batch<T>(
  ctx: Pick<ScenarioContext, 'concurrently' | 'note'>,
  shape: ConcurrencyShape,
  calls: (bridge: BridgeApi) => Promise<T>[],
  options: { evenIfReopened?: boolean } = {},
): Promise<T[]> {
  try {
    return await ctx.concurrently(shape, async (bridge) => {
      await Promise.all(range(shape.connections).map(() => bridge.list_sessions({})));
      return Promise.all(calls(bridge));
    });
  } catch (err) {
    // A check that holds whether or not a request was sent twice judges the answers all the same.
    if (!(options.evenIfReopened === true && err instanceof ConnectionReopened)) throw err;
    ctx.note(`the server closed the connection a batch was pipelined on (${err.opened} connections opened): requests behind the close were sent again`);
    return err.result as T[];
  }
}

/** Each value once: the repeated ones, with how often each came. */
export function repeats(values: readonly string[]): string[] {
  const seen = new Map<string, number>();
  for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([v, n]) => `${v} (${n} times)`);
}
