// Credential attacks (issue 27): forged, stale and misplaced tokens, the way an OAuth conformance
// suite sends them. Every forgery is made by the kit (suites/support/hosted-forgery.ts) from a real
// token of the run, so only what is forged differs. Each must be refused on a read and on a write
// endpoint, and the write must not have happened.
//
// What a refusal is: the document shows no status for a refused credential ("Errors: not shown").
// The rule is that the request is not served (no 2xx) and changes nothing; RFC 6750 §3.1 says an
// invalid token SHOULD be answered 401, which is an advisory (ADV-invalid-token-401), and so is a
// token endpoint answering a refused token with something other than a 4xx (ADV-refusal-4xx).
import { randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JWK } from 'jose';
import { NO_CREDENTIAL, type Answer, type Credential, type HostedContext } from '../../src/profiles/hosted/context.js';
import { DISCOVERY } from '../../src/protocols/hosted/document.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, is2xx, isObject, said } from '../support/http-answers.js';
import { deleteIfCreated, uid } from '../support/hosted-data.js';
import { TOKEN_EXCHANGE_GRANT, exchange, exchangeTokens, idpToken, publishedKeys, refresh, someAccessToken, tokensOf } from '../support/hosted-credentials.js';
import { allEndpointRequests, send } from '../support/hosted-endpoints.js';
import { nothingChanged } from './credentials.js';
import { LEEWAY_SECONDS, alteredSignature, forgedCredential, nowSeconds, otherKey, partsOf, publicKeyAsSecret, unsigned, type Forgery, type Parts } from '../support/hosted-forgery.js';

/** The sentences a refusal enforces, and the rule in words for the message. */
interface Rule {
  cites: [string, ...string[]];
  says: string;
}

/** A request with a forged or misplaced credential was not served. */
function refused(a: Answer, as: Credential, rule: Rule): void {
  check.by(...rule.cites).that(!is2xx(a), `${a.operation} with a forged or misplaced credential is not served (no 2xx)`, () => ({ message: `${a.request} with ${as.label} was served (${said(a)}): ${rule.says}`, expected: 'a refusal (not 2xx)', actual: a.status, status: [401, 403] }));
  check.advise('ADV-invalid-token-401').ok(a.status === 401, `${a.request} with ${as.label} answered ${a.status}: RFC 6750 §3.1 says an invalid token SHOULD be answered 401 (invalid_token)`, { expected: 401, actual: a.status });
}

/** One valid request to every endpoint (the token endpoints aside) sent `as`: none is served, and nothing it asked for happened. */
async function refusedByEveryEndpoint(ctx: HostedContext, as: Credential, rule: Rule): Promise<void> {
  const planned = await allEndpointRequests(ctx);
  for (const r of planned) refused(await send(ctx, r, as), as, rule);
  await nothingChanged(ctx, planned, rule.cites[0]);
}

/**
 * Each credential on a read (GET /conversations) and a write (POST /conversations with a fresh
 * userId): neither is served, and afterwards no conversation of those userIds exists.
 */
async function refusedOnReadAndWrite(ctx: HostedContext, credentials: readonly Credential[], rule: Rule): Promise<void> {
  const asked: string[] = [];
  for (const as of credentials) {
    refused(await ctx.call('GET', '/conversations', { as }), as, rule);
    const userId = uid('forged');
    asked.push(userId);
    const write = await ctx.call('POST', '/conversations', { as, body: { userId } });
    deleteIfCreated(ctx, write, '/conversations');
    refused(write, as, rule);
  }
  const list = check2xx(await ctx.call('GET', '/conversations'), 'HOSTED-ENDPOINT-list_conversations');
  const made = asked.filter((u) => list.text.includes(u));
  check.by(...rule.cites).that(made.length === 0, 'the refused creations created no conversation', () => ({
    message: `the creations were refused, yet GET /conversations shows ${made.length} conversation(s) they asked for (userId ${made[0]}): a refused request changes nothing; ${rule.says}`,
    expected: 'nothing created',
    actual: made,
  }));
}

