// The clauses of the established SPEC.md (neo4j-labs/agent-memory-tck, Volumes 1-5), by their
// ids, with their RFC 2119 keyword and the kit's own one-line summary (the SPEC's prose is not
// copied). The one list of these ids and keywords (fixtures/ keeps the established registry's
// scenarios, which cite them).
//
// - Volumes 1, 2 and 4 keep the SPEC's ids (SPEC-1.1.1 …; Volume 4 numbers its clauses 5.x.y).
// - Volume 2's clauses that only the established registry names (tck/registry/scenario_ids.yaml:
//   SPEC-3.1.9 …, each with one established test) carry no keyword: SPEC.md does not state them.
// - Volume 1's property tables: each MUST row is a sentence of its own (SPEC-V1-<Node>.<property>),
//   since the ReasoningTrace, ReasoningStep and ToolCall rows are stated nowhere else; the MAY rows
//   ask nothing a server can break. Its relationship tables (HAS_MESSAGE, NEXT_MESSAGE, MENTIONS,
//   RELATED_TO …) name graph edges no protocol shows, with no keyword: left out.
// - Volume 3's BaseAdapter rows: SPEC-V3-<method>, enforced through their bridge rows.
// - Volume 5 (Platinum) reuses Volume 4's numbers: SPEC-V5-5.x.y; a clause of two sentences is a
//   name for both (SPEC-V5-5.5.1 = SPEC-V5-5.5.1a + SPEC-V5-5.5.1b).
// - Left out: the preamble (conformance means meeting the keyword clauses), "Compliance Tiers"
//   (how a kit grades) and the traceability matrices (which test checks what).
import type { Sentence } from './sentence.js';

type Keyword = NonNullable<Sentence['keyword']>;
type Row = readonly [id: string, keyword: Keyword | undefined, summary: string, more?: Partial<Sentence>];

const rows = (section: string, list: readonly Row[]): Sentence[] =>
  list.map(([id, keyword, text, more]) => ({ id, doc: 'spec', section, text, ...(keyword !== undefined ? { keyword } : {}), ...more }));

/** A clause the established registry names but SPEC.md does not state (no keyword). */
const REGISTRY = ' (established registry only)';

/** Volume 1's MUST property rows, each enforced by the model check of the bridge resource it is. */
const property = (node: string, via: string, props: readonly [string, string][]): Row[] => props.map(([p, summary]) => [`SPEC-V1-${node}.${p}`, 'MUST', summary, { via: [via] }]);

const V1 = 'Volume 1';
const V2 = 'Volume 2';
const V3 = 'Volume 3 › BaseAdapter';
const V4 = 'Volume 4';
const V5 = 'Volume 5 (Platinum)';

