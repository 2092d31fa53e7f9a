// The credentials of a hosted scenario: API keys made (and revoked after it) and listed, tokens
// from the exchange and the refresh, and made-up credentials that must be refused.
//
// silent: where two readings of a request field are common both are sent (the exchange's
// `subjectToken` and RFC 8693's `subject_token`; the refresh's `refreshToken` and `refresh_token`).
import { randomBytes, randomUUID } from 'node:crypto';
import { check } from '../../src/engine/assert.js';
import type { CryptoKey, JSONWebKeySet, JWTHeaderParameters } from 'jose';
import { NO_CREDENTIAL, type Answer, type Credential, type HostedContext } from '../../src/profiles/hosted/context.js';
import { DISCOVERY } from '../../src/protocols/hosted/document.js';
import { check2xx, checkObject, checkString, listItems, said, type Json } from './http-answers.js';
import { uid } from './hosted-data.js';
import { nowSeconds } from './hosted-forgery.js';

/** The grant type of the token exchange (RFC 8693 §2.1). */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

interface NewKey {
  id: string;
  key: string;
  credential: Credential;
  /** The create answer. */
  body: Json;
  answer: Answer;
}

/**
 * POST /auth/api-keys {label, scopes, workspaceId}: the new key's id and plaintext, and a
 * credential for it; the key is revoked after the scenario (with the credential that made it).
 */
export async function newKey(
  ctx: HostedContext,
  rule = 'HOSTED-ENDPOINT-create_api_key',
  options: { as?: Credential; workspaceId?: string | undefined; scopes?: string[] } = {},
): Promise<NewKey> {
  const workspaceId = options.workspaceId ?? ctx.target.workspaceId;
  if (workspaceId === undefined) ctx.note('the workspace of the run\'s credential is not known (--workspace): create_api_key was sent without workspaceId');
  const as = options.as ?? ctx.target.credential;
  const answer = await ctx.call('POST', '/auth/api-keys', { body: { label: uid('key'), scopes: options.scopes ?? ['read', 'write'], ...(workspaceId !== undefined ? { workspaceId } : {}) }, as });
  const body = checkObject(answer, rule);
  const id = checkString(body, 'id', rule, 'create_api_key');
  const key = checkString(body, 'key', rule, 'create_api_key');
  ctx.defer('DELETE', `/auth/api-keys/${encodeURIComponent(id)}`, as);
  return { id, key, credential: ctx.bearer(key, `the API key created by call ${ctx.exchanges.length - 1}`), body, answer };
}

/** GET /auth/api-keys (with the workspace, when known) and its items. */
export async function listKeys(ctx: HostedContext, rule: string, as?: Credential): Promise<{ answer: Answer; items: unknown[] }> {
  // silent: where list_api_keys takes the workspace identifier: sent as the query parameter workspaceId.
  const ws = ctx.target.workspaceId;
  const answer = check2xx(await ctx.call('GET', `/auth/api-keys${ws !== undefined ? `?workspaceId=${encodeURIComponent(ws)}` : ''}`, as ? { as } : {}), rule);
  const items = answer.isJson ? listItems(answer.json, ['keys', 'apiKeys', 'items', 'data']) : undefined;
  check.by(rule).that(items !== undefined, 'list_api_keys answers a list of keys', () => ({ message: `${rule}: list_api_keys (${answer.request}): expected a list of keys, got ${said(answer)}`, expected: 'a list of keys', actual: answer.text }));
  return { answer, items: items! };
}

// ------------------------------------------------------------------ tokens

/** Skips the scenario when the run has no identity-provider token. */
function needIdp(ctx: HostedContext): () => Promise<string> {
  if (ctx.target.idpToken === undefined) {
    ctx.skip('no identity-provider token to exchange: pass --idp-token TOKEN (or TCK_IDP_TOKEN); until then the group is incomplete', '--idp-token');
  }
  return ctx.target.idpToken;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: unknown;
  body: Json;
  answer: Answer;
  credential: Credential;
}

/** The token fields of an exchange or refresh answer (access_token and refresh_token strings). */
export function tokensOf(ctx: HostedContext, answer: Answer, rule: string): Tokens {
  const body = checkObject(answer, rule);
  const accessToken = checkString(body, 'access_token', rule, answer.operation);
  const refreshToken = checkString(body, 'refresh_token', rule, answer.operation);
  return { accessToken, refreshToken, expiresIn: body.expires_in, body, answer, credential: ctx.bearer(accessToken, `the access token issued by call ${ctx.exchanges.length - 1}`) };
}

