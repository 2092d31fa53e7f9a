// `tck run --server "<command>"`: start the vendor's server, wait until its address accepts a TCP
// connection (bounded by --server-timeout), run, and stop it — on success, failure and interrupt
// alike. This is the wait loop every vendor otherwise writes around the kit in CI.
//
// The command runs in a shell, in its own process group, so stopping it reaches whatever the shell
// started (npm run …, a JVM, a Python server): SIGTERM to the group, SIGKILL after STOP_GRACE_MS.
// Its output goes to server.log in --out (with --verbose also to stderr, each line "[server] "),
// never onto the run's own console output.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { TckError } from '../engine/errors.js';

/** How long the server gets to exit after SIGTERM before it is killed. */
const STOP_GRACE_MS = 5_000;
/** Interval between two connection attempts while waiting for the server. */
const POLL_MS = 100;

export interface VendorServer {
  readonly logFile: string;
  /** Stops the server (idempotent): SIGTERM, then SIGKILL after STOP_GRACE_MS. */
  stop(): Promise<void>;
}

interface StartOptions {
  command: string;
  url: string;
  timeoutMs: number;
  outDir: string;
  /** Echo the server's output to stderr, each line prefixed. */
  echo?: boolean;
  /** Aborted by an interrupt: stop waiting (and the server). */
  signal?: AbortSignal;
}

function addressOf(url: string): { host: string; port: number } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TckError(`--url ${JSON.stringify(url)} is not an absolute URL`, 'TCK_INVALID_TARGET');
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return { host, port: u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
}

/** Whether something accepts a TCP connection at host:port (bounded by `timeoutMs`). */
function accepts(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolvePromise(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 10): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').slice(-lines);
  } catch {
    return [];
  }
}

export async function startVendorServer(o: StartOptions): Promise<VendorServer> {
  const { host, port } = addressOf(o.url);
  const where = `${host}:${port}`;
  if (await accepts(host, port)) {
    throw new TckError(`--server: something already listens at ${where}; stop it first, or leave out --server to test it as it is`);
  }
  try {
    mkdirSync(o.outDir, { recursive: true });
  } catch (err) {
    throw new TckError(`--server: cannot create ${o.outDir} for server.log: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const logFile = join(o.outDir, 'server.log');
  const shownLog = relative(process.cwd(), logFile) || logFile;
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(o.command, { shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let exit: string | undefined;
  const exited = new Promise<void>((r) =>
    child.once('exit', (code, sig) => {
      exit = sig ? `was killed by ${sig}` : `exited with code ${code}`;
      r();
    }),
  );
  child.once('error', (err) => (exit = `could not be started: ${err.message}`));
  let pending = '';
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (!o.echo) return;
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const l of lines) process.stderr.write(`[server] ${l}\n`);
    });
  }
  // A second Ctrl-C exits at once (process.exit): the server must not outlive the kit even then.
  const killOnExit = () => kill('SIGKILL');
  process.once('exit', killOnExit);
  function kill(sig: NodeJS.Signals) {
    if (exit !== undefined || child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // Already gone.
    }
  }
  let stopped: Promise<void> | undefined;
  const server: VendorServer = {
    logFile,
    stop() {
      stopped ??= (async () => {
        kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), STOP_GRACE_MS)))]);
        clearTimeout(timer);
        if (!graceful) {
          kill('SIGKILL');
          await exited;
        }
        process.off('exit', killOnExit);
        await new Promise((r) => log.end(r));
      })();
      return stopped;
    },
  };

  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    if (o.signal?.aborted) {
      await server.stop();
      return server;
    }
    if (exit !== undefined) {
      await server.stop();
      for (const l of tail(logFile)) process.stderr.write(`[server] ${l}\n`);
      throw new TckError(`--server: "${o.command}" ${exit} before anything answered at ${where} (its output: ${shownLog})`, 'TCK_UNREACHABLE');
    }
    if (await accepts(host, port)) return server;
    if (Date.now() >= deadline) {
      await server.stop();
      for (const l of tail(logFile)) process.stderr.write(`[server] ${l}\n`);
      throw new TckError(
        `--server: nothing answered at ${where} within ${o.timeoutMs / 1000} s of starting "${o.command}" (--server-timeout; its output: ${shownLog})`,
        'TCK_UNREACHABLE',
      );
    }
    await sleep(POLL_MS);
  }
}
