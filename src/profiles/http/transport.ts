// One HTTP transport for every profile's client: it sends one request to one origin and reads
// its answer, and records what came back into the engine's Exchange record. The bridge client
// (POST /{method}, classified against the method's response kind) and the hosted REST client
// (any verb and path, credentials, secrets) are thin layers over it.
//
// `send` never rejects for anything the server or the network does: it resolves to an
// HttpOutcome. What it guarantees, whoever calls it:
// - Bounded time, in phases. undici bounds connecting, waiting for the response headers and each
//   gap in the body by the request's timeout; one timer per transport also bounds the whole
//   exchange by it, so a server that dribbles bytes cannot hold a request past its timeout.
//   A timeout's reason says the phase: no response at all, or a response not complete (status
//   received, then so many bytes of body).
// - Bounded size. A Content-Length over maxBodyBytes is refused before its body is read; a body
//   that grows past it is aborted as it arrives; decoding a Content-Encoding stops at it too.
// - Stale pooled sockets. A request that went out on a reused keep-alive socket and failed with a
//   reset before any response byte is sent once more, on a fresh connection (in a pool, on another
//   one, at most once per connection): a server may close an idle connection at any time
//   (RFC 9112 §9.6). The Exchange says so (Exchange.retried).
// - Content-Encoding. The client asks for none; a body correctly encoded as labelled is decoded,
//   one that is not what its label says (or an unknown coding) is reported as such.
//
// The request is driven through undici's dispatch-handler API (no response stream object per
// request); undici 7 is the only HTTP library. Its Client and Pool are imported from their own
// files: undici's index loads all of undici (fetch, WebSocket, proxies, mocks, caches), which was
// a fifth of a cold `tck run`'s module loading for two classes (docs/performance.md).
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Client from 'undici/lib/dispatcher/client.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import type { Dispatcher } from 'undici';
import { displayText, type Exchange } from '../../engine/evidence.js';
import { classifyFailure, type TransportOutcome } from './failure.js';

interface TransportOptions {
  /** Scheme, host and port: every request of this transport goes there. */
  origin: string;
  /** The default bound on each exchange (connect, headers, body); a request may set its own. */
  timeoutMs: number;
  /** Largest response body accepted, before and after decoding. */
  maxBodyBytes: number;
  /**
   * Most sockets kept to the origin. With 1, requests share one keep-alive connection and
   * concurrent ones queue (their timers run while queued). (With undici's Pool and an unbounded
   * count, strictly sequential requests alternate between two sockets, because a socket is
   * handed back one event-loop turn after its response ends; a bound of 1 keeps them on one.)
   */
  connections: number;
  /**
   * Requests in flight on each socket (HTTP/1.1 pipelining; default 1). Above 1, a POST is sent
   * behind the ones still unanswered on its socket: undici otherwise holds a request that is not
   * idempotent, or that may block the pipeline, until the socket is free.
   */
  pipelining?: number;
  /** How long an idle socket is kept (undici's default when undefined). */
  keepAliveTimeoutMs?: number;
  /** How much of each response body the evidence keeps (default: displayText's). */
  evidenceBytes?: number;
  /** The client, as a request sent after close names it ("the bridge client is closed"). */
  name: string;
}

interface HttpRequest {
  /** GET, POST, … */
  method: string;
  /** Path and query, starting with "/". */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Bound on the whole exchange, retry included; default: the transport's. */
  timeoutMs?: number;
  /** Aborting it cancels the request (it resolves as a transport failure). */
  signal?: AbortSignal;
}

/** What one request came to. `transport` is the classified failure to get a complete answer. */
export type HttpOutcome =
  | {
      kind: 'response';
      status: number;
      /** Response headers, lowercase names, repeated ones joined by ", ". */
      headers: Readonly<Record<string, string>>;
      /** The body with its Content-Encoding undone, as UTF-8 text. */
      text: string;
      /** Body bytes received (before decoding). */
      bytes: number;
    }
  /** A complete response whose body is not what its Content-Encoding says: `reason` says why. */
  | { kind: 'undecodable'; status: number; reason: string }
  | TransportOutcome;

/** The reason of a request cancelled through HttpRequest.signal (after "operation: "). */
const CANCELLED = 'request cancelled by the kit';

const EMPTY = Buffer.alloc(0);

const DECODERS: Record<string, (buf: Buffer, o: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * The body with its Content-Encoding undone (the client asks for none, so identity is expected,
 * but a correctly encoded body is read). A body that is not what its Content-Encoding says, or an
 * encoding HTTP does not define, returns its reason. Decoding is capped at maxBodyBytes of output.
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
      if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        return `Content-Encoding ${JSON.stringify(encoding)}: the decoded body is larger than the limit of ${maxBodyBytes} bytes`;
      }
      return `Content-Encoding ${JSON.stringify(encoding)}, but the body is not ${coding} data (${err instanceof Error ? err.message : String(err)}); expected a body encoded as labelled, or no Content-Encoding`;
    }
  }
  return out;
}

