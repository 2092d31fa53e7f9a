// The members and sections of the RFCs the hosted document names (RFC 9728, protected-resource
// metadata; RFC 8414, authorization-server metadata; the JWK set of its signing keys, RFC 7517) or
// that its Bearer credentials stand on (RFC 6750, RFC 9110, RFC 8725): RFC<number>-<member or
// section>, each with the kit's own one-line summary (the RFCs' prose is not copied).
import type { Sentence } from './sentence.js';

type Row = readonly [id: string, section: string, keyword: NonNullable<Sentence['keyword']> | undefined, summary: string];

const rfc = (list: readonly Row[]): Sentence[] => list.map(([id, section, keyword, text]) => ({ id, doc: 'rfc', section, text, ...(keyword !== undefined ? { keyword } : {}) }));

export const RFC_SENTENCES: readonly Sentence[] = rfc([
  // RFC 9728: OAuth 2.0 Protected Resource Metadata
  ['RFC9728-resource', 'RFC 9728 §2, §3.3', 'REQUIRED', 'resource: the identifier of the protected resource, an https URL without fragment, the one the metadata URL was made from'],
  ['RFC9728-authorization_servers', 'RFC 9728 §2', undefined, 'authorization_servers (OPTIONAL): the issuer identifiers of the authorization servers it accepts, a JSON array'],
  ['RFC9728-jwks_uri', 'RFC 9728 §2', undefined, "jwks_uri (OPTIONAL): the URL of the resource's JWK set, https"],
  ['RFC9728-scopes_supported', 'RFC 9728 §2', undefined, 'scopes_supported (RECOMMENDED): the scope values used in requests to it, a JSON array'],
  ['RFC9728-bearer_methods_supported', 'RFC 9728 §2', undefined, 'bearer_methods_supported (OPTIONAL): the ways it accepts bearer tokens (header, body, query), a JSON array'],
  ['RFC9728-resource_signing_alg_values_supported', 'RFC 9728 §2', 'MUST NOT', 'resource_signing_alg_values_supported (OPTIONAL): its signing algorithms, a JSON array that never lists none'],
  // RFC 8414: OAuth 2.0 Authorization Server Metadata
  ['RFC8414-issuer', 'RFC 8414 §2, §3.3', 'REQUIRED', 'issuer: the https URL, without query or fragment, that identifies the server and the metadata URL was made from'],
  ['RFC8414-response_types_supported', 'RFC 8414 §2', 'REQUIRED', 'response_types_supported: the response_type values it supports, a JSON array'],
  ['RFC8414-token_endpoint', 'RFC 8414 §2', 'REQUIRED', 'token_endpoint: the URL of its token endpoint (needed unless only the implicit grant is offered)'],
  ['RFC8414-authorization_endpoint', 'RFC 8414 §2', 'REQUIRED', 'authorization_endpoint: the URL of its authorization endpoint, REQUIRED unless no grant type it supports uses the authorization endpoint (a response_type is a request of that endpoint, RFC 6749 §3.1.1)'],
  ['RFC8414-jwks_uri', 'RFC 8414 §2', undefined, "jwks_uri (OPTIONAL): the URL of the server's JWK set"],
  ['RFC8414-scopes_supported', 'RFC 8414 §2', undefined, 'scopes_supported (RECOMMENDED): the scope values it supports, a JSON array'],
  ['RFC8414-response_modes_supported', 'RFC 8414 §2', undefined, 'response_modes_supported (OPTIONAL): the response_mode values it supports, a JSON array'],
  ['RFC8414-grant_types_supported', 'RFC 8414 §2', undefined, 'grant_types_supported (OPTIONAL): the grant types it supports, a JSON array'],
  ['RFC8414-token_endpoint_auth_methods_supported', 'RFC 8414 §2', undefined, 'token_endpoint_auth_methods_supported (OPTIONAL): how clients authenticate at its token endpoint, a JSON array'],
  ['RFC8414-code_challenge_methods_supported', 'RFC 8414 §2', undefined, 'code_challenge_methods_supported (OPTIONAL): the PKCE methods it supports, a JSON array'],
  // RFC 7517: JSON Web Key
  ['RFC7517-keys', 'RFC 7517 §5', 'REQUIRED', 'a JWK set is an object whose member keys is an array of JWKs, each an object with kty'],
  // RFC 6750: Bearer token usage
  ['RFC6750-2.1', 'RFC 6750 §2.1', undefined, 'a bearer token is sent in the Authorization header as "Bearer" and the token, the scheme case-insensitive'],
  ['RFC6750-3', 'RFC 6750 §3', 'MUST', 'a request refused for a missing or bad token is answered with a WWW-Authenticate challenge of the Bearer scheme'],
  ['RFC6750-3.1', 'RFC 6750 §3.1', 'SHOULD', 'a refused token is answered 401 (invalid_token), a request without the scope needed 403 (insufficient_scope)'],
  // RFC 9110: HTTP semantics
  ['RFC9110-11.1', 'RFC 9110 §11.1', undefined, 'an authentication scheme name is matched case-insensitively (bearer is Bearer)'],
  ['RFC9110-11.6.1', 'RFC 9110 §11.6.1', 'MUST', 'a 401 answer carries a WWW-Authenticate header with at least one challenge'],
  ['RFC9110-11.3', 'RFC 9110 §11.3, §2.1', 'MUST', 'a challenge is an auth-scheme, then optionally one token68 or a comma-separated list of auth-param (token "=" token or quoted-string); a sender MUST NOT generate a field that does not match this grammar'],
  ['RFC9110-15.5.6', 'RFC 9110 §15.5.6', 'MUST', 'a 405 (Method Not Allowed) answer carries an Allow header listing the methods the resource supports'],
  // RFC 8725: JWT best current practices
  ['RFC8725-3.1', 'RFC 8725 §3.1', 'MUST', 'a JWT is verified with the algorithm the verifier expects for that key; none is never accepted in its place'],
  ['RFC8725-3.9', 'RFC 8725 §3.9', 'MUST', "a JWT's aud is checked: a token issued for another audience is refused"],
  ['RFC8725-3.10', 'RFC 8725 §3.10', 'MUST', 'a key named or carried by the token itself (jwk, jku, kid) is not trusted blindly: only the keys the verifier already trusts verify it'],
  // RFC 7519: JSON Web Token
  ['RFC7519-4.1.3', 'RFC 7519 §4.1.3', 'MUST', 'a JWT whose aud does not name the recipient is rejected'],
  ['RFC7519-4.1.4', 'RFC 7519 §4.1.4', 'MUST', 'a JWT is not accepted on or after its exp'],
  ['RFC7519-7.2', 'RFC 7519 §7.2', undefined, 'validating a JWT: the signature is verified, and a JWT that fails any step is rejected'],
  // RFC 7515: JSON Web Signature
  ['RFC7515-5.2', 'RFC 7515 §5.2', undefined, 'a JWS is valid only when its signature verifies with the expected key and algorithm'],
  // RFC 6749: OAuth 2.0
  ['RFC6749-1.5', 'RFC 6749 §1.5', undefined, 'a refresh token is presented only to the authorization server to get access tokens, never to a resource server'],
  ['RFC6749-3.3', 'RFC 6749 §3.3', undefined, 'a scope is a list of space-delimited, case-sensitive scope tokens, each one or more printable characters other than space, double quote and backslash'],
  ['RFC6749-5.1', 'RFC 6749 §5.1', 'REQUIRED', 'a successful token response holds access_token and token_type (matched case-insensitively); its scope, when sent, is the scope of the access token'],
  ['RFC6749-6', 'RFC 6749 §6', undefined, 'a refresh request carries a refresh token, which the server validates; an access token is not one'],
  // RFC 8693: OAuth 2.0 Token Exchange
  ['RFC8693-2.2.2', 'RFC 8693 §2.2.2', undefined, 'a subject_token that is not valid (not issued by a trusted party, expired, unsigned) is answered with an error (invalid_request), not a token'],
]);
