// The HTTP face of a bridge server (node:http): `POST /{method}` with a JSON object body, answered
// by a dispatcher. Transport-level answers, all with a JSON `{"error": string}` body:
//   404 unknown method path · 405 any HTTP method other than POST on a known path (Allow: POST) ·
//   413 body over the cap (16 MiB; nothing more is buffered, the rest is drained and discarded) ·
//   400 body that is not UTF-8, not JSON, or JSON but not an object · 500 any exception.
// An empty body counts as `{}`. The Content-Type of requests is not checked (the protocol says
// clients send application/json; being lenient costs nothing). Responses carry
// `content-type: application/json`; 204 has no body. Connections are kept alive, with the limits
// and back-pressure of ../servers/http-plumbing.ts; 404 and 405 are answered before the body is read.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMethodName } from '../../protocols/bridge/index.js';
import { createBoundedServer, refuse, type ServerLimits } from '../http-plumbing.js';
import { scanJsonBody } from '../nesting.js';
import type { BridgeResponse, Dispatcher } from './request.js';
import { DEFAULT_LIMITS } from '../../util/limits.js';

export const MAX_BODY_BYTES = DEFAULT_LIMITS.maxBodyBytes;

interface BridgeServerOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Body size cap in bytes (default 16 MiB). */
  maxBodyBytes?: number;
  /** Connection limits (default SERVER_LIMITS of src/servers/http-plumbing.ts). */
  limits?: Partial<ServerLimits>;
}

export interface RunningBridgeServer {
  /** `http://host:port`, no trailing slash. */
  url: string;
  port: number;
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

function send(res: ServerResponse, reply: BridgeResponse, extraHeaders: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = reply.status === 204 || reply.body === undefined ? undefined : JSON.stringify(reply.body);
  if (text === undefined) {
    res.writeHead(reply.status, extraHeaders);
    res.end();
    return;
  }
  res.writeHead(reply.status, {
    ...extraHeaders,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

function sendError(res: ServerResponse, status: number, error: string, extraHeaders: Record<string, string> = {}): void {
  send(res, { status, body: { error } }, extraHeaders);
}

/** After a 413, how much more of the body is read and thrown away before the socket is cut. */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 5_000;

/**
 * Answers 413 without buffering anything more. The rest of the body is read and discarded (up to
 * DRAIN_BYTES or DRAIN_MS, then the socket is destroyed): closing a socket that still has unread
 * input makes the kernel send a reset, and a client that is still writing would then get EPIPE
 * instead of the 413.
 */
function tooLarge(req: IncomingMessage, res: ServerResponse, max: number): void {
  refuse(req, res, 413, { error: `body is larger than ${max} bytes` }, {}, { bytes: DRAIN_BYTES, ms: DRAIN_MS });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses a request body: empty -> {}; otherwise it must be UTF-8 JSON holding an object, nested
 * within the cap and holding only numbers JSON.parse keeps exactly (both checked on the bytes,
 * before parsing: ../nesting.ts).
 */
export function parseBody(raw: Buffer): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, error: 'body is not valid UTF-8' };
  }
  if (text.trim() === '') return { ok: true, value: {} };
  const problem = scanJsonBody(raw);
  // An array is refused for being one, however deep it goes (and it is not parsed).
  if (problem !== undefined) return { ok: false, error: text.trimStart().startsWith('[') ? 'body must be a JSON object of parameters, got an array' : problem };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `body is not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, error: `body must be a JSON object of parameters, got ${what}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The method name of a request target: the path without its leading slash, query ignored, no
 * normalisation ("/./setup" is not "setup"). An absolute-form target uses its URL's path.
 */
function methodOf(target: string): string {
  let path = target.split('?', 1)[0] ?? '';
  if (!path.startsWith('/')) {
    try {
      path = new URL(target).pathname;
    } catch {
      return path;
    }
  }
  return path.slice(1);
}

export function startBridgeServer(dispatch: Dispatcher, options: BridgeServerOptions = {}): Promise<RunningBridgeServer> {
  const host = options.host ?? '127.0.0.1';
  const max = options.maxBodyBytes ?? MAX_BODY_BYTES;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    req.on('error', () => res.destroy());
    res.on('error', () => undefined);
    const method = methodOf(req.url ?? '/');
    // Refused before the body is read: the answer goes at once and the connection closes.
    if (!isMethodName(method)) return refuse(req, res, 404, { error: `unknown method: ${method}` });
    if (req.method !== 'POST') {
      return refuse(req, res, 405, { error: `method not allowed: ${req.method ?? '?'} (the bridge accepts POST only)` }, { allow: 'POST' });
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) return tooLarge(req, res, max);

    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        tooLarge(req, res, max);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (over) return;
      const parsed = parseBody(Buffer.concat(chunks, size));
      if (!parsed.ok) return sendError(res, 400, parsed.error);
      Promise.resolve()
        .then(() => dispatch(method, parsed.value))
        .then(
          (reply) => send(res, reply),
          (err: unknown) => sendError(res, 500, `internal error in ${method}: ${err instanceof Error ? err.message : String(err)}`),
        )
        .catch((err: unknown) => {
          // send() itself failed (e.g. a body JSON.stringify cannot serialise).
          if (!res.headersSent) sendError(res, 500, `internal error in ${method}: ${err instanceof Error ? err.message : String(err)}`);
          else res.destroy();
        });
    });
  };

  const server = createBoundedServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      if (!res.headersSent) sendError(res, 500, `internal error: ${err instanceof Error ? err.message : String(err)}`);
      else res.destroy();
    }
  }, options.limits);

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      server.on('error', () => undefined);
      const port = (server.address() as AddressInfo).port;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${urlHost}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
