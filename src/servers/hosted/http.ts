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
import { WorkspaceStores } from './workspaces.js';
import { createBoundedServer, refuse, type ServerLimits } from '../http-plumbing.js';

const API_PREFIX = '/v1';
const DEFAULT_WORKSPACE = 'default';

export interface HostedServerOptions {
  /**
   * The store of the first workspace, the bootstrap key's (default: a new one). Give the same one
   * to startReferenceServer for the bridge view. Every other workspace has a store of its own.
   */
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
  /** The store of the first workspace (the bootstrap key's, and the bridge view's). */
  store: HostedStore;
  /** Every workspace's store (docs/isolation.md). */
  stores: WorkspaceStores;
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

/** A path segment decoded, or undefined when it is not valid percent-encoding. */
// (A region, closed before the next declaration: no next-line mark reaches a catch block. It also hides the body's and the try block's mutants, which every path parameter kills.)
// Stryker disable BlockStatement: not a protocol rule: a path segment that is not valid percent-encoding, which the kit never sends, is refused 400 (the document shows no status for it)
function decodedSegment(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}
// Stryker restore BlockStatement

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
        // Stryker disable next-line ConditionalExpression,StringLiteral,BooleanLiteral: not a protocol rule: an empty path segment (//) is the reference's own refusal; the kit sends none
        if (s === '') ok = false;
        else {
          const decoded = decodedSegment(s);
          // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral: not a protocol rule: a path segment that is not valid percent-encoding, which the kit never sends, is refused 400 (the document shows no status for it); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
          if (decoded === undefined) return { status: 400, error: `path segment ${JSON.stringify(s)} is not valid percent-encoding` };
          params[p.slice(1)] = decoded;
        }
      } else if (p === s) literals++;
      else ok = false;
    }
    if (!ok) continue;
    // The most literal pattern wins: /entities/graph is the graph operation, not an entity.
    // Stryker disable next-line ConditionalExpression: equivalent: the route table lists every literal path (/entities/graph, /entities/search) before the parameter path of its length, so the first match is the most literal one
    if (best === undefined || literals > best.literals) {
      best = { literals, routes: [{ route, params }] };
      continue;
    }
    // Stryker disable next-line ConditionalExpression: equivalent: the route table lists every literal path before the parameter path of its length, so the first route of the method found is the most literal one
    if (literals === best.literals) best.routes.push({ route, params });
  }
  // Stryker disable next-line ObjectLiteral,ConditionalExpression: not a protocol rule: a path no route has is answered 404, or 500 without the test (the document shows no status for it); the kit sends only the document's paths
  if (best === undefined) return { status: 404 };
  const hit = best.routes.find((r) => r.route.method === method);
  // Stryker disable next-line ConditionalExpression: not a protocol rule: a method a path does not have is answered 405, or 500 without the test (the document shows no status for it; RFC 9110 §15.5.6 binds only a 405)
  if (hit !== undefined) return hit;
  // Stryker disable next-line ObjectLiteral: silent (hosted): valid variant "a method a path does not have is answered 404, not 405": without the object the wrong method is answered 404 (the Allow of a 405 is judged by SCN-H-001, which kills the other mutants of this line)
  return { status: 405, allow: [...new Set(best.routes.map((r) => r.route.method))].join(', ') };
}

type BearerResult = { kind: 'none' } | { kind: 'malformed'; reason: string } | { kind: 'token'; token: string };

/** RFC 6750 §2.1: `Bearer <token68>`, the scheme case-insensitive. */
function bearerOf(header: string | undefined): BearerResult {
  // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: equivalent: an empty or blank Authorization header is refused 401 either way (as missing, or as malformed, which only adds error="invalid_token" to the challenge)
  if (header === undefined || header.trim() === '') return { kind: 'none' };
  // Stryker disable next-line Regex: equivalent: every header the kit sends has a scheme and a credential separated by one space, and every other form is refused 401 either way
  const m = /^\s*(\S+)(?:\s+(.*?))?\s*$/.exec(header);
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: silent (hosted): valid variant "the service takes the credential under any auth scheme": the document has every credential sent as Bearer, and does not say another scheme is refused; the text of the refusal is the service's own
  if (m === null || m[1]!.toLowerCase() !== 'bearer') return { kind: 'malformed', reason: 'the Authorization header must use the Bearer scheme' };
  // Stryker disable next-line ObjectLiteral,StringLiteral,ConditionalExpression,LogicalOperator,Regex: equivalent: a credential that is no token68 is refused 401 either way (as malformed, or as unknown); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  if (m[2] === undefined || !/^[A-Za-z0-9\-._~+/]+=*$/.test(m[2])) return { kind: 'malformed', reason: 'the Bearer credential is missing or malformed' };
  // Stryker disable next-line StringLiteral: equivalent in practice: the kind names only whether the handler gets the Bearer value, and the kit sends every token in the body too
  return { kind: 'token', token: m[2] };
}

