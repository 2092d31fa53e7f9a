// Small pieces every check of the oracle uses: how values are shown in a finding, JSON equality,
// timestamps compared at the precision both sides have, derived values compared to 4 significant
// digits, and the answer of one call.
import { withinDerivedPrecision } from '../engine/silent-points.js';
import type { MethodName } from '../protocols/bridge/index.js';

/** One answer: its status and its JSON body (undefined for 204). */
export interface Answer {
  status: number;
  body?: unknown;
}

export type Obj = Record<string, unknown>;

/** One call of a sequence: what each side was sent and what the server answered. */
export interface Call {
  method: MethodName;
  /** Parameters with model ids. */
  mp: Obj;
  /** Parameters with the server's ids (what was sent). */
  sp: Obj;
  answer: Answer;
}

export const ok = (a: Answer) => a.status >= 200 && a.status < 300;

/** A value as a finding shows it: JSON, cut at 300 characters. */
export function show(v: unknown): string {
  const t = JSON.stringify(v) ?? 'nothing';
  return t.length > 300 ? `${t.slice(0, 297)}...` : t;
}

/** An id as a finding shows it: its first 8 characters. */
export const short = (id: unknown) => (typeof id === 'string' ? `${id.slice(0, 8)}…` : show(id));

/** Equality of JSON values: what both sides would write (prototypes and key order aside). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => same(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same((a as Obj)[k], (b as Obj)[k]));
}

/** An optional field: null and absent are the same (silent point optional-null-or-omitted). */
export const opt = (v: unknown) => (v === undefined ? null : v);

/** Milliseconds of the coarsest unit a timestamp is written in (1000 for whole seconds, 1 for ms or finer). */
function unitMs(t: string): number {
  const digits = /T\d\d:\d\d:\d\d\.(\d+)/.exec(t)?.[1]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}

/**
 * Two timestamps name the same instant at the precision of the coarser one (silent point
 * timestamp-format: a server may store fewer digits than it answered with at creation, and round
 * or truncate them).
 */
export function sameInstant(a: string, b: string): boolean {
  const d = Math.abs(Date.parse(a) - Date.parse(b));
  return Number.isFinite(d) && d < Math.max(unitMs(a), unitMs(b)) + 1;
}

/** A day: how far a server clock may be from the kit's and still be "now". */
const PLAUSIBLE_MS = 24 * 3600 * 1000;
export const plausible = (t: unknown) => typeof t === 'string' && Math.abs(Date.parse(t) - Date.now()) <= PLAUSIBLE_MS;

/**
 * A derived value (a rate, a mean) read as the silent point 'derived-precision' allows: correct to 4
 * significant digits or 4 decimal places, whichever is coarser (the scenarios' reading too); a value
 * computed from other calls, truncated or on another scale is not.
 */
export function close(got: unknown, want: number): boolean {
  return typeof got === 'number' && Number.isFinite(got) && withinDerivedPrecision(got, want);
}


