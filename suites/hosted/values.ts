// The value dimension of the hosted profile (issue 34): every write endpoint's string and number
// fields × the value classes storage engines treat differently (control characters with NUL,
// Unicode normalisation forms, compatibility characters, scripts, astral characters, edge
// whitespace, escapes, lengths around storage boundaries, type labels, scores at and past their
// range), each read back through every read that shows it. docs/hosted-values.md.
//
// The hosted form holds the same data as the bridge form (HOSTED-VERSION-2: "the bridge form uses
// snake_case names for the same data"), so the SPEC's sentences on what add_message and an entity
// keep (SPEC-2.1.7–2.1.10, SPEC-1.2.3–1.2.7, SPEC-3.4.1) and Volume 5's (SPEC-V5-…) are cited
// beside the document's rows.
//
// silent: where a class no sentence names is refused (NUL, other controls, edge whitespace in a
// name, a size limit past 10 000 characters), the refusal is an advisory; what a service accepts
// must read back as sent, character for character, wherever it is shown. A read that does not show
// a field (the document shows few) is not judged on it; lists are read with the clients' limit (100).
import type { Answer, HostedContext } from '../../src/profiles/hosted/context.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, checkObject, checkString, eventually, is2xx, isObject, itemsOf, messagesIn, said, type Json } from '../support/http-answers.js';
import { deleteIfCreated, newConversation, newEntity, uid } from '../support/hosted-data.js';

const seg = encodeURIComponent;
const READBACK = 'HOSTED-READBACK';

// ------------------------------------------------------------------ the value classes

/** A class of string values: a sample holding `marker` (a unique word), and the sentences that demand message content of it be accepted. */
interface ValueClass {
  name: string;
  make: (marker: string) => string;
  /** Sentences by which add_message must accept content of this class (undefined: a refusal is an advisory). */
  content?: string[];
}

export const STRING_CLASSES: readonly ValueClass[] = [
  { name: 'NUL', make: (m) => `${m} before\u0000after` },
  { name: 'C0 controls, DEL and C1', make: (m) => `${m} C0 \u0001\u0008\u000b\u000c\u001b\u001f DEL \u007f C1 \u0080\u0085\u009f end` },
  { name: 'tab, newline and CR', make: (m) => `${m}\tone\ntwo\r\nthree\rfour`, content: ['SPEC-2.1.10'] },
  { name: 'NFC (precomposed)', make: (m) => `${m} Zo\u00eb caf\u00e9 \u00c5ngstr\u00f6m`, content: ['SPEC-2.1.9'] },
  { name: 'NFD (decomposed)', make: (m) => `${m} Zoe\u0308 cafe\u0301 A\u030angstro\u0308m`, content: ['SPEC-2.1.9'] },
  { name: 'compatibility characters', make: (m) => `${m} \ufb01le \u2460 \uff21 \u2122 x\u00b2 \u216b`, content: ['SPEC-2.1.9'] },
  { name: 'non-Latin scripts', make: (m) => `${m} Привет мир مرحبا بالعالم 你好世界 नमस्ते दुनिया`, content: ['SPEC-2.1.9'] },
  { name: 'astral characters', make: (m) => `${m} 👩‍👩‍👧‍👦 🏳️‍🌈 🇳🇿 👍🏽 𝐀𝐁`, content: ['SPEC-2.1.9'] },
  { name: 'leading and trailing whitespace', make: (m) => `  \t ${m} padded \n `, content: ['SPEC-2.1.10'] },
  { name: 'quotes, backslash, <>%& and U+2028', make: (m) => `${m} "double" 'single' back\\slash <b>&amp;</b> 100% \u2028\u2029 end`, content: ['SPEC-2.1.10'] },
  { name: 'escape-like text', make: (m) => `${m} \\u0000 \\n \\" \\\\ {"a": "\\ud83d"} </script>`, content: ['SPEC-2.1.10'] },
];

/** The lengths around storage boundaries (VARCHAR(10000), 16 Ki, 64 Ki TEXT); SPEC-2.1.8 demands the first two be kept. */
export const LENGTHS: readonly { length: number; demanded: boolean }[] = [
  { length: 10_000, demanded: true },
  { length: 10_001, demanded: true },
  { length: 16_385, demanded: false },
  { length: 65_536, demanded: false },
  { length: 70_000, demanded: false },
];

/** Content of exactly `length` UTF-16 units (BMP only: as many code points), starting with `marker`, multi-byte throughout, marked at its end. */
export function longContent(marker: string, length: number): string {
  const head = `${marker} `;
  const tail = '|END';
  const filler = 'abcdefghij ünïcødé 数据 ';
  const body = filler.repeat(Math.ceil(length / filler.length)).slice(0, length - head.length - tail.length);
  return head + body + tail;
}

/** The code points of `s` from index `at` (three), in U+ form; "the end" past it. */
function pointsAt(s: string, at: number): string {
  if (at >= s.length) return 'the end';
  return [...s.slice(at, at + 6)].slice(0, 3).map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' ');
}

/** How `got` differs from `sent`: lengths, the first differing index and the code points there (texts shown when short). */
export function difference(sent: string, got: string): string {
  let at = 0;
  while (at < sent.length && at < got.length && sent[at] === got[at]) at++;
  const texts = sent.length + got.length <= 240 ? ` (sent ${JSON.stringify(sent)}, read ${JSON.stringify(got)})` : '';
  return `sent ${sent.length} characters, read ${got.length} (first difference at index ${at}: sent ${pointsAt(sent, at)}, read ${pointsAt(got, at)})${texts}`;
}

