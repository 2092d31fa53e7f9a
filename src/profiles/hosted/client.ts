// The HTTP client of the hosted profile: any method and path, with a credential, over one shared
// HTTP transport per origin (the service's, and any other a discovery document points at; see
// ../http/transport.ts: phased timeouts, body cap, stale keep-alive sockets, Content-Encoding).
// Every exchange is recorded as the engine's evidence record (src/engine/evidence.ts) plus the
// HTTP method and a label of the credential it carried.
//
// Secrets never reach the evidence. The client knows every secret it has been given (the run's
// API key, access token and identity-provider tokens) and learns those it sees: every credential
// it sends, and every value of a secret-bearing field (key, access_token, refresh_token, …) in a
// request or an answer. Each is replaced by "***" in the recorded URL, request body and answer
// (makeScrubber), and `scrubValue` does the same to anything else before it is reported.
import type { TransportOutcome } from '../http/failure.js';
import { HttpTransport, isoNow } from '../http/transport.js';
import type { Exchange } from '../../engine/evidence.js';
import { DEFAULT_LIMITS } from '../../util/limits.js';
import { makeScrubber } from '../http/headers.js';
import type { HttpMethod } from '../../protocols/hosted/document.js';

/** A hosted exchange: the bridge's evidence record plus its HTTP method and credential label. */
export interface RestExchange extends Exchange {
  /** GET, POST, PUT or DELETE; `method` holds the operation (e.g. list_conversations). */
  httpMethod: string;
  /** Which credential the request carried, in words (never its value). */
  credential?: string;
}

type RestOutcome =
  | { kind: 'answer'; status: number; text: string; json: unknown; isJson: boolean; contentType: string | undefined; headers: Readonly<Record<string, string>> }
  | TransportOutcome;

interface RestResult {
  outcome: RestOutcome;
  exchange: RestExchange;
}

interface RestRequest {
  method: HttpMethod;
  /** Absolute URL. */
  url: string;
  /** The operation named in the evidence (e.g. create_api_key, or "discovery"). */
  operation: string;
  /** A JSON body (GET and DELETE send none). */
  body?: Record<string, unknown>;
  /** The whole Authorization header value; none when undefined. */
  authorization?: string;
  /** The credential in words, for the evidence. */
  credential?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface RestClientOptions {
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** Called with every exchange (already scrubbed) as it completes. */
  onExchange?: (exchange: RestExchange) => void;
}

/** Field names whose string values are credentials, in requests and answers alike. */
const SECRET_FIELDS = new Set([
  'key', 'apiKey', 'api_key', 'plaintext', 'secret',
  'access_token', 'accessToken', 'refresh_token', 'refreshToken', 'id_token', 'idToken',
  'token', 'subjectToken', 'subject_token', 'identityToken',
]);
/** Shorter values are not treated as secrets (they would mangle the evidence). */
const MIN_SECRET_LENGTH = 8;

export class RestClient {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly #transports = new Map<string, HttpTransport>();
  readonly #secrets = new Set<string>();
  /** Where a secret was first seen in an answer: the exchange and the value's jq path. */
  readonly #issued = new Map<string, { exchange: RestExchange; path: string }>();
  #scrubber: ((text: string) => string) | undefined;
  #stale = false;
  #closed = false;

  constructor(private readonly options: RestClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LIMITS.requestTimeoutMs;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  }

  /** Remembers secrets: from now on they are scrubbed from everything recorded. */
  learn(...values: (string | undefined)[]): void {
    for (const v of values) {
      if (typeof v === 'string' && v.length >= MIN_SECRET_LENGTH && !this.#secrets.has(v)) {
        this.#secrets.add(v);
        this.#stale = true;
      }
    }
  }

