// Faulty and valid variants of the hosted reference service for the credential attacks, the
// workspace scoping, the challenge header and the read-back of every write (issue 27). Written
// before the scenarios that must catch them: each faulty variant breaks exactly one rule, the way
// real services do (a JWT library left to pick the algorithm, a decode instead of a verify, an
// audience nobody checks, a delete that only hides a row); each valid variant makes a choice the
// document leaves open. A variant that "accepts" a credential serves the request as the bootstrap
// key, so what the forged credential asked for really happens.
import { compactVerify, createLocalJWKSet, decodeJwt, decodeProtectedHeader, exportSPKI, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { isRefusal } from '../../src/servers/hosted/credentials.js';
import type { HostedRequest, Reply, RouteContext, RunningHostedServer } from '../../src/servers/hosted/index.js';
import { at, combine, json, mapAnswer, mapReplies, pathOf, replaceHandler, sharedIdp, type HostedVariant } from './profile-harness.js';

// ------------------------------------------------------------------ reading a presented token

interface PresentedJwt {
  token: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** The Bearer value of a request when it decodes as a JWT (whatever its signature). */
function presentedJwt(request: HostedRequest): PresentedJwt | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1];
  if (token === undefined || token.split('.').length !== 3) return undefined;
  try {
    return { token, header: decodeProtectedHeader(token) as Record<string, unknown>, payload: decodeJwt(token) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

const asBootstrap = (request: HostedRequest, service: RunningHostedServer): HostedRequest => ({ ...request, authorization: `Bearer ${service.apiKey}` });

/** A variant that serves, as the bootstrap key, every request whose credential `accepts` says yes to. */
function accepting(accepts: (request: HostedRequest, service: RunningHostedServer) => boolean | Promise<boolean>): HostedVariant {
  return {
    intercept: (service) => async (request, next) => next((await accepts(request, service())) ? asBootstrap(request, service()) : request),
  };
}

async function holds(check: () => Promise<unknown>): Promise<boolean> {
  try {
    await check();
    return true;
  } catch {
    return false;
  }
}

const serviceKey = async (service: RunningHostedServer) => (await importJWK(service.tokens.publicJwk, 'ES256')) as CryptoKey;
const idpKeys = async () => createLocalJWKSet((await sharedIdp()).trustedIssuer().jwks as { keys: JWK[] });

// ------------------------------------------------------------------ forged access tokens accepted

/** `alg: none` (in any case) is taken as a signed token: the signature is never looked at. */
export const unsignedTokensAccepted = accepting((request) => String(presentedJwt(request)?.header.alg ?? '').toLowerCase() === 'none');

/** An unsigned token is answered 401, but only after its request was served: the write happens. */
export const unsignedTokensWriteAnyway: HostedVariant = {
  intercept: (service) => async (request, next) => {
    if (String(presentedJwt(request)?.header.alg ?? '').toLowerCase() !== 'none') return next(request);
    await next(asBootstrap(request, service()));
    return { status: 401, body: { error: 'invalid token' }, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
  },
};

/** The token is decoded, not verified: any JWT naming the service as issuer and not yet expired is accepted. */
export const tokensDecodedNotVerified = accepting((request, service) => {
  const jwt = presentedJwt(request);
  return jwt !== undefined && jwt.payload.iss === service.url && Number(jwt.payload.exp) * 1000 > Date.now();
});

/** A key embedded in the token's own `jwk` header is trusted to verify it (CVE-2018-0114). */
export const embeddedJwkTrusted = accepting(async (request) => {
  const jwt = presentedJwt(request);
  if (jwt === undefined || typeof jwt.header.jwk !== 'object' || jwt.header.jwk === null) return false;
  return holds(async () => compactVerify(jwt.token, await importJWK(jwt.header.jwk as JWK, String(jwt.header.alg))));
});

/** The algorithm is the token's choice: HS256 is verified with the service's public key (its PEM, as read from a file) as the secret. */
export const publicKeyAsHmacSecret = accepting(async (request, service) => {
  const jwt = presentedJwt(request);
  if (jwt?.header.alg !== 'HS256') return false;
  const pem = `${await exportSPKI(await serviceKey(service))}\n`;
  return holds(() => jwtVerify(jwt.token, new TextEncoder().encode(pem)));
});

/** Signature, issuer and audience are checked; `exp` is not. */
export const expiryNotChecked = accepting(async (request, service) => {
  const jwt = presentedJwt(request);
  if (jwt === undefined) return false;
  return holds(async () => jwtVerify(jwt.token, await serviceKey(service), { issuer: service.url, audience: service.url, algorithms: ['ES256'], clockTolerance: 10 * 365 * 24 * 3600 }));
});

/** Tokens signed by the trusted identity provider are taken as access tokens: their audience is never checked. */
export const idpTokensAccepted = accepting(async (request) => {
  const jwt = presentedJwt(request);
  return jwt !== undefined && holds(async () => jwtVerify(jwt.token, await idpKeys()));
});

/** A refresh token the service issued is accepted where an access token belongs. */
export function refreshTokensAsBearer(): HostedVariant {
  const issued = new Set<string>();
  return {
    intercept: (service) => async (request, next) => {
      const presented = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1];
      const reply = await next(presented !== undefined && issued.has(presented) ? asBootstrap(request, service()) : request);
      const refresh = (reply.body as { refresh_token?: unknown } | undefined)?.refresh_token;
      if (typeof refresh === 'string') issued.add(refresh);
      return reply;
    },
  };
}

// ------------------------------------------------------------------ the token endpoints

const tokenReply = (r: Awaited<ReturnType<RouteContext['tokens']['exchange']>>): Reply => (isRefusal(r) ? json(r.status, { error: r.error }) : json(200, r));

/** A fresh token pair for the subject of a token the faulty endpoint chose to believe. */
async function pairFor(ctx: RouteContext, subject: unknown, workspaceId: unknown): Promise<Reply> {
  const idp = await sharedIdp();
  const minted = await idp.mint({ subject: typeof subject === 'string' ? subject : 'tck-forger', ...(typeof workspaceId === 'string' ? { workspaceId } : {}) });
  return tokenReply(await ctx.tokens.exchange(minted));
}

const bodyToken = (body: Record<string, unknown>, names: string[]): string | undefined => names.map((n) => body[n]).find((v): v is string => typeof v === 'string' && v !== '');
const SUBJECT_FIELDS = ['subjectToken', 'subject_token', 'idToken', 'id_token', 'token'];

/** The refresh operation also takes a valid access token as the refresh token. */
export const accessTokenRefreshes = replaceHandler('refresh_access_token', async (ctx, original) => {
  const given = bodyToken(ctx.body, ['refreshToken', 'refresh_token']);
  const who = given === undefined ? undefined : await ctx.tokens.verify(given);
  return who !== undefined && !isRefusal(who) ? pairFor(ctx, who.subject, who.workspaceId) : original(ctx);
});

/** The exchange decodes the subject token and believes it when its issuer is a trusted one: no signature check. */
export const exchangeDecodesOnly = replaceHandler('token_exchange', async (ctx, original) => {
  const token = bodyToken(ctx.body, SUBJECT_FIELDS);
  let claims: Record<string, unknown> | undefined;
  try {
    claims = token === undefined ? undefined : (decodeJwt(token) as Record<string, unknown>);
  } catch {
    claims = undefined;
  }
  return claims !== undefined && claims.iss === (await sharedIdp()).issuer ? pairFor(ctx, claims.sub, claims.workspace_id) : original(ctx);
});

/** The exchange takes a subject token that is not a JWT as an opaque token of a default user. */
export const exchangeTakesOpaqueTokens = replaceHandler('token_exchange', async (ctx, original) => {
  const token = bodyToken(ctx.body, SUBJECT_FIELDS);
  return token !== undefined && token.split('.').length !== 3 ? pairFor(ctx, 'opaque-user', undefined) : original(ctx);
});

/** The exchange verifies the subject token's signature but not its `exp`. */
export const exchangeIgnoresExpiry = replaceHandler('token_exchange', async (ctx, original) => {
  const token = bodyToken(ctx.body, SUBJECT_FIELDS);
  if (token === undefined) return original(ctx);
  try {
    const { payload } = await jwtVerify(token, await idpKeys(), { clockTolerance: 10 * 365 * 24 * 3600 });
    return pairFor(ctx, payload.sub, payload.workspace_id);
  } catch {
    return original(ctx);
  }
});

// ------------------------------------------------------------------ workspaces, the challenge, the scheme

/** The key list holds the keys of every workspace. */
export const keysOfEveryWorkspaceListed = replaceHandler('list_api_keys', (ctx) => json(200, { workspaceId: ctx.principal!.workspaceId, keys: [...ctx.keys.workspaces].flatMap((w) => ctx.keys.list(w)) }));

/** Every 401's WWW-Authenticate rewritten by `edit` (given the header and the reply; undefined: no header). */
export function challengeEdited(edit: (challenge: string | undefined, reply: Reply) => string | undefined): HostedVariant {
  return mapReplies((r) => {
    if (r.status !== 401) return r;
    const { 'www-authenticate': old, ...headers } = r.headers ?? {};
    const challenge = edit(old, r);
    return { ...r, headers: challenge === undefined ? headers : { ...headers, 'www-authenticate': challenge } };
  });
}

/** A 401 carries no WWW-Authenticate header. */
export const unauthorizedWithoutChallenge = challengeEdited(() => undefined);

/** A 401 challenges with a scheme of the service's own, not Bearer. */
export const unauthorizedWithApiKeyChallenge = challengeEdited(() => 'ApiKey realm="agent-memory"');

/** The scheme is matched case-sensitively: "bearer <key>" is refused. */
export const schemeCaseSensitive: HostedVariant = {
  intercept: () => (request, next) =>
    request.authorization !== undefined && /^bearer\s/i.test(request.authorization) && !request.authorization.startsWith('Bearer ')
      ? Promise.resolve({ status: 401, body: { error: 'use the Bearer scheme' }, headers: { 'www-authenticate': 'Bearer realm="agent-memory"' } })
      : next(request),
};

// ------------------------------------------------------------------ writes not read back

/** A bulk add keeps the first 20 messages of a batch (and answers those). */
export const bulkKeepsTwenty = replaceHandler('bulk_add_messages', (ctx, original) =>
  original({ ...ctx, body: { ...ctx.body, messages: Array.isArray(ctx.body.messages) ? ctx.body.messages.slice(0, 20) : ctx.body.messages } }),
);

/** update_entity answers the entity as patched but stores nothing. */
export const updateNotStored = replaceHandler('update_entity', (ctx) => {
  const patch = Object.fromEntries(['name', 'description'].filter((f) => typeof ctx.body[f] === 'string').map((f) => [f, ctx.body[f]]));
  return json(200, { ...ctx.store.entityView(ctx.params.id!), ...patch });
});

/** delete_conversation answers 204 and deletes nothing. */
export const conversationDeleteIgnored = replaceHandler('delete_conversation', () => ({ status: 204 }));

/** delete_conversation only hides the conversation from the list: its messages stay readable. */
export function conversationDeleteHidesOnly(): HostedVariant {
  const hidden = new Set<string>();
  return combine(
    replaceHandler('delete_conversation', (ctx) => (hidden.add(ctx.params.id!), { status: 204 })),
    mapAnswer('list_conversations', (b) => ({ ...b, conversations: b.conversations.filter((c: { id: string }) => !hidden.has(c.id)) })),
  );
}

/** delete_entity answers 204 and deletes nothing. */
export const entityDeleteIgnored = replaceHandler('delete_entity', () => ({ status: 204 }));

/** A deleted entity stays a node of the graph. */
export function deletedEntityStaysInGraph(): HostedVariant {
  const ghosts: unknown[] = [];
  return combine(
    replaceHandler('delete_entity', (ctx, original) => {
      const e = ctx.store.listEntities().find((x) => x.id === ctx.params.id);
      if (e !== undefined) ghosts.push(e);
      return original(ctx);
    }),
    mapAnswer('get_entity_graph', (b) => ({ ...b, nodes: [...b.nodes, ...ghosts] })),
  );
}

/** Feedback also overwrites the entity's description (with the feedback as JSON). */
export const feedbackOverwritesDescription = replaceHandler('set_entity_feedback', async (ctx, original) => {
  const reply = await original(ctx);
  ctx.store.updateEntity(ctx.params.id!, { description: JSON.stringify(ctx.body) });
  return reply;
});

/** Feedback is stored on the newest other entity instead of the one in the path. */
export const feedbackOnAnotherEntity = replaceHandler('set_entity_feedback', (ctx, original) => {
  const other = ctx.store.listEntities().filter((e) => e.id !== ctx.params.id).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))[0];
  return original(other === undefined ? ctx : { ...ctx, params: { ...ctx.params, id: other.id } });
});

/** The graph leaves out the SAME_AS links merges make. */
export const mergeLinkHidden = mapAnswer('get_entity_graph', (b) => ({ ...b, edges: b.edges.filter((e: { type?: string }) => e.type !== 'SAME_AS') }));

/** A merge deletes the target it merged into. */
export const mergeLosesTarget = replaceHandler('merge_entities', async (ctx, original) => {
  const reply = await original(ctx);
  ctx.store.deleteEntity(String(ctx.body.targetId));
  return reply;
});

// ------------------------------------------------------------------ valid: what the document leaves open

/** A 401 challenges with a bare `Bearer` (no realm, error or resource_metadata). */
export const bareChallenge = challengeEdited(() => 'Bearer');

/** A 401 offers two challenges, the Bearer one second and in lower case. */
export const twoChallenges = challengeEdited(() => 'Basic realm="agent-memory", bearer realm="agent-memory", error="invalid_token"');

/** The exchange refuses a subject token with 400 invalid_request (RFC 8693 §2.2.2) instead of 401. */
export const exchangeRefusesWith400 = mapReplies((r, request) => (at('/v1/auth/exchange')(request) && r.status === 401 ? json(400, { error: 'invalid_request', error_description: 'the subject token is not valid' }) : r));

/** A token with an algorithm the service never uses (none, HS256) is answered 400 invalid_request, as malformed (RFC 6750 §3.1). */
export const unusableAlgorithmIs400: HostedVariant = {
  intercept: () => (request, next) =>
    ['none', 'hs256'].includes(String(presentedJwt(request)?.header.alg ?? '').toLowerCase())
      ? Promise.resolve(json(400, { error: 'invalid_request', error_description: 'unsupported token algorithm' }))
      : next(request),
};

/** The key list shows the caller's workspace whatever workspace the query names. */
export const keyListIgnoresQuery = replaceHandler('list_api_keys', (ctx) => json(200, { workspaceId: ctx.principal!.workspaceId, keys: ctx.keys.list(ctx.principal!.workspaceId) }));

/** Deletes are soft: a deleted entity still reads by id (marked deleted) and a deleted conversation's metadata answers 410. */
export function softDeletes(): HostedVariant {
  const entities = new Map<string, unknown>();
  const conversations = new Set<string>();
  return combine(
    replaceHandler('delete_entity', (ctx, original) => {
      const e = ctx.store.listEntities().find((x) => x.id === ctx.params.id);
      if (e !== undefined) entities.set(e.id, { ...e, deleted: true, deletedAt: new Date().toISOString() });
      return original(ctx);
    }),
    replaceHandler('get_entity', (ctx, original) => (entities.has(ctx.params.id!) ? json(200, entities.get(ctx.params.id!)) : original(ctx))),
    replaceHandler('delete_conversation', (ctx, original) => (conversations.add(ctx.params.id!), original(ctx))),
    replaceHandler('get_conversation_metadata', (ctx, original) => (conversations.has(ctx.params.id!) ? json(410, { error: 'gone' }) : original(ctx))),
  );
}

/** Without the field feedback anywhere: feedback is kept but never shown. */
export const feedbackNeverShown = mapReplies((r, request) => (pathOf(request).startsWith('/v1/entities') && r.body !== undefined ? { ...r, body: withoutFeedback(r.body) } : r));

function withoutFeedback(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutFeedback);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'feedback').map(([k, v]) => [k, withoutFeedback(v)]));
}

