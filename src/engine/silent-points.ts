// The silent points of the bridge protocol: where bridge-protocol.md and SPEC.md leave a choice,
// the readings the kit accepts, what our reference server does, and the valid variant in test/
// that reads the point differently and still reaches Gold (Platinum, for the points of Volume 5).
// One entry per point; a scenario that relies on a point cites its id in a `// silent (<id>): …`
// comment. The ids are stable: `tck
// explore` keys its tolerances on them. test/suites/valid-variants.test.ts checks that every entry
// names a variant that exists there; valid-variants-reach.test.ts (npm run test:deep) that it passes.
// Sources of the readings: /work/notes/silent-points.md (the established adapters' defaults).

interface SilentPoint {
  id: string;
  topic: string;
  /** The nearest clauses (they do not settle the point). */
  clauses: readonly string[];
  /** Every reading a conforming server may take; the kit passes each. */
  readings: readonly string[];
  /** What the reference server (src/servers/bridge) does. */
  reference: string;
  /** The valid variant reading it differently: its test file and its name there. */
  variant: { file: string; name: string };
}

const VALID = 'test/harness/valid-variants.ts';

const SHARED_POINTS: readonly SilentPoint[] = [
  {
    id: 'success-only-default',
    topic: 'get_similar_traces without success_only',
    clauses: ['SPEC-5.4.1'],
    readings: ['true (the established BaseAdapter default; the Python bridge always sends it)', 'false (no filter)'],
    reference: 'false: every trace is a candidate',
    variant: { file: VALID, name: 'get_similar_traces without success_only keeps successful traces only' },
  },
  {
    id: 'search-ties',
    topic: 'order and choice among equally scored search results (which one a small limit keeps)',
    clauses: ['SPEC-2.3.1', 'SPEC-2.3.3'],
    readings: ['any order among equal scores', 'any scoring under which a query equal to a content matches it'],
    reference: 'lexical cosine score, ties in insertion order',
    variant: { file: VALID, name: 'search_messages scores every message sharing a word alike' },
  },
  {
    id: 'limit-window',
    topic: 'which messages get_conversation(limit) keeps',
    clauses: ['SPEC-2.2.2', 'SPEC-2.2.5', 'SPEC-2.2.6'],
    readings: ['the first N (oldest)', 'the last N (newest); either way chronological, from that session, live messages only'],
    reference: 'the last N',
    variant: { file: VALID, name: 'get_conversation(limit) keeps the first N messages' },
  },
  {
    id: 'list-order',
    topic: 'order of list_sessions, list_traces, search results, get_tool_stats, related entities',
    clauses: ['SPEC-2.4.1', 'SPEC-4.6.1', 'SPEC-4.7.1', 'SPEC-3.7.1'],
    readings: ['any order (limit keeps either end)'],
    reference: 'oldest first; searches by score; tool stats by name',
    variant: { file: VALID, name: 'list_sessions and list_traces newest first' },
  },
  {
    id: 'step-base',
    topic: 'base and stride of step_number',
    clauses: ['SPEC-4.2.2'],
    readings: ['0-based or 1-based', 'any strictly increasing numbers'],
    reference: '1, 2, 3 …',
    variant: { file: VALID, name: 'step numbers from 0' },
  },
  {
    id: 'related-incoming',
    topic: 'whether get_related_entities follows incoming relationships',
    clauses: ['SPEC-3.7.1', 'SPEC-5.2.2'],
    readings: ['outgoing only', 'both directions (the established Cypher is undirected)'],
    reference: 'both directions',
    variant: { file: VALID, name: 'get_related_entities follows outgoing relationships only' },
  },
  {
    id: 'timestamp-format',
    topic: 'UTC offset form and fractional precision of timestamps',
    clauses: ['BRIDGE-REQUEST-3'],
    readings: ['Z or +00:00', 'no fraction, milliseconds, microseconds …'],
    reference: 'Date.toISOString(): Z, milliseconds',
    variant: { file: VALID, name: 'timestamps with +00:00 instead of Z' },
  },
  {
    id: 'uuid-version',
    topic: 'UUID version and hex case',
    clauses: ['SPEC-1.1.5', 'BRIDGE-REQUEST-3'],
    readings: ['any version (4, 7 …)', 'lower or upper case hex'],
    reference: 'version 4, lower case',
    variant: { file: VALID, name: 'time-ordered (v7) UUIDs' },
  },
  {
    id: 'optional-null-or-omitted',
    topic: 'an unset optional field (user-data objects such as properties excepted: an object or absent)',
    clauses: ['bridge-protocol.md general rules'],
    readings: ['null', 'omitted'],
    reference: 'null; properties and metadata {}',
    variant: { file: VALID, name: 'optional fields omitted instead of null' },
  },
  {
    id: 'extra-fields',
    topic: 'fields the data model does not name, in answers',
    clauses: ['bridge-protocol.md data model'],
    readings: ['allowed (reported as notes, not failures)'],
    reference: 'none',
    variant: { file: VALID, name: 'an extra unknown field on every object' },
  },
  {
    id: 'error-status',
    topic: 'which failures answer 400 and which 500',
    clauses: ['BRIDGE-ERRORS-1'],
    readings: ['400 or 500, each with {"error": string}'],
    reference: '400 for bad parameters, unknown ids and malformed bodies; 500 for internal faults',
    variant: { file: VALID, name: '500 instead of 400 for errors' },
  },
  {
    id: 'content-type-charset',
    topic: 'parameters of the answers\' Content-Type',
    clauses: ['BRIDGE-REQUEST-1'],
    readings: ['application/json', 'application/json; charset=utf-8'],
    reference: 'application/json',
    variant: { file: VALID, name: 'Content-Type application/json; charset=utf-8' },
  },
  {
    id: 'framing',
    topic: 'how answers are framed',
    clauses: ['bridge-protocol.md (HTTP)'],
    readings: ['Content-Length', 'chunked transfer coding'],
    reference: 'Content-Length',
    variant: { file: VALID, name: 'answers in chunked transfer coding' },
  },
  {
    id: 'connection-close',
    topic: 'keep-alive: Connection: close, and idle connections closed at any time',
    clauses: ['bridge-protocol.md (HTTP)'],
    readings: ['keep-alive', 'Connection: close on every answer', 'idle connections closed after any time (the client retries a stale socket once)'],
    reference: 'keep-alive, idle connections kept 5 s (node default)',
    variant: { file: VALID, name: 'Connection: close on every answer' },
  },
  {
    id: 'path-prefix',
    topic: 'the server behind a path prefix',
    clauses: ['bridge-protocol.md Endpoints'],
    readings: ['POST /{method}', 'POST /{prefix}/{method} (the prefix is part of the target URL)'],
    reference: 'POST /{method}',
    variant: { file: VALID, name: 'served under a path prefix' },
  },
  {
    id: 'idle-timeout',
    topic: 'how long an idle keep-alive connection stays open',
    clauses: ['bridge-protocol.md (HTTP)'],
    readings: ['any time, however short'],
    reference: '5 s',
    variant: { file: VALID, name: 'idle connections closed after 1 ms' },
  },
  {
    id: 'empty-conversation-id',
    topic: 'conversation id of a session that has no messages',
    clauses: ['SPEC-2.2.3'],
    readings: ['stable across calls', 'fresh on each call (the established package)'],
    reference: 'stable (reserved for the session)',
    variant: { file: VALID, name: 'get_conversation of an unknown session with a fresh id each call' },
  },
  {
    id: 'related-repeats',
    topic: 'a neighbour reached by two relationships',
    clauses: ['SPEC-3.7.1'],
    readings: ['listed once', 'listed once per relationship (the established Cypher)'],
    reference: 'once',
    variant: { file: VALID, name: 'get_related_entities lists a neighbour once per relationship' },
  },
  {
    id: 'search-topk',
    topic: 'search_messages without a threshold: only matches, or top-k of everything',
    clauses: ['SPEC-2.3.1', 'SPEC-2.3.4'],
    readings: ['matches only', 'top-k by score, unrelated messages after the matches'],
    reference: 'matches only',
    variant: { file: VALID, name: 'search_messages without threshold returns every message after the matches (top-k)' },
  },
  {
    id: 'tool-stats-unfinished',
    topic: 'whether pending and cancelled calls count as failed in get_tool_stats',
    clauses: ['SPEC-4.7.1', 'SPEC-4.7.4'],
    readings: ['neither successful nor failed (successful + failed <= total)', 'failed (failed = total - successful, the established package)'],
    reference: 'neither',
    variant: { file: VALID, name: 'get_tool_stats counts unfinished calls as failed' },
  },
  {
    id: 'derived-precision',
    topic: 'the precision of derived values: get_tool_stats success_rate and avg_duration_ms',
    clauses: ['SPEC-4.7.1', 'SPEC-4.7.4'],
    readings: [
      'the exact quotient (a binary double)',
      'rounded to 4 decimal places (R\'s jsonlite: 0.6667 for 2/3)',
      'rounded to 4 significant digits; the kit accepts a value within half a unit of the 4th significant digit or of the 4th decimal place, whichever is coarser',
    ],
    reference: 'the exact quotient',
    variant: { file: VALID, name: 'get_tool_stats rounds success_rate and avg_duration_ms to 4 decimal places (R\'s jsonlite)' },
  },
  {
    id: 'limit-zero',
    topic: 'get_conversation(limit=0)',
    clauses: ['SPEC-2.2.2'],
    readings: ['no messages', 'no limit (the established package reads `limit or 1000`)'],
    reference: 'no messages; the kit never sends 0',
    variant: { file: VALID, name: 'get_conversation(limit=0) means no limit' },
  },
  {
    id: 'limit-zero-lists',
    topic: 'limit 0 of search_messages, list_sessions, search_entities, search_preferences, list_traces, get_similar_traces (and the Platinum lists)',
    clauses: ['SPEC-2.3.1', 'SPEC-2.4.1', 'SPEC-4.6.3', 'BRIDGE-METHOD-list_sessions'],
    readings: ['no item (our reference)', 'no limit (`limit or default`: Python reads 0 as false)', 'refused (400 or 500 {"error"})'],
    reference: 'no item; the suites never send 0',
    variant: { file: VALID, name: 'limit 0 means no limit, for every method with a limit' },
  },
  {
    id: 'clear-session-traces',
    topic: 'the reasoning traces of a session clear_session empties',
    clauses: ['BRIDGE-METHOD-clear_session', 'SPEC-V3-clear_session', 'BRIDGE-METHOD-start_trace'],
    readings: ['kept: clear_session empties the session of its messages (our reference)', 'removed with the session, their steps and tool calls too'],
    reference: 'kept',
    variant: { file: VALID, name: "clear_session also removes the session's traces" },
  },
  {
    id: 'add-entity-existing',
    topic: 'add_entity of a name and type an entity already has',
    clauses: ['BRIDGE-METHOD-add_entity', 'SPEC-V3-add_entity'],
    readings: ['a new entity (our reference)', 'the stored entity (an upsert: its id, its description kept)', 'the stored entity updated (an upsert: the description sent replaces it)'],
    reference: 'a new entity every time',
    variant: { file: VALID, name: 'add_entity of an existing name and type answers the existing entity (an upsert)' },
  },
  {
    id: 'entity-name-case',
    topic: 'whether get_entity_by_name compares names with regard to case',
    clauses: ['SPEC-3.6.1', 'BRIDGE-METHOD-get_entity_by_name'],
    readings: ['case-sensitive (our reference; the established BaseAdapter: "exact name")', 'case-insensitive (a collation that folds case); an exact match still found'],
    reference: 'case-sensitive',
    variant: { file: VALID, name: 'get_entity_by_name ignores case' },
  },
  {
    id: 'merge-self',
    topic: 'merge_duplicate_entities with source = target',
    clauses: ['SPEC-5.3.1'],
    readings: ['refused (400 or 500 {"error"})', 'a no-op answering the entity; never losing it (SCN-G-107)'],
    reference: 'refused with 400',
    variant: { file: VALID, name: 'merging an entity into itself accepted as a no-op' },
  },
  {
    id: 'merge-source-lookup',
    topic: 'get_entity_by_name(source name) after a merge',
    clauses: ['SPEC-5.3.1'],
    readings: ['the target (the name kept as an alias)', 'the kept source (the established package marks it merged_into)', 'nothing'],
    reference: 'the target',
    variant: { file: VALID, name: 'after a merge the source name finds nothing' },
  },
  {
    id: 'entity-name-lookup',
    topic: 'which names get_entity_by_name matches',
    clauses: ['SPEC-3.6.1'],
    readings: [
      "the entity's own name only (the established BaseAdapter: \"exact name\")",
      'its name, canonical_name or a merged-away name (the established Cypher; our reference, in that precedence)',
    ],
    reference: 'name, then canonical_name, then a merged-away name; the oldest entity within each',
    variant: { file: VALID, name: 'get_entity_by_name matches the name only (not canonical_name nor merged names)' },
  },
  {
    id: 'related-depth',
    topic: 'get_related_entities: the default and meaning of depth, and whether the start entity can come back',
    clauses: ['SPEC-3.7.1'],
    readings: [
      'breadth-first over at most depth hops, default 1, the start entity never listed (our reference)',
      'a Cypher variable-length match (paths of 1..depth distinct relationships), with its own default, the start entity reachable through a cycle',
      'one hop whatever depth (the established query as shown)',
    ],
    reference: 'depth 1 when omitted; the kit never sends depth and checks only direct neighbours',
    variant: { file: VALID, name: 'get_related_entities as Cypher paths: two hops when depth is omitted, the start entity through a cycle' },
  },
  {
    id: 'related-unknown-entity',
    topic: 'get_related_entities of an entity_id that names no entity',
    clauses: ['SPEC-3.7.2', 'BRIDGE-ERRORS-2'],
    readings: ['an error (400 or 500 {"error"}): the call names an entity that must exist', '[] (a lookup that finds nothing is not an error)'],
    reference: '400 {"error": "entity_id: no entity with id …"}',
    variant: { file: VALID, name: 'get_related_entities of an unknown entity answers []' },
  },
  {
    id: 'search-relevance',
    topic: 'what relevance and threshold mean: the scoring function, how fields and case are matched, where a threshold cuts',
    clauses: ['SPEC-2.3.1', 'SPEC-2.3.4'],
    readings: [
      'any scoring in which an exact-content query finds its message and, at a high threshold, a query sharing no word finds nothing (what the kit checks)',
      'cosine over word sets, the best of each field and all fields joined (our reference)',
      'embedding similarity (the established package)',
      'every document sharing a word scores alike, threshold ignored',
    ],
    reference: 'cosine similarity of lower-cased NFKC word sets; hits need score > 0 and score >= threshold',
    variant: { file: VALID, name: 'search_messages scores every message sharing a word alike' },
  },
  // Platinum (Volume 5, the established kit's hosted-service operations): the points it leaves open.
  // Their valid variants are PLATINUM_VARIANTS of the harness, each reaching Platinum (issue 23).
  {
    id: 'bulk-cap-over',
    topic: 'bulk_add_messages with more than 100 messages',
    clauses: ['SPEC-V5-5.1.4'],
    readings: ['refused with an error, nothing added (our reference)', 'the first 100 kept and answered', 'any reading that never stores more than 100 messages from one call'],
    reference: '400 {"error"}, nothing added',
    variant: { file: VALID, name: 'bulk_add_messages keeps the first 100 of a larger batch' },
  },
  {
    id: 'platinum-step-order',
    topic: 'order of the steps and tool calls of get_trace_by_conversation and list_steps',
    clauses: ['SPEC-V5-5.4.3', 'SPEC-V3-list_steps'],
    readings: ['any order (the clause asks for all of them, not an order)'],
    reference: 'recording order',
    variant: { file: VALID, name: 'steps and tool calls of a conversation answered newest first' },
  },
  {
    id: 'observations-generated',
    topic: 'whether and when observations and reflections exist',
    clauses: ['SPEC-V5-5.2.2'],
    readings: ['never (always [])', 'derived when asked (our reference)', 'generated later, asynchronously'],
    reference: 'an observation per 10 messages and per step with a result; a reflection per completed trace and one over two or more observations',
    variant: { file: VALID, name: 'observations and reflections are never generated' },
  },
  {
    id: 'conversation-session-id',
    topic: 'the session_id of a conversation made by create_conversation',
    clauses: ['SPEC-V5-5.1.1', 'BRIDGE-MODEL-Conversation.session_id'],
    readings: ['the conversation id (our reference)', 'a session id of its own, which the core methods (add_message, get_conversation, start_trace) take'],
    reference: 'session_id = id',
    variant: { file: VALID, name: 'conversations have a session_id of their own' },
  },
  {
    id: 'platinum-list-default',
    topic: 'how many list_conversations and list_entities answer without a limit',
    clauses: ['SPEC-V5-5.1.2', 'SPEC-V3-list_entities'],
    readings: ['all', 'a default page of any size (the kit sends a limit wherever it needs them all)'],
    reference: 'all',
    variant: { file: VALID, name: 'list_conversations and list_entities answer at most 10 when no limit is given' },
  },
  {
    id: 'conversation-newest',
    topic: 'what "newest" orders list_conversations by',
    clauses: ['SPEC-V5-5.1.2'],
    readings: ['created_at (our reference)', 'last activity (updated_at); the kit checks the order only where both agree'],
    reference: 'created_at, the later created first on a tie',
    variant: { file: VALID, name: 'list_conversations newest by last activity' },
  },
  {
    id: 'context-recent-window',
    topic: 'how many recent_messages get_context answers, and in which order',
    clauses: ['SPEC-V5-5.2.1'],
    readings: ["any number of the conversation's latest messages, the latest one included", 'chronological or newest first'],
    reference: 'the last 20, chronological',
    variant: { file: VALID, name: 'get_context answers the last 10 messages, newest first' },
  },
  {
    id: 'observations-limit-window',
    topic: 'which observations get_observations(limit) keeps',
    clauses: ['SPEC-V3-get_observations'],
    readings: ['the first N', 'the last N'],
    reference: 'the first N',
    variant: { file: VALID, name: 'get_observations(limit) keeps the newest observations' },
  },
  {
    id: 'entity-extraction',
    topic: 'entities the service makes by itself from message content',
    clauses: ['SPEC-V3-list_entities', 'SPEC-V5-5.3.4'],
    readings: ['none', 'from the messages of bulk_add_messages (our reference)', 'from every message, add_message included (the hosted service extracts entities automatically)'],
    reference: 'from bulk_add_messages (and REST messages) only; the kit counts only entities it names',
    variant: { file: VALID, name: 'entities are extracted from every message, add_message included' },
  },
  {
    id: 'delete-unknown',
    topic: 'delete_conversation of an id that never existed; delete_entity of an unknown or deleted entity',
    clauses: ['SPEC-V5-5.1.3', 'SPEC-V3-delete_entity'],
    readings: ['success (our reference)', 'an error (400 or 500 {"error"}); a second delete of a conversation still succeeds (SPEC-V5-5.1.3)'],
    reference: 'success (204)',
    variant: { file: VALID, name: 'deleting an unknown conversation or entity is an error' },
  },
  {
    id: 'lookup-gone',
    topic: 'get_entity or get_conversation_metadata of what was deleted, cleared or never made',
    clauses: ['BRIDGE-ERRORS-2', 'SPEC-V3-delete_entity', 'SPEC-V3-delete_conversation'],
    readings: ['an error (400 or 500 {"error"}): the BaseAdapter types these lookups as never null', '200 null: "a lookup that finds nothing" (Errors 2)', 'never the deleted object itself (SCN-P-112, SCN-P-117, SCN-P-125)'],
    reference: 'an error (400)',
    variant: { file: VALID, name: 'a lookup of a deleted or cleared conversation or entity answers 200 null' },
  },
  {
    id: 'delete-conversation-steps',
    topic: 'the reasoning steps of a deleted conversation',
    clauses: ['SPEC-V3-delete_conversation', 'SPEC-V5-5.4.1'],
    readings: ['kept (our reference)', 'deleted with the conversation'],
    reference: 'kept',
    variant: { file: VALID, name: 'delete_conversation also deletes the steps recorded under it' },
  },
  {
    id: 'history-mentions-form',
    topic: 'order of the mentions of get_entity_history, and their message_id',
    clauses: ['SPEC-V5-5.3.2'],
    readings: ['any order', 'message_id given, null or omitted'],
    reference: 'oldest first, with message_id',
    variant: { file: VALID, name: 'get_entity_history lists mentions newest first, without message_id' },
  },
  {
    id: 'cypher-graph-schema',
    topic: 'what the Cypher console reads: labels, other nodes, property names',
    clauses: ['SPEC-V5-5.5.1a'],
    readings: [
      'entities are nodes whose name property is the entity name (all the kit relies on)',
      'any labels; conversations, messages and other records may be nodes too',
    ],
    reference: 'entities only (label Entity or their type), camelCase properties',
    variant: { file: VALID, name: 'the Cypher graph also holds conversations and messages as nodes' },
  },
  {
    id: 'workspace-id-form',
    topic: 'the form of workspace_id',
    clauses: ['SPEC-V5-5.1.1'],
    readings: ['any non-empty string, the same for every conversation of one caller'],
    reference: '"bridge"',
    variant: { file: VALID, name: 'workspace_id is a UUID' },
  },
  {
    id: 'influence-reading',
    topic: 'which entities a step influenced (explain_step) and which steps explain an entity (get_entity_provenance)',
    clauses: ['SPEC-V5-5.4.2', 'SPEC-V5-5.4.4'],
    readings: ['none', 'those the step names (our reference)', 'any that exist'],
    reference: 'the entities whose names the step mentions; the steps that mention the entity',
    variant: { file: VALID, name: 'no step influences an entity: explain_step names none, get_entity_provenance lists none' },
  },
];

