// Histories and limits (issue 34): every read of the hosted document that a write changes is sent
// before the write and again after it, the identical request (same path, same query, same body),
// so that an answer kept from before (a cache keyed on the request, an index that missed the
// write) shows; and every limit is sent beside the order or filter it must follow.
//
// silent: where the document shows no field, these scenarios accept every reading readback.ts
// accepts: list items found by id in any array of the answer, messages wherever they sit, a
// deleted resource read by id answering an error or itself marked deleted. Limits, types and
// thresholds are "not shown" (hosted-rest-api.md): a service may ignore them, so a limit is
// judged only against what every reading agrees on, or against the service's own answer to a
// request that differs only by the parameter in question.
import { randomUUID } from 'node:crypto';
import type { Answer, HostedContext } from '../../src/profiles/hosted/context.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, checkObject, checkString, eventually, holds, is2xx, isObject, itemsOf, said, type Json } from '../support/http-answers.js';
import { entityBody, newConversation, newEntity, uid } from '../support/hosted-data.js';
import { serverTimePast } from '../support/time.js';

const seg = encodeURIComponent;
const READBACK = 'HOSTED-READBACK';

/** "GET /v1/conversations?limit=2": the request as sent, with the query the evidence leaves out. */
const sent = (a: Answer, path: string): string => `${a.request}${path.includes('?') ? path.slice(path.indexOf('?')) : ''}`;

/** The id of a list item or search hit: its own, or that of the entity it wraps. */
const idOf = (x: Json): unknown => x.id ?? (isObject(x.entity) ? x.entity.id : undefined);

/** An item shown as deleted or merged away (soft deletes, kept merge sources). */
const marked = (x: Json): boolean =>
  x.deleted === true || [x.deletedAt, x.mergedInto].some((v) => typeof v === 'string' && v !== '') || x.status === 'deleted' || x.status === 'merged';

/** The messages of an answer, wherever they sit: every object with a string content. */
function messagesIn(json: unknown): Json[] {
  if (Array.isArray(json)) return json.flatMap(messagesIn);
  if (!isObject(json)) return [];
  return [...(typeof json.content === 'string' ? [json] : []), ...Object.values(json).flatMap((v) => (typeof v === 'object' ? messagesIn(v) : []))];
}
const showsMessage = (a: Answer, content: string): boolean => is2xx(a) && messagesIn(a.json).some((m) => m.content === content);

/** A conversation for `userId` (deleted after the scenario). */
async function conversationOf(ctx: HostedContext, userId: string): Promise<string> {
  const body = checkObject(await ctx.call('POST', '/conversations', { body: { userId } }), 'HOSTED-ENDPOINT-create_conversation');
  const id = checkString(body, 'id', 'HOSTED-ENDPOINT-create_conversation', 'create_conversation');
  ctx.defer('DELETE', `/conversations/${seg(id)}`);
  return id;
}

async function addMessage(ctx: HostedContext, conv: string, content: string, role = 'user'): Promise<Answer> {
  return check2xx(await ctx.call('POST', `/conversations/${seg(conv)}/messages`, { body: { role, content } }), 'HOSTED-ENDPOINT-add_message');
}

/**
 * An entity made with extra body fields (relationships), deleted after the scenario. silent: the body
 * of add_entity; a service that refuses the extra field gets the entity without it (and shows no relationship).
 */
async function entityWith(ctx: HostedContext, name: string, extra: Json): Promise<{ id: string; name: string }> {
  const first = await ctx.call('POST', '/entities', { body: { ...entityBody(name), ...extra } });
  if (first.status >= 400 && first.status < 500) ctx.note(`add_entity with ${Object.keys(extra).join(', ')} answered ${first.status}: the entity was added without it`);
  const answer = first.status >= 400 && first.status < 500 ? await ctx.call('POST', '/entities', { body: entityBody(name) }) : first;
  const body = checkObject(answer, 'HOSTED-ENDPOINT-add_entity');
  const id = checkString(body, 'id', 'HOSTED-ENDPOINT-add_entity', 'add_entity');
  ctx.defer('DELETE', `/entities/${seg(id)}`);
  return { id, name };
}

/** A read by id after a delete must not answer the resource itself, unmarked: an error, or the resource marked deleted (silent point lookup-gone). */
function notItself(a: Answer, id: string, shows: string, rule: string, what: string): void {
  const body = a.isJson && isObject(a.json) ? a.json : undefined;
  const itself = is2xx(a) && body !== undefined && body.id === id && holds(body, shows) && !marked(body);
  check.by(rule, READBACK).that(!itself, `${what} after its delete does not answer it as it was`, () => ({
    message: `${rule}: ${a.operation} (${a.request}) after ${what.split(' ')[0]} answered ${a.status} with the ${what.includes('conversation') ? 'conversation' : 'entity'} itself, unmarked (${said(a)}): what was deleted is gone (an error such as 404 or 410, or the resource marked deleted)`,
    expected: 'an error, or the resource marked deleted',
    actual: body,
  }));
}

/** The ISO timestamp a creation answered (or its read by id shows), if any. */
async function createdAtOf(ctx: HostedContext, body: Json, path: string): Promise<string | undefined> {
  const iso = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}([.,]\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) ? v : undefined);
  const answered = iso(body.createdAt);
  if (answered !== undefined) return answered;
  const read = await ctx.call('GET', path);
  return read.isJson && isObject(read.json) ? iso(read.json.createdAt) : undefined;
}

