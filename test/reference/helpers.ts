// Shared helpers of the reference-server tests: a small HTTP client that also checks every answer
// against the response rules and the data model (so each test doubles as a shape check).
import { request } from 'undici';
import { z } from 'zod';
import { ErrorBody, METHODS, isMethodName, validate } from '../../src/protocols/bridge/index.js';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startReferenceServer, type BridgeResponse, type RunningReferenceServer } from '../../src/servers/bridge/index.js';

interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

/** The schema of a 200 body of `method`, by its response kind. */
export function successSchema(method: string): z.ZodType | null {
  if (!isMethodName(method)) return null;
  const m = METHODS[method];
  const result = m.result as z.ZodType | null;
  switch (m.kind) {
    case 'void':
      return null;
    case 'list':
      return z.array(result!);
    case 'object-or-null':
      return result!.nullable();
    default:
      return result;
  }
}

/**
 * Throws unless the answer follows the response rules for `method`: 204 empty for void methods,
 * 200 with a body matching the model otherwise, 400 with `{"error": string}`. `sample` validates
 * only the first items of a list (for speed on large stores).
 */
function checkAnswer(method: string, status: number, body: unknown, options: { sample?: number } = {}): void {
  if (!isMethodName(method)) throw new Error(`not a method: ${method}`);
  const kind = METHODS[method].kind;
  if (status === 400 || status === 404 || status === 405 || status === 413 || status === 500) {
    const v = validate(ErrorBody, body);
    if (!v.ok) throw new Error(`${method} ${status}: error body ${JSON.stringify(body)}: ${v.issues.join('; ')}`);
    if ((body as { error: string }).error === '') throw new Error(`${method} ${status}: empty error text`);
    return;
  }
  if (kind === 'void') {
    if (status !== 204 || body !== undefined) throw new Error(`${method}: expected 204 without body, got ${status} ${JSON.stringify(body)}`);
    return;
  }
  if (status !== 200) throw new Error(`${method}: expected 200, got ${status}`);
  const schema = successSchema(method)!;
  const value = options.sample !== undefined && Array.isArray(body) ? body.slice(0, options.sample) : body;
  const v = validate(schema, value);
  if (!v.ok) throw new Error(`${method} 200 body does not match the model: ${v.issues.slice(0, 5).join('; ')}`);
}

/** Checks a dispatcher answer like an HTTP one. */
export function checkDispatch(method: string, reply: BridgeResponse, options: { sample?: number } = {}): void {
  checkAnswer(method, reply.status, reply.body, options);
}

/** POSTs `body` (JSON-encoded unless `raw` is given) to `${base}/${method}` and checks the answer. */
export async function post(
  base: string,
  method: string,
  body: unknown = {},
  options: { raw?: string | Uint8Array; check?: boolean; httpMethod?: 'GET' | 'POST' | 'PUT' | 'DELETE' } = {},
): Promise<Reply> {
  const payload = options.raw !== undefined ? options.raw : JSON.stringify(body);
  const res = await request(`${base}/${method}`, {
    method: options.httpMethod ?? 'POST',
    headers: { 'content-type': 'application/json' },
    ...(options.httpMethod === 'GET' ? {} : { body: payload }),
  });
  const text = await res.body.text();
  let parsed: unknown;
  if (text !== '') {
    if (!String(res.headers['content-type']).startsWith('application/json')) {
      throw new Error(`${method}: ${res.statusCode} with content-type ${String(res.headers['content-type'])}`);
    }
    parsed = JSON.parse(text);
  }
  if (options.check !== false && isMethodName(method)) checkAnswer(method, res.statusCode, parsed);
  return { status: res.statusCode, body: parsed, text, headers: res.headers };
}

/** A client bound to one server that expects 200/204 and returns the body. */
export function ok(base: string) {
  return async (method: string, body: unknown = {}) => {
    const r = await post(base, method, body);
    if (r.status !== 200 && r.status !== 204) throw new Error(`${method} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
    return r.body as any;
  };
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ISO_Z_MS_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** One reference server for the test file, emptied before each test: `const ref = useReferenceServer()`. */
export function useReferenceServer(): { readonly server: RunningReferenceServer; call: ReturnType<typeof ok> } {
  let server: RunningReferenceServer | undefined;
  const ref = {
    get server(): RunningReferenceServer {
      if (!server) throw new Error('the reference server is not started yet');
      return server;
    },
    call: (async (method: string, body: unknown = {}) => ok(ref.server.url)(method, body)) as ReturnType<typeof ok>,
  };
  beforeAll(async () => {
    server = await startReferenceServer({ port: 0 });
  });
  afterAll(() => server?.close());
  beforeEach(() => ref.call('clear_all_data'));
  return ref;
}
