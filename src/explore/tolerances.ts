// What explore's comparison relaxes, keyed by silent-point id. The ids are those of the kit's
// silent-point table (src/engine/silent-points.ts, shared with the scenarios), so the two can be
// joined: a silent point the scenarios accept every reading of is accepted here too, and this
// table says where in src/explore/compare.ts. Ids marked `own: true` are choices the valid
// variants of the test harness make that the shared table does not name (yet).
interface Tolerance {
  /** What the protocol leaves open. */
  silent: string;
  /** How explore's comparison accepts every reading of it. */
  relaxes: string;
  /** Not (yet) an id of the shared silent-point table. */
  own?: true;
}

export const TOLERANCES = {
  'success-only-default': {
    silent: 'get_similar_traces without success_only: whether unsuccessful traces are included (the established adapter defaults to true)',
    relaxes: 'without success_only, hits are checked against every trace; an exact-task trace must be found only if it succeeded',
  },
  'search-ties': {
    silent: 'search scoring and the order of equally relevant hits',
    relaxes: 'search hits are checked only for what the protocol fixes: each is a live object in the filtered scope, no duplicates, limit honoured, an exact query finds a match, a query sharing no word finds nothing (high threshold / entities / preferences)',
  },
  'limit-window': {
    silent: 'which N items limit keeps',
    relaxes: 'get_conversation(limit) may be the first or the last N messages (in order); list_sessions / list_traces(limit) any N of them',
  },
  'list-order': {
    silent: 'order of list_sessions, list_traces, get_tool_stats, get_related_entities and search results',
    relaxes: 'these lists are compared as multisets (by correlated id, or by tool name)',
  },
  'step-base': {
    silent: 'base and stride of step numbering',
    relaxes: 'step_number must be strictly increasing within a trace and stable per step, not equal to the model',
  },
  'related-incoming': {
    silent: 'whether get_related_entities includes incoming edges',
    relaxes: 'the answer may be the undirected or the outgoing-only neighbourhood (duplicates collapsed)',
  },
  'related-depth': {
    silent: 'how far get_related_entities reaches (the default of depth, its meaning) and whether the start entity can come back',
    relaxes: 'the answer must hold every direct neighbour and nothing a walk of at most depth hops (any number without depth) does not reach; the start entity only when relationships lead back to it',
  },
  'related-unknown-entity': {
    silent: 'get_related_entities of an entity_id that names no entity',
    relaxes: 'an error or [] both match',
  },
  'timestamp-format': {
    silent: 'Z or +00:00, precision, and the exact instant of timestamps',
    relaxes: 'timestamps are checked for ISO 8601 format, plausibility (within a day of the kit clock) and order (messages of a conversation, updated_at >= created_at, completed_at >= started_at), never for equality',
  },
  'uuid-version': {
    silent: 'UUID version and hex case',
    relaxes: 'ids are correlated (the server id of the n-th created object <-> the model id) instead of compared; any 8-4-4-4-12 hex UUID is accepted',
  },
  'optional-null-or-omitted': {
    silent: 'an unset optional field null or omitted',
    relaxes: 'a null and an absent field are the same',
  },
  'extra-fields': {
    silent: 'fields beyond the data model',
    relaxes: 'fields the model does not have are ignored',
  },
  'error-status': {
    silent: 'which failures give 400 and which 500, and the error text',
    relaxes: 'any 400 or 500 with {"error"} matches any other',
  },
  'content-type-charset': { silent: 'the response Content-Type and its charset', relaxes: 'not judged (the bridge client reads the body as JSON whatever it says)' },
  framing: { silent: 'Content-Length or chunked bodies', relaxes: 'not judged (the bridge client accepts both)' },
  'connection-close': { silent: 'keep-alive or Connection: close', relaxes: 'not judged (the bridge client reconnects)' },
  'path-prefix': { silent: 'a base path in front of /{method}', relaxes: 'the --url path prefix is kept on every call' },
  'limit-zero': {
    silent: 'get_conversation(limit=0): no messages, or no limit',
    relaxes: 'get_conversation(limit=0) may answer no messages or every message of the session',
  },
  'derived-precision': {
    silent: 'the precision of get_tool_stats success_rate and avg_duration_ms',
    relaxes: 'they are compared to 4 significant digits or 4 decimal places, whichever is coarser (withinDerivedPrecision)',
  },
  'tool-stats-unfinished': {
    silent: 'whether pending and cancelled tool calls count as failed in get_tool_stats',
    relaxes: 'failed_calls may be the failure/error/timeout calls or every call that did not succeed',
  },
  'merge-source-lookup': {
    silent: 'get_entity_by_name(source name) after a merge',
    relaxes: 'a name that only merged-away entities had may find the entity they were merged into, or nothing',
  },
  'embedding-values': {
    silent: 'embeddings: null or a vector of any length', own: true,
    relaxes: 'embedding fields are not compared',
  },
  'conversation-identity': {
    silent: 'the id and title of a conversation (the id of a session without messages may change per call)', own: true,
    relaxes: 'a conversation id is checked as a UUID only; its title is not compared',
  },
  'tool-status-default': {
    silent: 'the status record_tool_call gives a call recorded without one (the reference: success)', own: true,
    relaxes: "the model adopts the server's status for such a call, so later tool stats follow the server's choice",
  },
  'empty-session-listing': {
    silent: 'whether a session whose messages were all deleted is still listed', own: true,
    relaxes: 'list_sessions may leave out a session the model lists with message_count 0',
  },
} as const satisfies Record<string, Tolerance>;

export type ToleranceId = keyof typeof TOLERANCES;
