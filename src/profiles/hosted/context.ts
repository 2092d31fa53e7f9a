// The context of a hosted scenario: HTTP calls under the service's base URL (or at its origin)
// with a chosen credential, each recorded as evidence, plus the engine's checks, notes and skip.
// Like the bridge's Recorder, a call that gets no answer at all ends the scenario as an error
// (TransportFault); every answer, whatever its status or body, is the scenario's to judge.
import type { Exchange } from '../../engine/evidence.js';
import { shellQuote } from '../../report/repro.js';
import { check, type Check } from '../../engine/assert.js';
import { SkipScenario, TransportFault } from '../../engine/faults.js';
import type { CallScope, RunContext } from '../../engine/runner.js';
import type { RestClient, RestExchange } from './client.js';
import { operationOf, type HttpMethod } from '../../protocols/hosted/document.js';

/** What a request carries in its Authorization header, and how the evidence names it. */
export interface Credential {
  /** The whole header value; undefined sends no Authorization header. */
  authorization?: string;
  /** In words, never the value: "the run's API key", "no credential", … */
  label: string;
  /** For reproductions: a shell expression of the header value (never the value itself). */
  repro?: string;
}

/** Per recorded exchange, the shell expression of its Authorization value (see repro.ts). */
const reproOfExchange = new WeakMap<RestExchange, string>();
export const credentialRepro = (exchange: RestExchange): string | undefined => reproOfExchange.get(exchange);

/** The Authorization value of a reproduction, from the environment variable that holds the credential. */
export const fromEnv = (name: string, what: string): string => `"Bearer \${${name}:?set ${name} to ${what.replace(/['"`$\\{}]/g, '')}}"`;

export const NO_CREDENTIAL: Credential = { label: 'no credential' };

/** The service under test, as the scenarios see it. */
export interface HostedTarget {
  /** The REST base URL, e.g. https://memory.example.com/v1. */
  baseUrl: string;
  /** Its origin: where the discovery documents are. */
  origin: string;
  embedded: boolean;
  /** The run's credential, sent when a call names no other. */
  credential: Credential;
  /** Which kind the run's credential is. */
  credentialKind: 'api-key' | 'access-token';
  /** The run's API key (plaintext), when it has one. */
  apiKey?: string;
  /** The run's access token, when it has one. */
  accessToken?: string;
  /** The workspace of the run's credential, when known (given, or learned at setup). */
  workspaceId?: string;
  /** An API key of another workspace, when given. */
  otherApiKey?: string;
  /** A fresh identity-provider token for the exchange; undefined when the run has none. */
  idpToken?: () => Promise<string>;
  /** An access token of the service past its exp, when the run has one. */
  expiredToken?: string;
  /** An identity-provider token past its exp, when the run has one. */
  expiredIdpToken?: string;
}

/** An answer as a scenario judges it: status, raw text, and the body parsed when it is JSON. */
export interface Answer {
  /** "GET /conversations/…", as sent (for messages). */
  request: string;
  operation: string;
  status: number;
  /** The body as received (unscrubbed: scenarios compare plaintexts; never put it in a message). */
  text: string;
  json: unknown;
  isJson: boolean;
  contentType: string | undefined;
  /** The response headers, lowercase names, repeated ones joined by ", " (WWW-Authenticate is judged). */
  headers: Readonly<Record<string, string>>;
}

export interface CallOptions {
  body?: Record<string, unknown>;
  /** The credential to send (default: the run's). */
  as?: Credential;
  /** The operation named in the evidence (default: the document's, from method and path). */
  operation?: string;
}

export interface HostedContext {
  readonly target: HostedTarget;
  readonly check: Check;
  /** A request under the base URL; `path` may carry a query. */
  call(method: HttpMethod, path: string, opts?: CallOptions): Promise<Answer>;
  /** A GET of an origin path (/.well-known/…) or an absolute URL, without credential unless `as` says. */
  fetch(pathOrUrl: string, opts?: Omit<CallOptions, 'body'>): Promise<Answer>;
  /** A Bearer credential; its value becomes a secret of the run (scrubbed from every output). */
  bearer(value: string, label: string): Credential;
  /** After the scenario, pass or fail, this request is sent (not recorded): cleanup of what it created. */
  defer(method: HttpMethod, path: string, as?: Credential): void;
  /** Ends the scenario as skipped; `needs`: the flag of the input the run lacked (the group is then incomplete, not failed). */
  skip(reason: string, needs?: string): never;
  note(text: string): void;
  readonly exchanges: readonly Exchange[];
}