/** A string in a few words: short ones as JSON, long ones by length and start. */
const shown = (s: string): string => (s.length <= 120 ? JSON.stringify(s) : `<${s.length} characters: ${JSON.stringify(s.slice(0, 40))}…>`);

/** The string among `candidates` nearest `sent` (one holding its marker, else the longest common prefix). */
function nearest(sent: string, marker: string, candidates: string[]): string | undefined {
  const prefix = (s: string) => {
    let i = 0;
    while (i < s.length && i < sent.length && s[i] === sent[i]) i++;
    return i;
  };
  const pool = candidates.some((c) => c.includes(marker)) ? candidates.filter((c) => c.includes(marker)) : candidates;
  return pool.sort((a, b) => prefix(b) - prefix(a))[0];
}

// ------------------------------------------------------------------ reading answers

/** Every object of an answer, at any depth, whose id is `id`. */
function objectsWithId(json: unknown, id: string): Json[] {
  if (Array.isArray(json)) return json.flatMap((v) => objectsWithId(v, id));
  if (!isObject(json)) return [];
  return [...(json.id === id ? [json] : []), ...Object.values(json).flatMap((v) => objectsWithId(v, id))];
}

/** Whether a search hit is the entity `id` (the entity itself, or wrapped as {entity}). */
const isHit = (x: unknown, id: string): boolean => isObject(x) && (x.id === id || (isObject(x.entity) && x.entity.id === id));

/** Every value of a field named `key`, at any depth. */
function valuesOf(json: unknown, key: string): unknown[] {
  if (Array.isArray(json)) return json.flatMap((v) => valuesOf(v, key));
  if (!isObject(json)) return [];
  return Object.entries(json).flatMap(([k, v]) => [...(k === key ? [v] : []), ...valuesOf(v, key)]);
}


/**
 * search_entities for `query` until the entity `id` is among the hits: a search index may catch up a
 * moment after a write (silent: when it does; the official clients poll), so it is asked up to 10
 * times, 200 ms apart. The last answer and whether it found the entity.
 */
async function searchEntity(ctx: HostedContext, query: string, id: string): Promise<{ answer: Answer; found: boolean }> {
  const found = (a: Answer) => is2xx(a) && itemsOf(a, ['entities', 'results']).some((x) => isHit(x, id));
  const answer = await eventually(() => ctx.call('POST', '/entities/search', { body: { query, limit: 100 } }), found, 10);
  return { answer, found: found(answer) };
}

// ------------------------------------------------------------------ messages

type AcceptAdvisory = 'ADV-string-class-accepted' | 'ADV-long-content-accepted';
/** The advisory a refusal of content no sentence demands raises (named literally, as every advisory of the suites). */
const adviseAccepted = (id: AcceptAdvisory) => (id === 'ADV-long-content-accepted' ? check.advise('ADV-long-content-accepted') : check.advise('ADV-string-class-accepted'));

interface Sent {
  role: string;
  content: string;
  marker: string;
  /** The class, or the length, in words. */
  what: string;
  /** The sentences that demand it be kept, beside the read-back. */
  cites: string[];
}

/** add_message for each message; the accepted ones (a refusal fails when `demanded` names sentences, else it is the advisory). */
async function addOneByOne(ctx: HostedContext, path: string, list: (Sent & { demanded?: string[]; advisory: AcceptAdvisory })[]): Promise<Sent[]> {
  const accepted: Sent[] = [];
  for (const m of list) {
    const a = await ctx.call('POST', path, { body: { role: m.role, content: m.content } });
    if (m.demanded !== undefined) {
      check.by('HOSTED-ENDPOINT-add_message', ...m.demanded).that(is2xx(a), `add_message accepts content of each class the SPEC names (${m.what})`, () => ({
        message: `add_message (${a.request}) refused content of ${m.what} ${shown(m.content)}: ${said(a)}; ${m.demanded!.join(', ')}: add_message MUST accept and preserve it`,
        expected: '2xx',
        actual: a.status,
      }));
    } else adviseAccepted(m.advisory).that(is2xx(a), 'add_message accepts content of every class (a refusal of a class no sentence demands is noted)', () => ({ message: `add_message (${a.request}) refused content of ${m.what} ${shown(m.content)}: ${said(a)}`, expected: '2xx', actual: a.status }));
    if (!is2xx(a)) continue;
    accepted.push(m);
    // The created message (HOSTED-PAYLOAD-add_message), when it shows the content: as sent.
    const echoed = isObject(a.json) ? a.json.content : undefined;
    if (typeof echoed === 'string') {
      check.by('HOSTED-PAYLOAD-add_message', ...m.cites).that(echoed === m.content, 'add_message answers the created message with the content as sent', () => ({
        message: `add_message (${a.request}) answers the created message with the content of ${m.what} changed: ${difference(m.content, echoed)}`,
        expected: shown(m.content),
        actual: shown(echoed),
      }));
    }
  }
  return accepted;
}

