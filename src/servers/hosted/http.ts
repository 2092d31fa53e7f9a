// The HTTP face of the hosted reference service (node:http). Order of checks for a /v1 request:
//   1. credential (except exchange and refresh, whose credential is the token they are given):
//      missing, malformed, unknown, revoked or expired -> 401 {"error"} with a WWW-Authenticate
//      challenge pointing at the protected-resource metadata (RFC 6750 §3, RFC 9728 §5.1);
//   2. route: unknown path -> 404, known path with another method -> 405 (Allow);
//   3. body: JSON object (form-encoded accepted too), over 16 MiB -> 413, malformed -> 400, and
//      nested too deep, holding too many values or a number JSON.parse would change -> 400, all
//      three checked on the bytes before they are parsed (../nesting.ts): before the token
//      exchange looks at the credential a body carries;
//   4. scope: read allows GET and the searches (and read-only queries), every change needs write
//      -> 403 {"error"} with error="insufficient_scope";
//   5. the handler (routes.ts).
// Nothing is read from or written to the store before step 5, so a refused request changes
// nothing. The discovery documents and a small index are served at the origin, without credentials.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES, parseBody } from '../bridge/http.js';
import { BadRequestError } from '../bridge/store.js';
import { ApiKeyRegistry, SCOPES, isRefusal, type Principal, type Refusal, type Scope } from './credentials.js';
import { DevIdentityProvider, TokenService, authorizationServerMetadata, protectedResourceMetadata, type TrustedIssuer } from './oauth.js';
import { ROUTES, type Reply, type Route } from './routes.js';
import { HostedError, HostedStore } from './store.js';
import { createBoundedServer, refuse, type ServerLimits } from '../http-plumbing.js';

const API_PREFIX = '/v1';
const DEFAULT_WORKSPACE = 'default';

export interface HostedServerOptions {
  /** The store (default: a new one). Give the same one to startReferenceServer for the bridge view. */
  store?: HostedStore;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The clock of credentials and tokens (default: the real one); the store has its own. */
  clock?: () => Date;
  /** Plaintext of the bootstrap key (default: a new random one). Must look like `nams_…`. */
  apiKey?: string;
  /** The first workspace, which the bootstrap key belongs to (default "default"). */
  workspaceId?: string;
  /** Identity providers the exchange trusts (default: the local development one, see `tck token`). */
  identityProviders?: readonly TrustedIssuer[];
  /** The origin advertised as issuer and resource (default: http://host:port). */
  publicUrl?: string;
  /** 32 bytes sealing key plaintexts for reveal (default: random, for this process only). */
  revealSecret?: Uint8Array;
  accessTokenTtlSeconds?: number;
  maxBodyBytes?: number;
  /** Connection limits (default SERVER_LIMITS of src/servers/http-plumbing.ts). */
  limits?: Partial<ServerLimits>;
  /** The route table (default ROUTES): tests build faulty services by replacing routes. */
  routes?: readonly Route[];
  /**
   * Sees every request before the service and every reply after it (default: none). `next` runs
   * the service on the request as given (its method, URL and Authorization may be changed; the
   * body is read by the service). Tests build faulty and valid variants with it.
   */
  intercept?: (request: HostedRequest, next: (request: HostedRequest) => Promise<Reply>) => Promise<Reply>;
}

/** What an intercept sees of a request, and may change before the service sees it. */
export interface HostedRequest {
  method: string;
  /** Path and query, e.g. `/v1/conversations?limit=1`. */
  url: string;
  authorization: string | undefined;
}

export interface RunningHostedServer {
  /** The origin, `http://host:port`: discovery documents live here. */
  url: string;
  /** `url` + "/v1": the REST interface. */
  baseUrl: string;
  port: number;
  store: HostedStore;
  /** The bootstrap key's plaintext and id, and its workspace. */
  apiKey: string;
  apiKeyId: string;
  workspaceId: string;
  keys: ApiKeyRegistry;
  tokens: TokenService;
  close(): Promise<void>;
}

/** Every endpoint of the document's tables: [HTTP method, path under /v1, operation]. */
export const HOSTED_ENDPOINTS: readonly (readonly [Route['method'], string, string])[] = ROUTES.map((r) => [r.method, r.path.replace(/:(\w+)/g, '{$1}'), r.operation] as const);

type Matched = { route: Route; params: Record<string, string> } | { status: 404 | 405; allow?: string } | { status: 400; error: string };

