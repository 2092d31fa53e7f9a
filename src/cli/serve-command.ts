// `tck serve`: the embedded reference server as a process of its own.
import { CliError } from './exit.js';

export interface ServeFlags {
  port?: number;
  host: string;
}

export function resolvePort(flag: number | undefined, env: string | undefined): number {
  if (flag !== undefined) return flag;
  if (env === undefined || env === '') return 3001;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CliError(`TCK_BRIDGE_PORT must be an integer from 0 to 65535, got ${JSON.stringify(env)}`);
  return n;
}

export async function serveCommand(flags: ServeFlags): Promise<void> {
  const port = resolvePort(flags.port, process.env.TCK_BRIDGE_PORT);
  const { startReferenceServer } = await import('../reference/index.js');
  let server;
  try {
    server = await startReferenceServer({ port, host: flags.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`port ${port} is already in use (choose another with --port, or --port 0 for a free one)`);
    if (code === 'EACCES') throw new CliError(`not allowed to listen on port ${port}`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`cannot bind to host ${flags.host}`);
    throw err;
  }
  process.stdout.write(`agent-memory-tck reference server listening on ${server.url}\n`);
  const stop = (signal: NodeJS.Signals) => {
    process.stdout.write(`received ${signal}, shutting down\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
