// The variants that prove the power of the Bronze scenarios SCN-B-055 … SCN-B-093 and the
// protocol-shape scenarios SCN-B-120 … SCN-B-135 (../bronze-b.test.ts): faulty variants, each
// breaking exactly the rule one scenario checks, and valid variants making other allowed choices.
import { createHash } from 'node:crypto';
import { MemoryStore, type Params } from '../../../src/servers/bridge/index.js';
import { METHODS, isMethodName } from '../../../src/protocols/bridge/index.js';
import { compose, mapRequest, mapResponse, type Dispatch, type VariantOptions, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';

 

type Msg = { id: string; role: string; content: string; timestamp: string; metadata: Record<string, unknown> };
type Info = { session_id: string; message_count: number; created_at: string | null };

// ------------------------------------------------------------------ building blocks

/** A hand-written wrap with its own state per variant server: `make` runs once per server. */
const stateful = (make: (next: Dispatch, store: MemoryStore) => (method: string, body: any) => ReturnType<Dispatch>): Wrap =>
  (next, store) => make(next, store);

/** Answers `method` with `answer(request, next)` instead of the reference. */
export const replace = (method: string, answer: (body: any, next: Dispatch) => ReturnType<Dispatch>): Wrap =>
  (next) => (m, body) => (m === method ? answer(body, next) : next(m, body));

/** The same as `wrap` for every call of `method` but the first (the runner's own call). */
const afterFirst = (method: string, wrap: Wrap): Wrap => (next, store) => {
  const faulty = wrap(next, store);
  let seen = 0;
  return (m, body) => (m === method && seen++ === 0 ? next(m, body) : faulty(m, body));
};

export const json = (status: number, body?: unknown) => (body === undefined ? { status } : { status, body });

/** The sessions and their messages, read through the reference. */
export async function sessionsOf(next: Dispatch): Promise<Info[]> {
  return (await next('list_sessions', {})).body as Info[];
}
export async function messagesOf(next: Dispatch, session_id: string): Promise<Msg[]> {
  return ((await next('get_conversation', { session_id })).body as { messages: Msg[] }).messages;
}

/** Edits get_conversation's message list. */
const onRead = (edit: (messages: Msg[]) => Msg[]): Wrap =>
  mapResponse('get_conversation', (c) => ({ ...c, messages: edit(c.messages) }));

/** Edits list_sessions entries. */
const onList = (edit: (list: Info[]) => unknown): Wrap => mapResponse('list_sessions', (l) => edit(l));

/** A Message that validates but was never stored. */
const CANNED: Msg = { id: '11111111-2222-4333-8444-555555555555', role: 'system', content: 'Welcome! Ask me anything.', timestamp: '2024-01-01T00:00:00.000Z', metadata: {} };

/**
 * delete_message with a broken message chain: `extra(ids, i)` names messages of the same session
 * that also go when the i-th of `ids` is deleted; 'keep' answers {"deleted": true} and keeps it.
 */
const brokenChain = (extra: (ids: string[], i: number) => string[] | 'keep'): Wrap =>
  stateful((next) => {
    const sessionOf = new Map<string, string>();
    return async (m, body) => {
      if (m === 'delete_message' && sessionOf.has(body.message_id)) {
        const ids = (await messagesOf(next, sessionOf.get(body.message_id)!)).map((x) => x.id);
        const i = ids.indexOf(body.message_id);
        if (i >= 0) {
          const also = extra(ids, i);
          if (also === 'keep') return json(200, { deleted: true });
          for (const id of also) await next('delete_message', { message_id: id });
        }
      }
      const res = await next(m, body);
      if (m === 'add_message' && res.status === 200) sessionOf.set((res.body as Msg).id, body.session_id);
      return res;
    };
  });

/** Deleting fills the hole with the session's last message (swap-remove): order changes. */
const swapRemove: Wrap = stateful((next) => {
  const sessionOf = new Map<string, string>();
  const order = new Map<string, string[]>();
  return async (m, body) => {
    if (m === 'delete_message' && sessionOf.has(body.message_id)) {
      const s = sessionOf.get(body.message_id)!;
      const ids = order.get(s) ?? (await messagesOf(next, s)).map((x) => x.id);
      const i = ids.indexOf(body.message_id);
      if (i >= 0) {
        ids[i] = ids[ids.length - 1]!;
        ids.pop();
        order.set(s, ids);
      }
    }
    const res = await next(m, body);
    if (res.status !== 200) return res;
    if (m === 'add_message') {
      sessionOf.set((res.body as Msg).id, body.session_id);
      order.get(body.session_id)?.push((res.body as Msg).id);
    }
    const ids = m === 'get_conversation' ? order.get(body.session_id) : undefined;
    if (ids) (res.body as { messages: Msg[] }).messages.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    return res;
  };
});

/** search_messages without session_id looks only at the first listed session. */
const firstSessionOnly: Wrap = (next) => async (m, body: any) => {
  if (m !== 'search_messages' || body.session_id != null) return next(m, body);
  const [first] = await sessionsOf(next);
  return first ? next(m, { ...body, session_id: first.session_id }) : next(m, body);
};

/** search_messages applies the limit over all sessions, then the session filter. */
const filterAfterLimit: Wrap = (next) => async (m, body: any) => {
  if (m !== 'search_messages' || body.session_id == null) return next(m, body);
  const { session_id, ...rest } = body;
  const res = await next(m, rest);
  const mine = new Set((await messagesOf(next, session_id)).map((x) => x.id));
  return { ...res, body: (res.body as Msg[]).filter((x) => mine.has(x.id)) };
};

/** search_messages ignores query and threshold: every stored message, cut to limit. */
const searchEverything: Wrap = (next) => async (m, body: any) => {
  if (m !== 'search_messages') return next(m, body);
  const all: Msg[] = [];
  for (const s of await sessionsOf(next)) all.push(...(await messagesOf(next, s.session_id)));
  return json(200, body.limit == null ? all : all.slice(0, body.limit));
};

/** list_sessions counts what add_message added, ignoring deletions. */
const countIgnoresDeletes: Wrap = stateful((next) => {
  const added = new Map<string, number>();
  return async (m, body) => {
    const res = await next(m, body);
    if (m === 'add_message' && res.status === 200) added.set(body.session_id, (added.get(body.session_id) ?? 0) + 1);
    if (m === 'list_sessions' && res.status === 200) {
      for (const s of res.body as Info[]) s.message_count = added.get(s.session_id) ?? s.message_count;
    }
    return res;
  };
});

/** list_sessions counts only the user messages of a session. */
const countUsersOnly: Wrap = (next) => async (m, body) => {
  const res = await next(m, body);
  if (m !== 'list_sessions' || res.status !== 200) return res;
  for (const s of res.body as Info[]) s.message_count = (await messagesOf(next, s.session_id)).filter((x) => x.role === 'user').length;
  return res;
};

/** clear_session answers 400 for a session it does not know (also after clearing it). */
const clearUnknown400: Wrap = (next) => async (m, body: any) => {
  if (m === 'clear_session' && !(await sessionsOf(next)).some((s) => s.session_id === body.session_id)) {
    return json(400, { error: `session_id: no session ${body.session_id}` });
  }
  return next(m, body);
};

/** A cleared session stays empty to get_conversation (a tombstone never lifted). */
const tombstone: Wrap = stateful((next) => {
  const cleared = new Set<string>();
  return async (m, body) => {
    if (m === 'clear_session') cleared.add(body.session_id);
    const res = await next(m, body);
    if (m === 'get_conversation' && cleared.has(body.session_id) && res.status === 200) return { ...res, body: { ...(res.body as object), messages: [] } };
    return res;
  };
});

/** clear_session also clears every session listed after it. */
const clearTail: Wrap = (next) => async (m, body: any) => {
  if (m !== 'clear_session') return next(m, body);
  const ids = (await sessionsOf(next)).map((s) => s.session_id);
  const i = ids.indexOf(body.session_id);
  if (i >= 0) for (const s of ids.slice(i + 1)) await next('clear_session', { session_id: s });
  return next(m, body);
};

/** add_message answers the first message of the same session and content (deduplication). */
const dedupe: Wrap = stateful((next) => {
  const seen = new Map<string, Msg>();
  return async (m, body) => {
    if (m !== 'add_message') return next(m, body);
    const key = `${body.session_id}\u0000${body.content}`;
    const known = seen.get(key);
    if (known) return json(200, known);
    const res = await next(m, body);
    if (res.status === 200) seen.set(key, res.body as Msg);
    return res;
  };
});

/** A UUID made from a hash of the text: the same text gives the same id. */
function hashId(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Timestamps that go back in time along the conversation. */
const timestampsBackwards = onRead((ms) => ms.map((x, i) => ({ ...x, timestamp: new Date(Date.UTC(2024, 0, 1, 12) - i * 1000).toISOString() })));

/**
 * Allowed: each message at a later instant than the one before, written in a different zone
 * (+10:00, +09:00, …) with microseconds, so that the strings sort backwards.
 */
const timestampsInZones = onRead((ms) =>
  ms.map((x, i) => {
    const offsetH = 10 - (i % 10);
    const local = new Date(Date.UTC(2024, 0, 1, 0) + i * 60_000 + offsetH * 3_600_000);
    return { ...x, timestamp: `${local.toISOString().slice(0, 19)}.123456+${String(offsetH).padStart(2, '0')}:00` };
  }),
);

/** clear_all_data clears sessions only: entities and traces stay. */
class KeepsSilver extends MemoryStore {
  override clear_all_data(_p: Params<'clear_all_data'>): void {
    for (const s of this.list_sessions({})) this.clear_session({ session_id: s.session_id });
  }
}

/** A Bronze-only target: every Silver and Gold method answers 404. */
export const bronzeOnly: Wrap = (next) => (m, body) =>
  isMethodName(m) && (METHODS[m].tier === 'silver' || METHODS[m].tier === 'gold') ? json(404, { error: `unknown method: ${m}` }) : next(m, body);

/**
 * A Bronze-only target that refuses every Silver and Gold method with a well-formed error (500
 * {"error": …}) instead of a 404: what the established repository's Go and R conformance servers do
 * for methods their hosted client cannot reach (docs/third-party.md). A failed call may answer 400
 * or 500 with {"error": string} (bridge-protocol.md, "Errors" 1), and Bronze needs no Silver method.
 */
export const bronzeOnlyRefusing: Wrap = (next) => (m, body) =>
  isMethodName(m) && (METHODS[m].tier === 'silver' || METHODS[m].tier === 'gold') ? json(500, { error: `method "${m}" has no equivalent here` }) : next(m, body);

/** A session whose messages are all deleted is no longer listed. */
const emptySessionsUnlisted = onList((l) => l.filter((s) => s.message_count > 0));

/** Answers 400 with `body` instead of {"error": string}. */
const badErrorBody = (method: string, body: unknown): Wrap => (next) => async (m, b) => {
  const res = await next(m, b);
  return m === method && res.status === 400 ? json(400, body) : res;
};

/** `method` with `bad(request)` first performs `doFirst`, then answers 400 anyway. */
export const failAfterWriting = (method: string, bad: (b: any) => boolean, doFirst: (b: any, next: Dispatch) => ReturnType<Dispatch>): Wrap =>
  (next) => async (m, b: any) => {
    if (m !== method || !bad(b)) return next(m, b);
    await doFirst(b, next);
    return json(400, { error: 'invalid request' });
  };

export const ROLES = ['user', 'assistant', 'system'];

/** delete_message answers 400 where the reference answers {"deleted": false}. */
const notFound400: Wrap = (next) => async (m, b) => {
  const res = await next(m, b);
  return m === 'delete_message' && (res.body as any)?.deleted === false ? json(400, { error: 'message_id: no such message' }) : res;
};

/** A lookup that finds nothing answers 404 {"error": "not found"} instead of 200 null. */
export const nullAs404 = (method: string): Wrap => (next) => async (m, b) => {
  const res = await next(m, b);
  return m === method && res.status === 200 && res.body === null ? json(404, { error: 'not found' }) : res;
};

// ------------------------------------------------------------------ the faults

export const w = (wrap: Wrap): VariantOptions => ({ wrap });

export const FAULTS: FaultRow[] = [
  // search_messages
  ['SCN-B-055', 'search_messages finds nothing', w(mapResponse('search_messages', () => [])), /search_messages\(query="My favourite recipe is a spicy lentil soup", limit=10, threshold=0\): the message whose content is the query \(id [0-9a-f-]+\) must be found/],
  ['SCN-B-055', 'search_messages returns messages that were never stored', w(mapResponse('search_messages', () => [CANNED])), /search_messages\(.*\): result "11111111-2222-4333-8444-555555555555" is none of the messages stored/],
  ['SCN-B-056', 'search_messages ignores session_id', w(mapRequest('search_messages', ({ session_id: _s, ...rest }) => rest)), /search_messages\(query="Graph databases store nodes and relationships", session_id="search-filter-a", limit=10, threshold=0\): every result must belong to session "search-filter-a": message "Graph databases store nodes and relationships" \([0-9a-f]{8}…\) belongs to session "search-filter-b", not "search-filter-a"/],
  ['SCN-B-056', 'search_messages applies limit before the session filter', w(filterAfterLimit), /search_messages\(.*session_id="search-filter-a", limit=1, threshold=0\): session "search-filter-a" holds a message that shares the query's words: expected at least one item/],
  ['SCN-B-057', 'search_messages ignores limit', w(mapRequest('search_messages', ({ limit: _l, ...rest }) => rest)), /search_messages\(query="Test message number", limit=2, threshold=0\): limit 2: expected at most 2 item\(s\), got 6/],
  ['SCN-B-057', 'search_messages answers [] when a limit is given', w(mapResponse('search_messages', (l, req) => (req.limit == null ? l : []))), /search_messages\(query="Test message number", limit=2, threshold=0\): more than 2 stored messages match: expected at least one item/],
  ['SCN-B-058', 'search_messages ignores query and threshold', w(searchEverything), /search_messages\(query="xylophone quasar zeppelin", limit=10, threshold=0.99\): nothing stored matches the query: expected \[\], got 8 item/],
  ['SCN-B-059', 'search_messages returns limit + 1 results', w(mapRequest('search_messages', (b) => ({ ...b, limit: b.limit + 1 }))), /search_messages\(query="Searchable content", limit=1, threshold=0\): limit 1: expected at most 1 item\(s\), got 2/],
  ['SCN-B-060', 'search_messages on an empty store answers a canned greeting', w(mapResponse('search_messages', (l) => (l.length ? l : [CANNED]))), /search_messages\(query="The weather in Paris is sunny and warm today", limit=10, threshold=0\) on an empty store: expected \[\], got 1 item/],
  ['SCN-B-060', 'clear_all_data leaves the messages', w(afterFirst('clear_all_data', replace('clear_all_data', () => json(204)))), /search_messages\(query="The weather in Paris is sunny and warm today", limit=10, threshold=0\) after clear_all_data: expected \[\]/],
  ['SCN-B-061', 'search_messages without session_id searches the first session only', w(firstSessionOnly), /search_messages\(query="weather Paris", limit=10, threshold=0\): the weather message of session "search-across-1" .* must be found/],

  // list_sessions
  ['SCN-B-062', 'list_sessions leaves out the last session', w(onList((l) => l.slice(0, -1))), /list_sessions\(\): the session ids written to: expected \["sessions-all-a","sessions-all-b","sessions-all-c"\], got \["sessions-all-a","sessions-all-b"\]/],
  ['SCN-B-062', 'list_sessions lists a session twice', w(onList((l) => [...l, l[0]])), /list_sessions\(\): one entry per session: "sessions-all-a" occurs more than once/],
  ['SCN-B-063', 'message_count counts user messages only', w(countUsersOnly), /list_sessions\(\) after 3 and 1 messages: message_count of session "sessions-count-a": expected 3, got 2/],
  ['SCN-B-064', 'list_sessions always shows a "default" session', w(onList((l) => (l.length ? l : [{ session_id: 'default', message_count: 0, created_at: '2024-01-01T00:00:00Z' }]))), /list_sessions\(\) on an empty store: expected \[\], got 1 item/],
  ['SCN-B-064', 'clear_all_data leaves the sessions', w(afterFirst('clear_all_data', replace('clear_all_data', () => json(204)))), /list_sessions\(\) after clear_all_data: expected \[\], got 2 item/],
  ['SCN-B-065', 'list_sessions has one entry per message', w(onList((l) => l.flatMap((s) => Array.from({ length: s.message_count }, () => s)))), /list_sessions\(\): one entry per session: "sessions-solo" occurs more than once/],
  ['SCN-B-065', 'message_count off by one', w(onList((l) => l.map((s) => ({ ...s, message_count: s.message_count + 1 })))), /list_sessions\(\): message_count of session "sessions-solo": expected 2, got 3/],
  ['SCN-B-066', 'list_sessions ignores limit', w(mapRequest('list_sessions', ({ limit: _l, ...rest }) => rest)), /list_sessions\(limit=1\) with 4 sessions: expected 1 item\(s\), got 4/],
  ['SCN-B-066', 'list_sessions returns one fewer than limit', w(mapRequest('list_sessions', (b) => (b.limit == null ? b : { ...b, limit: b.limit - 1 }))), /list_sessions\(limit=1\) with 4 sessions: expected 1 item\(s\), got 0/],
  ['SCN-B-067', 'created_at is null', w(onList((l) => l.map((s) => ({ ...s, created_at: null })))), /list_sessions: response does not match the data model:[\s\S]*created_at/],
  ['SCN-B-067', 'created_at is not a date-time', w(onList((l) => l.map((s) => ({ ...s, created_at: 'yesterday' })))), /list_sessions: response does not match the data model:[\s\S]*created_at: "yesterday" is not an ISO 8601 date-time/],
  ['SCN-B-068', 'message_count ignores deletions', w(countIgnoresDeletes), /list_sessions\(\) after deleting 1 of 3 messages: message_count of session "sessions-delete": expected 2, got 3/],
  ['SCN-B-069', 'every session reports the total message count', w(onList((l) => l.map((s) => ({ ...s, message_count: l.reduce((n, x) => n + x.message_count, 0) })))), /list_sessions\(\) after writing 2, 1 and 3 messages: message_count of session "sessions-counts-a": expected 2, got 6/],

  // delete_message
  ['SCN-B-070', 'delete_message answers deleted: false for a stored message', w(mapResponse('delete_message', () => ({ deleted: false }))), /delete_message\(message_id=[0-9a-f-]+\) of a stored message: deleted: expected true, got false/],
  ['SCN-B-071', 'delete_message answers true but deletes nothing', w(replace('delete_message', () => json(200, { deleted: true }))), /get_conversation\(session_id="delete-gone"\) after deleting the second of 2 messages: expected 1 message\(s\), got 2: contents \["Keep me","Delete me: a unique walrus sentence"\]/],
  ['SCN-B-071', 'a deleted message stays in the search index', w(stateful((next) => {
    const gone = new Map<string, Msg>();
    return async (m, body) => {
      if (m === 'delete_message') {
        for (const s of await sessionsOf(next)) for (const x of await messagesOf(next, s.session_id)) if (x.id === body.message_id) gone.set(x.id, x);
      }
      const res = await next(m, body);
      return m === 'search_messages' && res.status === 200 ? { ...res, body: [...(res.body as Msg[]), ...gone.values()] } : res;
    };
  })), /search_messages\(query="Delete me: a unique walrus sentence"\) after delete_message: the deleted message: unexpected item/],
  ['SCN-B-072', 'delete_message answers deleted: true for any id', w(mapResponse('delete_message', () => ({ deleted: true }))), /delete_message\(message_id=6f1d2c3b-7a8e-4f00-9c1d-00000000dead\) of an id never handed out: deleted: expected false, got true/],
  ['SCN-B-072', 'delete_message answers 400 for an unknown id', w(notFound400), /delete_message: expected success, got 400 \{"error": "message_id: no such message"\}/],
  ['SCN-B-073', 'deleting moves the last message into the hole', w(swapRemove), /get_conversation\(session_id="delete-order"\) after deleting the second of 4 messages: message 1: expected \{"id":"[^"]+","role":"user","content":"Third"\}, got \{"id":"[^"]+","role":"user","content":"Fourth"\}/],
  ['SCN-B-074', 'deleting the first message loses the rest of the chain', w(brokenChain((ids, i) => (i === 0 ? ids.slice(1) : []))), /get_conversation\(session_id="delete-first"\) after deleting the first of 3 messages: expected 2 message\(s\), got 0: contents \[\]/],
  ['SCN-B-075', 'deleting the last message also deletes the one before', w(brokenChain((ids, i) => (i > 0 && i === ids.length - 1 ? [ids[i - 1]!] : []))), /get_conversation\(session_id="delete-last"\) after deleting the third of 3 messages: expected 2 message\(s\), got 1: contents \["First"\]/],
  ['SCN-B-076', 'deleting a middle message cuts the chain after it', w(brokenChain((ids, i) => (i > 0 && i < ids.length - 1 ? ids.slice(i + 1) : []))), /get_conversation\(session_id="delete-middle"\) after deleting the second of 3 messages: expected 2 message\(s\), got 1: contents \["First"\]/],
  ['SCN-B-077', 'the last message of a session cannot be deleted', w(brokenChain((ids) => (ids.length === 1 ? 'keep' : []))), /get_conversation\(session_id="delete-all"\) after deleting all 3 messages: expected 0 message\(s\), got 1: contents \["Three"\]/],
  ['SCN-B-078', 'delete_message always answers deleted: true', w(mapResponse('delete_message', () => ({ deleted: true }))), /delete_message\(message_id=[0-9a-f-]+\) the second time: deleted: expected false, got true/],
  ['SCN-B-078', 'the second delete answers 400', w(notFound400), /delete_message: expected success, got 400 \{"error": "message_id: no such message"\}/],

  // clear_session
  ['SCN-B-079', 'clear_session does nothing', w(replace('clear_session', () => json(204))), /get_conversation\(session_id="clear-all"\) after clear_session: expected 0 message\(s\), got 3: contents \["One kangaroo","Two kangaroos","Three kangaroos"\]/],
  ['SCN-B-080', 'clear_session clears every session', w(replace('clear_session', (_b, next) => next('clear_all_data', {}))), /get_conversation\(session_id="clear-theirs"\) after clear_session\(session_id="clear-mine"\): expected 2 message\(s\), got 0/],
  ['SCN-B-081', 'clear_session of an unknown session answers 400', w(clearUnknown400), /clear_session: expected success, got 400 \{"error": "session_id: no session clear-never-written"\}/],
  ['SCN-B-081', 'clear_session of an unknown session clears everything', w(stateful((next) => async (m, body) => {
    if (m === 'clear_session' && !(await sessionsOf(next)).some((s) => s.session_id === body.session_id)) return next('clear_all_data', {});
    return next(m, body);
  })), /get_conversation\(session_id="clear-unknown-other"\) after clear_session\(session_id="clear-never-written"\): expected 1 message\(s\), got 0/],
  ['SCN-B-082', 'a cleared session never shows messages again', w(tombstone), /get_conversation\(session_id="clear-reuse"\) after clear_session and one new add_message: expected 1 message\(s\), got 0/],
  ['SCN-B-082', 'a cleared session refuses new messages', w(stateful((next) => {
    const cleared = new Set<string>();
    return (m, body) => {
      if (m === 'clear_session') cleared.add(body.session_id);
      if (m === 'add_message' && cleared.has(body.session_id)) return json(400, { error: 'session_id: session was cleared' });
      return next(m, body);
    };
  })), /add_message: expected success, got 400 \{"error": "session_id: session was cleared"\}/],
  ['SCN-B-083', 'clear_session also clears the sessions listed after it', w(clearTail), /get_conversation\(session_id="clear-some-c"\) after clear_session\(session_id="clear-some-b"\): expected 1 message\(s\), got 0/],

  // ordering
  ['SCN-B-084', 'get_conversation lists newest first', w(onRead((ms) => ms.reverse())), /get_conversation\(session_id="order-five"\) after 5 add_message calls: message 0: expected \{"id":"[^"]+","role":"user","content":"First"\}, got \{"id":"[^"]+","role":"user","content":"Fifth"\}/],
  ['SCN-B-085', 'timestamps go back in time', w(timestampsBackwards), /get_conversation\(session_id="order-time"\): timestamp of message 1 \("2024-01-01T11:59:59.000Z"\) is earlier than that of message 0 \("2024-01-01T12:00:00.000Z"\); timestamps must be non-decreasing/],
  ['SCN-B-085', 'timestamps go back by one microsecond', w(onRead((ms) => ms.map((x, i) => ({ ...x, timestamp: `2024-01-01T12:00:00.00000${9 - i}Z` })))), /get_conversation\(session_id="order-time"\): timestamp of message 1 \("2024-01-01T12:00:00.000008Z"\) is earlier than that of message 0/],
  ['SCN-B-086', 'a session of one message reads back empty', w(onRead((ms) => (ms.length === 1 ? [] : ms))), /get_conversation\(session_id="order-solo"\) after 1 add_message: expected 1 message\(s\), got 0/],
  ['SCN-B-087', 'two messages come back swapped', w(onRead((ms) => (ms.length === 2 ? ms.reverse() : ms))), /get_conversation\(session_id="order-two"\) after 2 add_message calls: message 0: expected \{[^}]*"content":"First"\}, got \{[^}]*"content":"Second"\}/],
  ['SCN-B-088', 'deleting a middle message cuts the chain after it', w(brokenChain((ids, i) => (i > 0 && i < ids.length - 1 ? ids.slice(i + 1) : []))), /get_conversation\(session_id="order-chain"\) after deleting the third of 5 messages: expected 4 message\(s\), got 2: contents \["A","B"\]/],
  ['SCN-B-089', 'get_conversation returns at most 50 messages', w(onRead((ms) => ms.slice(0, 50))), /get_conversation\(session_id="order-hundred"\) after 100 add_message calls: expected 100 message\(s\), got 50/],
  ['SCN-B-090', 'get_conversation orders by role, then time', w(onRead((ms) => ms.sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role)))), /get_conversation\(session_id="order-roles"\) after a system, user, assistant, user, assistant sequence: message 0: expected \{[^}]*"role":"system","content":"You are helpful"\}, got \{[^}]*"role":"user","content":"Hello"\}/],

  // idempotency
  ['SCN-B-091', 'ids are a hash of session and content', w(mapResponse('add_message', (x, req) => ({ ...x, id: hashId(`${req.session_id}/${req.content}`) }))), /add_message\("Same content"\) ×4: ids: "[0-9a-f-]+" occurs more than once/],
  ['SCN-B-091', 'ids are not UUIDs', w(mapResponse('add_message', (x) => ({ ...x, id: `msg-${x.id.slice(0, 8)}` }))), /add_message: response does not match the data model:[\s\S]*id: "msg-/],
  ['SCN-B-092', 'identical content in a session is stored once', w(dedupe), /get_conversation\(session_id="duplicates"\) after storing "Duplicate" three times: expected 3 message\(s\), got 1: contents \["Duplicate"\]/],
  ['SCN-B-093', 'clearing a cleared session answers 400', w(clearUnknown400), /clear_session: expected success, got 400/],

  // protocol shape
  ['SCN-B-120', 'the body is decoded as Latin-1', w(mapRequest('add_message', (b) => ({ ...b, content: Buffer.from(b.content, 'utf8').toString('latin1') }))), /add_message: content as sent \(BRIDGE-REQUEST-1/],
  ['SCN-B-121', 'parameters are read from a nested "params" object', w(mapRequest('add_message', (b) => b.params ?? {})), /add_message\(session_id="proto-flat", .*\): expected 200 with a JSON object, got 400 .* \(BRIDGE-REQUEST-2/],
  ['SCN-B-121', 'metadata is not read from the top level', w(mapRequest('add_message', ({ metadata: _m, ...rest }) => rest)), /add_message: every top-level parameter taken \(BRIDGE-REQUEST-2/],
  ['SCN-B-122', 'ids are handed out in upper case but looked up as given', w(mapResponse('add_message', (x) => ({ ...x, id: x.id.toUpperCase() }))), /delete_message\(message_id="[0-9A-F-]+"\) with the string id add_message returned \(BRIDGE-REQUEST-3.*: expected true, got false/],
  ['SCN-B-123', 'an absent limit reads as 0', w(mapRequest('get_conversation', (b) => ({ ...b, limit: b.limit ?? 0 }))), /get_conversation without limit: every message \(BRIDGE-REQUEST-4/],
  ['SCN-B-123', 'absent metadata answers null', w(mapResponse('add_message', (x, req) => (req.metadata === undefined ? { ...x, metadata: null } : x))), /add_message\(session_id="proto-omit".*: response does not match the data model:[\s\S]*metadata/],
  ['SCN-B-123', 'search_messages requires limit', w(replace('search_messages', (b, next) => (b.limit == null ? json(400, { error: 'limit is required' }) : next('search_messages', b)))), /search_messages\(query="Omitted parameters are absent"\): expected 200 with a bare JSON array, got 400 .*\(BRIDGE-REQUEST-4/],
  ['SCN-B-124', 'add_message answers 201 Created', w((next) => async (m, b) => {
    const res = await next(m, b);
    return m === 'add_message' && res.status === 200 ? { ...res, status: 201 } : res;
  }), /add_message\(session_id="proto-object".*\): 200 expected, got 201 Created .*\(BRIDGE-RESPONSE-1/, 'error'],
  ['SCN-B-124', 'get_conversation answers the conversation inside an array', w(mapResponse('get_conversation', (c) => [c])), /get_conversation\(session_id="proto-object"\): a JSON object expected, got an array/, 'error'],
  ['SCN-B-125', 'search_messages wraps its list in {"messages": …}', w(mapResponse('search_messages', (l) => ({ messages: l }))), /search_messages\(query="A list answer", limit=5, threshold=0\): a bare JSON array expected, got an object/, 'error'],
  ['SCN-B-125', 'list_sessions answers null when empty', w(onList((l) => (l.length ? l : null))), /list_sessions\(\): a bare JSON array expected, got null \(BRIDGE-RESPONSE-2/, 'error'],
  ['SCN-B-126', 'delete_message answers a bare boolean', w(mapResponse('delete_message', (r) => r.deleted)), /delete_message\(message_id="[0-9a-f-]+"\): an object \{"deleted": boolean\} expected, got a boolean: true \(BRIDGE-RESPONSE-3/, 'error'],
  ['SCN-B-126', 'delete_message answers 204', w(replace('delete_message', async (b, next) => (await next('delete_message', b), json(204)))), /delete_message\(.*\): 200 with an object \{"deleted": boolean\} expected, got 204 No Content/, 'error'],
  ['SCN-B-126', 'delete_message answers {"deleted": "yes"}', w(mapResponse('delete_message', (r) => ({ deleted: r.deleted ? 'yes' : 'no' }))), /delete_message\(message_id="[0-9a-f-]+"\): an object \{"deleted": boolean\} expected, got an object: \{"deleted":"yes"\} \(BRIDGE-RESPONSE-3/, 'error'],
  ['SCN-B-127', 'clear_session answers 200 {}', w(replace('clear_session', async (b, next) => (await next('clear_session', b), json(200, {})))), /clear_session\(session_id="proto-void"\): 204 expected, got 200 with body \{\} \(BRIDGE-RESPONSE-4/, 'error'],
  ['SCN-B-127', 'clear_all_data answers 200 {"ok": true}', w(afterFirst('clear_all_data', replace('clear_all_data', async (b, next) => (await next('clear_all_data', b), json(200, { ok: true }))))), /clear_all_data\(\): 204 expected, got 200 with body \{"ok":true\} \(BRIDGE-ERRORS-3/, 'error'],
  ['SCN-B-128', 'get_entity_by_name answers 404 for an unknown name', w(nullAs404('get_entity_by_name')), /get_entity_by_name\(name="Nobody Atall Byname"\): expected 200 with the JSON value null, got 404 Not Found .*\(BRIDGE-RESPONSE-5/, 'error'],
  ['SCN-B-128', 'get_trace_with_steps answers 404 for an unknown id', w(nullAs404('get_trace_with_steps')), /get_trace_with_steps\(trace_id="6f1d2c3b-7a8e-4f00-9c1d-00000000dead"\): expected 200 with the JSON value null, got 404 Not Found .*\(BRIDGE-RESPONSE-5/, 'error'],
  ['SCN-B-128', 'get_entity_by_name answers {} for an unknown name', w(mapResponse('get_entity_by_name', (r) => r ?? {})), /get_entity_by_name\(name="Nobody Atall Byname"\): expected 200 with the JSON value null, got 200 \{\} \(BRIDGE-RESPONSE-5/],
  ['SCN-B-129', 'errors answer a bare string', w(badErrorBody('add_message', 'bad')), /add_message\(role="user", content="No session"\) \(session_id missing\): 400 with \{"error": string\} expected, got body "bad" \(BRIDGE-ERRORS-1/, 'error'],
  ['SCN-B-129', 'errors answer an empty error text', w((next) => async (m, b) => {
    const res = await next(m, b);
    return res.status === 400 ? json(400, { error: '' }) : res;
  }), /add_message\(role="user", content="No session"\) \(session_id missing\): the error text must say what went wrong, got ""/],
  // A refused call's 404 is told apart from a missing method as every call's is (a method that does not exist answers otherwise).
  ['SCN-B-129', 'a refused call answers 404 {"error": "not found"}', w((next) => async (m, b) => {
    const res = await next(m, b);
    return m === 'add_message' && res.status === 400 ? json(404, { error: 'not found' }) : res;
  }), /^add_message\(role="user", content="No session"\) \(session_id missing\): 404 Not Found \{"error":"not found"\}, though add_message answered earlier in this run: add_message exists, so this is a protocol error, not a missing method \(BRIDGE-ERRORS-1/, 'error'],
  ['SCN-B-130', 'an unknown role is accepted as user', w(mapRequest('add_message', (b) => (ROLES.includes(b.role) ? b : { ...b, role: 'user' }))), /add_message\(session_id="proto-role", role="bogus", content="Who am I\?"\) \(unknown role\) answered 200 with a Message: its role .*: expected "bogus", got "user"/],
  ['SCN-B-130', 'an unknown role is stored and answered as given', w(replace('add_message', async (b, next) => {
    if (ROLES.includes(b.role)) return next('add_message', b);
    return json(200, { ...((await next('add_message', { ...b, role: 'user' })).body as object), role: b.role });
  })), /add_message\(session_id="proto-role", role="bogus", content="Who am I\?"\) \(unknown role\): response does not match the data model:[\s\S]*role/],
  ['SCN-B-131', 'content given as an object is answered as that object', w(replace('add_message', async (b, next) => {
    if (typeof b.content !== 'object' || b.content === null) return next('add_message', b);
    const stored = await next('add_message', { ...b, content: JSON.stringify(b.content) });
    return json(200, { ...(stored.body as object), content: b.content });
  })), /add_message\(session_id="proto-types", role="user", content=\{"text":"nested"\}\) \(content must be a string\): response does not match the data model:[\s\S]*content/],
  ['SCN-B-131', 'a parameter of the wrong type answers 422', w((next) => async (m, b: any) => (m === 'get_conversation' && typeof b.limit === 'string' ? json(422, { error: 'limit: expected an integer' }) : next(m, b))),
    /get_conversation\(session_id="proto-types", limit="all"\) \(limit must be an integer\): .*422.*\(BRIDGE-ERRORS-1/, 'error'],
  ['SCN-B-132', 'add_step on an unknown trace starts a new trace', w(replace('add_step', async (b, next) => {
    const known = (await next('get_trace_with_steps', { trace_id: b.trace_id })).body;
    if (known) return next('add_step', b);
    const t = (await next('start_trace', { session_id: 'orphans', task: 'adopted' })).body as { id: string };
    return next('add_step', { ...b, trace_id: t.id });
  })), /add_step\(trace_id="6f1d2c3b-7a8e-4f00-9c1d-00000000dead", thought="Orphan step"\) \(no such trace\) answered 200 with a step: its trace_id \(a step is linked to the trace named\): expected "6f1d2c3b-7a8e-4f00-9c1d-00000000dead", got "[0-9a-f-]+"/],
  ['SCN-B-132', 'add_step errors answer a bare string', w(badErrorBody('add_step', 'bad')), /add_step\(.*\) \(no such trace\): 400 with \{"error": string\} expected, got body "bad"/, 'error'],
  ['SCN-B-133', 'setup answers 204', w(replace('setup', () => json(204))), /setup\(\): 200 with a JSON object expected, got 204 No Content \(BRIDGE-LIFECYCLE-setup/, 'error'],
  ['SCN-B-133', 'setup answers {"ok": "yes"}', w(mapResponse('setup', (r) => ({ ...r, ok: 'yes' }))), /setup\(\): ok \(BRIDGE-LIFECYCLE-setup: setup answers 200 \{"ok": true\}\): expected true, got "yes"/],
  ['SCN-B-134', 'teardown answers 200 {"ok": true}', w(replace('teardown', () => json(200, { ok: true }))), /teardown\(\): 204 expected, got 200 with body \{"ok":true\} \(BRIDGE-LIFECYCLE-teardown/, 'error'],
  ['SCN-B-134', 'after teardown the target stays down, setup or not', w(stateful((next) => {
    let down = false;
    return (m, body) => {
      if (m === 'teardown') down = true;
      if (down && m !== 'setup' && m !== 'teardown') return json(500, { error: 'store is shut down' });
      return next(m, body);
    };
  })), /add_message\(session_id="proto-teardown".*\): expected 200 with a JSON object, got 500 \{"error": "store is shut down"\}/],
  ['SCN-B-135', 'clear_all_data keeps entities and traces', { store: new KeepsSilver() }, /get_entity_by_name\(name="Grace Hopper"\) after clear_all_data \(SPEC-V3-clear_all_data.*: expected null, got \{/],
  ['SCN-B-135', 'clear_all_data keeps everything', w(afterFirst('clear_all_data', replace('clear_all_data', () => json(204)))), /list_sessions\(\) after clear_all_data \(SPEC-V3-clear_all_data.*: expected \[\], got 2 item/],
  ['SCN-B-135', 'clear_all_data answers 200 {}', w(afterFirst('clear_all_data', replace('clear_all_data', async (b, next) => (await next('clear_all_data', b), json(200, {}))))), /clear_all_data\(\): 204 expected, got 200 with body \{\} \(BRIDGE-LIFECYCLE-clear_all_data/, 'error'],
];

/** Other choices the protocol allows: every scenario of ours must still pass. */
export const VALID: ValidRow[] = [
  ['the target implements Bronze only (Silver and Gold answer 404)', w(bronzeOnly)],
  ['the target implements Bronze only (Silver and Gold answer 500 {"error": …})', w(bronzeOnlyRefusing)],
  ['timestamps in other zones, with microseconds (strings sort backwards)', w(timestampsInZones)],
  ['sessions without messages are no longer listed', w(emptySessionsUnlisted)],
  ['list_sessions newest first, search results reversed', w(compose(onList((l) => l.reverse()), mapResponse('search_messages', (l) => l.reverse())))],
  ['errors answer 500 instead of 400', w((next) => async (m, b) => {
    const res = await next(m, b);
    return res.status === 400 ? { ...res, status: 500 } : res;
  })],
];