/** One bulk add of `list`; when refused, the ones `demanded` in one bulk and each other one alone (a refusal of a class no sentence names is the advisory). */
async function addInBulk(ctx: HostedContext, path: string, list: (Sent & { demanded?: string[]; advisory: AcceptAdvisory })[]): Promise<Sent[]> {
  const bulk = (messages: typeof list) => ctx.call('POST', `${path}/bulk`, { body: { messages: messages.map((m) => ({ role: m.role, content: m.content })) } });
  const all = await bulk(list);
  if (is2xx(all)) return list;
  const must = list.filter((m) => m.demanded !== undefined);
  const accepted: Sent[] = [];
  if (must.length > 0) {
    const a = await bulk(must);
    check.by('HOSTED-ENDPOINT-bulk_add_messages', ...new Set(must.flatMap((m) => m.demanded!))).that(is2xx(a), 'bulk_add_messages accepts content of each class the SPEC names', () => ({
      message: `bulk_add_messages (${a.request}) refused ${must.length} messages of ${must.map((m) => m.what).join('; ')}: ${said(a)}; add_message MUST accept and preserve such content (${[...new Set(must.flatMap((m) => m.demanded!))].join(', ')})`,
      expected: '2xx',
      actual: a.status,
    }));
    accepted.push(...must);
  }
  for (const m of list.filter((x) => x.demanded === undefined)) {
    const a = await bulk([m]);
    if (adviseAccepted(m.advisory).that(is2xx(a), 'bulk_add_messages accepts content of every class (a refusal of a class no sentence demands is noted)', () => ({ message: `bulk_add_messages (${a.request}) refused content of ${m.what} ${shown(m.content)}: ${said(a)}`, expected: '2xx', actual: a.status }))) accepted.push(m);
  }
  return accepted;
}

/**
 * get_conversation reads back each accepted message (role and content) exactly once, and shows no
 * message of the scenario's markers that was never written; get_context's recent messages, when it
 * lists them, show none either; a search for the exact content finds it (advisory).
 */
async function readBack(ctx: HostedContext, convId: string, sent: readonly Sent[], all: readonly Sent[], via: string, derived: boolean): Promise<void> {
  const path = `/conversations/${seg(convId)}/messages`;
  // silent: the page size of get_conversation; the clients' limit asks for more than were written.
  const read = check2xx(await ctx.call('GET', `${path}?limit=100`), READBACK);
  const seen = messagesIn(read.json);
  const contents = seen.map((x) => x.content as string);
  for (const m of sent) {
    const n = seen.filter((x) => x.content === m.content && x.role === m.role).length;
    check.by(READBACK, `HOSTED-ENDPOINT-${via}`, ...m.cites).that(n === 1, `get_conversation after ${via} reads back each message of every value class exactly once (role and content)`, () => {
      const near = nearest(m.content, m.marker, contents);
      return {
        message: `get_conversation (${read.request}) after ${via}: the message of ${m.what} {role: "${m.role}", content: ${shown(m.content)}} is read back ${n} times, expected once` +
          (n === 0 && near !== undefined ? `; the nearest read back has ${near.length} characters (${difference(m.content, near)})` : '') + ` (${seen.length} messages read)`,
        expected: { role: m.role, content: shown(m.content) },
        actual: n,
      };
    });
  }
  const written = (x: Json) => all.some((m) => m.role === x.role && m.content === x.content);
  const ours = (x: Json) => all.some((m) => typeof x.content === 'string' && x.content.includes(m.marker));
  const strays = seen.filter((x) => ours(x) && !written(x));
  check.by(READBACK, `HOSTED-ENDPOINT-${via}`).that(strays.length === 0, `get_conversation after ${via} shows no message that was never written (a value changed, even of a refused write)`, () => ({
    message: `get_conversation (${read.request}) after ${via} shows a message that was never written: {role: ${JSON.stringify(strays[0]!.role)}, content: ${shown(strays[0]!.content as string)}}`,
    expected: 'only the messages written, as written',
    actual: strays.map((x) => shown(x.content as string)),
  }));
  // silent: whether the derived views (the context, a search) show long content whole; they are read for the classes only.
  if (!derived) return;
  // The context's recent messages (SPEC-V5-5.2.1), where the service lists them: each as written.
  const context = await ctx.call('GET', `/conversations/${seg(convId)}/context`);
  if (is2xx(context) && context.isJson) {
    const recent = messagesIn(context.json, ['recentMessages', 'recent_messages', 'messages']).filter(ours);
    const changed = recent.filter((x) => !written(x));
    check.by(READBACK, 'SPEC-V5-5.2.1').that(changed.length === 0, 'get_context shows each recent message as written', () => {
      const c = changed[0]!.content as string;
      const m = all.find((x) => c.includes(x.marker))!;
      return {
        message: `get_context (${context.request}) shows a message that was never written: ${shown(c)}, the message of ${m.what} written ${shown(m.content)}: ${difference(m.content, c)}`,
        expected: shown(m.content),
        actual: shown(c),
      };
    });
  }
  // advisory: the search's body and answer are not shown; the clients' {query, limit}.
  for (const m of sent.filter((x) => x.content.trim() !== '' && x.content.length <= 1_000)) {
    const found = await ctx.call('POST', `/conversations/${seg(convId)}/search`, { body: { query: m.content, limit: 100 } });
    check.advise('ADV-search-finds-written').that(is2xx(found) && messagesIn(found.json).some((x) => x.content === m.content), 'search_messages for the exact content of every class finds it as written', () => ({
      message: `search_messages (${found.request}) for the exact content of ${m.what} ${shown(m.content)} does not find it as written: ${said(found)}`,
      expected: shown(m.content),
      actual: found.json,
    }));
  }
}

