// Servers that break only the kit's own readings (the advisories of src/protocols/clauses/advisories.ts):
// each still passes its scenario, with the advisory noted, and fails it when a run asks for the stricter
// bar (--advisories=fail). The proof is ../advisories.test.ts. A row per advisory at least; the faulty
// variants of the rules stay in the tables of each tier.
import { randomUUID } from 'node:crypto';
import { TOOL_CALL_STATUSES } from '../../../src/protocols/bridge/model.js';
import { HostedStore } from '../../../src/servers/hosted/store.js';
import { compose, mapRequest, mapResponse, type VariantOptions, type Wrap } from '../../harness/variants.js';
import { ROLES, failAfterWriting, json, messagesOf, replace, sessionsOf, w } from './bronze-b.js';

/** [scenario, the reading broken, the variant, the advisory noted]. */
type AdvisoryRow = [id: string, fault: string, variant: VariantOptions, advisory: string];


/**
 * get_conversation(limit=N), when the session holds more, keeps its first N-1 messages and its last:
 * N messages of the session in order, but a run from neither end.
 */
const firstAndLast: Wrap = (next) => async (m, body: any) => {
  const res = await next(m, body);
  if (m !== 'get_conversation' || res.status !== 200 || body?.limit == null || body.limit < 2) return res;
  const whole = (await next(m, { ...body, limit: undefined })).body as { messages: unknown[] };
  if (whole.messages.length <= body.limit) return res;
  return { ...res, body: { ...whole, messages: [...whole.messages.slice(0, body.limit - 1), whole.messages.at(-1)] } };
};

/** delete_conversation of an id no conversation ever had is refused (400), while a second delete still succeeds. */
const refusesUnknownDelete = (): Wrap => {
  const created = new Set<string>();
  return (next) => async (m, body: any) => {
    if (m === 'delete_conversation' && !created.has(body?.conversation_id)) return json(400, { error: `no conversation ${String(body?.conversation_id)}` });
    const res = await next(m, body);
    if (m === 'create_conversation' && res.status === 200) created.add((res.body as { id: string }).id);
    return res;
  };
};

/** bulk_add_messages of more than 100 stores the first 100, then answers 400 (the cap enforced, the call not atomic). */
const bulkKeepsFirstHundred: Wrap = failAfterWriting(
  'bulk_add_messages',
  (b) => Array.isArray(b?.messages) && b.messages.length > 100,
  (b, next) => next('bulk_add_messages', { ...b, messages: b.messages.slice(0, 100) }),
);

/** A search answer with its best hit twice (as an index of chunks can give), cut to the limit. */
const firstTwice = (method: string): Wrap =>
  mapResponse(method, (l: unknown[], req) => (l.length === 0 ? l : [l[0], ...l].slice(0, req.limit ?? l.length + 1)));

/** add_step on a trace that does not exist answers a step naming that trace (and keeps nothing). */
const danglingStep: Wrap = replace('add_step', async (b, next) => {
  const known = (await next('get_trace_with_steps', { trace_id: b.trace_id })).body;
  if (known) return next('add_step', b);
  return json(200, { id: randomUUID(), trace_id: b.trace_id, step_number: 1, thought: b.thought ?? null, action: b.action ?? null, observation: b.observation ?? null, tool_calls: [] });
});

