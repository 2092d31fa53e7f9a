// The variants that prove the power of the hosted profile (profile-power.test.ts): faulty variants,
// each breaking exactly the rule one scenario checks, and valid variants making other choices the
// document leaves open. The faults the issue names (one per
// credential rule) are among them: revocation delayed, reveal across workspaces, plaintext in the
// list, a reusable refresh token, a JWKS without the signing key, snake_case fields, an endpoint
// without authentication.
import type { Reply } from '../../src/servers/hosted/index.js';
import type { FaultRow, ValidRow } from '../harness/power.js';
import { FAULTS as MATRIX_FAULTS } from './matrix-variants.js';
import { FAULTS as VALUES_FAULTS } from './values-variants.js';
import { HISTORY_FAULTS } from './histories-variants.js';
import {
  anyKeyOfTheRightForm, at, combine, discoveryEdited, endpointWithoutAuth, json, jwksEdited, jwksWithoutTheSigningKey, mapAnswer, mapReplies, onlyLatestToken, pathOf, plaintextInList, bulkFromStaleConversation, refreshCheckedThenSpent, refreshReusable, replaceHandler,
  revealAcrossWorkspaces, revocationDelayed, snakeCase, tokensRefusedByGraph, withExtraFields, withoutRoute, type HostedVariant,
} from './profile-harness.js';
import {
  accessTokenRefreshes, bareChallenge, bulkAnswersCount, challengeEdited, bulkKeepsTwenty, conversationDeleteHidesOnly, conversationDeleteIgnored, deletedEntityStaysInGraph, embeddedJwkTrusted,
  entityDeleteIgnored, exchangeDecodesOnly, exchangeIgnoresExpiry, exchangeRefusesWith400, exchangeTakesOpaqueTokens, expiryNotChecked, feedbackNeverShown, feedbackOnAnotherEntity,
  feedbackOverwritesDescription, graphEdgesRenamed, idpTokensAccepted, keyListIgnoresQuery, keysOfEveryWorkspaceListed, mergeLinkHidden, mergeLosesTarget, publicKeyAsHmacSecret,
  exactlyTheListedTokenFields, expiresInAsString, scopeOmittedLowerCaseType, unknownRefreshTokenServed,
  refreshTokensAsBearer, schemeCaseSensitive, softDeletes, unusableAlgorithmIs400, tokensDecodedNotVerified, twoChallenges, unauthorizedWithApiKeyChallenge, unauthorizedWithoutChallenge, unsignedTokensAccepted,
  unsignedTokensWriteAnyway, updateAnswersAck, updateNotStored,
} from './attack-variants.js';
import { writesLandInFirst } from './isolation-variants.js';

 

const DAY_MS = 24 * 60 * 60 * 1000;

// ------------------------------------------------------------------ the faults, one row per scenario at least