// ------------------------------------------------------------------------------------------------
// Issue 22 (tck explore checks only what the protocol states): the silent points explore met on
// servers written apart from this kit, and the extra readings of every point. Each point has at
// least three valid variants reading it differently from the reference (READINGS below, checked by
// test/explore/readings.test.ts); explore raises no finding on any of them.
const ISSUE_22_POINTS: readonly SilentPoint[] = [
  {
    id: 'merge-description',
    topic: 'the description of the target after merge_duplicate_entities',
    clauses: ['SPEC-5.3.1', 'BRIDGE-METHOD-merge_duplicate_entities'],
    readings: ["the target's, unchanged", "the target's, or the source's when the target has none", 'both joined', "the source's when it has one"],
    reference: "the target's, unchanged",
    variant: { file: VALID, name: 'a merge fills a missing description of the target from the source' },
  },
  {
    id: 'canonical-name',
    topic: 'canonical_name where no call set it: after add_entity, and after a merge without canonical_name',
    clauses: ['BRIDGE-MODEL-Entity.canonical_name', 'BRIDGE-METHOD-merge_duplicate_entities'],
    readings: ['unset (null or omitted)', 'the name, or a normalised form of it', "after a merge, the target's name"],
    reference: 'unset; a merge without canonical_name leaves it as it was',
    variant: { file: VALID, name: 'canonical_name is the name from the start' },
  },
  {
    id: 'completed-trace-writes',
    topic: 'add_step, record_tool_call and complete_trace on a trace already completed',
    clauses: ['SPEC-4.4.1', 'BRIDGE-STATES-2'],
    readings: ['accepted (complete_trace again overwrites outcome, success and completed_at)', 'refused with 400 or 500 {"error"}'],
    reference: 'accepted',
    variant: { file: VALID, name: 'add_step on a completed trace refused' },
  },
  {
    id: 'empty-session-listing',
    topic: 'whether list_sessions lists a session that has no messages (all deleted, cleared, or only read)',
    clauses: ['SPEC-2.4.1', 'SPEC-2.6.1', 'SPEC-2.2.3'],
    readings: ['listed with message_count 0', 'not listed'],
    reference: 'listed when its messages were deleted one by one; not listed once cleared or when only read',
    variant: { file: VALID, name: 'cleared sessions stay listed with no messages' },
  },
  {
    id: 'embedding-values',
    topic: 'the embedding of messages, entities, preferences and facts',
    clauses: ['BRIDGE-MODEL-Message.embedding', 'BRIDGE-MODEL-Entity.embedding'],
    readings: ['null or omitted', 'a vector of any length', 'an empty list'],
    reference: 'null',
    variant: { file: VALID, name: 'embeddings as empty lists' },
  },
  {
    id: 'conversation-title',
    topic: 'the title of a conversation',
    clauses: ['SPEC-1.1.7', 'BRIDGE-MODEL-Conversation.title'],
    readings: ['null or omitted', 'any string'],
    reference: 'null',
    variant: { file: VALID, name: 'conversations titled by their first message' },
  },
  {
    id: 'list-traces-steps',
    topic: 'the steps of the traces list_traces answers',
    clauses: ['SPEC-4.6.1', 'BRIDGE-METHOD-list_traces'],
    readings: ['every step with its tool calls', 'no steps (a summary)', 'the steps without their tool calls'],
    reference: 'every step with its tool calls',
    variant: { file: VALID, name: 'list_traces lists steps without their tool calls' },
  },
  {
    id: 'avg-duration-none',
    topic: 'avg_duration_ms of a tool none of whose calls recorded a duration',
    clauses: ['SPEC-4.7.1', 'BRIDGE-METHOD-get_tool_stats'],
    readings: ['null or omitted', '0'],
    reference: 'null',
    variant: { file: VALID, name: 'avg_duration_ms 0 when no call recorded a duration' },
  },
  {
    id: 'search-default-limit',
    topic: 'how many results a search answers when no limit is sent',
    clauses: ['SPEC-2.3.1', 'SPEC-V3-search_messages', 'SPEC-V3-get_similar_traces'],
    readings: ['every match', "a default page: the BaseAdapter's 10 (search_messages, search_entities, search_preferences) or 5 (get_similar_traces)"],
    reference: 'every match',
    variant: { file: VALID, name: 'search_messages without limit answers at most 10 (the BaseAdapter default)' },
  },
];

