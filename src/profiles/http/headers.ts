// Extra request headers (e.g. Authorization) for a conformance server, from the repeatable
// `--header "Name: value"` flag and the TCK_HEADERS environment variable.
//
// TCK_HEADERS holds one or more `Name: value` entries separated by newlines OR by `;;`
// (both are accepted, and may be mixed); blank entries are ignored. Example:
//   TCK_HEADERS='Authorization: Bearer abc;;X-Tenant: t1'
//
// Header values are treated as secrets: no error message, Exchange or formatted output of
// this module ever contains one. Names are lowercased (HTTP names are case-insensitive);
// a later entry for the same name replaces an earlier one.
import { TckError, type TckErrorCode } from '../../engine/errors.js';

/** A misuse of the kit by its caller (bad URL, bad header): the CLI shows `message` and exits. */
export class BridgeUsageError extends TckError {
  constructor(message: string, code: TckErrorCode = 'TCK_USAGE') {
    super(message, code);
    this.name = 'BridgeUsageError';
  }
}

/** A malformed `Name: value` header argument. The message never contains the value. */
export class InvalidHeaderError extends BridgeUsageError {
  constructor(message: string) {
    super(message, 'TCK_INVALID_HEADER');
    this.name = 'InvalidHeaderError';
  }
}

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters other than horizontal tab are not allowed in a field value. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const BAD_VALUE_CHAR = /[\u0000-\u0008\u000a-\u001f\u007f]/;

/** Headers the client sets itself or that HTTP/1.1 framing owns; a user may not set them. */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'host',
  'te',
  'trailer',
]);

/** Splits a TCK_HEADERS value into entries (newline- or `;;`-separated). */
export function splitHeaderEnv(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(/\r?\n|;;/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Parses `Name: value` strings into a header record with lowercase names.
 * Throws InvalidHeaderError (message names the entry's position and, when readable, its name,
 * never its value) for an entry without a colon, an invalid name, an empty value, a value with
 * control characters, or a reserved name such as content-type.
 */
export function parseHeaderArgs(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  list.forEach((raw, i) => {
    const where = `header #${i + 1}`;
    const colon = raw.indexOf(':');
    if (colon < 0) {
      throw new InvalidHeaderError(`${where} is malformed: expected "Name: value" (no colon found)`);
    }
    const name = raw.slice(0, colon).trim();
    const value = raw.slice(colon + 1).trim();
    if (name === '') throw new InvalidHeaderError(`${where} is malformed: empty name before the colon`);
    if (!TOKEN.test(name)) {
      throw new InvalidHeaderError(`${where} is malformed: the name before the colon is not a valid HTTP header name`);
    }
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower)) {
      throw new InvalidHeaderError(`${where} (${lower}) cannot be set: the bridge client manages it`);
    }
    if (value === '') throw new InvalidHeaderError(`${where} (${lower}) has an empty value`);
    if (BAD_VALUE_CHAR.test(value)) {
      throw new InvalidHeaderError(`${where} (${lower}) has control characters in its value`);
    }
    out[lower] = value;
  });
  return out;
}

/** The same header names with every value replaced by "***". */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers)) out[name] = '***';
  return out;
}

/** Values at least this long are scrubbed from texts; shorter ones would mangle evidence. */
const MIN_SCRUB_LENGTH = 4;

/**
 * A function replacing every occurrence of a header value in a text by "***" (a server may
 * echo a credential back). Returns undefined when there is nothing to scrub.
 */
export function makeScrubber(headers: Readonly<Record<string, string>>): ((text: string) => string) | undefined {
  const parts: string[] = [];
  for (const v of Object.values(headers)) {
    parts.push(v);
    // "Bearer <token>", "Basic <creds>": the credential alone may be echoed too.
    const sp = v.indexOf(' ');
    if (sp > 0) parts.push(v.slice(sp + 1).trim());
  }
  const values = [...new Set(parts)]
    .filter((v) => v.length >= MIN_SCRUB_LENGTH)
    .sort((a, b) => b.length - a.length); // longest first, so a value containing another is cut whole
  if (values.length === 0) return undefined;
  return (text: string): string => {
    let out = text;
    for (const v of values) {
      if (out.includes(v)) out = out.split(v).join('***');
    }
    return out;
  };
}
