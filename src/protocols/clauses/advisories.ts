// The kit's own readings: what an assertion checks that no sentence of the specifications states
// (good practice, robustness, a reading of a silent point the kit prefers). An assertion citing one
// is an ADVISORY (src/engine/assert.ts: check.advise): run, reported in every format with its
// reason, counted apart, never failing a tier unless a run asks for it (--advisories=fail).

export interface Advisory {
  /** ADV-<kebab-name>. */
  id: string;
  /** One line: what the kit expects. */
  expects: string;
  /** Why it is not a rule: which sentences come nearest and why they do not settle it. */
  reason: string;
  /** The nearest sentences (ids of the clause map). */
  near: readonly string[];
  /**
   * A security finding: when it does not hold, one party can reach what another trusts the
   * service to keep from it. Every format shows these first, apart from the other advisories,
   * and `tck certify` records them in the bundle (docs/isolation.md).
   */
  security?: true;
}

export const ADVISORIES: readonly Advisory[] = [
  {
    id: 'ADV-refuse-missing-param',
    expects: 'a call missing a required parameter is refused with 400 or 500 {"error": …}',
    reason:
      'the method tables mark parameters required, and the Errors section says what a failed call returns, but no sentence says a server must refuse a call that lacks one (it may read a default)',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'],
  },
  {
    id: 'ADV-refuse-wrong-type',
    expects: 'a parameter of the wrong JSON type is refused with 400 or 500 {"error": …}',
    reason:
      'the data model gives the types of fields, not what a server does with a parameter of another type; what it answers when it accepts one must still match the data model, and that is checked as a rule',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-GENERAL-5'],
  },
  {
    id: 'ADV-failed-call-changes-nothing',
    expects: 'a call answered with 400 or 500 {"error": …} leaves the stored data as it was',
    reason:
      'Errors rule 1 says what a failed call returns, not that it has no effect: no sentence makes a call atomic or says a refused write stores nothing',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'],
  },
  {
    id: 'ADV-refuse-unknown-trace',
    expects: 'add_step naming a trace_id that no trace has is refused with 400 or 500 {"error": …}',
    reason:
      'SPEC-4.2.1 links a step to its trace and Errors rule 2 says only that a lookup finding nothing is not an error; no sentence says a write naming an absent trace must fail (a server may start the trace, or keep the step)',
    near: ['SPEC-4.2.1', 'BRIDGE-ERRORS-1', 'BRIDGE-ERRORS-2'],
  },
  {
    id: 'ADV-refuse-unknown-status',
    expects: 'record_tool_call with a status outside the six (pending, success, failure, error, timeout, cancelled) is refused with 400 or 500 {"error": …}',
    reason:
      'the data model lists the six statuses and every answer must carry one of them (checked as a rule), but no sentence says a server must refuse another value rather than read it as one of the six (for example "SUCCESS" as success)',
    near: ['BRIDGE-MODEL-ToolCall.status', 'BRIDGE-STATES-1', 'BRIDGE-GENERAL-3'],
  },
  {
    id: 'ADV-refuse-malformed-body',
    expects: 'a request body that is not valid JSON (cut off, or with a trailing comma) is refused with 400 or 500 {"error": …}',
    reason:
      'the Request rules say what a client sends (a JSON object); no sentence says what a server does with a body that breaks them. When it fails the call, Errors rule 1 fixes the answer, and that is checked as a rule',
    near: ['BRIDGE-REQUEST-1', 'BRIDGE-REQUEST-2', 'BRIDGE-ERRORS-1'],
  },
  {
    id: 'ADV-search-results-distinct',
    expects: 'a search answer (search_messages, search_entities) lists each stored item at most once',
    reason:
      'SPEC-2.3.1 and SPEC-3.4.1 say a search returns the matching items and SPEC-2.3.3 and SPEC-3.4.2 bound how many; no sentence forbids an item twice (an index of chunks can match one message twice; get_related_entities shows established queries repeating items, silent point related-repeats)',
    near: ['SPEC-2.3.1', 'SPEC-2.3.3', 'SPEC-3.4.1', 'SPEC-3.4.2'],
  },
  {
    id: 'ADV-limit-window',
    expects: 'get_conversation(limit=N) keeps the first N or the last N messages of the conversation (a run from one end, oldest first)',
    reason:
      'SPEC-2.2.2 and SPEC-2.2.6 fix how many messages a limit returns, SPEC-2.2.1 their order and SPEC-2.2.4 their session (all checked as rules); which messages a limit keeps is not shown (the bridge document leaves "the meaning of limit" open), so N messages of the session that are not a run from one end break no sentence',
    near: ['SPEC-2.2.2', 'SPEC-2.2.6', 'SPEC-2.2.1'],
  },
  {
    id: 'ADV-search-preferences-limit',
    expects: 'search_preferences(limit=N) returns at most N preferences',
    reason:
      'the method row gives search_preferences a limit? parameter, and every other limit of the protocol has its sentence (SPEC-2.3.3, SPEC-3.4.2, SPEC-4.6.3, SPEC-5.4.2), but none is written for search_preferences, and the bridge document leaves the meaning of its parameters open',
    near: ['BRIDGE-METHOD-search_preferences', 'SPEC-3.5.1', 'SPEC-3.4.2'],
  },
  {
    id: 'ADV-similar-traces-first',
    expects: 'get_similar_traces ranks a trace whose task matches the query ahead of traces sharing no word with it',
    reason:
      'SPEC-5.4.1 says the traces with similar tasks are returned (checked as a rule); an answer may hold other traces too (the established adapters search nearest neighbours), and the bridge document leaves ordering open, so no sentence puts the similar ones first',
    near: ['SPEC-5.4.1', 'BRIDGE-METHOD-get_similar_traces'],
  },
  {
    id: 'ADV-properties-not-null',
    expects: 'add_relationship without properties answers properties as a JSON object or leaves the field out, never null',
    reason:
      'General rule 5 says properties are JSON objects, but rule 4 lets an optional field be null when unset and the Relationship table is not shown, so whether properties is such a field is open; the data model checked for every answer takes an object or null',
    near: ['BRIDGE-GENERAL-5', 'BRIDGE-GENERAL-4', 'BRIDGE-METHOD-add_relationship'],
  },
  // Platinum (issue 23).
  {
    id: 'ADV-delete-unknown-conversation',
    expects: 'delete_conversation of an id that never named a conversation succeeds, like a second delete',
    reason: 'SPEC-V5-5.1.3 makes a delete idempotent (a second delete of the same conversation succeeds); it does not say what deleting an id that never existed answers (silent point delete-unknown)',
    near: ['SPEC-V5-5.1.3'],
  },
  {
    id: 'ADV-bulk-refusal-atomic',
    expects: 'a bulk_add_messages that is refused adds none of its messages',
    reason: 'SPEC-V5-5.1.4 caps the input at 100 and BRIDGE-ERRORS-1 says what a failed call answers; neither says a refused call changes nothing',
    near: ['SPEC-V5-5.1.4', 'BRIDGE-ERRORS-1'],
  },
  // ---------------------------------------------------------------- the hosted profile (issue 27)
  {
    id: 'ADV-workspace-isolation',
    security: true,
    expects:
      "a credential reaches only its own workspace's data: another workspace's conversations, messages, entities, steps and query results are not listed, read, searched, shown in the graph or counted, its ids answer as unknown ids do, and writes and deletes addressed to them change nothing",
    reason:
      'the document ties every credential to a workspace (create input workspaceId; list_api_keys "list of keys of that workspace"; rule 4 "Reveal works only for keys created in the same workspace as the caller") but scopes only keys: the resource table gives conversations, entities and steps no workspace, list_conversations is "object with field conversations (array)" with no "of that workspace", and rule 1 says only that a credential is "used identically on all endpoints". So no sentence partitions the data. It is a SECURITY advisory: for a hosted memory service, isolation between tenants is the property users trust it for (docs/isolation.md)',
    near: ['HOSTED-AUTH-4', 'HOSTED-PAYLOAD-list_api_keys', 'HOSTED-RESOURCE-ApiKeyCreateInput.workspaceId', 'HOSTED-AUTH-1', 'HOSTED-PAYLOAD-list_conversations'],
  },
  {
    id: 'ADV-invalid-token-401',
    expects: 'a request whose bearer token is forged, expired or not meant for the service is answered 401',
    reason: 'RFC 6750 §3.1 says the resource SHOULD answer invalid_token with 401; the hosted document shows no status for a refused credential, and the official clients read 401 and 403 alike. The rule is only that the request is not served',
    near: ['RFC6750-3.1', 'HOSTED-AUTH-BEARER'],
  },
  {
    id: 'ADV-refusal-4xx',
    expects: 'a token endpoint answers a token it refuses with a 4xx status',
    reason: 'a 5xx says the service failed rather than refused; the hosted document shows no error status, so the rule is only that no token is issued',
    near: ['HOSTED-AUTH-5', 'HOSTED-AUTH-6', 'RFC8693-2.2.2'],
  },
  {
    id: 'ADV-challenge-on-403',
    expects: 'a 403 refusing a credential carries a Bearer challenge in WWW-Authenticate',
    reason: 'RFC 6750 §3 asks for the header on every refused bearer request, but a 403 is not a 401 (RFC 9110 §11.6.1 binds only 401), and the document leaves 401 or 403 open',
    near: ['RFC6750-3', 'RFC9110-11.6.1'],
  },
  {
    id: 'ADV-invalid-token-error',
    expects: 'the Bearer challenge answering a token that was sent and failed carries error="invalid_token"',
    reason: 'RFC 6750 §3 says the challenge SHOULD carry the error code when a token was sent and refused; a SHOULD, and the hosted document says nothing of the challenge\'s parameters',
    near: ['RFC6750-3', 'RFC6750-3.1'],
  },
  {
    id: 'ADV-list-keys-other-workspace',
    expects: "a key list asked, with the caller's credential, for another workspace is refused or holds none of its keys",
    reason: 'the payload table says list_api_keys takes "a workspace identifier" and returns "list of keys of that workspace"; it does not say the workspace must be the caller\'s (rule 4 says so for reveal only)',
    near: ['HOSTED-PAYLOAD-list_api_keys', 'HOSTED-AUTH-4'],
  },
  {
    id: 'ADV-revoke-other-workspace',
    expects: "revoking, with a key of one workspace, a key of another workspace is refused and leaves that key working",
    reason: 'rule 4 binds reveal to the caller\'s workspace and the key list holds the keys of one workspace, but no sentence says so for revoke: the lifecycle row of DELETE /auth/api-keys/{id} has the condition "none"',
    near: ['HOSTED-KEYSTATE-3', 'HOSTED-AUTH-3', 'HOSTED-AUTH-4'],
  },
  {
    id: 'ADV-reveal-wider-scopes',
    expects: 'a key with the read scope only cannot reveal a key that has the write scope',
    reason: 'revealing a wider key hands its holder the scopes it lacks; but the document says reveal works within the workspace (rule 4) and leaves the meaning of each scope unsaid ("The meaning of each scope … not shown")',
    near: ['HOSTED-AUTH-4', 'HOSTED-PAYLOAD-reveal_api_key'],
  },
  {
    id: 'ADV-reveal-revoked',
    expects: 'reveal refuses a revoked key (no plaintext)',
    reason: 'a revoked key no longer works (rule 3), so its plaintext serves nothing but a leak; but the document says only that reveal works for keys of the same workspace, not for which states',
    near: ['HOSTED-AUTH-4', 'HOSTED-AUTH-3', 'HOSTED-KEYSTATE-3'],
  },
  {
    id: 'ADV-reuse-revokes-family',
    expects: 'when a spent refresh token is presented again, the refresh token and the access token issued from it stop working too',
    reason: 'RFC 9700 §4.14.2 describes rotation this way (the server, unable to tell the attacker from the client, revokes the active refresh token), but the hosted document says only that refresh is a rotation (rule 6), and the RFC describes, rather than requires, what follows a reuse',
    near: ['HOSTED-AUTH-6', 'RFC6749-6'],
  },
  {
    id: 'ADV-token-type-bearer',
    expects: 'the token responses of the exchange and the refresh hold token_type "Bearer" (any case), as an RFC 6749 §5.1 token response does',
    reason:
      'the hosted document defines its own exchange: it "returns access_token, refresh_token and expires_in" (Authentication rule 5, the Token exchange response table) and does not adopt RFC 6749\'s token response for it; the RFCs it adopts it names where it names them (RFC 9728, RFC 8414), and an RFC binds only where the document points to it for that endpoint',
    near: ['HOSTED-AUTH-5', 'HOSTED-PAYLOAD-token_exchange', 'HOSTED-PAYLOAD-refresh_access_token', 'RFC6749-5.1'],
  },
  {
    id: 'ADV-token-scope-syntax',
    expects: 'the scope of a token response, when it gives one, is a string of space-delimited scope tokens (RFC 6749 §3.3)',
    reason:
      'the hosted document lists no scope in the exchange\'s or the refresh\'s answer and does not adopt RFC 6749 for them (Authentication rule 5, the Token exchange response table); a scope given in another form is the service\'s own field',
    near: ['HOSTED-AUTH-5', 'HOSTED-PAYLOAD-token_exchange', 'RFC6749-5.1', 'RFC6749-3.3'],
  },
  {
    id: 'ADV-token-scope-advertised',
    expects: "the scope of a token response names only scope values the service's metadata advertises (scopes_supported), when it advertises them",
    reason: 'RFC 6749 §5.1 makes scope the scope of the access token, and RFC 8414 and RFC 9728 list the scopes in use as scopes_supported, but neither says a server issues only advertised scopes (RFC 8414: a server MAY leave some out)',
    near: ['RFC6749-5.1', 'RFC8414-scopes_supported', 'RFC9728-scopes_supported'],
  },
  {
    id: 'ADV-unknown-key-4xx',
    expects: 'revoke_api_key and reveal_api_key of an id no key has answer a 4xx (404), not a 5xx',
    reason: 'a 5xx says the service failed rather than found nothing; the hosted document shows no error status ("Errors … not shown"), so no sentence fixes the answer',
    near: ['HOSTED-ENDPOINT-revoke_api_key', 'HOSTED-ENDPOINT-reveal_api_key'],
  },
  {
    id: 'ADV-expires-in-matches-exp',
    expects: "an access token's exp is expires_in seconds after the token response (within 5 minutes)",
    reason: 'RFC 6749 §5.1 gives expires_in in seconds from the response, and RFC 7519 §4.1.4 makes exp the end of the token; but the hosted document leaves the unit of expires_in and the lifetime of an access token unsaid ("not shown")',
    near: ['HOSTED-AUTH-5', 'RFC6749-5.1', 'RFC7519-4.1.4'],
  },
  {
    id: 'ADV-grant-wider-scopes',
    expects: 'a key cannot create a key with a scope it lacks (a write-only key creates no read-write key)',
    reason: 'a key that grants what it lacks widens its own power; but the document leaves the meaning of each scope unsaid ("The meaning of each scope … not shown")',
    near: ['HOSTED-PAYLOAD-create_api_key', 'HOSTED-AUTH-2'],
  },
  {
    id: 'ADV-deleted-not-found',
    expects: 'a deleted conversation or entity, read by its id, answers 404 or 410',
    reason: 'the document shows no error statuses, and the official clients\' end-to-end suites accept a soft delete that still answers the entity',
    near: ['HOSTED-ENDPOINT-delete_conversation', 'HOSTED-ENDPOINT-delete_entity'],
  },
  {
    id: 'ADV-deleted-gone-from-derived',
    expects: 'after a delete, searches and the context no longer show what was deleted',
    reason: 'derived views (search indexes, context) may lag behind a write on a real service (the official clients poll their searches); the document says nothing about when they catch up',
    near: ['HOSTED-ENDPOINT-delete_conversation', 'HOSTED-ENDPOINT-delete_entity'],
  },
  {
    id: 'ADV-read-scope-cannot-write',
    expects: 'a key created with the read scope only cannot write: a POST /conversations with it is refused and creates nothing',
    reason: 'the document names the scopes read and write but says "The meaning of each scope … : not shown"',
    near: ['HOSTED-PAYLOAD-create_api_key', 'RFC6750-3.1'],
  },
  {
    id: 'ADV-grant-types-listed',
    expects: "an authorization server's grant_types_supported, where present, lists the token-exchange grant and refresh_token, which the service's token endpoint performs",
    reason: 'RFC 8414 §2 describes the member as the grant types the server supports, but states no requirement that every grant it performs is listed, and the document shows no metadata member',
    near: ['RFC8414-grant_types_supported', 'HOSTED-DISCOVERY-2'],
  },
  {
    id: 'ADV-list-shows-written',
    expects: 'list_entities and list_steps (filtered by the conversation) show, in an array of their answer, the entity or step just written',
    reason: 'the document shows the answer of list_conversations only (an object with the array conversations); the bodies, filters and pagination of the other lists are "not shown"',
    near: ['HOSTED-ENDPOINT-list_entities', 'HOSTED-ENDPOINT-list_steps'],
  },
  {
    id: 'ADV-search-finds-written',
    expects: 'search_messages finds a message by its exact content, and search_entities an entity by its exact name, among the hits of a search asking for up to 100',
    reason: 'the document names search over messages and entities but shows neither the request body nor the answer of a search, nor when a search index catches up with a write (the official clients poll their searches)',
    near: ['HOSTED-ENDPOINT-search_messages', 'HOSTED-ENDPOINT-search_entities'],
  },
  {
    id: 'ADV-refuse-invalid-input',
    expects: 'a message whose role is none of user, assistant and system, or a conversation without userId, is refused (not 2xx) and stores nothing',
    reason: 'the document shows the input fields (role, content, userId) and the roles the bridge document lists, but no status, no error and nothing of what a service does with input outside them',
    near: ['HOSTED-PAYLOAD-add_message', 'HOSTED-PAYLOAD-create_conversation'],
  },
  {
    id: 'ADV-feedback-shown',
    expects: 'feedback given to an entity is shown by a later read of the entity or of its history',
    reason: 'the document lists feedback among the fields it does not show ("Other fields of the hosted resources (… feedback, history records …): not shown")',
    near: ['HOSTED-ENDPOINT-set_entity_feedback', 'SPEC-V5-5.3.1'],
  },
  {
    id: 'ADV-string-class-accepted',
    expects: 'a hosted string field (message content, userId, entity name and description, reasoning step fields) accepts a value of every class a JSON string carries: NUL and the other C0 controls, DEL and C1, edge whitespace, any script or normalisation form',
    reason: 'the document types these fields "string" and shows no validation, status or error; the SPEC demands acceptance only of message content that is empty, Unicode and emoji, or holds newlines, tabs, quotes and backslashes (SPEC-2.1.7, 2.1.9, 2.1.10), so a store that cannot keep NUL may refuse it, saying so, where silently changing it would break the read-back',
    near: ['HOSTED-RESOURCE-MessageInput.content', 'HOSTED-RESOURCE-Conversation.userId', 'HOSTED-RESOURCE-ReasoningStepInput', 'SPEC-2.1.9', 'SPEC-2.1.10'],
  },
  {
    id: 'ADV-long-content-accepted',
    expects: 'message content of 16 385, 65 536 and 70 000 characters is accepted (add_message and bulk_add_messages)',
    reason: 'SPEC-2.1.8 demands content of 10K+ characters be preserved, but the hosted document says "size limits … not shown": a service may refuse content past a limit above 10 001 characters, saying so; what it accepts must come back whole',
    near: ['SPEC-2.1.8', 'HOSTED-ENDPOINT-add_message', 'HOSTED-ENDPOINT-bulk_add_messages'],
  },
  {
    id: 'ADV-value-refused-4xx',
    expects: 'a value a service refuses (a userScore outside [0, 1]) is answered with a 4xx status',
    reason: 'a 5xx says the service failed rather than refused; the hosted document shows no error status, so the rule is only that the value is not taken',
    near: ['SPEC-V5-5.3.1b', 'HOSTED-ENDPOINT-set_entity_feedback'],
  },
];