/** Volume 3's BaseAdapter rows: method, tier table, and what the row says it does. */
const ADAPTER: readonly [method: string, table: string, summary: string][] = [
  ['setup', 'Lifecycle', 'setup() prepares the implementation for a run'],
  ['teardown', 'Lifecycle', 'teardown() releases what the implementation holds'],
  ['clear_all_data', 'Lifecycle', 'clear_all_data() deletes all stored data so each test starts empty'],
  ['add_message', 'Short-term (Bronze)', 'add_message(session_id, role, content, metadata?) stores a message in a session'],
  ['get_conversation', 'Short-term (Bronze)', "get_conversation(session_id, limit?) returns a session's conversation"],
  ['search_messages', 'Short-term (Bronze)', 'search_messages(query, session_id?, limit?, threshold?) searches messages by meaning'],
  ['list_sessions', 'Short-term (Bronze)', 'list_sessions(limit?) lists the sessions'],
  ['delete_message', 'Short-term (Bronze)', 'delete_message(message_id) removes one message'],
  ['clear_session', 'Short-term (Bronze)', 'clear_session(session_id) empties a session'],
  ['add_entity', 'Long-term (Silver)', 'add_entity(name, entity_type, description?) creates an entity'],
  ['add_preference', 'Long-term (Silver)', 'add_preference(category, preference, context?) stores a preference'],
  ['add_fact', 'Long-term (Silver)', 'add_fact(subject, predicate, obj) stores a subject-predicate-object triple'],
  ['search_entities', 'Long-term (Silver)', 'search_entities(query, limit?) searches entities'],
  ['search_preferences', 'Long-term (Silver)', 'search_preferences(query, category?, limit?) searches preferences'],
  ['get_entity_by_name', 'Long-term (Silver)', 'get_entity_by_name(name) looks an entity up by its name'],
  ['get_related_entities', 'Long-term (Silver)', 'get_related_entities(entity_id, relationship_type?, depth?) follows relationships from an entity'],
  ['start_trace', 'Reasoning (Silver)', 'start_trace(session_id, task) opens a reasoning trace'],
  ['add_step', 'Reasoning (Silver)', 'add_step(trace_id, thought?, action?, observation?) appends a step to a trace'],
  ['record_tool_call', 'Reasoning (Silver)', 'record_tool_call(step_id, tool_name, arguments, result?, status?, …) records a tool call under a step'],
  ['complete_trace', 'Reasoning (Silver)', 'complete_trace(trace_id, outcome?, success?) closes a trace'],
  ['get_trace_with_steps', 'Reasoning (Silver)', 'get_trace_with_steps(trace_id) returns a trace with all its steps'],
  ['list_traces', 'Reasoning (Silver)', 'list_traces(session_id?, limit?) lists traces'],
  ['get_tool_stats', 'Reasoning (Silver)', 'get_tool_stats(tool_name?) returns per-tool statistics'],
  ['add_relationship', 'Gold (optional)', 'add_relationship(source_id, target_id, relationship_type, properties?) links two entities'],
  ['merge_duplicate_entities', 'Gold (optional)', 'merge_duplicate_entities(source_id, target_id, canonical_name?) merges two entities'],
  ['get_similar_traces', 'Gold (optional)', 'get_similar_traces(task, limit?, success_only?) finds traces of similar tasks'],
  // The Platinum methods Volume 5 names no rule for, or says less of than the adapter's row (Volume 3 points at base_adapter.py).
  ['get_conversation_metadata', 'Platinum (base_adapter.py)', "get_conversation_metadata(conversation_id) fetches a conversation's metadata, without its messages"],
  ['delete_conversation', 'Platinum (base_adapter.py)', 'delete_conversation(conversation_id) deletes a conversation and all of its messages'],
  ['get_observations', 'Platinum (base_adapter.py)', "get_observations(conversation_id, limit?) answers the conversation's automatic message-window summaries"],
  ['get_reflections', 'Platinum (base_adapter.py)', "get_reflections(conversation_id) answers the conversation's insights derived from its observations"],
  ['list_entities', 'Platinum (base_adapter.py)', 'list_entities(type?, limit?) lists entities, of one type when asked'],
  ['get_entity', 'Platinum (base_adapter.py)', 'get_entity(entity_id) fetches one entity by id, with its relationships'],
  ['update_entity', 'Platinum (base_adapter.py)', "update_entity(entity_id, name?, description?) changes an entity's name and/or description"],
  ['delete_entity', 'Platinum (base_adapter.py)', 'delete_entity(entity_id) deletes an entity and its relationships'],
  ['get_entity_graph', 'Platinum (base_adapter.py)', 'get_entity_graph() is a view of the whole graph: every entity and every edge'],
  ['list_steps', 'Platinum (base_adapter.py)', 'list_steps(conversation_id) lists every reasoning step of one conversation'],
];

const LIFECYCLE = new Set(['setup', 'teardown', 'clear_all_data']);