/** A token endpoint's answer to a token it must refuse: not 2xx, and no access token in it. */
function tokenRefused(a: Answer, what: string, rule: Rule): void {
  const issued = a.isJson && isObject(a.json) && typeof a.json.access_token === 'string';
  check.by(...rule.cites).that(!is2xx(a) && !issued, `${a.operation} with a token it must refuse answers no 2xx and no access_token`, () => ({ message: `${a.request} with ${what} answered ${a.status}${issued ? ' with an access_token' : ''}: ${rule.says}`, expected: 'a refusal (4xx, no token)', actual: a.status }));
  check.advise('ADV-refusal-4xx').ok(a.status >= 400 && a.status < 500, `${a.request} with ${what} answered ${a.status}: a refused token is a client error (4xx); a 5xx says the service failed`, { expected: '4xx', actual: a.status });
}

/** A real access token of the service to forge from: the run's, else one exchanged (skips without either). */
async function realAccessToken(ctx: HostedContext): Promise<{ token: string; parts: Parts }> {
  const { token } = await someAccessToken(ctx, 'HOSTED-AUTH-5');
  const parts = partsOf(token);
  check.by('HOSTED-AUTH-TOKEN').that(parts !== undefined, 'the access token is a JWT', () => ({ message: 'the access token is not a JWT (the document: "a short-lived signed token (JWT)"), so no forgery of it can be made', expected: 'a JWT', actual: '***' }));
  return { token, parts: parts! };
}

const UNSIGNED: Rule = {
  cites: ['HOSTED-AUTH-TOKEN', 'RFC8725-3.1', 'RFC7519-7.2'],
  says: 'an access token is a signed JWT, verified with the algorithm the service expects, never "none" because the token says so (RFC 8725 §3.1)',
};
const SIGNATURE: Rule = {
  cites: ['HOSTED-AUTH-TOKEN', 'RFC7515-5.2', 'RFC8725-3.10'],
  says: "a JWT whose signature does not verify with the service's own signing key is refused (RFC 7515 §5.2), whatever key its header names or carries (RFC 8725 §3.10)",
};
const CONFUSION: Rule = {
  cites: ['HOSTED-AUTH-TOKEN', 'RFC8725-3.1'],
  says: "each key is used with its one algorithm: an HS256 token keyed with the service's public key is refused (RFC 8725 §2.1, §3.1)",
};
const EXPIRED: Rule = {
  cites: ['HOSTED-AUTH-TOKEN', 'RFC7519-4.1.4'],
  says: 'a JWT on or after its exp MUST NOT be accepted (RFC 7519 §4.1.4); the access token is short-lived',
};
const REFRESH_AS_ACCESS: Rule = {
  cites: ['HOSTED-AUTH-BEARER', 'RFC6749-1.5'],
  says: 'a refresh token is for the refresh operation only, never a credential of the resource endpoints (RFC 6749 §1.5)',
};
const ACCESS_AS_REFRESH: Rule = {
  cites: ['HOSTED-AUTH-6', 'RFC6749-6'],
  says: 'the refresh operation takes the refresh token issued with the access token (rule 6; RFC 6749 §6), not the access token',
};
const UNKNOWN_REFRESH: Rule = {
  cites: ['HOSTED-AUTH-6', 'RFC6749-6'],
  says: 'the refresh operation validates the refresh token (RFC 6749 §6): one the service never issued yields no token',
};
const AUDIENCE: Rule = {
  cites: ['HOSTED-AUTH-5', 'RFC7519-4.1.3', 'RFC8725-3.9'],
  says: "a JWT whose aud does not name this service MUST be rejected (RFC 7519 §4.1.3): the identity provider's token is exchanged for an access token (rule 5), it is not one",
};
const SUBJECT_FORGED: Rule = {
  cites: ['HOSTED-AUTH-5', 'RFC7519-7.2', 'RFC8693-2.2.2'],
  says: "the exchange takes a token from an identity provider: one no trusted provider signed (garbage, unsigned, altered, another key's) is refused (RFC 8693 §2.2.2) and yields no token",
};
const SUBJECT_EXPIRED: Rule = {
  cites: ['HOSTED-AUTH-5', 'RFC7519-4.1.4'],
  says: "an identity provider's token past its exp MUST NOT be accepted (RFC 7519 §4.1.4), so it yields no token",
};

