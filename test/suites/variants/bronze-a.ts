// The variants that prove the power of the Bronze scenarios SCN-B-001 … SCN-B-054 and SCN-B-101,
// SCN-B-102 (../bronze-a.test.ts): faulty variants, each breaking exactly the rule one scenario
// checks, and valid variants making other allowed choices.
import { randomUUID } from 'node:crypto';
import { MemoryStore } from '../../../src/servers/bridge/index.js';
import { compose, mapAnswers, mapRequest, mapResponse, type VariantOptions, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';

// ------------------------------------------------------------------ faulty variants

type Msg = { id: string; role: string; content: string; timestamp: string; metadata: Record<string, unknown> };
type Conv = { id: string; session_id: string; messages: Msg[]; created_at: string; title?: unknown };

const FIXED_ID = '00000000-0000-4000-8000-000000000000';

/** `method` answers 400 {"error"} when `when(request)` holds. */
const reject = (method: string, when: (body: any) => boolean, error: string): Wrap =>
  (next) => (m, body) => (m === method && when(body) ? { status: 400, body: { error } } : next(m, body));

/** Edits every message of every get_conversation answer (the read path). */
const onRead = (edit: (m: Msg) => void): Wrap =>
  mapResponse('get_conversation', (c: Conv) => (c.messages.forEach(edit), c));

/** Edits the message add_message answers (the write answer only). */
const onAdd = (edit: (m: Msg) => Msg | void): Wrap => mapResponse('add_message', (m: Msg) => edit(m) ?? m);

/** Edits the content of add_message before it is stored (stored and answered alike). */
const storeContent = (edit: (c: string) => string): Wrap => mapRequest('add_message', (b) => ({ ...b, content: edit(b.content) }));
const storeMetadata = (edit: (md: Record<string, unknown> | undefined) => unknown): Wrap =>
  mapRequest('add_message', (b) => ({ ...b, metadata: edit(b.metadata) }));

/** get_conversation answers the messages of every session `match(asked, other)` accepts, by time. */
function mergeSessions(match: (asked: string, other: string) => boolean): Wrap {
  return (next) => async (m, body: any) => {
    const res = await next(m, body);
    if (m !== 'get_conversation' || res.status !== 200) return res;
    const sessions = (await next('list_sessions', {})).body as { session_id: string }[];
    const merged: Msg[] = [];
    for (const s of sessions) {
      if (s.session_id === body.session_id || match(body.session_id, s.session_id)) {
        merged.push(...((await next('get_conversation', { session_id: s.session_id })).body as Conv).messages);
      }
    }
    merged.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));
    return { ...res, body: { ...(res.body as Conv), messages: merged } };
  };
}
const leakAllSessions = mergeSessions(() => true);
const matchByPrefix = mergeSessions((asked, other) => other.startsWith(asked));

/** delete_message also deletes the message after it in its session (a broken NEXT_MESSAGE chain). */
const deleteAlsoNext: Wrap = (next) => {
  const order = new Map<string, string[]>();
  return async (m, body: any) => {
    const res = await next(m, body);
    if (m === 'add_message' && res.status === 200) {
      const ids = order.get(body.session_id) ?? [];
      ids.push((res.body as Msg).id);
      order.set(body.session_id, ids);
    }
    if (m === 'delete_message') {
      for (const ids of order.values()) {
        const after = ids[ids.indexOf(body.message_id) + 1];
        if (ids.includes(body.message_id) && after) await next('delete_message', { message_id: after });
      }
    }
    return res;
  };
};

/** After any delete_message, the remaining messages read back with new timestamps. */
const restampAfterDelete: Wrap = (next) => {
  let deleted = false;
  return async (m, body) => {
    if (m === 'delete_message') deleted = true;
    const res = await next(m, body);
    if (m !== 'get_conversation' || !deleted || res.status !== 200) return res;
    const conv = structuredClone(res.body) as Conv;
    for (const msg of conv.messages) msg.timestamp = new Date(Date.parse(msg.timestamp) + 1000).toISOString();
    return { ...res, body: conv };
  };
};

