// A TCP front for an HTTP server that closes a keep-alive connection once it has been idle for
// `idleMs` after an answer, without announcing it: the upstream's own Keep-Alive hint (Node's
// "timeout=5") still reaches the client. RFC 9112 §9.6 allows a server to close an idle
// connection at any time; a load balancer or proxy with a short idle timeout does so. On the wire
// the close then crosses the client's next request, which gets a reset before any response byte.
// On loopback, in one process, a timer-driven close is seen by the client before its next write,
// so the front models the crossing itself: a request that arrives on a connection idle for
// `idleMs` or more finds it closed (the connection is dropped, nothing is forwarded). A request
// on a fresh connection always goes through.
import net from 'node:net';
import type { AddressInfo } from 'node:net';

interface IdleCloser {
  /** The front's origin, http://127.0.0.1:port, to use instead of the upstream's. */
  origin: string;
  /** Connections accepted, and connections dropped for idleness. */
  stats: { accepted: number; dropped: number };
  close(): Promise<void>;
}

/** `upstreamPort` may be a function, read per connection: the front can be started before its upstream. */
export async function idleCloser(upstreamPort: number | (() => number), idleMs = 1): Promise<IdleCloser> {
  const stats = { accepted: 0, dropped: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    stats.accepted++;
    const upstream = net.connect(typeof upstreamPort === 'number' ? upstreamPort : upstreamPort(), '127.0.0.1');
    sockets.add(client).add(upstream);
    const drop = () => {
      stats.dropped++;
      client.destroy();
      upstream.destroy();
    };
    // When the last answer byte went out; undefined while a request waits for its answer.
    let idleSince: number | undefined;
    client.on('data', (chunk: Buffer) => {
      if (idleSince !== undefined && performance.now() - idleSince >= idleMs) return drop();
      idleSince = undefined;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      idleSince = performance.now();
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stats,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