export const SPEC_SENTENCES: readonly Sentence[] = [
  // Volume 1: context graph schema
  ...rows(`${V1} › 1.1 Conversation and Messages`, [
    ['SPEC-1.1.1', 'MUST', "a session's first message brings its conversation into being"],
    ['SPEC-1.1.2', 'MUST', "later messages of a session join that session's existing conversation"],
    ['SPEC-1.1.3', 'MUST NOT', "one session never sees another session's messages"],
    ['SPEC-1.1.4', 'MUST NOT', 'a message once deleted is gone from the conversation read back'],
    ['SPEC-1.1.5', 'MUST', "a conversation's id is a valid UUID"],
    ['SPEC-1.1.6', 'MUST', 'a conversation gets its created_at timestamp when it is created'],
    ['SPEC-1.1.7', 'MAY', "a conversation's title may be absent (None) unless set"],
    ['SPEC-1.1.8', 'MUST', 'reading the same session again gives the same conversation id'],
    ['SPEC-1.1.9', 'MUST', 'two sessions are two conversations with different ids'],
    ['SPEC-1.1.10', 'MUST NOT', "deleting a message leaves the conversation's other messages as they were"],
    ['SPEC-1.1.11', 'MUST', 'every message has an id (not null)'],
    ['SPEC-1.1.12', 'MUST', 'a message keeps the role it was added with'],
    ['SPEC-1.1.13', 'MUST', 'a message keeps the content it was added with'],
    ['SPEC-1.1.14', 'MUST', 'every message has a timestamp (not null, a date-time)'],
    ...property('Conversation', 'BRIDGE-MODEL-Conversation', [
      ['id', 'property table: a conversation has a UUID id'],
      ['session_id', 'property table: a conversation has the session id it groups'],
      ['created_at', 'property table: a conversation has a creation time'],
    ]),
    ...property('Message', 'BRIDGE-MODEL-Message', [
      ['id', 'property table: a message has a UUID id'],
      ['role', 'property table: a message has a role, one of user, assistant, system'],
      ['content', 'property table: a message has its text content'],
      ['timestamp', 'property table: a message has the time it was created'],
    ]),
  ]),
  ...rows(`${V1} › 1.2 Entities`, [
    ['SPEC-1.2.1', 'MUST', 'an entity carries id, name, type and created_at'],
    ['SPEC-1.2.2', 'MUST', "an entity's id is a valid UUID"],
    ['SPEC-1.2.3', 'MUST', 'the type PERSON is accepted and kept'],
    ['SPEC-1.2.4', 'MUST', 'the type ORGANIZATION is accepted and kept'],
    ['SPEC-1.2.5', 'MUST', 'the type LOCATION is accepted and kept'],
    ['SPEC-1.2.6', 'MUST', 'the type EVENT is accepted and kept'],
    ['SPEC-1.2.7', 'MUST', 'the type OBJECT is accepted and kept'],
    ['SPEC-1.2.8', 'MUST', "an entity's created_at is a timestamp, never null"],
    ...property('Entity', 'BRIDGE-MODEL-Entity', [
      ['id', 'property table: an entity has a UUID id'],
      ['name', 'property table: an entity has a name'],
      ['type', 'property table: an entity has one of the types PERSON, ORGANIZATION, LOCATION, EVENT, OBJECT'],
      ['created_at', 'property table: an entity has a creation time'],
    ]),
  ]),
  ...rows(`${V1} › 1.3 Preferences`, [
    ['SPEC-1.3.1', 'MUST', 'a preference carries id, category and preference'],
    ['SPEC-1.3.2', 'MUST', "a preference's id is a valid UUID"],
    ...property('Preference', 'SPEC-1.3.1', [
      ['id', 'property table: a preference has a UUID id'],
      ['category', 'property table: a preference has a category'],
      ['preference', 'property table: a preference has its statement'],
    ]),
  ]),
  ...rows(`${V1} › 1.4 Facts`, [
    ['SPEC-1.4.1', 'MUST', 'a fact carries id, subject, predicate and object'],
    ['SPEC-1.4.2', 'MUST', "a fact's id is a valid UUID"],
    ...property('Fact', 'SPEC-1.4.1', [
      ['id', 'property table: a fact has a UUID id'],
      ['subject', 'property table: a fact has a subject'],
      ['predicate', 'property table: a fact has a predicate'],
      ['object', 'property table: a fact has an object'],
    ]),
  ]),
  ...rows(`${V1} › 1.5 Reasoning Trace`, [
    ...property('ReasoningTrace', 'BRIDGE-MODEL-ReasoningTrace', [
      ['id', 'property table: a trace has a UUID id'],
      ['session_id', 'property table: a trace belongs to a session'],
      ['task', 'property table: a trace has its task description'],
      ['started_at', 'property table: a trace has its start time'],
    ]),
    ...property('ReasoningStep', 'BRIDGE-MODEL-ReasoningStep', [
      ['id', 'property table: a step has a UUID id'],
      ['step_number', 'property table: a step has its (integer) number in the sequence'],
    ]),
    ...property('ToolCall', 'BRIDGE-MODEL-ToolCall', [
      ['id', 'property table: a tool call has a UUID id'],
      ['tool_name', 'property table: a tool call names its tool'],
      ['arguments', 'property table: a tool call keeps its arguments (JSON)'],
      ['status', 'property table: a tool call has a status, one of pending, success, failure, error, timeout, cancelled'],
    ]),
  ]),

  // Volume 2: memory primitive contracts
  ...rows(`${V2} › 2.1 add_message`, [
    ['SPEC-2.1.1', 'MUST', 'add_message answers the message with a valid UUID and a timestamp'],
    ['SPEC-2.1.2', 'MUST', 'the role user is accepted'],
    ['SPEC-2.1.3', 'MUST', 'the role assistant is accepted'],
    ['SPEC-2.1.4', 'MUST', 'the role system is accepted'],
    ['SPEC-2.1.5', 'MUST', 'metadata given with a message is kept'],
    ['SPEC-2.1.6', 'MUST', 'the first message of a new session creates its conversation'],
    ['SPEC-2.1.7', 'MUST', 'an empty string is accepted as content'],
    ['SPEC-2.1.8', 'MUST', 'content of ten thousand characters and more is kept whole'],
    ['SPEC-2.1.9', 'MUST', 'unicode and emoji in content are kept exactly'],
    ['SPEC-2.1.10', 'MUST', 'newlines, tabs, quotes and backslashes in content are kept exactly'],
    ['SPEC-2.1.11', 'MUST', 'an empty metadata object is accepted'],
    ['SPEC-2.1.12', 'MUST', 'nested metadata structures are kept'],
    ['SPEC-2.1.13', 'MUST', 'a message sent without metadata has an empty metadata object'],
    ['SPEC-2.1.14', 'MUST', "a message's id is a valid UUID"],
    ['SPEC-2.1.15', 'MUST', "a message's timestamp is close to the current time"],
    ['SPEC-2.1.16', 'MUST', 'fifty messages sent in quick succession are all stored, in order'],
  ]),
  ...rows(`${V2} › 2.2 get_conversation`, [
    ['SPEC-2.2.1', 'MUST', 'messages come back in the order they were added'],
    ['SPEC-2.2.2', 'MUST', 'limit bounds the messages returned'],
    ['SPEC-2.2.3', 'MUST', 'a session that does not exist reads as an empty conversation'],
    ['SPEC-2.2.4', 'MUST', "only the requested session's messages are returned"],
    ['SPEC-2.2.5', 'MUST', 'a limit above the number of messages returns them all'],
    ['SPEC-2.2.6', 'MUST', 'limit 1 returns exactly one message'],
    ['SPEC-2.2.7', 'MUST', 'special characters in content read back unchanged'],
    ['SPEC-2.2.8', 'MUST', 'metadata reads back with its message'],
    ['SPEC-2.2.9', 'MUST', 'each message reads back with its role'],
    ['SPEC-2.2.10', 'MUST', 'twenty and more messages stay in order'],
    ['SPEC-2.2.11', 'MUST', 'the conversation returned has a valid UUID id'],
    ['SPEC-2.2.12', 'MUST', 'three sessions read back as three fully separate conversations'],
  ]),
  ...rows(`${V2} › 2.3 search_messages`, [
    ['SPEC-2.3.1', 'MUST', 'a search finds the messages that match its query'],
    ['SPEC-2.3.2', 'MUST', 'with session_id, only that session is searched'],
    ['SPEC-2.3.3', 'MUST NOT', 'a search returns no more results than limit'],
    ['SPEC-2.3.4', 'MUST', 'at a high threshold, a query nothing matches returns an empty list'],
    ['SPEC-2.3.5', 'MUST', 'limit 1 returns one result at most'],
    ['SPEC-2.3.6', 'MUST', 'searching an empty store returns an empty list'],
    ['SPEC-2.3.7', 'MUST', 'without session_id, every session is searched'],
  ]),
  ...rows(`${V2} › 2.4 list_sessions`, [
    ['SPEC-2.4.1', 'MUST', 'every active session is listed'],
    ['SPEC-2.4.2', 'MUST', 'each session is listed with the right message count'],
    ['SPEC-2.4.3', 'MUST', 'no sessions lists as an empty list'],
    ['SPEC-2.4.4', 'MUST', 'one session lists as exactly one entry'],
    ['SPEC-2.4.5', 'MUST', 'limit bounds the sessions listed'],
    ['SPEC-2.4.6', 'MUST', 'each listed session has a created_at timestamp'],
    ['SPEC-2.4.7', 'MUST', 'a deleted message no longer counts in its session'],
    ['SPEC-2.4.8', 'MUST', "each session's count is its own"],
  ]),
  ...rows(`${V2} › 2.5 delete_message`, [
    ['SPEC-2.5.1', 'MUST', 'deleting an existing message answers true'],
    ['SPEC-2.5.2', 'MUST NOT', 'a deleted message is gone from get_conversation'],
    ['SPEC-2.5.3', 'MUST', 'deleting an id that does not exist answers false'],
    ['SPEC-2.5.4', 'MUST', 'the remaining messages keep their order after a delete'],
    ['SPEC-2.5.5', 'MUST', 'deleting the first message keeps the others'],
    ['SPEC-2.5.6', 'MUST', 'deleting the last message keeps the earlier ones'],
    ['SPEC-2.5.7', 'MUST', 'deleting a message in the middle leaves the order intact around it'],
    ['SPEC-2.5.8', 'MUST', 'deleting every message one at a time leaves the session empty'],
    ['SPEC-2.5.9', 'MUST', 'a second delete of the same message answers false'],
  ]),
  ...rows(`${V2} › 2.6 clear_session`, [
    ['SPEC-2.6.1', 'MUST', "clear_session removes all of the session's messages"],
    ['SPEC-2.6.2', 'MUST NOT', 'clear_session leaves other sessions untouched'],
    ['SPEC-2.6.3', 'MUST NOT', 'clearing an empty or unknown session is not an error'],
    ['SPEC-2.6.4', 'MUST', 'a cleared session takes new messages'],
    ['SPEC-2.6.5', 'MUST', 'clearing one of several sessions keeps all the others'],
  ]),
  ...rows(`${V2} › 2.7 Message ordering`, [
    ['SPEC-2.7.1', 'MUST', 'messages keep the order they were added in'],
    ['SPEC-2.7.2', 'MUST', 'message timestamps never decrease in insertion order'],
    ['SPEC-2.7.3', 'MUST', 'a session of one message reads back that message'],
    ['SPEC-2.7.4', 'MUST', 'two messages read back in the right order'],
    ['SPEC-2.7.5', 'MUST', 'deleting a middle message keeps the rest in order'],
    ['SPEC-2.7.6', 'MUST', 'a hundred messages keep their insertion order'],
    ['SPEC-2.7.7', 'MUST', 'messages of mixed roles keep their insertion order'],
  ]),
  ...rows(`${V2} › 2.8 Idempotency`, [
    ['SPEC-2.8.1', 'MUST', 'every add_message answers a message with a new id'],
    ['SPEC-2.8.2', 'MUST', 'the same content sent twice is two messages'],
    ['SPEC-2.8.3', 'MUST NOT', 'calling clear_session again is not an error'],
  ]),
  ...rows(`${V2} › 3.1 add_entity`, [
    ['SPEC-3.1.1', 'MUST', 'add_entity answers the entity with a valid UUID'],
    ['SPEC-3.1.2', 'MUST', 'a description given is stored'],
    ['SPEC-3.1.3', 'MUST', 'add_entity accepts the type PERSON'],
    ['SPEC-3.1.4', 'MUST', 'add_entity accepts the type ORGANIZATION'],
    ['SPEC-3.1.5', 'MUST', 'add_entity accepts the type LOCATION'],
    ['SPEC-3.1.6', 'MUST', 'add_entity accepts the type EVENT'],
    ['SPEC-3.1.7', 'MUST', 'add_entity accepts the type OBJECT'],
    ['SPEC-3.1.8', 'MUST', 'several entities can each be retrieved on their own'],
  ]),
  ...rows(`${V2} › 3.1 add_entity${REGISTRY}`, [
    ['SPEC-3.1.9', undefined, 'add_entity works without a description'],
    ['SPEC-3.1.10', undefined, 'one name with two different types is two entities'],
    ['SPEC-3.1.11', undefined, 'special characters in a name are kept'],
    ['SPEC-3.1.12', undefined, "an entity's id is a valid UUID"],
  ]),
  ...rows(`${V2} › 3.2 add_preference`, [
    ['SPEC-3.2.1', 'MUST', 'add_preference answers a preference with valid fields'],
    ['SPEC-3.2.2', 'MUST', 'a context given is stored'],
    ['SPEC-3.2.3', 'MUST', 'several preferences are each stored'],
  ]),
  ...rows(`${V2} › 3.2 add_preference${REGISTRY}`, [
    ['SPEC-3.2.4', undefined, 'add_preference works without a context'],
    ['SPEC-3.2.5', undefined, 'a long preference text is kept whole'],
    ['SPEC-3.2.6', undefined, 'one category holds several preferences'],
    ['SPEC-3.2.7', undefined, "a preference's id is a valid UUID"],
  ]),
  ...rows(`${V2} › 3.3 add_fact`, [
    ['SPEC-3.3.1', 'MUST', 'add_fact answers a fact with its subject, predicate and object'],
    ['SPEC-3.3.2', 'MUST', 'several facts are each stored'],
  ]),
  ...rows(`${V2} › 3.3 add_fact${REGISTRY}`, [
    ['SPEC-3.3.3', undefined, 'special characters in a fact are kept'],
    ['SPEC-3.3.4', undefined, "a fact's id is a valid UUID"],
    ['SPEC-3.3.5', undefined, 'one subject holds several facts'],
  ]),
  ...rows(`${V2} › 3.4 search_entities`, [
    ['SPEC-3.4.1', 'MUST', 'a search finds the entities that match its query'],
    ['SPEC-3.4.2', 'MUST NOT', 'a search returns no more results than limit'],
  ]),
  ...rows(`${V2} › 3.4 search_entities${REGISTRY}`, [
    ['SPEC-3.4.3', undefined, 'searching entities in an empty store returns an empty list'],
    ['SPEC-3.4.4', undefined, 'a query no entity matches returns an empty list'],
  ]),
  ...rows(`${V2} › 3.5 search_preferences`, [
    ['SPEC-3.5.1', 'MUST', 'a search finds the preferences that match its query'],
    ['SPEC-3.5.2', 'MUST', 'with category, only that category is searched'],
  ]),
  ...rows(`${V2} › 3.5 search_preferences${REGISTRY}`, [
    ['SPEC-3.5.3', undefined, 'searching preferences in an empty store returns an empty list'],
    ['SPEC-3.5.4', undefined, 'a query no preference matches returns an empty list'],
  ]),
  ...rows(`${V2} › 3.6 get_entity_by_name`, [
    ['SPEC-3.6.1', 'MUST', 'an entity that exists is found by its name'],
    ['SPEC-3.6.2', 'MUST', 'a name no entity has gives None (null)'],
  ]),
  ...rows(`${V2} › 3.7 get_related_entities`, [
    ['SPEC-3.7.1', 'MUST', 'the entities connected to an entity are returned'],
    ['SPEC-3.7.2', 'MUST', 'an entity with no connections has an empty list'],
  ]),
  ...rows(`${V2} › 3.7 get_related_entities${REGISTRY}`, [
    ['SPEC-3.7.3', undefined, 'relationship_type narrows the related entities to that type'],
    ['SPEC-3.7.4', undefined, 'several related entities are all returned'],
  ]),
  ...rows(`${V2} › 4.1 start_trace`, [
    ['SPEC-4.1.1', 'MUST', 'start_trace answers a trace with valid fields'],
    ['SPEC-4.1.2', 'MUST', 'every trace has its own id'],
  ]),
  ...rows(`${V2} › 4.2 add_step`, [
    ['SPEC-4.2.1', 'MUST', 'add_step answers a step tied to its trace'],
    ['SPEC-4.2.2', 'MUST', "a trace's step numbers increase with each step"],
    ['SPEC-4.2.3', 'MUST', 'a step may be given only some of its fields'],
  ]),
  ...rows(`${V2} › 4.2 add_step${REGISTRY}`, [
    ['SPEC-4.2.4', undefined, 'a step with an observation alone is accepted'],
    ['SPEC-4.2.5', undefined, 'a step with every field set is accepted'],
    ['SPEC-4.2.6', undefined, 'many steps keep a sequential numbering'],
  ]),
  ...rows(`${V2} › 4.3 record_tool_call`, [
    ['SPEC-4.3.1', 'MUST', 'record_tool_call answers a tool call with valid fields'],
    ['SPEC-4.3.2', 'MUST', 'a result and a duration given are stored'],
    ['SPEC-4.3.3', 'MUST', 'failure statuses are accepted'],
    ['SPEC-4.3.4', 'MUST', 'the status timeout is accepted'],
  ]),
  ...rows(`${V2} › 4.3 record_tool_call${REGISTRY}`, [
    ['SPEC-4.3.5', undefined, 'the status error is accepted'],
    ['SPEC-4.3.6', undefined, 'the status cancelled is accepted'],
    ['SPEC-4.3.7', undefined, 'the status pending is accepted'],
    ['SPEC-4.3.8', undefined, 'one step holds several tool calls'],
  ]),
  ...rows(`${V2} › 4.4 complete_trace`, [
    ['SPEC-4.4.1', 'MUST', 'complete_trace sets the outcome, success and completed_at'],
    ['SPEC-4.4.2', 'MUST', 'a failed outcome can be recorded'],
  ]),
  ...rows(`${V2} › 4.5 get_trace_with_steps`, [
    ['SPEC-4.5.1', 'MUST', 'the whole trace comes back with every step'],
    ['SPEC-4.5.2', 'MUST', 'each step comes back with its tool calls'],
    ['SPEC-4.5.3', 'MUST', 'an id no trace has gives None (null)'],
  ]),
  ...rows(`${V2} › 4.6 list_traces`, [
    ['SPEC-4.6.1', 'MUST', 'every trace is listed'],
    ['SPEC-4.6.2', 'MUST', 'with session_id, only that session is listed'],
    ['SPEC-4.6.3', 'MUST', 'limit bounds the traces listed'],
  ]),
  ...rows(`${V2} › 4.6 list_traces${REGISTRY}`, [['SPEC-4.6.4', undefined, 'with no traces, the list is empty']]),
  ...rows(`${V2} › 4.7 get_tool_stats`, [['SPEC-4.7.1', 'MUST', 'the per-tool statistics are correct aggregates of the calls recorded']]),
  ...rows(`${V2} › 4.7 get_tool_stats${REGISTRY}`, [
    ['SPEC-4.7.2', undefined, 'each of several tools has its own statistics'],
    ['SPEC-4.7.3', undefined, 'with no calls recorded there are no statistics'],
    ['SPEC-4.7.4', undefined, 'the success rate is computed correctly'],
  ]),

  // Volume 3: the adapter interface, one row per method; over the bridge each is its method row.
  ...ADAPTER.map(([method, table, text]): Sentence => ({
    id: `SPEC-V3-${method}`,
    doc: 'spec',
    section: `${V3} › ${table}`,
    text,
    // The bridge document has no row for a Platinum method: its scenarios cite this row itself.
    ...(table.startsWith('Platinum') ? {} : { via: [LIFECYCLE.has(method) ? `BRIDGE-LIFECYCLE-${method}` : `BRIDGE-METHOD-${method}`] }),
  })),

  // Volume 4: cross-memory and multi-agent contracts (numbered 5.x.y)
  ...rows(`${V4} › 5.1 Cross-memory entity references`, [
    ['SPEC-5.1.1', 'MUST', 'an entity from long-term memory can be referred to from a reasoning trace'],
    ['SPEC-5.1.2', 'MUST', 'a flow from conversation to entity to reasoning works end to end'],
    ['SPEC-5.1.3', 'MUST', 'an entity made in one session is seen from another'],
    ['SPEC-5.1.4', 'MUST', 'facts can be stored beside the entities they name'],
    ['SPEC-5.1.5', 'MUST', 'preferences can be stored beside related entities'],
    ['SPEC-5.1.6', 'MUST', 'a trace can live in the same session as its messages'],
  ]),
  ...rows(`${V4} › 5.2 Entity relationships`, [
    ['SPEC-5.2.1', 'MUST', 'add_relationship makes a typed edge between two entities'],
    ['SPEC-5.2.2', 'MUST', 'get_related_entities from the source finds the target'],
    ['SPEC-5.2.3', 'MUST', 'two entities can be linked by several relationship types'],
    ['SPEC-5.2.4', 'MUST', 'add_relationship answers a relationship with a valid UUID id'],
  ]),
  ...rows(`${V4} › 5.3 Entity merging`, [
    ['SPEC-5.3.1', 'MUST', 'merge_duplicate_entities makes one entity of two'],
    ['SPEC-5.3.2', 'MUST', 'the merged entity keeps the relationships of both'],
  ]),
  ...rows(`${V4} › 5.4 Similar trace search`, [
    ['SPEC-5.4.1', 'MUST', 'get_similar_traces finds traces whose tasks are alike'],
    ['SPEC-5.4.2', 'MUST', 'limit bounds the similar traces returned'],
    ['SPEC-5.4.3', 'MUST', 'an empty store has no similar traces'],
  ]),
  ...rows(`${V4} › 5.5 Multi-agent memory sharing`, [
    ['SPEC-5.5.1', 'MUST', 'an entity made in one session can be searched from another'],
    ['SPEC-5.5.2', 'MUST', 'traces can be filtered by session, so each agent sees its own'],
    ['SPEC-5.5.3', 'MUST', 'conversations stay per session while entities are shared'],
  ]),

  // Volume 5: hosted-service operations (Platinum, optional)
  ...rows(V5, [
    ['SPEC-V5-scope', 'SHOULD', 'an implementation aimed at the hosted service offers the Volume 5 operations; leaving them out keeps Bronze to Gold', {
      unchecked: 'who an implementation is aimed at is not observable; the optional Platinum tier checks the operations themselves (SPEC-V5-5.x.y)',
    }],
  ]),
  ...rows(`${V5} › 5.1 Conversation lifecycle`, [
    ['SPEC-V5-5.1.1', 'MUST', 'create_conversation answers a conversation with a fresh UUID, the user_id given and a workspace_id of the key'],
    ['SPEC-V5-5.1.2', 'MUST', 'list_conversations lists the conversations the key may see, newest first'],
    ['SPEC-V5-5.1.3', 'MUST', 'delete_conversation can be repeated without harm'],
    ['SPEC-V5-5.1.4', 'MUST', 'bulk_add_messages takes at most 100 messages and answers them in the order sent'],
  ]),
  ...rows(`${V5} › 5.2 Three-tier context`, [
    ['SPEC-V5-5.2.1', 'MUST', 'get_context answers three lists: reflections, observations, recent_messages'],
    ['SPEC-V5-5.2.2', 'MAY', 'observations and reflections come later, so a new conversation may have none'],
  ]),
  ...rows(`${V5} › 5.3 Entity feedback, history and graph`, [
    ['SPEC-V5-5.3.1', 'MUST', 'set_entity_feedback: its answer, and the range of user_score', { parts: ['SPEC-V5-5.3.1a', 'SPEC-V5-5.3.1b'] }],
    ['SPEC-V5-5.3.1a', 'MUST', 'set_entity_feedback answers {id, updated} with a boolean updated'],
    ['SPEC-V5-5.3.1b', undefined, 'user_score lies between 0 and 1'],
    ['SPEC-V5-5.3.2', 'MUST', "get_entity_history answers every mention of the entity, across conversations"],
    ['SPEC-V5-5.3.3', 'MUST', 'merge_entities leaves a SAME_AS link from the source to the target'],
    ['SPEC-V5-5.3.4', 'MUST', 'get_entity_graph answers a view of nodes and edges'],
  ]),
  ...rows(`${V5} › 5.4 Reasoning provenance`, [
    ['SPEC-V5-5.4.1', 'MUST', 'record_step keeps the step under its conversation'],
    ['SPEC-V5-5.4.2', 'MUST', 'explain_step answers the tool calls of the step and the entities it influenced'],
    ['SPEC-V5-5.4.3', 'MUST', 'get_trace_by_conversation answers every step and tool call of the conversation'],
    ['SPEC-V5-5.4.4', 'MUST', "get_entity_provenance answers the reasoning that led to the entity's creation"],
  ]),
  ...rows(`${V5} › 5.5 Cypher console`, [
    ['SPEC-V5-5.5.1', 'MUST', 'cypher_query: read-only queries run, writes are refused', { parts: ['SPEC-V5-5.5.1a', 'SPEC-V5-5.5.1b'] }],
    ['SPEC-V5-5.5.1a', 'MUST', 'cypher_query runs read-only queries'],
    ['SPEC-V5-5.5.1b', 'MUST', 'cypher_query refuses queries that write'],
  ]),
];