/** An unknown session falls back to the messages of the first listed session. */
const fallbackToOtherSession: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== 'get_conversation' || (res.body as Conv).messages.length > 0) return res;
  const [first] = (await next('list_sessions', {})).body as { session_id: string }[];
  if (!first) return res;
  const other = (await next('get_conversation', { session_id: first.session_id })).body as Conv;
  return { ...res, body: { ...(res.body as Conv), messages: other.messages } };
};

/** Replaces the messages of a conversation read without a limit. */
const unlimitedRead = (edit: (ms: Msg[]) => Msg[]): Wrap =>
  mapResponse('get_conversation', (c: Conv, req) => (req.limit == null ? { ...c, messages: edit(c.messages) } : c));
const byId = (ms: Msg[]) => [...ms].sort((a, b) => (a.id < b.id ? -1 : 1));

const ROTATE: Record<string, string> = { PERSON: 'ORGANIZATION', ORGANIZATION: 'LOCATION', LOCATION: 'EVENT', EVENT: 'OBJECT', OBJECT: 'PERSON' };
const clock = (offsetMs: number): VariantOptions => ({ store: new MemoryStore({ now: () => new Date(Date.now() + offsetMs) }) });
const w = (wrap: Wrap): VariantOptions => ({ wrap });

/** Objects (not lists) inside metadata come back as JSON text. */
function stringifyNested(md: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(md)) if (v !== null && typeof v === 'object' && !Array.isArray(v)) md[k] = JSON.stringify(v);
}

/** A deep copy by assignment, as naive JavaScript servers do: `out["__proto__"] = v` sets the prototype. */
function plainCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainCopy);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = plainCopy(x);
  return out;
}

function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null).map(([k, x]) => [k, dropNulls(x)]));
  return v;
}

// ------------------------------------------------------------------ valid variants (other allowed choices)

const TIME_FIELDS = new Set(['timestamp', 'created_at', 'updated_at', 'started_at', 'completed_at']);

/** Rewrites every answer body with `edit(key, value)` applied to every object field, deeply. */
const everyField = (edit: (key: string, value: unknown) => unknown): Wrap => {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, edit(k, walk(x))]));
    return v;
  };
  return mapAnswers(walk);
};

/** get_conversation with a limit keeps the oldest `limit` messages (the reference keeps the newest). */
const firstN: Wrap = (next) => async (m, body: any) => {
  if (m !== 'get_conversation' || body?.limit == null) return next(m, body);
  const { limit, ...rest } = body;
  const res = await next(m, rest);
  if (res.status !== 200) return res;
  const conv = res.body as Conv;
  return { ...res, body: { ...conv, messages: conv.messages.slice(0, limit) } };
};

/** Optional fields left out instead of null (metadata values untouched). */
const OPTIONAL = new Set(['title', 'updated_at', 'embedding', 'subtype', 'description', 'canonical_name', 'context']);
const omitNullOptionals: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  const strip = (o: any) => o && typeof o === 'object' && !Array.isArray(o)
    ? Object.fromEntries(Object.entries(o).filter(([k, v]) => !(OPTIONAL.has(k) && v === null)))
    : o;
  const b: any = strip(res.body);
  if (b && Array.isArray(b.messages)) b.messages = b.messages.map(strip);
  return res.body === undefined ? res : { ...res, body: b };
};

export const VALID: ValidRow[] = [
  ['limit keeps the first N messages', w(firstN)],
  ['timestamps in +00:00 form with microseconds', w(everyField((k, v) => (TIME_FIELDS.has(k) && typeof v === 'string' ? v.replace(/(\.\d{3})Z$/, '$1417+00:00') : v)))],
  ['timestamps in +02:00 form without fractions', w(everyField((k, v) => {
    if (!TIME_FIELDS.has(k) || typeof v !== 'string') return v;
    const d = new Date(Date.parse(v) + 2 * 3_600_000);
    return `${d.toISOString().slice(0, 19)}+02:00`;
  }))],
  ['optional fields omitted instead of null', w(omitNullOptionals)],
  ['a title, embeddings on read and extra fields', w(compose(
    mapResponse('get_conversation', (c: Conv) => ({ ...c, title: 'A chat', tenant: 'acme' })),
    onRead((m) => void Object.assign(m, { embedding: [0.1, 0.2], score: null })),
  ))],
  ['uppercase UUIDs', w(compose(
    everyField((k, v) => (k === 'id' && typeof v === 'string' ? v.toUpperCase() : v)),
    mapRequest('delete_message', (b) => ({ ...b, message_id: String(b.message_id).toLowerCase() })),
  ))],
  ['a fresh conversation id for every read of an unknown session', w(mapResponse('get_conversation', (c: Conv) => (c.messages.length ? c : { ...c, id: randomUUID() })))],
  ['the server clock is two minutes ahead', clock(120_000)],
];