export const FAULTS: FaultRow<HostedVariant>[] = [
  ['SCN-H-001', 'get_reflections is missing (404)', withoutRoute('get_reflections'), /^HOSTED-ENDPOINT-get_reflections: GET \/v1\/conversations\/.*\/reflections answered 404 .*missing/],
  ['SCN-H-002', 'set_entity_feedback is missing (404)', withoutRoute('set_entity_feedback'), /^HOSTED-ENDPOINT-set_entity_feedback: PUT .*feedback answered 404/],
  ['SCN-H-003', 'get_trace_by_conversation answers 200 with no body', replaceHandler('get_trace_by_conversation', () => ({ status: 200 })), /^HOSTED-ENDPOINT-get_trace_by_conversation: .* expected a JSON body/],
  ['SCN-H-004', 'reveal_api_key is missing (404)', withoutRoute('reveal_api_key'), /^HOSTED-ENDPOINT-reveal_api_key: .*answered 404/],
  ['SCN-H-005', 'every field name is snake_case', mapReplies((reply, request) => (request.url.startsWith('/v1/') ? { ...reply, body: snakeCase(reply.body) } : reply)), /^HOSTED-CAMELCASE: .*(user_id|created_at).* not camelCase/],
  ['SCN-H-006', 'list_conversations answers a bare array', mapAnswer('list_conversations', (b) => b.conversations), /^HOSTED-PAYLOAD-list_conversations: .*expected a JSON object/],
  ['SCN-H-007', 'create_conversation drops the userId', mapAnswer('create_conversation', (b) => ({ ...b, userId: null })), /^HOSTED-PAYLOAD-create_conversation: create_conversation: expected userId/],
  ['SCN-H-008', 'the messages are not read back', mapAnswer('get_conversation', (b) => ({ ...b, messages: [] })), /^HOSTED-READBACK: get_conversation .* is not read back/],
  ['SCN-H-009', 'the graph answers {entities, relationships}', mapAnswer('get_entity_graph', (b) => ({ entities: b.nodes, relationships: b.edges })), /^HOSTED-PAYLOAD-get_entity_graph: get_entity_graph: expected an array nodes/],
  ['SCN-H-010', 'the recorded step says action instead of actionTaken', mapAnswer('record_step', ({ actionTaken, ...rest }) => ({ ...rest, action: actionTaken })), /^HOSTED-PAYLOAD-record_step: record_step: the recorded step has actionTaken \(missing\)/],
  ['SCN-H-011', 'provenance answers a bare array', mapAnswer('get_entity_provenance', (b) => b.steps), /^HOSTED-PAYLOAD-get_entity_provenance: .*expected a JSON object/],
  ['SCN-H-012', 'get_entity answers the name upper-cased', mapAnswer('get_entity', (b) => ({ ...b, name: b.name.toUpperCase() })), /^HOSTED-READBACK: get_entity: the name written .* is not read back/],
  ['SCN-H-020', 'an endpoint without authentication (GET /entities/graph)', endpointWithoutAuth, /^HOSTED-AUTH-BEARER: get_entity_graph \(GET \/v1\/entities\/graph\) with no credential: expected a refusal \(401 or 403\), got 200/],
  ['SCN-H-021', "any key of the service's form is accepted", anyKeyOfTheRightForm, /^HOSTED-AUTH-BEARER: list_conversations .* with a made-up key of the service's form .*: expected a refusal \(401 or 403\), got 200/],
  ['SCN-H-022', 'the list shows the plaintext of every key', plaintextInList, /^HOSTED-AUTH-2: list_api_keys .* shows the plaintext of the key just created/],
  ['SCN-H-023', 'revocation takes effect half a second late', revocationDelayed, /^HOSTED-AUTH-3: revocation is immediate: the very next request with the revoked key .* answered 200/],
  ['SCN-H-024', 'reveal answers without the plaintext', mapAnswer('reveal_api_key', ({ key: _key, ...rest }) => rest), /^HOSTED-AUTH-4: reveal_api_key .* does not hold the key's plaintext/],
  ['SCN-H-025', 'reveal works across workspaces', revealAcrossWorkspaces, /^HOSTED-AUTH-4: reveal works only for keys of the caller's workspace: .* revealed a key of another workspace/],
  ['SCN-H-026', 'access tokens are refused by one endpoint', tokensRefusedByGraph, /^HOSTED-AUTH-1: .*get_entity_graph answered 200 with an API key and 401 with an access token/],
  ['SCN-H-027', 'the JWKS lacks the signing key', await jwksWithoutTheSigningKey(), /^HOSTED-AUTH-5: the access token does not verify against the signing keys published at \/\.well-known\/jwks\.json/],
  ['SCN-H-027', 'the exchange answers without expires_in', mapAnswer('token_exchange', ({ expires_in: _e, ...rest }) => rest), /^HOSTED-AUTH-5: token exchange: expected a positive number expires_in/],
  ['SCN-H-028', 'a spent refresh token keeps working', refreshReusable(), /^HOSTED-AUTH-6: rotation: the spent refresh token was accepted again/],
  ['SCN-H-059', 'the refresh checks its token, awaits, then spends it: presentations at once are all served', refreshCheckedThenSpent(), /^HOSTED-AUTH-6: rotation: 4 requests presented one refresh token at once .* and [2-4] were served/],
  ['SCN-H-063', 'a bulk add writes back the conversation it read before an await', bulkFromStaleConversation(), /^get_conversation \(GET \/v1\/conversations\/.*\/messages\) after two bulk adds and 2 single adds sent at once, all answered 2xx: the message .* is read back 0 times/],
  ['SCN-H-029', 'only the access token issued last is accepted', onlyLatestToken(), /^HOSTED-AUTH-7: an access token supplied per request .* was refused/],
  ['SCN-H-030', 'keys are reported to expire after 30 days', mapAnswer('create_api_key', (b) => ({ ...b, expiresAt: new Date(Date.parse(b.createdAt) + 30 * DAY_MS).toISOString() })), /^HOSTED-LIMIT-key-lifetime: create_api_key: a key expires 90 days after issue/],
  // Issue 27: writes read back …
  ['SCN-H-013', 'a bulk add keeps the first 20 messages of 30', bulkKeepsTwenty, /^get_conversation \(GET \/v1\/conversations\/.*\/messages\) after a bulk add of 30: the message .*ENTRY \d+.* is read back 0 times, expected once \(22 messages read\)/],
  ['SCN-H-014', 'update_entity answers the patch but stores nothing', updateNotStored, /^get_entity \(GET \/v1\/entities\/.*\) after update_entity: ".* written by an update" is not read back/],
  ['SCN-H-015', 'delete_conversation deletes nothing', conversationDeleteIgnored, /^list_conversations \(GET \/v1\/conversations\) still lists the conversation .* after delete_conversation/],
  ['SCN-H-015', 'delete_conversation only hides it from the list', conversationDeleteHidesOnly(), /^get_conversation \(GET \/v1\/conversations\/.*\/messages\) after delete_conversation still reads 3 of its messages/],
  ['SCN-H-016', 'delete_entity deletes nothing', entityDeleteIgnored, /^list_entities \(GET \/v1\/entities\) still lists the entity .* after delete_entity/],
  ['SCN-H-016', 'a deleted entity stays a node of the graph', deletedEntityStaysInGraph(), /^get_entity_graph still has the entity .* as a node after delete_entity/],
  ['SCN-H-017', 'feedback overwrites the description', feedbackOverwritesDescription, /^get_entity after set_entity_feedback: ".* set before feedback", written before, is not read back: feedback is not an update/],
  ['SCN-H-017', 'feedback lands on another entity', feedbackOnAnotherEntity, /^GET \/v1\/entities\/[\w-]+ shows the feedback given to another entity/],
  ['SCN-H-018', 'the graph leaves out the SAME_AS links', mergeLinkHidden, /^get_entity_graph after merging .* into .*: no SAME_AS edge between them/],
  ['SCN-H-018', 'a merge deletes its target', mergeLosesTarget, /^HOSTED-READBACK: get_entity \(GET \/v1\/entities\/.*\): expected a 2xx answer, got 404/],
  // … workspaces, the challenge, the scheme …
  ['SCN-H-031', 'the key list holds the keys of every workspace', keysOfEveryWorkspaceListed, /^list_api_keys \(GET \/v1\/auth\/api-keys\) with the key given with --other-api-key shows the caller's key .*: a key list holds the keys of that workspace only/],
  ['SCN-H-032', 'a 401 carries no WWW-Authenticate', unauthorizedWithoutChallenge, /^GET \/v1\/conversations with no credential answered 401 without a WWW-Authenticate header: a 401 MUST carry at least one challenge \(RFC 9110 §11\.6\.1\)/],
  ['SCN-H-032', 'a 401 challenges with ApiKey, not Bearer', unauthorizedWithApiKeyChallenge, /^GET \/v1\/conversations with no credential answered 401 with WWW-Authenticate: ApiKey realm="agent-memory": no Bearer challenge.*RFC 6750 §3/],
  ['SCN-H-033', 'the scheme is matched case-sensitively', schemeCaseSensitive, /^GET \/v1\/conversations with the run's credential with the scheme written "bearer" answered 401 .*case-insensitive token \(RFC 9110 §11\.1\)/],
  // … and the credential attacks.
  ['SCN-H-050', 'alg "none" tokens are accepted', unsignedTokensAccepted, /^GET \/v1\/conversations with an unsigned JWT \(alg "none"\) was served \(200 .*RFC 8725 §3\.1/],
  ['SCN-H-050', 'alg "none" tokens are answered 401 after their write was made', unsignedTokensWriteAnyway, /^the creations were refused, yet GET \/conversations shows 3 conversation\(s\) they asked for .*: a refused request changes nothing/],
  ['SCN-H-051', 'tokens are decoded, not verified', tokensDecodedNotVerified, /^GET \/v1\/conversations with a JWT whose signature was altered was served \(200 .*RFC 7515 §5\.2/],
  ['SCN-H-051', "a key in the token's own jwk header is trusted", embeddedJwkTrusted, /^GET \/v1\/conversations with a JWT signed by a key of the kit that it carries in its own jwk header was served \(200 .*RFC 8725 §3\.10/],
  ['SCN-H-052', "HS256 is verified with the service's public key as the secret", publicKeyAsHmacSecret, /^GET \/v1\/conversations with a JWT with alg HS256 keyed with the service's public key \(its PEM with a trailing newline\) as the secret was served .*RFC 8725 §2\.1, §3\.1/],
  ['SCN-H-053', 'exp is not checked', expiryNotChecked, /^GET \/v1\/conversations with an access token past its exp was served \(200 .*RFC 7519 §4\.1\.4/],
  ['SCN-H-054', 'a refresh token is accepted as a Bearer credential', refreshTokensAsBearer(), /^GET \/v1\/conversations with the refresh token issued by call 0 \(as a Bearer credential\) was served .*RFC 6749 §1\.5/],
  ['SCN-H-054', 'an access token refreshes', accessTokenRefreshes, /^POST \/v1\/auth\/refresh with the access token as the refresh token answered 200 with an access_token: .*RFC 6749 §6/],
  ['SCN-H-055', "the identity provider's tokens are taken as access tokens", idpTokensAccepted, /^GET \/v1\/conversations with a token of the identity provider \(aud "agent-memory-tck", .*\) was served .*RFC 7519 §4\.1\.3/],
  ['SCN-H-056', 'the exchange decodes the subject token without verifying it', exchangeDecodesOnly, /^POST \/v1\/auth\/exchange with an unsigned JWT \(alg "none"\) answered 200 with an access_token: .*RFC 8693 §2\.2\.2/],
  ['SCN-H-056', 'the exchange takes an opaque subject token', exchangeTakesOpaqueTokens, /^POST \/v1\/auth\/exchange with a garbage string answered 200 with an access_token/],
  ['SCN-H-057', "the exchange ignores the subject token's exp", exchangeIgnoresExpiry, /^POST \/v1\/auth\/exchange with an identity provider's token past its exp answered 200 with an access_token: .*RFC 7519 §4\.1\.4/],
  // … and the rules the credential part's mutation run found unchecked (issue 27 item 5).
  ['SCN-H-034', 'the exchange answers expires_in as a string', expiresInAsString, /^HOSTED-AUTH-5: token exchange \(POST \/v1\/auth\/exchange\): expires_in is "\d+": the exchange returns access_token, refresh_token and expires_in, a number/],
  ['SCN-H-058', 'a refresh token the service never issued is answered with new tokens', unknownRefreshTokenServed(), /^POST \/v1\/auth\/refresh with a refresh token the service never issued answered 200 with an access_token: .*RFC 6749 §6/],
  ['SCN-H-040', 'the resource metadata names /v1 as the resource', discoveryEdited('/.well-known/oauth-protected-resource', (d) => ({ ...d, resource: `${d.resource}/v1` })), /^RFC9728-resource: .*resource must be the identifier the metadata URL was made from/],
  ['SCN-H-041', 'the server metadata lacks response_types_supported', discoveryEdited('/.well-known/oauth-authorization-server', ({ response_types_supported: _r, ...d }) => d), /^RFC8414-response_types_supported: .*REQUIRED member response_types_supported is missing/],
  ['SCN-H-042', 'the JWKS publishes private key material', jwksEdited((keys) => keys.map((k) => ({ ...k, d: 'c2VjcmV0' }))), /^HOSTED-DISCOVERY-3: .*publishes private key material \(d\)/],
  ['SCN-H-043', 'authorization_servers names another issuer', discoveryEdited('/.well-known/oauth-protected-resource', (d) => ({ ...d, authorization_servers: ['https://login.example.com'] })), /^RFC9728-authorization_servers: .*does not name the issuer/],
  ['SCN-H-044', "the JWKS gives the signing key another kid", jwksEdited((keys) => keys.map((k) => ({ ...k, kid: 'renamed' }))), /^HOSTED-DISCOVERY-3: the access token's kid .* names no key of/],
  // The http.ts mutation run (issue 27 item 5): the grammar of the challenge, and the Allow of a 405.
  ['SCN-H-032', 'the challenge has text after its last quoted string', challengeEdited((c) => (c === undefined ? c : `${c}; charset="utf-8"`)), /^GET \/v1\/conversations with no credential answered 401 with WWW-Authenticate: Bearer .*: not a list of challenges \(RFC 9110 §11\.6\.1, §11\.3\): expected a comma or the end after an auth-param, at character \d+; a sender MUST NOT generate/],
  ['SCN-H-032', 'the realm is written unquoted with a space in it', challengeEdited(() => 'Bearer realm=agent memory'), /^GET \/v1\/conversations with no credential answered 401 with WWW-Authenticate: Bearer realm=agent memory: not a list of challenges .*expected a comma or the end after an auth-param, at character 20/],
  ['SCN-H-041', 'the server metadata lists the response type code without an authorization endpoint', discoveryEdited('/.well-known/oauth-authorization-server', (d) => ({ ...d, response_types_supported: ['code'] })), /^RFC8414-authorization_endpoint: .*response_types_supported lists \["code"\].*authorization_endpoint is missing: it is REQUIRED unless/],
  ['SCN-H-032', "the challenge's error_description carries the reason's quotes unescaped", challengeEdited((c, r) => (typeof (r.body as any)?.error === 'string' ? c?.replace(/error_description="(?:[^"\\]|\\.)*"/, `error_description="${(r.body as any).error}"`) : c)), /^GET \/v1\/conversations with a JWT signed HS256 with a made-up secret answered 401 with WWW-Authenticate: .*error_description="the access token is not valid: "alg".*: not a list of challenges/],
  // Workspace isolation (issue 36): its rule part, the other workspace's writes read back for it.
  ['SCN-H-060', "the other workspace's writes land in the first workspace", writesLandInFirst, /^HOSTED-READBACK: get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\) with the key given with --other-api-key answered 200 .*: the message it wrote itself \(tck-secret-\w+\) is not read back/],
  ['SCN-H-061', "the other workspace's writes land in the first workspace", writesLandInFirst, /^HOSTED-READBACK: get_entity \(GET \/v1\/entities\/[\w-]+\) with the key given with --other-api-key answered 404 .*: the entity it wrote itself \(Bo tck-secret-\w+\) is not read back/],
  ['SCN-H-062', "the other workspace's writes land in the first workspace", writesLandInFirst, /^HOSTED-READBACK: get_trace_by_conversation \(GET \/v1\/reasoning\/trace\/[\w-]+\) with the key given with --other-api-key answered 200 .*: the reasoning step it wrote itself \(tck-secret-\w+\) is not read back/],
  ['SCN-H-001', 'a 405 carries no Allow', mapReplies((r) => (r.status === 405 ? { ...r, headers: without(r.headers ?? {}, ['allow']) as Record<string, string> } : r)), /^PATCH \/v1\/conversations answered 405 without an Allow header: a 405 MUST carry Allow .*RFC 9110 §15\.5\.6/],
  ['SCN-H-001', "a 405's Allow names only GET", mapReplies((r) => (r.status === 405 ? { ...r, headers: { ...r.headers, allow: 'GET' } } : r)), /^PATCH \/v1\/conversations answered 405 with Allow: GET: a 405 MUST carry Allow listing the methods/],
  // Issue 34: the coverage matrix, credential × endpoint.
  ...MATRIX_FAULTS,
  // Issue 34: the value dimension, every write's string and number fields × value classes (SCN-H-200 …).
  ...VALUES_FAULTS,
  // Issue 34: histories and limits (READ → WRITE → the same READ; a limit beside an order or a filter).
  ...HISTORY_FAULTS,
];

// ------------------------------------------------------------------ other readings of what the document leaves open

export const VALID: ValidRow<HostedVariant>[] = [
  ['a refused credential is answered 403 instead of 401', mapReplies((r) => (r.status === 401 ? { ...r, status: 403 } : r))],
  ['every object of every answer has an extra field', mapReplies((r) => (r.body === undefined ? r : { ...r, body: withExtraFields(r.body) }))],
  ['creations answer 200 instead of 201, and deletions 200 {"deleted": true} instead of 204', mapReplies((r) => (r.status === 201 ? { ...r, status: 200 } : r.status === 204 ? json(200, { deleted: true }) : r))],
  ['errors are {"message", "code"} instead of {"error"}', mapReplies((r) => (r.status >= 400 && (r.body as any)?.error ? { ...r, body: { message: (r.body as any).error, code: r.status } } : r))],
  ['list_api_keys answers a bare array', mapAnswer('list_api_keys', (b) => b.keys)],
  ['a spent refresh token is answered 400 invalid_grant', mapReplies((r, request) => (at('/v1/auth/refresh')(request) && r.status === 401 ? json(400, { error: 'invalid_grant' }) : r))],
  ["another workspace's key is answered 404 by reveal", mapReplies((r, request) => (/\/reveal$/.test(pathOf(request)) && r.status === 403 ? json(404, { error: 'not found' }) : r))],
  // The reference's earlier readings, before it followed the official clients: the document shows
  // none of these shapes, so each stays a valid answer for the profile.
  ['a second delete of a conversation answers 404 (deletes not idempotent)', replaceHandler('delete_conversation', (ctx, original) => (ctx.store.conversationOf(ctx.params.id!) === undefined ? json(404, { error: 'no such conversation' }) : original(ctx)))],
  ['entity types are answered upper-case (PERSON)', mapReplies((r, request) => (/\/v1\/entities(\/[^/]+)?$/.test(pathOf(request)) && (r.body as any)?.type ? { ...r, body: { ...(r.body as any), type: String((r.body as any).type).toUpperCase() } } : r))],
  ['the query console answers {columns, records} (one object per row)', mapAnswer('cypher_query', (b) => ({ columns: b.columns, records: b.rows.map((row: unknown[]) => Object.fromEntries(b.columns.map((c: string, i: number) => [c, row[i]]))) }))],
  ['get_context answers {conversationId, messages, entities, steps}', mapAnswer('get_context', (b) => ({ conversationId: b.conversationId, messages: b.recentMessages, entities: b.entities, steps: [] }))],
  ['merge answers the merged entity', mapAnswer('merge_entities', (b) => b.entity)],
  ['set_entity_feedback answers {entityId, feedback}', mapAnswer('set_entity_feedback', (b) => ({ entityId: b.id, feedback: b.feedback }))],
  // Issue 27: the challenge's form, the token endpoints' refusals, the key list's query, soft deletes, what feedback, edges, bulk and update answers look like.
  ['a 401 challenges with a bare "Bearer"', bareChallenge],
  ['a 401 offers Basic and a lower-case bearer challenge', twoChallenges],
  ['the exchange refuses a subject token with 400 invalid_request', exchangeRefusesWith400],
  ['a token of an algorithm the service never uses (none, HS256) is answered 400 invalid_request', unusableAlgorithmIs400],
  ["the key list shows the caller's workspace whatever the query names", keyListIgnoresQuery],
  ['deletes are soft: a deleted entity reads back marked deleted, a deleted conversation answers 410', softDeletes()],
  ['feedback is kept but never shown', feedbackNeverShown],
  ['graph edges are {id, from, to, label}', graphEdgesRenamed],
  ['a bulk add answers a count', bulkAnswersCount],
  ['update_entity answers {id, updated}', updateAnswersAck],
  ['the token responses leave scope out and write token_type "bearer"', scopeOmittedLowerCaseType],
  ['the token responses hold exactly access_token, refresh_token and expires_in (no token_type, no scope)', exactlyTheListedTokenFields],
  // The credential part's mutation run (issue 27 item 5): a key answer's fields beyond id and key are not shown, nor the scope values beyond read and write.
  ['key answers show only id, label and key (no scopes, workspace, dates or status)', { routes: (rs) => rs.map((route) => (['create_api_key', 'list_api_keys', 'reveal_api_key'].includes(route.operation) ? { ...route, handler: async (ctx) => keep(await route.handler(ctx), ['id', 'label', 'key']) } : route)) }],
  ['create_api_key accepts and keeps scope values other than read and write', replaceHandler('create_api_key', async (ctx, original) => {
    const scopes = ctx.body.scopes;
    if (!Array.isArray(scopes) || !scopes.every((v) => typeof v === 'string') || scopes.every((v) => v === 'read' || v === 'write')) return original(ctx);
    const { view, key } = await ctx.keys.issue({ label: String(ctx.body.label), scopes: scopes as never, workspaceId: ctx.principal!.workspaceId });
    return json(201, { ...view, key });
  })],
  // The routes run's credential lines (issue 27 item 5): what the document leaves open about the key and token endpoints' requests.
  ['create_api_key creates a key in any workspace it names', replaceHandler('create_api_key', (ctx, original) => {
    const ws = ctx.body.workspaceId;
    return original(typeof ws === 'string' && ws !== '' ? { ...ctx, principal: { ...ctx.principal!, workspaceId: ws } } : ctx);
  })],
  ['reveal ignores a workspaceId query', replaceHandler('reveal_api_key', (ctx, original) => original({ ...ctx, query: new URLSearchParams() }))],
  ['the token endpoints read only the camelCase fields (refreshToken, subjectToken)', combine(
    replaceHandler('refresh_access_token', (ctx, original) => original({ ...ctx, body: without(ctx.body, ['refresh_token']) })),
    replaceHandler('token_exchange', (ctx, original) => original({ ...ctx, body: without(ctx.body, ['refresh_token', 'subject_token', 'idToken', 'id_token', 'identityToken', 'token']) })),
  )],
  ['the exchange ignores grant_type (no refresh_token grant at the token endpoint)', replaceHandler('token_exchange', (ctx, original) => original({ ...ctx, body: without(ctx.body, ['grant_type', 'grantType']) }))],
  ['keys show no createdAt and expiresAt', { routes: (rs) => rs.map((route) => (['create_api_key', 'list_api_keys'].includes(route.operation) ? { ...route, handler: async (ctx) => strip(await route.handler(ctx)) } : route)) }],
  // The rest of the routes run (issue 27 item 5): what the document leaves open about the resource endpoints ("query parameters,
  // pagination, filters, body fields, response bodies: not shown"; "the meaning of each scope: not shown"; errors "not shown").
  ['the service reads no query parameter, and no limit, threshold or type of a search (no filter, no page size)', combine(
    { intercept: () => (request, next) => next({ ...request, url: pathOf(request) }) },
    ...['search_messages', 'search_entities'].map((op) => replaceHandler(op, (ctx, original) => original({ ...ctx, body: without(ctx.body, ['limit', 'threshold', 'type']) }))),
  )],
  ['get_observations and get_reflections answer an empty object', combine(mapAnswer('get_observations', () => ({})), mapAnswer('get_reflections', () => ({})))],
  ['cypher_query needs the write scope', { routes: (rs) => rs.map((route) => (route.operation === 'cypher_query' ? { ...route, access: 'write' as const } : route)) }],
  ['record_tool_call keeps only the step, the tool name and the result (no arguments, status, duration or error)', replaceHandler('record_tool_call', (ctx, original) => original({ ...ctx, body: without(ctx.body, ['arguments', 'status', 'durationMs', 'error']) }))],
  ['errors answer an empty object', mapReplies((r) => (r.status >= 400 && r.body !== undefined ? { ...r, body: {} } : r))],
  // The http.ts mutation run: what RFC 9110 leaves a service, and what the document does not show.
  ['the server metadata names an authorization endpoint and the response type code', discoveryEdited('/.well-known/oauth-authorization-server', (d) => ({ ...d, response_types_supported: ['code'], authorization_endpoint: `${d.issuer}/authorize` }))],
  ['the server metadata leaves grant_types_supported, token_endpoint_auth_methods_supported and scopes_supported out', discoveryEdited('/.well-known/oauth-authorization-server', ({ grant_types_supported: _g, token_endpoint_auth_methods_supported: _t, scopes_supported: _s, ...d }) => d)],
  ['a method a path does not have is answered 404, not 405', mapReplies((r) => (r.status === 405 ? json(404, { error: 'not found' }) : r))],
  ['challenges give their parameters as tokens, one challenge per scheme: Bearer realm=agent-memory, error=invalid_token, and a token68 Newauth challenge', challengeEdited(() => 'Newauth dG9rZW4=, Bearer realm=agent-memory, error=invalid_token')],
  // Workspace isolation (issue 36): what a write to an id the caller's workspace does not have gets is the service's choice.
  ['a message or a step addressed to a conversation the workspace does not have is refused 404 (no conversation starts by its first message)', combine(
    ...['add_message', 'bulk_add_messages'].map((op) => replaceHandler(op, (ctx, original) => (ctx.store.conversationOf(ctx.params.id!) === undefined ? json(404, { error: 'no such conversation' }) : original(ctx)))),
    replaceHandler('record_step', (ctx, original) => (typeof ctx.body.conversationId === 'string' && ctx.store.conversationOf(ctx.body.conversationId) === undefined ? json(404, { error: 'no such conversation' }) : original(ctx))),
  )],
  ['the service takes the credential under any auth scheme', { intercept: () => (request, next) => next({ ...request, authorization: request.authorization?.replace(/^\s*(?!bearer\b)\S+/i, 'Bearer') }) }],
];

/** A request body without the named fields. */
const without = (body: Record<string, unknown>, names: string[]): Record<string, unknown> => Object.fromEntries(Object.entries(body).filter(([k]) => !names.includes(k)));

/** Only the named fields kept in a key answer or in each key of a key list. */
function keep(reply: Reply, fields: string[]): Reply {
  const only = (k: any) => Object.fromEntries(fields.filter((f) => f in k).map((f) => [f, k[f]]));
  const b = reply.body as any;
  if (reply.status >= 300 || b === undefined) return reply;
  return { ...reply, body: Array.isArray(b?.keys) ? { keys: b.keys.map(only) } : only(b) };
}

/** createdAt and expiresAt removed from a key answer or a key list. */
function strip(reply: Reply): Reply {
  const drop = ({ createdAt: _c, expiresAt: _e, ...rest }: any) => rest;
  const b = reply.body as any;
  return { ...reply, body: Array.isArray(b?.keys) ? { ...b, keys: b.keys.map(drop) } : drop(b) };
}
