// The hosted REST interface (hosted-rest-api.md): an embedded reference service over the same
// store as the bridge reference, and a bridge dispatcher that forwards to a hosted service.
import { startReferenceServer, type RunningReferenceServer } from '../bridge/index.js';
import { startHostedServer, type HostedServerOptions, type RunningHostedServer } from './http.js';
import { HostedStore } from './store.js';

export { HOSTED_ENDPOINTS, startHostedServer } from './http.js';
export type { HostedRequest, HostedServerOptions, RunningHostedServer } from './http.js';
export { API_KEY_LIFETIME_MS, ApiKeyRegistry, SCOPES } from './credentials.js';
export { ACCESS_TOKEN_TTL_SECONDS, DevIdentityProvider, defaultDevKeyFile } from './oauth.js';
export { HostedStore } from './store.js';
export { newcomerCredentials } from './newcomer.js';
export { ROUTES } from './routes.js';
export type { Reply, Route, RouteContext } from './routes.js';
export { FORWARD_ROUTES, createForwarder } from '../forwarder/forward.js';
export { normalizeEndpoint } from '../../protocols/hosted/endpoint.js';

export interface CombinedServers {
  hosted: RunningHostedServer;
  bridge: RunningReferenceServer;
  store: HostedStore;
  close(): Promise<void>;
}

/**
 * The two views of one service: the hosted REST service and the bridge reference server over one
 * HostedStore (a message added over REST is the message the bridge sees, and the other way round).
 */
export async function startCombinedServers(options: HostedServerOptions & { bridgePort?: number } = {}): Promise<CombinedServers> {
  const store = options.store ?? new HostedStore();
  const hosted = await startHostedServer({ ...options, store });
  let bridge: RunningReferenceServer;
  try {
    bridge = await startReferenceServer({ store, port: options.bridgePort ?? 0, ...(options.host !== undefined ? { host: options.host } : {}) });
  } catch (err) {
    await hosted.close();
    throw err;
  }
  return { hosted, bridge, store, close: async () => void (await Promise.all([hosted.close(), bridge.close()])) };
}
