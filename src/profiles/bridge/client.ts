// The HTTP client of the bridge protocol: one POST per adapter method call to /{method}, every
// response (or failure) classified against the method's response kind and recorded as evidence.
//
// `call` never throws for anything the server or the network does: it always resolves to a
// CallResult. Sending and reading (timeouts, body cap, stale keep-alive sockets, Content-Encoding,
// the evidence of the exchange) are the shared HTTP transport's (../http/transport.ts); this
// layer adds the method routes, the JSON body, the extra headers and the classification.
import { METHODS, isMethodName } from '../../protocols/bridge/methods.js';
import type { MethodName, ParamsOf, ResponseKind } from '../../protocols/bridge/methods.js';
import { classifyResponse, existingMethodReason } from './classify.js';
import type { CallResult, Outcome } from './classify.js';
import type { Exchange } from '../../engine/evidence.js';
import { BridgeUsageError, makeScrubber, parseHeaderArgs, redactHeaders } from '../http/headers.js';
import { HttpTransport, isoNow } from '../http/transport.js';
import { DEFAULT_LIMITS } from '../../util/limits.js';

/** The target URL is not usable (not a URL, not http(s), carries credentials or a query). */
export class InvalidTargetError extends BridgeUsageError {
  constructor(message: string) {
    super(message, 'TCK_INVALID_TARGET');
    this.name = 'InvalidTargetError';
  }
}

interface BridgeClientOptions {
  /** Base URL of the conformance server, e.g. http://127.0.0.1:3001 or https://h/prefix */
  url: string;
  /** Bound on each whole exchange (connect, headers, body). Default 10 000 ms. */
  timeoutMs?: number;
  /** Largest response body accepted. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Extra request headers, e.g. { authorization: 'Bearer …' }; values never appear in evidence. */
  headers?: Record<string, string>;
  /** Called with every exchange, in order, just before its call resolves. */
  onExchange?: (ex: Exchange) => void;
  /** How much of each response body the evidence keeps (default 64 KiB; a certification keeps it whole, to replay it). */
  evidenceBytes?: number;
  /**
   * Most sockets the pool keeps to the target. Default 1: calls share one keep-alive connection
   * and concurrent calls queue behind each other (their timers run while queued). Raise it to
   * run calls in parallel. (With undici's Pool and an unbounded count, strictly sequential calls
   * alternate between two sockets, because a socket is handed back one event-loop turn after
   * its response ends; a bound of 1 keeps them on one.)
   */
  connections?: number;
  /** Requests in flight on each connection (HTTP/1.1 pipelining). Default 1: one at a time. */
  pipelining?: number;
}

/** How a batch of concurrent calls reaches the target: over `connections` sockets, each with `pipelining` requests in flight. */
export interface ConcurrencyShape {
  connections: number;
  pipelining: number;
}

export interface CallOptions {
  /** Response kind to classify against; default METHODS[method].kind, or 'object' for unknown methods. */
  expect?: ResponseKind;
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number;
  /** Cancels the call (the exchange is aborted; the call resolves as a transport failure). */
  signal?: AbortSignal;
  /**
   * Sent as the body instead of the JSON of params (protocol scenarios that post a malformed
   * body); recorded in the evidence as Exchange.requestText.
   */
  rawBody?: string;
}

const DEFAULT_TIMEOUT_MS = DEFAULT_LIMITS.requestTimeoutMs;
const DEFAULT_MAX_BODY_BYTES = DEFAULT_LIMITS.maxBodyBytes;

/** The response kind a method is expected to have: METHODS[method].kind, else 'object'. */
export function expectedKind(method: string): ResponseKind {
  return isMethodName(method) ? METHODS[method].kind : 'object';
}

interface Target {
  origin: string;
  basePath: string;
}