/** Graph edges named {id, from, to, label} instead of {source, target, type, …}. */
export const graphEdgesRenamed = mapAnswer('get_entity_graph', (b) => ({ nodes: b.nodes, edges: b.edges.map((e: { id: string; source: string; target: string; type: string }) => ({ id: e.id, from: e.source, to: e.target, label: e.type })) }));

/** A bulk add answers a count, not the messages. */
export const bulkAnswersCount = mapAnswer('bulk_add_messages', (b) => ({ conversationId: b.conversationId, added: b.messages.length }));

/** update_entity answers an acknowledgement, not the entity. */
export const updateAnswersAck = mapAnswer('update_entity', (b) => ({ id: b.id, updated: true }));

// ------------------------------------------------------------------ survivors of the credential mutation run (issue 27 item 5)
// Written before SCN-H-034 and SCN-H-058 and the advisories added to SCN-H-024 and SCN-H-025, each from a rule a mutant of
// credentials.ts or oauth.ts broke with no scenario failing.

/** The token responses of both endpoints edited (the exchange's, and the refresh's). */
const tokenAnswers = (edit: (body: any) => unknown): HostedVariant => combine(mapAnswer('token_exchange', edit), mapAnswer('refresh_access_token', edit));

/** Advisory (issue 32): the exchange answers without token_type (RFC 6749 §5.1 has it; the hosted document does not list it). */
export const exchangeWithoutTokenType = mapAnswer('token_exchange', ({ token_type: _t, ...rest }) => rest);
/** The refresh answers token_type "JWT" (the kind of token, not how it is used). */
export const refreshTokenTypeJwt = mapAnswer('refresh_access_token', (b) => ({ ...b, token_type: 'JWT' }));
/** The token responses give scope as a JSON array instead of a space-delimited string. */
export const scopeAsArray = tokenAnswers((b) => ({ ...b, scope: String(b.scope).split(' ') }));
/** Valid (issue 32): the token responses hold exactly what the document lists: access_token, refresh_token, expires_in. */
export const exactlyTheListedTokenFields = tokenAnswers((b) => ({ access_token: b.access_token, refresh_token: b.refresh_token, expires_in: b.expires_in }));
/** The exchange answers expires_in as a string (the Token exchange response table: a number). */
export const expiresInAsString = mapAnswer('token_exchange', (b) => ({ ...b, expires_in: String(b.expires_in) }));
/** Valid: the token responses leave scope out and write token_type in lower case. */
export const scopeOmittedLowerCaseType = tokenAnswers(({ scope: _s, ...b }) => ({ ...b, token_type: 'bearer' }));
/** Advisory: the scope runs the scopes together ("readwrite"), a value no metadata advertises. */
export const scopeRunTogether = tokenAnswers((b) => ({ ...b, scope: String(b.scope).replace(/ /g, '') }));

