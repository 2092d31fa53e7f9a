// Faulty and valid variants of the hosted reference service for the VALUE dimension (issue 34):
// every write endpoint's string and number fields × the value classes storage engines treat
// differently. Written before the scenarios that catch them (suites/hosted/values.ts, SCN-H-200 …):
// each faulty variant changes a value the way a real store does (a normalising collation, a column
// that truncates, a driver that strips NUL, a trimming ORM, a label mapper, a lax range check, a
// search index never told of a rename, a bulk path with its own encoder); each valid variant makes
// a choice the document leaves open (a size limit refused honestly, NUL refused with a 400, a
// lagging search index, 422 for an out-of-range score).
import type { FaultRow, ValidRow } from '../harness/power.js';
import type { RouteContext } from '../../src/servers/hosted/index.js';
import { combine, json, mapAnswer, mapReplies, pathOf, replaceHandler, type HostedVariant } from './profile-harness.js';

type Body = Record<string, unknown>;
type Edit = (text: string) => string;

/** `content` of add_message (and, with `bulk`, of every message of bulk_add_messages) edited before it is stored. */
function contentStored(edit: Edit, paths: { single?: boolean; bulk?: boolean } = { single: true, bulk: true }): HostedVariant {
  const one = (m: unknown) => (m !== null && typeof m === 'object' && typeof (m as Body).content === 'string' ? { ...(m as Body), content: edit((m as Body).content as string) } : m);
  return combine(
    ...(paths.single ? [replaceHandler('add_message', (ctx, original) => original({ ...ctx, body: one(ctx.body) as Body }))] : []),
    ...(paths.bulk ? [replaceHandler('bulk_add_messages', (ctx, original) => original({ ...ctx, body: { ...ctx.body, messages: Array.isArray(ctx.body.messages) ? ctx.body.messages.map(one) : ctx.body.messages } }))] : []),
  );
}

/** Named string fields of one operation's body edited before the handler sees them. */
const fieldsStored = (operation: string, fields: string[], edit: Edit): HostedVariant =>
  replaceHandler(operation, (ctx: RouteContext, original) =>
    original({ ...ctx, body: Object.fromEntries(Object.entries(ctx.body).map(([k, v]) => [k, fields.includes(k) && typeof v === 'string' ? edit(v) : v])) }));

/** Every `field` string of an answer (at any depth) edited: a read that shows a value changed. */
function deepEdit(value: unknown, field: string, edit: Edit): unknown {
  if (Array.isArray(value)) return value.map((v) => deepEdit(v, field, edit));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === field && typeof v === 'string' ? edit(v) : deepEdit(v, field, edit)]));
}

const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const nfkc: Edit = (s) => s.normalize('NFKC');
const nfc: Edit = (s) => s.normalize('NFC');
const titleCase: Edit = (s) => s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
/** What a Latin-1 column does to a character it cannot hold. */
const latin1: Edit = (s) => [...s].map((c) => (c.codePointAt(0)! > 0xff ? '?' : c)).join('');

/** search_entities answers from an index filled at creation: a renamed entity is found by its old name only. */
function searchIndexKeepsOldName(): HostedVariant {
  const indexed = new Map<string, string>();
  return combine(
    mapAnswer('add_entity', (b) => (indexed.set(b.id, b.name), b)),
    replaceHandler('search_entities', async (ctx, original) => {
      const reply = await original(ctx);
      const query = String(ctx.body.query ?? '').toLowerCase();
      const body = reply.body as { entities?: { id: string; name: string }[] } | undefined;
      if (reply.status !== 200 || !Array.isArray(body?.entities)) return reply;
      // The index still holds the name the entity was created with: a hit by any other name is lost.
      const entities = body.entities.filter((e) => !indexed.has(e.id) || indexed.get(e.id) === e.name || indexed.get(e.id)!.toLowerCase().includes(query));
      return { ...reply, body: { ...body, entities } };
    }),
  );
}

