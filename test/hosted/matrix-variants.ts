// Faulty hosted variants for the cells of the coverage matrix (issue 34, docs/coverage.md):
// credential × endpoint. Written before the scenario that catches them (SCN-H-150).
import type { FaultRow } from '../harness/power.js';
import { pathOf, type HostedVariant } from './profile-harness.js';

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
];