/** A refresh token the service never issued is answered with a fresh pair. */
export function unknownRefreshTokenServed(): HostedVariant {
  const issued = new Set<string>();
  const remember = (reply: Reply): Reply => {
    const token = (reply.body as { refresh_token?: unknown } | undefined)?.refresh_token;
    if (typeof token === 'string') issued.add(token);
    return reply;
  };
  return combine(
    replaceHandler('token_exchange', async (ctx, original) => remember(await original(ctx))),
    replaceHandler('refresh_access_token', async (ctx, original) => {
      const given = bodyToken(ctx.body, ['refreshToken', 'refresh_token']);
      return remember(given !== undefined && !issued.has(given) ? await pairFor(ctx, 'tck-unknown', undefined) : await original(ctx));
    }),
  );
}

/** Advisory: a reused refresh token is refused, but its family (the rotation's tokens) is not revoked. */
export function reuseRevokesNothing(): HostedVariant {
  const spent = new Set<string>();
  return replaceHandler('refresh_access_token', async (ctx, original) => {
    const given = bodyToken(ctx.body, ['refreshToken', 'refresh_token']);
    // The reference never sees the reuse, so it revokes nothing.
    if (given !== undefined && spent.has(given)) return json(401, { error: 'the refresh token was already used' });
    const reply = await original(ctx);
    if (given !== undefined && reply.status === 200) spent.add(given);
    return reply;
  });
}

