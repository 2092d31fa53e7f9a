// The nesting cap of the servers we ship, and the pre-scan of request bodies that enforces it
// before any parsing: robustness limits of ours, not protocol rules.
//
// JSON.parse accepts any depth, but JSON.stringify, structuredClone and recursive copies overflow
// the stack a few thousand levels down; capping the depth on the way in keeps every stored value
// serialisable (a stored value that cannot be written back would break every later read of it).
// Parsing a 16 MiB body nested eight million levels deep takes seconds and a gigabyte before any
// cap on the parsed value could be checked, so the cap is checked on the bytes first
// (`scanJsonBody`): one pass, no allocation per byte, before JSON.parse and before any credential
// in the body is looked at. The same pass refuses numbers JSON.parse would change (1e400 would be
// stored as null, 1e-400 as 0, a 30-digit integer rounded): user JSON round-trips exactly, or is
// refused with the field named.
// Shared by the bridge reference, the forwarder and the hosted REST service.

/** How deeply a parameter value may nest (arrays and objects). */
export const MAX_NESTING_DEPTH = 512;

/**
 * How many JSON values a request body may hold (every object, array, string, number, true, false
 * and null counts; keys do not). V8 parses, validates and copies an object of a million keys in
 * seconds (about 3 µs a key, each step): the cap keeps every request's work within a fraction of
 * a second whatever its shape, and refuses before anything is parsed.
 */
export const MAX_BODY_VALUES = 50_000;

/** Whether `value` nests deeper than `limit` levels; iterative, so any depth is safe to check. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The 400 message for the first of `keys` whose value in `params` nests beyond the cap. */
export function nestingIssue(params: Record<string, unknown>, keys: Iterable<string>): string | undefined {
  for (const key of keys) {
    if (nestsDeeperThan(params[key], MAX_NESTING_DEPTH)) return `${key}: nested more than ${MAX_NESTING_DEPTH} levels deep`;
  }
  return undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_T = 0x74;
const LOWER_F = 0x66;
const LOWER_N = 0x6e;

const OBJECT = 1;
const ARRAY = 2;

/** The smallest positive normal double: below it a value loses digits (subnormal) or becomes 0. */
const MIN_NORMAL = 2.2250738585072014e-308;
/** Significant digits every double keeps exactly (DBL_DIG). */
const SAFE_DIGITS = 15;
/** How much of a field path an error message shows. */
const PATH_CHARS = 200;

/**
 * The pre-scan of a request body (UTF-8 JSON bytes), before JSON.parse: the 400 message for the
 * first value nested deeper than `maxDepth` levels (the body object itself not counted; named by
 * its top-level key, as `nestingIssue` names it), for a body of more than `maxValues` values, or
 * for the first number that JSON.parse would not keep exactly (named by its path), else undefined. Linear in the body's size, with memory
 * proportional to `maxDepth` only. A body that is not valid JSON may pass: JSON.parse judges it
 * next (for valid JSON the scan is exact).
 */
export function scanJsonBody(bytes: Uint8Array, maxDepth: number = MAX_NESTING_DEPTH, maxValues: number = MAX_BODY_VALUES): string | undefined {
  const levels = maxDepth + 1; // the body object is a level of its own
  const kind = new Uint8Array(levels + 1);
  const expectKey = new Uint8Array(levels + 1);
  const keyStart = new Int32Array(levels + 1);
  const keyEnd = new Int32Array(levels + 1);
  const index = new Int32Array(levels + 1);
  const path = (depth: number, top: boolean) => pathOf(bytes, depth, top, kind, keyStart, keyEnd, index);
  let depth = 0;
  let values = 0;
  const tooMany = () => `${path(depth, true)}: the body holds more than ${maxValues} JSON values; a request holds at most ${maxValues} (a bound of the server)`;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      const start = i + 1;
      for (i = start; i < n; i++) {
        const d = bytes[i]!;
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
      if (kind[depth] === OBJECT && expectKey[depth] === 1) {
        keyStart[depth] = start;
        keyEnd[depth] = i;
        expectKey[depth] = 0;
      } else if (++values > maxValues) return tooMany();
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === levels) return `${path(depth, true)}: nested more than ${maxDepth} levels deep`;
      if (++values > maxValues) return tooMany();
      depth++;
      kind[depth] = c === OPEN_OBJECT ? OBJECT : ARRAY;
      expectKey[depth] = 1;
      keyStart[depth] = -1;
      index[depth] = 0;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (depth > 0) depth--;
    } else if (c === COMMA) {
      if (kind[depth] === OBJECT) expectKey[depth] = 1;
      else index[depth]!++;
    } else if (c === LOWER_T || c === LOWER_F || c === LOWER_N) {
      if (++values > maxValues) return tooMany();
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      if (++values > maxValues) return tooMany();
      // A number: its significant digits are counted (from the first non-zero one, trailing zeros
      // included, so the count can only be too high), and whether it has an exponent.
      const start = i;
      let significant = 0;
      let exponent = false;
      for (; i < n; i++) {
        const d = bytes[i]!;
        if (d >= ZERO && d <= NINE) {
          if (!exponent && (significant > 0 || d !== ZERO)) significant++;
        } else if (d === LOWER_E || d === UPPER_E) exponent = true;
        else if (d !== DOT && d !== MINUS && d !== PLUS) break;
      }
      const end = i;
      i--;
      // Fast path: at most 15 characters without an exponent is at most 15 digits, within range.
      if (!exponent && end - start <= SAFE_DIGITS) continue;
      const problem = numberProblem(latin1(bytes, start, end), significant);
      if (problem !== undefined) return `${path(depth, false)}: ${problem}`;
    }
  }
  return undefined;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Why JSON.parse would not keep this number token exactly, or undefined (also for a token that is no JSON number: JSON.parse refuses it). */