/** Parses a target URL; InvalidTargetError (exit 2) when it cannot be one. */
export function parseTarget(raw: string): Target {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    const port = /^[a-z][a-z0-9+.-]*:\/\/[^/:?#]+:(\d+)/i.exec(raw)?.[1];
    if (port !== undefined && Number(port) > 65535) throw new InvalidTargetError(`invalid target URL ${JSON.stringify(raw)}: port ${port} is out of range (1–65535)`);
    const hint = /^[\w.-]+:\d+(\/.*)?$/.test(raw) ? `did you mean http://${raw}?` : 'expected e.g. http://127.0.0.1:3001';
    throw new InvalidTargetError(`invalid target URL ${JSON.stringify(raw)}: not an absolute URL (${hint})`);
  }
  if (!raw.includes('//')) {
    // "localhost:3001" parses as the scheme "localhost:": say what is missing instead.
    const hint = /^[\w.-]+:\d+(\/.*)?$/.test(raw) ? `did you mean http://${raw}?` : 'e.g. http://127.0.0.1:3001';
    throw new InvalidTargetError(`invalid target URL ${JSON.stringify(raw)}: it does not start with http:// or https:// (${hint})`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new InvalidTargetError(`invalid target URL: protocol ${u.protocol} is not supported (use http: or https:)`);
  }
  if (u.username !== '' || u.password !== '') {
    throw new InvalidTargetError('invalid target URL: it must not carry credentials; pass them with --header "Authorization: …"');
  }
  if (u.search !== '' || u.hash !== '') {
    throw new InvalidTargetError('invalid target URL: it must not have a query string or fragment');
  }
  return { origin: u.origin, basePath: u.pathname.replace(/\/+$/, '') };
}

function positive(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v <= 0) throw new BridgeUsageError(`${name} must be a positive number, got ${v}`);
  return v;
}

/** Top-level null/undefined keys omitted (request rule 4). Copies only when something is omitted. */
export function omitNulls(params: Record<string, unknown>): Record<string, unknown> {
  for (const k in params) {
    if (params[k] === null || params[k] === undefined) {
      const out: Record<string, unknown> = {};
      for (const key in params) {
        const v = params[key];
        if (v !== null && v !== undefined) out[key] = v;
      }
      return out;
    }
  }
  return params;
}

interface Route {
  path: string;
  url: string;
  expect: ResponseKind;
}

export class BridgeClient {
  /** The normalised base URL (origin + base path, no trailing slash). */
  readonly url: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;

  readonly #target: Target;
  readonly #transport: HttpTransport;
  readonly #requestHeaders: Record<string, string>;
  readonly #redacted: Readonly<Record<string, string>>;
  readonly #scrub: ((text: string) => string) | undefined;
  readonly #notify: ((r: CallResult) => CallResult) | undefined;
  readonly #routes = new Map<string, Route>();
  /** Methods that have answered with a success in this client's run: they exist, so a 404 from them is no "not implemented". */
  readonly #answered = new Set<string>();
  #count = 0;
  readonly #options: BridgeClientOptions;

