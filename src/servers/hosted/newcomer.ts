// What the hosted profile needs of a service beyond its bootstrap key, made by the embedded service
// itself (issue 33 item 9, issue 36): a key of a second workspace (the isolation and reveal checks
// reach across with it), an access token past its exp, and, with the development identity
// provider, an identity-provider token past its exp. `tck serve --hosted` prints them and the
// embedded run of `tck run --hosted` uses them, so neither leaves a group incomplete.
import type { RunningHostedServer } from './http.js';
import type { DevIdentityProvider } from './oauth.js';

interface NewcomerCredentials {
  /** The second workspace: the bootstrap workspace's name with "-other". */
  otherWorkspaceId: string;
  otherApiKey: string;
  /** An access token of the service an hour past its exp (beyond any clock leeway). */
  expiredToken: string;
  /** An identity-provider token an hour past its exp (with the development provider only). */
  expiredIdpToken?: string;
}

/** An hour (beyond any clock leeway) before a token of this lifetime would have expired now. */
const anHourPast = (lifetimeMs: number, now = Date.now()): Date => new Date(now - lifetimeMs - 3_600_000);

/** An identity-provider token of the development provider an hour past its exp. */
const expiredIdpToken = (idp: DevIdentityProvider, workspaceId?: string): Promise<string> =>
  idp.mint({ ttlSeconds: 600, now: anHourPast(600_000), ...(workspaceId !== undefined ? { workspaceId } : {}) });

export async function newcomerCredentials(server: RunningHostedServer, idp?: DevIdentityProvider): Promise<NewcomerCredentials> {
  const otherWorkspaceId = `${server.workspaceId}-other`;
  const other = await server.keys.issue({ label: 'second-workspace', scopes: ['read', 'write'], workspaceId: otherWorkspaceId });
  const expiredToken = await server.tokens.accessTokenIssuedAt({ subject: 'tck-expired', workspaceId: server.workspaceId, scopes: ['read', 'write'] }, anHourPast(server.tokens.accessTtl * 1000));
  return {
    otherWorkspaceId,
    otherApiKey: other.key,
    expiredToken,
    ...(idp !== undefined ? { expiredIdpToken: await expiredIdpToken(idp, server.workspaceId) } : {}),
  };
}
