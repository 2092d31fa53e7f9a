// The hosted REST interface on the command line:
//   tck serve --hosted   the embedded hosted reference service (and, with --bridge-port, the bridge
//                        reference over the same store);
//   tck token            a development identity-provider token for its token exchange;
//   tck serve            with MEMORY_ENDPOINT set: a bridge server forwarding to that hosted service.
import { TckError } from '../engine/errors.js';
import { listenError, resolvePort, stopOnSignal } from './listen.js';

const DEFAULT_HOSTED_PORT = 3002;

interface HostedServeFlags {
  port?: number;
  host: string;
  hosted?: boolean;
  apiKey?: string;
  bridgePort?: number;
  workspace?: string;
  idpIssuer?: string;
  idpJwksUrl?: string;
  idpAudience?: string;
}

const HOSTED_ONLY: [keyof HostedServeFlags, string][] = [
  ['apiKey', '--api-key'],
  ['bridgePort', '--bridge-port'],
  ['workspace', '--workspace'],
  ['idpIssuer', '--idp-issuer'],
  ['idpJwksUrl', '--idp-jwks-url'],
  ['idpAudience', '--idp-audience'],
];

/** A flag of the hosted service given without --hosted is a usage error. */
export function rejectHostedOnlyFlags(flags: HostedServeFlags): void {
  const used = HOSTED_ONLY.filter(([k]) => flags[k] !== undefined).map(([, flag]) => flag);
  if (used.length > 0) throw new TckError(`${used.join(', ')} ${used.length === 1 ? 'needs' : 'need'} --hosted`);
}

interface StartedHostedService {
  lines: string[];
  close(): Promise<void>;
}

/** Starts the hosted service (and the bridge view) from the flags; the lines say how to use it. */
export async function startHostedService(flags: HostedServeFlags): Promise<StartedHostedService> {
  const { ApiKeyRegistry, DevIdentityProvider, HostedStore, defaultDevKeyFile, newcomerCredentials, startHostedServer } = await import('../servers/hosted/index.js');
  const { startReferenceServer } = await import('../servers/bridge/index.js');
  if (flags.apiKey !== undefined && !ApiKeyRegistry.isWellFormed(flags.apiKey)) {
    throw new TckError('--api-key must be "nams_" followed by at least 16 characters of A-Z a-z 0-9 _ -');
  }
  if ((flags.idpIssuer === undefined) !== (flags.idpJwksUrl === undefined)) throw new TckError('--idp-issuer and --idp-jwks-url go together');
  if (flags.idpAudience !== undefined && flags.idpIssuer === undefined) throw new TckError('--idp-audience needs --idp-issuer');
  let idp;
  let dev;
  if (flags.idpIssuer !== undefined) {
    let jwks: URL;
    try {
      jwks = new URL(flags.idpJwksUrl!);
    } catch {
      throw new TckError(`--idp-jwks-url is not a URL: ${JSON.stringify(flags.idpJwksUrl)}`);
    }
    idp = { issuer: flags.idpIssuer, jwks, ...(flags.idpAudience !== undefined ? { audience: flags.idpAudience } : {}) };
  } else {
    try {
      dev = await DevIdentityProvider.fromFile();
      idp = dev.trustedIssuer();
    } catch (err) {
      throw new TckError((err as Error).message);
    }
  }
  const port = flags.port ?? DEFAULT_HOSTED_PORT;
  const store = new HostedStore();
  let hosted;
  try {
    hosted = await startHostedServer({
      store, port, host: flags.host, identityProviders: [idp],
      ...(flags.apiKey !== undefined ? { apiKey: flags.apiKey } : {}),
      ...(flags.workspace !== undefined ? { workspaceId: flags.workspace } : {}),
    });
  } catch (err) {
    throw listenError(err, port, flags.host);
  }
  let bridge: { url: string; close(): Promise<void> } | undefined;
  if (flags.bridgePort !== undefined) {
    try {
      bridge = await startReferenceServer({ store, port: flags.bridgePort, host: flags.host });
    } catch (err) {
      await hosted.close();
      throw listenError(err, flags.bridgePort, flags.host, '--bridge-port');
    }
  }
  const [key] = hosted.keys.list(hosted.workspaceId);
  // What the hosted profile needs besides the bootstrap key (docs/isolation.md): a second
  // workspace's key, and tokens past their exp, so that its run leaves no group incomplete.
  const extra = await newcomerCredentials(hosted, dev);
  const lines = [
    `agent-memory-tck hosted reference service listening on ${hosted.url} (REST interface: ${hosted.baseUrl})`,
    `  bootstrap API key (workspace ${JSON.stringify(hosted.workspaceId)}, scopes ${key!.scopes.join(' ')}, expires ${key!.expiresAt}):`,
    `    ${hosted.apiKey}`,
    `  API key of a second workspace (${JSON.stringify(extra.otherWorkspaceId)}; each workspace sees only its own data):`,
    `    ${extra.otherApiKey}`,
    flags.idpIssuer !== undefined
      ? `  token exchange trusts ${flags.idpIssuer} (keys: ${flags.idpJwksUrl})`
      : `  token exchange trusts the development issuer ${idp.issuer} (key: ${defaultDevKeyFile()}); mint a token with \`tck token\` (one past its exp: \`tck token --expired\`)`,
    `  discovery: ${hosted.url}/.well-known/oauth-protected-resource, …/oauth-authorization-server, …/jwks.json`,
    ...(bridge !== undefined ? [`  bridge view of the same data listening on ${bridge.url} (it acts in workspace ${JSON.stringify(hosted.workspaceId)}, the bootstrap key's)`] : []),
    `  try: curl -H "Authorization: Bearer ${hosted.apiKey}" ${hosted.baseUrl}/conversations`,
    '  the hosted profile against it, every group complete:',
    `    export TCK_API_KEY=${hosted.apiKey}`,
    `    export TCK_OTHER_API_KEY=${extra.otherApiKey}`,
    `    export TCK_EXPIRED_TOKEN=${extra.expiredToken}`,
    ...(flags.idpIssuer === undefined
      ? ['    export TCK_IDP_TOKEN=$(npx tck token) TCK_EXPIRED_IDP_TOKEN=$(npx tck token --expired)']
      : ['    export TCK_IDP_TOKEN=… TCK_EXPIRED_IDP_TOKEN=…   (tokens of your identity provider, one past its exp)']),
    `    npx tck run --hosted ${hosted.url}`,
  ];
  return {
    lines,
    close: async () => void (await Promise.all([hosted.close(), bridge?.close()])),
  };
}

