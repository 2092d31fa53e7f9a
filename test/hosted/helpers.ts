// Shared helpers of the hosted tests: a service with a manual clock and an in-memory development
// identity provider, a small HTTP client, and the camelCase rule.
import { DevIdentityProvider, HostedStore, startHostedServer, type HostedServerOptions, type RunningHostedServer } from '../../src/servers/hosted/index.js';

export class ManualClock {
  constructor(public current = new Date('2030-01-01T00:00:00.000Z')) {}
  readonly now = (): Date => new Date(this.current.getTime());
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface Answer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  /** The Bearer credential; null sends no Authorization header. */
  token?: string | null;
  /** A raw Authorization header value (wins over token). */
  authorization?: string;
  body?: unknown;
  form?: Record<string, string>;
}

export async function request(url: string, method: string, opts: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (opts.authorization !== undefined) headers.authorization = opts.authorization;
  else if (opts.token != null) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  } else if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  const res = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export interface Service {
  hosted: RunningHostedServer;
  idp: DevIdentityProvider;
  clock: ManualClock;
  store: HostedStore;
  /** A request to base URL + path (path under /v1), with the bootstrap key unless told otherwise. */
  call(method: string, path: string, opts?: CallOptions): Promise<Answer>;
  /** Store and key table, for "nothing changed". */
  state(): string;
  close(): Promise<void>;
}

let sharedIdp: Promise<DevIdentityProvider> | undefined;
export const testIdp = () => (sharedIdp ??= DevIdentityProvider.generate());

export async function startService(options: HostedServerOptions = {}): Promise<Service> {
  const clock = new ManualClock();
  const idp = await testIdp();
  const store = options.store ?? new HostedStore({ now: clock.now });
  const hosted = await startHostedServer({ clock: clock.now, identityProviders: [idp.trustedIssuer()], ...options, store });
  return {
    hosted,
    idp,
    clock,
    store,
    call: (method, path, opts = {}) => request(`${hosted.baseUrl}${path}`, method, { token: hosted.apiKey, ...opts }),
    state: () => JSON.stringify({ store: store.snapshot(), keys: [...hosted.keys.workspaces].map((w) => hosted.keys.list(w)) }),
    close: () => hosted.close(),
  };
}

/** Exchanges a fresh development token of the service's IdP for a token pair. */
/**
 * Tokens an hour past their exp, as a vendor gives them (--expired-token, --expired-idp-token): an
 * access token the service signed and a token of its identity provider.
 */
export async function expiredTokens(server: RunningHostedServer, provider: DevIdentityProvider): Promise<{ expiredToken: string; expiredIdpToken: string }> {
  const past = (lifetimeMs: number) => new Date(Date.now() - lifetimeMs - 3_600_000);
  return {
    expiredToken: await server.tokens.accessTokenIssuedAt({ subject: 'expired', workspaceId: server.workspaceId, scopes: ['read', 'write'] }, past(server.tokens.accessTtl * 1000)),
    expiredIdpToken: await provider.mint({ workspaceId: server.workspaceId, ttlSeconds: 600, now: past(600_000) }),
  };
}

export async function exchange(s: Service, mint: Parameters<DevIdentityProvider['mint']>[0] = {}) {
  const subjectToken = await s.idp.mint({ now: s.clock.now(), ...mint });
  const r = await request(`${s.hosted.baseUrl}/auth/exchange`, 'POST', { token: null, body: { subjectToken } });
  if (r.status !== 200) throw new Error(`exchange failed: ${r.status} ${r.text}`);
  return r.body as { access_token: string; refresh_token: string; expires_in: number };
}

/** Values that are the caller's own data: their inner names are not field names of the interface. */
const OPAQUE = new Set(['metadata', 'arguments', 'result', 'properties', 'feedback', 'details', 'records', 'parameters']);
const CAMEL = /^[a-z][a-zA-Z0-9]*$/;

/** Every field name that is not camelCase, as a JSON path. */
export function nonCamelFields(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => nonCamelFields(v, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(CAMEL.test(k) ? [] : [`${path}.${k}`]),
    ...(OPAQUE.has(k) ? [] : nonCamelFields(v, `${path}.${k}`)),
  ]);
}
