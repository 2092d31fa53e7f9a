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
  const { DevIdentityProvider, newcomerCredentials, startHostedServer } = await import('../servers/hosted/index.js');
  const idp = await DevIdentityProvider.generate();
  const server = await startHostedServer({
    port: 0,
    identityProviders: [idp.trustedIssuer()],
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(workspaceId !== undefined ? { workspaceId } : {}),
  });
  // A key of a second workspace (the isolation and reveal checks), and tokens past their exp: the service's and the identity provider's.
  const { otherApiKey, expiredToken, expiredIdpToken } = await newcomerCredentials(server, idp);
  return {
    otherApiKey,
    expiredToken,
    expiredIdpToken: expiredIdpToken!,
    target: { baseUrl: server.baseUrl, origin: server.url, apiKey: server.apiKey, workspaceId: server.workspaceId },
    mint: () => idp.mint({ workspaceId: server.workspaceId }),
    close: () => server.close(),
  };
}
