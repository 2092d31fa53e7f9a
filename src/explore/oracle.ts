// The oracle: for each call of a sequence, the rules of rules.ts that its answer (and the answers
// of later reads) must satisfy, given the state the model says the calls so far have left. It
// checks what the protocol states and nothing else: where a server may choose (the silent points
// of src/engine/silent-points.ts, listed in open.ts), the check accepts every reading, and the
// model follows the server's choice (a refusal the protocol allows leaves the model unchanged).
// It never compares a whole answer with the model's.
import type { Entity, Message, MethodName, ReasoningStep, ReasoningTrace, ToolCall } from '../protocols/bridge/index.js';
import { METHODS } from '../protocols/bridge/index.js';
import { tokenize } from '../servers/bridge/index.js';
import type { StoreSnapshot } from '../servers/bridge/store.js';
import { close, ok, opt, plausible, same, sameInstant, short, show, type Answer, type Call, type Obj } from './judge.js';
import type { ExploreModel } from './model.js';
import { judgePlatinum, platinumMustSucceed, PLATINUM_WRITES } from './platinum.js';
import { callCites, violated, type RuleId } from './rules.js';
import { NO_MATCH_QUERIES } from './values.js';

/**
 * The default page of the BaseAdapter (Volume 3) for a list asked for without a limit: an answer
 * that fills it may have cut the rest (silent point search-default-limit; lists: 100).
 */
const DEFAULT_PAGE: Partial<Record<MethodName, number>> = {
  search_messages: 10, search_entities: 10, search_preferences: 10, get_similar_traces: 5, list_sessions: 100, list_traces: 100,
};
const fillsPage = (method: MethodName, limit: unknown, length: number) => limit == null && length >= (DEFAULT_PAGE[method] ?? Infinity);

/** Methods that change the model's state (its snapshot is taken again after them). */
const WRITES = new Set<MethodName>([
  'clear_all_data', 'add_message', 'delete_message', 'clear_session', 'add_entity', 'add_preference', 'add_fact', 'start_trace', 'add_step',
  'record_tool_call', 'complete_trace', 'add_relationship', 'merge_duplicate_entities', ...PLATINUM_WRITES,
]);

/** The writes whose checks read the state before them. */
const NEEDS_BEFORE = new Set<MethodName>(['delete_message', 'add_step', 'merge_duplicate_entities']);

/** Whether the protocol lets this call fail: otherwise a refusal is a finding ('call.succeeds'). */
function mayFail(model: ExploreModel, method: MethodName, mp: Obj): boolean {
  // silent (limit-zero-lists): limit 0 of a list may be refused as well as read as none or as no limit.
  if (mp.limit === 0 && METHODS[method].kind === 'list') return true;
  switch (method) {
    case 'get_conversation':
      return mp.limit === 0; // silent (limit-zero): limit 0 may be refused as well as read either way
    case 'add_step':
    case 'complete_trace':
      return model.completed(mp.trace_id as string); // silent (completed-trace-writes)
    case 'record_tool_call': {
      const trace = model.snapshot().traces.find((t) => t.steps.some((s) => s.id === mp.step_id));
      // A step recorded by record_step (Platinum): how the two views meet is open.
      return trace === undefined || model.completed(trace.id);
    }
    default:
      return platinumMustSucceed(model, method, mp) === false;
  }
}

/**
 * What the model makes of a call, worked out while the server answers it: a read's answer, and a
 * write the server must accept applied already (were it refused, the sequence ends with that
 * finding). A write the protocol lets the server refuse waits for the answer: the model follows it.
 */
export interface Prepared {
  mayFail: boolean;
  before?: StoreSnapshot;
  modelAnswer?: Answer;
}

export function prepare(model: ExploreModel, method: MethodName, mp: Obj): Prepared {
  const fails = mayFail(model, method, mp);
  if (METHODS[method].tier === 'platinum' || (fails && WRITES.has(method))) return { mayFail: fails };
  return { mayFail: fails, ...onModel(model, method, mp) };
}

/** The call on the model, and the state before it for the checks that need it (a view of the store costs a copy of its lists). */
function onModel(model: ExploreModel, method: MethodName, mp: Obj): { before?: StoreSnapshot; modelAnswer: Answer } {
  const before = NEEDS_BEFORE.has(method) ? model.snapshot() : undefined;
  const modelAnswer = WRITES.has(method) || HANDLERS[method] === undefined ? model.call(method, mp) : readModel(model, method, mp);
  return { modelAnswer, ...(before ? { before } : {}) };
}

/** Checks one call (throws a Violation naming the rule it breaks) and brings the model up to date. Returns the model's answer. */
export function judge(model: ExploreModel, c: Call, prepared: Prepared = prepare(model, c.method, c.mp)): Answer | undefined {
  const { method, answer } = c;
  if (!ok(answer)) {
    if (!prepared.mayFail) violated('call.succeeds', `${method}: refused with ${answer.status} ${show(answer.body)}, but the call names only live objects with valid parameters`, callCites(method));
    return undefined;
  }
  // A 200 null where the method's row names an object: "found nothing" (bridge-protocol.md,
  // Errors 2), read like a refusal (the shared reading, readAnswer): allowed only where the call
  // may fail, and then the model is left as it is.
  if (answer.body === null && METHODS[method].kind === 'object') {
    if (!prepared.mayFail) violated('call.succeeds', `${method}: answered 200 null, but the call names only live objects with valid parameters`, callCites(method));
    return undefined;
  }
  // silent (limit-zero-lists): a list asked for with limit 0 that answers items read 0 as no limit:
  // it is judged as the call without a limit (an empty answer is judged as it is).
  if (c.mp.limit === 0 && METHODS[method].kind === 'list' && Array.isArray(answer.body) && answer.body.length > 0) {
    const { limit: _m, ...mp } = c.mp;
    const { limit: _s, ...sp } = c.sp;
    return judge(model, { ...c, mp, sp }, prepare(model, method, mp));
  }
  const platinum = judgePlatinum(model, c);
  if (platinum !== 'not platinum') return platinum;
  // A write the server could have refused is applied now that it did not.
  const p = prepared.modelAnswer !== undefined ? prepared : onModel(model, method, c.mp);
  HANDLERS[method]?.(model, c, p.modelAnswer!, p.before as StoreSnapshot);
  return p.modelAnswer;
}