export async function hostedServeCommand(flags: HostedServeFlags): Promise<void> {
  const service = await startHostedService(flags);
  process.stdout.write(`${service.lines.join('\n')}\n`);
  stopOnSignal(service.close);
}

interface TokenFlags {
  sub: string;
  workspace?: string;
  scope: string;
  ttl: number;
  /** A token an hour past its exp (for the profile's "the exchange refuses an expired subject token"). */
  expired?: boolean;
}

/** Mints a development identity-provider token (the key file is shared with `tck serve --hosted`). */
export async function mintDevToken(flags: TokenFlags): Promise<string> {
  const { DevIdentityProvider } = await import('../servers/hosted/index.js');
  let idp;
  try {
    idp = await DevIdentityProvider.fromFile();
  } catch (err) {
    throw new TckError((err as Error).message);
  }
  const ws = flags.workspace !== undefined ? { workspaceId: flags.workspace } : {};
  // Issued an hour and its lifetime ago: past its exp beyond any clock leeway.
  const now = flags.expired === true ? { now: new Date(Date.now() - flags.ttl * 1000 - 3_600_000) } : {};
  return idp.mint({ subject: flags.sub, scope: flags.scope, ttlSeconds: flags.ttl, ...ws, ...now });
}

export async function tokenCommand(flags: TokenFlags): Promise<void> {
  process.stdout.write(`${await mintDevToken(flags)}\n`);
}

/** `tck serve` with MEMORY_ENDPOINT: a bridge server whose methods call the hosted service. */
export async function forwardServeCommand(flags: { port?: number; host: string }): Promise<void> {
  const { FORWARD_ROUTES, createForwarder, normalizeEndpoint } = await import('../servers/hosted/index.js');
  const { startBridgeServer } = await import('../servers/bridge/index.js');
  let endpoint: string;
  try {
    endpoint = normalizeEndpoint(process.env.MEMORY_ENDPOINT ?? '');
  } catch (err) {
    throw new TckError((err as Error).message);
  }
  const apiKey = process.env.MEMORY_API_KEY;
  const port = resolvePort(flags.port, process.env.TCK_BRIDGE_PORT);
  let server;
  try {
    server = await startBridgeServer(createForwarder({ endpoint, ...(apiKey ? { apiKey } : {}) }), { port, host: flags.host });
  } catch (err) {
    throw listenError(err, port, flags.host);
  }
  const mapped = Object.values(FORWARD_ROUTES).filter((r) => r !== null).length;
  process.stdout.write(
    `agent-memory-tck bridge forwarder listening on ${server.url}\n` +
      `  forwarding to the hosted REST interface at ${endpoint} (MEMORY_ENDPOINT)${apiKey ? ' with MEMORY_API_KEY' : ', without credentials (MEMORY_API_KEY is not set)'}\n` +
      `  ${mapped} of ${Object.keys(FORWARD_ROUTES).length} bridge methods have a hosted counterpart; the others answer 501\n`,
  );
  stopOnSignal(() => server.close());
}