/** userScore is read as a percentage when above 1: 50 is stored as 0.5. */
const percentScores = replaceHandler('set_entity_feedback', (ctx, original) => {
  const s = ctx.body.userScore;
  return original(typeof s === 'number' && s > 1 && s <= 100 ? { ...ctx, body: { ...ctx.body, userScore: s / 100 } } : ctx);
});

/** The feedback's range check is written [0, 1): a score of 1 is refused. */
const scoreOneRefused = replaceHandler('set_entity_feedback', (ctx, original) => (ctx.body.userScore === 1 ? json(400, { error: 'userScore must be in [0, 1)' }) : original(ctx)));

/** Out-of-range scores are answered 400 after they were stored. */
const scoreStoredThenRefused = replaceHandler('set_entity_feedback', async (ctx, original) => {
  const s = ctx.body.userScore;
  if (typeof s !== 'number' || (s >= 0 && s <= 1)) return original(ctx);
  ctx.store.setFeedback(ctx.params.id!, { userScore: 0.5 });
  (ctx.store as unknown as { entityFeedback: Map<string, { feedback: Body }> }).entityFeedback.get(ctx.params.id!)!.feedback.userScore = s;
  return json(400, { error: 'userScore must be in [0, 1]' });
});

/** The entity answers' type labels Title-cased ("Person"): a label mapper of its own. */
const typeTitleCased = mapReplies((reply, request) => (pathOf(request).startsWith('/v1/entities') && reply.body !== undefined ? { ...reply, body: deepEdit(reply.body, 'type', titleCase) } : reply));

/** Entity types answered upper-case, while the list's filter compares with the stored lower case, exactly. */
const typeFilterCaseSensitive = combine(
  mapReplies((reply, request) => (pathOf(request).startsWith('/v1/entities') && reply.body !== undefined ? { ...reply, body: deepEdit(reply.body, 'type', (t) => (/^(person|organization|location|event|object)$/.test(t) ? t.toUpperCase() : t)) } : reply)),
  replaceHandler('list_entities', (ctx, original) => {
    const type = ctx.query.get('type');
    if (type === null || type === type.toLowerCase()) return original(ctx);
    return json(200, { entities: [] });
  }),
);

/** The context's recent messages shown NFKC-normalised (a display layer of its own). */
const contextNormalised = mapAnswer('get_context', (b) => ({ ...b, recentMessages: deepEdit(b.recentMessages, 'content', nfkc) }));

/** explain_step shows the step's fields NFC-normalised, the other reads as stored. */
const explainNormalised = mapAnswer('explain_step', (b) => ['reasoning', 'actionTaken', 'result'].reduce((acc, f) => deepEdit(acc, f, nfc), b));

/** list_entities shows names NFC-normalised. */
const listNamesNormalised = mapAnswer('list_entities', (b) => deepEdit(b, 'name', nfc));

