// What `tck serve` and `tck serve --hosted` share: the port to listen on, a failure to listen as one
// line, and a clean stop on SIGINT or SIGTERM. Its own file so that neither command imports the other.
import { TckError } from '../engine/errors.js';

export function resolvePort(flag: number | undefined, env: string | undefined): number {
  if (flag !== undefined) return flag;
  if (env === undefined || env === '') return 3001;
  const n = Number(env);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new TckError(`TCK_BRIDGE_PORT must be an integer from 0 to 65535, got ${JSON.stringify(env)}`);
  return n;
}

/** A failure to listen as a one-line error the user can act on; other errors come back as they are. */
export function listenError(err: unknown, port: number, host: string, flag = '--port'): unknown {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new TckError(`port ${port} is already in use (choose another with ${flag}, or ${flag} 0 for a free one)`, 'TCK_LISTEN');
  if (code === 'EACCES') return new TckError(`not allowed to listen on port ${port}`, 'TCK_LISTEN');
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new TckError(`cannot bind to host ${host}`, 'TCK_LISTEN');
  return err;
}

/** On SIGINT or SIGTERM: says so, closes, exits (0, or 1 when closing failed). */
export function stopOnSignal(close: () => Promise<void>): void {
  const stop = (signal: NodeJS.Signals) => {
    process.stdout.write(`received ${signal}, shutting down\n`);
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