/** The workspace a key belongs to (whichever it is). */
const ownerOf = (ctx: RouteContext, id: string): string | undefined => [...ctx.keys.workspaces].find((ws) => ctx.keys.list(ws).some((k) => k.id === id));

/** Advisory: revoke ignores the workspace: a key of one workspace revokes a key of another. */
export const revokeAcrossWorkspaces = replaceHandler('revoke_api_key', (ctx, original) => {
  const workspaceId = ownerOf(ctx, ctx.params.id!) ?? ctx.principal!.workspaceId;
  return original({ ...ctx, principal: { ...ctx.principal!, workspaceId } });
});

/** Advisory: reveal ignores the caller's scopes (a read-only key reveals a read-write key). */
export const revealIgnoresScopes = replaceHandler('reveal_api_key', (ctx, original) => original({ ...ctx, principal: { ...ctx.principal!, scopes: new Set(['read', 'write'] as const) } }));

/** Advisory: reveal answers the plaintext of a revoked key (kept from its creation). */
export function revealShowsRevoked(): HostedVariant {
  const plaintexts = new Map<string, string>();
  return combine(
    mapAnswer('create_api_key', (b) => {
      plaintexts.set(b.id, b.key);
      return b;
    }),
    replaceHandler('reveal_api_key', async (ctx, original) => {
      const reply = await original(ctx);
      const key = plaintexts.get(ctx.params.id!);
      const revoked = ctx.keys.list(ctx.principal!.workspaceId).some((k) => k.id === ctx.params.id && k.status === 'revoked');
      return revoked && key !== undefined ? json(200, { id: ctx.params.id, key }) : reply;
    }),
  );
}

/** Advisory: create_api_key ignores the caller's scopes (a write-only key creates a read-write key). */
export const grantIgnoresScopes = replaceHandler('create_api_key', (ctx, original) => original({ ...ctx, principal: { ...ctx.principal!, scopes: new Set(['read', 'write'] as const) } }));
