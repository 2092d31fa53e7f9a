// `tck serve`: the embedded reference server as a process of its own.
import { listenError, resolvePort, stopOnSignal } from './listen.js';

interface ServeFlags {
  port?: number;
  host: string;
}

export async function serveCommand(flags: ServeFlags): Promise<void> {
  // With MEMORY_ENDPOINT, the bridge server forwards to that hosted service (docs/hosted.md).
  if (process.env.MEMORY_ENDPOINT) return (await import('./hosted-commands.js')).forwardServeCommand(flags);
  const port = resolvePort(flags.port, process.env.TCK_BRIDGE_PORT);
  const [{ startReferenceServer }, { HostedStore }] = await Promise.all([import('../servers/bridge/index.js'), import('../servers/hosted/store.js')]);
  let server;
  try {
    // The hosted reference store serves every tier, Platinum included.
    server = await startReferenceServer({ port, host: flags.host, store: new HostedStore() });
  } catch (err) {
    throw listenError(err, port, flags.host);
  }
  process.stdout.write(`agent-memory-tck reference server listening on ${server.url}\n`);
  stopOnSignal(server.close);
}
