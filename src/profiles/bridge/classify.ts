// Classification of a bridge response against the response kind the method is expected to have
// (bridge-protocol.md, "Response rules" and "Errors"); a failure to get one is classified by the
// HTTP transport (../http/failure.ts).
// Reasons are written for the vendor of the server under test: they name what the protocol
// expects and what actually came.
import { STATUS_CODES } from 'node:http';
import type { ResponseKind } from '../../protocols/bridge/methods.js';
import type { Exchange } from '../../engine/evidence.js';
import type { TransportFailure } from '../http/failure.js';
import { isJsonObject as isPlainObject } from '../../util/json.js';
import { cutAt, invisiblesIn, showInvisibles } from '../../util/words.js';

export type Outcome =
  | { kind: 'object'; value: Record<string, unknown> } //        200 JSON object
  | { kind: 'list'; value: unknown[] } //                         200 bare JSON array
  | { kind: 'deleted'; value: { deleted: boolean } } //          200 {"deleted": bool}
  | { kind: 'void' } //                                          204 empty
  | { kind: 'null' } //                                          200 body `null`
  | { kind: 'error'; status: number; message: string } //        400/500 with {"error": string}
  | { kind: 'violation'; reason: string; notImplemented?: boolean; nullBody?: true } // anything else the protocol forbids (nullBody: a 200 null where the method's row names an object)
  | { kind: 'transport'; failure: TransportFailure; reason: string };

/** The result of one call: how it was classified, and the evidence. */
export interface CallResult {
  outcome: Outcome;
  exchange: Exchange;
}

/** What classifyResponse needs to know about a received response. */
export interface ResponseFacts {
  status: number;
  /** The whole body decoded as UTF-8. */
  text: string;
  /** Body length in bytes. */
  bytes: number;
  /** The Location header, if any. */
  location?: string | undefined;
  /** The Retry-After header, if any. */
  retryAfter?: string | undefined;
}

const SNIPPET_CHARS = 80;

/** The first ~80 characters of a text on one line, with an ellipsis when cut. */
export function snippet(text: string, max = SNIPPET_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return flat.length <= max ? flat : `${cutAt(flat, max)}…`;
}

export function statusLine(status: number): string {
  const text = STATUS_CODES[status];
  return text === undefined ? String(status) : `${status} ${text}`;
}


