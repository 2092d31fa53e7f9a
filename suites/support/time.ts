// Time as the scenarios judge it: a server timestamp near the kit's clock, and two timestamps
// compared as instants (any zone designator, any precision).
import { check, instant, show } from '../../src/engine/assert.js';
import type { ScenarioContext } from '../../src/profiles/bridge/context.js';
import { citing, type Cites } from './cite.js';

/** How far a "recent" server timestamp may be from the kit's clock (both ways): 5 minutes. */
const CLOCK_WINDOW_MS = 5 * 60_000;

/** Waits `ms` milliseconds (a forced gap, or a retry's spacing). */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `ts` lies within ±CLOCK_WINDOW_MS of the kit-clock interval [before, after] around the call. */
export function checkRecent(ts: string, before: number, after: number, what: string, cites?: Cites): void {
  const t = instant(ts);
  const lo = new Date(before - CLOCK_WINDOW_MS).toISOString();
  const hi = new Date(after + CLOCK_WINDOW_MS).toISOString();
  citing(cites).ok(
    Number.isFinite(t) && t >= before - CLOCK_WINDOW_MS && t <= after + CLOCK_WINDOW_MS,
    `${what}: expected a time within 5 minutes of the kit's clock (${lo} … ${hi}), got ${ts}`,
    { expected: `${lo} … ${hi}`, actual: ts },
  );
}

const ISO_PARTS = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 timestamp as a sortable instant: whole seconds since the epoch and the fraction of
 * a second as a digit string, so that any zone designator and any precision compare exactly
 * (the engine's instant() stops at milliseconds).
 */
function instantOf(ts: string): { seconds: number; fraction: string } {
  const m = ISO_PARTS.exec(ts);
  if (!m) return check.by('BRIDGE-GENERAL-2').fail(`${show(ts)} is not an ISO 8601 date-time with a zone designator`, { expected: 'ISO 8601', actual: ts });
  const [, date, hhmm, ss, frac, zone] = m;
  const ms = Date.parse(`${date}T${hhmm}:${ss ?? '00'}${zone === 'z' ? 'Z' : zone}`);
  return { seconds: ms / 1000, fraction: (frac ?? '').replace(/0+$/, '') };
}

/** Negative, zero or positive as `a` is before, at or after `b` (as instants, not strings). */
export function compareInstants(a: string, b: string): number {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x.seconds !== y.seconds) return x.seconds - y.seconds;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  return fx < fy ? -1 : fx > fy ? 1 : 0;
}

/** Whole seconds since the epoch and the fraction digits as written (their number is the precision). */
function parts(ts: string): { seconds: bigint; fraction: string } {
  const m = ISO_PARTS.exec(ts);
  if (!m) return check.by('BRIDGE-GENERAL-2').fail(`${show(ts)} is not an ISO 8601 date-time with a zone designator`, { expected: 'ISO 8601', actual: ts });
  const [, date, hhmm, ss, frac, zone] = m;
  return { seconds: BigInt(Date.parse(`${date}T${hhmm}:${ss ?? '00'}${zone === 'z' ? 'Z' : zone}`) / 1000), fraction: frac ?? '' };
}

/**
 * Two instants at the precision of the coarser timestamp, in its units: "12:00:01.234Z" against
 * "12:00:01Z" compares 12:00:01 with 12:00:01.
 */
function atCoarser(a: string, b: string): [bigint, bigint] {
  const x = parts(a);
  const y = parts(b);
  const digits = Math.min(x.fraction.length, y.fraction.length);
  const scaled = (t: { seconds: bigint; fraction: string }) => t.seconds * 10n ** BigInt(digits) + BigInt(t.fraction.slice(0, digits) || '0');
  return [scaled(x), scaled(y)];
}

/**
 * Whether two timestamps of one event (a creation time answered twice) name the same instant. silent
 * (timestamp-format): the zone form and the precision may differ between answers, so they are
 * compared at the precision of the coarser, one unit of it apart at most (rounding either way).
 */
export function sameInstant(a: string, b: string): boolean {
  const [x, y] = atCoarser(a, b);
  return x - y <= 1n && y - x <= 1n;
}

/** Whether `a` is not before `b`, at the precision of the coarser (one unit of slack for rounding). */
export function notBefore(a: string, b: string): boolean {
  const [x, y] = atCoarser(a, b);
  return x - y >= -1n;
}

/** How long serverTimePast waits at most for the server's clock to move (whole-second servers need two seconds and more). */
const MAX_CLOCK_WAIT_MS = 5_000;

/** Milliseconds of one unit of the precision a timestamp is written in: 1000 for whole seconds, 1 for milliseconds or finer. */
function unitMs(ts: string): number {
  const digits = ISO_PARTS.exec(ts)?.[4]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}

/**
 * Makes the server's clock pass `since` (a timestamp it answered) by at least two units of the
 * precision it answers with: the comparisons of time allow one unit of slack for rounding, so a
 * server that rewrites a time with a later one is seen only two units on. A fixed sleep hopes the
 * machine is slow enough; this measures the server: it waits one unit on the kit's clock, then asks
 * the server the time (`now`: a call that answers a fresh timestamp, such as start_trace's
 * started_at or add_message's timestamp), until what it answers is far enough past `since`, at most
 * MAX_CLOCK_WAIT_MS. Resolves to whether it got there (a server whose clock did not move: the
 * comparison that follows cannot tell a rewritten time, and the caller notes it).
 */
export async function serverTimePast(since: string, now: () => Promise<string>): Promise<boolean> {
  const wait = Math.max(1, unitMs(since));
  const deadline = Date.now() + Math.max(MAX_CLOCK_WAIT_MS, 4 * wait);
  while (Date.now() < deadline) {
    await pause(wait);
    const [t, s] = atCoarser(await now(), since);
    if (t - s >= 2n) return true;
  }
  return false;
}

/**
 * A probe of the server's clock for serverTimePast: a write whose answer holds a fresh timestamp
 * (add_message's timestamp, start_trace's started_at) to a session of its own, sent raw. How often
 * serverTimePast asks depends on the machine, so these answers are not judged one by one (a
 * scenario makes the same assertions on every run, and the clause map counts them); an answer
 * without the timestamp is sent again as a typed call, which judges it and says what is wrong.
 */
export function serverClock(ctx: Pick<ScenarioContext, 'raw' | 'bridge'>, method: 'add_message' | 'start_trace', session: string): () => Promise<string> {
  const params = method === 'add_message' ? { session_id: session, role: 'user' as const, content: 'what time is it' } : { session_id: session, task: 'what time is it' };
  const field = method === 'add_message' ? 'timestamp' : 'started_at';
  return async () => {
    const { outcome } = await ctx.raw(method, params);
    const value = outcome.kind === 'object' ? (outcome.value as Record<string, unknown>)[field] : undefined;
    if (typeof value === 'string' && ISO_PARTS.test(value)) return value;
    return method === 'add_message'
      ? (await ctx.bridge.add_message(params as { session_id: string; role: 'user'; content: string })).timestamp
      : (await ctx.bridge.start_trace(params as { session_id: string; task: string })).started_at;
  };
}
