// The sentences of the bridge document (../shared/spec/bridge-protocol.md, bridge protocol 0.1.0),
// each quoted exactly as it reads (a table row as the row reads); test/protocols/clauses.test.ts
// finds every quote in its section of the document.
//
// Left out as informative, not rules a server can break: the opening paragraph (what the
// document covers), "A conformance server is a small HTTP server placed in front of a native
// client…", the tier grouping of results (how a kit grades, not what a server does), "In the
// tables a trailing ? marks an optional parameter." (how to read the tables), and every
// "…: not shown." sentence (they say the document is silent; the silent points are
// src/engine/silent-points.ts).
import type { Sentence } from './sentence.js';

const bridge = (id: string, section: string, text: string, more: Partial<Sentence> = {}): Sentence => ({ id, doc: 'bridge', section, text, ...more });

/** The resource tables (BRIDGE-MODEL-<Resource>): the model check of an answer checks every row at once. */
const MODELS = ['Message', 'Conversation', 'Entity', 'ReasoningTrace', 'ReasoningStep', 'ToolCall'] as const;
const modelIds = MODELS.map((m) => `BRIDGE-MODEL-${m}`);

/** The first cell of a table row: `| id | UUID string | |` -> `id`; `| POST /add_message | …` -> `add_message`. */
const firstCell = (row: string): string => row.split('|')[1]!.trim().replace(/^POST \//, '');

/** A table: its rows, each `<prefix><first cell>`, and the table as a whole (`whole`), which names them all. */
function table(whole: string | undefined, prefix: string, section: string, rows: readonly string[], more: Partial<Sentence> = {}): Sentence[] {
  const entries = rows.map((row) => bridge(`${prefix}${firstCell(row)}`, section, row, more));
  return whole === undefined ? entries : [bridge(whole, section, rows.join('\n'), { parts: entries.map((e) => e.id) }), ...entries];
}

const model = (name: (typeof MODELS)[number], rows: readonly string[]) => table(`BRIDGE-MODEL-${name}`, `BRIDGE-MODEL-${name}.`, `Resources and their fields › ${name}`, rows);

const GENERAL = 'Resources and their fields';

/** The method tables: one row per method (path, parameters, what it returns). */
const METHOD_ROWS: readonly Sentence[] = [
  ...table(undefined, 'BRIDGE-LIFECYCLE-', 'Endpoints › Lifecycle', ['| POST /setup | none | object with boolean field ok |', '| POST /teardown | none | 204 |', '| POST /clear_all_data | none | 204 |']),
  ...table(undefined, 'BRIDGE-METHOD-', 'Endpoints › Short-term memory (Bronze)', [
    '| POST /add_message | session_id, role, content, metadata? | Message |',
    '| POST /get_conversation | session_id, limit? | Conversation |',
    '| POST /search_messages | query, session_id?, limit?, threshold? | array of Message |',
    '| POST /list_sessions | limit? | array of SessionInfo |',
    '| POST /delete_message | message_id | object with deleted (boolean) |',
    '| POST /clear_session | session_id | 204 |',
  ]),
  ...table(undefined, 'BRIDGE-METHOD-', 'Endpoints › Long-term memory (Silver)', [
    '| POST /add_entity | name, entity_type, description? | Entity |',
    '| POST /add_preference | category, preference, context? | Preference |',
    '| POST /add_fact | subject, predicate, obj | Fact |',
    '| POST /search_entities | query, limit? | array of Entity |',
    '| POST /search_preferences | query, category?, limit? | array of Preference |',
    '| POST /get_entity_by_name | name | Entity or null |',
    '| POST /get_related_entities | entity_id, relationship_type?, depth? | array of Entity |',
  ]),
  ...table(undefined, 'BRIDGE-METHOD-', 'Endpoints › Reasoning memory (Silver)', [
    '| POST /start_trace | session_id, task | ReasoningTrace |',
    '| POST /add_step | trace_id, thought?, action?, observation? | ReasoningStep |',
    '| POST /record_tool_call | step_id, tool_name, arguments, result?, status?, duration_ms?, error? | ToolCall |',
    '| POST /complete_trace | trace_id, outcome?, success? | ReasoningTrace |',
    '| POST /get_trace_with_steps | trace_id | ReasoningTrace or null |',
    '| POST /list_traces | session_id?, limit? | array of ReasoningTrace |',
    '| POST /get_tool_stats | tool_name? | array of ToolStats |',
  ]),
  ...table(undefined, 'BRIDGE-METHOD-', 'Endpoints › Gold tier', [
    '| POST /add_relationship | source_id, target_id, relationship_type, properties? | Relationship |',
    '| POST /merge_duplicate_entities | source_id, target_id, canonical_name? | Entity |',
    '| POST /get_similar_traces | task, limit?, success_only? | array of ReasoningTrace |',
  ]),
];

export const BRIDGE_SENTENCES: readonly Sentence[] = [
  // What the service does
  bridge('BRIDGE-SERVICE-1', 'What the service does', 'It listens on a configurable port; the default is 3001.', {
    unchecked: 'the kit is given the URL of the server; which port it listens on (and by default) is not observable over the protocol',
  }),
  bridge('BRIDGE-SERVICE-2', 'What the service does', 'It accepts POST requests that map one to one onto adapter methods.', {
    via: METHOD_ROWS.map((r) => r.id),
  }),
  bridge('BRIDGE-SERVICE-3', 'What the service does', 'It returns JSON that matches the data model below.', { via: modelIds }),
  bridge(
    'BRIDGE-SERVICE-env',
    'What the service does',
    'The upstream memory service endpoint is given to a reference server through the environment variable MEMORY_ENDPOINT, and its port through TCK_BRIDGE_PORT.',
    { unchecked: 'how a reference server is configured when it starts, not observable over the protocol' },
  ),

  // General rules of the data model (one sentence, six rules; the model check of every answer checks each)
  bridge('BRIDGE-GENERAL-1', GENERAL, 'identifiers are UUID strings', { via: modelIds }),
  bridge('BRIDGE-GENERAL-2', GENERAL, 'timestamps are ISO 8601 strings', { via: modelIds }),
  bridge('BRIDGE-GENERAL-3', GENERAL, 'enumerated values are lowercase strings unless listed otherwise', { via: modelIds }),
  bridge('BRIDGE-GENERAL-4', GENERAL, 'an optional field is omitted or null when unset', { via: modelIds }),
  bridge('BRIDGE-GENERAL-5', GENERAL, 'metadata, arguments and properties are JSON objects', { via: modelIds }),
  bridge('BRIDGE-GENERAL-6', GENERAL, 'all field names are snake_case', { via: modelIds }),

  ...model('Message', [
    '| id | UUID string | |',
    '| role | string | user, assistant, system |',
    '| content | string | |',
    '| timestamp | ISO 8601 string | |',
    '| embedding | array of numbers or null | |',
    '| metadata | object | |',
  ]),
  ...model('Conversation', [
    '| id | UUID string | |',
    '| session_id | string | |',
    '| messages | array of Message | |',
    '| title | string or null | |',
    '| created_at | ISO 8601 string | |',
    '| updated_at | ISO 8601 string or null | |',
  ]),
  ...model('Entity', [
    '| id | UUID string | |',
    '| name | string | |',
    '| type | string | PERSON, ORGANIZATION, LOCATION, EVENT, OBJECT (uppercase) |',
    '| subtype | string or null | |',
    '| description | string or null | |',
    '| embedding | array or null | |',
    '| canonical_name | string or null | |',
    '| created_at | ISO 8601 string | |',
  ]),
  ...model('ReasoningTrace', [
    '| id | UUID string | |',
    '| session_id | string | |',
    '| task | string | |',
    '| steps | array of ReasoningStep | |',
    '| outcome | string or null | |',
    '| success | boolean or null | |',
    '| started_at | ISO 8601 string | |',
    '| completed_at | ISO 8601 string or null | |',
  ]),
  ...model('ReasoningStep', [
    '| id | UUID string | |',
    '| trace_id | UUID string | |',
    '| step_number | integer | |',
    '| thought | string or null | |',
    '| action | string or null | |',
    '| observation | string or null | |',
    '| tool_calls | array of ToolCall | |',
  ]),
  ...model('ToolCall', [
    '| id | UUID string | |',
    '| tool_name | string | |',
    '| arguments | object | |',
    '| result | any value or null | |',
    '| status | string | pending, success, failure, error, timeout, cancelled |',
    '| duration_ms | integer or null | milliseconds |',
    '| error | string or null | |',
  ]),

  // States and transitions
  bridge('BRIDGE-STATES-1', 'States and transitions', 'The only enumerated states are the ToolCall status values listed above.', { via: ['BRIDGE-MODEL-ToolCall'] }),
  bridge('BRIDGE-STATES-2', 'States and transitions', 'A trace has started_at always and completed_at null or a timestamp', { via: ['BRIDGE-MODEL-ReasoningTrace'] }),
  bridge('BRIDGE-STATES-3', 'States and transitions', 'its success is true, false or null.', { via: ['BRIDGE-MODEL-ReasoningTrace'] }),

  // Endpoints
  bridge('BRIDGE-ENDPOINT-1', 'Endpoints', 'Every endpoint is `POST /{method_name}` on the conformance server.', { via: METHOD_ROWS.map((r) => r.id) }),
  bridge('BRIDGE-ENDPOINT-2', 'Endpoints', 'The method name equals the adapter method name in snake_case.', { via: METHOD_ROWS.map((r) => r.id) }),
  bridge('BRIDGE-REQUEST-1', 'Endpoints › Request rules', 'The header Content-Type is application/json.'),
  bridge('BRIDGE-REQUEST-2', 'Endpoints › Request rules', 'The body is one flat JSON object of the parameters.'),
  bridge('BRIDGE-REQUEST-3', 'Endpoints › Request rules', 'UUIDs are strings and datetimes are ISO 8601 strings.'),
  bridge('BRIDGE-REQUEST-4', 'Endpoints › Request rules', 'Null values are omitted from the body.'),
  ...[
    '| Single object | 200 | the object |',
    '| List | 200 | JSON array of objects |',
    '| Boolean result | 200 | object with boolean field deleted (for delete_message) |',
    '| Void result | 204 | empty |',
    '| Null result (for example a lookup by name that finds nothing) | 200 | the JSON value null |',
    '| Error | 400 or 500 | object with string field error |',
  ].map((row, i) => bridge(`BRIDGE-RESPONSE-${i + 1}`, 'Endpoints › Response rules', row)),
  ...METHOD_ROWS,

  // Errors
  bridge('BRIDGE-ERRORS-1', 'Errors', 'A failed call returns status 400 or 500 with a JSON body holding one string field, error, that describes what went wrong.'),
  bridge('BRIDGE-ERRORS-2', 'Errors', 'A lookup that finds nothing is not an error: it returns status 200 with the value null.'),
  bridge('BRIDGE-ERRORS-3', 'Errors', 'A void method never returns a body; it returns 204.'),

  // Limits
  bridge('BRIDGE-LIMITS-port', 'Limits', '| Default listening port | 3001 |', { unchecked: 'the kit is given the URL of the server: its default port is not observable over the protocol' }),
  bridge('BRIDGE-LIMITS-port-env', 'Limits', 'The port is configurable; reference servers read it from the environment variable TCK_BRIDGE_PORT.', {
    unchecked: 'how a reference server is configured when it starts, not observable over the protocol',
  }),

  // Versioning
  bridge('BRIDGE-VERSION-1', 'Versioning', 'The protocol version is 0.1.0.', {
    unchecked: 'no field is named that must carry it: the kit reads the protocol_version setup may report and warns on another major.minor, never fails',
  }),
  bridge('BRIDGE-VERSION-2', 'Versioning', 'The bridge uses snake_case names, while the hosted REST interface uses camelCase for the same data.', {
    via: ['BRIDGE-GENERAL-6', ...modelIds],
  }),
];