export const FAULTS: FaultRow[] = [
  // Volume 1: conversations and messages
  ['SCN-B-001', 'get_conversation finds no messages', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, messages: [] }))), /get_conversation\(session_id="tck-b001"\) after the first add_message: messages: expected 1/],
  ['SCN-B-001', 'the conversation names another session', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, session_id: 'default' }))), /get_conversation\(session_id="tck-b001"\): session_id of the conversation: expected "tck-b001"/],
  ['SCN-B-002', 'each message starts a new conversation (only the last one is kept)', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, messages: c.messages.slice(-1) }))), /get_conversation\(session_id="tck-b002"\) after two add_message: messages/],
  ['SCN-B-002', 'the conversation id changes with every message', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: randomUUID() }))), /after a second add_message: conversation id \(the existing conversation\)/],
  ['SCN-B-003', 'get_conversation returns the messages of every session', w(leakAllSessions), /get_conversation\(session_id="tck-b003-a"\): only the message of session a/],
  ['SCN-B-004', 'delete_message answers deleted: true but keeps the message', w((next) => (m, b) => (m === 'delete_message' ? { status: 200, body: { deleted: true } } : next(m, b))), /get_conversation\(session_id="tck-b004"\) after delete_message: the deleted message must not be returned/],
  ['SCN-B-005', 'the conversation id is the session id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: `conv-${c.session_id}` }))), /get_conversation: response does not match the data model[\s\S]*id: "conv-tck-b005" is not a UUID/],
  ['SCN-B-006', 'created_at is the time of each read', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, created_at: new Date().toISOString() }))), /get_conversation\(session_id="tck-b006"\): created_at must stay the creation time/],
  ['SCN-B-006', 'created_at is a fixed date in 2001', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, created_at: '2001-01-01T00:00:00Z' }))), /created_at of a conversation created by add_message: expected a time within 5 minutes of the kit's clock/],
  ['SCN-B-007', 'title is a number', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, title: 42 }))), /get_conversation: response does not match the data model[\s\S]*title/],
  ['SCN-B-008', 'every read answers a new conversation id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: randomUUID() }))), /get_conversation\(session_id="tck-b008"\) called three times .*conversation id must not change/],
  ['SCN-B-009', 'all sessions share one conversation id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: FIXED_ID }))), /get_conversation of sessions tck-b009-a, tck-b009-b, tck-b009-c: conversation ids must be distinct/],
  ['SCN-B-010', 'deleting a message also drops the next one', w(deleteAlsoNext), /get_conversation\(session_id="tck-b010"\) after deleting m2: remaining messages .*expected \["m1","m3","m4"\], got \["m1","m4"\]/],
  ['SCN-B-010', 'deleting a message re-stamps the others', w(restampAfterDelete), /get_conversation\(session_id="tck-b010"\) after deleting m2: the other messages must be unchanged/],
  ['SCN-B-011', 'add_message answers an id the store does not know', w(onAdd((m) => void (m.id = randomUUID()))), /get_conversation\(session_id="tck-b011"\): the ids add_message returned/],
  ['SCN-B-011', 'add_message answers the same id every time', w(onAdd((m) => void (m.id = FIXED_ID))), /add_message called twice: message ids must be distinct/],
  ['SCN-B-012', 'add_message answers role "user" whatever was sent', w(onAdd((m) => void (m.role = 'user'))), /add_message\(role="system"\): role: expected "system", got "user"/],
  ['SCN-B-013', 'content is trimmed', w(storeContent((c) => c.trim())), /add_message\(content="  Hello world  \\n"\): content must be returned unchanged/],
  ['SCN-B-014', 'timestamp is epoch seconds', w(onAdd((m) => void ((m as any).timestamp = 1700000000))), /add_message: response does not match the data model[\s\S]*timestamp/],
  ['SCN-B-101', 'get_conversation stamps messages with the time of the read', w(onRead((m) => void (m.timestamp = new Date().toISOString()))), /get_conversation\(session_id="tck-b101"\) \(first read\): message 1 timestamp .* is not its creation time returned by add_message/],

  // Volume 1: entities, preferences, facts
  ['SCN-B-015', 'created_at is missing', w(mapResponse('add_entity', ({ created_at, ...e }: any) => e)), /add_entity: response does not match the data model[\s\S]*created_at: is missing/],
  ['SCN-B-015', 'the name is lowercased', w(mapResponse('add_entity', (e: any) => ({ ...e, name: e.name.toLowerCase() }))), /add_entity\(name="Ada Lovelace"\): name: expected "Ada Lovelace", got "ada lovelace"/],
  ['SCN-B-016', 'entity ids are not UUIDs', w(mapResponse('add_entity', (e: any) => ({ ...e, id: 'ent-1' }))), /add_entity: response does not match the data model[\s\S]*id: "ent-1" is not a UUID/],
  ['SCN-B-016', 'every entity gets the same id', w(mapResponse('add_entity', (e: any) => ({ ...e, id: FIXED_ID }))), /add_entity called twice: entity ids must be distinct/],
  ...(['SCN-B-017', 'SCN-B-018', 'SCN-B-019', 'SCN-B-020', 'SCN-B-021'] as const).map((id, i): FaultRow => {
    const type = ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT', 'OBJECT'][i]!;
    return [id, `${type} is stored as ${ROTATE[type]}`, w(mapRequest('add_entity', (b) => ({ ...b, entity_type: ROTATE[b.entity_type] }))), new RegExp(`add_entity\\(name=".+", entity_type="${type}"\\): type: expected "${type}", got "${ROTATE[type]}"`)];
  }),
  ['SCN-B-022', 'created_at is a fixed date in 1999', w(mapResponse('add_entity', (e: any) => ({ ...e, created_at: '1999-12-31T23:59:59Z' }))), /add_entity: created_at: expected a time within 5 minutes of the kit's clock/],
  ['SCN-B-023', 'category and preference are swapped', w(mapResponse('add_preference', (p: any) => ({ ...p, category: p.preference, preference: p.category }))), /add_preference\(category="language"\): category/],
  ['SCN-B-024', 'preference ids are not UUIDs', w(mapResponse('add_preference', (p: any) => ({ ...p, id: 'pref-1' }))), /add_preference: response does not match the data model[\s\S]*id: "pref-1" is not a UUID/],
  ['SCN-B-024', 'every preference gets the same id', w(mapResponse('add_preference', (p: any) => ({ ...p, id: FIXED_ID }))), /add_preference called twice: preference ids must be distinct/],
  ['SCN-B-025', 'the object is answered as obj', w(mapResponse('add_fact', ({ object, ...f }: any) => ({ ...f, obj: object }))), /add_fact: response does not match the data model[\s\S]*object: is missing/],
  ['SCN-B-025', 'the predicate is lowercased', w(mapResponse('add_fact', (f: any) => ({ ...f, predicate: f.predicate.toLowerCase() }))), /add_fact\(subject="Alice", predicate="WORKS_AT", obj="Acme Corp"\): subject, predicate and object/],
  ['SCN-B-026', 'every fact gets the same id', w(mapResponse('add_fact', (f: any) => ({ ...f, id: FIXED_ID }))), /add_fact called twice: fact ids must be distinct/],

  // add_message
  ['SCN-B-027', 'the message is wrapped in {"message": …}', w(mapResponse('add_message', (m: Msg) => ({ message: m }))), /add_message: response does not match the data model[\s\S]*id: is missing/],
  ['SCN-B-027', 'the timestamp is a day old', w(onAdd((m) => void (m.timestamp = new Date(Date.now() - 86_400_000).toISOString()))), /add_message: timestamp: expected a time within 5 minutes of the kit's clock/],
  ...([['SCN-B-028', 'user'], ['SCN-B-029', 'assistant'], ['SCN-B-030', 'system']] as const).map(([id, role]): FaultRow =>
    [id, `role "${role}" is rejected`, w(reject('add_message', (b) => b.role === role, `unsupported role: ${role}`)), new RegExp(`add_message: expected success, got 400 \\{"error": "unsupported role: ${role}"\\}`)]),
  ['SCN-B-029', 'the read path turns assistant into user', w(onRead((m) => void (m.role = m.role === 'assistant' ? 'user' : m.role))), /get_conversation\(session_id="tck-b029"\) after add_message\(role="assistant"\): the message read back: role/],
  ['SCN-B-031', 'metadata values are stored as strings', w(storeMetadata((md) => Object.fromEntries(Object.entries(md ?? {}).map(([k, v]) => [k, String(v)])))), /add_message\(metadata=\{source, priority, score, urgent, tags\}\): returned metadata \(metadata\.score: expected 0\.5, got "0\.5"\)/],
  ['SCN-B-031', 'the read path drops metadata', w(onRead((m) => void (m.metadata = {}))), /get_conversation\(session_id="tck-b031"\) after add_message\(metadata=.*\): the message read back: metadata \(metadata\.source missing\)/],
  ['SCN-B-032', 'all sessions share one conversation', w(compose(leakAllSessions, mapResponse('get_conversation', (c: Conv) => ({ ...c, id: FIXED_ID })))), /get_conversation\(session_id="tck-b032-new"\) after its first add_message: messages/],
  ['SCN-B-032', 'all sessions share one conversation id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: FIXED_ID }))), /get_conversation\(session_id="tck-b032-new"\): conversation id \(another session already has this id\)/],
  ['SCN-B-033', 'empty content is rejected', w(reject('add_message', (b) => b.content === '', 'content must not be empty')), /add_message: expected success, got 400 \{"error": "content must not be empty"\}/],
  ['SCN-B-034', 'content is cut at 10 000 characters', w(storeContent((c) => c.slice(0, 10_000))), /add_message\(content=LONG_CONTENT \(12000 chars\)\): returned content \(expected 12000 chars, got 10000; first difference at char 10000/],
  ['SCN-B-034', 'the read path cuts content at 10 000 characters', w(onRead((m) => void (m.content = m.content.slice(0, 10_000)))), /get_conversation\(session_id="tck-b034"\) after add_message\(content=LONG_CONTENT \(12000 chars\)\): the message read back: content \(expected 12000 chars, got 10000/],
  ['SCN-B-035', 'content is NFC-normalised', w(storeContent((c) => c.normalize('NFC'))), /add_message\(content=UNICODE_CONTENT .*\): returned content \(expected \d+ chars, got \d+; first difference at char/],
  ['SCN-B-035', 'characters outside the BMP are replaced', w(storeContent((c) => c.replace(/[\u{10000}-\u{10FFFF}]/gu, '?'))), /add_message\(content=UNICODE_CONTENT .*\): returned content/],
  ['SCN-B-036', 'CRLF is stored as LF', w(storeContent((c) => c.replace(/\r\n/g, '\n'))), /add_message\(content=SPECIAL_CONTENT .*\): returned content \(expected \d+ chars, got \d+; first difference at char 17: expected "\\r\\n\\ttabbed/],
  ['SCN-B-036', 'control characters are stripped', w(storeContent((c) => c.replace(/[\u0001\u001f\u007f]/g, ''))), /add_message\(content=SPECIAL_CONTENT .*\): returned content/],
  ['SCN-B-142', 'metadata copied key by key into a plain object (loses "__proto__")', w(storeMetadata((md) => plainCopy(md))),
    /add_message\(metadata with "__proto__", "constructor", "prototype", "hasOwnProperty" keys\): returned metadata/],
  ['SCN-B-037', 'empty metadata is rejected', w(reject('add_message', (b) => b.metadata && Object.keys(b.metadata).length === 0, 'metadata must not be empty')), /add_message: expected success, got 400 \{"error": "metadata must not be empty"\}/],
  ['SCN-B-037', 'empty metadata is stored as null', w(onAdd((m) => void ((m as any).metadata = null))), /add_message: response does not match the data model[\s\S]*metadata/],
  ['SCN-B-038', 'null values are dropped from metadata', w(storeMetadata(dropNulls)), /add_message\(metadata=NESTED_METADATA\): returned metadata \(metadata\.nothing missing\)/],
  ['SCN-B-038', 'the read path turns nested objects into JSON text', w(onRead((m) => stringifyNested(m.metadata))), /get_conversation\(session_id="tck-b038"\) after add_message\(metadata=NESTED_METADATA\): the message read back: metadata \(metadata\.nested: expected/],
  ['SCN-B-039', 'missing metadata is answered as null', w(onAdd((m) => void ((m as any).metadata = null))), /add_message: response does not match the data model[\s\S]*metadata: expected a JSON object, got null/],
  ['SCN-B-039', 'missing metadata defaults to {"source": "api"}', w(storeMetadata((md) => md ?? { source: 'api' })), /add_message\(no metadata\): returned metadata \(metadata\.source not expected\)/],
  ['SCN-B-040', 'every message gets the same id', w(onAdd((m) => void (m.id = FIXED_ID))), /add_message called six times: message ids must be distinct/],
  ['SCN-B-040', 'message ids are not UUIDs', w(onAdd((m) => void (m.id = `msg-${m.content}`))), /add_message: response does not match the data model[\s\S]*id: "msg-one" is not a UUID/],
  ['SCN-B-041', 'the server clock is one hour ahead', clock(3_600_000), /add_message: timestamp: expected a time within 5 minutes of the kit's clock/],
  ['SCN-B-041', 'the server clock is ten minutes behind', clock(-600_000), /add_message: timestamp: expected a time within 5 minutes of the kit's clock/],
  ['SCN-B-042', 'get_conversation returns at most 30 messages by default', w(unlimitedRead((ms) => ms.slice(0, 30))), /get_conversation\(session_id="tck-b042"\) after 50 add_message: all messages in the order sent \(expected 50 messages, got 30\)/],
  ['SCN-B-042', 'messages are ordered by id', w(unlimitedRead(byId)), /get_conversation\(session_id="tck-b042"\) after 50 add_message: all messages in the order sent \(first difference at position/],

  // get_conversation
  ['SCN-B-043', 'messages come newest first', w(unlimitedRead((ms) => ms.reverse())), /get_conversation\(session_id="tck-b043"\): messages in insertion order \(first difference at position 1: expected m1, got m5\)/],
  ['SCN-B-044', 'limit is ignored', w(mapRequest('get_conversation', ({ limit, ...b }) => b)), /get_conversation\(session_id="tck-b044", limit=2\) on 5 messages: expected 2 messages, got 5/],
  ['SCN-B-044', 'a limited read comes newest first', w(mapResponse('get_conversation', (c: Conv, req) => (req.limit != null ? { ...c, messages: c.messages.reverse() } : c))), /get_conversation\(session_id="tck-b044", limit=2\): messages in the order they were added \(\["m1","m2","m3","m4","m5"\]\), got \["m5","m4"\]/],
  ['SCN-B-044', 'limit counts messages of every session', w(compose(mapResponse('get_conversation', (c: Conv, req) => (req.limit != null ? { ...c, messages: c.messages.slice(-req.limit) } : c)), leakAllSessions)), /get_conversation\(session_id="tck-b044", limit=2\): messages of session "tck-b044" only, got \["x2","x3"\]: x2 is not a message of that session/],
  ['SCN-B-045', 'an unknown session is a 400', w(reject('get_conversation', (b) => b.session_id.endsWith('nonexistent'), 'session not found')), /get_conversation: expected success, got 400 \{"error": "session not found"\}/],
  ['SCN-B-045', 'an unknown session is null', w(mapResponse('get_conversation', (c: Conv) => (c.messages.length ? c : null))), /get_conversation: a JSON object expected, got null/, 'error'],
  ['SCN-B-045', 'an unknown session falls back to another session', w(fallbackToOtherSession), /get_conversation\(session_id="tck-b045-nonexistent"\) of a session without messages: messages: message "Somebody else" \([0-9a-f]{8}…\) belongs to session "tck-b045-other", not "tck-b045-nonexistent"/],
  ['SCN-B-046', 'session ids are matched by prefix', w(matchByPrefix), /get_conversation\(session_id="tck-b046-s1"\): only its own messages .*got \[.*"b1".*\]/],
  ['SCN-B-047', 'a limit above the count returns nothing', w(mapResponse('get_conversation', (c: Conv, req) => (req.limit != null && req.limit > c.messages.length ? { ...c, messages: [] } : c))), /get_conversation\(session_id="tck-b047", limit=100\) on 3 messages: all of them, in order \(expected 3 messages, got 0\)/],
  ['SCN-B-048', 'limit is off by one', w(mapRequest('get_conversation', (b) => (b.limit != null ? { ...b, limit: b.limit + 1 } : b))), /get_conversation\(session_id="tck-b048", limit=1\) on 5 messages: expected 1 message, got 2/],
  ['SCN-B-049', 'the read path strips control characters', w(onRead((m) => void (m.content = m.content.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')))), /get_conversation\(session_id="tck-b049"\): message with SPECIAL_CONTENT: content \(expected \d+ chars, got \d+/],
  ['SCN-B-049', 'the read path drops empty content', w(onRead((m) => void (m.content === '' && ((m as any).content = null)))), /get_conversation: response does not match the data model[\s\S]*messages\[3\]\.content/],
  ['SCN-B-050', 'the read path turns nested objects into JSON text', w(onRead((m) => stringifyNested(m.metadata))), /get_conversation\(session_id="tck-b050"\): message with NESTED_METADATA: metadata \(metadata\.nested: expected/],
  ['SCN-B-050', 'the read path loses numbers in metadata', w(onRead((m) => void ('num' in m.metadata && (m.metadata['num'] = String(m.metadata['num']))))), /get_conversation\(session_id="tck-b050"\): message with \{key, num\}: metadata \(metadata\.num: expected 99, got "99"\)/],
  ['SCN-B-051', 'the read path turns system into user', w(onRead((m) => void (m.role = m.role === 'system' ? 'user' : m.role))), /get_conversation\(session_id="tck-b051"\): roles in order: expected \["system","user","assistant","user"\], got \["user","user","assistant","user"\]/],
  ['SCN-B-052', 'get_conversation returns at most 20 messages by default', w(unlimitedRead((ms) => ms.slice(0, 20))), /get_conversation\(session_id="tck-b052"\) after 25 add_message: all messages in the order sent \(expected 25 messages, got 20\)/],
  ['SCN-B-052', 'messages are ordered by id', w(unlimitedRead(byId)), /get_conversation\(session_id="tck-b052"\) after 25 add_message: all messages in the order sent \(first difference at position/],
  ['SCN-B-053', 'the conversation id is the session id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: c.session_id }))), /get_conversation: response does not match the data model[\s\S]*id: "tck-b053" is not a UUID/],
  ['SCN-B-053', 'a limited read answers another conversation id', w(mapResponse('get_conversation', (c: Conv, req) => (req.limit != null ? { ...c, id: randomUUID() } : c))), /get_conversation\(session_id="tck-b053", limit=1\): conversation id \(same as without limit\)/],
  ['SCN-B-054', 'get_conversation returns the messages of every session', w(leakAllSessions), /get_conversation\(session_id="tck-b054-a"\): only its own messages, in order/],
  ['SCN-B-054', 'all sessions share one conversation id', w(mapResponse('get_conversation', (c: Conv) => ({ ...c, id: FIXED_ID }))), /get_conversation of tck-b054-a, -b, -c: conversation ids must be distinct/],
  ['SCN-B-102', 'spaces in session ids become underscores', w(compose(...['add_message', 'get_conversation'].map((m) => mapRequest(m, (b) => ({ ...b, session_id: b.session_id.replace(/ /g, '_') }))))), /get_conversation\(session_id="projects\/α β\/42"\): session_id: expected "projects\/α β\/42", got "projects\/α_β\/42"/],
  ['SCN-B-102', 'session ids are matched by prefix', w(matchByPrefix), /get_conversation\(session_id="projects\/α β"\): only its own message/],
];

