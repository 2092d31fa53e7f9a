// Discovery (Authentication, rule 8): the three documents at the service origin, each valid by
// its RFC, agreeing with each other and with the access tokens the service issues.
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import type { HostedContext } from '../../src/profiles/hosted/context.js';
import { DISCOVERY } from '../../src/protocols/hosted/document.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { checkObject, isObject, said, type Json } from '../support/http-answers.js';
import { TOKEN_EXCHANGE_GRANT, someAccessToken } from '../support/hosted-credentials.js';

/**
 * A discovery document: GET at the origin without a credential (discovery metadata is public by
 * its RFCs). silent: whether a service wants a credential anyway; then it is fetched with one, and noted.
 */
async function discoveryDocument(ctx: HostedContext, path: string, rule: string): Promise<Json> {
  let a = await ctx.fetch(path);
  if (a.status === 401 || a.status === 403) {
    ctx.note(`${path} wants a credential (${a.status} without one)`);
    a = await ctx.fetch(path, { as: ctx.target.credential });
  }
  check.by(rule).that(a.status !== 404 && a.status !== 405, `GET ${path} at the service origin: the discovery document exists (no 404 or 405)`, () => ({
    message: `${rule}: GET ${path} at the service origin answered ${said(a)}: the discovery document is missing`,
    expected: '200 with the document',
    actual: a.status,
  }));
  return checkObject(a, rule);
}

const LOOPBACK = /^(localhost|127(?:\.\d+){3}|\[::1\])$/i;

/**
 * An https URL (RFC 8414 §2, RFC 9728 §2); without query and fragment when `bare`. A service on a
 * loopback address is accepted over http (a development instance), with a note.
 */
function httpsUrl(ctx: HostedContext, value: unknown, rule: string, what: string, bare = false): URL {
  const cite = check.by(rule);
  let parsed: URL | undefined;
  try {
    parsed = new URL(String(value));
  } catch {
    parsed = undefined;
  }
  cite.that(parsed !== undefined, `${what} is a URL`, () => ({ message: `${rule}: ${what}: expected a URL, got ${JSON.stringify(value) ?? 'nothing'}`, expected: 'a URL', actual: value }));
  const u = parsed!;
  cite.that(typeof value === 'string', `${what} is a URL string`, () => ({ message: `${rule}: ${what}: expected a URL string, got ${JSON.stringify(value)}`, expected: 'a URL string', actual: value }));
  if (u.protocol === 'http:' && LOOPBACK.test(u.hostname)) ctx.note(`${what} uses http on a loopback address (accepted for a local service; the RFCs ask for https)`);
  else cite.that(u.protocol === 'https:', `${what} is an https URL`, () => ({ message: `${rule}: ${what}: expected an https URL, got ${String(value)}`, expected: 'https', actual: value }));
  if (bare) cite.that(u.search === '' && u.hash === '', `${what} has no query or fragment`, () => ({ message: `${rule}: ${what}: must have no query or fragment, got ${String(value)}`, expected: 'no query or fragment', actual: value }));
  return u;
}