const CLEANUP_TIMEOUT_MS = 5_000;

export class HostedRecorder implements HostedContext, RunContext {
  readonly exchanges: RestExchange[] = [];
  readonly notes: string[] = [];
  readonly check = check;
  private readonly deferred: { method: HttpMethod; path: string; as: Credential }[] = [];
  private stopped = false;

  constructor(
    private readonly client: RestClient,
    readonly target: HostedTarget,
    private readonly scope: CallScope,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  skip(reason: string, needs?: string): never {
    throw new SkipScenario(reason, needs);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  bearer(value: string, label: string): Credential {
    this.client.learn(value);
    const t = this.target;
    const issuer = this.client.issuerOf(value);
    const n = issuer === undefined ? -1 : this.exchanges.indexOf(issuer.exchange);
    const repro =
      value === t.apiKey ? fromEnv('TCK_API_KEY', "the run's API key")
      : value === t.accessToken ? fromEnv('TCK_TOKEN', "the run's access token")
      : value === t.otherApiKey ? fromEnv('TCK_OTHER_API_KEY', 'an API key of another workspace')
      : n >= 0 ? `"Bearer $(pick ${n} ${shellQuote(issuer!.path)})"`
      : fromEnv('TCK_CREDENTIAL', label);
    return { authorization: `Bearer ${value}`, label, repro };
  }

  call(method: HttpMethod, path: string, opts: CallOptions = {}): Promise<Answer> {
    const operation = opts.operation ?? operationOf(method, path) ?? `${method} ${path.split('?')[0]}`;
    return this.send(method, `${this.target.baseUrl}${path}`, operation, opts.as ?? this.target.credential, opts.body);
  }

  fetch(pathOrUrl: string, opts: Omit<CallOptions, 'body'> = {}): Promise<Answer> {
    const url = /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${this.target.origin}${pathOrUrl}`;
    return this.send('GET', url, opts.operation ?? 'discovery', opts.as ?? NO_CREDENTIAL);
  }

  defer(method: HttpMethod, path: string, as: Credential = this.target.credential): void {
    this.deferred.push({ method, path, as });
  }

  /** Sends what was deferred, last first; answers and failures are of no interest. */
  async cleanup(): Promise<void> {
    for (const d of this.deferred.splice(0).reverse()) {
      await this.client.request({
        method: d.method,
        url: `${this.target.baseUrl}${d.path}`,
        operation: `cleanup: ${d.method} ${d.path}`,
        ...(d.as.authorization !== undefined ? { authorization: d.as.authorization } : {}),
        timeoutMs: CLEANUP_TIMEOUT_MS,
      });
    }
  }

  private async send(method: HttpMethod, url: string, operation: string, as: Credential, body?: Record<string, unknown>): Promise<Answer> {
    if (this.stopped) throw new SkipScenario('scenario stopped');
    const result = this.scope.observe(
      await this.client.request({
        method, url, operation,
        ...(body !== undefined ? { body } : {}),
        ...(as.authorization !== undefined ? { authorization: as.authorization } : {}),
        credential: as.label,
        signal: this.scope.signal,
      }),
    );
    this.exchanges.push(result.exchange);
    if (as.authorization !== undefined) reproOfExchange.set(result.exchange, as.repro ?? fromEnv('TCK_CREDENTIAL', as.label));
    const { outcome } = result;
    if (outcome.kind === 'transport') throw new TransportFault(operation, outcome.failure, outcome.reason);
    const u = new URL(url);
    return {
      request: `${method} ${u.origin === this.target.origin ? '' : u.origin}${u.pathname}`,
      operation,
      status: outcome.status,
      text: outcome.text,
      json: outcome.json,
      isJson: outcome.isJson,
      contentType: outcome.contentType,
      headers: outcome.headers,
    };
  }
}