  /** Every value of a secret-bearing field anywhere in a JSON value (an answer of `exchange`, when given). */
  learnFrom(value: unknown, exchange?: RestExchange, path = ''): void {
    if (path.length > 2048 || value === null || typeof value !== 'object') return;
    for (const [name, inner] of Object.entries(value)) {
      const where = Array.isArray(value) ? `${path}[${name}]` : /^[A-Za-z_]\w*$/.test(name) ? `${path}.${name}` : `${path}[${JSON.stringify(name)}]`;
      if (typeof inner === 'string' && SECRET_FIELDS.has(name)) {
        this.learn(inner);
        if (exchange !== undefined && !this.#issued.has(inner)) this.#issued.set(inner, { exchange, path: where });
      } else this.learnFrom(inner, exchange, where);
    }
  }

  /** The answer that first handed out a secret, and where in it (for reproductions). */
  issuerOf(secret: string): { exchange: RestExchange; path: string } | undefined {
    return this.#issued.get(secret);
  }

  /** The text with every known secret replaced by "***". */
  scrub(text: string): string {
    if (this.#stale) {
      this.#scrubber = makeScrubber(Object.fromEntries([...this.#secrets].map((v, i) => [`s${i}`, v])));
      this.#stale = false;
    }
    return this.#scrubber === undefined ? text : this.#scrubber(text);
  }

  /** A copy of any JSON-like value with every known secret scrubbed from its strings. */
  scrubValue<T>(value: T, depth = 0): T {
    if (typeof value === 'string') return this.scrub(value) as T;
    if (depth > 64 || value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v, depth + 1)) as T;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrubValue(v, depth + 1)])) as T;
  }

  #transport(origin: string): HttpTransport {
    let transport = this.#transports.get(origin);
    if (transport === undefined) {
      transport = new HttpTransport({
        origin,
        timeoutMs: this.timeoutMs,
        maxBodyBytes: this.maxBodyBytes,
        connections: 4,
        keepAliveTimeoutMs: DEFAULT_LIMITS.keepAliveMs,
        name: 'the client',
      });
      this.#transports.set(origin, transport);
    }
    return transport;
  }

  /** Sends one request; never rejects for anything the server or the network does. */
  async request(req: RestRequest): Promise<RestResult> {
    const started = performance.now();
    const url = new URL(req.url);
    if (req.authorization !== undefined) this.learn(req.authorization.replace(/^\S+\s+/, ''));
    if (req.body !== undefined) this.learnFrom(req.body);
    const exchange: RestExchange = {
      method: req.operation,
      httpMethod: req.method,
      url: this.scrub(url.href),
      requestBody: this.scrubValue(req.body ?? {}),
      requestHeaders: req.authorization === undefined ? {} : { authorization: '***' },
      ...(req.credential !== undefined ? { credential: req.credential } : {}),
      durationMs: 0,
      startedAt: isoNow(),
    };
    // The transport records the answer as received: it is scrubbed here, once the secrets in it are learned.
    const finish = (outcome: RestOutcome): RestResult => {
      exchange.durationMs = performance.now() - started;
      if (exchange.responseText !== undefined) exchange.responseText = this.scrub(exchange.responseText);
      if (outcome.kind === 'transport') {
        outcome.reason = this.scrub(outcome.reason);
        exchange.transportError = outcome.reason;
      }
      this.options.onExchange?.(exchange);
      return { outcome, exchange };
    };
    if (this.#closed) return finish({ kind: 'transport', failure: 'other', reason: `${req.operation}: the client is closed` });

    const headers: Record<string, string> = { accept: 'application/json' };
    if (req.authorization !== undefined) headers.authorization = req.authorization;
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const r = await this.#transport(url.origin).send(exchange, {
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
      ...(req.timeoutMs !== undefined ? { timeoutMs: req.timeoutMs } : {}),
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
    }, started);
    if (r.kind === 'transport') return finish(r);
    // A body that is not what its Content-Encoding says has no text a scenario could judge.
    if (r.kind === 'undecodable') return finish({ kind: 'transport', failure: 'other', reason: `${req.operation}: ${r.reason}` });
    const { status, text } = r;
    const contentType = r.headers['content-type'];
    let json: unknown;
    let isJson = false;
    if (text.trim() !== '') {
      try {
        json = JSON.parse(text);
        isJson = true;
      } catch {
        /* not JSON: the scenario judges */
      }
    }
    if (isJson) this.learnFrom(json, exchange);
    return finish({ kind: 'answer', status, text, json, isJson, contentType, headers: r.headers });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#transports.values()].map((t) => t.close()));
  }
}
