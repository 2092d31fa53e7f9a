// The HTTP client of the bridge protocol: one keep-alive undici Pool per target, one POST per
// adapter method call, every response (or failure) classified and recorded as evidence.
//
// `call` never throws for anything the server or the network does: it always resolves to a
// CallResult. The request is driven through Pool.dispatch with a small handler (no response
// stream object per call); the body is counted as it arrives and the exchange is aborted as
// soon as it passes maxBodyBytes. One timer per call bounds the whole exchange (connect,
// headers and body), so a server that dribbles bytes cannot hold a call past timeoutMs.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Client, Pool } from 'undici';
import type { Dispatcher } from 'undici';
import { METHODS, isMethodName } from '../../protocols/bridge/methods.js';
import type { MethodName, ParamsOf, ResponseKind } from '../../protocols/bridge/methods.js';
import { classifyResponse } from './classify.js';
import { classifyFailure } from '../http/failure.js';
import type { CallResult, Outcome } from './classify.js';
import { displayText } from '../../engine/evidence.js';
import type { Exchange } from '../../engine/evidence.js';
import { BridgeUsageError, makeScrubber, parseHeaderArgs, redactHeaders } from '../http/headers.js';
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
  host: string;
  basePath: string;
}

function parseTarget(raw: string): Target {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    const port = /^[a-z][a-z0-9+.-]*:\/\/[^/:?#]+:(\d+)/i.exec(raw)?.[1];
    if (port !== undefined && Number(port) > 65535) throw new InvalidTargetError(`invalid target URL ${JSON.stringify(raw)}: port ${port} is out of range (1–65535)`);
    throw new InvalidTargetError(`invalid target URL ${JSON.stringify(raw)}: not an absolute URL (expected e.g. http://127.0.0.1:3001)`);
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
  return { origin: u.origin, host: u.hostname, basePath: u.pathname.replace(/\/+$/, '') };
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

function headerString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A Content-Length header as a number, when it is one. */
function declaredLength(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

interface Route {
  path: string;
  url: string;
  expect: ResponseKind;
}

const DECODERS: Record<string, (buf: Buffer, o: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body with its Content-Encoding undone (the client asks for none, so identity is expected,
 * but a correctly encoded body is read). A body that is not what its Content-Encoding says, or an
 * encoding HTTP does not define, is a protocol error of the method: returns its reason. Decoding
 * is capped at maxBodyBytes of output.
 */
function decodeBody(encoding: string | undefined, buf: Buffer, maxBodyBytes: number): Buffer | string {
  if (encoding === undefined || buf.length === 0) return buf;
  let out = buf;
  // Codings are listed in the order they were applied: undo them from the last.
  for (const coding of encoding.toLowerCase().split(',').map((c) => c.trim()).filter((c) => c !== '' && c !== 'identity').reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined) return `Content-Encoding ${JSON.stringify(encoding)}: ${JSON.stringify(coding)} is not a content coding the client can read (it asked for none)`;
    try {
      out = decode(out, { maxOutputLength: maxBodyBytes });
    } catch (err) {
      return `Content-Encoding ${JSON.stringify(encoding)}, but the body is not ${coding} data (${err instanceof Error ? err.message : String(err)}); expected a body encoded as labelled, or no Content-Encoding`;
    }
  }
  return out;
}

/** One call's fixed parts, shared by its attempts. */
interface Attempt {
  exchange: Exchange;
  route: Route;
  json: string;
  expect: ResponseKind;
  timeoutMs: number;
  t0: number;
  signal: AbortSignal | undefined;
}

/** Marker errors used to abort a dispatch; never surface to callers. */
class AbortMarker extends Error {}

/** The reason of a call cancelled through CallOptions.signal (after "method: "). */
const CANCELLED = 'request cancelled by the kit';

const EMPTY = Buffer.alloc(0);

/**
 * One in-flight exchange: collects the response through undici's dispatch-handler API and
 * settles exactly once (response complete, failure, body cap passed, or timer).
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  controller: Dispatcher.DispatchController | null = null;
  abortReason: Error | null = null;
  status: number | undefined = undefined;
  headers: Record<string, string | string[] | undefined> | undefined = undefined;
  chunks: Buffer[] = [];
  bytes = 0;
  done = false;
  timedOut = false;
  /** Set when the body cap was passed: the reason text. */
  tooLarge: string | undefined = undefined;
  /** The request went out on a connection that had already carried a complete exchange. */
  reused = false;

  constructor(
    private readonly maxBodyBytes: number,
    /** performance.now() by which the whole exchange must be over. */
    readonly deadline: number,
    /** CallOptions.signal: aborting it cancels the exchange. */
    readonly signal: AbortSignal | undefined,
    private readonly settle: (h: ExchangeHandler, err: unknown) => void,
    /** Whether the connection undici writes this request on has served an exchange before. */
    private readonly connectionServed: () => boolean,
  ) {}

  /** The deadline passed: the exchange ends as a timeout. */
  expire(): void {
    if (this.done) return;
    this.timedOut = true;
    this.finish(new AbortMarker('timeout'));
    this.abort(new AbortMarker('timeout'));
  }

  /** The caller's signal was aborted. */
  cancel(): void {
    if (this.done) return;
    this.finish(new AbortMarker(CANCELLED));
    this.abort(new AbortMarker(CANCELLED));
  }

  abort(reason: Error): void {
    if (this.abortReason === null) this.abortReason = reason;
    if (this.controller !== null && !this.controller.aborted) {
      try {
        this.controller.abort(reason);
      } catch {
        /* the exchange is over either way */
      }
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // undici starts a request when it writes it to a connected socket.
    this.reused = this.connectionServed();
    if (this.abortReason !== null) controller.abort(this.abortReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200 || this.done) return; // 1xx informational: wait for the real response
    this.status = statusCode;
    this.headers = headers;
    const cl = headerString(headers['content-length']);
    if (cl !== undefined && Number(cl) > this.maxBodyBytes) {
      this.tooLarge = `response body too large: Content-Length ${cl} exceeds the limit of ${this.maxBodyBytes} bytes`;
      this.finish(null);
      this.abort(new AbortMarker('too large'));
    }
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    const next = this.bytes + chunk.length;
    if (next > this.maxBodyBytes) {
      this.tooLarge =
        `response body too large: more than ${this.maxBodyBytes} bytes received ` +
        `(the limit); the stream was aborted`;
      this.finish(null);
      this.abort(new AbortMarker('too large'));
      return;
    }
    this.chunks.push(chunk);
    this.bytes = next;
  }

  onResponseEnd(): void {
    this.finish(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.finish(err);
  }

  finish(err: unknown): void {
    if (this.done) return;
    this.done = true;
    this.settle(this, err);
  }

  body(): Buffer {
    if (this.chunks.length === 0) return EMPTY;
    if (this.chunks.length === 1) return this.chunks[0] as Buffer;
    return Buffer.concat(this.chunks, this.bytes);
  }
}

export class BridgeClient {
  /** The normalised base URL (origin + base path, no trailing slash). */
  readonly url: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly #evidenceBytes: number | undefined;

  readonly #target: Target;
  readonly #pool: Client | Pool;
  readonly #requestHeaders: Record<string, string>;
  readonly #redacted: Readonly<Record<string, string>>;
  readonly #scrub: ((text: string) => string) | undefined;
  readonly #notify: ((r: CallResult) => CallResult) | undefined;
  readonly #routes = new Map<string, Route>();
  /** Methods that have answered with a success in this client's run: they exist, so a 404 from them is no "not implemented". */
  readonly #answered = new Set<string>();
  /**
   * The exchanges in flight. One timer per client, armed for the earliest deadline among them and
   * left running when a call ends (it re-arms for whatever is in flight when it fires), instead of
   * a timer set and cleared per call; one 'abort' listener per signal, not one per call.
   */
  readonly #inflight = new Set<ExchangeHandler>();
  #timer: NodeJS.Timeout | undefined = undefined;
  #timerAt = Infinity;
  readonly #watched = new WeakSet<AbortSignal>();
  /** The last millisecond #isoNow formatted, and its text: calls come many to a millisecond. */
  #isoMs = NaN;
  #iso = '';
  #count = 0;
  #closed = false;
  /**
   * Exchanges completed since the last new connection: > 0 means the next request goes out on a
   * pooled keep-alive socket, which the server may have closed while idle (see #exchange). With
   * several connections this is per pool, not per socket: a request on a fresh socket of a busy
   * pool may count as reused, which only allows one retry that was not needed.
   */
  #servedSinceConnect = 0;

  constructor(options: BridgeClientOptions) {
    this.#target = parseTarget(options.url);
    this.url = this.#target.origin + this.#target.basePath;
    this.timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.maxBodyBytes = positive('maxBodyBytes', options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES);
    this.#evidenceBytes = options.evidenceBytes;

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

    const connections = positive('connections', options.connections, 1);
    const socketOptions = {
      pipelining: 1,
      connectTimeout: this.timeoutMs,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    };
    // One connection is an undici Client itself: a Pool of one hands its socket back a turn after
    // each response, so every next sequential call would queue in the Pool for it.
    this.#pool =
      connections === 1
        ? new Client(this.#target.origin, socketOptions)
        : new Pool(this.#target.origin, { ...socketOptions, connections });
    for (const name of Object.keys(METHODS)) this.#routes.set(name, this.#makeRoute(name));
    this.#pool.on('connect', () => {
      this.#servedSinceConnect = 0;
    });
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
    const timeoutMs = opts?.timeoutMs ?? this.timeoutMs;
    const t0 = performance.now();
    const requestBody = omitNulls(params);

    const exchange: Exchange = {
      method,
      url: route.url,
      requestBody,
      requestHeaders: this.#redacted,
      durationMs: 0,
      startedAt: this.#isoNow(),
    };

    const signal = opts?.signal;
    if (signal?.aborted) {
      const reason = `${method}: ${CANCELLED}`;
      return Promise.resolve(this.#complete(exchange, t0, { kind: 'transport', failure: 'other', reason }));
    }
    if (this.#closed) {
      const reason = `${method}: the bridge client is closed`;
      return Promise.resolve(this.#complete(exchange, t0, { kind: 'transport', failure: 'other', reason }));
    }
    let json: string;
    if (opts?.rawBody !== undefined) exchange.requestText = opts.rawBody;
    try {
      json = opts?.rawBody ?? JSON.stringify(requestBody);
    } catch (err) {
      const reason = `${method}: the request body cannot be serialised as JSON (${err instanceof Error ? err.message : String(err)})`;
      return Promise.resolve(this.#complete(exchange, t0, { kind: 'transport', failure: 'other', reason }));
    }

    return this.#attempt({ exchange, route, json, expect, timeoutMs, t0, signal }, false);
  }

  /**
   * Sends the request once. A request that went out on a reused keep-alive socket and failed with
   * a reset before any response byte is sent once more, on a fresh connection: a server may close
   * an idle connection at any time (RFC 9112 §9.6), and the request then never reached it. This is
   * what browsers and HTTP clients do; the retry is recorded in the evidence (Exchange.retried).
   * The retry shares the call's deadline, so a call is still bounded by its timeout.
   */
  #attempt(a: Attempt, retried: boolean): Promise<CallResult> {
    const { exchange, route, json, expect, timeoutMs, t0, signal } = a;
    const method = exchange.method;
    return new Promise<CallResult>((resolve) => {
      const handler = new ExchangeHandler(this.maxBodyBytes, t0 + timeoutMs, signal, (h, err) => {
        this.#inflight.delete(h);
        if (h.status !== undefined && (err === null || err === undefined)) this.#servedSinceConnect++;
        // This runs inside undici's callbacks: nothing may throw out of it, or the call would hang.
        let result: CallResult;
        try {
          result = this.#settle(exchange, t0, expect, timeoutMs, h, err);
        } catch (e) {
          const reason = `${method}: internal error of the bridge client (${e instanceof Error ? e.message : String(e)})`;
          result = { outcome: { kind: 'transport', failure: 'other', reason }, exchange };
        }
        const { outcome } = result;
        if (!retried && h.reused && h.status === undefined && h.bytes === 0 && outcome.kind === 'transport' && outcome.failure === 'reset' && !this.#closed) {
          exchange.retried = `the reused keep-alive connection failed before any response (${outcome.reason}); sent again on a fresh connection`;
          delete exchange.transportError;
          resolve(this.#attempt(a, true));
          return;
        }
        resolve(result);
      }, () => this.#servedSinceConnect > 0);
      this.#inflight.add(handler);
      if (signal !== undefined) this.#watch(signal);
      this.#arm(handler.deadline);
      try {
        this.#pool.dispatch(
          {
            path: route.path,
            method: 'POST',
            headers: this.#requestHeaders,
            body: json,
            headersTimeout: timeoutMs,
            bodyTimeout: timeoutMs,
          },
          handler,
        );
      } catch (err) {
        handler.finish(err);
      }
    });
  }

  /** The current time as ISO 8601 text (Date.toISOString), formatted once per millisecond. */
  #isoNow(): string {
    const ms = Date.now();
    if (ms !== this.#isoMs) {
      this.#isoMs = ms;
      this.#iso = new Date(ms).toISOString();
    }
    return this.#iso;
  }

  /** Makes sure the timer fires by `deadline`. */
  #arm(deadline: number): void {
    if (deadline >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = deadline;
    // Unref'd: an exchange in flight keeps the process alive by its socket; an idle client must not.
    this.#timer = setTimeout(this.#onTimer, Math.max(1, Math.ceil(deadline - performance.now()))).unref();
  }

  readonly #onTimer = (): void => {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    // Timers fire on the loop's millisecond clock: a deadline less than 1 ms away counts as passed.
    const now = performance.now() + 1;
    let next = Infinity;
    for (const h of this.#inflight) {
      if (h.deadline <= now) h.expire();
      else if (h.deadline < next) next = h.deadline;
    }
    if (next !== Infinity) this.#arm(next);
  };

  /** One listener per signal: aborting it cancels every exchange in flight under it. */
  #watch(signal: AbortSignal): void {
    if (this.#watched.has(signal)) return;
    this.#watched.add(signal);
    signal.addEventListener(
      'abort',
      () => {
        for (const h of this.#inflight) if (h.signal === signal) h.cancel();
      },
      { once: true },
    );
  }

  #settle(
    exchange: Exchange,
    t0: number,
    expect: ResponseKind,
    timeoutMs: number,
    h: ExchangeHandler,
    err: unknown,
  ): CallResult {
    let outcome: Outcome;
    const buf = h.body();
    const text = h.bytes === 0 ? '' : buf.toString('utf8');
    if (h.status !== undefined) {
      exchange.status = h.status;
      const ct = h.headers === undefined ? undefined : headerString(h.headers['content-type']);
      if (ct !== undefined) exchange.contentType = ct;
      exchange.responseBytes = h.bytes;
      exchange.responseText = displayText(buf, text, this.#evidenceBytes);
    }
    if (h.tooLarge !== undefined) {
      outcome = { kind: 'transport', failure: 'too-large', reason: h.tooLarge };
    } else if (err !== null && err !== undefined) {
      outcome = classifyFailure(err, {
        method: exchange.method,
        url: exchange.url,
        origin: this.#target.origin,
        host: this.#target.host,
        timeoutMs,
        timedOut: h.timedOut,
        status: h.status,
        bytes: h.bytes,
        declaredBytes: h.headers === undefined ? undefined : declaredLength(headerString(h.headers['content-length'])),
      });
    } else if (h.status === undefined) {
      outcome = { kind: 'transport', failure: 'other', reason: `${exchange.method}: the connection ended without a response` };
    } else {
      const headers = h.headers ?? {};
      const decoded = decodeBody(headerString(headers['content-encoding']), buf, this.maxBodyBytes);
      if (typeof decoded === 'string') return this.#complete(exchange, t0, { kind: 'violation', reason: decoded });
      outcome = classifyResponse(expect, {
        status: h.status,
        text: decoded === buf ? text : decoded.toString('utf8'),
        bytes: h.bytes,
        location: headerString(headers['location']),
        retryAfter: headerString(headers['retry-after']),
      });
    }
    return this.#complete(exchange, t0, outcome);
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
        reason: `${outcome.reason.replace(/^not implemented: /, '').replace(/ \(if the method exists, [^)]*\)$/, '')}, though ${exchange.method} answered earlier in this run: the method exists, so this is a protocol error, not a missing method (a lookup that finds nothing answers 200 null)`,
      };
    } else if (outcome.kind !== 'violation' && outcome.kind !== 'transport' && outcome.kind !== 'error') {
      this.#answered.add(exchange.method);
    }
    return { outcome, exchange };
  }

  /** Closes the pool: waits for in-flight calls, then closes the sockets. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#inflight.size === 0 && this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#timerAt = Infinity;
    }
    if (this.#pool.closed || this.#pool.destroyed) return;
    await this.#pool.close();
  }
}