function headerString(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A Content-Length header as a number, when it is one. */
function declaredLength(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

/** The last millisecond isoNow formatted, and its text: requests come many to a millisecond. */
let isoMs = NaN;
let iso = '';

/** The current time as ISO 8601 text (Date.toISOString), formatted once per millisecond. */
export function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    iso = new Date(ms).toISOString();
  }
  return iso;
}

/** The handler of each request, by its dispatch options (a Pool hands the same object to the Client it picks). */
const handlerOf = new WeakMap<object, ExchangeHandler>();

/**
 * An undici Client (one connection, reconnected when lost) that counts the exchanges completed
 * since it last connected: > 0 means a request it starts goes out on a reused keep-alive socket,
 * which the server may have closed while idle (see HttpTransport.#attempt).
 */
class TrackedClient extends Client {
  served = 0;

  constructor(origin: string | URL, options: Client.Options) {
    super(origin, options);
    this.on('connect', () => {
      this.served = 0;
    });
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const h = handlerOf.get(options);
    if (h !== undefined) h.client = this;
    return super.dispatch(options, handler);
  }
}

/** Marker errors used to abort a dispatch; never surface to callers. */
class AbortMarker extends Error {}

/**
 * One in-flight attempt: collects the response through undici's dispatch-handler API and
 * settles exactly once (response complete, failure, body cap passed, timer or cancellation).
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
    /** HttpRequest.signal: aborting it cancels the exchange. */
    readonly signal: AbortSignal | undefined,
    private readonly settle: (h: ExchangeHandler, err: unknown) => void,
  ) {}

  /** The undici Client (one socket at a time) that took the request; set when it is dispatched there. */
  client: TrackedClient | undefined = undefined;

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
    this.reused = (this.client?.served ?? 0) > 0;
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

export class HttpTransport {
  readonly origin: string;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly #host: string;
  readonly #evidenceBytes: number | undefined;
  readonly #pool: Client | Pool;
  /**
   * The exchanges in flight. One timer per transport, armed for the earliest deadline among them
   * and left running when a request ends (it re-arms for whatever is in flight when it fires),
   * instead of a timer set and cleared per request; one 'abort' listener per signal, not one per
   * request.
   */
  readonly #inflight = new Set<ExchangeHandler>();
  #timer: NodeJS.Timeout | undefined = undefined;
  #timerAt = Infinity;
  readonly #watched = new WeakSet<AbortSignal>();
  #closed = false;
  readonly #name: string;
  readonly #connections: number;
  readonly #pipelined: boolean;
  #connects = 0;

