// Time as the scenarios judge it: a server timestamp near the kit's clock, and two timestamps
// compared as instants (any zone designator, any precision).
import { check, instant, show } from '../../src/engine/assert.js';

/** How far a "recent" server timestamp may be from the kit's clock (both ways): 5 minutes. */
const CLOCK_WINDOW_MS = 5 * 60_000;

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `ts` lies within ±CLOCK_WINDOW_MS of the kit-clock interval [before, after] around the call. */
export function checkRecent(ts: string, before: number, after: number, what: string): void {
  const t = instant(ts);
  const lo = new Date(before - CLOCK_WINDOW_MS).toISOString();
  const hi = new Date(after + CLOCK_WINDOW_MS).toISOString();
  check.ok(
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
  if (!m) check.fail(`${show(ts)} is not an ISO 8601 date-time with a zone designator`, { expected: 'ISO 8601', actual: ts });
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
