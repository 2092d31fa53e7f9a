// The hosted profile as a caller runs it: the hosted suites by default, and the embedded hosted
// reference service (with an in-memory development identity provider) when no URL is given.
import { runHosted, type EmbeddedHosted, type HostedProfileOptions, type HostedRun } from '../profiles/hosted/run.js';

export async function runHostedProfile(options: HostedProfileOptions = {}): Promise<HostedRun> {
  const suite = options.suite ?? (await import('../../suites/hosted/index.js')).HOSTED_SCENARIOS;
  const embedded = options.url === undefined ? await startEmbeddedHosted(options.apiKey, options.workspaceId) : undefined;
  try {
    return await runHosted({ ...options, suite, ...(embedded ? { embedded } : {}) });
  } finally {
    await embedded?.close();
  }
}

/** The embedded hosted reference service on a free port, trusting an in-memory development identity provider. */
async function startEmbeddedHosted(apiKey: string | undefined, workspaceId: string | undefined): Promise<EmbeddedHosted & { close(): Promise<void> }> {
  const { DevIdentityProvider, startHostedServer } = await import('../servers/hosted/index.js');
  const idp = await DevIdentityProvider.generate();
  const server = await startHostedServer({
    port: 0,
    identityProviders: [idp.trustedIssuer()],
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(workspaceId !== undefined ? { workspaceId } : {}),
  });
  // A key of a second workspace, for the reveal rule: the service does not let a caller found one.
  const other = await server.keys.issue({ label: 'tck-other-workspace', scopes: ['read', 'write'], workspaceId: `${server.workspaceId}-other` });
  // Tokens past their exp (by an hour, beyond any clock leeway): the service's and the identity provider's.
  const anHourPast = (lifetimeMs: number) => new Date(Date.now() - lifetimeMs - 3_600_000);
  const expiredToken = await server.tokens.accessTokenIssuedAt({ subject: 'tck-expired', workspaceId: server.workspaceId, scopes: ['read', 'write'] }, anHourPast(server.tokens.accessTtl * 1000));
  const expiredIdpToken = await idp.mint({ workspaceId: server.workspaceId, ttlSeconds: 600, now: anHourPast(600_000) });
  return {
    otherApiKey: other.key,
    expiredToken,
    expiredIdpToken,
    target: { baseUrl: server.baseUrl, origin: server.url, apiKey: server.apiKey, workspaceId: server.workspaceId },
    mint: () => idp.mint({ workspaceId: server.workspaceId }),
    close: () => server.close(),
  };
}
