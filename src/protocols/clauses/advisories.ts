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
}

export const ADVISORIES: readonly Advisory[] = [
  {
    id: 'ADV-refuse-missing-param',
    expects: 'a call missing a required parameter is refused with 400 or 500 {"error": …} and changes nothing',
    reason:
      'the method tables mark parameters required, and the Errors section says what a failed call returns, but no sentence says a server must refuse a call that lacks one',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'],
  },
  {
    id: 'ADV-refuse-wrong-type',
    expects: 'a parameter of the wrong JSON type is refused with 400 or 500 {"error": …} and changes nothing',
    reason: 'the data model gives the types of fields, not what a server does with a parameter of another type',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-GENERAL-5'],
  },
  // ---------------------------------------------------------------- the hosted profile (issue 27)
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
    reason: 'RFC 6750 §3 says SHOULD',
    near: ['RFC6750-3', 'RFC6750-3.1'],
  },
  {
    id: 'ADV-list-keys-other-workspace',
    expects: "a key list asked, with the caller's credential, for another workspace is refused or holds none of its keys",
    reason: 'the payload table says list_api_keys takes "a workspace identifier" and returns "list of keys of that workspace"; it does not say the workspace must be the caller\'s (rule 4 says so for reveal only)',
    near: ['HOSTED-PAYLOAD-list_api_keys', 'HOSTED-AUTH-4'],
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
    id: 'ADV-feedback-shown',
    expects: 'feedback given to an entity is shown by a later read of the entity or of its history',
    reason: 'the document lists feedback among the fields it does not show ("Other fields of the hosted resources (… feedback, history records …): not shown")',
    near: ['HOSTED-ENDPOINT-set_entity_feedback', 'SPEC-V5-5.3.1'],
  },
];