  constructor(options: BridgeClientOptions) {
    this.#options = options;
    this.#target = parseTarget(options.url);
    this.url = this.#target.origin + this.#target.basePath;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);

    // Same checks as for --header arguments (names lowercased, reserved names and bad values
    // rejected, values never echoed).
    const extra = parseHeaderArgs(Object.entries(options.headers ?? {}).map(([n, v]) => `${n}: ${v}`));
    this.#requestHeaders = { ...extra, 'content-type': 'application/json' };
    this.#redacted = Object.freeze(redactHeaders(extra));
    this.#scrub = makeScrubber(extra);
    const hook = options.onExchange;
    this.#notify =
      hook === undefined
        ? undefined
        : (r: CallResult) => {
            hook(r.exchange);
            return r;
          };

    this.#transport = new HttpTransport({
      origin: this.#target.origin,
      timeoutMs: this.timeoutMs,
      maxBodyBytes: this.maxBodyBytes,
      connections: positive('connections', options.connections, 1),
      pipelining: positive('pipelining', options.pipelining, 1),
      name: 'the bridge client',
      ...(options.evidenceBytes !== undefined ? { evidenceBytes: options.evidenceBytes } : {}),
    });
    for (const name of Object.keys(METHODS)) this.#routes.set(name, this.#makeRoute(name));
  }

  /**
   * A client like this one (target, headers, timeouts, evidence, hook) whose requests go out over
   * `shape.connections` sockets with `shape.pipelining` in flight on each: the concurrency
   * scenarios' batches. The caller closes it.
   */
  fork(shape: ConcurrencyShape): BridgeClient {
    return new BridgeClient({ ...this.#options, connections: shape.connections, pipelining: shape.pipelining });
  }

  /** How many connections this client has opened (one that the server closed and was opened again counts twice). */
  get connectionsOpened(): number {
    return this.#transport.connectionsOpened;
  }

  /** How many calls this client has made (each one is one HTTP request). */
  get requestCount(): number {
    return this.#count;
  }

  #makeRoute(method: string): Route {
    const path = `${this.#target.basePath}/${encodeURIComponent(method)}`;
    return { path, url: this.#target.origin + path, expect: expectedKind(method) };
  }

  /** Typed convenience over `call` for the methods of the protocol. */
  invoke<M extends MethodName>(method: M, params: ParamsOf<M>, opts?: CallOptions): Promise<CallResult> {
    return this.call(method, params as Record<string, unknown>, opts);
  }

  /**
   * POSTs `params` (nulls omitted) to `/{method}` and classifies the answer against the
   * expected response kind. Never rejects because of the server or the network.
   * (An exception thrown by the onExchange hook is the caller's bug: the call rejects with it.)
   */
  call(method: string, params: Record<string, unknown> = {}, opts?: CallOptions): Promise<CallResult> {
    const p = this.#exchange(method, params, opts);
    return this.#notify === undefined ? p : p.then(this.#notify);
  }

  #exchange(method: string, params: Record<string, unknown>, opts: CallOptions | undefined): Promise<CallResult> {
    this.#count++;
    const route = this.#routes.get(method) ?? this.#makeRoute(method);
    const expect = opts?.expect ?? route.expect;
    const t0 = performance.now();
    const requestBody = omitNulls(params);

    const exchange: Exchange = {
      method,
      url: route.url,
      requestBody,
      requestHeaders: this.#redacted,
      durationMs: 0,
      startedAt: isoNow(),
    };

    let json: string;
    if (opts?.rawBody !== undefined) exchange.requestText = opts.rawBody;
    try {
      json = opts?.rawBody ?? JSON.stringify(requestBody);
    } catch (err) {
      const reason = `${method}: the request body cannot be serialised as JSON (${err instanceof Error ? err.message : String(err)})`;
      return Promise.resolve(this.#complete(exchange, t0, { kind: 'transport', failure: 'other', reason }));
    }
    const request = {
      method: 'POST',
      path: route.path,
      headers: this.#requestHeaders,
      body: json,
      ...(opts?.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts?.signal !== undefined ? { signal: opts.signal } : {}),
    };
    return this.#transport.send(exchange, request, t0).then((r) => {
      // A body that is not what its Content-Encoding says is a protocol error of the method.
      const outcome: Outcome =
        r.kind === 'response'
          ? classifyResponse(expect, { status: r.status, text: r.text, bytes: r.bytes, location: r.headers['location'], retryAfter: r.headers['retry-after'] })
          : r.kind === 'undecodable'
            ? { kind: 'violation', reason: r.reason }
            : r;
      return this.#complete(exchange, t0, outcome);
    });
  }

  #complete(exchange: Exchange, t0: number, outcome: Outcome): CallResult {
    exchange.durationMs = performance.now() - t0;
    const scrub = this.#scrub;
    if (scrub !== undefined) {
      if (exchange.responseText !== undefined) exchange.responseText = scrub(exchange.responseText);
      if (outcome.kind === 'violation' || outcome.kind === 'transport') outcome.reason = scrub(outcome.reason);
      else if (outcome.kind === 'error') outcome.message = scrub(outcome.message);
    }
    if (outcome.kind === 'transport') exchange.transportError = outcome.reason;
    if (outcome.kind === 'violation' && outcome.notImplemented && this.#answered.has(exchange.method)) {
      outcome = {
        kind: 'violation',
        reason: existingMethodReason(outcome.reason, exchange.method, `${exchange.method} answered earlier in this run`, expectedKind(exchange.method) === 'object-or-null'),
      };
    } else if (outcome.kind !== 'violation' && outcome.kind !== 'transport' && outcome.kind !== 'error') {
      this.#answered.add(exchange.method);
    }
    return { outcome, exchange };
  }

  /** Closes the pool: waits for in-flight calls, then closes the sockets. */
  close(): Promise<void> {
    return this.#transport.close();
  }
}