// Stryker disable next-line BlockStatement: equivalent: error_description is OPTIONAL text for people (RFC 6750 §3); without the body it reads "undefined", a quoted-string all the same
function quoted(text: string): string {
  // Stryker disable next-line StringLiteral: equivalent: error_description is text for people (RFC 6750 §3); the quotes dropped rather than replaced keep the quoted-string well formed
  return text.replace(/["\\]/g, "'");
}

function send(res: ServerResponse, reply: Reply): void {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  // Stryker disable next-line LogicalOperator,ConditionalExpression: equivalent over HTTP: a 204 carries no body either way (Node sends none), and every other reply of the service has a body
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  // Stryker disable next-line StringLiteral: equivalent over HTTP: the kit reads each answer as JSON whatever its content-type says (silent: the content type of answers is not shown)
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function isReply(value: unknown): value is Reply {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
  return typeof value === 'object' && value !== null && Number.isInteger((value as Reply).status) && (value as Reply).status >= 100 && (value as Reply).status <= 599;
}

function errorReply(status: number, error: string, headers?: Record<string, string>): Reply {
  // Stryker disable next-line ObjectLiteral: silent (hosted): valid variant "errors answer an empty object": the body of an error is not shown (hosted-rest-api.md, "Errors")
  return { status, body: { error }, ...(headers ? { headers } : {}) };
}

/** What a handler's failure is answered: its own status for a HostedError, 400 for bad input, else 500. */
// Stryker disable next-line BlockStatement: advisory ADV-deleted-not-found: with no reply for a failure, every error of a handler is answered 500 (the reply guard): a deleted entity read by its id answers 500, which SCN-H-016 notes; the document shows no status for it
function failureReply(err: unknown, operation: string): Reply {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: advisory ADV-deleted-not-found: every error of a handler answered 500 (or 400): a deleted entity read by its id then answers 500 or 400, which SCN-H-016 notes; the document shows no status for it
  if (err instanceof HostedError || err instanceof BadRequestError) return errorReply(err instanceof HostedError ? err.status : 400, err.message);
  return internalError(err, operation);
}

/** A 500 for what the service did not expect, naming the operation when one is known. */
// Stryker disable next-line BlockStatement: not a protocol rule: without the body a handler's unexpected failure is still answered 500 (by the reply guard), and a failure while answering is the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
function internalError(err: unknown, operation?: string): Reply {
  // Stryker disable next-line StringLiteral,ConditionalExpression,EqualityOperator: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  return errorReply(500, `internal error${operation === undefined ? '' : ` in ${operation}`}: ${err instanceof Error ? err.message : String(err)}`);
}

/** Reads the whole body, up to `max` bytes (then undefined). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    // Stryker disable next-line StringLiteral: not a protocol rule: the size limit of a body (size limits are not shown), unit-tested in test/hosted/resources.test.ts (413)
    const declared = Number(req.headers['content-length']);
    // Over the cap: nothing more is read here; the 413 goes out through refuse(), which closes.
    // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: not a protocol rule: the size limit of a body (size limits are not shown), unit-tested in test/hosted/resources.test.ts (413)
    if (Number.isFinite(declared) && declared > max) {
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: not a protocol rule: the size limit of a body (size limits are not shown), unit-tested in test/hosted/resources.test.ts (413)
      if (size > max) {
        chunks.length = 0;
        // Stryker disable next-line StringLiteral: not a protocol rule: the size limit of a body (size limits are not shown), unit-tested in test/hosted/resources.test.ts (413)
        req.removeAllListeners('data');
        req.pause();
        resolve(undefined);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks, Math.min(size, max))));
    // Stryker disable next-line StringLiteral: not a protocol rule: the service's own robustness, a request whose body fails mid-way is refused
    req.on('error', reject);
  });
}

function parseRequestBody(raw: Buffer, contentType: string | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  // Form-encoded bodies (the usual OAuth form) are read as such unless they are JSON anyway
  // (curl -d sends JSON with the form content type).
  // Stryker disable next-line BooleanLiteral,MethodExpression,StringLiteral,BlockStatement,LogicalOperator,ConditionalExpression,EqualityOperator,Regex: not a protocol rule: form-encoded bodies (the form RFC 6749 gives token requests) are the reference's own extra; the document's bodies are JSON, which the kit sends
  if (contentType !== undefined && /^application\/x-www-form-urlencoded\b/i.test(contentType) && !raw.toString('utf8').trimStart().startsWith('{')) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral: not a protocol rule: form-encoded bodies are the reference's own extra; the document's bodies are JSON, which the kit sends
    return { ok: true, value: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) };
  }
  // parseBody checks nesting and numbers on the bytes before it parses them (../nesting.ts), so a
  // deep body costs one linear scan, before any credential it carries is looked at.
  const parsed = parseBody(raw);
  // Stryker disable next-line ObjectLiteral,BooleanLiteral,StringLiteral,ConditionalExpression: not a protocol rule: a body that is no JSON object, which the kit never sends, is refused 400 (the document shows no status for it; without the test, 500), unit-tested in test/hosted/resources.test.ts; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
  if (!parsed.ok) return { ok: false, error: parsed.error.replace(' of parameters', '') };
  return parsed;
}

export async function startHostedServer(options: HostedServerOptions = {}): Promise<RunningHostedServer> {
  const clock = options.clock ?? (() => new Date());
  const store = options.store ?? new HostedStore();
  const host = options.host ?? '127.0.0.1';
  const max = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // Stryker disable next-line LogicalOperator: not a protocol rule: an option of startHostedServer (the first workspace's name); the CLI and the tests give their own
  const workspaceId = options.workspaceId ?? DEFAULT_WORKSPACE;
  const keys = new ApiKeyRegistry(clock, options.revealSecret);
  // Stryker disable next-line ArrayDeclaration: not a protocol rule: an option of startHostedServer (the identity providers trusted); the tests give their own
  const trusted = options.identityProviders ?? [(await DevIdentityProvider.fromFile()).trustedIssuer()];
  const tokens = await TokenService.create({
    clock,
    trusted,
    defaultWorkspaceId: workspaceId,
    // Stryker disable next-line ArrowFunction: not a protocol rule: the workspaces the identity provider's tokens name are registered for the operator's key tools; no request reads the register
    onWorkspace: (w) => keys.workspaces.add(w),
    // Stryker disable next-line ObjectLiteral,ConditionalExpression,EqualityOperator: not a protocol rule: an option of startHostedServer (the access token's lifetime); the default is the one test/hosted/oauth.test.ts checks
    ...(options.accessTokenTtlSeconds !== undefined ? { accessTokenTtlSeconds: options.accessTokenTtlSeconds } : {}),
  });
  // Stryker disable next-line ObjectLiteral,StringLiteral,ConditionalExpression,EqualityOperator: not a protocol rule: options of startHostedServer (the bootstrap key's label and plaintext), tested in test/hosted/cli.test.ts
  // One store per workspace: a request reaches only its credential's (docs/isolation.md).
  const stores = new WorkspaceStores(workspaceId, store);
  const bootstrap = await keys.issue({ label: 'bootstrap', scopes: [...SCOPES], workspaceId, ...(options.apiKey !== undefined ? { key: options.apiKey } : {}) });
  // Stryker disable next-line StringLiteral: equivalent: origin is set once the service listens, before any request
  let origin = '';

  const challenge = (error?: string): Record<string, string> => ({
    'www-authenticate': [
      `Bearer realm="agent-memory", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
      // Stryker disable next-line ConditionalExpression,StringLiteral,ArrayDeclaration: advisory ADV-invalid-token-error: without the error parameter a refused Bearer token gets a bare challenge (SCN-H-032 notes it); the mark also hides the false mutant, which quotes no reason and fails every request without a credential, and the first array made ["Stryker was here"], which the challenge grammar fails
      ...(error === undefined ? [] : [`error="invalid_token", error_description="${quoted(error)}"`]),
    ].join(', '),
  });

  async function authenticate(bearer: BearerResult): Promise<Principal | Refusal> {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
    if (bearer.kind === 'none') return { status: 401, error: 'missing credential: send Authorization: Bearer <API key or access token>' };
    if (bearer.kind === 'malformed') return { status: 401, error: bearer.reason };
    const byKey = keys.authenticate(bearer.token);
    if (byKey !== undefined) return byKey;
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
    return (await tokens.verify(bearer.token)) ?? { status: 401, error: 'unknown credential' };
  }

  function discovery(path: string): Reply | undefined {
    if (path === '/.well-known/oauth-protected-resource') return { status: 200, body: protectedResourceMetadata(origin, tokens.issuer) };
    if (path === '/.well-known/oauth-authorization-server') return { status: 200, body: authorizationServerMetadata(origin, tokens.issuer) };
    // Stryker disable next-line ConditionalExpression: not a protocol rule: a path at the origin that is no discovery document (the kit fetches only the three) is answered 404; without the test, the JWK set
    if (path === '/.well-known/jwks.json') return { status: 200, body: tokens.jwks() };
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,BlockStatement: not a protocol rule: the index at the origin is the reference's own page
    if (path === '/') {
      // Stryker disable next-line ObjectLiteral: not a protocol rule: the index at the origin is the reference's own page
      return {
        status: 200,
        // Stryker disable next-line ObjectLiteral: not a protocol rule: the index at the origin is the reference's own page
        body: {
          // Stryker disable next-line StringLiteral: not a protocol rule: the index at the origin is the reference's own page
          service: 'agent-memory-tck hosted reference service',
          // Stryker disable next-line StringLiteral: not a protocol rule: the index at the origin is the reference's own page
          api: `${origin}${API_PREFIX}`,
          // Stryker disable next-line ArrayDeclaration,StringLiteral,ArrowFunction: not a protocol rule: the index at the origin is the reference's own page
          discovery: ['oauth-protected-resource', 'oauth-authorization-server', 'jwks.json'].map((d) => `${origin}/.well-known/${d}`),
        },
      };
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, seen: HostedRequest): Promise<Reply> {
    const url = new URL(seen.url, 'http://localhost');
    let path = url.pathname;
    // Stryker disable next-line MethodExpression,UnaryOperator,ConditionalExpression,EqualityOperator: not a protocol rule: a trailing slash is the reference's own leniency; the kit sends the document's paths without one
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const method = seen.method;

    // A refusal below leaves the body unread: the server callback answers it with refuse().
    // Stryker disable next-line ConditionalExpression: equivalent: only the path /v1 itself changes side, and no request of the kit names it
    if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
      const doc = discovery(path);
      // Stryker disable next-line StringLiteral,ConditionalExpression: not a protocol rule: a path at the origin that is no discovery document is answered 404 (without the test, 500); the kit fetches only the three; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      if (doc === undefined) return errorReply(404, `not found: ${path} (the REST interface is under ${API_PREFIX})`);
      // Stryker disable next-line StringLiteral,ObjectLiteral,ConditionalExpression: not a protocol rule: a discovery document asked for with another method than GET (RFC 8414 and RFC 9728 name GET, which the kit sends); the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      return method === 'GET' ? doc : errorReply(405, `method not allowed: ${method}`, { allow: 'GET' });
    }

    // Stryker disable next-line StringLiteral: equivalent: no route has the path "/" under /v1
    const matched = matchRoute(method, path.slice(API_PREFIX.length) || '/', options.routes ?? ROUTES);
    const route = 'route' in matched ? matched.route : undefined;
    const bearer = bearerOf(seen.authorization);
    let principal: Principal | undefined;
    // Stryker disable next-line OptionalChaining: not a protocol rule: a path no route has is answered 401 before the 404 when the credential is refused; without the optional chaining, 500 (the document shows no status for it)
    if (route?.access !== 'public') {
      const who = await authenticate(bearer);
      if (isRefusal(who)) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: advisory ADV-invalid-token-error: a challenge to a refused Bearer token without error="invalid_token" (SCN-H-032 notes it); one with the error code when no credential was sent is a SHOULD NOT of RFC 6750 §3.1, which the kit does not judge
        return errorReply(401, who.error, challenge(bearer.kind === 'none' ? undefined : who.error));
      }
      principal = who;
    }
    // Stryker disable next-line BlockStatement,ConditionalExpression: not a protocol rule: a path or method no route has is answered 404 or 405, or 500 without the test (the document shows no status for it); the kit sends only the document's paths and PATCH /conversations
    if (!('route' in matched)) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: not a protocol rule: a path segment that is not valid percent-encoding, which the kit never sends
      if (matched.status === 400) return errorReply(400, matched.error);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: silent (hosted): valid variant "a method a path does not have is answered 404, not 405": RFC 9110 §15.5.6 binds the Allow of a 405, which SCN-H-001 judges, not the choice of 405; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      if (matched.status === 405) return errorReply(405, `method not allowed: ${method} ${path} (allowed: ${matched.allow})`, { allow: matched.allow! });
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
      return errorReply(404, `not found: ${method} ${path}`);
    }

    let body: Record<string, unknown> = {};
    // Stryker disable next-line ConditionalExpression: equivalent: a GET or DELETE of the kit has no body, read as an empty object either way
    if (method === 'POST' || method === 'PUT') {
      const raw = await readBody(req, max);
      // Stryker disable next-line StringLiteral,ObjectLiteral,ConditionalExpression: not a protocol rule: the size limit of a body (size limits are not shown), unit-tested in test/hosted/resources.test.ts (413)
      if (raw === undefined) return errorReply(413, `body is larger than ${max} bytes`, { connection: 'close' });
      // Stryker disable next-line StringLiteral: not a protocol rule: form-encoded bodies are the reference's own extra; the kit sends JSON
      const parsed = parseRequestBody(raw, req.headers['content-type']);
      // Stryker disable next-line ConditionalExpression: not a protocol rule: a body that is no JSON object, which the kit never sends, is refused 400 (without the test, 500: the document shows no status for it)
      if (!parsed.ok) return errorReply(400, parsed.error);
      body = parsed.value;
    }

    const r = matched.route;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,BlockStatement: advisory ADV-read-scope-cannot-write: without the scope test a read-only key writes (SCN-H-022 notes it); the meaning of each scope is not shown
    if (principal !== undefined && r.access !== 'public') {
      const needed: Scope = typeof r.access === 'function' ? r.access(body) : r.access;
      // Stryker disable next-line BlockStatement,ConditionalExpression: advisory ADV-read-scope-cannot-write: without the scope test a read-only key writes (SCN-H-022 notes it); the meaning of each scope is not shown
      if (!principal.scopes.has(needed)) {
        // Stryker disable next-line StringLiteral,ConditionalExpression,LogicalOperator,ArrayDeclaration,ObjectLiteral: advisory ADV-read-scope-cannot-write: the refusal of a read-only key's write is reached only by that advisory's request; the text of an error is the service's own (hosted-rest-api.md, "Errors": not shown)
        return errorReply(403, `${r.operation} needs the ${needed} scope; the credential has ${[...principal.scopes].join(', ') || 'none'}`, {
          // Stryker disable next-line StringLiteral: advisory ADV-read-scope-cannot-write: the challenge of a read-only key's write is reached only by that advisory's request (RFC 6750 §3.1 gives insufficient_scope as a SHOULD)
          'www-authenticate': `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${origin}/.well-known/oauth-protected-resource"`,
        });
      }
    }
    let reply: unknown;
    // (A region, closed before the return: no next-line mark reaches a catch block. It also hides the try block's mutant, which every request kills.)
    // Stryker disable BlockStatement: advisory ADV-deleted-not-found: with every error of a handler answered 500 (a reply of none), a deleted entity read by its id answers 500, which SCN-H-016 notes; the document shows no status for it
    try {
      reply = await r.handler({
        // The caller's workspace's store; the public routes (exchange, refresh) read none.
        // Stryker disable next-line ConditionalExpression: advisory ADV-workspace-isolation: with every request in the first workspace's store, another workspace reaches its data (SCN-H-060, SCN-H-061, SCN-H-062 note it); the mark also hides the true mutant, which fails every token exchange (no principal there)
        store: principal !== undefined ? stores.of(principal.workspaceId) : store,
        stores, keys, tokens, body, params: matched.params, query: url.searchParams,
        // Stryker disable next-line ConditionalExpression: equivalent: principal is undefined only on the public routes, whose handlers do not read it
        ...(principal !== undefined ? { principal } : {}),
        // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral,ObjectLiteral: equivalent in practice: the exchange and the refresh read a Bearer token only when the body has none, and the kit sends every token in the body
        ...(bearer.kind === 'token' ? { bearer: bearer.token } : {}),
      });
    } catch (err) {
      return failureReply(err, r.operation);
    }
    // Stryker restore BlockStatement
    // A handler that gives no reply (a route a test or a fork replaced) is the service's fault: it
    // is answered 500 at once, rather than leaving the request without an answer.
    // Stryker disable next-line StringLiteral: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
    return isReply(reply) ? reply : errorReply(500, `internal error in ${r.operation}: the handler gave no reply`);
  }

  /** A reply given before the body was read (a refusal, a GET's) goes out without reading it to its end. */
  const answer = (req: IncomingMessage, res: ServerResponse, reply: Reply): void => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent over HTTP: a reply given before the body was read goes out through refuse(), which answers the same status and body and then closes; the kit reads the answer either way
    if (req.complete || res.headersSent) send(res, reply);
    else refuse(req, res, reply.status, reply.body, reply.headers ?? {});
  };
  const server = createBoundedServer((req, res) => {
    // Stryker disable next-line StringLiteral,ArrowFunction: not a protocol rule: the service's own robustness, a request that fails mid-body closes its connection
    req.on('error', () => res.destroy());
    // Stryker disable next-line StringLiteral: not a protocol rule: the service's own robustness, a response whose client went away is dropped
    res.on('error', () => undefined);
    // Stryker disable next-line StringLiteral: equivalent: Node gives every request a method and a URL
    const seen: HostedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization };
    const intercept = options.intercept;
    // Whatever the handler (or an intercept) gives, the request is answered: an answer that is no
    // reply is a 500, and a failure while answering closes the connection rather than leaving it open.
    // (Named steps, not a chain of arrow functions: no next-line mark reaches a link of a chain.)
    // Stryker disable next-line StringLiteral: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
    const replied = (reply: unknown) => answer(req, res, isReply(reply) ? reply : errorReply(500, 'internal error: no reply'));
    // Stryker disable next-line ArrowFunction: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
    const failed = (err: unknown) => answer(req, res, internalError(err));
    // send() itself failed (a body JSON.stringify cannot serialise, say).
    // Stryker disable next-line BlockStatement: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
    const unsent = (err: unknown): void => {
      // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: not a protocol rule: the service's own robustness, unit-tested in test/hosted/resources.test.ts ("a handler that fails")
      if (!res.headersSent && !res.destroyed) send(res, internalError(err));
      else res.destroy();
    };
    // Stryker disable next-line ArrowFunction: not a protocol rule: the intercept is the tests' hook for variants; no service the CLI starts has one
    (intercept ? intercept(seen, (r) => handle(req, r)) : handle(req, seen)).then(replied, failed).catch(unsent);
  }, options.limits);

  await new Promise<void>((resolve, reject) => {
    // Stryker disable next-line StringLiteral: not a protocol rule: the start of the service (a port taken), tested in test/hosted/cli.test.ts
    server.once('error', reject);
    // Stryker disable next-line LogicalOperator: not a protocol rule: an option of startHostedServer (the port)
    server.listen(options.port ?? 0, host, () => {
      // Stryker disable next-line StringLiteral: not a protocol rule: the start of the service
      server.off('error', reject);
      // Stryker disable next-line StringLiteral: not a protocol rule: the start of the service
      server.on('error', () => undefined);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  // Stryker disable next-line StringLiteral,Regex: not a protocol rule: an option of startHostedServer (the public URL advertised)
  origin = (options.publicUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  tokens.setOrigin(origin);
  return {
    url: origin,
    baseUrl: `${origin}${API_PREFIX}`,
    port,
    store,
    stores,
    apiKey: bootstrap.key,
    apiKeyId: bootstrap.view.id,
    workspaceId,
    keys,
    tokens,
    // Stryker disable next-line ArrowFunction: not a protocol rule: closing the service, the tests' and the CLI's own
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
