// Small servers for the bridge-client tests, always on 127.0.0.1 and an ephemeral port.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  url: string;
  port: number;
  /** Requests received, in order. */
  seen: Seen[];
  /** TCP connections accepted. */
  connections: number;
  close(): Promise<void>;
}

const open: Array<() => Promise<void>> = [];

/** Closes every server started since the last call (use in afterEach). */
export async function closeAll(): Promise<void> {
  const all = open.splice(0);
  await Promise.all(all.map((c) => c()));
}

function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** An HTTP server whose handler sees the fully read request body. */
export async function httpServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<TestServer> {
  const seen: Seen[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  const state: TestServer = {
    url: '',
    port: 0,
    seen,
    connections: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  server.on('connection', (s: net.Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  state.port = await listen(server);
  state.url = `http://127.0.0.1:${state.port}`;
  open.push(state.close);
  return state;
}

/** A JSON-answering server: every request gets `status` and `body` (serialised unless a string). */
export function answering(status: number, body?: unknown, headers: Record<string, string> = {}): Promise<TestServer> {
  return httpServer((_req, res) => {
    if (body === undefined) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  });
}

/** A raw TCP server: full control of the bytes (resets, dribbles, hangs). */
export async function rawServer(onSocket: (s: net.Socket) => void): Promise<TestServer & { closedSockets: number }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer();
  const state = {
    url: '',
    port: 0,
    seen: [] as Seen[],
    connections: 0,
    closedSockets: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  server.on('connection', (s) => {
    state.connections++;
    sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => {
      sockets.delete(s);
      state.closedSockets++;
    });
    onSocket(s);
  });
  state.port = await listen(server);
  state.url = `http://127.0.0.1:${state.port}`;
  open.push(state.close);
  return state;
}

/** Calls `fn` once the socket has received a complete request head (and some body). */
export function onRequest(s: net.Socket, fn: () => void): void {
  let got = '';
  let fired = false;
  s.on('data', (d: Buffer) => {
    got += d.toString('latin1');
    if (!fired && got.includes('\r\n\r\n')) {
      fired = true;
      fn();
    }
  });
}

/** A port on 127.0.0.1 with nothing listening (bound, then closed). */
export async function deadPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server);
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