export const FAULTS: FaultRow<HostedVariant>[] = [
  ['SCN-H-200', 'add_message stores content NFKC-normalised', contentStored(nfkc, { single: true }),
    /^add_message \(POST \/v1\/conversations\/[\w-]+\/messages\) answers the created message with the content of class "NFD \(decomposed\)" changed: sent 43 characters, read 39 \(first difference at index 24: sent U\+0065 U\+0308 U\+0020, read U\+00EB U\+0020 U\+0063\)/],
  ['SCN-H-200', 'add_message strips NUL from content', contentStored((s) => s.replace(/\u0000/g, ''), { single: true }),
    /^add_message .* answers the created message with the content of class "NUL" changed: sent 34 characters, read 33 \(first difference at index 28: sent U\+0000 U\+0061 U\+0066, read U\+0061 U\+0066 U\+0074\)/],
  ['SCN-H-200', 'add_message trims content (the answer echoes the content sent)', combine(contentStored((s) => s.trim(), { single: true }), mapAnswer('add_message', (b, ctx) => ({ ...b, content: ctx.body.content }))),
    /^get_conversation \(GET \/v1\/conversations\/[\w-]+\/messages\) after add_message: the message of class "leading and trailing whitespace" .* is read back 0 times, expected once; the nearest read back has 28 characters \(sent 35 characters, read 28 \(first difference at index 0: sent U\+0020 U\+0020 U\+0009, read U\+0074/],
  ['SCN-H-200', 'add_message stores content in a 3-byte UTF-8 column (utf8mb3: astral characters become "?")', contentStored((s) => s.replace(/[\u{10000}-\u{10FFFF}]/gu, '?'), { single: true }),
    /^add_message .* answers the created message with the content of class "astral characters" changed: .*first difference at index 22: sent U\+1F469 U\+200D U\+1F469, read U\+003F U\+200D U\+003F/],
  ['SCN-H-200', 'add_message strips DEL and C1 (NUL and C0 kept)', contentStored((s) => s.replace(/[\u007f-\u009f]/g, ''), { single: true }),
    /^add_message .* answers the created message with the content of class "C0 controls, DEL and C1" changed: .*sent U\+007F/],
  ['SCN-H-200', 'get_conversation reads content through a Latin-1 column', mapAnswer('get_conversation', (b) => deepEdit(b, 'content', latin1)),
    /^get_conversation .* after add_message: the message of class "NFD \(decomposed\)" .* is read back 0 times, expected once; .*first difference at index 25: sent U\+0308 U\+0020 U\+0063, read U\+003F U\+0020 U\+0063/],
  ['SCN-H-200', 'the context shows recent messages NFKC-normalised', contextNormalised,
    /^get_context \(GET \/v1\/conversations\/[\w-]+\/context\) shows a message that was never written: .*, the message of class "NFD \(decomposed\)" written .*first difference at index 24: sent U\+0065 U\+0308/],
  ['SCN-H-201', 'bulk_add_messages stores content NFC-normalised (add_message does not)', contentStored(nfc, { bulk: true }),
    /^get_conversation .* after bulk_add_messages: the message of class "NFD \(decomposed\)" .* is read back 0 times, expected once; the nearest read back has 44 characters \(sent 48 characters, read 44 \(first difference at index 29: sent U\+0065 U\+0308 U\+0020, read U\+00EB/],
  ['SCN-H-201', 'bulk_add_messages strips control characters', contentStored((s) => s.replace(CONTROLS, ''), { bulk: true }),
    /^get_conversation .* after bulk_add_messages: the message of class "NUL" .* is read back 0 times, expected once; .*first difference at index 33: sent U\+0000/],
  ['SCN-H-201', 'bulk_add_messages folds full-width forms to ASCII (Ａ is stored as A)', contentStored((s) => s.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)), { bulk: true }),
    /^get_conversation .* after bulk_add_messages: the message of class "compatibility characters" .* is read back 0 times, expected once; .*sent U\+FF21 U\+0020 U\+2122, read U\+0041 U\+0020 U\+2122/],
  ['SCN-H-202', 'content is cut at 10 000 characters', contentStored((s) => s.slice(0, 10_000)),
    /^add_message .* answers the created message with the content of 10001 characters changed: sent 10001 characters, read 10000 \(first difference at index 10000: sent U\+0044, read the end\)/],
  ['SCN-H-202', 'content is cut at 65 535 characters (the answer echoes the content sent)', combine(contentStored((s) => s.slice(0, 65_535)), mapAnswer('add_message', (b, ctx) => ({ ...b, content: ctx.body.content }))),
    /^get_conversation .* after add_message: the message of 65536 characters .* is read back 0 times, expected once; the nearest read back has 65535 characters \(sent 65536 characters, read 65535 \(first difference at index 65535: sent U\+0044, read the end\)\)/],
  ['SCN-H-202', 'bulk_add_messages cuts content at 16 384 characters', contentStored((s) => s.slice(0, 16_384), { bulk: true }),
    /^get_conversation .* after bulk_add_messages: the message of 16385 characters .* is read back 0 times, expected once; the nearest read back has 16384 characters/],
  ['SCN-H-203', 'create_conversation strips control characters from userId', fieldsStored('create_conversation', ['userId'], (s) => s.replace(CONTROLS, '')),
    /^create_conversation \(POST \/v1\/conversations\) reads back the userId of class "NUL" changed: sent 32 characters, read 31 \(first difference at index 26: sent U\+0000/],
  ['SCN-H-203', 'get_conversation_metadata answers the userId NFKC-normalised', mapAnswer('get_conversation_metadata', (b) => ({ ...b, userId: nfkc(b.userId) })),
    /^get_conversation_metadata \(GET \/v1\/conversations\/[\w-]+\) reads back the userId of class "NFD \(decomposed\)" changed: .*first difference at index 22: sent U\+0065 U\+0308/],
  ['SCN-H-204', 'add_entity trims the name', fieldsStored('add_entity', ['name'], (s) => s.trim()),
    /^get_entity \(GET \/v1\/entities\/[\w-]+\) after add_entity reads back the name of class "leading and trailing whitespace" changed: sent 34 characters, read 27 \(first difference at index 0/],
  ['SCN-H-204', 'add_entity stores the description NFKC-normalised', fieldsStored('add_entity', ['description'], nfkc),
    /^get_entity .* after add_entity reads back the description of class "NFD \(decomposed\)" changed: .*sent U\+0065 U\+0308/],
  ['SCN-H-204', 'list_entities shows names NFC-normalised', listNamesNormalised,
    /^list_entities \(GET \/v1\/entities\) after add_entity shows the name of class "NFD \(decomposed\)" changed: .*sent U\+0065 U\+0308/],
  ['SCN-H-204', 'the search index keeps the name an entity was created with', searchIndexKeepsOldName(),
    /^search_entities \(POST \/v1\/entities\/search\) for the exact new name .* after update_entity does not find the entity [\w-]+, asked 10 times over 2 s: 200 OK \{"entities":\[\]\}; SPEC-3\.4\.1/],
  ['SCN-H-204', 'update_entity strips NUL from the new name', fieldsStored('update_entity', ['name'], (s) => s.replace(/\u0000/g, '')),
    /^get_entity .* after update_entity reads back the name of class "NUL" changed: .*sent U\+0000/],
  ['SCN-H-205', 'entity type labels are answered Title-cased ("Person")', typeTitleCased,
    /^get_entity \(GET \/v1\/entities\/[\w-]+\) reads back the type "Person" for the type label PERSON sent: expected "PERSON" or "person" \(SPEC-1\.2\.3/],
  ['SCN-H-205', 'types answered upper-case are filtered against the lower case stored', typeFilterCaseSensitive,
    /^list_entities filtered with \?type=PERSON&limit=100 \(GET \/v1\/entities\) leaves out the entity [\w-]+ of type "PERSON", the type the service answered for it: it answers 0 entities where the list unfiltered \(\?limit=100\) shows \d+ of that type/],
  ['SCN-H-206', 'a userScore above 1 is read as a percentage (1.0001 and 50 accepted)', percentScores,
    /^set_entity_feedback \(PUT \/v1\/entities\/[\w-]+\/feedback\) with userScore 1\.0001 answered 200 OK .*: user_score is in \[0, 1\] \(SPEC-5\.3\.1\), so a score outside it is refused/],
  ['SCN-H-206', 'a userScore of 1 is refused', scoreOneRefused,
    /^set_entity_feedback \(PUT \/v1\/entities\/[\w-]+\/feedback\) with userScore 1 answered 400 .*: expected a 2xx, user_score is in \[0, 1\]/],
  ['SCN-H-206', 'an out-of-range userScore is stored, then refused', scoreStoredThenRefused,
    /^get_entity \(GET \/v1\/entities\/[\w-]+\) after the refused userScore -0\.1, 1\.0001, 50, 100 shows userScore 100, outside \[0, 1\]: a refused value is not stored/],
  ['SCN-H-207', 'record_step strips control characters', fieldsStored('record_step', ['reasoning', 'actionTaken', 'result'], (s) => s.replace(CONTROLS, '')),
    /^record_step \(POST \/v1\/reasoning\/steps\) answers the step with actionTaken of class "NUL" changed: .*sent U\+0000/],
  ['SCN-H-207', 'explain_step shows the fields NFC-normalised', explainNormalised,
    /^explain_step \(GET \/v1\/reasoning\/explain\/[\w-]+\) shows the step with reasoning of class "NFD \(decomposed\)" changed: .*sent U\+0065 U\+0308/],
];

// ------------------------------------------------------------------ other readings of what the document leaves open

/** Bodies of every write refused with 400 when a string of theirs holds NUL (a store that cannot keep it, saying so). */
export const nulRefused: HostedVariant = {
  routes: (rs) => rs.map((r) => (r.method === 'GET' ? r : { ...r, handler: (ctx) => (holdsNul(ctx.body) ? json(400, { error: 'NUL is not allowed in strings' }) : r.handler(ctx)) })),
};

/** Whether any string of a JSON value holds U+0000. */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  return value !== null && typeof value === 'object' && Object.values(value).some(holdsNul);
}

/** Content over 65 535 characters refused with 413 (a TEXT column, refused honestly). */
export const longContentRefused = combine(
  ...['add_message', 'bulk_add_messages'].map((op) => replaceHandler(op, (ctx, original) => {
    const messages = op === 'add_message' ? [ctx.body] : Array.isArray(ctx.body.messages) ? (ctx.body.messages as Body[]) : [];
    return messages.some((m) => typeof m?.content === 'string' && m.content.length > 65_535) ? json(413, { error: 'content is longer than 65535 characters' }) : original(ctx);
  })),
);

/** The entity search index catches up 300 ms after each write (as an asynchronous indexer does). */
function laggingEntityIndex(): HostedVariant {
  const changed = new Map<string, number>();
  const write = (op: string) => replaceHandler(op, async (ctx, original) => {
    const reply = await original(ctx);
    const id = (reply.body as { id?: unknown } | undefined)?.id;
    if (reply.status < 300 && typeof id === 'string') changed.set(id, Date.now());
    return reply;
  });
  return combine(write('add_entity'), write('update_entity'), replaceHandler('search_entities', async (ctx, original) => {
    const reply = await original(ctx);
    const body = reply.body as { entities?: { id: string }[] } | undefined;
    if (reply.status !== 200 || !Array.isArray(body?.entities)) return reply;
    return { ...reply, body: { ...body, entities: body.entities.filter((e) => Date.now() - (changed.get(e.id) ?? 0) >= 300) } };
  }));
}

/** An out-of-range score is answered 500 (a range check that throws): refused, not as a 4xx. */
export const scoreRefusedWith500 = mapReplies((reply, request) => (/\/feedback$/.test(pathOf(request)) && reply.status === 400 ? json(500, { error: 'internal error' }) : reply));

export const VALID: ValidRow<HostedVariant>[] = [
  ['every write refuses a string holding NUL with 400', nulRefused],
  ['content over 65 535 characters is refused with 413', longContentRefused],
  ['the entity search index catches up 300 ms after a write', laggingEntityIndex()],
  ['an out-of-range userScore is answered 422', mapReplies((reply, request) => (/\/feedback$/.test(pathOf(request)) && reply.status === 400 ? json(422, { error: 'userScore out of range' }) : reply))],
  ['entity types are stored and answered upper-case (PERSON)', mapReplies((reply, request) => (pathOf(request).startsWith('/v1/entities') && reply.body !== undefined ? { ...reply, body: deepEdit(reply.body, 'type', (t) => t.toUpperCase()) } : reply))],
  ['the context lists its recent messages under messages, and feedback is never shown', combine(
    mapAnswer('get_context', ({ recentMessages, ...rest }) => ({ ...rest, messages: recentMessages })),
    mapAnswer('get_entity', ({ feedback: _f, ...rest }) => rest),
  )],
];