/** The messages of every string class, roles alternating, each with its own marker. */
function classMessages(base: string): (Sent & { demanded?: string[]; advisory: AcceptAdvisory })[] {
  return [
    ...STRING_CLASSES.map((c, i) => {
      // Two digits: no marker is the prefix of another.
      const marker = `${base}-${String(i).padStart(2, '0')}`;
      const cites = c.content ?? [];
      return { role: i % 2 === 0 ? 'user' : 'assistant', content: c.make(marker), marker, what: `class "${c.name}"`, cites, ...(c.content ? { demanded: c.content } : {}), advisory: 'ADV-string-class-accepted' as const };
    }),
    // SPEC-2.1.7: an empty string is accepted as content.
    { role: 'user', content: '', marker: `${base}-empty`, what: 'class "empty"', cites: ['SPEC-2.1.7'], demanded: ['SPEC-2.1.7'], advisory: 'ADV-string-class-accepted' as const },
  ];
}

function lengthMessages(base: string): (Sent & { demanded?: string[]; advisory: AcceptAdvisory })[] {
  return LENGTHS.map(({ length, demanded }, i) => {
    const marker = `${base}-len${length}`;
    return { role: i % 2 === 0 ? 'user' : 'assistant', content: longContent(marker, length), marker, what: `${length} characters`, cites: ['SPEC-2.1.8'], ...(demanded ? { demanded: ['SPEC-2.1.8'] } : {}), advisory: 'ADV-long-content-accepted' as const };
  });
}

// ------------------------------------------------------------------ fields of other resources

/** A field read back: when `got` is a string it must be `sent`; anything else is silent (the document does not show the field). */
function sameField(cite: ReturnType<typeof check.by>, got: unknown, sent: string, what: string, where: string, field: string, cls: string): void {
  // silent: a field the read does not show as a string (absent, null, an object of its own) is not judged.
  if (typeof got !== 'string') return;
  cite.that(got === sent, what, () => ({
    message: `${where} reads back the ${field} of class "${cls}" changed: ${difference(sent, got)}`,
    expected: shown(sent),
    actual: shown(got),
  }));
}

