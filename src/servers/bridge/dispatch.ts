// From (method name, parsed JSON body) to a bridge response, independent of HTTP: the parameters
// are validated with `METHODS[m].params`, the store is called and its result is mapped onto the
// response kind of the method (bridge-protocol.md, "Response rules"). Exported so that tests and
// variant servers can wrap it (inject faults, change answers) without an HTTP proxy.
import type { z } from 'zod';
import { METHODS, describe, isMethodName, validate, type MethodName } from '../../protocols/bridge/index.js';
import { isJsonObject as isPlainObject } from '../../util/json.js';
import { BadRequestError, MAX_ID_CHARS, type StoreHandlers } from './store.js';
import { keepFreeForm } from '../free-form.js';

export interface BridgeResponse {
  status: number;
  /** The JSON value to send; undefined means an empty body (204). */
  body?: unknown;
}

export type Dispatcher = (method: string, body: unknown) => Promise<BridgeResponse> | BridgeResponse;

export function errorResponse(status: number, error: string): BridgeResponse {
  return { status, body: { error } };
}


/**
 * How deeply a parameter value may nest (arrays and objects). JSON.parse accepts any depth, but
 * JSON.stringify, structuredClone and recursive copies overflow the stack a few thousand levels
 * down; capping the depth on the way in keeps every stored value serialisable (a stored value that
 * cannot be written back would break every later read of it).
 */
export const MAX_NESTING_DEPTH = 512;

/** Whether `value` nests deeper than `limit` levels; iterative, so any depth is safe to check. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * One line per parameter problem, each naming the parameter (the data model's own validation):
 * `role: "bogus" is not a role (user, assistant, system)`, `session_id: is missing (required)`.
 */
export function paramIssues(schema: z.ZodType, body: Record<string, unknown>): { ok: true; value: unknown } | { ok: false; issues: string[] } {
  const result = validate(schema, body);
  return result.ok ? { ok: true, value: result.value } : { ok: false, issues: result.issues };
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
      const handler = store[method] as ((this: StoreHandlers, p: unknown) => unknown) | undefined;
      // An optional (Platinum) method the store leaves out: "not implemented", as the protocol allows.
      if (handler === undefined) return errorResponse(501, `not implemented: ${method} (an optional ${METHODS[method].tier} method)`);
      const params = body === undefined ? {} : body;
      if (!isPlainObject(params)) {
        return errorResponse(400, `body must be a JSON object of parameters, got ${describe(params)}`);
      }
      for (const key of Object.keys(METHODS[method].params.shape)) {
        if (nestsDeeperThan(params[key], MAX_NESTING_DEPTH)) return errorResponse(400, `${key}: nested more than ${MAX_NESTING_DEPTH} levels deep`);
      }
      for (const [key, value] of Object.entries(params)) {
        if ((key === 'session_id' || key.endsWith('_id')) && typeof value === 'string' && value.length > MAX_ID_CHARS) {
          return errorResponse(400, `${key}: is ${value.length} characters long; an identifier has at most ${MAX_ID_CHARS}`);
        }
      }
      const checked = paramIssues(METHODS[method].params, params);
      if (!checked.ok) return errorResponse(400, checked.issues.join('; '));
      const result = handler.call(store, keepFreeForm(METHODS[method].params, params, checked.value));
      return respond(method, result);
    } catch (err) {
      if (err instanceof BadRequestError) return errorResponse(400, err.message);
      const detail = err instanceof Error ? err.message : String(err);
      return errorResponse(500, `internal error in ${method}: ${detail}`);
    }
  };
}
