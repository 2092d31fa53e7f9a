// Faulty hosted variants for the cells of the coverage matrix (issue 34, docs/coverage.md):
// credential × endpoint. Written before the scenarios that catch them (SCN-H-150; SCN-H-250…254,
// each kind of credential sent to every endpoint): a check made in one place of a service's routing
// (the conversation routes) and not in the others.
import type { FaultRow } from '../harness/power.js';
import { pathOf, type HostedVariant } from './profile-harness.js';
import { expiryNotChecked, idpTokensAccepted, refreshTokensAsBearer, schemeCaseSensitive } from './attack-variants.js';

const onConversations = (request: { url: string }) => pathOf(request).startsWith('/v1/conversations');

/** The variant's fault everywhere but the conversation routes, where the reference answers. */
function offConversations(variant: HostedVariant): HostedVariant {
  return {
    intercept: (service) => {
      const inner = variant.intercept!(service);
      // Every request passes the inner intercept (it learns from answers); the conversation routes are answered by the reference.
      return (request, next) => (onConversations(request) ? next(request) : inner(request, next));
    },
  };
}

/** Access tokens issued by a refresh are refused by the entity reads (a token cache of the read path that the rotation does not fill). */
function refreshedRefusedByEntities(): HostedVariant {
  const refreshed = new Set<string>();
  return {
    intercept: () => async (request, next) => {
      const presented = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1];
      if (presented !== undefined && refreshed.has(presented) && request.method === 'GET' && pathOf(request).startsWith('/v1/entities')) {
        return { status: 401, body: { error: 'unknown token' }, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } };
      }
      const reply = await next(request);
      const token = (reply.body as { access_token?: unknown } | undefined)?.access_token;
      if (pathOf(request) === '/v1/auth/refresh' && typeof token === 'string') refreshed.add(token);
      return reply;
    },
  };
}

/**
 * Revocation is honoured by the conversation routes only: elsewhere a revoked key is still served,
 * as the principal it had (a cache of authenticated keys that revocation does not reach).
 */
const revocationOnConversationsOnly: HostedVariant = {
  intercept: (service) => async (request, next) => {
    const s = service();
    const token = /^Bearer\s+(\S+)$/i.exec(request.authorization ?? '')?.[1];
    if (token === undefined || pathOf(request).startsWith('/v1/conversations')) return next(request);
    const who = s.keys.authenticate(token);
    const revoked = who !== undefined && 'status' in who && /revoked/.test(who.error);
    return next(revoked ? { ...request, authorization: `Bearer ${s.apiKey}` } : request);
  },
};

export const FAULTS: FaultRow<HostedVariant>[] = [
  ['SCN-H-150', 'a revoked key is refused by the conversation routes only', revocationOnConversationsOnly,
    /^HOSTED-AUTH-3: list_entities \(GET \/v1\/entities\) with a revoked key .*: expected a refusal \(401 or 403\), got 200/],
  ['SCN-H-250', 'exp is checked by the conversation routes only', offConversations(expiryNotChecked),
    /^GET \/v1\/entities with the access token past its exp \(--expired-token\) was served \(200.*RFC 7519 §4\.1\.4/],
  ['SCN-H-251', 'a refresh token is refused as a Bearer credential by the conversation routes only', offConversations(refreshTokensAsBearer()),
    /^GET \/v1\/entities with the refresh token issued by call \d+ \(as a Bearer credential\) was served .*RFC 6749 §1\.5/],
  ['SCN-H-252', 'access tokens issued by a refresh are refused by the entity reads', refreshedRefusedByEntities(),
    /^HOSTED-AUTH-1: list_entities \(GET \/v1\/entities\) with the access token issued by call \d+ \(a refresh\) answered 401/],
  ['SCN-H-254', "the identity provider's tokens are refused by the conversation routes only", offConversations(idpTokensAccepted),
    /^GET \/v1\/entities with a token of the identity provider \(aud "agent-memory-tck", .*\) was served .*RFC 7519 §4\.1\.3/],
  ['SCN-H-253', 'the scheme is matched case-sensitively off the conversation routes', offConversations(schemeCaseSensitive),
    /^list_entities \(GET \/v1\/entities\) with the run's credential with the scheme written "bearer" answered 401.*RFC 9110 §11\.1/],
];