/** The edges of the graph that name both ids and `type` (in any field). */
function edgesBetween(graph: Json, a: string, b: string, type: string): Json[] {
  const edges = Array.isArray(graph.edges) ? graph.edges.filter(isObject) : [];
  return edges.filter((e) => {
    const values = Object.values(e).filter((v): v is string => typeof v === 'string');
    return values.includes(a) && values.includes(b) && values.some((v) => v.toUpperCase() === type);
  });
}

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-220',
    group: 'resources',
    clauses: [READBACK, 'HOSTED-ENDPOINT-add_message', 'HOSTED-ENDPOINT-bulk_add_messages', 'SPEC-V5-5.2.1'],
    title: 'The reads of a conversation, sent again after an add, show what was added',
    asserts:
      'Adds two messages to a new conversation, then reads GET …/messages, GET …/messages?limit=10, GET …/context and POST …/search {query: a word only the next message holds, limit: 10}. ' +
      'Adds a third message, then sends the same four requests: both message reads hold it (HOSTED-READBACK), and the context holds it as its most recent message (SPEC-V5-5.2.1). ' +
      'Then a bulk add of two more, and the same reads again hold both. When a search for the word of the first two messages finds them, the same search as before finds the third message (HOSTED-READBACK; ' +
      'sent again for a second while it does not); when it does not, that is an advisory (ADV-search-finds-written).',
    async run(ctx) {
      const conv = await newConversation(ctx);
      const base = `/conversations/${seg(conv.id)}`;
      const word = `zq${uid('w').slice(-8)}`;
      const early = `zx${uid('w').slice(-8)}`;
      const firstTwo = ['one', 'two'].map((n) => `${early} history message ${n} ${uid('m')}`);
      for (const content of firstTwo) await addMessage(ctx, conv.id, content);
      // silent: the page size of get_conversation; unasked, a page of at least the five messages written here.
      const reads = [`${base}/messages`, `${base}/messages?limit=10`];
      const readAll = async () => Promise.all([...reads.map((p) => ctx.call('GET', p)), ctx.call('GET', `${base}/context`)]);
      const search = () => ctx.call('POST', `${base}/search`, { body: { query: word, limit: 10 } });
      await readAll();
      // Whether the search finds what was written a moment ago: the word of the first two messages.
      const earlier = await eventually(() => ctx.call('POST', `${base}/search`, { body: { query: early, limit: 10 } }), (a) => firstTwo.some((c) => showsMessage(a, c)));
      const searchFinds = firstTwo.some((c) => showsMessage(earlier, c));
      await search();
      const third = `${word} the third message ${uid('m')}`;
      await addMessage(ctx, conv.id, third);
      const judge = async (contents: string[], write: string) => {
        const [messages, limited, context] = await readAll();
        for (const [a, path] of [[messages!, reads[0]!], [limited!, reads[1]!]] as const) {
          for (const content of contents) {
            check.by(READBACK, write === 'add_message' ? 'HOSTED-ENDPOINT-add_message' : 'HOSTED-ENDPOINT-bulk_add_messages').that(showsMessage(a, content), `get_conversation, sent again after ${write}, reads back what it added`, () => ({
              message: `${READBACK}: get_conversation (${sent(a, path)}), the same request as before ${write}, does not read back the message just added (${JSON.stringify(content)}): ${said(a)}`,
              expected: content,
              actual: a.json,
            }));
          }
        }
        const latest = contents[contents.length - 1]!;
        // silent (context-recent-window): any number of the latest messages, the latest one included.
        check.by('SPEC-V5-5.2.1', 'HOSTED-ENDPOINT-get_context').that(showsMessage(context!, latest), `get_context, sent again after ${write}, holds the latest message among its recent messages`, () => ({
          message: `SPEC-V5-5.2.1: get_context (${context!.request}), the same request as before ${write}, does not hold the message just added (${JSON.stringify(latest)}) among its recent messages: ${said(context!)}`,
          expected: latest,
          actual: context!.json,
        }));
      };
      await judge([third], 'add_message');
      const found = await eventually(search, (a) => showsMessage(a, third));
      if (searchFinds) {
        // The service's search found the earlier messages by their word: it must find the new one by its own.
        check.by(READBACK, 'HOSTED-ENDPOINT-search_messages').that(showsMessage(found, third), 'search_messages, sent again after add_message, finds the message just added', () => ({
          message: `${READBACK}: search_messages (${found.request}), the same request as before add_message, does not find the message just added, which holds the word searched (${word}), though the same search found the earlier messages by theirs: ${said(found)}`,
          expected: third,
          actual: found.json,
        }));
      } else check.advise('ADV-search-finds-written').ok(showsMessage(found, third), `search_messages (${found.request}), the same request as before add_message, does not find the message just added, which holds the word searched (${word}): ${said(found)}`, { expected: third, actual: found.json });
      const bulk = [`${early} bulk four ${uid('m')}`, `${early} bulk five ${uid('m')}`];
      check2xx(await ctx.call('POST', `${base}/messages/bulk`, { body: { messages: bulk.map((content) => ({ role: 'user', content })) } }), 'HOSTED-ENDPOINT-bulk_add_messages');
      await judge(bulk, 'bulk_add_messages');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-221',
    group: 'resources',
    clauses: ['SPEC-V3-delete_conversation', 'HOSTED-ENDPOINT-delete_conversation', 'SPEC-V5-5.3.2', READBACK],
    title: "After delete_conversation, the same reads show neither it nor its messages, in the entity history either",
    asserts:
      'Adds an entity, a conversation with two messages naming it and another with one. Reads the first conversation by id, its messages, its context, a search in it, the list (?limit=100) and the entity\'s history; deletes the first conversation; ' +
      'sends the same requests again: the read by id does not answer it as it was (an error, or marked deleted), its messages are not read back, the context and the search show none of them ' +
      'when they showed them before (read again for a second while they do), the list does not show it, ' +
      'and the history shows none of its messages (SPEC-V3-delete_conversation: a conversation is deleted with all its messages) but still the other conversation\'s mention it showed (SPEC-V5-5.3.2).',
    async run(ctx) {
      const entity = await newEntity(ctx);
      const [gone, kept] = [await newConversation(ctx), await newConversation(ctx)];
      const goneContents = [`Talked with ${entity.name} about the plan.`, `${entity.name} agreed to the plan.`];
      const keptContent = `Later ${entity.name} called again.`;
      for (const c of goneContents) await addMessage(ctx, gone.id, c);
      await addMessage(ctx, kept.id, keptContent);
      const paths = { meta: `/conversations/${seg(gone.id)}`, messages: `/conversations/${seg(gone.id)}/messages`, list: '/conversations?limit=100', history: `/entities/${seg(entity.id)}/history` };
      const context = () => ctx.call('GET', `${paths.meta}/context`);
      const search = () => ctx.call('POST', `${paths.meta}/search`, { body: { query: 'plan', limit: 10 } });
      const showsGone = (a: Answer) => goneContents.some((c) => showsMessage(a, c));
      const before = {
        meta: await ctx.call('GET', paths.meta), messages: await ctx.call('GET', paths.messages), list: await ctx.call('GET', paths.list),
        history: await eventually(() => ctx.call('GET', paths.history), (a) => a.text.includes(keptContent)), context: await context(), search: await eventually(search, showsGone),
      };
      check2xx(before.meta, READBACK);
      check2xx(await ctx.call('DELETE', paths.meta), 'HOSTED-ENDPOINT-delete_conversation');
      const rule = 'SPEC-V3-delete_conversation';
      notItself(await ctx.call('GET', paths.meta), gone.id, gone.userId, rule, 'delete_conversation of the conversation');
      const messages = await ctx.call('GET', paths.messages);
      const left = goneContents.filter((c) => showsMessage(messages, c));
      check.by(rule, READBACK).that(left.length === 0, 'get_conversation, sent again after delete_conversation, reads none of its messages', () => ({
        message: `${rule}: get_conversation (${messages.request}), the same request as before delete_conversation, still reads ${left.length} of its messages: ${said(messages)}`,
        expected: 'no messages',
        actual: left,
      }));
      const list = await ctx.call('GET', paths.list);
      check.by(rule, 'HOSTED-ENDPOINT-list_conversations').that(!itemsOf(list, ['conversations']).some((c) => c.id === gone.id && !marked(c)), 'list_conversations, sent again after delete_conversation, no longer lists it', () => ({
        message: `${rule}: list_conversations (${sent(list, paths.list)}), the same request as before delete_conversation, still lists the deleted conversation ${gone.id}`,
        expected: 'not listed',
        actual: gone.id,
      }));
      // The context and the search showed its messages before (they read the conversation): the same requests show none after.
      for (const [was, read, operation] of [[before.context, context, 'get_context'], [before.search, search, 'search_messages']] as const) {
        if (!showsGone(was)) {
          ctx.note(`${operation} of the conversation showed none of its messages before the delete: what the delete does to it was not judged`);
          continue;
        }
        const a = await eventually(read, (x) => !showsGone(x));
        check.by(rule, READBACK).that(!showsGone(a), `${operation}, sent again after delete_conversation, shows none of its messages`, () => ({
          message: `${rule}: ${operation} (${a.request}), the same request as before delete_conversation, still shows ${goneContents.filter((c) => showsMessage(a, c)).length} of its messages a second after the delete: a conversation is deleted with all its messages`,
          expected: 'none of its messages',
          actual: a.json,
        }));
      }
      const shownBefore = goneContents.filter((c) => before.history.text.includes(c));
      if (shownBefore.length === 0) {
        ctx.note(`get_entity_history of ${entity.id} showed no mention of the conversation before its delete: what the delete does to the history was not judged`);
        return;
      }
      const history = await eventually(() => ctx.call('GET', paths.history), (a) => !goneContents.some((c) => a.text.includes(c)));
      const still = goneContents.filter((c) => is2xx(history) && history.text.includes(c));
      check.by(rule, 'SPEC-V5-5.3.2').that(still.length === 0, 'get_entity_history, sent again after delete_conversation, shows no mention of its messages', () => ({
        message: `${rule}: get_entity_history (${history.request}), the same request as before delete_conversation, still shows ${still.length} mention(s) of the deleted conversation's messages (${JSON.stringify(still[0])}): a conversation is deleted with all its messages`,
        expected: 'no mention of the deleted messages',
        actual: still,
      }));
      if (before.history.text.includes(keptContent)) {
        check.by('SPEC-V5-5.3.2').that(is2xx(history) && history.text.includes(keptContent), 'get_entity_history after deleting another conversation still shows the mention of the conversation kept', () => ({
          message: `SPEC-V5-5.3.2: get_entity_history (${history.request}) after deleting conversation ${gone.id} no longer shows the mention ${JSON.stringify(keptContent)} of conversation ${kept.id}, which was not deleted: ${said(history)}`,
          expected: keptContent,
          actual: history.json,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-222',
    group: 'resources',
    clauses: ['SPEC-V5-5.1.3', 'HOSTED-ENDPOINT-delete_conversation'],
    title: 'delete_conversation twice harms nothing: the second answers success or not found, never a server error',
    asserts:
      'Makes two conversations with a message each and deletes the first twice. The first delete answers 2xx; the second answers 2xx, 404 or 410 (SPEC-V5-5.1.3: delete_conversation MUST be idempotent; ' +
      'a 5xx is a failure, not the same effect). Afterwards the first is not listed and the second is, its message still read back. ' +
      'Advisory ADV-delete-unknown-conversation: a delete of an id never used answers without a 5xx, as the second delete did or with success.',
    async run(ctx) {
      const [doomed, kept] = [await newConversation(ctx), await newConversation(ctx)];
      const keptContent = `kept ${uid('m')}`;
      await addMessage(ctx, doomed.id, `doomed ${uid('m')}`);
      await addMessage(ctx, kept.id, keptContent);
      const path = `/conversations/${seg(doomed.id)}`;
      const first = check2xx(await ctx.call('DELETE', path), 'HOSTED-ENDPOINT-delete_conversation');
      const second = await ctx.call('DELETE', path);
      // silent: HTTP leaves the answer to a repeated DELETE open (RFC 9110 §9.2.2: the effect, not the answer, is the same); 2xx or not found.
      check.by('SPEC-V5-5.1.3').that(is2xx(second) || second.status === 404 || second.status === 410, 'a second delete_conversation answers success or not found', () => ({
        message: `SPEC-V5-5.1.3: delete_conversation (${second.request}) a second time answered ${said(second)}, the first ${first.status}: delete_conversation MUST be idempotent (expected 2xx, or 404/410 for a conversation already gone)`,
        expected: `2xx, 404 or 410`,
        actual: second.status,
      }));
      const list = itemsOf(check2xx(await ctx.call('GET', '/conversations?limit=100'), 'HOSTED-ENDPOINT-list_conversations'), ['conversations']);
      check.by('SPEC-V5-5.1.3').that(!list.some((c) => c.id === doomed.id && !marked(c)) && list.some((c) => c.id === kept.id), 'after two deletes, the deleted conversation is not listed and the other one is', () => ({
        message: `SPEC-V5-5.1.3: list_conversations (GET /conversations?limit=100) after deleting ${doomed.id} twice: expected it gone and ${kept.id} still listed, got ${JSON.stringify(list.map((c) => c.id)).slice(0, 300)}`,
        expected: { gone: doomed.id, listed: kept.id },
        actual: list.map((c) => c.id),
      }));
      const other = await ctx.call('GET', `/conversations/${seg(kept.id)}/messages`);
      check.by('SPEC-V5-5.1.3', READBACK).that(showsMessage(other, keptContent), 'after two deletes of another conversation, this one still reads back its message', () => ({
        message: `SPEC-V5-5.1.3: get_conversation (${other.request}) after deleting another conversation twice no longer reads back ${JSON.stringify(keptContent)}: ${said(other)}`,
        expected: keptContent,
        actual: other.json,
      }));
      const unknown = await ctx.call('DELETE', `/conversations/${seg(randomUUID())}`);
      check.advise('ADV-delete-unknown-conversation').ok(unknown.status < 500 && (is2xx(unknown) || unknown.status === second.status), `delete_conversation (${unknown.request}) of an id never used answered ${said(unknown)}; a second delete answered ${second.status}`, { expected: `2xx or ${second.status}`, actual: unknown.status });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-223',
    group: 'resources',
    clauses: ['SPEC-V5-5.1.2', 'HOSTED-ENDPOINT-list_conversations'],
    title: 'list_conversations is newest first, and a limit keeps the newest',
    asserts:
      'Creates three conversations, each after the service\'s clock (read from the createdAt of a conversation made and deleted to ask it) has passed the one before, reading GET /conversations?limit=100 just before each; ' +
      'the same request lists all three after. ' +
      'GET /conversations?limit=2 answers the third and the second first, in that order; ?limit=1 the third first; ?limit=100 and no limit list the third first and the three newest first (SPEC-V5-5.1.2). ' +
      'A service that reads no limit answers them all, newest first: accepted; one that reads it (answers fewer than with ?limit=100) answers at most the limit.',
    async run(ctx) {
      const made: string[] = [];
      let last: string | undefined;
      for (let i = 0; i < 3; i++) {
        if (last !== undefined) {
          const since = last;
          // How often the clock is asked depends on the machine: its answers are not judged (the clause map counts what a scenario judges).
          const now = async () => {
            const a = await ctx.call('POST', '/conversations', { body: { userId: uid('clock') } });
            const probe = a.isJson && isObject(a.json) && typeof a.json.id === 'string' ? a.json : undefined;
            if (probe === undefined) return since;
            const at = await createdAtOf(ctx, probe, `/conversations/${seg(String(probe.id))}`);
            await ctx.call('DELETE', `/conversations/${seg(String(probe.id))}`);
            return at ?? since;
          };
          if (!(await serverTimePast(since, now))) ctx.note(`the service's clock (createdAt) did not move past ${since} within 5 s: the order of the conversations may be a tie`);
        }
        // The list read just before each creation, as a cache keyed on the request would keep it.
        await ctx.call('GET', '/conversations?limit=100');
        const body = checkObject(await ctx.call('POST', '/conversations', { body: { userId: uid('newest') } }), 'HOSTED-ENDPOINT-create_conversation');
        const id = checkString(body, 'id', 'HOSTED-ENDPOINT-create_conversation', 'create_conversation');
        ctx.defer('DELETE', `/conversations/${seg(id)}`);
        made.push(id);
        last = await createdAtOf(ctx, body, `/conversations/${seg(id)}`);
        if (last === undefined) {
          ctx.note('the conversation answers no ISO createdAt: the service\'s clock could not be read, so the order of conversations created at once is not judged');
          return;
        }
      }
      const newestFirst = [...made].reverse();
      const full = check2xx(await ctx.call('GET', '/conversations?limit=100'), 'HOSTED-ENDPOINT-list_conversations');
      const everyId = itemsOf(full, ['conversations']).map((c) => c.id);
      const unlisted = made.filter((id) => !everyId.includes(id));
      check.by('SPEC-V5-5.1.2').that(unlisted.length === 0, 'list_conversations, sent again after create_conversation, lists the conversations just created', () => ({
        message: `SPEC-V5-5.1.2: list_conversations (GET /v1/conversations?limit=100), the same request as before create_conversation, does not list ${unlisted.length} of the 3 conversations just created (${unlisted.join(', ')}): it MUST return the conversations the key has access to`,
        expected: made,
        actual: everyId.slice(0, 10),
      }));
      for (const [path, k] of [['/conversations?limit=2', 2], ['/conversations?limit=1', 1], ['/conversations?limit=100', 3], ['/conversations', 1]] as const) {
        const a = check2xx(await ctx.call('GET', path), 'HOSTED-ENDPOINT-list_conversations');
        const ids = itemsOf(a, ['conversations']).map((c) => c.id);
        const head = ids.slice(0, k);
        if (path.includes('limit=') && k < 3 && ids.length < everyId.length) {
          // The service reads limit (it answered fewer than it has): then it answers at most limit.
          check.by('SPEC-V5-5.1.2').that(ids.length <= k, `list_conversations with limit=${k}, when it reads the limit, answers at most ${k}`, () => ({
            message: `SPEC-V5-5.1.2: list_conversations (${sent(a, path)}) answered ${ids.length} conversations, fewer than the ${everyId.length} of ?limit=100 but more than the limit ${k}: list_conversations(limit) answers at most limit`,
            expected: `at most ${k}`,
            actual: ids.length,
          }));
        }
        check.by('SPEC-V5-5.1.2').that(JSON.stringify(head) === JSON.stringify(newestFirst.slice(0, k)), `list_conversations with ${path.includes('limit') ? path.slice(path.indexOf('limit')) : 'no limit'} answers the newest first`, () => ({
          message: `SPEC-V5-5.1.2: list_conversations (${sent(a, path)}): expected the ${k} newest conversation${k === 1 ? '' : 's'} first, newest first (${newestFirst.slice(0, k).join(', ')}, created in the reverse order), got ${JSON.stringify(ids.slice(0, 5))}: list_conversations MUST return conversations newest-first, so a limit keeps the newest`,
          expected: newestFirst.slice(0, k),
          actual: ids.slice(0, 5),
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-224',
    group: 'resources',
    clauses: ['SPEC-V5-5.1.4', 'SPEC-2.2.1', 'HOSTED-ENDPOINT-bulk_add_messages', READBACK],
    title: 'bulk_add_messages takes 100 messages in order and never stores 101',
    asserts:
      'Bulk-adds 100 messages to a new conversation: 2xx; when the answer lists messages, it lists the 100 in the order sent; GET …/messages?limit=100 holds each once, in the order sent (SPEC-2.2.1). ' +
      'Bulk-adds 101 to another: refused, or at most 100 of them stored (SPEC-V5-5.1.4: the input is capped at 100; silent point bulk-cap-over) — read back with ?limit=200 and counted, and at most 100 answered. ' +
      'Advisory ADV-bulk-refusal-atomic: a refused bulk add stores none of its messages.',
    async run(ctx) {
      const rule = 'SPEC-V5-5.1.4';
      const batch = (conv: string, n: number) => Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${conv.slice(0, 8)} bulk ${String(i).padStart(3, '0')}` }));
      const full = await newConversation(ctx);
      const hundred = batch(full.id, 100);
      const added = check2xx(await ctx.call('POST', `/conversations/${seg(full.id)}/messages/bulk`, { body: { messages: hundred } }), 'HOSTED-ENDPOINT-bulk_add_messages');
      const mine = new Set(hundred.map((m) => m.content));
      const answered = messagesIn(added.json).map((m) => m.content).filter((c): c is string => typeof c === 'string' && mine.has(c));
      if (answered.length > 0) {
        const wrong = answered.findIndex((c, i) => c !== hundred[i]!.content);
        check.by(rule).that(wrong === -1 && answered.length === 100, 'bulk_add_messages answers the 100 messages in insertion order', () => ({
          message: `${rule}: bulk_add_messages (${added.request}) of 100 messages answered them out of insertion order: position ${wrong === -1 ? answered.length : wrong} holds ${JSON.stringify(answered[wrong === -1 ? 0 : wrong])}, expected ${JSON.stringify(hundred[wrong === -1 ? 0 : wrong]!.content)} (${answered.length} answered)`,
          expected: hundred.map((m) => m.content).slice(0, 5),
          actual: answered.slice(0, 5),
        }));
      } else ctx.note('bulk_add_messages answered no message content: the order of its answer was not judged');
      // The clients' page (limit 100) holds the 100, whatever page size the service allows beyond it.
      const read = check2xx(await ctx.call('GET', `/conversations/${seg(full.id)}/messages?limit=100`), READBACK);
      const stored = messagesIn(read.json).map((m) => m.content);
      const missing = hundred.filter((m) => stored.filter((c) => c === m.content).length !== 1);
      check.by(READBACK, rule).that(missing.length === 0, 'get_conversation after a bulk add of 100 reads back each message once', () => ({
        message: `${READBACK}: get_conversation (${read.request}?limit=100) after a bulk add of 100: ${missing.length} of them are not read back exactly once (first: ${JSON.stringify(missing[0]?.content)})`,
        expected: 100,
        actual: 100 - missing.length,
      }));
      const inOrder = stored.filter((c) => mine.has(c as string));
      const swapped = inOrder.findIndex((c, i) => i > 0 && c! < inOrder[i - 1]!);
      check.by(rule, 'SPEC-2.2.1').that(swapped === -1, 'get_conversation after a bulk add of 100 reads them back in insertion order', () => ({
        message: `${rule}: get_conversation (${read.request}?limit=100) after a bulk add of 100 reads them out of insertion order: ${JSON.stringify(inOrder[swapped])} after ${JSON.stringify(inOrder[swapped - 1])} (messages come back in the order they were added)`,
        expected: hundred.slice(0, 3).map((m) => m.content),
        actual: inOrder.slice(0, 3),
      }));

      const over = await newConversation(ctx);
      const many = batch(over.id, 101);
      const a = await ctx.call('POST', `/conversations/${seg(over.id)}/messages/bulk`, { body: { messages: many } });
      // silent: the largest page; a service that refuses 200 is read with the clients' 100.
      const wide = await ctx.call('GET', `/conversations/${seg(over.id)}/messages?limit=200`);
      const back = check2xx(is2xx(wide) ? wide : await ctx.call('GET', `/conversations/${seg(over.id)}/messages?limit=100`), READBACK);
      const ours = new Set(many.map((m) => m.content));
      const kept = messagesIn(back.json).filter((m) => typeof m.content === 'string' && ours.has(m.content)).length;
      // silent (bulk-cap-over): refusing 101 and keeping at most 100 of them both cap the input.
      check.by(rule).that(kept <= 100, 'a bulk add of 101 messages stores at most 100 of them', () => ({
        message: `${rule}: bulk_add_messages (${a.request}) of 101 messages answered ${a.status}, and get_conversation reads back ${kept} of them: the cap is 100 (refuse the call, or keep at most 100)`,
        expected: 'at most 100',
        actual: kept,
      }));
      if (is2xx(a)) {
        const listed = messagesIn(a.json).filter((m) => typeof m.content === 'string' && ours.has(m.content)).length;
        check.by(rule).that(listed <= 100, 'a bulk add of 101 messages answers at most 100 of them', () => ({ message: `${rule}: bulk_add_messages (${a.request}) of 101 messages answered ${listed} of them: the cap is 100`, expected: 'at most 100', actual: listed }));
      } else check.advise('ADV-bulk-refusal-atomic').ok(kept === 0, `bulk_add_messages (${a.request}) of 101 messages was refused (${a.status}) but ${kept} of them are read back`, { expected: 0, actual: kept });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-225',
    group: 'resources',
    clauses: ['SPEC-2.3.3', 'SPEC-2.2.2', 'SPEC-3.4.2', 'HOSTED-ENDPOINT-search_messages', 'HOSTED-ENDPOINT-get_conversation', 'HOSTED-ENDPOINT-search_entities'],
    title: 'A limit the service reads is a bound: on messages, on their search (beside a threshold too), on the entity search',
    asserts:
      'Adds six messages holding one rare word to a new conversation, and five entities whose names hold another. Each read is sent with limit 100 and with limit 2: ' +
      'when the second answers fewer than the first (the service reads limit), it answers at most 2 — GET …/messages?limit=2 the first two or the last two written (SPEC-2.2.2; silent point limit-window), ' +
      'POST …/search {query, limit: 2} (SPEC-2.3.3), and then {query, limit: 2, threshold: 0.5} too; POST /entities/search {query, limit: 2} (SPEC-3.4.2). ' +
      'A service that reads no limit (the document shows no query parameter or search body) answers as many either way and is not judged.',
    async run(ctx) {
      const conv = await newConversation(ctx);
      const word = `zq${uid('w').slice(-8)}`;
      const contents = Array.from({ length: 6 }, (_, i) => `${word} note number ${i}`);
      for (const c of contents) await addMessage(ctx, conv.id, c);
      const ours = (a: Answer) => messagesIn(a.json).map((m) => m.content).filter((c): c is string => typeof c === 'string' && contents.includes(c));

      // get_conversation(limit)
      const base = `/conversations/${seg(conv.id)}/messages`;
      const [wideMessages, twoMessages] = [await ctx.call('GET', `${base}?limit=100`), await ctx.call('GET', `${base}?limit=2`)];
      const [allRead, twoRead] = [ours(wideMessages), ours(twoMessages)];
      if (is2xx(twoMessages) && twoRead.length < allRead.length) {
        const set = JSON.stringify([...twoRead].sort());
        // silent (limit-window): the first N or the last N.
        const ends = [contents.slice(0, 2), contents.slice(-2)].map((e) => JSON.stringify([...e].sort()));
        check.by('SPEC-2.2.2', 'HOSTED-ENDPOINT-get_conversation').that(twoRead.length <= 2 && (twoRead.length < 2 || ends.includes(set)), 'get_conversation with limit 2, when it reads the limit, answers at most 2 messages, from one end', () => ({
          message: `SPEC-2.2.2: get_conversation (${sent(twoMessages, `${base}?limit=2`)}) answered ${twoRead.length} of the 6 messages (${JSON.stringify(twoRead)}), fewer than with ?limit=100: limit bounds the messages returned, the first 2 or the last 2`,
          expected: 'the first 2 or the last 2 messages',
          actual: twoRead,
        }));
      } else ctx.note(`get_conversation answered as many messages with ?limit=2 as with ?limit=100 (${twoRead.length}): the service reads no limit there, not judged`);

      // search_messages(limit), then beside a threshold
      const path = `/conversations/${seg(conv.id)}/search`;
      const wide = await eventually(() => ctx.call('POST', path, { body: { query: word, limit: 100 } }), (a) => ours(a).length > 0);
      const all = is2xx(wide) ? ours(wide).length : 0;
      const alone = await ctx.call('POST', path, { body: { query: word, limit: 2 } });
      const n = is2xx(alone) ? ours(alone).length : 0;
      if (all === 0 || n >= all) {
        ctx.note(all === 0 ? `search_messages found none of the six messages holding ${word}: its limit was not judged` : `search_messages answered ${n} results with limit 2 and ${all} with limit 100: the service reads no limit there, not judged`);
      } else {
        check.by('SPEC-2.3.3', 'HOSTED-ENDPOINT-search_messages').that(n <= 2, 'a search with limit 2, when it reads the limit, returns at most 2 results', () => ({
          message: `SPEC-2.3.3: search_messages (${alone.request}) with limit 2 answered ${n} results, fewer than the ${all} with limit 100: a search MUST NOT return more results than limit`,
          expected: 'at most 2',
          actual: n,
        }));
        const both = check2xx(await ctx.call('POST', path, { body: { query: word, limit: 2, threshold: 0.5 } }), 'HOSTED-ENDPOINT-search_messages');
        const m = ours(both).length;
        check.by('SPEC-2.3.3').that(m <= 2, 'a search with limit and threshold returns no more results than limit', () => ({
          message: `SPEC-2.3.3: search_messages (${both.request}) with limit 2 and threshold 0.5 answered ${m} results, and with limit 2 alone ${n}: a search MUST NOT return more results than limit, whatever the threshold`,
          expected: 'at most 2',
          actual: m,
        }));
      }

      // search_entities(limit)
      const shared = `zk${uid('w').slice(-8)}`;
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await newEntity(ctx, 'HOSTED-ENDPOINT-add_entity', `${shared} member ${i}`)).id);
      const found = (a: Answer) => (is2xx(a) ? itemsOf(a, ['entities', 'results']).filter((x) => ids.includes(String(idOf(x)))).length : 0);
      const entitiesWide = await eventually(() => ctx.call('POST', '/entities/search', { body: { query: shared, limit: 100 } }), (a) => found(a) > 0);
      const entitiesTwo = await ctx.call('POST', '/entities/search', { body: { query: shared, limit: 2 } });
      const [e100, e2] = [found(entitiesWide), found(entitiesTwo)];
      if (e100 === 0 || e2 >= e100) ctx.note(e100 === 0 ? `search_entities found none of the five entities named with ${shared}: its limit was not judged` : `search_entities answered ${e2} with limit 2 and ${e100} with limit 100: the service reads no limit there, not judged`);
      else {
        check.by('SPEC-3.4.2', 'HOSTED-ENDPOINT-search_entities').that(e2 <= 2, 'search_entities with limit 2, when it reads the limit, returns at most 2 results', () => ({
          message: `SPEC-3.4.2: search_entities (${entitiesTwo.request}) with limit 2 answered ${e2} of the 5 entities named with ${JSON.stringify(shared)}, fewer than the ${e100} with limit 100: a search MUST NOT return more results than limit`,
          expected: 'at most 2',
          actual: e2,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-226',
    group: 'resources',
    clauses: ['SPEC-V3-list_entities', 'HOSTED-ENDPOINT-list_entities'],
    title: 'list_entities filters by type before it applies the limit',
    asserts:
      'Adds eight entities, OBJECT and EVENT in turn. GET /entities?type=<the EVENT type as the service answered it>&limit=3 answers at least 3 entities: ' +
      'four of that type exist, so a filter applied before the limit keeps 3, and a service that reads neither answers more (SPEC-V3-list_entities: entities of one type when asked, at most limit); ' +
      'a limit applied before the filter leaves fewer. And GET /entities?limit=3, when it answers fewer than ?limit=100 (the service reads limit), answers at most 3.',
    async run(ctx) {
      const answered: string[] = [];
      for (let i = 0; i < 8; i++) {
        const type = i % 2 === 0 ? 'OBJECT' : 'EVENT';
        const body = checkObject(await ctx.call('POST', '/entities', { body: { name: uid('typed'), type, entityType: type } }), 'HOSTED-ENDPOINT-add_entity');
        ctx.defer('DELETE', `/entities/${seg(checkString(body, 'id', 'HOSTED-ENDPOINT-add_entity', 'add_entity'))}`);
        if (type === 'EVENT') answered.push(typeof body.type === 'string' ? body.type : typeof body.entityType === 'string' ? body.entityType : type);
      }
      // The type as the service writes it back (event, EVENT): a filter compares with what is stored.
      const type = answered[0]!;
      const path = `/entities?type=${seg(type)}&limit=3`;
      const a = check2xx(await ctx.call('GET', path), 'HOSTED-ENDPOINT-list_entities');
      const n = itemsOf(a, ['entities']).length;
      check.by('SPEC-V3-list_entities').that(n >= 3, 'list_entities with a type and a limit filters before it limits', () => ({
        message: `SPEC-V3-list_entities: list_entities (${sent(a, path).replace(type, 'EVENT')}) answered ${n} entit${n === 1 ? 'y' : 'ies'}, with 4 entities of type EVENT stored: the type filter comes before the limit, so 3 were expected (or more, from a service that reads neither)`,
        expected: 'at least 3',
        actual: n,
      }));
      const [wide, three] = [await ctx.call('GET', '/entities?limit=100'), await ctx.call('GET', '/entities?limit=3')];
      const [all, k] = [itemsOf(wide, ['entities']).length, itemsOf(three, ['entities']).length];
      if (is2xx(three) && k < all) {
        check.by('SPEC-V3-list_entities').that(k <= 3, 'list_entities with limit 3, when it reads the limit, answers at most 3', () => ({
          message: `SPEC-V3-list_entities: list_entities (GET /v1/entities?limit=3) answered ${k} entities, fewer than the ${all} of ?limit=100 but more than the limit 3: list_entities(limit) answers at most limit`,
          expected: 'at most 3',
          actual: k,
        }));
      } else ctx.note(`list_entities answered as many entities with ?limit=3 as with ?limit=100 (${k}): the service reads no limit there, not judged`);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-227',
    group: 'resources',
    clauses: ['SPEC-3.4.1', 'SPEC-V3-update_entity', 'HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-search_entities', READBACK],
    title: 'After a rename, the same reads show the new name, and a search by it finds the entity',
    asserts:
      'Adds an entity and gives it a description (PUT); reads it by id, GET /entities?limit=100, GET /entities/graph, and POST /entities/search {query: its name, limit: 100} and {query: the new name, limit: 100}. ' +
      'Renames it (PUT {name, type}: a new name sharing no word with the old one or the description, no description), then sends the same requests: the read by id, its list item and its graph node (where they carry a name) show the new name (HOSTED-READBACK), ' +
      'and the read by id still the description (SPEC-V3-update_entity: it changes the name and/or the description); ' +
      'when the search by the old name found it before, the search by the new name finds it now (SPEC-3.4.1; sent again for a second while it does not, for a search index that lags).',
    async run(ctx) {
      const e = await newEntity(ctx);
      const description = `${uid('description')} kept through a rename`;
      check2xx(await ctx.call('PUT', `/entities/${seg(e.id)}`, { body: entityBody(e.name, description) }), 'HOSTED-ENDPOINT-update_entity');
      // The new name shares no word with the old name or the description: a search that still matches the old name
      // (a stale index) by a word in common, or by fuzzy matching, would otherwise find the entity by the new name too.
      const renamed = `Renamed${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const get = `/entities/${seg(e.id)}`;
      const find = (query: string) => ctx.call('POST', '/entities/search', { body: { query, limit: 100 } });
      const finds = (a: Answer) => is2xx(a) && itemsOf(a, ['entities', 'results']).some((x) => idOf(x) === e.id);
      const foundBefore = finds(await eventually(() => find(e.name), finds));
      await find(renamed);
      await ctx.call('GET', '/entities?limit=100');
      await ctx.call('GET', '/entities/graph');
      check2xx(await ctx.call('PUT', get, { body: entityBody(renamed) }), 'HOSTED-ENDPOINT-update_entity');
      const cite = check.by(READBACK, 'HOSTED-ENDPOINT-update_entity');
      const read = await ctx.call('GET', get);
      cite.that(is2xx(read) && holds(read.json, renamed) && !(isObject(read.json) && read.json.name === e.name), 'get_entity, sent again after a rename, shows the new name', () => ({
        message: `${READBACK}: get_entity (${read.request}), the same request as before update_entity, does not show the new name ${JSON.stringify(renamed)}: ${said(read)}`,
        expected: renamed,
        actual: read.json,
      }));
      // The rename sends the name (and type) alone: update_entity(entity_id, name?, description?) changes what it is given.
      check.by('SPEC-V3-update_entity').that(is2xx(read) && holds(read.json, description), 'get_entity after a rename that sends no description still shows the description', () => ({
        message: `SPEC-V3-update_entity: get_entity (${read.request}) after a rename that sent no description no longer shows it (${JSON.stringify(description)}): update_entity changes the name and/or the description it is given, and keeps the rest: ${said(read)}`,
        expected: description,
        actual: read.json,
      }));
      for (const [path, field] of [['/entities?limit=100', 'entities'], ['/entities/graph', 'nodes']] as const) {
        const a = await ctx.call('GET', path);
        const item = itemsOf(a, [field]).find((x) => x.id === e.id);
        if (item !== undefined && typeof item.name === 'string') {
          cite.that(item.name === renamed, `${a.operation}, sent again after a rename, shows the entity with its new name`, () => ({
            message: `${READBACK}: ${a.operation} (${sent(a, path)}), the same request as before update_entity, shows the entity ${e.id} named ${JSON.stringify(item.name)}, expected its new name ${JSON.stringify(renamed)}`,
            expected: renamed,
            actual: item.name,
          }));
        }
      }
      if (!foundBefore) {
        ctx.note(`search_entities by the exact name did not find the entity before the rename: whether the search follows a rename was not judged`);
        return;
      }
      const after = await eventually(() => find(renamed), finds);
      check.by('SPEC-3.4.1', 'HOSTED-ENDPOINT-search_entities').that(finds(after), 'search_entities by the new name finds a renamed entity', () => ({
        message: `SPEC-3.4.1: search_entities (${after.request}) for the new name ${JSON.stringify(renamed)} does not find the renamed entity ${e.id}, which the same search by its old name found before the rename: ${said(after)}`,
        expected: e.id,
        actual: after.json,
      }));
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-228',
    group: 'resources',
    clauses: ['SPEC-V3-delete_entity', 'HOSTED-ENDPOINT-delete_entity', READBACK],
    title: 'After delete_entity, the same reads no longer answer the entity; another one stays',
    asserts:
      'Adds an entity and, sent with relationships [{targetId: it, type: KNOWS}], another; reads the first by id, the list (?limit=100), the graph, a search by its name, its history and its provenance; deletes it (2xx); sends the same requests again: ' +
      'the read by id does not answer it as it was (an error, or marked deleted: SPEC-V3-delete_entity), the list shows it no more, the graph holds no edge to it when it showed the relationship before ' +
      '(SPEC-V3-delete_entity: deleted with its relationships), the other entity still reads back, and the search that found it before no longer does (sent again for a second while it does; ' +
      'an advisory, ADV-deleted-gone-from-derived, when the search never found it). Advisory: ' +
      'its history and provenance answer 404 or 410 (ADV-deleted-not-found).',
    async run(ctx) {
      const e = await newEntity(ctx);
      const other = await entityWith(ctx, uid('entity'), { relationships: [{ targetId: e.id, type: 'KNOWS' }] });
      const get = `/entities/${seg(e.id)}`;
      const linked = (a: Answer) => is2xx(a) && isObject(a.json) && edgesBetween(a.json, other.id, e.id, 'KNOWS').length > 0;
      const find = () => ctx.call('POST', '/entities/search', { body: { query: e.name, limit: 100 } });
      const unmarked = (a: Answer) => is2xx(a) && itemsOf(a, ['entities', 'results']).some((x) => idOf(x) === e.id && !marked(x) && !(isObject(x.entity) && marked(x.entity)));
      check2xx(await ctx.call('GET', get), READBACK);
      await ctx.call('GET', '/entities?limit=100');
      const foundBefore = unmarked(await eventually(find, unmarked));
      await ctx.call('GET', `${get}/history`);
      await ctx.call('GET', `/reasoning/provenance/${seg(e.id)}`);
      const shown = linked(await ctx.call('GET', '/entities/graph'));
      check2xx(await ctx.call('DELETE', get), 'HOSTED-ENDPOINT-delete_entity');
      const rule = 'SPEC-V3-delete_entity';
      notItself(await ctx.call('GET', get), e.id, e.name, rule, 'delete_entity of the entity');
      const list = await ctx.call('GET', '/entities?limit=100');
      check.by(rule, 'HOSTED-ENDPOINT-list_entities').that(!itemsOf(list, ['entities']).some((x) => x.id === e.id && !marked(x)), 'list_entities, sent again after delete_entity, no longer lists it', () => ({
        message: `${rule}: list_entities (GET /entities?limit=100), the same request as before delete_entity, still lists the deleted entity ${e.id}`,
        expected: 'not listed',
        actual: e.id,
      }));
      const graph = await ctx.call('GET', '/entities/graph');
      const dangling = is2xx(graph) && isObject(graph.json) && Array.isArray(graph.json.edges) ? graph.json.edges.filter((x) => isObject(x) && Object.values(x).includes(e.id) && !Object.values(x).some((v) => typeof v === 'string' && v.toUpperCase() === 'SAME_AS')) : [];
      if (shown) {
        check.by(rule, 'HOSTED-ENDPOINT-get_entity_graph').that(dangling.length === 0, 'get_entity_graph, sent again after delete_entity, holds no edge to the deleted entity', () => ({
          message: `${rule}: get_entity_graph (${graph.request}), the same request as before delete_entity, still holds ${dangling.length} edge(s) to the deleted entity ${e.id} (${JSON.stringify(dangling[0])}): an entity is deleted with its relationships`,
          expected: 'no edge to the deleted entity',
          actual: dangling,
        }));
      } else ctx.note('the graph showed no relationship sent with add_entity: what a delete does to relationships was not judged');
      const kept = await ctx.call('GET', `/entities/${seg(other.id)}`);
      check.by(rule, READBACK).that(is2xx(kept) && holds(kept.json, other.name), 'the entity not deleted still reads back', () => ({
        message: `${rule}: get_entity (${kept.request}) of an entity that was not deleted answered ${said(kept)}: delete_entity removed another entity`,
        expected: other.name,
        actual: kept.status,
      }));
      const found = await eventually(find, (a) => !unmarked(a));
      if (foundBefore) {
        // The service's search found the entity right after its creation: it must follow its delete too.
        check.by(rule, 'HOSTED-ENDPOINT-search_entities').that(!unmarked(found), 'search_entities, sent again after delete_entity, no longer finds it', () => ({
          message: `${rule}: search_entities (${found.request}), the same request as before delete_entity, still finds the deleted entity ${e.id}, unmarked, a second after the delete: ${said(found)}`,
          expected: 'not found',
          actual: found.json,
        }));
      } else check.advise('ADV-deleted-gone-from-derived').ok(!unmarked(found), `search_entities (${found.request}), the same request as before delete_entity, still finds the deleted entity ${e.id}`, { expected: 'not found', actual: found.json });
      for (const path of [`${get}/history`, `/reasoning/provenance/${seg(e.id)}`]) {
        const a = await ctx.call('GET', path);
        check.advise('ADV-deleted-not-found').ok(a.status === 404 || a.status === 410, `${a.operation} (${a.request}) after delete_entity answered ${said(a)}`, { expected: '404 or 410', actual: a.status });
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-229',
    group: 'resources',
    clauses: ['SPEC-5.3.2', 'SPEC-V5-5.3.3', 'HOSTED-ENDPOINT-merge_entities', READBACK],
    title: 'A merge keeps the relationships of both entities, and merges chain',
    asserts:
      'Adds X and Y, a source S sent with relationships [{targetId: X, type: KNOWS}] and a target T with [{targetId: Y, type: WORKS_WITH}] (the document shows no way to make a relationship; ' +
      'a service that ignores the field shows none). Reads the graph, merges S into T, reads it again: every relationship of S or T the graph showed before has an edge of its type between T and the other end after (SPEC-5.3.2). ' +
      'Then A (sent with relationships [{targetId: Z, type: MENTORS}]) merged into B and B into C: C reads back, the graph holds a SAME_AS edge for each merge (SPEC-V5-5.3.3), ' +
      'and a MENTORS edge between C and Z when it showed one from A before (SPEC-5.3.2).',
    async run(ctx) {
      const [x, y] = [await newEntity(ctx), await newEntity(ctx)];
      const s = await entityWith(ctx, uid('source'), { relationships: [{ targetId: x.id, type: 'KNOWS' }] });
      const t = await entityWith(ctx, uid('target'), { relationships: [{ targetId: y.id, type: 'WORKS_WITH' }] });
      const before = checkObject(await ctx.call('GET', '/entities/graph'), 'HOSTED-ENDPOINT-get_entity_graph');
      const shown = [[s, x, 'KNOWS'], [t, y, 'WORKS_WITH']].filter(([a, b, type]) => edgesBetween(before, (a as { id: string }).id, (b as { id: string }).id, type as string).length > 0) as [typeof s, typeof x, string][];
      check2xx(await ctx.call('POST', `/entities/${seg(s.id)}/merge`, { body: { targetId: t.id } }), 'HOSTED-ENDPOINT-merge_entities');
      const after = checkObject(await ctx.call('GET', '/entities/graph'), 'HOSTED-ENDPOINT-get_entity_graph');
      if (shown.length === 0) ctx.note('the graph showed no relationship sent with add_entity: the relationships a merge keeps were not judged');
      for (const [owner, other, type] of shown) {
        check.by('SPEC-5.3.2').that(edgesBetween(after, t.id, other.id, type).length > 0, 'after a merge, the graph keeps each relationship of both entities, on the target', () => ({
          message: `SPEC-5.3.2: after merging ${s.id} into ${t.id}, the graph has no ${type} edge between the target ${t.id} and ${other.id}, a relationship of the ${owner === s ? 'source' : 'target'} the graph showed before: the merged entity keeps the relationships of both`,
          expected: { between: [t.id, other.id], type },
          actual: Array.isArray(after.edges) ? after.edges.slice(0, 10) : after.edges,
        }));
      }
      const z = await newEntity(ctx);
      const a = await entityWith(ctx, uid('first'), { relationships: [{ targetId: z.id, type: 'MENTORS' }] });
      const [b, c] = [await newEntity(ctx), await newEntity(ctx)];
      const chainShown = edgesBetween(checkObject(await ctx.call('GET', '/entities/graph'), 'HOSTED-ENDPOINT-get_entity_graph'), a.id, z.id, 'MENTORS').length > 0;
      check2xx(await ctx.call('POST', `/entities/${seg(a.id)}/merge`, { body: { targetId: b.id } }), 'HOSTED-ENDPOINT-merge_entities');
      check2xx(await ctx.call('POST', `/entities/${seg(b.id)}/merge`, { body: { targetId: c.id } }), 'HOSTED-ENDPOINT-merge_entities');
      const read = await ctx.call('GET', `/entities/${seg(c.id)}`);
      check.by(READBACK).that(is2xx(read) && holds(read.json, c.name), 'the target of the last of two chained merges reads back', () => ({
        message: `${READBACK}: get_entity (${read.request}) after merging ${a.id} into ${b.id} and ${b.id} into ${c.id} answered ${said(read)}: the target of a merge stays`,
        expected: c.name,
        actual: read.json,
      }));
      const graph = checkObject(await ctx.call('GET', '/entities/graph'), 'HOSTED-ENDPOINT-get_entity_graph');
      if (chainShown) {
        check.by('SPEC-5.3.2').that(edgesBetween(graph, c.id, z.id, 'MENTORS').length > 0, 'after chained merges, the last target keeps the relationship of the first source', () => ({
          message: `SPEC-5.3.2: after merging ${a.id} into ${b.id}, then ${b.id} into ${c.id}, the graph has no MENTORS edge between ${c.id} and ${z.id}, a relationship of ${a.id} it showed before: the merged entity keeps the relationships of both, through a chain too`,
          expected: { between: [c.id, z.id], type: 'MENTORS' },
          actual: Array.isArray(graph.edges) ? graph.edges.slice(0, 10) : graph.edges,
        }));
      }
      for (const [from, to] of [[a, b], [b, c]] as const) {
        check.by('SPEC-V5-5.3.3').that(edgesBetween(graph, from.id, to.id, 'SAME_AS').length > 0, 'after chained merges, the graph holds the SAME_AS link of each', () => ({
          message: `SPEC-V5-5.3.3: after merging ${a.id} into ${b.id}, then ${b.id} into ${c.id}, the graph has no SAME_AS edge between ${from.id} and ${to.id}: each merge MUST leave its SAME_AS link`,
          expected: { source: from.id, target: to.id, type: 'SAME_AS' },
          actual: Array.isArray(graph.edges) ? graph.edges.slice(0, 10) : graph.edges,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-230',
    group: 'resources',
    clauses: ['SPEC-V5-5.3.2', 'HOSTED-ENDPOINT-get_entity_history'],
    title: "An entity's history shows a mention in every conversation once it shows it in one",
    asserts:
      'Adds an entity and, in a new conversation, a message naming it; reads GET /entities/{id}/history. When that mention shows (which messages mention an entity is the service\'s reading), ' +
      'writes a message of the same shape in a second conversation (add_message) and a third (bulk_add_messages) and sends the same request: every one of the three shows (SPEC-V5-5.3.2: every cross-conversation mention). ' +
      'When the first never shows, nothing is judged.',
    async run(ctx) {
      const e = await newEntity(ctx);
      const path = `/entities/${seg(e.id)}/history`;
      const mention = async (n: number) => {
        const conv = await newConversation(ctx);
        const content = `Yesterday ${e.name} met the team in room ${n}.`;
        if (n === 3) {
          // The same mention, written by a bulk add: a message is a message however it was added.
          check2xx(await ctx.call('POST', `/conversations/${seg(conv.id)}/messages/bulk`, { body: { messages: [{ role: 'user', content }] } }), 'HOSTED-ENDPOINT-bulk_add_messages');
          return { conv: conv.id, content, messageId: undefined, how: 'bulk_add_messages' };
        }
        const a = await addMessage(ctx, conv.id, content);
        return { conv: conv.id, content, messageId: a.isJson && isObject(a.json) && typeof a.json.id === 'string' ? a.json.id : undefined, how: 'add_message' };
      };
      const shows = (a: Answer, m: { content: string; messageId: string | undefined }) => is2xx(a) && (a.text.includes(m.content) || (m.messageId !== undefined && a.text.includes(m.messageId)));
      const first = await mention(1);
      const seen = await eventually(() => ctx.call('GET', path), (a) => shows(a, first));
      if (!shows(seen, first)) {
        ctx.note(`get_entity_history of ${e.id} does not show the message naming it (${JSON.stringify(first.content)}): the service does not count it as a mention, so mentions across conversations were not judged`);
        return;
      }
      const more = [await mention(2), await mention(3)];
      const all = [first, ...more];
      const history = await eventually(() => ctx.call('GET', path), (a) => all.every((m) => shows(a, m)));
      for (const m of more) {
        check.by('SPEC-V5-5.3.2').that(shows(history, m), 'get_entity_history shows a mention of the same shape in every conversation', () => ({
          message: `SPEC-V5-5.3.2: get_entity_history (${history.request}) shows the mention written in the first conversation but not the same mention written in conversation ${m.conv} by ${m.how} (${JSON.stringify(m.content)}): it MUST return every cross-conversation mention`,
          expected: m.content,
          actual: history.json,
        }));
      }
      check.by('SPEC-V5-5.3.2').that(shows(history, first), 'get_entity_history, sent again after more mentions, still shows the first', () => ({
        message: `SPEC-V5-5.3.2: get_entity_history (${history.request}) no longer shows the first mention (${JSON.stringify(first.content)}) after two more were written`,
        expected: first.content,
        actual: history.json,
      }));
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-231',
    group: 'resources',
    clauses: [READBACK, 'SPEC-V3-delete_entity', 'HOSTED-ENDPOINT-delete_conversation'],
    title: 'Namesakes stay apart: two conversations of one user, entities of one name or names differing in case',
    asserts:
      'Two conversations with the same userId, a message each: each read by id answers its own id, and its messages not the other\'s; after deleting the first, the second still reads back with its message. ' +
      'Three entities named N, N and N in upper case, each with its own description: each read by id shows its own description; after deleting the first, the others still read back (SPEC-V3-delete_entity: one entity is deleted). ' +
      'A service that answers the existing entity for a name added again (an upsert) is not judged on that pair.',
    async run(ctx) {
      const user = uid('namesake');
      const convs = [await conversationOf(ctx, user), await conversationOf(ctx, user)];
      const contents = convs.map((c) => `${user} message of ${c}`);
      for (const [i, c] of convs.entries()) await addMessage(ctx, c, contents[i]!);
      for (const [i, c] of convs.entries()) {
        const meta = await ctx.call('GET', `/conversations/${seg(c)}`);
        const id = meta.isJson && isObject(meta.json) ? meta.json.id : undefined;
        check.by(READBACK).that(is2xx(meta) && id === c, 'get_conversation_metadata of one of two conversations of one user answers that conversation', () => ({
          message: `${READBACK}: get_conversation_metadata (${meta.request}) answered the conversation ${String(id)}, another conversation of the same userId: ${said(meta)}`,
          expected: c,
          actual: id,
        }));
        const msgs = await ctx.call('GET', `/conversations/${seg(c)}/messages`);
        check.by(READBACK).that(showsMessage(msgs, contents[i]!) && !showsMessage(msgs, contents[1 - i]!), 'get_conversation of one of two conversations of one user reads its own message and not the other\'s', () => ({
          message: `${READBACK}: get_conversation (${msgs.request}) of one of two conversations of the user ${user} does not read back its own message alone: ${said(msgs)}`,
          expected: contents[i],
          actual: msgs.json,
        }));
      }
      check2xx(await ctx.call('DELETE', `/conversations/${seg(convs[0]!)}`), 'HOSTED-ENDPOINT-delete_conversation');
      const left = await ctx.call('GET', `/conversations/${seg(convs[1]!)}/messages`);
      check.by(READBACK, 'HOSTED-ENDPOINT-delete_conversation').that(showsMessage(left, contents[1]!), 'deleting one of two conversations of one user leaves the other', () => ({
        message: `HOSTED-ENDPOINT-delete_conversation: get_conversation (${left.request}) after deleting another conversation of the same userId no longer reads back ${JSON.stringify(contents[1])}: ${said(left)}`,
        expected: contents[1],
        actual: left.json,
      }));

      const name = `${uid('namesake')} Quill`;
      const made: { id: string; description: string }[] = [];
      for (const [i, n] of [name, name, name.toUpperCase()].entries()) {
        const description = `${uid('description')} of namesake ${i}`;
        const body = checkObject(await ctx.call('POST', '/entities', { body: entityBody(n, description) }), 'HOSTED-ENDPOINT-add_entity');
        const id = checkString(body, 'id', 'HOSTED-ENDPOINT-add_entity', 'add_entity');
        ctx.defer('DELETE', `/entities/${seg(id)}`);
        if (made.some((m) => m.id === id)) ctx.note(`add_entity of ${JSON.stringify(n)} answered an entity already made (${id}): an upsert, not judged as a namesake`);
        else made.push({ id, description });
      }
      for (const m of made) {
        const a = await ctx.call('GET', `/entities/${seg(m.id)}`);
        check.by(READBACK).that(is2xx(a) && holds(a.json, m.description), 'get_entity of one of several namesakes shows its own description', () => ({
          message: `${READBACK}: get_entity (${a.request}) of one of ${made.length} entities named ${JSON.stringify(name)} (in any case) does not show its own description ${JSON.stringify(m.description)}: ${said(a)}`,
          expected: m.description,
          actual: a.json,
        }));
      }
      if (made.length < 2) return;
      check2xx(await ctx.call('DELETE', `/entities/${seg(made[0]!.id)}`), 'HOSTED-ENDPOINT-delete_entity');
      for (const m of made.slice(1)) {
        const a = await ctx.call('GET', `/entities/${seg(m.id)}`);
        check.by('SPEC-V3-delete_entity', READBACK).that(is2xx(a) && holds(a.json, m.description), 'deleting one of several namesakes leaves the others', () => ({
          message: `SPEC-V3-delete_entity: get_entity (${a.request}) of the namesake not deleted answered ${said(a)}: delete_entity deleted another entity of the same name (${made[0]!.id})`,
          expected: m.description,
          actual: a.status,
        }));
      }
    },
  }),
];
