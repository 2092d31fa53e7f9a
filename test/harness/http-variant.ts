// A bridge server for variants that differ from the reference at the HTTP level (framing,
// headers, connections, routing, the answer to a body that is not JSON): the reference
// dispatcher behind a small node:http front whose every such choice is a knob. Variants that
// differ in what they answer (not how) wrap the dispatcher instead (variants.ts).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatch } from './variants.js';

export interface HttpQuirks {
  /** Routes `/<prefix>/<method>`; the client is given the URL with the prefix. */
  pathPrefix?: string;
  /** Closes a keep-alive connection after this many idle milliseconds (node's default: 5 s). */
  keepAliveTimeoutMs?: number;
  /** `Connection: close` on every answer. */
  connectionClose?: boolean;
  /** Answers with chunked transfer coding (no Content-Length). */
  chunked?: boolean;
  /** The Content-Type of JSON answers (default application/json). */
  contentType?: string;
  /** The answer to a request body that is not JSON (default 400 {"error"}). */
  badJson?: { status: number; contentType: string; text: string };
  /** Labels every JSON answer with this Content-Encoding without encoding it (a fault). */
  contentEncodingLabel?: string;
  /** Chunked transfer coding in chunks of at most this many bytes (implies chunked). */
  chunkBytes?: number;
  /** Bodies delimited by closing the connection: neither Content-Length nor chunked (HTTP/1.1 allows it). */
  closeDelimited?: boolean;
  /** `Connection: close` on every second answer of the server (the first, third …). */
  closeEveryOther?: boolean;
  /** Node's server.maxRequestsPerSocket: the last answer on a connection says `Connection: close`. */
  maxRequestsPerSocket?: number;
  /** Reads a request body with trailing commas (`{"a": 1,}`) as JSON5 would (the kit's reading: refuse it). */
  lenientJson?: boolean;
  /** Put before every JSON answer's text (a fault: a byte-order mark, a NUL, …). */
  bodyPrefix?: string;
}

interface RunningHttpVariant {
  url: string;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startHttpVariant(dispatch: Dispatch, quirks: HttpQuirks): Promise<RunningHttpVariant> {
  const prefix = quirks.pathPrefix === undefined ? '' : `/${quirks.pathPrefix.replace(/^\/+|\/+$/g, '')}`;
  let answered = 0;
  const server = createServer({ keepAlive: true }, (req, res) => {
    const write = (status: number, contentType: string | undefined, text: string | undefined) => {
      const headers: Record<string, string> = {};
      answered++;
      if (quirks.connectionClose || quirks.closeDelimited || (quirks.closeEveryOther && answered % 2 === 1)) headers['connection'] = 'close';
      if (text !== undefined && contentType !== undefined) headers['content-type'] = contentType;
      if (text !== undefined && quirks.contentEncodingLabel !== undefined) headers['content-encoding'] = quirks.contentEncodingLabel;
      const chunked = quirks.chunked === true || quirks.chunkBytes !== undefined;
      if (text !== undefined && !chunked && !quirks.closeDelimited) headers['content-length'] = String(Buffer.byteLength(text));
      if (quirks.closeDelimited) res.useChunkedEncodingByDefault = false;
      res.writeHead(status, headers);
      if (text !== undefined && quirks.chunkBytes !== undefined) {
        const bytes = Buffer.from(text);
        for (let i = 0; i < bytes.length; i += quirks.chunkBytes) res.write(bytes.subarray(i, i + quirks.chunkBytes));
        res.end();
      } else if (text !== undefined && quirks.chunked) {
        // Two chunks at least, so the body is really framed by chunks. Split by bytes: a split by
        // UTF-16 units could cut a surrogate pair and send two invalid halves.
        const bytes = Buffer.from(text);
        const half = Math.floor(bytes.length / 2);
        res.write(bytes.subarray(0, half));
        res.end(bytes.subarray(half));
      } else res.end(text);
    };
    const json = quirks.contentType ?? 'application/json';
    void (async () => {
      const path = (req.url ?? '/').split('?', 1)[0]!;
      const text = await readBody(req);
      if (!path.startsWith(`${prefix}/`)) return write(404, json, JSON.stringify({ error: `not found: ${path}` }));
      const method = path.slice(prefix.length + 1);
      let body: unknown = {};
      if (text.trim() !== '') {
        try {
          body = JSON.parse(quirks.lenientJson ? text.replace(/,\s*([}\]])/g, '$1') : text);
        } catch {
          const bad = quirks.badJson ?? { status: 400, contentType: json, text: JSON.stringify({ error: 'body is not valid JSON' }) };
          return write(bad.status, bad.contentType, bad.text);
        }
      }
      const reply = await dispatch(method, body);
      write(reply.status, json, reply.status === 204 || reply.body === undefined ? undefined : `${quirks.bodyPrefix ?? ''}${JSON.stringify(reply.body)}`);
    })().catch((err: unknown) => write(500, json, JSON.stringify({ error: String(err) })));
  });
  if (quirks.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = quirks.keepAliveTimeoutMs;
  if (quirks.maxRequestsPerSocket !== undefined) server.maxRequestsPerSocket = quirks.maxRequestsPerSocket;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