export const ADVISORY_ROWS: AdvisoryRow[] = [
  // Bronze
  ['SCN-B-129', 'add_message without session_id goes to a default session', w(mapRequest('add_message', (b) => (b.session_id === undefined ? { ...b, session_id: 'default' } : b))), 'ADV-refuse-missing-param'],
  ['SCN-B-129', 'add_message without content stores an empty message, then answers 400', w(failAfterWriting('add_message', (b) => b.content === undefined, (b, next) => next('add_message', { ...b, content: '' }))), 'ADV-failed-call-changes-nothing'],
  ['SCN-B-129', 'clear_session without session_id clears everything, then answers 400', w(failAfterWriting('clear_session', (b) => b.session_id === undefined, (_b, next) => next('clear_all_data', {}))), 'ADV-failed-call-changes-nothing'],
  ['SCN-B-129', 'delete_message without message_id deletes the latest message, then answers 400', w(failAfterWriting('delete_message', (b) => b.message_id === undefined, async (_b, next) => {
    const [s] = await sessionsOf(next);
    const last = (await messagesOf(next, s!.session_id)).at(-1)!;
    return next('delete_message', { message_id: last.id });
  })), 'ADV-failed-call-changes-nothing'],
  ['SCN-B-130', 'an unknown role is stored as user, then 400', w(failAfterWriting('add_message', (b) => !ROLES.includes(b.role), (b, next) => next('add_message', { ...b, role: 'user' }))), 'ADV-failed-call-changes-nothing'],
  ['SCN-B-131', 'metadata of the wrong type is ignored', w(mapRequest('add_message', (b) => (typeof b.metadata === 'string' ? { ...b, metadata: undefined } : b))), 'ADV-refuse-wrong-type'],
  ['SCN-B-131', 'a limit that is not a number is ignored', w(mapRequest('get_conversation', (b) => (typeof b.limit === 'string' ? { ...b, limit: undefined } : b))), 'ADV-refuse-wrong-type'],
  ['SCN-B-132', 'add_step on an unknown trace answers a step of that trace', w(danglingStep), 'ADV-refuse-unknown-trace'],
  ['SCN-B-136', 'a body with a trailing comma is read leniently', { http: { lenientJson: true } }, 'ADV-refuse-malformed-body'],
  ['SCN-B-044', 'get_conversation(limit=N) keeps the first N-1 messages and the last', w(firstAndLast), 'ADV-limit-window'],
  ['SCN-B-137', 'get_conversation(limit=N) keeps the first N-1 messages and the last', w(firstAndLast), 'ADV-limit-window'],
  ['SCN-B-057', 'search_messages answers its best hit twice', w(firstTwice('search_messages')), 'ADV-search-results-distinct'],
  // Silver
  ['SCN-S-104', 'record_tool_call reads an unknown status as success', w(mapRequest('record_tool_call', (b) => ((TOOL_CALL_STATUSES as readonly string[]).includes(b.status ?? 'success') ? b : { ...b, status: 'success' }))), 'ADV-refuse-unknown-status'],
  ['SCN-S-110', 'search_preferences ignores limit', w(mapRequest('search_preferences', ({ limit: _l, ...rest }) => rest)), 'ADV-search-preferences-limit'],
  ['SCN-S-015', 'search_entities answers its best hit twice', w(firstTwice('search_entities')), 'ADV-search-results-distinct'],
  // Gold
  ['SCN-G-006', 'get_similar_traces lists every trace, newest first', w((next) => async (m, body) => (m === 'get_similar_traces' ? { status: 200, body: ((await next('list_traces', {})).body as unknown[]).reverse() } : next(m, body))), 'ADV-similar-traces-first'],
  ['SCN-G-106', 'properties answered null when none were given', w(mapResponse('add_relationship', (r, req) => (req.properties == null ? { ...r, properties: null } : r))), 'ADV-properties-not-null'],
  // Platinum (the Volume 5 methods, on the store that implements them)
  ['SCN-P-003', 'delete_conversation of an id that never existed is refused with 400', { store: new HostedStore(), wrap: refusesUnknownDelete() }, 'ADV-delete-unknown-conversation'],
  ['SCN-P-102', 'bulk_add_messages of 101 stores the first 100, then answers 400', { store: new HostedStore(), wrap: bulkKeepsFirstHundred }, 'ADV-bulk-refusal-atomic'],
];

/**
 * One server breaking every reading at once that a run of the whole kit can hold together (the
 * HTTP-level lenient body aside): it must reach Gold with the advisories noted, and fail with them.
 */
export const BY_THE_KITS_READING: Wrap = compose(
  mapRequest('add_message', (b) => (b.session_id === undefined ? { ...b, session_id: 'default' } : b)),
  mapRequest('get_conversation', (b) => (typeof b.limit === 'string' ? { ...b, limit: undefined } : b)),
  danglingStep,
  firstAndLast,
  firstTwice('search_messages'),
  mapRequest('record_tool_call', (b) => ((TOOL_CALL_STATUSES as readonly string[]).includes(b.status ?? 'success') ? b : { ...b, status: 'success' })),
  mapRequest('search_preferences', ({ limit: _l, ...rest }) => rest),
  mapResponse('add_relationship', (r, req) => (req.properties == null ? { ...r, properties: null } : r)),
);