/**
 * Every valid variant that reads a silent point differently from the reference, by point: at least
 * three for each (the table's own `variant` among them). Names of test/harness/valid-variants.ts,
 * or `<file>: <name>` for the valid rows of the suites' variant tables (test/suites/variants/).
 */
export const READINGS: Readonly<Record<string, readonly string[]>> = {
  'success-only-default': ['get_similar_traces without success_only keeps successful traces only', 'get_similar_traces reads an omitted success_only as true (in the store)', 'get_similar_traces without success_only drops unsuccessful hits from its answer'],
  'search-ties': ['search_messages scores every message sharing a word alike', 'search results in reverse order', 'bronze-b: list_sessions newest first, search results reversed'],
  'limit-window': ['get_conversation(limit) keeps the first N messages', 'bronze-a: limit keeps the first N messages', 'get_conversation(limit) keeps the oldest N (in the store)'],
  'list-order': ['list_sessions and list_traces newest first', 'bronze-b: list_sessions newest first, search results reversed', 'silver: answers lists, related entities, stats and tool calls in reverse order'],
  'step-base': ['step numbers from 0', 'step numbers 10, 20, 30 …', 'silver: numbers steps from 0 in steps of 10'],
  'related-incoming': ['get_related_entities follows outgoing relationships only', 'silver: follows outgoing relationships only', 'get_related_entities as a directed walk from source to target'],
  'timestamp-format': ['timestamps with +00:00 instead of Z', 'timestamps with microsecond precision', 'timestamps with whole seconds only', 'bronze-a: timestamps in +02:00 form without fractions', 'bronze-b: timestamps in other zones, with microseconds (strings sort backwards)'],
  'uuid-version': ['time-ordered (v7) UUIDs', 'uppercase-hex UUIDs', 'bronze-a: uppercase UUIDs'],
  'optional-null-or-omitted': ['optional fields omitted instead of null', 'bronze-a: optional fields omitted instead of null', 'silver: omits unset optional fields instead of sending null'],
  'extra-fields': ['an extra unknown field on every object', 'bronze-a: a title, embeddings on read and extra fields', 'silver: answers fewer than limit search results, with scores and embeddings'],
  'error-status': ['500 instead of 400 for errors', 'bronze-b: errors answer 500 instead of 400', 'errors answer 400 with a fixed text and a code'],
  'content-type-charset': ['Content-Type application/json; charset=utf-8', 'Content-Type application/json;charset=UTF-8', 'Content-Type application/json; charset="utf-8"'],
  framing: ['answers in chunked transfer coding', 'answers chunked in chunks of 16 bytes', 'answers delimited by closing the connection'],
  'connection-close': ['Connection: close on every answer', 'Connection: close on every second answer', 'at most three requests per connection'],
  'path-prefix': ['served under a path prefix', 'served under the path prefix /api', 'served under a deep path prefix'],
  'idle-timeout': ['idle connections closed after 1 ms', 'idle connections closed after 5 ms', 'idle connections closed after 20 ms'],
  'empty-conversation-id': ['get_conversation of an unknown session with a fresh id each call', 'bronze-a: a fresh conversation id for every read of an unknown session', 'conversation ids derived from the session id alone (the same after a clear)'],
  'related-repeats': ['get_related_entities lists a neighbour once per relationship', 'get_related_entities lists a neighbour once per path, at any depth', 'get_related_entities repeats a neighbour for each relationship (in the answer)'],
  'search-topk': ['search_messages without threshold returns every message after the matches (top-k)', 'gold: get_similar_traces answers every trace, the matches first (vector-style top-k)', 'search_messages without threshold appends every other message, newest first'],
  'tool-stats-unfinished': ['get_tool_stats counts unfinished calls as failed', 'fidelity: pending tool calls counted as failed', 'silver: counts pending and cancelled as failed', 'silver: divides success_rate by the finished calls only'],
  'limit-zero': ['get_conversation(limit=0) means no limit', 'get_conversation(limit=0) refused with 400', 'get_conversation(limit=0) means no limit (in the store)'],
  // Issue 32: readings independent servers took that explore reported broken; one variant each so far.
  'limit-zero-lists': ['limit 0 means no limit, for every method with a limit'],
  'clear-session-traces': ["clear_session also removes the session's traces"],
  'add-entity-existing': ['add_entity of an existing name and type answers the existing entity (an upsert)', 'add_entity of an existing name and type updates it (an upsert: the description sent replaces the stored one)'],
  'entity-name-case': ['get_entity_by_name ignores case'],
  'merge-self': ['merging an entity into itself accepted as a no-op', 'merging an entity into itself refused with 500', 'merging an entity into itself answers the entity (a no-op in front of the store)'],
  'merge-source-lookup': ['after a merge the source name finds nothing', 'gold: the name of a merged-away entity is forgotten', 'after a merge the source name finds the target through a redirect table'],
  'entity-name-lookup': ['get_entity_by_name matches the name only (not canonical_name nor merged names)', 'get_entity_by_name matches name or canonical_name, not merged-away names', 'get_entity_by_name answers the newest entity of a name'],
  'related-depth': ['get_related_entities as Cypher paths: two hops when depth is omitted, the start entity through a cycle', 'get_related_entities: one hop whatever the depth', 'get_related_entities: two hops when depth is omitted'],
  'related-unknown-entity': ['get_related_entities of an unknown entity answers []', 'get_related_entities of an unknown entity answers 500', 'get_related_entities of an unknown entity answers [] (in the store)'],
  'search-relevance': ['search_messages scores every message sharing a word alike', 'search_messages by substring, ignoring case', 'search_messages scored by shared character trigrams'],
  'merge-description': ['a merge fills a missing description of the target from the source', 'a merge joins both descriptions', 'a merge takes the description of the source'],
  'canonical-name': ['canonical_name is the name from the start', 'canonical_name is the lower-cased name from the start', 'a merge without canonical_name sets it to the target name'],
  'completed-trace-writes': ['add_step on a completed trace refused', 'complete_trace of a completed trace refused', 'a completed trace takes no more steps, tool calls or completions'],
  'empty-session-listing': ['bronze-b: sessions without messages are no longer listed', 'cleared sessions stay listed with no messages', 'a read of an unknown session lists it with no messages'],
  'embedding-values': ['embeddings returned as vectors', 'bronze-a: a title, embeddings on read and extra fields', 'embeddings as empty lists'],
  'conversation-title': ['conversations with a title', 'bronze-a: a title, embeddings on read and extra fields', 'conversations titled by their first message'],
  'list-traces-steps': ['silver: lists traces without their steps', 'list_traces lists steps without their tool calls', 'list_traces lists traces without steps (in the store)'],
  'avg-duration-none': ['avg_duration_ms 0 when no call recorded a duration', 'avg_duration_ms left out when no call recorded a duration', 'optional fields omitted instead of null'],
  'derived-precision': ['get_tool_stats rounds success_rate and avg_duration_ms to 4 decimal places (R\'s jsonlite)', 'get_tool_stats rounds success_rate and avg_duration_ms to 4 significant digits', 'get_tool_stats answers success_rate and avg_duration_ms as 32-bit floats'],
  // Platinum (issue 23): the harness's variant of each point and the Platinum suite's valid rows
  // that read it; fewer than three so far (test/explore/readings.test.ts lists them as such).
  'bulk-cap-over': ['bulk_add_messages keeps the first 100 of a larger batch'],
  'platinum-step-order': ['steps and tool calls of a conversation answered newest first'],
  'observations-generated': ['observations and reflections are never generated', 'platinum: observations and reflections are always empty (SPEC-5.2.2 is a MAY)'],
  'conversation-session-id': ['conversations have a session_id of their own'],
  'platinum-list-default': ['list_conversations and list_entities answer at most 10 when no limit is given'],
  'conversation-newest': ['list_conversations newest by last activity'],
  'context-recent-window': ['get_context answers the last 10 messages, newest first'],
  'observations-limit-window': ['get_observations(limit) keeps the newest observations'],
  'entity-extraction': ['entities are extracted from every message, add_message included', 'platinum: no entity is extracted from message content'],
  'delete-unknown': ['deleting an unknown conversation or entity is an error'],
  'delete-conversation-steps': ['delete_conversation also deletes the steps recorded under it'],
  'lookup-gone': ['a lookup of a deleted or cleared conversation or entity answers 200 null'],
  'history-mentions-form': ['get_entity_history lists mentions newest first, without message_id'],
  'cypher-graph-schema': ['the Cypher graph also holds conversations and messages as nodes'],
  'workspace-id-form': ['workspace_id is a UUID'],
  'influence-reading': ['no step influences an entity: explain_step names none, get_entity_provenance lists none', 'platinum: explain_step names no influenced entities', 'platinum: get_entity_provenance lists no steps'],
  'search-default-limit': ['search_messages without limit answers at most 10 (the BaseAdapter default)', 'search_entities and search_preferences without limit answer at most 10', 'get_similar_traces without limit answers at most 5 (the BaseAdapter default)'],
};

/** Every silent point: the shared table, then the block of issue 22. */
export const SILENT_POINTS: readonly SilentPoint[] = [...SHARED_POINTS, ...ISSUE_22_POINTS];
/**
 * The readings 'derived-precision' accepts, for the scenarios and explore alike: a derived value
 * (success_rate, avg_duration_ms) within half a unit of the 4th significant digit of the exact value,
 * or of the 4th decimal place, whichever is coarser. 0.6667 is 2/3; 150 is not 150.5.
 */
export function withinDerivedPrecision(got: unknown, exact: number): boolean {
  if (typeof got !== 'number') return false;
  const significant = exact === 0 ? 0 : 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(exact))) - 3);
  return Math.abs(got - exact) <= Math.max(significant, 0.5e-4) * (1 + 1e-9) + 1e-12;
}