function matchRoute(method: string, path: string, routes: readonly Route[]): Matched {
  const segments = path.split('/').slice(1);
  let best: { literals: number; routes: { route: Route; params: Record<string, string> }[] } | undefined;
  for (const route of routes) {
    const pattern = route.path.split('/').slice(1);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let literals = 0;
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const p = pattern[i]!;
      const s = segments[i]!;
      if (p.startsWith(':')) {
        if (s === '') ok = false;
        else {
          try {
            params[p.slice(1)] = decodeURIComponent(s);
          } catch {
            return { status: 400, error: `path segment ${JSON.stringify(s)} is not valid percent-encoding` };
          }
        }
      } else if (p === s) literals++;
      else ok = false;
    }
    if (!ok) continue;
    // The most literal pattern wins: /entities/graph is the graph operation, not an entity.
    if (best === undefined || literals > best.literals) best = { literals, routes: [{ route, params }] };
    else if (literals === best.literals) best.routes.push({ route, params });
  }
  if (best === undefined) return { status: 404 };
  const hit = best.routes.find((r) => r.route.method === method);
  if (hit !== undefined) return hit;
  return { status: 405, allow: [...new Set(best.routes.map((r) => r.route.method))].join(', ') };
}

type BearerResult = { kind: 'none' } | { kind: 'malformed'; reason: string } | { kind: 'token'; token: string };

/** RFC 6750 §2.1: `Bearer <token68>`, the scheme case-insensitive. */
function bearerOf(header: string | undefined): BearerResult {
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  const m = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(header);
  if (m === null || m[1]!.toLowerCase() !== 'bearer') return { kind: 'malformed', reason: 'the Authorization header must use the Bearer scheme' };
  if (m[2] === undefined || !/^[A-Za-z0-9\-._~+/]+=*$/.test(m[2])) return { kind: 'malformed', reason: 'the Bearer credential is missing or malformed' };
  return { kind: 'token', token: m[2] };
}