  constructor(options: TransportOptions) {
    const url = new URL(options.origin);
    this.origin = url.origin;
    this.#host = url.hostname;
    this.timeoutMs = options.timeoutMs;
    this.maxBodyBytes = options.maxBodyBytes;
    this.#evidenceBytes = options.evidenceBytes;
    this.#name = options.name;
    this.#connections = options.connections;
    this.#pipelined = (options.pipelining ?? 1) > 1;
    const socketOptions = {
      pipelining: options.pipelining ?? 1,
      connectTimeout: this.timeoutMs,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      ...(options.keepAliveTimeoutMs !== undefined ? { keepAliveTimeout: options.keepAliveTimeoutMs } : {}),
    };
    // One connection is an undici Client itself: a Pool of one hands its socket back a turn after
    // each response, so every next sequential request would queue in the Pool for it.
    // Each connection's own count of exchanges tells a reused socket from a fresh one.
    this.#pool =
      options.connections === 1
        ? new TrackedClient(this.origin, socketOptions)
        : new Pool(this.origin, { ...socketOptions, connections: options.connections, factory: (origin, opts) => new TrackedClient(origin, opts) });
    this.#pool.on('connect', () => void this.#connects++);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** How many connections this transport has opened so far (a connection the server closed and undici opened again counts twice). */
  get connectionsOpened(): number {
    return this.#connects;
  }

  /**
   * Sends `req` and reads its answer, filling the response side of `exchange` (status,
   * contentType, responseBytes, responseText as received, durationMs from `t0`, retried). The
   * exchange's `method` names the operation in failure reasons. Never rejects.
   */
  send(exchange: Exchange, req: HttpRequest, t0 = performance.now()): Promise<HttpOutcome> {
    const operation = exchange.method;
    const failed = (reason: string): Promise<HttpOutcome> => {
      exchange.durationMs = performance.now() - t0;
      return Promise.resolve({ kind: 'transport', failure: 'other', reason });
    };
    if (req.signal?.aborted) return failed(`${operation}: ${CANCELLED}`);
    if (this.#closed) return failed(`${operation}: ${this.#name} is closed`);
    return this.#attempt(exchange, req, req.timeoutMs ?? this.timeoutMs, t0, 0);
  }

  /**
   * Sends the request once. A request that went out on a reused keep-alive socket and failed with
   * a reset before any response byte is sent once more (with one connection, on a fresh one): the
   * request then never reached the server. This is what browsers and HTTP clients do; the retry is recorded in
   * the evidence (Exchange.retried). It shares the request's deadline, so a request is still
   * bounded by its timeout.
   */
  #attempt(exchange: Exchange, req: HttpRequest, timeoutMs: number, t0: number, retries: number): Promise<HttpOutcome> {
    return new Promise<HttpOutcome>((resolve) => {
      const handler = new ExchangeHandler(this.maxBodyBytes, t0 + timeoutMs, req.signal, (h, err) => {
        this.#inflight.delete(h);
        if (h.client !== undefined && h.status !== undefined && (err === null || err === undefined)) h.client.served++;
        // This runs inside undici's callbacks: nothing may throw out of it, or the request would hang.
        let outcome: HttpOutcome;
        try {
          outcome = this.#settle(exchange, timeoutMs, h, err);
        } catch (e) {
          outcome = { kind: 'transport', failure: 'other', reason: `${exchange.method}: internal error of the HTTP transport (${e instanceof Error ? e.message : String(e)})` };
        }
        if (retries < this.#connections && h.reused && h.status === undefined && h.bytes === 0 && outcome.kind === 'transport' && outcome.failure === 'reset' && !this.#closed) {
          // One connection reconnects for the retry; a pool may hand it another idle socket the
          // server closed at the same time, which is retried the same way (once per connection).
          const where = this.#connections === 1 ? 'a fresh connection' : 'another connection';
          exchange.retried =
            retries === 0
              ? `the reused keep-alive connection failed before any response (${outcome.reason}); sent again on ${where}`
              : `${exchange.retried ?? ''}; that one was a reused keep-alive connection too and failed the same way; sent again on ${where}`;
          resolve(this.#attempt(exchange, req, timeoutMs, t0, retries + 1));
          return;
        }
        exchange.durationMs = performance.now() - t0;
        resolve(outcome);
      });
      this.#inflight.add(handler);
      if (req.signal !== undefined) this.#watch(req.signal);
      this.#arm(handler.deadline);
      const options: Dispatcher.DispatchOptions = {
        path: req.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        ...(req.body !== undefined ? { body: req.body } : {}),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        ...(this.#pipelined ? { idempotent: true, blocking: false } : {}),
      };
      handlerOf.set(options, handler);
      try {
        this.#pool.dispatch(options, handler);
      } catch (err) {
        handler.finish(err);
      }
    });
  }

  /** Makes sure the timer fires by `deadline`. */
  #arm(deadline: number): void {
    if (deadline >= this.#timerAt) return;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timerAt = deadline;
    // Unref'd: an exchange in flight keeps the process alive by its socket; an idle transport must not.
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

  #settle(exchange: Exchange, timeoutMs: number, h: ExchangeHandler, err: unknown): HttpOutcome {
    const buf = h.body();
    const text = h.bytes === 0 ? '' : buf.toString('utf8');
    if (h.status !== undefined) {
      exchange.status = h.status;
      const ct = h.headers === undefined ? undefined : headerString(h.headers['content-type']);
      if (ct !== undefined) exchange.contentType = ct;
      exchange.responseBytes = h.bytes;
      exchange.responseText = displayText(buf, text, this.#evidenceBytes);
    }
    if (h.tooLarge !== undefined) return { kind: 'transport', failure: 'too-large', reason: h.tooLarge };
    if (err !== null && err !== undefined) {
      // A cancellation (an AbortMarker with CANCELLED) is named by its message: "operation: request cancelled by the kit".
      return classifyFailure(err, {
        method: exchange.method,
        url: exchange.url,
        origin: this.origin,
        host: this.#host,
        timeoutMs,
        timedOut: h.timedOut,
        status: h.status,
        bytes: h.bytes,
        declaredBytes: h.headers === undefined ? undefined : declaredLength(headerString(h.headers['content-length'])),
      });
    }
    if (h.status === undefined) {
      return { kind: 'transport', failure: 'other', reason: `${exchange.method}: the connection ended without a response` };
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(h.headers ?? {})) {
      const v = headerString(value);
      if (v !== undefined) headers[name] = v;
    }
    const decoded = decodeBody(headers['content-encoding'], buf, this.maxBodyBytes);
    if (typeof decoded === 'string') return { kind: 'undecodable', status: h.status, reason: decoded };
    return { kind: 'response', status: h.status, headers, text: decoded === buf ? text : decoded.toString('utf8'), bytes: h.bytes };
  }

  /** Closes the pool: waits for the requests in flight, then closes the sockets. */
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