/**
 * A token past its exp by more than the leeway RFC 7519 allows, as given; skips (the group
 * incomplete) without one, or when the one given is not past its exp by that much.
 */
function expired(ctx: HostedContext, token: string | undefined, flag: string, what: string): string {
  if (token === undefined) ctx.skip(`no ${what} past its exp: pass ${flag} TOKEN (a token kept from an earlier run); until then the group is incomplete`, flag);
  const exp = partsOf(token)?.payload.exp;
  if (typeof exp !== 'number' || exp > nowSeconds() - LEEWAY_SECONDS) {
    ctx.skip(`the ${what} given with ${flag} is ${typeof exp === 'number' ? `not past its exp by ${LEEWAY_SECONDS / 60} minutes (exp ${new Date(exp * 1000).toISOString()})` : 'not a JWT with an exp'}: pass one that expired earlier`, flag);
  }
  return token;
}

/**
 * The given stale token is one this service signed (its published keys verify it, as of a second
 * before its exp): a token of another service would be refused for its signature, proving nothing
 * about expiry. Skips when it is not.
 */
async function issuedByTheService(ctx: HostedContext, token: string): Promise<void> {
  const jwks = await publishedKeys(ctx, 'HOSTED-DISCOVERY-3');
  try {
    await jwtVerify(token, createLocalJWKSet(jwks), { currentDate: new Date((Number(partsOf(token)!.payload.exp) - 1) * 1000) });
  } catch (err) {
    ctx.skip(`the token given with --expired-token does not verify against ${DISCOVERY.jwks} (${(err as Error).message}): it is not a token of this service; pass one it issued`, '--expired-token');
  }
}

/**
 * The run's identity-provider token as a credential, when its aud names another audience than the
 * service; otherwise undefined, with a note saying why it is not judged (a service may take a token
 * whose aud names it; a token that is not a JWT has no audience to read).
 */
async function idpTokenOfAnotherAudience(ctx: HostedContext): Promise<Credential | undefined> {
  const token = await idpToken(ctx);
  const parts = partsOf(token);
  if (parts === undefined) return void ctx.note('the identity-provider token is not a JWT: its audience cannot be read, so it is not judged here');
  if (parts.payload.aud === undefined || (await namesTheService(ctx, parts.payload.aud))) {
    return void ctx.note(`the identity-provider token's aud (${JSON.stringify(parts.payload.aud ?? null)}) does not name another audience: a service may take such a token itself, so it is not judged`);
  }
  return ctx.bearer(token, `a token of the identity provider (aud ${JSON.stringify(parts.payload.aud)}, iss ${JSON.stringify(parts.payload.iss ?? null)})`);
}

/** The audience of a JWT names the service: its origin or base URL, the resource or issuer its metadata declares. */
async function namesTheService(ctx: HostedContext, aud: unknown): Promise<boolean> {
  const auds = (Array.isArray(aud) ? aud : [aud]).filter((a): a is string => typeof a === 'string').map((a) => a.replace(/\/+$/, ''));
  const ids = new Set([ctx.target.origin, ctx.target.baseUrl]);
  for (const [path, member] of [[DISCOVERY.protectedResource, 'resource'], [DISCOVERY.authorizationServer, 'issuer']] as const) {
    const doc = await ctx.fetch(path);
    if (doc.isJson && isObject(doc.json) && typeof doc.json[member] === 'string') ids.add(doc.json[member]);
  }
  return auds.some((a) => [...ids].some((id) => id.replace(/\/+$/, '') === a));
}