/** POST /auth/exchange with a fresh identity-provider token (skips without one). */
export async function exchangeTokens(ctx: HostedContext, rule: string): Promise<Tokens> {
  const mint = needIdp(ctx);
  return tokensOf(ctx, await exchange(ctx, await mint()), rule);
}

/** A fresh token of the run's identity provider (skips without one). */
export const idpToken = (ctx: HostedContext): Promise<string> => needIdp(ctx)();

/** POST /auth/exchange with this subject token, whatever it is. */
export function exchange(ctx: HostedContext, subjectToken: string): Promise<Answer> {
  // silent: the field of the identity-provider token; RFC 8693's form is sent alongside the camelCase one.
  return ctx.call('POST', '/auth/exchange', {
    as: NO_CREDENTIAL,
    body: {
      subjectToken,
      subject_token: subjectToken,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      grant_type: TOKEN_EXCHANGE_GRANT,
    },
  });
}

/** POST /auth/refresh with a refresh token (and the current access token as Bearer, for services that want one). */
export function refresh(ctx: HostedContext, refreshToken: string, as: Credential = NO_CREDENTIAL): Promise<Answer> {
  // silent: the field of the refresh token (both spellings sent), and whether the call carries a Bearer credential.
  return ctx.call('POST', '/auth/refresh', { as, body: { refreshToken, refresh_token: refreshToken, grant_type: 'refresh_token' } });
}

/** An access token for the run: the given one, else one from the exchange (skips without either). */
export async function someAccessToken(ctx: HostedContext, rule: string): Promise<{ token: string; credential: Credential }> {
  if (ctx.target.accessToken !== undefined) return { token: ctx.target.accessToken, credential: ctx.bearer(ctx.target.accessToken, "the run's access token") };
  const t = await exchangeTokens(ctx, rule);
  return { token: t.accessToken, credential: t.credential };
}

/** The key set published at /.well-known/jwks.json (the scenario fails, citing `rule`, without one). */
export async function publishedKeys(ctx: HostedContext, rule: string): Promise<JSONWebKeySet> {
  const body = checkObject(await ctx.fetch(DISCOVERY.jwks), rule);
  check.by(rule).that(Array.isArray(body.keys), `${DISCOVERY.jwks} is a JWK set {keys: [...]}`, () => ({ message: `${rule}: ${DISCOVERY.jwks}: expected a JWK set {keys: [...]}, got the fields ${JSON.stringify(Object.keys(body))}`, expected: { keys: [] }, actual: body }));
  return body as unknown as JSONWebKeySet;
}

// ------------------------------------------------------------------ made-up credentials

/**
 * A JWT of the right look for the service (its origin as issuer and audience, scope "read write",
 * valid for ten minutes), under `header`, signed with `key`: one the service never made.
 */
export async function forgedAccessToken(ctx: HostedContext, header: JWTHeaderParameters, key: CryptoKey | Uint8Array): Promise<string> {
  const { SignJWT } = await import('jose');
  const now = nowSeconds();
  return new SignJWT({ scope: 'read write' })
    .setProtectedHeader(header)
    .setIssuer(ctx.target.origin)
    .setAudience(ctx.target.origin)
    .setSubject('tck-forger')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(key);
}

/** Credentials that are no credentials: each must be refused. */
export async function madeUpCredentials(ctx: HostedContext): Promise<Credential[]> {
  const { generateKeyPair } = await import('jose');
  const { privateKey } = await generateKeyPair('ES256');
  // A JWT of the right look, signed by a key nobody published.
  const forged = await forgedAccessToken(ctx, { alg: 'ES256', typ: 'at+jwt', kid: randomUUID() }, privateKey);
  const prefix = /^([A-Za-z0-9]+)_/.exec(ctx.target.apiKey ?? '')?.[1] ?? 'nams';
  // Every Authorization value sent is scrubbed from the outputs, so the reproduction makes up its own.
  const made = (authorization: string, label: string, repro: string): Credential => ({ authorization, label, repro });
  return [
    made(`Bearer tck-garbage-${randomUUID()}`, 'a made-up Bearer value', `"Bearer tck-garbage-$RANDOM$RANDOM"`),
    made(`Bearer ${prefix}_${randomBytes(32).toString('base64url')}`, `a made-up key of the service's form (${prefix}_…)`, `"Bearer ${prefix}_$(head -c 32 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')"`),
    made(`Basic ${Buffer.from(`tck:${randomUUID()}`).toString('base64')}`, 'another scheme (Basic)', `"Basic $(printf 'tck:%s' "$RANDOM" | base64)"`),
    made(`Bearer ${forged}`, 'a JWT signed by an unpublished key', `"Bearer \${TCK_FORGED_JWT:?set TCK_FORGED_JWT to a JWT signed by a key the service does not know}"`),
  ];
}
