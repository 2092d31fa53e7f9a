// Raw-socket tools of the reliability tests: what no well-behaved HTTP client does (pipelining
// without reading, stopping mid-request, writing a body nobody asked for). Loopback only; every
// wait is bounded.
import net from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { startReferenceServer, type RunningReferenceServer } from '../../src/servers/bridge/index.js';
import { startService, type Service } from '../hosted/helpers.js';

interface RawConnection {
  socket: net.Socket;
  /** Bytes the client has handed to the socket so far. */
  readonly written: number;
  /** The first 64 KiB received so far, as text. */
  readonly received: string;
  /** Bytes received so far. */
  readonly receivedBytes: number;
  /** Starts reading (for a connection opened with `read: false`). */
  resume(): void;
  /** Resolves when the server has closed (or reset) the connection. */
  closed: Promise<void>;
}

/** Opens a connection to `url`'s host and port; `read: false` never reads what the server sends. */
export async function connect(url: string, { read = true }: { read?: boolean } = {}): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  let received = '';
  let receivedBytes = 0;
  let written = 0;
  const resume = () => {
    socket.on('data', (d: Buffer) => {
      receivedBytes += d.length;
      if (received.length < 64 * 1024) received += d.toString('latin1');
    });
    socket.resume();
  };
  if (read) resume();
  else socket.pause();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const write = socket.write.bind(socket) as (chunk: string | Buffer) => boolean;
  socket.write = ((chunk: string | Buffer, ...rest: unknown[]) => {
    written += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof socket.write;
  return {
    socket,
    get written() {
      return written;
    },
    get received() {
      return received;
    },
    get receivedBytes() {
      return receivedBytes;
    },
    resume,
    closed,
  };
}

/** Writes `total` bytes of body as fast as the server takes them, until done or the socket closes. */
export function pump(conn: RawConnection, total: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  return new Promise((resolve) => {
    let sent = 0;
    const go = () => {
      while (sent < total && !conn.socket.destroyed) {
        sent += chunk.length;
        if (!conn.socket.write(chunk)) return void conn.socket.once('drain', go);
      }
      resolve();
    };
    conn.socket.once('close', () => resolve());
    go();
  });
}

/** Resolves with true when `p` settles within `ms`, false otherwise. */
export async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)));
  try {
    return await Promise.race([p.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

export { seeded } from '../../bench/fuzz.mjs';

/** Both shipped servers, started before the file's tests and closed after them. */
export function bothServers(): { readonly bridge: RunningReferenceServer; readonly hosted: Service } {
  const servers = {} as { bridge: RunningReferenceServer; hosted: Service };
  beforeAll(async () => {
    servers.bridge = await startReferenceServer();
    servers.hosted = await startService();
  });
  afterAll(async () => {
    await servers.bridge.close();
    await servers.hosted.close();
  });
  return servers;
}
