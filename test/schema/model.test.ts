// One test per rule of the data model (bridge-protocol.md "General rules" and the resource tables).
import { describe, expect, it } from 'vitest';
import {
  Conversation, Entity, ErrorBody, DeleteResult, Fact, Message, Preference, ReasoningStep, ReasoningTrace,
  Relationship, SessionInfo, SetupResult, ToolCall, ToolStats, jsonSchemas, validate, MODEL,
} from '../../src/protocols/bridge/index.js';

const ID = '3f1c2b9a-8d4e-4f6a-9b2c-1d2e3f4a5b6c';
const V7 = '0190a5b2-1111-7abc-8def-0123456789ab';
const TS = '2026-01-02T03:04:05.678Z';

const message = (over: Record<string, unknown> = {}) => ({ id: ID, role: 'user', content: 'hi', timestamp: TS, metadata: {}, ...over });
const entity = (over: Record<string, unknown> = {}) => ({ id: ID, name: 'Ada', type: 'PERSON', created_at: TS, ...over });
const toolCall = (over: Record<string, unknown> = {}) => ({ id: ID, tool_name: 't', arguments: {}, status: 'success', ...over });
const step = (over: Record<string, unknown> = {}) => ({ id: ID, trace_id: ID, step_number: 1, tool_calls: [], ...over });
const trace = (over: Record<string, unknown> = {}) => ({ id: ID, session_id: 's', task: 't', steps: [], started_at: TS, ...over });

const ok = (schema: Parameters<typeof validate>[0], value: unknown) => expect(validate(schema, value).issues).toEqual([]);
const bad = (schema: Parameters<typeof validate>[0], value: unknown, issue: RegExp) => {
  const r = validate(schema, value);
  expect(r.ok).toBe(false);
  expect(r.issues.join('\n')).toMatch(issue);
};

describe('identifiers are canonical UUID strings of any version', () => {
  it('accepts v4, v7, nil-like and uppercase hex', () => {
    for (const id of [ID, V7, '00000000-0000-0000-0000-000000000000', ID.toUpperCase()]) ok(Message, message({ id }));
  });
  it('rejects non-canonical forms and non-strings, naming the path and value', () => {
    bad(Message, message({ id: 'abc' }), /^id: "abc" is not a UUID/);
    bad(Message, message({ id: ID.replaceAll('-', '') }), /id: .* is not a UUID/);
    bad(Message, message({ id: `{${ID}}` }), /id: .* is not a UUID/);
    bad(Message, message({ id: 42 }), /id: expected string, got 42/);
  });
});

describe('timestamps are ISO 8601 date-times with a zone designator', () => {
  it.each(['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.1Z', '2026-01-02T03:04:05.123456789Z', '2026-01-02T03:04:05+00:00', '2026-01-02T03:04:05.5-07:30', '2026-01-02T03:04Z'])(
    'accepts %s',
    (timestamp) => ok(Message, message({ timestamp })),
  );
  it.each(['1700000000', '2026-01-02T03:04:05', '2026-01-02', '2026-01-02 03:04:05Z', '2026-13-02T03:04:05Z', '2026-02-30T03:04:05Z', '2026-01-02T25:04:05Z', '2026-01-02T03:04:05+0200', 'yesterday'])(
    'rejects %s with the path and value',
    (timestamp) => bad(Message, message({ timestamp }), new RegExp(`^timestamp: "${timestamp.replace('+', '\\+')}" is not an ISO 8601 date-time`)),
  );
  it('rejects a number', () => bad(Message, message({ timestamp: 1700000000 }), /timestamp: expected string, got 1700000000/));
  it('names nested paths: messages[1].timestamp', () => {
    const conv = { id: ID, session_id: 's', messages: [message(), message({ timestamp: '1700000000' })], created_at: TS };
    bad(Conversation, conv, /^messages\[1\]\.timestamp: "1700000000" is not an ISO 8601 date-time/);
  });
});

