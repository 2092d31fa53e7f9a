// Classification of a bridge response (or of a failure to get one) against the response kind
// the method is expected to have (bridge-protocol.md, "Response rules" and "Errors").
// Reasons are written for the vendor of the server under test: they name what the protocol
// expects and what actually came.
import { STATUS_CODES } from 'node:http';
import type { ResponseKind } from '../../protocols/bridge/methods.js';
import type { Exchange } from '../../engine/evidence.js';
import { isJsonObject as isPlainObject } from '../../util/json.js';

export type TransportFailure =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'dns'
  | 'invalid-json'
  | 'too-large'
  | 'redirect'
  | 'other';

export type Outcome =
  | { kind: 'object'; value: Record<string, unknown> } //        200 JSON object
  | { kind: 'list'; value: unknown[] } //                         200 bare JSON array
  | { kind: 'deleted'; value: { deleted: boolean } } //          200 {"deleted": bool}
  | { kind: 'void' } //                                          204 empty
  | { kind: 'null' } //                                          200 body `null`
  | { kind: 'error'; status: number; message: string } //        400/500 with {"error": string}
  | { kind: 'violation'; reason: string; notImplemented?: boolean } // anything else the protocol forbids
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
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
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
      return { kind: 'transport', failure: 'invalid-json', reason: `body is not JSON: ${snippet(text)}` };
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

/** Context for naming a transport failure. */
interface FailureContext {
  method: string;
  url: string;
  /** Origin the client connects to, e.g. http://127.0.0.1:3001 */
  origin: string;
  host: string;
  timeoutMs: number;
  /** The client's own whole-exchange timer fired. */
  timedOut: boolean;
  /** Status, when headers had arrived before the failure. */
  status?: number | undefined;
  /** Body bytes received before the failure. */
  bytes?: number | undefined;
  /** The Content-Length the headers announced, if any. */
  declaredBytes?: number | undefined;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(s < 1 ? 2 : 1))} s`;
}

/** The error codes of an error, its cause and (for AggregateError) its members. */
function codesOf(err: unknown, depth = 0): string[] {
  if (typeof err !== 'object' || err === null || depth > 3) return [];
  const out: string[] = [];
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.push(code);
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...codesOf(e, depth + 1));
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined) out.push(...codesOf(cause, depth + 1));
  return out;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  try {
    return String(err);
  } catch {
    return 'unknown error';
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);

/**
 * Classifies an error raised while sending the request or reading the response. Never throws.
 */
export function classifyFailure(err: unknown, ctx: FailureContext): Outcome & { kind: 'transport' } {
  const codes = codesOf(err);
  const has = (set: ReadonlySet<string>) => codes.some((c) => set.has(c));

  if (ctx.timedOut || has(TIMEOUT_CODES)) {
    const reason =
      ctx.status === undefined
        ? `${ctx.method}: no response within ${seconds(ctx.timeoutMs)}`
        : `${ctx.method}: response not complete within ${seconds(ctx.timeoutMs)} ` +
          `(status ${ctx.status} received, then ${ctx.bytes ?? 0} bytes of body)`;
    return { kind: 'transport', failure: 'timeout', reason };
  }
  if (codes.includes('ECONNREFUSED')) {
    return { kind: 'transport', failure: 'refused', reason: `connection refused at ${ctx.origin}` };
  }
  if (has(DNS_CODES)) {
    const code = codes.find((c) => DNS_CODES.has(c));
    return { kind: 'transport', failure: 'dns', reason: `cannot resolve host ${ctx.host} (${code})` };
  }
  if (codes.includes('UND_ERR_HEADERS_OVERFLOW')) {
    return { kind: 'transport', failure: 'too-large', reason: 'response headers too large' };
  }
  if (has(RESET_CODES)) {
    const got = ctx.bytes ?? 0;
    if (ctx.status !== undefined && ctx.declaredBytes !== undefined && got < ctx.declaredBytes && !codes.includes('ECONNRESET')) {
      return {
        kind: 'transport',
        failure: 'reset',
        reason: `body cut short: status ${ctx.status} announced Content-Length ${ctx.declaredBytes}, but the connection closed after ${got} bytes`,
      };
    }
    const when =
      ctx.status === undefined
        ? 'before any response'
        : `after status ${ctx.status} and ${ctx.bytes ?? 0} bytes of body`;
    return {
      kind: 'transport',
      failure: 'reset',
      reason: `connection reset at ${ctx.origin} ${when} (${messageOf(err)})`,
    };
  }
  // https:// against a server that speaks plain HTTP: OpenSSL's two lines, said in one.
  if (codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || codes.includes('ERR_SSL_PACKET_LENGTH_TOO_LONG') || /wrong version number|packet length too long/i.test(messageOf(err))) {
    return { kind: 'transport', failure: 'other', reason: `the server at ${ctx.origin} does not speak TLS; try ${ctx.origin.replace(/^https:/, 'http:')}` };
  }
  const code = codes[0];
  return {
    kind: 'transport',
    failure: 'other',
    reason: `${ctx.method}: ${messageOf(err)}${code !== undefined ? ` (${code})` : ''}`,
  };
}