/** The same URL, a trailing slash aside (an origin is written with or without one). */
const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/** When present, an array of strings. */
function optionalStrings(doc: Json, member: string, rule: string, where: string): string[] | undefined {
  const v = doc[member];
  if (v === undefined) return undefined;
  check.by(rule).that(Array.isArray(v) && v.every((x) => typeof x === 'string'), `${where}: ${member}, where present, is an array of strings`, () => ({ message: `${rule}: ${where}: ${member} must be an array of strings, got ${JSON.stringify(v)}`, expected: 'an array of strings', actual: v }));
  return v as string[];
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

async function protectedResource(ctx: HostedContext): Promise<Json> {
  const where = DISCOVERY.protectedResource;
  const doc = await discoveryDocument(ctx, where, 'HOSTED-DISCOVERY-1');
  const resource = check.by('RFC9728-resource');
  resource.that(doc.resource !== undefined, `${where}: the REQUIRED member resource is present`, () => ({ message: `RFC9728-resource: ${where}: the REQUIRED member resource is missing (RFC 9728 §2)`, expected: 'resource', actual: Object.keys(doc) }));
  httpsUrl(ctx, doc.resource, 'RFC9728-resource', `${where}: resource`);
  // RFC 9728 §3.3: the resource is the identifier the well-known URI was made from: here the origin.
  resource.that(sameUrl(String(doc.resource), ctx.target.origin), `${where}: resource is the origin the metadata URL was made from`, () => ({
    message: `RFC9728-resource: ${where}: resource must be the identifier the metadata URL was made from, the origin ${ctx.target.origin} (RFC 9728 §3.3), got ${String(doc.resource)}`,
    expected: ctx.target.origin,
    actual: doc.resource,
  }));
  for (const url of optionalStrings(doc, 'authorization_servers', 'RFC9728-authorization_servers', where) ?? []) httpsUrl(ctx, url, 'RFC9728-authorization_servers', `${where}: authorization_servers`);
  if (doc.jwks_uri !== undefined) httpsUrl(ctx, doc.jwks_uri, 'RFC9728-jwks_uri', `${where}: jwks_uri`);
  optionalStrings(doc, 'scopes_supported', 'RFC9728-scopes_supported', where);
  const methods = optionalStrings(doc, 'bearer_methods_supported', 'RFC9728-bearer_methods_supported', where);
  if (methods !== undefined) {
    check.by('RFC9728-bearer_methods_supported').that(methods.includes('header'), `${where}: bearer_methods_supported, where present, includes "header"`, () => ({
      message: `RFC9728-bearer_methods_supported: ${where}: bearer_methods_supported must include "header" (credentials are sent as Authorization: Bearer), got ${JSON.stringify(methods)}`,
      expected: 'header',
      actual: methods,
    }));
  }
  const algs = optionalStrings(doc, 'resource_signing_alg_values_supported', 'RFC9728-resource_signing_alg_values_supported', where);
  if (algs !== undefined) {
    check.by('RFC9728-resource_signing_alg_values_supported').that(!algs.includes('none'), `${where}: resource_signing_alg_values_supported does not list "none"`, () => ({
      message: `RFC9728-resource_signing_alg_values_supported: ${where}: "none" must not be listed (RFC 9728 §2)`,
      expected: 'no "none"',
      actual: algs,
    }));
  }
  return doc;
}

async function authorizationServer(ctx: HostedContext): Promise<Json> {
  const where = DISCOVERY.authorizationServer;
  const doc = await discoveryDocument(ctx, where, 'HOSTED-DISCOVERY-2');
  for (const member of ['issuer', 'response_types_supported', 'token_endpoint']) {
    // RFC 8414 §2: issuer and response_types_supported REQUIRED; token_endpoint REQUIRED unless only the implicit grant is supported (the document has a token exchange).
    check.by(`RFC8414-${member}`).that(doc[member] !== undefined, `${where}: the REQUIRED member ${member} is present`, () => ({ message: `RFC8414-${member}: ${where}: the REQUIRED member ${member} is missing (RFC 8414 §2)`, expected: member, actual: Object.keys(doc) }));
  }
  httpsUrl(ctx, doc.issuer, 'RFC8414-issuer', `${where}: issuer`, true);
  // RFC 8414 §3.3: the issuer is the identifier the well-known URI was made from: here the origin.
  check.by('RFC8414-issuer').that(sameUrl(String(doc.issuer), ctx.target.origin), `${where}: issuer is the origin the metadata URL was made from`, () => ({
    message: `RFC8414-issuer: ${where}: issuer must be the identifier the metadata URL was made from, the origin ${ctx.target.origin} (RFC 8414 §3.3), got ${String(doc.issuer)}`,
    expected: ctx.target.origin,
    actual: doc.issuer,
  }));
  const types = doc.response_types_supported;
  check.by('RFC8414-response_types_supported').that(Array.isArray(types) && types.every((x) => typeof x === 'string'), `${where}: response_types_supported is an array of strings`, () => ({
    message: `RFC8414-response_types_supported: ${where}: response_types_supported must be an array of strings, got ${JSON.stringify(types)}`,
    expected: 'an array of strings',
    actual: types,
  }));
  // A response_type is a request of the authorization endpoint (RFC 6749 §3.1.1): a server that lists one uses that endpoint, which it must then name.
  if (Array.isArray(types) && types.length > 0) {
    check.by('RFC8414-authorization_endpoint').that(doc.authorization_endpoint !== undefined, `${where}: authorization_endpoint is present when response_types_supported lists a response type`, () => ({
      message: `RFC8414-authorization_endpoint: ${where}: response_types_supported lists ${JSON.stringify(types)}, response types of the authorization endpoint (RFC 6749 §3.1.1), but authorization_endpoint is missing: it is REQUIRED unless no grant type the server supports uses that endpoint (RFC 8414 §2)`,
      expected: 'authorization_endpoint',
      actual: Object.keys(doc),
    }));
    if (doc.authorization_endpoint !== undefined) httpsUrl(ctx, doc.authorization_endpoint, 'RFC8414-authorization_endpoint', `${where}: authorization_endpoint`);
  }
  httpsUrl(ctx, doc.token_endpoint, 'RFC8414-token_endpoint', `${where}: token_endpoint`);
  if (doc.jwks_uri !== undefined) httpsUrl(ctx, doc.jwks_uri, 'RFC8414-jwks_uri', `${where}: jwks_uri`);
  const listed: Record<string, string[] | undefined> = {};
  for (const member of ['scopes_supported', 'response_modes_supported', 'grant_types_supported', 'token_endpoint_auth_methods_supported', 'code_challenge_methods_supported']) {
    listed[member] = optionalStrings(doc, member, `RFC8414-${member}`, where);
  }
  const grants = listed.grant_types_supported;
  if (grants !== undefined) {
    const missing = [TOKEN_EXCHANGE_GRANT, 'refresh_token'].filter((g) => !grants.includes(g));
    check.advise('ADV-grant-types-listed').ok(missing.length === 0, `${where}: grant_types_supported ${JSON.stringify(grants)} does not list ${missing.join(' or ')}, which the service's token endpoints perform`, { expected: [TOKEN_EXCHANGE_GRANT, 'refresh_token'], actual: grants });
  }
  return doc;
}

/** A JWK set of public signing keys (RFC 7517 §5), each one importable. */
async function jwks(ctx: HostedContext, url: string = DISCOVERY.jwks): Promise<JWK[]> {
  const doc = await discoveryDocument(ctx, url, 'HOSTED-DISCOVERY-3');
  const [jwkSet, own] = [check.by('RFC7517-keys'), check.by('HOSTED-DISCOVERY-3')];
  const keys = doc.keys as unknown[];
  jwkSet.that(Array.isArray(keys), `${url}: the JWK set has the member keys, an array`, () => ({ message: `RFC7517-keys: ${url}: a JWK set has the REQUIRED member keys, an array (RFC 7517 §5), got ${JSON.stringify(keys) ?? 'nothing'}`, expected: { keys: [] }, actual: doc }));
  own.that(keys.length > 0, `${url} publishes at least one key`, () => ({ message: `HOSTED-DISCOVERY-3: ${url}: no key: the signing keys of the access tokens are published here`, expected: 'at least one key', actual: keys }));
  const kids = new Set<unknown>();
  for (const [i, k] of keys.entries()) {
    jwkSet.that(isObject(k) && typeof k.kty === 'string', `${url}: each key is a JWK (an object with kty)`, () => ({ message: `RFC7517-keys: ${url}: keys[${i}] is not a JWK (an object with kty)`, expected: 'a JWK', actual: k }));
    const key = k as Json;
    const leaked = PRIVATE_MEMBERS.filter((m) => key[m] !== undefined);
    own.that(leaked.length === 0, `${url}: no key carries private key material`, () => ({ message: `HOSTED-DISCOVERY-3: ${url}: keys[${i}] publishes private key material (${leaked.join(', ')}): only public signing keys belong here`, expected: 'public keys only', actual: leaked }));
    own.that(key.use === undefined || key.use === 'sig', `${url}: a key's use, where given, is "sig"`, () => ({ message: `HOSTED-DISCOVERY-3: ${url}: keys[${i}] has use ${JSON.stringify(key.use)}: the keys published here sign the access tokens`, expected: 'sig', actual: key.use }));
    if (key.kid !== undefined) {
      jwkSet.that(!kids.has(key.kid), `${url}: the keys' kids are distinct`, () => ({ message: `RFC7517-keys: ${url}: two keys share the kid ${JSON.stringify(key.kid)}`, expected: 'distinct kids', actual: key.kid }));
      kids.add(key.kid);
    }
    let unusable: Error | undefined;
    try {
      await importJWK(key as JWK, typeof key.alg === 'string' ? key.alg : defaultAlg(key as JWK));
    } catch (err) {
      unusable = err as Error;
    }
    jwkSet.that(unusable === undefined, `${url}: each key is usable as a verification key`, () => ({ message: `RFC7517-keys: ${url}: keys[${i}] cannot be used as a verification key: ${unusable!.message}`, expected: 'a usable public key', actual: k }));
  }
  return keys as JWK[];
}

/** The algorithm a key without `alg` is imported for (only to check that it is a usable key). */
function defaultAlg(k: JWK): string {
  if (k.kty === 'EC') return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[k.crv ?? ''] ?? 'ES256';
  if (k.kty === 'OKP') return 'EdDSA';
  return 'RS256';
}

const thumbprints = (keys: JWK[]) => Promise.all(keys.map((k) => calculateJwkThumbprint(k))).then((t) => t.sort());

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-040',
    group: 'discovery',
    clauses: ['HOSTED-DISCOVERY-1', 'RFC9728-resource', 'RFC9728-authorization_servers', 'RFC9728-bearer_methods_supported'],
    title: '/.well-known/oauth-protected-resource is RFC 9728 protected-resource metadata for the origin',
    asserts:
      'GET /.well-known/oauth-protected-resource at the origin answers a JSON object with resource (REQUIRED) = the origin, an https URL (http on loopback noted); ' +
      'authorization_servers, jwks_uri, scopes_supported, bearer_methods_supported (with "header") and resource_signing_alg_values_supported (without "none") well-formed where present.',
    run: async (ctx) => void (await protectedResource(ctx)),
  }),

  defineHostedScenario({
    id: 'SCN-H-041',
    group: 'discovery',
    clauses: ['HOSTED-DISCOVERY-2', 'RFC8414-issuer', 'RFC8414-response_types_supported', 'RFC8414-token_endpoint', 'RFC8414-authorization_endpoint'],
    title: '/.well-known/oauth-authorization-server is RFC 8414 authorization-server metadata for the origin',
    asserts:
      'GET /.well-known/oauth-authorization-server at the origin answers a JSON object with issuer (= the origin, https, no query or fragment), ' +
      'response_types_supported (an array) and token_endpoint (a URL); authorization_endpoint (a URL) when response_types_supported lists any response type; ' +
      'jwks_uri and the *_supported arrays well-formed where present. Advisory (ADV-grant-types-listed): grant_types_supported, where present, lists the token-exchange grant and refresh_token.',
    run: async (ctx) => void (await authorizationServer(ctx)),
  }),

  defineHostedScenario({
    id: 'SCN-H-042',
    group: 'discovery',
    clauses: ['HOSTED-DISCOVERY-3', 'RFC7517-keys'],
    title: '/.well-known/jwks.json is a JWK set of public signing keys',
    asserts:
      'GET /.well-known/jwks.json at the origin answers {keys: [...]} with at least one key; each has kty, is a usable public key (jose imports it), ' +
      'carries no private member (d, p, q, dp, dq, qi, oth, k), has use "sig" when it has a use, and kids are distinct.',
    run: async (ctx) => void (await jwks(ctx)),
  }),

  defineHostedScenario({
    id: 'SCN-H-043',
    group: 'discovery',
    clauses: ['HOSTED-DISCOVERY-1', 'HOSTED-DISCOVERY-2', 'HOSTED-DISCOVERY-3', 'RFC9728-authorization_servers', 'RFC8414-jwks_uri'],
    title: 'The three discovery documents agree with each other',
    asserts:
      'The protected-resource metadata names the authorization server: authorization_servers holds the issuer of /.well-known/oauth-authorization-server; ' +
      'that metadata\'s jwks_uri (required here: it is the link to the signing keys) serves the key set of /.well-known/jwks.json.',
    async run(ctx) {
      const pr = await protectedResource(ctx);
      const as = await authorizationServer(ctx);
      const servers = Array.isArray(pr.authorization_servers) ? (pr.authorization_servers as string[]) : [];
      check.by('RFC9728-authorization_servers').that(servers.some((s) => sameUrl(s, String(as.issuer))), `${DISCOVERY.protectedResource}: authorization_servers names the issuer of ${DISCOVERY.authorizationServer}`, () => ({
        message: `RFC9728-authorization_servers: ${DISCOVERY.protectedResource}: authorization_servers ${JSON.stringify(pr.authorization_servers) ?? '(missing)'} does not name the issuer ${String(as.issuer)} of ${DISCOVERY.authorizationServer}`,
        expected: as.issuer,
        actual: pr.authorization_servers,
      }));
      check.by('RFC8414-jwks_uri').that(as.jwks_uri !== undefined, `${DISCOVERY.authorizationServer} has a jwks_uri`, () => ({
        message: `RFC8414-jwks_uri: ${DISCOVERY.authorizationServer}: no jwks_uri: the authorization server's metadata must point to the keys that sign its access tokens (${DISCOVERY.jwks})`,
        expected: 'jwks_uri',
        actual: undefined,
      }));
      const published = await jwks(ctx);
      if (sameUrl(String(as.jwks_uri), `${ctx.target.origin}${DISCOVERY.jwks}`)) return;
      const pointed = await jwks(ctx, String(as.jwks_uri));
      const [a, b] = [await thumbprints(published), await thumbprints(pointed)];
      check.by('RFC8414-jwks_uri').that(JSON.stringify(a) === JSON.stringify(b), `${DISCOVERY.authorizationServer}: jwks_uri serves the keys of ${DISCOVERY.jwks}`, () => ({
        message: `RFC8414-jwks_uri: ${DISCOVERY.authorizationServer}: jwks_uri ${String(as.jwks_uri)} serves other keys than ${DISCOVERY.jwks}`,
        expected: a,
        actual: b,
      }));
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-044',
    group: 'discovery',
    clauses: ['HOSTED-DISCOVERY-2', 'HOSTED-DISCOVERY-3', 'RFC8414-issuer'],
    title: 'Access tokens agree with the discovery documents (iss and kid)',
    asserts:
      'Takes an access token (the run\'s, else one exchanged; skipped without either): its iss is the issuer of the authorization-server metadata, ' +
      'and its header\'s kid names a key of /.well-known/jwks.json (a kid is required when the set holds several keys). An aud other than the resource is noted.',
    async run(ctx) {
      const { token } = await someAccessToken(ctx, 'HOSTED-AUTH-5');
      let decoded: { header: { kid?: unknown }; claims: { iss?: unknown; aud?: unknown } } | undefined;
      try {
        decoded = { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
      } catch {
        decoded = undefined;
      }
      const own = check.by('HOSTED-DISCOVERY-3');
      own.that(decoded !== undefined, 'the access token is a JWT (its issuer and key can be matched with the discovery documents)', () => ({
        message: 'HOSTED-DISCOVERY-3: the access token is not a JWT: its issuer and key cannot be matched with the discovery documents',
        expected: 'a JWT',
        actual: '***',
      }));
      const { header, claims } = decoded!;
      const as = await authorizationServer(ctx);
      check.by('RFC8414-issuer').that(claims.iss === as.issuer, `the access token's iss is the issuer of ${DISCOVERY.authorizationServer}`, () => ({
        message: `RFC8414-issuer: the access token's iss ${JSON.stringify(claims.iss) ?? '(missing)'} is not the issuer ${JSON.stringify(as.issuer)} of ${DISCOVERY.authorizationServer}`,
        expected: as.issuer,
        actual: claims.iss,
      }));
      const keys = await jwks(ctx);
      if (header.kid === undefined) {
        own.that(keys.length <= 1, `the access token has a kid where ${DISCOVERY.jwks} holds several keys`, () => ({
          message: `HOSTED-DISCOVERY-3: the access token has no kid, and ${DISCOVERY.jwks} holds ${keys.length} keys: which one signs it cannot be told`,
          expected: 'a kid',
          actual: undefined,
        }));
      } else {
        own.that(keys.some((k) => k.kid === header.kid), `the access token's kid names a key of ${DISCOVERY.jwks}`, () => ({
          message: `HOSTED-DISCOVERY-3: the access token's kid ${JSON.stringify(header.kid)} names no key of ${DISCOVERY.jwks} (kids: ${JSON.stringify(keys.map((k) => k.kid))})`,
          expected: keys.map((k) => k.kid),
          actual: header.kid,
        }));
      }
      const resource = (await ctx.fetch(DISCOVERY.protectedResource)).json;
      const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
      // silent: the audience of the access tokens.
      if (isObject(resource) && typeof resource.resource === 'string' && !aud.some((a) => typeof a === 'string' && sameUrl(a, resource.resource as string))) {
        ctx.note(`the access token's aud ${JSON.stringify(claims.aud)} does not name the resource ${resource.resource}`);
      }
    },
  }),
];
