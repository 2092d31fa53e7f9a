// What every bridge dispatcher does before it calls a handler (the reference's and the
// forwarder's): the method must be known and served, the body a JSON object of parameters within
// the nesting cap, and the parameters valid for the method (bridge-protocol.md, "Error rules").
import { METHODS, describe, isMethodName, validate, type MethodName } from '../../protocols/bridge/index.js';
import { isJsonObject } from '../../util/json.js';
import { nestingIssue } from '../nesting.js';
import { hollowFreeForm, keepFreeForm } from '../free-form.js';

export interface BridgeResponse {
  status: number;
  /** The JSON value to send; undefined means an empty body (204). */
  body?: unknown;
}

export type Dispatcher = (method: string, body: unknown) => Promise<BridgeResponse> | BridgeResponse;

// Stryker disable next-line BlockStatement: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
export function errorResponse(status: number, error: string): BridgeResponse {
  // Stryker disable next-line ObjectLiteral: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
  return { status, body: { error } };
}

/** Maps a handler's result onto the response kind of the method (204, null for "none", or the value). */
export function respond(method: MethodName, result: unknown): BridgeResponse {
  switch (METHODS[method].kind) {
    case 'void':
      return { status: 204 };
    // Stryker disable next-line ConditionalExpression: equivalent: a store answers null for "none", which the object case passes on unchanged
    case 'object-or-null':
      // Stryker disable next-line ConditionalExpression: equivalent, a store answers null, never undefined, for "none"
      return { status: 200, body: result ?? null };
    case 'object':
    case 'list':
    case 'deleted':
      return { status: 200, body: result };
  }
}

type CheckedRequest =
  | { ok: true; method: MethodName; value: unknown }
  | { ok: false; response: BridgeResponse };

/**
 * Checks a request in the order a client can tell apart: 404 for an unknown method, 501 when
 * `unserved(method)` gives a reason (an optional method this server leaves out), 400 for a body
 * that is not an object (an absent body counts as `{}`), nested beyond the cap, or with invalid
 * parameters. The value handed on keeps user data as sent (free-form.ts). `extra` adds a server's own 400 checks on the raw parameters.
 */
export function checkRequest(
  method: string,
  body: unknown,
  unserved: (method: MethodName) => string | undefined,
  extra: (params: Record<string, unknown>) => string | undefined = () => undefined,
): CheckedRequest {
  // Stryker disable next-line ObjectLiteral,BooleanLiteral,ArrowFunction: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"})
  const refuse = (status: number, error: string): CheckedRequest => ({ ok: false, response: errorResponse(status, error) });
  // Over HTTP the servers' own routing answers these two first; the dispatcher is also called in
  // process (explore's model, library users), where they are its only guard.
  // Stryker disable next-line all: equivalent over HTTP: http.ts answers 404 before dispatching
  if (!isMethodName(method)) return refuse(404, `unknown method: ${method}`);
  const reason = unserved(method);
  // Stryker disable next-line ConditionalExpression: outside the mutation run: only Platinum methods lack a handler, and the run covers the reference's Bronze-Gold tiers (Platinum is HostedStore's, with its own scenarios)
  if (reason !== undefined) return refuse(501, reason);
  // Stryker disable next-line ConditionalExpression: equivalent over HTTP: http.ts turns an empty body into {} before dispatching
  const params = body === undefined ? {} : body;
  // Stryker disable next-line all: equivalent over HTTP: http.ts answers 400 to a body that is not an object
  if (!isJsonObject(params)) return refuse(400, `body must be a JSON object of parameters, got ${describe(params)}`);
  // Stryker disable next-line LogicalOperator: not a protocol rule: the identifier size limit is the reference's own robustness limit (unit-tested in test/reference)
  const problem = nestingIssue(params, Object.keys(METHODS[method].params.shape)) ?? extra(params);
  // Stryker disable next-line ConditionalExpression: not a protocol rule: the nesting cap and the identifier size limit are the reference's own robustness limits (unit-tested in test/reference)
  if (problem !== undefined) return refuse(400, problem);
  // Free-form values (metadata, arguments, properties) are validated hollow: only their being objects is checked, at no cost per key.
  const checked = validate(METHODS[method].params, hollowFreeForm(METHODS[method].params, params));
  // Stryker disable next-line ConditionalExpression,StringLiteral: silent point error-status: the refusal still answers 400 or 500 with {"error"} (an exception or a malformed reply becomes 500 {"error"}); the separator of the issues is wording
  if (!checked.ok) return refuse(400, checked.issues.join('; '));
  // The validated parameters, with user data (metadata, arguments, properties) exactly as sent.
  return { ok: true, method, value: keepFreeForm(METHODS[method].params, params, checked.value) };
}