describe('enumerations are exactly as written', () => {
  it('roles are lowercase user, assistant, system', () => {
    for (const role of ['user', 'assistant', 'system']) ok(Message, message({ role }));
    bad(Message, message({ role: 'USER' }), /role: "USER" is not a role/);
    bad(Message, message({ role: 'tool' }), /role: "tool" is not a role/);
  });
  it('entity types are uppercase PERSON, ORGANIZATION, LOCATION, EVENT, OBJECT', () => {
    for (const type of ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT', 'OBJECT']) ok(Entity, entity({ type }));
    bad(Entity, entity({ type: 'person' }), /type: "person" is not an entity type/);
    bad(Entity, entity({ type: 'CONCEPT' }), /type: "CONCEPT"/);
  });
  it('tool-call statuses are lowercase pending, success, failure, error, timeout, cancelled', () => {
    for (const status of ['pending', 'success', 'failure', 'error', 'timeout', 'cancelled']) ok(ToolCall, toolCall({ status }));
    bad(ToolCall, toolCall({ status: 'SUCCESS' }), /status: "SUCCESS" is not a tool-call status/);
    bad(ToolCall, toolCall({ status: 'failed' }), /status: "failed"/);
  });
});

describe('an optional field may be null or omitted; a required one may not', () => {
  it('optional fields null or omitted', () => {
    ok(Message, message({ embedding: null }));
    ok(Message, message());
    ok(Conversation, { id: ID, session_id: 's', messages: [], created_at: TS, title: null, updated_at: null });
    ok(Conversation, { id: ID, session_id: 's', messages: [], created_at: TS });
    ok(Entity, entity({ subtype: null, description: null, embedding: null, canonical_name: null }));
    ok(ReasoningStep, step({ thought: null, action: null, observation: null }));
    ok(ReasoningTrace, trace({ outcome: null, success: null, completed_at: null }));
    ok(ToolCall, toolCall({ result: null, duration_ms: null, error: null }));
  });
  it('required fields missing are named', () => {
    bad(Message, { id: ID, role: 'user', content: 'x', timestamp: TS }, /^metadata: is missing \(required\)/);
    bad(Entity, { id: ID, name: 'x', type: 'PERSON' }, /^created_at: is missing/);
    bad(ReasoningTrace, { id: ID, session_id: 's', task: 't', started_at: TS }, /^steps: is missing/);
    bad(ReasoningStep, { id: ID, trace_id: ID, step_number: 1 }, /^tool_calls: is missing/);
    bad(Conversation, { id: ID, session_id: 's', created_at: TS }, /^messages: is missing/);
  });
  it('a present optional field still has its type', () => {
    bad(Entity, entity({ description: 5 }), /description: expected string, got 5/);
    bad(ReasoningTrace, trace({ success: 'yes' }), /success: expected boolean/);
    bad(ToolCall, toolCall({ duration_ms: 1.5 }), /duration_ms: expected an integer, got 1.5/);
  });
});

describe('metadata, arguments and properties are JSON objects', () => {
  it('accepts nested objects', () => ok(Message, message({ metadata: { a: [1, { b: null }], c: true } })));
  it.each([[[]], ['x'], [null], [3]])('rejects %j as metadata', (metadata) => bad(Message, message({ metadata }), /^metadata: expected a JSON object/));
  it('rejects arguments that are not an object', () => bad(ToolCall, toolCall({ arguments: '{"q":1}' }), /arguments: expected a JSON object/));
  it('rejects properties that are an array', () =>
    bad(Relationship, { id: ID, source_id: ID, target_id: V7, relationship_type: 'KNOWS', properties: [] }, /properties: expected a JSON object/));
  it('a tool-call result may be any JSON value', () => {
    for (const result of [1, 'x', [1], { a: 1 }, true, null]) ok(ToolCall, toolCall({ result }));
  });
});

describe('unknown extra fields are allowed and reported as notes', () => {
  it('notes every unknown field with its path, at any depth', () => {
    const conv = { id: ID, session_id: 's', created_at: TS, workspace: 'w', messages: [message({ score: 0.9 })] };
    const r = validate(Conversation, conv);
    expect(r.ok).toBe(true);
    expect(r.notes).toEqual(['workspace: unknown field (allowed)', 'messages[0].score: unknown field (allowed)']);
  });
  it('keeps the extra fields in the parsed value', () => {
    expect(validate(Message, message({ extra: 1 })).value).toMatchObject({ extra: 1 });
  });
  it('no notes for a document without extras', () => expect(validate(Message, message()).notes).toEqual([]));
});

describe('the named types', () => {
  it('SessionInfo: session_id, message_count >= 0, created_at', () => {
    ok(SessionInfo, { session_id: 's', message_count: 0, created_at: TS, updated_at: TS });
    bad(SessionInfo, { session_id: 's', message_count: -1, created_at: TS }, /message_count/);
    bad(SessionInfo, { session_id: 's', message_count: 1 }, /created_at: is missing/);
  });
  it('Preference and Fact', () => {
    ok(Preference, { id: ID, category: 'food', preference: 'tea', context: null });
    bad(Preference, { id: ID, category: 'food' }, /preference: is missing/);
    ok(Fact, { id: ID, subject: 'a', predicate: 'b', object: 'c' });
    bad(Fact, { id: ID, subject: 'a', predicate: 'b', obj: 'c' }, /^object: is missing/);
  });
  it('ToolStats: success_rate in [0, 1], counts non-negative integers', () => {
    const stats = { name: 't', total_calls: 2, successful_calls: 1, failed_calls: 1, success_rate: 0.5, avg_duration_ms: 12.5 };
    ok(ToolStats, stats);
    bad(ToolStats, { ...stats, success_rate: 50 }, /success_rate/);
    bad(ToolStats, { ...stats, total_calls: 1.5 }, /total_calls/);
  });
  it('Relationship', () => {
    ok(Relationship, { id: ID, source_id: ID, target_id: V7, relationship_type: 'KNOWS', properties: {} });
    bad(Relationship, { id: ID, source_id: 'x', target_id: V7, relationship_type: 'KNOWS' }, /source_id: "x" is not a UUID/);
  });
  it('envelopes: {ok}, {deleted}, {error}', () => {
    ok(SetupResult, { ok: true });
    bad(SetupResult, { ok: 'true' }, /ok: expected boolean/);
    ok(DeleteResult, { deleted: false });
    bad(DeleteResult, {}, /deleted: is missing/);
    ok(ErrorBody, { error: 'boom' });
    bad(ErrorBody, { message: 'boom' }, /error: is missing/);
  });
  it('step_number is an integer', () => bad(ReasoningStep, step({ step_number: '1' }), /step_number: expected number, got "1"/));
});

describe('JSON Schema export', () => {
  it('emits one JSON Schema per model type with required fields and formats', () => {
    const all = jsonSchemas() as Record<string, any>;
    expect(Object.keys(all).sort()).toEqual(Object.keys(MODEL).sort());
    expect(all.Message.required).toEqual(expect.arrayContaining(['id', 'role', 'content', 'timestamp', 'metadata']));
    expect(all.Message.properties.role.enum).toEqual(['user', 'assistant', 'system']);
    expect(all.Message.properties.id.format).toBe('uuid');
    expect(all.Message.properties.timestamp.format).toBe('date-time');
    expect(all.Message.properties.timestamp.pattern).toBeTypeOf('string');
  });
});