/** A read on the model, without dropping its cached snapshot. */
function readModel(model: ExploreModel, method: string, mp: Obj): Answer {
  return model.read(method, mp);
}

// ------------------------------------------------------------------ shared checks

const body = (c: Call) => c.answer.body as Obj;
const list = (c: Call) => c.answer.body as Obj[];

/** The model id of a server id the sequence created, or undefined. */
const modelIdOf = (model: ExploreModel, serverId: unknown) => (typeof serverId === 'string' ? model.ids.toModel(serverId) : undefined);

/** Binds the id of what the model has just created to the server's. */
function bind(model: ExploreModel, method: string, modelAnswer: Answer, c: Call): string | undefined {
  const modelId = (modelAnswer.body as Obj | undefined)?.id;
  const serverId = body(c).id;
  if (typeof modelId !== 'string' || typeof serverId !== 'string') return undefined;
  model.ids.bind(serverId, modelId, method);
  return modelId;
}

function messageKept(model: ExploreModel, rule: RuleId, what: string, got: Obj, m: Message): void {
  const sent = model.messageTimes.get(m.id);
  const diffs = [
    got.role !== m.role && `role ${show(got.role)}, written ${show(m.role)}`,
    got.content !== m.content && `content ${show(got.content)}, written ${show(m.content)}`,
    !same(got.metadata, m.metadata) && `metadata ${show(got.metadata)}, written ${show(m.metadata)}`,
    sent !== undefined && typeof got.timestamp === 'string' && !sameInstant(got.timestamp, sent) && `timestamp ${got.timestamp}, created at ${sent}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated(rule, `${what}: message ${short(got.id)}: ${diffs.join('; ')}`);
}

function entityKept(model: ExploreModel, rule: RuleId, what: string, got: Obj, e: Entity): void {
  const diffs = [
    got.name !== e.name && `name ${show(got.name)}, written ${show(e.name)}`,
    got.type !== e.type && `type ${show(got.type)}, written ${show(e.type)}`,
    !model.descriptionOpen.has(e.id) && opt(got.description) !== opt(e.description) && `description ${show(got.description)}, written ${show(e.description ?? null)}`,
    model.canonical.has(e.id) && got.canonical_name !== model.canonical.get(e.id) && `canonical_name ${show(got.canonical_name)}, set by a merge to ${show(model.canonical.get(e.id))}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated(rule, `${what}: entity ${show(e.name)} (${short(got.id)}): ${diffs.join('; ')}`);
}

const liveMessages = (snap: StoreSnapshot, session?: unknown) =>
  (session == null ? snap.sessions : snap.sessions.filter((s) => s.session_id === session)).flatMap((s) => s.messages);

/** Whether `query` shares no word with any of the texts (the no-match rules). */
const sharesNoWord = (query: string, texts: readonly (string | null | undefined)[]) => {
  const q = tokenize(query);
  return texts.every((t) => t == null || ![...tokenize(t)].some((w) => q.has(w)));
};
const noMatchQuery = (q: unknown) => (NO_MATCH_QUERIES as readonly unknown[]).includes(q);

/** Search hits as model objects: each must be a live object of the scope; unknown ones go to `foreign` (true: allowed). */
function hits<T extends { id: string }>(model: ExploreModel, c: Call, rule: RuleId, scope: ReadonlyMap<string, T>, foreign: (hit: Obj) => boolean): { hit: Obj; item: T | undefined }[] {
  const limit = c.mp.limit as number | undefined;
  const got = list(c);
  if (limit != null && got.length > limit) violated(rule, `${c.method}(limit=${limit}): ${got.length} results`);
  return got.map((hit, i) => {
    const id = modelIdOf(model, hit.id);
    const item = id === undefined ? undefined : scope.get(id);
    if (item === undefined && !foreign(hit)) {
      const why = id === undefined ? 'an object this sequence never created' : 'not a live object of the scope asked for (deleted, cleared, merged away, or filtered out)';
      violated(rule, `${c.method}(${show(c.sp)}): result [${i}] ${show(hit)} is ${why}`);
    }
    return { hit, item };
  });
}

/** The exact-match and empty-store rules of a search. */
function matchRule(c: Call, rule: RuleId, exact: boolean, text: (hit: Obj) => unknown, query: string, empty: boolean, noMatch: boolean): void {
  const got = list(c);
  const limit = c.mp.limit as number | undefined;
  if (exact && limit == null && !got.some((h) => text(h) === query) && !fillsPage(c.method, limit, got.length)) {
    violated(rule, `${c.method}(${show(c.sp)}): an item whose text is exactly the query is live, and no result has that text (${got.length} results)`);
  }
  if (exact && limit != null && limit > 0 && got.length === 0) violated(rule, `${c.method}(${show(c.sp)}): an item whose text is exactly the query is live, and nothing was found`);
  if (empty && got.length > 0) violated(rule, `${c.method}(${show(c.sp)}): nothing is stored to search, yet ${got.length} results came back`);
  if (noMatch && got.length > 0) violated(rule, `${c.method}(${show(c.sp)}): the query shares no word with anything stored, yet ${got.length} results came back: ${show(got)}`);
}

// ------------------------------------------------------------------ conversations

/** A session's conversation starts afresh (a new epoch: its id and created_at may change) when it has no message left. */
function emptied(model: ExploreModel, sessionId: string): void {
  if (liveMessages(model.snapshot(), sessionId).length === 0) model.conversations.delete(sessionId);
}

function addMessage(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  const diffs = [
    a.role !== c.mp.role && `role ${show(a.role)}, sent ${show(c.mp.role)}`,
    a.content !== c.mp.content && `content ${show(a.content)}, sent ${show(c.mp.content)}`,
    !same(a.metadata, c.mp.metadata ?? {}) && `metadata ${show(a.metadata)}, sent ${show(c.mp.metadata ?? '(none: {})')}`,
    !plausible(a.timestamp) && `timestamp ${show(a.timestamp)} is not within a day of now`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated('message.written', `add_message(session_id=${show(c.mp.session_id)}): ${diffs.join('; ')}`);
  const id = bind(model, 'add_message', m, c);
  if (id !== undefined) {
    model.everyMessage.push(id);
    model.messageTimes.set(id, a.timestamp as string);
    model.messageText.set(id, a.content as string);
  }
  model.named.add(c.mp.session_id as string);
  if (model.hosted) model.foreignEntities = true; // silent point entity-extraction: any message may yield entities
}

function getConversation(model: ExploreModel, c: Call): void {
  const sid = c.mp.session_id as string;
  model.named.add(sid);
  const a = body(c);
  const snap = model.snapshot();
  const what = `get_conversation(session_id=${show(sid)}${c.mp.limit === undefined ? '' : `, limit=${String(c.mp.limit)}`})`;
  if (a.session_id !== sid) violated('conversation.messages', `${what}: session_id ${show(a.session_id)}`);
  const live = liveMessages(snap, sid);
  const byId = new Map(live.map((m) => [m.id, m]));
  const all = new Map(snap.sessions.flatMap((s) => s.messages.map((m) => [m.id, s.session_id] as const)));
  const got = (a.messages as Obj[]).map((msg, i) => {
    const id = modelIdOf(model, msg.id);
    if (id === undefined) violated('conversation.messages', `${what}: messages[${i}] ${show(msg)} is no message this sequence added`);
    const m = byId.get(id!);
    if (m === undefined) {
      const elsewhere = all.get(id!);
      violated('conversation.messages', `${what}: messages[${i}] (${short(msg.id)}, ${show(msg.content)}) ${elsewhere === undefined ? 'was deleted or cleared' : `belongs to session ${show(elsewhere)}`}`);
    }
    messageKept(model, 'message.kept', what, msg, m!);
    return id!;
  });
  const ids = live.map((m) => m.id);
  const limit = c.mp.limit as number | undefined;
  const expected = limit == null ? [ids] : limit === 0 ? [[], ids] : [ids.slice(0, limit), ids.slice(-limit)];
  if (!expected.some((e) => same(e, got))) {
    const label = (list: string[]) => show(list.map((id) => byId.get(id)?.content ?? id));
    violated('conversation.messages', `${what}: messages ${label(got)}; the session's live messages in order: ${label(ids)}${limit == null ? '' : ` (${limit === 0 ? 'none or all of them' : `the first or the last ${limit}`})`}`);
  }
  const times = (a.messages as Obj[]).map((msg) => Date.parse(msg.timestamp as string));
  const back = times.findIndex((t, i) => i > 0 && t < times[i - 1]!);
  if (back > 0) violated('conversation.time-order', `${what}: messages[${back}].timestamp ${String((a.messages as Obj[])[back]!.timestamp)} is before the one of messages[${back - 1}]`);
  // silent (empty-conversation-id, limit-zero): only an answer that shows the session's messages names its conversation.
  if (live.length === 0 || got.length === 0) return;
  const seen = model.conversations.get(sid) ?? {};
  const id = String(a.id).toLowerCase();
  if (seen.id !== undefined && seen.id !== id) violated('conversation.identity', `${what}: conversation id ${show(a.id)}, but it was ${seen.id} at an earlier read while the session had messages all along`);
  for (const [other, o] of model.conversations) {
    if (other !== sid && o.id === id && liveMessages(snap, other).length > 0) violated('conversation.identity', `${what}: conversation id ${show(a.id)} is also the id of session ${show(other)}'s conversation`);
  }
  if (!plausible(a.created_at)) violated('conversation.identity', `${what}: created_at ${show(a.created_at)} is not within a day of now`);
  if (seen.createdAt !== undefined && !sameInstant(String(a.created_at), seen.createdAt)) violated('conversation.identity', `${what}: created_at ${show(a.created_at)}, but it was ${seen.createdAt} at an earlier read while the session had messages all along`);
  model.conversations.set(sid, { id, createdAt: seen.createdAt ?? String(a.created_at) });
}

function searchMessages(model: ExploreModel, c: Call, m: Answer): void {
  const sid = c.mp.session_id as string | undefined;
  if (sid !== undefined) model.named.add(sid);
  const snap = model.snapshot();
  const scope = new Map(liveMessages(snap, sid).map((x) => [x.id, x]));
  const pm = model.platinum.messages;
  // Messages of Platinum conversations may be searchable too: how the two views meet is open.
  const found = hits(model, c, 'search_messages.scope', scope, (h) => sid === undefined && typeof h.id === 'string' && pm.has(h.id));
  for (const { hit, item } of found) if (item !== undefined) messageKept(model, 'message.kept', `search_messages(${show(c.sp)})`, hit, item);
  const query = c.mp.query as string;
  const exact = (m.body as Message[]).some((x) => x.content === query);
  const everything = liveMessages(snap);
  const high = ((c.mp.threshold as number | undefined) ?? 0) >= 0.99;
  matchRule(c, 'search_messages.match', exact, (h) => h.content, query, everything.length === 0 && pm.size === 0,
    high && noMatchQuery(query) && pm.size === 0 && sharesNoWord(query, everything.map((x) => x.content)));
}

function listSessions(model: ExploreModel, c: Call): void {
  const snap = model.snapshot();
  const counts = new Map(snap.sessions.map((s) => [s.session_id, s.messages.length]));
  const conversations = model.platinum.conversations;
  const platinumSession = (id: string) => conversations.has(id) || model.platinum.sessions.has(id);
  const limit = c.mp.limit as number | undefined;
  const got = list(c);
  for (const [i, s] of got.entries()) {
    const id = s.session_id as string;
    // silent (empty-session-listing): a session named but without messages may be listed, with 0.
    if (!counts.has(id) && !model.named.has(id) && !platinumSession(id)) {
      violated('list_sessions.sessions', `list_sessions: [${i}] is session ${show(id)}, which has no messages and was not named since clear_all_data (sessions with messages: ${show([...counts.keys()])})`);
    }
    if (platinumSession(id) && !counts.has(id)) continue; // a Platinum conversation: its count is the other view's
    const want = counts.get(id) ?? 0;
    if (s.message_count !== want) violated('list_sessions.counts', `list_sessions: message_count of ${show(id)} is ${show(s.message_count)}, it has ${want} live messages`);
  }
  if (limit != null && got.length > limit) violated('list_sessions.sessions', `list_sessions(limit=${limit}): ${got.length} sessions`);
  const withMessages = [...counts.entries()].filter(([, n]) => n > 0).map(([id]) => id);
  const listed = new Set(got.map((s) => s.session_id));
  if (limit == null) {
    const missing = withMessages.filter((id) => !listed.has(id));
    if (missing.length > 0 && !fillsPage('list_sessions', limit, got.length)) violated('list_sessions.sessions', `list_sessions: sessions with messages missing: ${show(missing)} (${got.length} listed)`);
  } else if (got.length < Math.min(limit, withMessages.length)) {
    violated('list_sessions.sessions', `list_sessions(limit=${limit}): ${got.length} sessions listed, ${withMessages.length} have messages`);
  }
}

function deleteMessage(model: ExploreModel, c: Call, _m: Answer, before: StoreSnapshot): void {
  const id = c.mp.message_id as string;
  const owner = before.sessions.find((s) => s.messages.some((x) => x.id === id));
  const deleted = (c.answer.body as { deleted?: unknown }).deleted;
  if (deleted !== (owner !== undefined)) {
    violated('delete_message.result', `delete_message(${short(c.sp.message_id)}): deleted ${show(deleted)}, but the message ${owner === undefined ? 'is already gone' : `is a live message of session ${show(owner.session_id)}`}`);
  }
  if (owner !== undefined) emptied(model, owner.session_id);
}

function clearSession(model: ExploreModel, c: Call): void {
  model.named.add(c.mp.session_id as string);
  model.conversations.delete(c.mp.session_id as string);
}

// ------------------------------------------------------------------ long-term memory

function addEntity(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  // silent (add-entity-existing): an entity of that name and type is live, and the server answered
  // it: an upsert. The model follows: its new entity goes, and the answer is that entity as stored.
  const existing = modelIdOf(model, a.id);
  const stored = existing === undefined ? undefined : model.snapshot().entities.find((e) => e.id === existing);
  if (stored !== undefined && stored.name === c.mp.name && stored.type === c.mp.entity_type) {
    const made = (m.body as Obj | undefined)?.id;
    if (typeof made === 'string' && made !== existing) model.forgetEntity(made);
    // "Create or update" (the BaseAdapter's add_entity): the upsert may keep the description it had or
    // take the one sent; either way what it holds from now on is the server's, not the model's.
    const updated = c.mp.description != null && opt(a.description) === opt(c.mp.description);
    entityKept(model, 'entity.written', `add_entity(name=${show(c.mp.name)}) answered the live entity of that name and type`, updated ? { ...a, description: stored.description } : a, stored);
    if (c.mp.description != null && opt(c.mp.description) !== opt(stored.description)) model.descriptionOpen.add(existing!);
    return;
  }
  // The same upsert onto the source of a Platinum merge, which the server kept: SPEC-5.3.3 asks for
  // a SAME_AS link from the source and does not say it goes (an independent server keeps it live).
  if (existing !== undefined && stored === undefined && typeof a.id === 'string' && model.fuzzyServer.has(a.id.toLowerCase()) && a.name === c.mp.name && a.type === c.mp.entity_type) {
    const made = (m.body as Obj | undefined)?.id;
    if (typeof made === 'string') model.forgetEntity(made);
    return;
  }
  const diffs = [
    a.name !== c.mp.name && `name ${show(a.name)}, sent ${show(c.mp.name)}`,
    a.type !== c.mp.entity_type && `type ${show(a.type)}, sent ${show(c.mp.entity_type)}`,
    opt(a.description) !== opt(c.mp.description) && `description ${show(a.description)}, sent ${show(c.mp.description ?? null)}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated('entity.written', `add_entity(name=${show(c.mp.name)}): ${diffs.join('; ')}`);
  bind(model, 'add_entity', m, c);
}

function addPreference(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  if (a.category !== c.mp.category || a.preference !== c.mp.preference || opt(a.context) !== opt(c.mp.context)) {
    violated('preference.written', `add_preference(${show(c.sp)}): answered ${show({ category: a.category, preference: a.preference, context: a.context })}`);
  }
  bind(model, 'add_preference', m, c);
}

function addFact(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  if (a.subject !== c.mp.subject || a.predicate !== c.mp.predicate || a.object !== c.mp.obj) {
    violated('fact.written', `add_fact(${show(c.sp)}): answered ${show({ subject: a.subject, predicate: a.predicate, object: a.object })}`);
  }
  bind(model, 'add_fact', m, c);
}

/** An entity a read may show though the model does not have it live: merged away by merge_entities, or extracted by the server. */
function foreignEntity(model: ExploreModel, hit: Obj): boolean {
  const id = typeof hit.id === 'string' ? hit.id.toLowerCase() : '';
  if ([...model.deletedEntities].some((d) => d.toLowerCase() === id)) return false;
  return model.fuzzyServer.has(id) || (model.foreignEntities && modelIdOf(model, hit.id) === undefined);
}

const entityText = (e: StoreSnapshot['entities'][number]) => [e.name, e.description, e.canonical_name, ...e.aliases];

function searchEntities(model: ExploreModel, c: Call, m: Answer): void {
  const snap = model.snapshot();
  const scope = new Map(snap.entities.map((e) => [e.id, e]));
  for (const { hit, item } of hits(model, c, 'search_entities.scope', scope, (h) => foreignEntity(model, h))) {
    if (item !== undefined) entityKept(model, 'entity.kept', `search_entities(${show(c.sp)})`, hit, item);
  }
  const query = c.mp.query as string;
  const exact = (m.body as Entity[]).some((e) => e.name === query);
  const calm = !model.foreignEntities && model.fuzzy.size === 0;
  matchRule(c, 'search_entities.match', exact, (h) => h.name, query, calm && snap.entities.length === 0,
    calm && noMatchQuery(query) && sharesNoWord(query, snap.entities.flatMap(entityText)));
}

function searchPreferences(model: ExploreModel, c: Call, m: Answer): void {
  const snap = model.snapshot();
  const cat = c.mp.category as string | undefined;
  const scope = new Map(snap.preferences.filter((p) => cat === undefined || p.category === cat).map((p) => [p.id, p]));
  for (const { hit, item } of hits(model, c, 'search_preferences.scope', scope, () => false)) {
    if (item !== undefined && (hit.category !== item.category || hit.preference !== item.preference || opt(hit.context) !== opt(item.context))) {
      violated('preference.written', `search_preferences(${show(c.sp)}): preference ${short(hit.id)} reads ${show({ category: hit.category, preference: hit.preference, context: hit.context })}, written ${show({ category: item.category, preference: item.preference, context: item.context })}`);
    }
  }
  const query = c.mp.query as string;
  const exact = (m.body as { preference: string }[]).some((p) => p.preference === query);
  matchRule(c, 'search_preferences.match', exact, (h) => h.preference, query, snap.preferences.length === 0,
    noMatchQuery(query) && sharesNoWord(query, snap.preferences.flatMap((p) => [p.preference, p.context, p.category])));
}

function getEntityByName(model: ExploreModel, c: Call): void {
  const name = c.mp.name as string;
  const snap = model.snapshot();
  const what = `get_entity_by_name(${show(name)})`;
  const byName = snap.entities.filter((e) => e.name === name);
  // silent (entity-name-lookup, merge-source-lookup): a canonical name, a merged-away or a former name may or may not find the entity.
  // silent (entity-name-case): the lookup may compare names without regard to case. Nor does any
  // sentence say the name is compared code point by code point: a namesake in the other Unicode
  // normal form or with spaces at its edges may be found too (a collation, a normalising index).
  const fold = (n: string) => n.normalize('NFKC').toLowerCase().trim();
  const folded = fold(name);
  const candidates = snap.entities.filter((e) => e.name === name || fold(e.name) === folded || e.canonical_name === name || e.aliases.includes(name) || model.formerNames.get(e.id)?.has(name));
  const a = c.answer.body as Obj | null;
  if (a === null) {
    if (byName.length > 0) violated('get_entity_by_name.lookup', `${what}: null, but ${byName.length} live ${byName.length === 1 ? 'entity has' : 'entities have'} that name (${byName.map((e) => short(model.serverId(e.id))).join(', ')})`);
    return;
  }
  const id = modelIdOf(model, a.id);
  const hit = candidates.find((e) => e.id === id);
  // silent (canonical-name, entity-name-lookup): an entity whose canonical name, as the server gives it, is the name.
  const byCanonical = a.canonical_name === name ? snap.entities.find((e) => e.id === id) : undefined;
  if (hit === undefined && byCanonical !== undefined) return entityKept(model, 'entity.kept', what, a, byCanonical);
  if (hit === undefined) {
    if (id === undefined && foreignEntity(model, a) && (a.name === name || model.fuzzyServer.has(String(a.id).toLowerCase()))) return;
    // The source of a Platinum merge the server kept, found by its own name: SPEC-5.3.3 asks for a
    // SAME_AS link from the source and does not say the source goes (an independent server keeps it).
    if (model.fuzzyServer.has(String(a.id).toLowerCase()) && a.name === name) return;
    if (candidates.length === 0) violated('get_entity_by_name.lookup', `${what}: ${show(a)}, but no live entity has or had that name`);
    violated('get_entity_by_name.lookup', `${what}: ${show(a)} is none of the entities that have or had that name (${candidates.map((e) => `${show(e.name)} ${short(model.serverId(e.id))}`).join(', ')})`);
  }
  entityKept(model, 'entity.kept', what, a, hit!);
}

/**
 * The entities a get_related_entities answer may hold, for one reading of direction
 * ('related-incoming'): `least`, the direct neighbours every reading returns, and `most`, what a
 * walk of at most `depth` hops reaches ('related-depth': without depth any number of hops), the
 * start entity included when a path of distinct relationships can lead back to it.
 */
function reach(edges: readonly { source_id: string; target_id: string }[], start: string, depth: number | undefined, both: boolean): { least: Set<string>; most: Set<string> } {
  const steps = (from: ReadonlySet<string>) =>
    edges.flatMap((r) => [...(from.has(r.source_id) ? [r.target_id] : []), ...(both && from.has(r.target_id) ? [r.source_id] : [])]);
  const least = new Set(steps(new Set([start])).filter((id) => id !== start));
  const most = new Set<string>();
  let frontier = new Set([start]);
  for (let hop = 0; hop < (depth ?? edges.length) && frontier.size > 0; hop++) {
    const next = new Set<string>();
    for (const to of steps(frontier)) if (to !== start && !most.has(to)) { most.add(to); next.add(to); }
    frontier = next;
  }
  const near = new Set([start, ...most]);
  const inside = edges.filter((r) => near.has(r.source_id) && near.has(r.target_id));
  const loop = edges.some((r) => r.source_id === start && r.target_id === start);
  if (loop || ((depth ?? 2) >= 2 && most.size > 0 && inside.length >= near.size)) most.add(start);
  return { least, most };
}

function relatedEntities(model: ExploreModel, c: Call): void {
  const snap = model.snapshot();
  const entities = new Map(snap.entities.map((e) => [e.id, e]));
  const start = c.mp.entity_id as string;
  const type = c.mp.relationship_type as string | undefined;
  const depth = c.mp.depth as number | undefined;
  const what = `get_related_entities(${show(entities.get(start)?.name)}${type === undefined ? '' : `, relationship_type=${show(type)}`}${depth === undefined ? '' : `, depth=${depth}`})`;
  const ids = new Set<string>();
  for (const [i, e] of list(c).entries()) {
    const id = modelIdOf(model, e.id);
    const live = id === undefined ? undefined : entities.get(id);
    if (live === undefined) {
      if (foreignEntity(model, e)) continue;
      violated('get_related_entities.neighbours', `${what}: [${i}] ${show(e)} is not a live entity`);
    }
    entityKept(model, 'entity.kept', what, e, live!);
    ids.add(id!);
  }
  const edges = snap.relationships.filter((r) => type === undefined || r.relationship_type === type);
  const fuzzy = model.fuzzy;
  if (fuzzy.has(start)) return; // silent: where merge_entities left the relationships of what it merged
  const fits = ({ least, most }: { least: Set<string>; most: Set<string> }) =>
    [...least].every((id) => ids.has(id) || fuzzy.has(id)) && [...ids].every((id) => most.has(id) || fuzzy.has(id) || [...fuzzy].some((f) => edges.some((r) => (r.source_id === f && r.target_id === id) || (r.target_id === f && r.source_id === id))));
  const undirected = reach(edges, start, depth, true);
  const outgoing = reach(edges, start, depth, false);
  if (!fits(undirected) && !fits(outgoing)) {
    const names = (s: Iterable<string>) => show([...s].map((id) => entities.get(id)?.name ?? id));
    violated('get_related_entities.neighbours', `${what}: answered ${names(ids)}; it must hold every direct neighbour, ${names(undirected.least)} (or ${names(outgoing.least)} following outgoing relationships only), and nothing beyond ${names(undirected.most)}`);
  }
}

// ------------------------------------------------------------------ reasoning memory

function startTrace(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  if (a.session_id !== c.mp.session_id || a.task !== c.mp.task || !Array.isArray(a.steps) || a.steps.length > 0) {
    violated('trace.written', `start_trace(${show(c.sp)}): answered session_id ${show(a.session_id)}, task ${show(a.task)}, steps ${show(a.steps)}`);
  }
  bind(model, 'start_trace', m, c);
  model.named.add(c.mp.session_id as string);
}

function addStep(model: ExploreModel, c: Call, m: Answer, before: StoreSnapshot): void {
  const a = body(c);
  const what = `add_step(${show(c.sp)})`;
  if (modelIdOf(model, a.trace_id) !== c.mp.trace_id) violated('step.written', `${what}: trace_id ${show(a.trace_id)}, the step was added to ${short(c.sp.trace_id)}`);
  for (const f of ['thought', 'action', 'observation']) {
    if (opt(a[f]) !== opt(c.mp[f])) violated('step.written', `${what}: ${f} ${show(a[f])}, sent ${show(c.mp[f] ?? null)}`);
  }
  const earlier = before.traces.find((t) => t.id === c.mp.trace_id)?.steps.map((s) => model.stepNumbers.get(s.id)) ?? [];
  const n = a.step_number as number;
  // silent (step-base): numbers may start anywhere and step by anything; they must increase.
  if (earlier.some((e) => e !== undefined && e >= n)) violated('step.numbers', `${what}: step_number ${n} after steps numbered ${show(earlier)}`);
  const id = bind(model, 'add_step', m, c);
  if (id !== undefined) model.stepNumbers.set(id, n);
}

/** The fields of a tool call as recorded (the model's), compared with an answer. */
function callDiffs(got: Obj, want: ToolCall): string[] {
  return [
    got.tool_name !== want.tool_name && `tool_name ${show(got.tool_name)}, recorded ${show(want.tool_name)}`,
    !same(got.arguments, want.arguments) && `arguments ${show(got.arguments)}, recorded ${show(want.arguments)}`,
    !same(opt(got.result), opt(want.result)) && `result ${show(got.result)}, recorded ${show(want.result ?? null)}`,
    got.status !== want.status && `status ${show(got.status)}, recorded ${show(want.status)}`,
    opt(got.duration_ms) !== opt(want.duration_ms) && `duration_ms ${show(got.duration_ms)}, recorded ${show(want.duration_ms ?? null)}`,
    opt(got.error) !== opt(want.error) && `error ${show(got.error)}, recorded ${show(want.error ?? null)}`,
  ].filter((d): d is string => d !== false);
}

function recordToolCall(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  const want = { tool_name: c.mp.tool_name, arguments: c.mp.arguments, result: c.mp.result ?? null, status: c.mp.status ?? 'success', duration_ms: c.mp.duration_ms ?? null, error: c.mp.error ?? null } as ToolCall;
  const diffs = callDiffs(a, want);
  if (diffs.length > 0) violated('tool_call.written', `record_tool_call(tool_name=${show(c.mp.tool_name)}): ${diffs.join('; ')}`);
  if (m.status < 300) {
    bind(model, 'record_tool_call', m, c);
    return;
  }
  // A step record_step made: the call is kept with it (the views of the two are open).
  const step = model.platinum.steps.get(c.mp.step_id as string);
  if (step !== undefined) step.calls.push({ id: String(a.id), tool_name: want.tool_name, arguments: want.arguments, result: want.result, status: want.status, duration_ms: want.duration_ms ?? null, error: want.error ?? null });
}

function completeTrace(_model: ExploreModel, c: Call): void {
  const a = body(c);
  const what = `complete_trace(${show(c.sp)})`;
  if (opt(a.outcome) !== opt(c.mp.outcome) || opt(a.success) !== opt(c.mp.success) || a.completed_at == null) {
    violated('trace.written', `${what}: answered outcome ${show(a.outcome)}, success ${show(a.success)}, completed_at ${show(a.completed_at)}`);
  }
}

/** A trace as read (get_trace_with_steps, list_traces) against the model's; `stepsMayGo`: list_traces may leave steps or their tool calls out. */
function traceKept(model: ExploreModel, rule: RuleId, what: string, got: Obj, t: ReasoningTrace, stepsMayGo: boolean): void {
  if (got.session_id !== t.session_id || got.task !== t.task) violated(rule, `${what}: trace ${short(got.id)}: session_id ${show(got.session_id)}, task ${show(got.task)}; written ${show(t.session_id)}, ${show(t.task)}`);
  if (t.completed_at != null && (opt(got.outcome) !== opt(t.outcome) || opt(got.success) !== opt(t.success) || got.completed_at == null)) {
    violated(rule, `${what}: trace ${short(got.id)} was completed with outcome ${show(t.outcome)}, success ${show(t.success)}; it reads outcome ${show(got.outcome)}, success ${show(got.success)}, completed_at ${show(got.completed_at)}`);
  }
  const steps = got.steps as Obj[];
  // silent (list-traces-steps): list_traces may answer no steps, or the steps without their tool calls.
  if (stepsMayGo && steps.length === 0) return;
  const ids = steps.map((s) => modelIdOf(model, s.id));
  if (!same(ids, t.steps.map((s) => s.id))) {
    violated(rule, `${what}: trace ${short(got.id)} has steps ${show(steps.map((s) => s.thought ?? s.action ?? short(s.id)))}; added, in order: ${show(t.steps.map((s) => s.thought ?? s.action ?? short(model.serverId(s.id))))}`);
  }
  t.steps.forEach((s, i) => stepKept(model, rule, what, steps[i]!, s, stepsMayGo));
}

function stepKept(model: ExploreModel, rule: RuleId, what: string, got: Obj, s: ReasoningStep, callsMayGo: boolean): void {
  const n = model.stepNumbers.get(s.id);
  if (n !== undefined && got.step_number !== n) violated('step.numbers', `${what}: step ${short(got.id)} is numbered ${show(got.step_number)}, add_step numbered it ${n}`);
  if (modelIdOf(model, got.trace_id) !== s.trace_id) violated(rule, `${what}: step ${short(got.id)} has trace_id ${show(got.trace_id)}`);
  for (const f of ['thought', 'action', 'observation'] as const) {
    if (opt(got[f]) !== opt(s[f])) violated(rule, `${what}: step ${short(got.id)}: ${f} ${show(got[f])}, added ${show(s[f] ?? null)}`);
  }
  const calls = got.tool_calls as Obj[];
  if (callsMayGo && calls.length === 0) return;
  // silent (list-order): the order of a step's tool calls is not stated.
  const want = new Map(s.tool_calls.map((tc) => [tc.id, tc]));
  const seen = new Set<string>();
  for (const tc of calls) {
    const id = modelIdOf(model, tc.id);
    const w = id === undefined ? undefined : want.get(id);
    if (w === undefined || seen.has(id!)) violated(rule, `${what}: step ${short(got.id)} (${show(s.thought ?? s.action)}) lists tool call ${show(tc)}, which was ${w === undefined ? 'not recorded on this step' : 'listed twice'}; recorded: ${show(s.tool_calls.map((x) => x.tool_name))}`);
    seen.add(id!);
    const diffs = callDiffs(tc, w!);
    if (diffs.length > 0) violated(rule, `${what}: tool call ${short(tc.id)}: ${diffs.join('; ')}`);
  }
  if (seen.size !== want.size) violated(rule, `${what}: step ${short(got.id)} (${show(s.thought ?? s.action)}) lists ${calls.length} tool calls, ${want.size} were recorded on it: ${show(s.tool_calls.map((x) => x.tool_name))}`);
}

function getTrace(model: ExploreModel, c: Call): void {
  const t = model.snapshot().traces.find((x) => x.id === c.mp.trace_id);
  const what = `get_trace_with_steps(${short(c.sp.trace_id)})`;
  const a = c.answer.body as Obj | null;
  if (t === undefined) return;
  if (a === null) violated('get_trace_with_steps.trace', `${what}: null, but the trace is live`);
  if (modelIdOf(model, a!.id) !== t.id) violated('get_trace_with_steps.trace', `${what}: answered trace ${short(a!.id)}`);
  traceKept(model, 'get_trace_with_steps.trace', what, a!, t, false);
}

/** A trace record_step made for a Platinum conversation: lists may show it (how the two views meet is open). */
const platinumTrace = (model: ExploreModel, t: Obj) => modelIdOf(model, t.id) === undefined && (model.platinum.conversations.has(t.session_id as string) || model.platinum.sessions.has(t.session_id as string));

function listTraces(model: ExploreModel, c: Call): void {
  const sid = c.mp.session_id as string | undefined;
  const scope = new Map(model.snapshot().traces.filter((t) => sid === undefined || t.session_id === sid).map((t) => [t.id, t]));
  const what = `list_traces(${show(c.sp)})`;
  const found = hits(model, c, 'list_traces.traces', scope, (t) => platinumTrace(model, t) && (sid === undefined || t.session_id === sid));
  for (const { hit, item } of found) if (item !== undefined) traceKept(model, 'list_traces.traces', what, hit, item, true);
  const known = found.filter((f) => f.item !== undefined).length;
  const limit = c.mp.limit as number | undefined;
  const want = Math.min(limit ?? DEFAULT_PAGE.list_traces!, scope.size);
  if (known < want && !(limit !== undefined && found.length >= limit)) violated('list_traces.traces', `${what}: ${known} of the ${scope.size} live traces in scope listed${limit === undefined ? '' : ` (limit ${limit})`}`);
}

interface ToolTally { total: number; ok: number; failed: number; durations: number[] }

/** The tallies of the tool calls recorded, by tool name (only `name` when given). */
function tallyOf(calls: readonly { tool_name: string; status: string; duration_ms?: number | null }[], name: string | undefined): Map<string, ToolTally> {
  const tally = new Map<string, ToolTally>();
  for (const tc of calls) {
    if (name !== undefined && tc.tool_name !== name) continue;
    const t = tally.get(tc.tool_name) ?? { total: 0, ok: 0, failed: 0, durations: [] };
    t.total++;
    if (tc.status === 'success') t.ok++;
    if (['failure', 'error', 'timeout'].includes(tc.status)) t.failed++;
    if (tc.duration_ms != null) t.durations.push(tc.duration_ms);
    tally.set(tc.tool_name, t);
  }
  return tally;
}

/** What an entry of get_tool_stats gets wrong against the tally of its tool (empty: nothing). */
function statsDiffs(s: Obj, t: ToolTally): string[] {
  const unfinished = t.total - t.ok - t.failed;
  return [
    s.total_calls !== t.total && `total_calls ${show(s.total_calls)}, ${t.total} recorded`,
    s.successful_calls !== t.ok && `successful_calls ${show(s.successful_calls)}, ${t.ok} recorded with status success`,
    // silent (tool-stats-unfinished): pending and cancelled calls may count as failed.
    s.failed_calls !== t.failed && s.failed_calls !== t.failed + unfinished && `failed_calls ${show(s.failed_calls)}, ${t.failed} failure/error/timeout${unfinished > 0 ? ` (${t.failed + unfinished} counting pending and cancelled)` : ''}`,
    // success_rate over every call, or over the finished ones (0 when none finished), to 4 significant digits.
    !close(s.success_rate, t.ok / t.total) && !close(s.success_rate, t.ok + t.failed === 0 ? 0 : t.ok / (t.ok + t.failed)) && `success_rate ${show(s.success_rate)}, expected ${t.ok}/${t.total}${unfinished > 0 ? ` or ${t.ok}/${t.ok + t.failed}` : ''}`,
    // silent (avg-duration-none): no duration recorded: null, omitted or 0.
    t.durations.length === 0
      ? s.avg_duration_ms != null && s.avg_duration_ms !== 0 && `avg_duration_ms ${show(s.avg_duration_ms)}, but no call recorded a duration`
      : !close(s.avg_duration_ms, t.durations.reduce((x, y) => x + y, 0) / t.durations.length) && `avg_duration_ms ${show(s.avg_duration_ms)}, the mean of the recorded ${show(t.durations)} is ${t.durations.reduce((x, y) => x + y, 0) / t.durations.length}`,
  ].filter((d): d is string => d !== false);
}

function toolStats(model: ExploreModel, c: Call): void {
  const name = c.mp.tool_name as string | undefined;
  const p = model.platinum;
  const bridgeCalls = model.snapshot().traces.flatMap((t) => t.steps.flatMap((s) => s.tool_calls));
  const platinumSteps = [...p.steps.values()];
  const tally = tallyOf([...bridgeCalls, ...platinumSteps.flatMap((s) => s.calls)], name);
  // silent (delete-conversation-steps): the steps of a deleted conversation may be gone with it, and their tool calls with them.
  const kept = tallyOf([...bridgeCalls, ...platinumSteps.filter((s) => p.conversations.get(s.conversation)?.deleted !== true).flatMap((s) => s.calls)], name);
  const what = `get_tool_stats(${name === undefined ? '' : `tool_name=${show(name)}`})`;
  const got = list(c);
  const listed = new Set<string>();
  for (const s of got) {
    const tool = s.name as string;
    const t = tally.get(tool);
    if (listed.has(tool)) violated('get_tool_stats.stats', `${what}: ${show(tool)} has two entries`);
    listed.add(tool);
    if (t === undefined) {
      if (s.total_calls === 0 && (name === undefined || tool === name)) continue;
      violated('get_tool_stats.stats', `${what}: an entry for ${show(tool)} (${show(s)}), ${name !== undefined && tool !== name ? `but only ${show(name)} was asked for` : 'which no recorded call used'}`);
    }
    const diffs = statsDiffs(s, t!);
    const other = kept.get(tool);
    if (diffs.length > 0 && (other === undefined ? s.total_calls !== 0 : statsDiffs(s, other).length > 0)) violated('get_tool_stats.stats', `${what}: ${show(tool)}: ${diffs.join('; ')}`);
  }
  const missing = [...kept.keys()].filter((t) => !listed.has(t));
  if (missing.length > 0) violated('get_tool_stats.stats', `${what}: no entry for ${show(missing)}, which recorded calls used`);
}

// ------------------------------------------------------------------ Gold

function addRelationship(model: ExploreModel, c: Call, m: Answer): void {
  const a = body(c);
  const what = `add_relationship(${show(c.mp.relationship_type)})`;
  const diffs = [
    modelIdOf(model, a.source_id) !== c.mp.source_id && `source_id ${show(a.source_id)}, sent ${short(c.sp.source_id)}`,
    modelIdOf(model, a.target_id) !== c.mp.target_id && `target_id ${show(a.target_id)}, sent ${short(c.sp.target_id)}`,
    a.relationship_type !== c.mp.relationship_type && `relationship_type ${show(a.relationship_type)}`,
    // silent (optional-null-or-omitted): properties left out when none were sent.
    !same(a.properties ?? (c.mp.properties === undefined ? undefined : null), c.mp.properties ?? (a.properties === undefined ? undefined : {})) && `properties ${show(a.properties)}, sent ${show(c.mp.properties ?? '(none)')}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated('add_relationship.written', `${what}: ${diffs.join('; ')}`);
  bind(model, 'add_relationship', m, c);
}

function mergeEntities(model: ExploreModel, c: Call, _m: Answer, before: StoreSnapshot): void {
  const a = body(c);
  const target = before.entities.find((e) => e.id === c.mp.target_id)!;
  const what = `merge_duplicate_entities(${show(before.entities.find((e) => e.id === c.mp.source_id)?.name)} into ${show(target.name)})`;
  const diffs = [
    modelIdOf(model, a.id) !== target.id && `id ${show(a.id)}, the target is ${short(c.sp.target_id)}`,
    a.name !== target.name && `name ${show(a.name)}, the target's is ${show(target.name)}`,
    a.type !== target.type && `type ${show(a.type)}, the target's is ${show(target.type)}`,
    c.mp.canonical_name !== undefined && a.canonical_name !== c.mp.canonical_name && `canonical_name ${show(a.canonical_name)}, sent ${show(c.mp.canonical_name)}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated('merge.result', `${what}: ${diffs.join('; ')}`);
  // silent (merge-description, canonical-name): what the target's description and canonical name become.
  model.descriptionOpen.add(target.id);
  if (c.mp.canonical_name === undefined) model.canonical.delete(target.id);
  else model.canonical.set(target.id, c.mp.canonical_name as string);
  for (const [id, names] of model.formerNames) if (id === c.mp.source_id) model.formerNames.set(target.id, new Set([...(model.formerNames.get(target.id) ?? []), ...names]));
  model.mergedAway.add(String(c.sp.source_id).toLowerCase());
}

function similarTraces(model: ExploreModel, c: Call, m: Answer): void {
  const only = c.mp.success_only === true;
  const traces = model.snapshot().traces;
  const scope = new Map(traces.filter((t) => !only || t.success === true).map((t) => [t.id, t]));
  const what = `get_similar_traces(${show(c.sp)})`;
  for (const { hit, item } of hits(model, c, 'get_similar_traces.scope', scope, (t) => platinumTrace(model, t) && (!only || t.success === true))) {
    if (item !== undefined) traceKept(model, 'get_similar_traces.scope', what, hit, item, true);
  }
  const task = c.mp.task as string;
  // silent (success-only-default): without success_only, only a successful exact trace must be found.
  const exact = (m.body as ReasoningTrace[]).some((t) => t.task === task && (c.mp.success_only === false || t.success === true));
  matchRule(c, 'get_similar_traces.match', exact, (h) => h.task, task, traces.length === 0 && model.platinum.steps.size === 0, false);
}

type Handler = (model: ExploreModel, c: Call, modelAnswer: Answer, before: StoreSnapshot) => void;

const HANDLERS: Partial<Record<MethodName, Handler>> = {
  clear_all_data: (m) => m.cleared(),
  add_message: addMessage,
  get_conversation: getConversation,
  search_messages: searchMessages,
  list_sessions: listSessions,
  delete_message: deleteMessage,
  clear_session: clearSession,
  add_entity: addEntity,
  add_preference: addPreference,
  add_fact: addFact,
  search_entities: searchEntities,
  search_preferences: searchPreferences,
  get_entity_by_name: getEntityByName,
  get_related_entities: relatedEntities,
  start_trace: startTrace,
  add_step: addStep,
  record_tool_call: recordToolCall,
  complete_trace: completeTrace,
  get_trace_with_steps: getTrace,
  list_traces: listTraces,
  get_tool_stats: toolStats,
  add_relationship: addRelationship,
  merge_duplicate_entities: mergeEntities,
  get_similar_traces: similarTraces,
};