/** "null", "an array: [1,2]", "an object: {…}", "a string: \"x\"", … */
function describe(value: unknown, text: string): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array: ${snippet(text.trim())}`;
  switch (typeof value) {
    case 'object':
      return `an object: ${snippet(text.trim())}`;
    case 'string':
      return `a string: ${snippet(text.trim())}`;
    case 'number':
      return `a number: ${snippet(text.trim())}`;
    case 'boolean':
      return `a boolean: ${String(value)}`;
    default:
      return snippet(text.trim());
  }
}

const EXPECTED_200: Record<Exclude<ResponseKind, 'void'>, string> = {
  object: 'a JSON object',
  'object-or-null': 'a JSON object or null',
  list: 'a bare JSON array',
  deleted: 'an object {"deleted": boolean}',
};

function violation(reason: string, notImplemented = false): Outcome {
  return notImplemented ? { kind: 'violation', reason, notImplemented } : { kind: 'violation', reason };
}

/** "with an empty body" / "with body <snippet>". */
function withBody(text: string): string {
  return text.length === 0 ? 'with an empty body' : `with body ${snippet(text)}`;
}

/**
 * Why a body that looks like JSON is not: a character nobody sees (a byte-order mark, a NUL, a
 * no-break space) named, and where — " because of a byte-order mark (U+FEFF) at its start (without
 * it, the body is JSON)". "" when no invisible character is to blame.
 */
function notJsonCulprit(text: string): string {
  const found = invisiblesIn(text);
  for (const f of found) {
    if (parseJson(text.split(f.char).join('')) !== NOT_JSON) {
      return ` because of ${f.name} ${f.first === 0 ? 'at its start' : `at offset ${f.first}`} (without it, the body is JSON)`;
    }
  }
  const first = found[0];
  return first === undefined ? '' : ` (it holds ${first.name} at offset ${first.first})`;
}

/** Parses JSON, returning a unique marker on failure (no exception object kept). */
const NOT_JSON: unique symbol = Symbol('not-json');
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

/**
 * Classifies a complete response against the expected kind. Pure: no I/O, never throws.
 */
export function classifyResponse(expect: ResponseKind, r: ResponseFacts): Outcome {
  const { status, text } = r;

  if (status === 200) {
    if (expect === 'void') return violation(`204 expected, got 200 ${withBody(text)}`);
    const what = EXPECTED_200[expect];
    if (text.trim() === '') return violation(`${what} expected, got 200 with an empty body`);
    const value = parseJson(text);
    if (value === NOT_JSON) {
      return { kind: 'transport', failure: 'invalid-json', reason: `body is not JSON${notJsonCulprit(text)}: ${snippet(showInvisibles(text))}` };
    }
    switch (expect) {
      case 'object':
        if (isPlainObject(value)) return { kind: 'object', value };
        break;
      case 'object-or-null':
        if (value === null) return { kind: 'null' };
        if (isPlainObject(value)) return { kind: 'object', value };
        break;
      case 'list':
        if (Array.isArray(value)) return { kind: 'list', value };
        break;
      case 'deleted':
        if (isPlainObject(value) && typeof value['deleted'] === 'boolean') {
          return { kind: 'deleted', value: { deleted: value['deleted'] } };
        }
        break;
    }
    // A null where the row names an object: the Errors 2 answer of a lookup that finds nothing,
    // which readAnswer tells apart (a scenario that allows it asks for it; a call that must
    // succeed still fails on it).
    if (value === null) return { kind: 'violation', reason: `${what} expected, got null`, nullBody: true };
    return violation(`${what} expected, got ${describe(value, text)}`);
  }

  if (status === 204) {
    if (expect !== 'void') {
      return violation(`200 with ${EXPECTED_200[expect]} expected, got 204 No Content`);
    }
    if (r.bytes > 0) return violation(`204 must have an empty body, got ${r.bytes} bytes: ${snippet(text)}`);
    return { kind: 'void' };
  }

  if (status === 400 || status === 500) {
    const value = text.trim() === '' ? NOT_JSON : parseJson(text);
    if (isPlainObject(value) && typeof value['error'] === 'string') {
      return { kind: 'error', status, message: value['error'] };
    }
    return violation(`${status} with {"error": string} expected, got ${withBody(text).replace(/^with /, '')}`);
  }

  if (status === 404 || status === 501) {
    // Alone, a 404 cannot tell a missing method from a lookup answering "not found"; its body hints.
    const value = parseJson(text);
    const said = status === 404 && isPlainObject(value) && typeof value['error'] === 'string' ? ` ${snippet(text)} (if the method exists, a lookup that finds nothing answers 200 null)` : '';
    return violation(`not implemented: ${statusLine(status)}${said}`, true);
  }

  if (status >= 300 && status < 400) {
    const where = r.location ? `to ${r.location}` : 'without a Location header';
    return {
      kind: 'transport',
      failure: 'redirect',
      reason: `redirect ${statusLine(status)} ${where} not followed: the protocol answers every call directly`,
    };
  }

  const expected = expect === 'void' ? '204' : '200';
  const retry = r.retryAfter ? ` (Retry-After: ${r.retryAfter})` : '';
  return violation(`${expected} expected, got ${statusLine(status)}${retry} ${withBody(text)}`);
}

/** A method no server has: what a target answers for it is how it says "no such method". */
export const ABSENT_METHOD = 'tck_no_such_method';

/**
 * The answer of a lookup is the one a method that does not exist gets: same status, same body once
 * the method's name and any digits (a timestamp, a request id) are set aside.
 */
export function answersLikeAbsent(answer: Exchange, absent: Exchange, method: string): boolean {
  const norm = (ex: Exchange, name: string) => (ex.responseText ?? '').split(name).join('<method>').replace(/\d+/g, '0');
  return answer.status === absent.status && norm(answer, method) === norm(absent, ABSENT_METHOD);
}

/**
 * The reason for a 404 from a method that exists (it answered earlier, or a method that does not
 * exist gets another answer): a protocol error, not a missing method.
 */
export function existingMethodReason(reason: string, method: string, evidence: string, lookup: boolean): string {
  const said = reason.replace(/^not implemented: /, '').replace(/ \(if the method exists, [^)]*\)$/, '');
  return `${said}, though ${evidence}: ${method} exists, so this is a protocol error, not a missing method${lookup ? ' (a lookup that finds nothing answers 200 null)' : ''}`;
}

/**
 * How the answer to a call that may be refused, or may find nothing, is read: the one reading
 * every suite (suites/support/refusals.ts, expectGone), the scenario context's expectError and
 * explore's oracle share, so that what each allows is decided by the scenario's own rule, after
 * this reading, never before it.
 * - refused: 400 or 500 with {"error": string} (bridge-protocol.md, Errors 1);
 * - null: 200 with the JSON value null, "a lookup that finds nothing" (Errors 2 and the Null
 *   result row of the response table) — for every method, also one whose row names an object
 *   (get_entity, get_conversation_metadata): whether null is allowed is the caller's rule;
 * - absent: 404 or 501, the method is not there (a gap of its tier; ctx.faultOf tells a 404 of a
 *   method that exists apart);
 * - accepted: 200 or 204 of the method's kind (value undefined for 204);
 * - violation: any other answer the response rules forbid; transport: no answer at all.
 */
type Reading =
  | { kind: 'refused'; status: number; message: string }
  | { kind: 'null' }
  | { kind: 'absent'; reason: string }
  | { kind: 'accepted'; value: unknown }
  | { kind: 'violation'; reason: string }
  | { kind: 'transport'; failure: TransportFailure; reason: string };

export function readAnswer(outcome: Outcome): Reading {
  switch (outcome.kind) {
    case 'error':
      return { kind: 'refused', status: outcome.status, message: outcome.message };
    case 'null':
      return { kind: 'null' };
    case 'void':
      return { kind: 'accepted', value: undefined };
    case 'violation':
      if (outcome.nullBody === true) return { kind: 'null' };
      return outcome.notImplemented === true ? { kind: 'absent', reason: outcome.reason } : { kind: 'violation', reason: outcome.reason };
    case 'transport':
      return outcome;
    default:
      return { kind: 'accepted', value: outcome.value };
  }
}

/** A reading in a few words, for a failure message: "400 {\"error\": \"…\"}", "200 null", "404 (not implemented)". */
export function describeReading(r: Reading): string {
  switch (r.kind) {
    case 'refused':
      return `${r.status} {"error": ${JSON.stringify(r.message)}}`;
    case 'null':
      return '200 null';
    case 'accepted':
      return r.value === undefined ? '204 (empty)' : `200 ${JSON.stringify(Array.isArray(r.value) && r.value.length > 20 ? [...r.value.slice(0, 20), `… ${r.value.length - 20} more`] : r.value)?.slice(0, 200) ?? ''}`;
    default:
      return r.reason;
  }
}