const credentials = (forgeries: Forgery[]) => forgeries.map(forgedCredential);

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-050',
    group: 'credentials',
    clauses: UNSIGNED.cites,
    title: 'An unsigned JWT (alg "none") is refused, and changes nothing',
    asserts:
      'Takes a real access token of the service (the run\'s, else one exchanged; skipped without either) and sends its header and claims ' +
      'unsigned: alg "none" with no signature, alg "None", and alg "none" with the real signature kept. Each, on GET /conversations and on ' +
      'POST /conversations, is not served (no 2xx), and no conversation it asked for exists afterwards. 401 is an advisory (RFC 6750 §3.1 SHOULD).',
    async run(ctx) {
      const real = await realAccessToken(ctx);
      await refusedOnReadAndWrite(ctx, credentials(unsigned(real.token, real.parts)), UNSIGNED);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-051',
    group: 'credentials',
    clauses: SIGNATURE.cites,
    title: 'A JWT whose signature is wrong, or made by another key, is refused, and changes nothing',
    asserts:
      'From a real access token (skipped without one): the token with its signature altered; its claims signed by a key of the kit under the real kid; ' +
      'its claims signed by a key of the kit that the token carries in its own jwk header. Each, on GET and POST /conversations, is not served, and nothing is created.',
    async run(ctx) {
      const real = await realAccessToken(ctx);
      await refusedOnReadAndWrite(ctx, credentials([alteredSignature(real.token), ...(await otherKey(real.parts))]), SIGNATURE);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-052',
    group: 'credentials',
    clauses: CONFUSION.cites,
    title: "A JWT signed with HS256 and the service's public key as the secret is refused (key confusion)",
    asserts:
      'From a real access token (skipped without one) and the key of /.well-known/jwks.json that signed it (its kid, else each published key, at most two): ' +
      'the claims with alg HS256, keyed with that public key as PEM, PEM with a trailing newline, and JWK text. Each, on GET and POST /conversations, is not served, and nothing is created.',
    async run(ctx) {
      const real = await realAccessToken(ctx);
      const keys = (await publishedKeys(ctx, 'HOSTED-DISCOVERY-3')).keys.filter(isObject);
      const published = check.by('HOSTED-DISCOVERY-3');
      published.that(keys.length > 0, `${DISCOVERY.jwks} publishes a signing key`, () => ({ message: `${DISCOVERY.jwks}: no signing key is published`, expected: 'signing keys', actual: keys }));
      const own = keys.filter((k) => k.kid !== undefined && k.kid === real.parts.header.kid);
      const forgeries: Forgery[] = [];
      for (const key of (own.length > 0 ? own : keys).slice(0, 2)) {
        try {
          forgeries.push(...(await publicKeyAsSecret(real.parts, key as JWK)));
        } catch (err) {
          ctx.note(`a published key could not be read as a public key (${(err as Error).message}): skipped`);
        }
      }
      published.that(forgeries.length > 0, `${DISCOVERY.jwks}: a published key is a public key the kit can read`, () => ({ message: `${DISCOVERY.jwks}: no published key is a public key the kit can read`, expected: 'a public JWK', actual: keys }));
      await refusedOnReadAndWrite(ctx, credentials(forgeries), CONFUSION);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-053',
    group: 'credentials',
    clauses: EXPIRED.cites,
    title: 'An access token past its exp is refused, and changes nothing',
    asserts:
      'An access token of the service that expired more than 5 minutes ago (the embedded service makes one; against another service --expired-token, ' +
      'skipped without it), on GET and POST /conversations: not served, and nothing is created.',
    async run(ctx) {
      const token = expired(ctx, ctx.target.expiredToken, '--expired-token', 'access token of the service');
      await issuedByTheService(ctx, token);
      await refusedOnReadAndWrite(ctx, [{ authorization: `Bearer ${token}`, label: 'an access token past its exp', repro: '"Bearer ${TCK_EXPIRED_TOKEN:?set TCK_EXPIRED_TOKEN to an access token past its exp}"' }], EXPIRED);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-054',
    group: 'credentials',
    clauses: [...REFRESH_AS_ACCESS.cites, ...ACCESS_AS_REFRESH.cites],
    title: 'A refresh token is no access token, and an access token is no refresh token',
    asserts:
      'Exchanges (skipped without an identity-provider token). The refresh token as a Bearer credential, on GET and POST /conversations: not served, nothing created. ' +
      'The access token sent to POST /auth/refresh as the refresh token: not 2xx and no access_token in the answer.',
    async run(ctx) {
      const t = await exchangeTokens(ctx, 'HOSTED-AUTH-5');
      const asBearer = ctx.bearer(t.refreshToken, `the refresh token issued by call ${ctx.exchanges.length - 1} (as a Bearer credential)`);
      await refusedOnReadAndWrite(ctx, [asBearer], REFRESH_AS_ACCESS);
      tokenRefused(await refresh(ctx, t.accessToken), 'the access token as the refresh token', ACCESS_AS_REFRESH);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-058',
    group: 'credentials',
    clauses: UNKNOWN_REFRESH.cites,
    title: 'A refresh token the service never issued is refused; a reused one revokes its family (advisory)',
    asserts:
      'POST /auth/refresh with a made-up refresh token, and with none at all: not 2xx and no access_token (a 5xx is an advisory). Then (skipped without an identity-provider token) exchanges, refreshes, ' +
      'and presents the spent refresh token again (refused, as SCN-H-028 checks): that the refresh token and the access token issued by the rotation still work afterwards is an advisory (RFC 9700 §4.14.2).',
    async run(ctx) {
      tokenRefused(await refresh(ctx, `tck-${randomBytes(32).toString('base64url')}`), 'a refresh token the service never issued', UNKNOWN_REFRESH);
      tokenRefused(await ctx.call('POST', '/auth/refresh', { as: NO_CREDENTIAL, body: { grant_type: 'refresh_token' } }), 'no refresh token at all', UNKNOWN_REFRESH);
      const first = await exchangeTokens(ctx, 'HOSTED-AUTH-5');
      const second = tokensOf(ctx, await refresh(ctx, first.refreshToken, first.credential), 'HOSTED-PAYLOAD-refresh_access_token');
      const again = await refresh(ctx, first.refreshToken);
      check.by('HOSTED-AUTH-6').that(!is2xx(again), 'the spent refresh token, presented again, is refused', () => ({ message: `HOSTED-AUTH-6: rotation: the spent refresh token was accepted again (${again.request} answered ${said(again)})`, expected: 'a refusal', actual: again.status }));
      const access = await ctx.call('GET', '/conversations', { as: second.credential });
      check.advise('ADV-reuse-revokes-family').ok(!is2xx(access), `after the spent refresh token was presented again, ${access.request} with ${second.credential.label} (issued by the rotation) was still served (${said(access)})`, { expected: 'a refusal', actual: access.status });
      const next = await refresh(ctx, second.refreshToken);
      check.advise('ADV-reuse-revokes-family').ok(!is2xx(next), `after the spent refresh token was presented again, ${next.request} with the refresh token issued by the rotation answered ${said(next)}`, { expected: 'a refusal', actual: next.status });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-055',
    group: 'credentials',
    clauses: AUDIENCE.cites,
    title: "The identity provider's own token (another audience) is refused as an access token",
    asserts:
      "Takes a token of the run's identity provider (skipped without one). When its aud names neither the service's origin or base URL nor the resource or issuer of its " +
      'metadata, it is sent as a Bearer credential on GET and POST /conversations: not served, nothing created. A token whose aud names the service is not judged (a note says so).',
    async run(ctx) {
      const as = await idpTokenOfAnotherAudience(ctx);
      if (as !== undefined) await refusedOnReadAndWrite(ctx, [as], AUDIENCE);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-056',
    group: 'credentials',
    clauses: SUBJECT_FORGED.cites,
    title: 'The token exchange refuses subject tokens no trusted identity provider issued',
    asserts:
      "POST /auth/exchange with: a garbage string; and, from a real token of the run's identity provider (skipped without one), its claims unsigned (alg \"none\", \"None\", " +
      "\"none\" with the signature kept), with the signature altered, signed by a key of the kit under the provider's kid and with its own jwk header; and with no subject token at all. Each answer is not 2xx and holds no access_token.",
    async run(ctx) {
      const real = await idpToken(ctx);
      const parts = partsOf(real);
      const forgeries: Forgery[] = [{ token: `tck-not-a-token-${uid('garbage')}`, what: 'a garbage string' }];
      if (parts === undefined) ctx.note('the identity-provider token is not a JWT: only the garbage token was sent');
      else forgeries.push(...unsigned(real, parts), alteredSignature(real), ...(await otherKey(parts)));
      for (const f of forgeries) tokenRefused(await exchange(ctx, f.token), f.what, SUBJECT_FORGED);
      tokenRefused(await ctx.call('POST', '/auth/exchange', { as: NO_CREDENTIAL, body: { grant_type: TOKEN_EXCHANGE_GRANT } }), 'no subject token at all', SUBJECT_FORGED);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-057',
    group: 'credentials',
    clauses: SUBJECT_EXPIRED.cites,
    title: "The token exchange refuses an identity provider's token past its exp",
    asserts:
      'POST /auth/exchange with a token of the trusted identity provider that expired more than 5 minutes ago (the embedded run mints one; against another service ' +
      '--expired-idp-token, skipped without it): not 2xx, and no access_token in the answer.',
    async run(ctx) {
      const token = expired(ctx, ctx.target.expiredIdpToken, '--expired-idp-token', 'identity-provider token');
      tokenRefused(await exchange(ctx, token), "an identity provider's token past its exp", SUBJECT_EXPIRED);
    },
  }),
  // Issue 34 (the coverage matrix, credential × endpoint): SCN-H-053 and SCN-H-054 send these to
  // GET and POST /conversations; a service checks exp, or the kind of token, in one place of its
  // routing or in each route, so every endpoint is asked.
  defineHostedScenario({
    id: 'SCN-H-250',
    group: 'credentials',
    clauses: EXPIRED.cites,
    title: 'An access token past its exp is refused by every endpoint, and changes nothing',
    asserts:
      'An access token of the service that expired more than 5 minutes ago (the embedded service makes one; against another service --expired-token, skipped without it) ' +
      "sent with one valid request to every endpoint (the token endpoints aside): none is served (no 2xx), and nothing they asked for happened (checked with the run's credential).",
    async run(ctx) {
      const token = expired(ctx, ctx.target.expiredToken, '--expired-token', 'access token of the service');
      await issuedByTheService(ctx, token);
      const as = ctx.bearer(token, 'the access token past its exp (--expired-token)');
      await refusedByEveryEndpoint(ctx, as, EXPIRED);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-251',
    group: 'credentials',
    clauses: REFRESH_AS_ACCESS.cites,
    title: 'A refresh token is refused as a Bearer credential by every endpoint, and changes nothing',
    asserts:
      'Exchanges (skipped without an identity-provider token), then sends the refresh token as a Bearer credential with one valid request to every endpoint (the token endpoints aside): ' +
      "none is served (no 2xx), and nothing they asked for happened (checked with the run's credential).",
    async run(ctx) {
      const t = await exchangeTokens(ctx, 'HOSTED-AUTH-5');
      const as = ctx.bearer(t.refreshToken, `the refresh token issued by call ${ctx.exchanges.length - 1} (as a Bearer credential)`);
      await refusedByEveryEndpoint(ctx, as, REFRESH_AS_ACCESS);
    },
  }),
  defineHostedScenario({
    id: 'SCN-H-254',
    group: 'credentials',
    clauses: AUDIENCE.cites,
    title: "The identity provider's own token is refused as an access token by every endpoint, and changes nothing",
    asserts:
      "Takes a token of the run's identity provider (skipped without one). When its aud names neither the service's origin or base URL nor the resource or issuer of its metadata, " +
      "it is sent as a Bearer credential with one valid request to every endpoint (the token endpoints aside): none is served (no 2xx), and nothing they asked for happened. A token whose aud names the service is not judged.",
    async run(ctx) {
      const as = await idpTokenOfAnotherAudience(ctx);
      if (as !== undefined) await refusedByEveryEndpoint(ctx, as, AUDIENCE);
    },
  }),
];
