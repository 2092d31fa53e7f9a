// From (method name, parsed JSON body) to a bridge response, independent of HTTP: the parameters
// are validated with `METHODS[m].params`, the store is called and its result is mapped onto the
// response kind of the method (bridge-protocol.md, "Response rules"). Exported so that tests and
// variant servers can wrap it (inject faults, change answers) without an HTTP proxy.
import type { z } from 'zod';
import { METHODS, describe, formatPath, isMethodName, type MethodName } from '../schema/index.js';
import { BadRequestError, type StoreHandlers } from './store.js';

export interface BridgeResponse {
  status: number;
  /** The JSON value to send; undefined means an empty body (204). */
  body?: unknown;
}

export type Dispatcher = (method: string, body: unknown) => Promise<BridgeResponse> | BridgeResponse;

export function errorResponse(status: number, error: string): BridgeResponse {
  return { status, body: { error } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One line per parameter problem, each naming the parameter:
 * `role: "bogus" is not a role (user, assistant, system)`, `session_id: is missing (required)`.
 */
export function paramIssues(schema: z.ZodType, body: Record<string, unknown>): { ok: true; value: unknown } | { ok: false; issues: string[] } {
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const path = formatPath(issue.path);
    const key = issue.path[0];
    if (typeof key === 'string' && body[key] === undefined && issue.path.length === 1) return `${path}: is missing (required)`;
    const input = (issue as { input?: unknown }).input;
    let message: string;
    if (issue.code === 'invalid_type') {
      const expected = issue.expected === 'record' ? 'a JSON object' : issue.expected;
      message = `expected ${expected}, got ${describe(input)}`;
    } else {
      message = issue.message;
      // "limit must be >= 0" under the path "limit" reads "limit: must be >= 0".
      const last = issue.path[issue.path.length - 1];
      if (typeof last === 'string' && message.startsWith(`${last} `)) message = message.slice(last.length + 1);
    }
    return `${path}: ${message}`;
  });
  return { ok: false, issues };
}

/** Maps a store result onto the response kind of the method. */
function respond(method: MethodName, result: unknown): BridgeResponse {
  switch (METHODS[method].kind) {
    case 'void':
      return { status: 204 };
    case 'object-or-null':
      return { status: 200, body: result ?? null };
    case 'object':
    case 'list':
    case 'deleted':
      return { status: 200, body: result };
  }
}

/**
 * The dispatcher of a store. Answers 404 for an unknown method, 400 `{"error"}` for a body that is
 * not a JSON object, for invalid parameters and for failed preconditions (unknown ids), 500 for any
 * other exception. An undefined body (no body at all) counts as `{}`. Never throws.
 */
export function createDispatcher(store: StoreHandlers): (method: string, body: unknown) => BridgeResponse {
  return (method, body) => {
    try {
      if (!isMethodName(method)) return errorResponse(404, `unknown method: ${method}`);
      const params = body === undefined ? {} : body;
      if (!isPlainObject(params)) {
        return errorResponse(400, `body must be a JSON object of parameters, got ${describe(params)}`);
      }
      const checked = paramIssues(METHODS[method].params, params);
      if (!checked.ok) return errorResponse(400, checked.issues.join('; '));
      const handler = store[method] as (this: StoreHandlers, p: unknown) => unknown;
      const result = handler.call(store, checked.value);
      return respond(method, result);
    } catch (err) {
      if (err instanceof BadRequestError) return errorResponse(400, err.message);
      const detail = err instanceof Error ? err.message : String(err);
      return errorResponse(500, `internal error in ${method}: ${detail}`);
    }
  };
}