const TYPE_CLAUSES: Record<string, string> = { PERSON: 'SPEC-1.2.3', ORGANIZATION: 'SPEC-1.2.4', LOCATION: 'SPEC-1.2.5', EVENT: 'SPEC-1.2.6', OBJECT: 'SPEC-1.2.7' };

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-200',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-add_message', READBACK, 'SPEC-2.1.7', 'SPEC-2.1.9', 'SPEC-2.1.10', 'SPEC-V5-5.2.1'],
    title: 'add_message keeps content of every value class exactly: controls, normalisation forms, compatibility characters, scripts, emoji, edge whitespace, escapes',
    asserts:
      `Adds to a new conversation, one by one (roles alternating), a message of each class: ${STRING_CLASSES.map((c) => c.name).join('; ')}; and the empty string. ` +
      'The classes SPEC-2.1.7/2.1.9/2.1.10 name (empty, Unicode and emoji, tabs, newlines, quotes, backslashes) must be accepted; a refusal of NUL or the other controls is ' +
      'an advisory (ADV-string-class-accepted). The created message, when it shows content, carries it as sent; GET /conversations/{id}/messages?limit=100 reads back ' +
      'each accepted message (role and content) exactly once, character for character (NFD stays NFD, ﬁ stays ﬁ), and no message changed; GET …/context, where it lists ' +
      'recent messages, shows them as written. Advisory (ADV-search-finds-written): POST …/search with the exact content finds it.',
    async run(ctx) {
      const conv = await newConversation(ctx);
      const list = classMessages(uid('value'));
      const accepted = await addOneByOne(ctx, `/conversations/${seg(conv.id)}/messages`, list);
      await readBack(ctx, conv.id, accepted, list, 'add_message', true);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-201',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-bulk_add_messages', READBACK, 'SPEC-2.1.7', 'SPEC-2.1.9', 'SPEC-2.1.10', 'SPEC-V5-5.2.1'],
    title: 'bulk_add_messages keeps content of every value class exactly, as add_message does',
    asserts:
      'Adds the messages of SCN-H-200 (every string class, and the empty string) to a new conversation in one POST /conversations/{id}/messages/bulk; when it is refused, ' +
      'the classes the SPEC names in one bulk add (which must be accepted) and each other class alone (a refusal: ADV-string-class-accepted). GET …/messages?limit=100 reads back ' +
      'each accepted message (role and content) exactly once, character for character, and no message changed; GET …/context shows its recent messages as written. ' +
      'Advisory (ADV-search-finds-written): POST …/search with the exact content finds it.',
    async run(ctx) {
      const conv = await newConversation(ctx);
      const list = classMessages(uid('bulk-value'));
      const accepted = await addInBulk(ctx, `/conversations/${seg(conv.id)}/messages`, list);
      await readBack(ctx, conv.id, accepted, list, 'bulk_add_messages', true);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-202',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-add_message', 'HOSTED-ENDPOINT-bulk_add_messages', READBACK, 'SPEC-2.1.8'],
    title: 'Content of 10 000 to 70 000 characters comes back whole, through add_message and bulk_add_messages',
    asserts:
      `Adds to a new conversation, one by one, messages of ${LENGTHS.map((l) => l.length).join(', ')} characters (multi-byte UTF-8 throughout, a marked end), then the same lengths ` +
      'in one bulk add to a second conversation (when refused: the first two in one bulk, each other alone). 10 000 and 10 001 characters must be accepted (SPEC-2.1.8: ' +
      'content of 10K+ characters is preserved); a refusal of a longer one is an advisory (ADV-long-content-accepted: size limits are not shown). Every message accepted ' +
      'is read back by GET …/messages?limit=100 exactly once, whole: no cut at 10 000, 16 384 or 65 535.',
    async run(ctx) {
      const [single, bulk] = [await newConversation(ctx), await newConversation(ctx)];
      const one = lengthMessages(uid('long'));
      await readBack(ctx, single.id, await addOneByOne(ctx, `/conversations/${seg(single.id)}/messages`, one), one, 'add_message', false);
      const many = lengthMessages(uid('long-bulk'));
      await readBack(ctx, bulk.id, await addInBulk(ctx, `/conversations/${seg(bulk.id)}/messages`, many), many, 'bulk_add_messages', false);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-203',
    group: 'resources',
    clauses: ['HOSTED-RESOURCE-Conversation.userId', 'HOSTED-PAYLOAD-create_conversation', READBACK],
    title: 'create_conversation keeps a userId of every value class exactly',
    asserts:
      'Creates a conversation for a userId of each string class (with a unique word in each). A refusal is an advisory (ADV-string-class-accepted); for each one created, ' +
      'the answer (when it shows userId), GET /conversations/{id} and its item in GET /conversations?limit=100 (when listed) carry the userId as sent, character for character.',
    async run(ctx) {
      const base = uid('user');
      const made: { id: string; userId: string; cls: string }[] = [];
      for (const [i, c] of STRING_CLASSES.entries()) {
        const userId = c.make(`${base}-${i}`);
        const a = await ctx.call('POST', '/conversations', { body: { userId } });
        deleteIfCreated(ctx, a, '/conversations');
        if (!check.advise('ADV-string-class-accepted').that(is2xx(a), 'create_conversation accepts a userId of every class', () => ({ message: `create_conversation (${a.request}) refused the userId of class "${c.name}" ${shown(userId)}: ${said(a)}`, expected: '2xx', actual: a.status }))) continue;
        const body = checkObject(a, 'HOSTED-PAYLOAD-create_conversation');
        const id = checkString(body, 'id', 'HOSTED-PAYLOAD-create_conversation', 'create_conversation');
        sameField(check.by('HOSTED-PAYLOAD-create_conversation'), body.userId, userId, 'create_conversation answers the userId of every class as sent', `create_conversation (${a.request})`, 'userId', c.name);
        made.push({ id, userId, cls: c.name });
      }
      const cite = check.by(READBACK, 'HOSTED-RESOURCE-Conversation.userId');
      for (const m of made) {
        const answer = await ctx.call('GET', `/conversations/${seg(m.id)}`);
        const read = checkObject(answer, READBACK);
        cite.that(read.userId === m.userId, 'get_conversation_metadata reads back the userId of every class as sent', () => ({
          message: `get_conversation_metadata (${answer.request}) reads back the userId of class "${m.cls}" changed: ${typeof read.userId === 'string' ? difference(m.userId, read.userId) : `got ${JSON.stringify(read.userId) ?? 'nothing'}`}`,
          expected: shown(m.userId),
          actual: read.userId,
        }));
      }
      const list = check2xx(await ctx.call('GET', '/conversations?limit=100'), 'HOSTED-ENDPOINT-list_conversations');
      const items = itemsOf(list, ['conversations']);
      for (const m of made) {
        const item = items.find((x) => x.id === m.id);
        // silent: the page of the list; a conversation listed shows its userId as written.
        if (item !== undefined) sameField(cite, item.userId, m.userId, 'list_conversations shows the userId of every class as sent', `list_conversations (${list.request})`, 'userId', m.cls);
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-204',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-add_entity', 'HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-search_entities', READBACK, 'SPEC-3.4.1'],
    title: 'Entity names and descriptions of every value class are read back exactly, found by search, and renamed to another class',
    asserts:
      'Adds an entity (type PERSON) per string class, its name and description of that class (each with a unique word). A refusal is an advisory (ADV-string-class-accepted). ' +
      'GET /entities/{id} reads back the name and description as sent (when shown), GET /entities?limit=100 lists them as sent (when listed; not listed: ADV-list-shows-written), ' +
      'and POST /entities/search {query: the exact name, limit: 100} finds the entity (SPEC-3.4.1; asked up to 10 times, 200 ms apart, for an index that catches up). ' +
      'Then PUT /entities/{id} renames each to a name (and description) of the next class: the reads show the new values as sent, and a search for the exact new name finds it.',
    async run(ctx) {
      const base = uid('name');
      const made: { id: string; cls: number }[] = [];
      const texts = (cls: number, round: string) => ({ name: STRING_CLASSES[cls]!.make(`${base}-${round}${cls}`), description: STRING_CLASSES[cls]!.make(`${base}-${round}${cls}-description`) });
      for (let i = 0; i < STRING_CLASSES.length; i++) {
        const { name, description } = texts(i, 'a');
        const a = await ctx.call('POST', '/entities', { body: { name, type: 'PERSON', entityType: 'PERSON', description } });
        if (is2xx(a) && isObject(a.json) && typeof a.json.id === 'string') ctx.defer('DELETE', `/entities/${seg(a.json.id)}`);
        if (!check.advise('ADV-string-class-accepted').that(is2xx(a), 'add_entity accepts a name and description of every class', () => ({ message: `add_entity (${a.request}) refused the name and description of class "${STRING_CLASSES[i]!.name}" ${shown(name)}: ${said(a)}`, expected: '2xx', actual: a.status }))) continue;
        made.push({ id: checkString(checkObject(a, 'HOSTED-ENDPOINT-add_entity'), 'id', 'HOSTED-ENDPOINT-add_entity', 'add_entity'), cls: i });
      }
      const judge = async (round: 'a' | 'b', after: string, shift: number) => {
        const cite = check.by(READBACK, `HOSTED-ENDPOINT-${after}`);
        for (const e of made) {
          const cls = (e.cls + shift) % STRING_CLASSES.length;
          const want = texts(cls, round);
          const answer = await ctx.call('GET', `/entities/${seg(e.id)}`);
          const read = checkObject(answer, READBACK);
          for (const field of ['name', 'description'] as const) sameField(cite, read[field], want[field], `get_entity after ${after} reads back the ${field} of every class as sent`, `get_entity (${answer.request}) after ${after}`, field, STRING_CLASSES[cls]!.name);
        }
        const list = check2xx(await ctx.call('GET', '/entities?limit=100'), 'HOSTED-ENDPOINT-list_entities');
        const items = itemsOf(list, ['entities']);
        for (const e of made) {
          const cls = (e.cls + shift) % STRING_CLASSES.length;
          const want = texts(cls, round);
          const item = items.find((x) => x.id === e.id);
          // silent: whether the list shows a given entity at all (pagination); when it does, as written.
          check.advise('ADV-list-shows-written').that(item !== undefined, 'list_entities lists the entities just written', () => ({ message: `list_entities (${list.request}) after ${after} does not list the entity ${e.id}`, expected: e.id, actual: 'not listed' }));
          if (item === undefined) continue;
          for (const field of ['name', 'description'] as const) {
            const got = item[field];
            if (typeof got !== 'string') continue; // silent: a field the list does not show
            cite.that(got === want[field], `list_entities after ${after} shows the ${field} of every class as sent`, () => ({
              message: `list_entities (${list.request}) after ${after} shows the ${field} of class "${STRING_CLASSES[cls]!.name}" changed: ${difference(want[field], got)}`,
              expected: shown(want[field]),
              actual: shown(got),
            }));
          }
        }
        for (const e of made) {
          const cls = (e.cls + shift) % STRING_CLASSES.length;
          const { name } = texts(cls, round);
          const { answer, found } = await searchEntity(ctx, name, e.id);
          check.by('SPEC-3.4.1', 'HOSTED-ENDPOINT-search_entities').that(found, `search_entities for the exact name (after ${after}) finds the entity`, () => ({
            message: `search_entities (${answer.request}) for the exact ${round === 'b' ? 'new ' : ''}name ${shown(name)} (class "${STRING_CLASSES[cls]!.name}") after ${after} does not find the entity ${e.id}, asked 10 times over 2 s: ${said(answer)}; SPEC-3.4.1: search_entities MUST return entities matching the query`,
            expected: e.id,
            actual: answer.json,
          }));
        }
      };
      await judge('a', 'add_entity', 0);
      for (const e of made) {
        const cls = (e.cls + 1) % STRING_CLASSES.length;
        const { name, description } = texts(cls, 'b');
        const a = await ctx.call('PUT', `/entities/${seg(e.id)}`, { body: { name, type: 'PERSON', entityType: 'PERSON', description } });
        // A name the service refused at creation may be refused as a new name too (the advisory); the entity then keeps its first name.
        if (!check.advise('ADV-string-class-accepted').that(is2xx(a), 'update_entity accepts a name and description of every class', () => ({ message: `update_entity (${a.request}) refused the new name and description of class "${STRING_CLASSES[cls]!.name}" ${shown(name)}: ${said(a)}`, expected: '2xx', actual: a.status }))) {
          e.cls = -1;
        }
      }
      const renamed = made.filter((e) => e.cls >= 0);
      made.splice(0, made.length, ...renamed);
      await judge('b', 'update_entity', 1);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-205',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-add_entity', READBACK, 'SPEC-1.2.3', 'SPEC-1.2.4', 'SPEC-1.2.5', 'SPEC-1.2.6', 'SPEC-1.2.7', 'SPEC-V3-list_entities'],
    title: 'Each entity type label (PERSON, ORGANIZATION, LOCATION, EVENT, OBJECT) is accepted, kept, and found by the type filter',
    asserts:
      'Adds an entity of each of the five type labels (sent as type and entityType, upper case). Each is accepted (2xx); GET /entities/{id} answers the type as sent or ' +
      'in lower case (silent: the hosted form\'s casing; the established clients send and compare lower case), and nothing else ("Person" fails). GET /entities?type=<the type ' +
      'as the service answered it>&limit=100 does not leave out an entity of that type that GET /entities?limit=100 lists while answering fewer entities of the type than it ' +
      '(a service that ignores the filter passes: filters are not shown).',
    async run(ctx) {
      const made: { id: string; sent: string; answered?: string }[] = [];
      for (const type of Object.keys(TYPE_CLAUSES)) {
        const a = await ctx.call('POST', '/entities', { body: { name: `${uid('typed')} ${type.toLowerCase()}`, type, entityType: type } });
        if (is2xx(a) && isObject(a.json) && typeof a.json.id === 'string') ctx.defer('DELETE', `/entities/${seg(a.json.id)}`);
        check.by(TYPE_CLAUSES[type]!, 'HOSTED-ENDPOINT-add_entity').that(is2xx(a), 'add_entity accepts each of the five type labels', () => ({
          message: `add_entity (${a.request}) refused the type label ${type}: ${said(a)}; ${TYPE_CLAUSES[type]}: an entity MUST accept and preserve the ${type} type label`,
          expected: '2xx',
          actual: a.status,
        }));
        const id = checkString(checkObject(a, 'HOSTED-ENDPOINT-add_entity'), 'id', 'HOSTED-ENDPOINT-add_entity', 'add_entity');
        const answer = await ctx.call('GET', `/entities/${seg(id)}`);
        const read = checkObject(answer, READBACK);
        const got = typeof read.type === 'string' ? read.type : read.entityType;
        // silent (hosted): whether the type is shown at all, and its case (as sent, or lower case as the clients send it).
        if (got === undefined || got === null) {
          ctx.note(`get_entity shows no type for the entity of type ${type}: its type was not judged`);
          made.push({ id, sent: type });
          continue;
        }
        check.by(READBACK, TYPE_CLAUSES[type]!).that(got === type || got === type.toLowerCase(), 'get_entity reads back each type label as sent or in lower case', () => ({
          message: `get_entity (${answer.request}) reads back the type ${JSON.stringify(got)} for the type label ${type} sent: expected "${type}" or "${type.toLowerCase()}" (${TYPE_CLAUSES[type]}: the ${type} type label is accepted and preserved)`,
          expected: [type, type.toLowerCase()],
          actual: got,
        }));
        made.push({ id, sent: type, answered: got as string });
      }
      const all = check2xx(await ctx.call('GET', '/entities?limit=100'), 'HOSTED-ENDPOINT-list_entities');
      const items = itemsOf(all, ['entities']);
      for (const e of made.filter((x) => x.answered !== undefined)) {
        if (!items.some((x) => x.id === e.id)) continue; // silent: the page of the unfiltered list
        const ofType = items.filter((x) => (x.type ?? x.entityType) === e.answered).length;
        const filtered = check2xx(await ctx.call('GET', `/entities?type=${seg(e.answered!)}&limit=100`), 'HOSTED-ENDPOINT-list_entities');
        const got = itemsOf(filtered, ['entities']);
        const kept = got.some((x) => x.id === e.id) || got.length >= ofType;
        check.by('SPEC-V3-list_entities', 'HOSTED-ENDPOINT-list_entities', TYPE_CLAUSES[e.sent]!).that(kept, 'list_entities filtered by a type, as the service answers it, keeps the entities of that type', () => ({
          message: `list_entities filtered with ?type=${seg(e.answered!)}&limit=100 (${filtered.request}) leaves out the entity ${e.id} of type ${JSON.stringify(e.answered)}, the type the service answered for it: it answers ${got.length} entities where the list unfiltered (?limit=100) shows ${ofType} of that type, this one among them (list_entities(type) lists the entities of that type)`,
          expected: e.id,
          actual: got.map((x) => x.id),
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-206',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-set_entity_feedback', 'SPEC-V5-5.3.1b', READBACK],
    title: 'userScore is taken at 0, 1 and 0.5, refused at -0.1, 1.0001, 50 and 100, and a refused score is not stored',
    asserts:
      'Adds an entity; PUT /entities/{id}/feedback {userScore, confirmed: true} with 0, 1 and 0.5 each answers 2xx, and with -0.1, 1.0001, 50 and 100 each is refused ' +
      '(not 2xx; SPEC-5.3.1: user_score is in [0, 1]; a 5xx rather than a 4xx is the advisory ADV-value-refused-4xx). Where GET /entities/{id} then shows a userScore ' +
      '(the latest, or every one taken), none lies outside [0, 1].',
    async run(ctx) {
      const e = await newEntity(ctx);
      const path = `/entities/${seg(e.id)}/feedback`;
      const cite = check.by('SPEC-V5-5.3.1b', 'HOSTED-ENDPOINT-set_entity_feedback');
      for (const userScore of [0, 1, 0.5]) {
        const a = await ctx.call('PUT', path, { body: { userScore, confirmed: true } });
        cite.that(is2xx(a), 'set_entity_feedback takes a userScore of 0, 1 and 0.5 (in [0, 1])', () => ({ message: `set_entity_feedback (${a.request}) with userScore ${userScore} answered ${said(a)}: expected a 2xx, user_score is in [0, 1] (SPEC-5.3.1)`, expected: '2xx', actual: a.status }));
      }
      const refused = [-0.1, 1.0001, 50, 100];
      for (const userScore of refused) {
        const a = await ctx.call('PUT', path, { body: { userScore, confirmed: true } });
        cite.that(!is2xx(a), 'set_entity_feedback refuses a userScore outside [0, 1]', () => ({ message: `set_entity_feedback (${a.request}) with userScore ${userScore} answered ${said(a)}: user_score is in [0, 1] (SPEC-5.3.1), so a score outside it is refused`, expected: 'a refusal (not 2xx)', actual: a.status }));
        check.advise('ADV-value-refused-4xx').that(a.status < 500, 'set_entity_feedback refuses an out-of-range userScore with a 4xx', () => ({ message: `set_entity_feedback (${a.request}) with userScore ${userScore} answered ${said(a)}: a refusal of a value is a 4xx`, expected: '4xx', actual: a.status }));
      }
      const answer = await ctx.call('GET', `/entities/${seg(e.id)}`);
      const shownScores = [...valuesOf(checkObject(answer, READBACK), 'userScore'), ...valuesOf(answer.json, 'user_score')];
      // silent: feedback is not shown (ADV-feedback-shown), nor whether a read shows the latest score or every one taken; a refused one, never.
      for (const s of shownScores) {
        check.by('SPEC-V5-5.3.1b', READBACK).that(typeof s !== 'number' || (s >= 0 && s <= 1), 'get_entity after refused userScores shows no score outside [0, 1]', () => ({
          message: `get_entity (${answer.request}) after the refused userScore ${refused.join(', ')} shows userScore ${JSON.stringify(s)}, outside [0, 1]: a refused value is not stored (user_score is in [0, 1], SPEC-5.3.1); the scores taken were 0, 1 and 0.5`,
          expected: 'a score in [0, 1]',
          actual: s,
        }));
      }
      if (shownScores.length === 0) ctx.note('get_entity shows no userScore: what was stored was judged by the answers only');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-207',
    group: 'resources',
    clauses: ['HOSTED-PAYLOAD-record_step', READBACK, 'HOSTED-RESOURCE-ReasoningStepInput', 'SPEC-V5-5.4.1'],
    title: 'Reasoning step fields of every value class are kept exactly: the recorded step, explain_step, the trace and list_steps',
    asserts:
      'Records, in a new conversation, four steps whose reasoning, actionTaken and result cover the string classes (NFD, compatibility, astral; edge whitespace, NUL, escapes; ' +
      'scripts, C0/DEL/C1, tab and newline; NFC, escape-like text). A refusal is an advisory (ADV-string-class-accepted). The recorded step, GET /reasoning/explain/{step}, ' +
      'GET /reasoning/trace/{conv} and GET /reasoning/steps?conversationId= show each field, where they show it (an object carrying the step\'s id), as sent.',
    async run(ctx) {
      const conv = await newConversation(ctx);
      const base = uid('step');
      const byName = (name: string) => STRING_CLASSES.findIndex((c) => c.name === name);
      const plan = [
        ['NFD (decomposed)', 'compatibility characters', 'astral characters'],
        ['leading and trailing whitespace', 'NUL', 'quotes, backslash, <>%& and U+2028'],
        ['non-Latin scripts', 'C0 controls, DEL and C1', 'tab, newline and CR'],
        ['NFC (precomposed)', 'escape-like text', 'NFD (decomposed)'],
      ].map((names, s) => names.map((n, f) => ({ cls: n, text: STRING_CLASSES[byName(n)]!.make(`${base}-${s}${f}`) })));
      const FIELDS = ['reasoning', 'actionTaken', 'result'] as const;
      const steps: { id: string; fields: { cls: string; text: string }[] }[] = [];
      for (const fields of plan) {
        const body = { conversationId: conv.id, ...Object.fromEntries(FIELDS.map((f, i) => [f, fields[i]!.text])) };
        const a = await ctx.call('POST', '/reasoning/steps', { body });
        if (!check.advise('ADV-string-class-accepted').that(is2xx(a), 'record_step accepts fields of every class', () => ({ message: `record_step (${a.request}) refused a step with fields of class ${fields.map((x) => `"${x.cls}"`).join(', ')}: ${said(a)}`, expected: '2xx', actual: a.status }))) continue;
        const step = checkObject(a, 'HOSTED-PAYLOAD-record_step');
        const id = checkString(step, 'id', 'HOSTED-PAYLOAD-record_step', 'record_step');
        FIELDS.forEach((f, i) => sameStepField(check.by('HOSTED-PAYLOAD-record_step', 'HOSTED-RESOURCE-ReasoningStepInput'), [step], f, fields[i]!, `record_step (${a.request}) answers the step with`));
        steps.push({ id, fields });
      }
      const cite = check.by(READBACK, 'SPEC-V5-5.4.1');
      const c = seg(conv.id);
      const reads = [
        ...steps.map((s) => ({ path: `/reasoning/explain/${seg(s.id)}`, only: s.id })),
        { path: `/reasoning/trace/${c}`, only: undefined },
        { path: `/reasoning/steps?conversationId=${c}&conversation_id=${c}`, only: undefined },
      ];
      for (const r of reads) {
        const a = check2xx(await ctx.call('GET', r.path), READBACK);
        for (const s of steps.filter((x) => r.only === undefined || x.id === r.only)) {
          const objects = objectsWithId(a.json, s.id);
          FIELDS.forEach((f, i) => sameStepField(cite, objects, f, s.fields[i]!, `${a.operation} (${a.request}) shows the step with`));
        }
      }
    },
  }),
];

/** Each object carrying the step's field shows it as sent (an absent field is silent). */
function sameStepField(cite: ReturnType<typeof check.by>, objects: Json[], field: string, sent: { cls: string; text: string }, where: string): void {
  for (const o of objects) {
    const got = o[field];
    if (typeof got !== 'string') continue; // silent: a field this read does not show as the step's text
    cite.that(got === sent.text, `the reads of a step show its ${field} of every class as sent`, () => ({
      message: `${where} ${field} of class "${sent.cls}" changed: ${difference(sent.text, got)}`,
      expected: shown(sent.text),
      actual: shown(got),
    }));
  }
}
