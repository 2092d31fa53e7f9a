// From (method name, parsed JSON body) to a bridge response, independent of HTTP: the request is
// checked (request.ts), the store is called and its result is mapped onto the response kind of the
// method (bridge-protocol.md, "Response rules"). Exported so that tests and variant servers can
// wrap it (inject faults, change answers) without an HTTP proxy.
import { METHODS, type MethodName } from '../../protocols/bridge/index.js';
import { BadRequestError, MAX_ID_CHARS, type StoreHandlers } from './store.js';
import { keepFreeForm } from '../free-form.js';
import { checkRequest, errorResponse, type BridgeResponse } from './request.js';

/** Maps a store result onto the response kind of the method. */
function respond(method: MethodName, result: unknown): BridgeResponse {
  switch (METHODS[method].kind) {
    case 'void':
      return { status: 204 };
    case 'object-or-null':
      // Stryker disable next-line ConditionalExpression: equivalent, a store answers null, never undefined, for "none"
      return { status: 200, body: result ?? null };
    case 'object':
    case 'list':
    case 'deleted':
      return { status: 200, body: result };
  }
}

/** The reference's own size rule: an identifier (session_id, every *_id) of at most MAX_ID_CHARS characters. */
function idTooLong(params: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(params)) {
    if (key.endsWith('_id') && typeof value === 'string' && value.length > MAX_ID_CHARS) {
      return `${key}: is ${value.length} characters long; an identifier has at most ${MAX_ID_CHARS}`;
    }
  }
  return undefined;
}

/**
 * The dispatcher of a store. Answers 404 for an unknown method, 501 for an optional (Platinum)
 * method the store leaves out, 400 `{"error"}` for a body that is not a JSON object, for invalid
 * parameters and for failed preconditions (unknown ids), 500 for any other exception. An
 * undefined body (no body at all) counts as `{}`. Never throws.
 */
export function createDispatcher(store: StoreHandlers): (method: string, body: unknown) => BridgeResponse {
  const handlerOf = (method: MethodName) => store[method] as ((this: StoreHandlers, p: unknown) => unknown) | undefined;
  return (method, body) => {
    try {
      const request = checkRequest(
        method,
        body,
        (m) => (handlerOf(m) === undefined ? `not implemented: ${m} (an optional ${METHODS[m].tier} method)` : undefined),
        idTooLong,
      );
      if (!request.ok) return request.response;
      const result = handlerOf(request.method)!.call(store, keepFreeForm(METHODS[request.method].params, request.params, request.value));
      return respond(request.method, result);
    } catch (err) {
      if (err instanceof BadRequestError) return errorResponse(400, err.message);
      const detail = err instanceof Error ? err.message : String(err);
      return errorResponse(500, `internal error in ${method}: ${detail}`);
    }
  };
}