function quoted(text: string): string {
  return text.replace(/["\\]/g, "'");
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && Number.isInteger((value as Reply).status) && (value as Reply).status >= 100 && (value as Reply).status <= 599;
}

function errorReply(status: number, error: string, headers?: Record<string, string>): Reply {
  return { status, body: { error }, ...(headers ? { headers } : {}) };
}

/** Reads the whole body, up to `max` bytes (then undefined). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    // Over the cap: nothing more is read here; the 413 goes out through refuse(), which closes.
    if (Number.isFinite(declared) && declared > max) {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, Math.min(size, max))));
    req.on('error', reject);
  });
}

function parseRequestBody(raw: Buffer, contentType: string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Form-encoded bodies (the usual OAuth form) are read as such unless they are JSON anyway
  // (curl -d sends JSON with the form content type).
  if (contentType !== undefined && /^application\/x-www-form-urlencoded\b/i.test(contentType) && !raw.toString('utf8').trimStart().startsWith('{')) {
    return { ok: true, value: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  // parseBody checks nesting and numbers on the bytes before it parses them (../nesting.ts), so a
  // deep body costs one linear scan, before any credential it carries is looked at.
  const parsed = parseBody(raw);
  if (!parsed.ok) return { ok: false, error: parsed.error.replace(' of parameters', '') };
  return parsed;
}

export async function startHostedServer(options: HostedServerOptions = {}): Promise<RunningHostedServer> {
  const clock = options.clock ?? (() => new Date());
  const store = options.store ?? new HostedStore();
  const host = options.host ?? '127.0.0.1';
  const max = options.maxBodyBytes ?? MAX_BODY_BYTES;
  const workspaceId = options.workspaceId ?? DEFAULT_WORKSPACE;
  const keys = new ApiKeyRegistry(clock, options.revealSecret);
  const trusted = options.identityProviders ?? [(await DevIdentityProvider.fromFile()).trustedIssuer()];
  const tokens = await TokenService.create({
    clock,
    trusted,
    defaultWorkspaceId: workspaceId,
    onWorkspace: (w) => keys.workspaces.add(w),
    ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
  });
  const bootstrap = await keys.issue({ label: 'bootstrap', scopes: [...SCOPES], workspaceId, ...(options.apiKey !== undefined ? { key: options.apiKey } : {}) });
  let origin = '';

  const challenge = (error?: string, extra = ''): Record<string, string> => ({
    'www-authenticate': `Bearer realm="agent-memory", resource_metadata="${origin}/.well-known/oauth-protected-resource"${
      error === undefined ? '' : `, error="invalid_token", error_description="${quoted(error)}"`}${extra}`,
  });

  async function authenticate(bearer: BearerResult): Promise<Principal | Refusal> {
    if (bearer.kind === 'none') return { status: 401, error: 'missing credential: send Authorization: Bearer <API key or access token>' };
    if (bearer.kind === 'malformed') return { status: 401, error: bearer.reason };
    const byKey = keys.authenticate(bearer.token);
    if (byKey !== undefined) return byKey;
    return (await tokens.verify(bearer.token)) ?? { status: 401, error: 'unknown credential' };
  }

  function discovery(path: string): Reply | undefined {
    if (path === '/.well-known/oauth-protected-resource') return { status: 200, body: protectedResourceMetadata(origin, tokens.issuer) };
    if (path === '/.well-known/oauth-authorization-server') return { status: 200, body: authorizationServerMetadata(origin, tokens.issuer) };
    if (path === '/.well-known/jwks.json') return { status: 200, body: tokens.jwks() };
    if (path === '/') {
      return {
        status: 200,
        body: {
          service: 'agent-memory-tck hosted reference service',
          api: `${origin}${API_PREFIX}`,
          discovery: ['oauth-protected-resource', 'oauth-authorization-server', 'jwks.json'].map((d) => `${origin}/.well-known/${d}`),
        },
      };
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, seen: HostedRequest): Promise<Reply> {
    const url = new URL(seen.url, 'http://localhost');
    let path = url.pathname;
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const method = seen.method;

    // A refusal below leaves the body unread: the server callback answers it with refuse().
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      const doc = discovery(path);
      if (doc === undefined) return errorReply(404, `not found: ${path} (the REST interface is under ${API_PREFIX})`);
      return method === 'GET' ? doc : errorReply(405, `method not allowed: ${method}`, { allow: 'GET' });
    }

    const matched = matchRoute(method, path.slice(API_PREFIX.length) || '/', options.routes ?? ROUTES);
    const route = 'route' in matched ? matched.route : undefined;
    const bearer = bearerOf(seen.authorization);
    let principal: Principal | undefined;
    if (route?.access !== 'public') {
      const who = await authenticate(bearer);
      if (isRefusal(who)) {
        return errorReply(401, who.error, challenge(bearer.kind === 'none' ? undefined : who.error));
      }
      principal = who;
    }
    if (!('route' in matched)) {
      if (matched.status === 400) return errorReply(400, matched.error);
      if (matched.status === 405) return errorReply(405, `method not allowed: ${method} ${path} (allowed: ${matched.allow})`, { allow: matched.allow! });
      return errorReply(404, `not found: ${method} ${path}`);
    }

    let body: Record<string, unknown> = {};
    if (method === 'POST' || method === 'PUT') {
      const raw = await readBody(req, max);
      if (raw === undefined) return errorReply(413, `body is larger than ${max} bytes`, { connection: 'close' });
      const parsed = parseRequestBody(raw, req.headers['content-type']);
      if (!parsed.ok) return errorReply(400, parsed.error);
      body = parsed.value;
    }

    const r = matched.route;
    if (principal !== undefined && r.access !== 'public') {
      const needed: Scope = typeof r.access === 'function' ? r.access(body) : r.access;
      if (!principal.scopes.has(needed)) {
        return errorReply(403, `${r.operation} needs the ${needed} scope; the credential has ${[...principal.scopes].join(', ') || 'none'}`, {
          'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
        });
      }
    }
    try {
      const reply = await r.handler({
        store, keys, tokens, body, params: matched.params, query: url.searchParams,
        ...(principal !== undefined ? { principal } : {}),
        ...(bearer.kind === 'token' ? { bearer: bearer.token } : {}),
      });
      // A handler that gives no reply (a route a test or a fork replaced) is the service's fault: it
      // is answered 500 at once, rather than leaving the request without an answer.
      return isReply(reply) ? reply : errorReply(500, `internal error in ${r.operation}: the handler gave no reply`);
    } catch (err) {
      if (err instanceof HostedError || err instanceof BadRequestError) return errorReply(err instanceof HostedError ? err.status : 400, err.message);
      return errorReply(500, `internal error in ${r.operation}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** A reply given before the body was read (a refusal, a GET's) goes out without reading it to its end. */
  const answer = (req: IncomingMessage, res: ServerResponse, reply: Reply): void => {
    if (req.complete || res.headersSent) send(res, reply);
    else refuse(req, res, reply.status, reply.body, reply.headers ?? {});
  };
  const server = createBoundedServer((req, res) => {
    req.on('error', () => res.destroy());
    res.on('error', () => undefined);
    const seen: HostedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization };
    const intercept = options.intercept;
    // Whatever the handler (or an intercept) gives, the request is answered: an answer that is no
    // reply is a 500, and a failure while answering closes the connection rather than leaving it open.
    (intercept ? intercept(seen, (r) => handle(req, r)) : handle(req, seen))
      .then(
        (reply) => answer(req, res, isReply(reply) ? reply : errorReply(500, 'internal error: no reply')),
        (err: unknown) => answer(req, res, errorReply(500, `internal error: ${err instanceof Error ? err.message : String(err)}`)),
      )
      .catch((err: unknown) => {
        // send() itself failed (a body JSON.stringify cannot serialise, say).
        if (!res.headersSent && !res.destroyed) send(res, errorReply(500, `internal error: ${err instanceof Error ? err.message : String(err)}`));
        else res.destroy();
      });
  }, options.limits);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      server.on('error', () => undefined);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  origin = (options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  tokens.setOrigin(origin);
  return {
    url: origin,
    baseUrl: `${origin}${API_PREFIX}`,
    port,
    store,
    apiKey: bootstrap.key,
    apiKeyId: bootstrap.view.id,
    workspaceId,
    keys,
    tokens,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