function numberProblem(text: string, significant: number): string | undefined {
  if (!JSON_NUMBER.test(text)) return undefined;
  const value = Number(text);
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  if (!Number.isFinite(value)) return `the number ${shown} is too large to keep exactly (it would be stored as null); send it as a string`;
  // Normal range and at most 15 significant digits: a double keeps it exactly.
  if (significant <= SAFE_DIGITS && Math.abs(value) >= MIN_NORMAL) return undefined;
  if (decimalOf(text) === decimalOf(String(value))) return undefined;
  if (value === 0) return `the number ${shown} is too small to keep exactly (it would be stored as 0); send it as a string`;
  return `the number ${shown} has more digits than a 64-bit number keeps (it would be stored as ${String(value)}); send it as a string`;
}

/** A decimal number's text in one canonical form ("-123e-2" for -1.230), zero as "0" whatever its sign. */
function decimalOf(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return text;
  const fraction = m[3] ?? '';
  const all = `${m[2]!}${fraction}`;
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === ZERO) first++;
  if (first === all.length) return '0';
  let last = all.length;
  while (all.charCodeAt(last - 1) === ZERO) last--;
  // Exponents as decimal strings: BigInt keeps any length exactly.
  const exponent = BigInt(m[4] ?? '0') - BigInt(fraction.length) + BigInt(all.length - last);
  return `${m[1]!}${all.slice(first, last)}e${exponent}`;
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** A key's text, decoded (at most 64 characters shown). */
function keyText(bytes: Uint8Array, start: number, end: number): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(end - start, 256)).toString('utf8');
  let text: string;
  try {
    text = JSON.parse(`"${raw}"`) as string;
  } catch {
    text = raw;
  }
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

/** The path of the value at `depth` ("metadata.a[3]"); `top`: only its top-level key. "body" at the top. */
function pathOf(bytes: Uint8Array, depth: number, top: boolean, kind: Uint8Array, keyStart: Int32Array, keyEnd: Int32Array, index: Int32Array): string {
  let out = '';
  const last = top ? Math.min(depth, 1) : depth;
  for (let level = 1; level <= last && out.length < PATH_CHARS; level++) {
    if (kind[level] === ARRAY) out += `[${index[level]}]`;
    else if (keyStart[level]! >= 0) {
      const key = keyText(bytes, keyStart[level]!, keyEnd[level]!);
      out += out === '' ? key : `.${key}`;
    }
  }
  if (out.length >= PATH_CHARS) out = `${out.slice(0, PATH_CHARS)}...`;
  return out === '' ? 'body' : out;
}
