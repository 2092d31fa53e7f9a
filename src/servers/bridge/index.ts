// The embedded reference server: a complete, in-memory implementation of the 26 methods of bridge
// protocol 0.1.0 (MemoryStore). The optional Platinum methods answer 501 unless the store given
// implements them (HostedStore does; the kit's default target serves one).
import { createDispatcher } from './dispatch.js';
import { startBridgeServer, type RunningBridgeServer } from './http.js';
import { MemoryStore } from './store.js';

export { MemoryStore } from './store.js';
export type { Params } from './store.js';
export { createDispatcher } from './dispatch.js';
export type { BridgeResponse } from './request.js';
export { MAX_BODY_BYTES, startBridgeServer } from './http.js';
export type { RunningBridgeServer } from './http.js';
export { fieldTokens, rank, score, similarity, tokenize } from './search.js';

interface ReferenceServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The store to serve (default: a new, empty MemoryStore). */
  store?: MemoryStore;
}

export interface RunningReferenceServer extends RunningBridgeServer {
  store: MemoryStore;
}

/** Starts the reference server: MemoryStore + createDispatcher + startBridgeServer. */
export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<RunningReferenceServer> {
  const store = options.store ?? new MemoryStore();
  const server = await startBridgeServer(createDispatcher(store), {
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  });
  return { ...server, store };
}
