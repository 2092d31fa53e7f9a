// The connection handling both servers the kit ships share (the bridge reference, src/reference/
// http.ts, and the hosted reference service, src/hosted/http.ts): deliberate timeouts, one request
// at a time per connection with back-pressure, refusals that do not read a body to its end, and
// JSON bodies for the answers Node itself gives to broken requests.
//
// Why one request at a time: a client may pipeline hundreds of requests in one write and never
// read an answer. Node parses every request of a chunk at once and would call the handler for each,
// building and buffering every answer before the socket pushes back (a few GB for 1 200 answers of
// 4 MiB). Here the next request of a connection is dispatched only once the previous answer has
// been handed to the socket and the socket's buffer has drained; requests waiting beyond
// `maxPipelined` close the connection, and a connection whose client stops reading (its buffer does
// not shrink for `writeStallMs`) is closed. So one connection holds at most one answer in memory.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ServerLimits {
  /** From connection (or the previous request) to the end of a request's headers. */
  headersTimeoutMs: number;
  /** From connection to the end of a request's body (headers included). */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** A connection whose unsent output has not changed for this long (a client that stopped reading) is closed (looked at every second). */
  writeStallMs: number;
  /** Requests parsed and waiting behind the one in progress on a connection; one more closes it. */
  maxPipelined: number;
}

/** The deliberate defaults (docs/reference-server.md, "Limits of the servers the kit ships"). */
const SERVER_LIMITS: Readonly<ServerLimits> = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  writeStallMs: 15_000,
  maxPipelined: 32,
};

/** After a refusal, how much of the unread body is discarded (and for how long) before the socket is cut. */
interface DrainBound {
  bytes: number;
  ms: number;
}

/**
 * A refused request's body is not read: a little of it is discarded so that a client still
 * writing can read the answer (closing a socket with unread input makes the kernel send a reset,
 * and the client would get EPIPE instead of the answer), then the connection is closed.
 */
const REFUSAL_DRAIN: Readonly<DrainBound> = { bytes: 1024 * 1024, ms: 2_000 };

type JsonHeaders = Record<string, string>;

/** Writes `body` as JSON (or nothing for 204/undefined); never throws for a finished response. */
function sendJson(res: ServerResponse, status: number, body: unknown, headers: JsonHeaders = {}): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/**
 * Answers a request at once, without reading its body. What the client still sends is discarded
 * up to `bound` (bytes or time); past it the connection is cut.
 */
export function refuse(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: JsonHeaders = {}, bound: DrainBound = REFUSAL_DRAIN): void {
  if (req.complete || !hasBody(req)) {
    req.resume();
    sendJson(res, status, body, headers);
    return;
  }
  req.removeAllListeners('data');
  const socket = req.socket;
  let drained = 0;
  const cut = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(cut, bound.ms);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > bound.bytes) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
  // No `connection: close`: Node would then end the socket as soon as the answer is out, while
  // the client is still writing (EPIPE instead of the answer). A body within the bound is
  // discarded and the connection reused; a larger one gets the socket cut at the bound.
  sendJson(res, status, body, headers);
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/** The status and text of Node's answer to a request it could not parse or finish in time. */
function clientErrorOf(err: NodeJS.ErrnoException): [number, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'request headers too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request not complete in time (headers or body too slow)'];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'chunk extensions too large'];
    default:
      return [400, `malformed HTTP request${err.code ? ` (${err.code})` : ''}`];
  }
}

interface Lane {
  running: boolean;
  waiting: [IncomingMessage, ServerResponse][];
  /** Stops the stall watch of a busy connection. */
  stall?: () => void;
}

/**
 * An HTTP server with the limits above whose `handler` sees one request of a connection at a
 * time. The handler answers through `res`; the connection's next request is dispatched when that
 * answer has finished and drained. `handler` must not throw (it is caught and answered 500).
 */
export function createBoundedServer(handler: (req: IncomingMessage, res: ServerResponse) => void, overrides: Partial<ServerLimits> = {}): Server {
  const limits: ServerLimits = { ...SERVER_LIMITS, ...overrides };
  const lanes = new WeakMap<Socket, Lane>();

  const server = createServer(
    {
      keepAlive: true,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    (req, res) => {
      const socket = req.socket;
      let lane = lanes.get(socket);
      if (lane === undefined) lanes.set(socket, (lane = { running: false, waiting: [] }));
      if (!lane.running) return run(lane, socket, req, res);
      if (lane.waiting.length >= limits.maxPipelined) {
        socket.destroy();
        return;
      }
      lane.waiting.push([req, res]);
    },
  );

  const run = (lane: Lane, socket: Socket, req: IncomingMessage, res: ServerResponse): void => {
    lane.running = true;
    lane.stall ??= watchStall(socket, limits.writeStallMs);
    let over = false;
    const next = () => {
      if (over) return;
      over = true;
      afterDrain(socket, () => {
        const queued = lane.waiting.shift();
        if (queued !== undefined) return run(lane, socket, queued[0], queued[1]);
        lane.running = false;
        lane.stall?.();
        delete lane.stall;
      });
    };
    res.once('finish', next);
    res.once('close', next);
    res.on('error', () => undefined);
    try {
      handler(req, res);
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${err instanceof Error ? err.message : String(err)}` });
      else res.destroy();
    }
  };

  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, error] = clientErrorOf(err);
    const text = JSON.stringify({ error });
    socket.end(
      `HTTP/1.1 ${status} ${statusText(status)}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
    socket.destroySoon();
  });
  return server;
}

const statusText = (status: number): string =>
  ({ 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' })[status] ?? 'Error';

/** Calls `go` once the socket's unsent output is below its high-water mark (never, if it closes first). */
function afterDrain(socket: Socket, go: () => void): void {
  if (socket.destroyed) return;
  if (!socket.writableNeedDrain) return go();
  const onDrain = () => {
    socket.off('close', onClose);
    go();
  };
  const onClose = () => socket.off('drain', onDrain);
  socket.once('drain', onDrain);
  socket.once('close', onClose);
}

/** How often a busy connection's unsent output is looked at (at most). */
const STALL_LOOK_MS = 1_000;

/**
 * While a connection has work in progress: its unsent output is looked at every second (or every
 * quarter of `stallMs`, if shorter); a socket whose unsent output has stayed the same, and not
 * empty, for `stallMs` (its client stopped reading) is destroyed. So a stalled client is cut
 * between `stallMs` and `stallMs` plus two looks after it stopped reading (once, this was one look
 * every `stallMs`, which let it stay up to twice as long). Returns the stop.
 */
export function watchStall(socket: Pick<Socket, 'writableLength' | 'destroy' | 'once' | 'off'>, stallMs: number): () => void {
  const every = Math.max(1, Math.min(STALL_LOOK_MS, Math.floor(stallMs / 4)));
  let last = 0;
  let since = Date.now();
  const timer = setInterval(() => {
    const pending = socket.writableLength;
    const now = Date.now();
    // Output that changed (read by the client, or a new answer after the previous one drained) or is gone: not stalled.
    if (pending === 0 || pending !== last) since = now;
    else if (now - since >= stallMs) socket.destroy();
    last = pending;
  }, every);
  timer.unref();
  const onClose = () => clearInterval(timer);
  socket.once('close', onClose);
  return () => {
    clearInterval(timer);
    socket.off('close', onClose);
  };
}
