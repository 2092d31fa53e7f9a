// Workspace isolation (docs/isolation.md): what one workspace writes, another does not reach.
//
// The document ties every credential to a workspace and scopes keys by it (list_api_keys "list of
// keys of that workspace", rule 4), but no sentence partitions conversations, entities or reasoning
// records: isolation of data is the SECURITY advisory ADV-workspace-isolation, checked here on every
// resource endpoint. Each scenario writes data with the run's credential (workspace A) and with a
// key of another workspace (B: --other-api-key, else one created for a new workspace), then reaches
// across from B: lists, searches, the graph and the query must not show A's data; a read of one of
// A's ids must answer as an unknown id does (the same status as for an id nobody used, and none of
// A's data); a write or delete of B addressed to A's ids must leave A's data as it was. The rule
// part (HOSTED-READBACK): B's own writes read back for B, as any valid credential's do (rule 1).
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Answer, Credential, HostedContext } from '../../src/profiles/hosted/context.js';
import type { HttpMethod } from '../../src/protocols/hosted/document.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, checkObject, checkString, is2xx, said, type Json } from '../support/http-answers.js';
import { newConversation, newEntity, stepBody, uid } from '../support/hosted-data.js';
import { newKey } from '../support/hosted-credentials.js';
import { otherWorkspace } from './credentials.js';

const seg = encodeURIComponent;

/** The two tenants of a scenario: the run's credential (A) and a key of another workspace (B). */
interface Tenants {
  other: Credential;
  /** How B's key was had, for messages. */
  via: string;
}

async function tenants(ctx: HostedContext): Promise<Tenants> {
  // A key of the run's workspace, for the check that a key made for a "new workspace" is really elsewhere.
  const own = ctx.target.otherApiKey === undefined ? await newKey(ctx, 'HOSTED-ENDPOINT-create_api_key') : { id: '' };
  const o = await otherWorkspace(ctx, own);
  return { other: o.credential, via: o.via };
}

/**
 * The answer's JSON without the members that echo the request's own (the same key, an equal value):
 * silent (answer-echo): a search may answer its query back, a query its parameters, and that is not
 * data of anyone's workspace.
 */
function withoutEcho(json: unknown, sent: Json | undefined): unknown {
  if (!isRecord(json) || !isRecord(sent)) return json;
  return Object.fromEntries(Object.entries(json).filter(([k, v]) => !(k in sent && isDeepStrictEqual(v, sent[k]))));
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The first of `markers` the answer holds, outside what echoes the request (`sent`, its body). */
function leakOf(a: Answer, markers: readonly string[], sent?: Json): string | undefined {
  const text = a.json === undefined || sent === undefined ? a.text : JSON.stringify(withoutEcho(a.json, sent));
  return markers.find((m) => m !== '' && text.includes(m));
}

/** A request of B naming nothing of A's (a list, a search, the graph, a query) shows none of A's markers. */
async function showsNone(ctx: HostedContext, t: Tenants, method: HttpMethod, path: string, markers: readonly string[], what: string, body?: Json): Promise<void> {
  const a = await ctx.call(method, path, { as: t.other, ...(body !== undefined ? { body } : {}) });
  const leaked = leakOf(a, markers, body);
  check.advise('ADV-workspace-isolation').that(leaked === undefined, `SECURITY: ${a.operation} with another workspace's credential shows none of the caller's data`, () => ({
    message: `SECURITY: ${a.operation} (${a.request}${body !== undefined ? ` ${JSON.stringify(body)}` : ''}) with ${t.via} (another workspace) answered ${said(a)}: it shows ${JSON.stringify(leaked)}, ${what} of the run's workspace; a workspace's data must not be reached from another`,
    expected: `nothing of the run's workspace`,
    actual: leaked,
  }));
}

/** Every string value of a JSON value. */
function strings(json: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof json === 'string') out.add(json);
  else if (Array.isArray(json)) for (const v of json) strings(v, out);
  else if (json !== null && typeof json === 'object') for (const v of Object.values(json)) strings(v, out);
  return out;
}

const ISO_DATE = /^\d{4}-\d\d-\d\dT/;

/**
 * A read of B addressing one of A's ids answers as for an id nobody used: the same status, and none
 * of A's data: neither the given markers nor any string of A's own answer (12 characters or more,
 * not a date, not the id) that the answer to an unknown id does not hold too. `path` builds the
 * request for an id (the unknown one is a fresh UUID).
 */
async function readsAsUnknown(ctx: HostedContext, t: Tenants, method: HttpMethod, path: (id: string) => string, id: string, markers: readonly string[], what: string, body?: Json): Promise<void> {
  const own = await ctx.call(method, path(id), body !== undefined ? { body } : {});
  const opts = { as: t.other, ...(body !== undefined ? { body } : {}) };
  const a = await ctx.call(method, path(id), opts);
  const unknown = await ctx.call(method, path(randomUUID()), opts);
  const common = strings(unknown.json);
  const mine = is2xx(own) ? [...strings(own.json)].filter((v) => v.length >= 12 && !ISO_DATE.test(v) && v !== id && !common.has(v) && !unknown.text.includes(v)) : [];
  const leaked = leakOf(a, [...markers, ...mine], body);
  check.advise('ADV-workspace-isolation').that(leaked === undefined && a.status === unknown.status, `SECURITY: ${a.operation} of another workspace's id answers as an unknown id does`, () => ({
    message:
      `SECURITY: ${a.operation} (${a.request}) of ${what} of the run's workspace, with ${t.via} (another workspace), answered ${said(a)}` +
      (leaked !== undefined ? `: it shows ${JSON.stringify(leaked)}` : `, and an id nobody used answered ${unknown.status}: the status tells that the id exists`) +
      '; another workspace\'s id must answer as an unknown id does',
    expected: `the answer to an unknown id (${unknown.status}), holding nothing of the run's workspace`,
    actual: { status: a.status, shows: leaked ?? null },
  }));
}

/** After B's write or delete addressed to A's data, A's read of it shows none of what B wrote and still has it. */
async function leftAsItWas(ctx: HostedContext, t: Tenants, write: Answer, readPath: string, what: string, expect: { notShown?: string; stillThere?: boolean }): Promise<void> {
  const a = await ctx.call('GET', readPath);
  const shown = expect.notShown !== undefined && a.text.includes(expect.notShown);
  const gone = expect.stillThere === true && !is2xx(a);
  check.advise('ADV-workspace-isolation').that(!shown && !gone, `SECURITY: ${write.operation} of another workspace changes nothing of the caller's data`, () => ({
    message:
      `SECURITY: ${write.operation} (${write.request}) with ${t.via} (another workspace), addressed to ${what} of the run's workspace, answered ${write.status}, and then ${a.request} with the run's credential answered ${said(a)}: ` +
      (shown ? `it shows ${JSON.stringify(expect.notShown)}, which the other workspace wrote` : `${what} is gone`) +
      '; a write or delete of another workspace must change nothing',
    expected: 'unchanged',
    actual: shown ? expect.notShown : a.status,
  }));
}

/** B's own write reads back for B (HOSTED-READBACK; rule 1: a valid credential works on every endpoint). */
function readsBack(a: Answer, marker: string, what: string, t: Tenants): void {
  check.by('HOSTED-READBACK', 'HOSTED-AUTH-1').that(is2xx(a) && a.text.includes(marker), `the other workspace's own ${what} reads back for it`, () => ({
    message: `HOSTED-READBACK: ${a.operation} (${a.request}) with ${t.via} answered ${said(a)}: ${what} it wrote itself (${marker}) is not read back; every valid credential's writes read back for it`,
    expected: marker,
    actual: a.status,
  }));
}

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-060',
    group: 'credentials',
    clauses: ['HOSTED-READBACK', 'HOSTED-AUTH-1'],
    title: 'Conversations and messages stay in their workspace (SECURITY advisory)',
    asserts:
      "Writes a conversation with a message in the run's workspace and in another (--other-api-key, else a key created for a new workspace; skipped when neither works). " +
      "The other workspace's conversation and message read back for it (rule). Advisory ADV-workspace-isolation (SECURITY): with the other workspace's key, the list and a search show none of the run's conversations; " +
      'the metadata, messages, search, context, observations and reflections of its conversation answer as for an unknown id; adding messages (one, bulk) to it and deleting it change nothing; and the run\'s list shows none of the other\'s.',
    async run(ctx) {
      const t = await tenants(ctx);
      const secret = uid('secret');
      const mine = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation');
      const c = `/conversations/${seg(mine.id)}`;
      check2xx(await ctx.call('POST', `${c}/messages`, { body: { role: 'user', content: `Ada keeps ${secret} in the vault. ${secret} again.` } }), 'HOSTED-ENDPOINT-add_message');
      // A step with a result too: a service deriving observations and reflections has something to derive.
      check2xx(await ctx.call('POST', '/reasoning/steps', { body: stepBody(mine.id, secret) }), 'HOSTED-ENDPOINT-record_step');
      // The other workspace's own conversation: it reads back for it (the rule part).
      const theirs = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation', t.other);
      const theirSecret = uid('secret');
      check2xx(await ctx.call('POST', `/conversations/${seg(theirs.id)}/messages`, { as: t.other, body: { role: 'user', content: `Bo keeps ${theirSecret}.` } }), 'HOSTED-ENDPOINT-add_message');
      readsBack(await ctx.call('GET', `/conversations/${seg(theirs.id)}/messages`, { as: t.other }), theirSecret, 'the message', t);

      const markers = [mine.id, mine.userId, secret];
      await showsNone(ctx, t, 'GET', '/conversations', markers, 'a conversation');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/conversations/${seg(id)}`, mine.id, [mine.userId, secret], 'a conversation');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/conversations/${seg(id)}/messages`, mine.id, [secret], 'the messages of a conversation');
      await readsAsUnknown(ctx, t, 'POST', (id) => `/conversations/${seg(id)}/search`, mine.id, [secret], 'a search in a conversation', { query: secret });
      await readsAsUnknown(ctx, t, 'GET', (id) => `/conversations/${seg(id)}/context`, mine.id, [secret], 'the context of a conversation');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/conversations/${seg(id)}/observations`, mine.id, [secret], 'the observations of a conversation');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/conversations/${seg(id)}/reflections`, mine.id, [secret], 'the reflections of a conversation');
      // The run's workspace does not see the other's either.
      const ownList = await ctx.call('GET', '/conversations');
      check.advise('ADV-workspace-isolation').that(!ownList.text.includes(theirs.id), "SECURITY: list_conversations shows none of another workspace's conversations", () => ({
        message: `SECURITY: list_conversations (${ownList.request}) with the run's credential shows ${theirs.id}, a conversation of another workspace (${t.via})`,
        expected: "the run's workspace's conversations",
        actual: theirs.id,
      }));

      // Writes of the other workspace, addressed to the run's conversation. A service may take a
      // message to an unknown id as the start of a conversation of that id in the caller's workspace
      // (the reference does): the other workspace deletes its own after each write, so the next
      // write is again addressed to an id it does not have.
      ctx.defer('DELETE', c, t.other);
      const [one, bulk] = [uid('intruder'), uid('intruder')];
      const added = await ctx.call('POST', `${c}/messages`, { as: t.other, body: { role: 'user', content: one } });
      await leftAsItWas(ctx, t, added, `${c}/messages`, 'the messages of a conversation', { notShown: one });
      if (is2xx(added)) await ctx.call('DELETE', c, { as: t.other });
      const bulked = await ctx.call('POST', `${c}/messages/bulk`, { as: t.other, body: { messages: [{ role: 'user', content: bulk }] } });
      await leftAsItWas(ctx, t, bulked, `${c}/messages`, 'the messages of a conversation', { notShown: bulk });
      if (is2xx(bulked)) await ctx.call('DELETE', c, { as: t.other });
      const deleted = await ctx.call('DELETE', c, { as: t.other });
      await leftAsItWas(ctx, t, deleted, c, 'a conversation', { stillThere: true });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-061',
    group: 'credentials',
    clauses: ['HOSTED-READBACK', 'HOSTED-AUTH-1'],
    title: 'Entities, the graph and the query console stay in their workspace (SECURITY advisory)',
    asserts:
      "Adds an entity in the run's workspace and one in another (--other-api-key, else a key created for a new workspace; skipped when neither works); the other's reads back for it (rule). " +
      "Advisory ADV-workspace-isolation (SECURITY): with the other workspace's key, the entity list, an entity search, the graph and a query for the name show none of the run's entity; " +
      'reading it, its history and its provenance answer as for an unknown id; updating it, giving it feedback, merging it away and deleting another change nothing; and the run\'s list, search and graph show none of the other\'s.',
    async run(ctx) {
      const t = await tenants(ctx);
      const mine = await newEntity(ctx, 'HOSTED-ENDPOINT-add_entity', `Ada ${uid('secret')}`);
      const spare = await newEntity(ctx, 'HOSTED-ENDPOINT-add_entity', `Cy ${uid('secret')}`);
      const theirs = await newEntity(ctx, 'HOSTED-ENDPOINT-add_entity', `Bo ${uid('secret')}`, t.other);
      readsBack(await ctx.call('GET', `/entities/${seg(theirs.id)}`, { as: t.other }), theirs.name, 'the entity', t);

      const markers = [mine.id, mine.name];
      await showsNone(ctx, t, 'GET', '/entities', markers, 'an entity');
      await showsNone(ctx, t, 'POST', '/entities/search', markers, 'an entity', { query: mine.name });
      await showsNone(ctx, t, 'GET', '/entities/graph', markers, 'an entity');
      // silent: the query's body and language subset (docs/cypher-subset.md); cypher with params, and query.
      const q = 'MATCH (n) WHERE n.name = $name RETURN n.name AS name';
      await showsNone(ctx, t, 'POST', '/query', [mine.name], 'an entity', { cypher: q, query: q, params: { name: mine.name }, parameters: { name: mine.name } });
      await readsAsUnknown(ctx, t, 'GET', (id) => `/entities/${seg(id)}`, mine.id, [mine.name], 'an entity');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/entities/${seg(id)}/history`, mine.id, [mine.name], 'the history of an entity');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/reasoning/provenance/${seg(id)}`, mine.id, [mine.name], 'the provenance of an entity');
      for (const [method, path, body] of [['GET', '/entities', undefined], ['POST', '/entities/search', { query: theirs.name }], ['GET', '/entities/graph', undefined]] as const) {
        const a = await ctx.call(method, path, body !== undefined ? { body } : {});
        check.advise('ADV-workspace-isolation').that(leakOf(a, [theirs.name], body) === undefined, `SECURITY: ${a.operation} with the run's credential shows none of another workspace's entities`, () => ({
          message: `SECURITY: ${a.operation} (${a.request}) with the run's credential shows ${JSON.stringify(theirs.name)}, an entity of another workspace (${t.via})`,
          expected: "the run's workspace's entities",
          actual: theirs.name,
        }));
      }

      const e = `/entities/${seg(mine.id)}`;
      const [description, comment] = [uid('intruder'), uid('intruder')];
      const updated = await ctx.call('PUT', e, { as: t.other, body: { name: mine.name, type: 'PERSON', entityType: 'PERSON', description } });
      await leftAsItWas(ctx, t, updated, e, 'an entity', { notShown: description, stillThere: true });
      const fed = await ctx.call('PUT', `${e}/feedback`, { as: t.other, body: { userScore: 0, confirmed: false, comment } });
      await leftAsItWas(ctx, t, fed, e, 'an entity', { notShown: comment, stillThere: true });
      // silent: merge_entities' body; the path's entity is merged into targetId (the established clients' reading).
      const merged = await ctx.call('POST', `${e}/merge`, { as: t.other, body: { targetId: theirs.id } });
      await leftAsItWas(ctx, t, merged, e, 'an entity', { stillThere: true });
      // The delete names another entity: one a faulty merge took away would be gone already.
      const s = `/entities/${seg(spare.id)}`;
      const deleted = await ctx.call('DELETE', s, { as: t.other });
      await leftAsItWas(ctx, t, deleted, s, 'an entity', { stillThere: true });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-062',
    group: 'credentials',
    clauses: ['HOSTED-READBACK', 'HOSTED-AUTH-1'],
    title: 'Reasoning steps, tool calls and traces stay in their workspace (SECURITY advisory)',
    asserts:
      "Records a reasoning step in a conversation of the run's workspace and one in another's (--other-api-key, else a key created for a new workspace; skipped when neither works); the other's reads back for it in its trace (rule). " +
      "Advisory ADV-workspace-isolation (SECURITY): with the other workspace's key, the steps listed for the run's conversation, its trace and the explanation of its step answer as for an unknown id and show none of the step; " +
      'recording a step into the run\'s conversation and a tool call onto its step change nothing the run reads.',
    async run(ctx) {
      const t = await tenants(ctx);
      const conv = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation');
      const secret = uid('secret');
      const step = checkObject(await ctx.call('POST', '/reasoning/steps', { body: stepBody(conv.id, secret) }), 'HOSTED-ENDPOINT-record_step');
      const stepId = checkString(step, 'id', 'HOSTED-ENDPOINT-record_step', 'record_step');
      const theirConv = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation', t.other);
      const theirSecret = uid('secret');
      check2xx(await ctx.call('POST', '/reasoning/steps', { as: t.other, body: stepBody(theirConv.id, theirSecret) }), 'HOSTED-ENDPOINT-record_step');
      readsBack(await ctx.call('GET', `/reasoning/trace/${seg(theirConv.id)}`, { as: t.other }), theirSecret, 'the reasoning step', t);

      // silent: list_steps' filter; conversation_id (the clients') and conversationId as query parameters.
      await readsAsUnknown(ctx, t, 'GET', (id) => `/reasoning/steps?conversation_id=${seg(id)}&conversationId=${seg(id)}`, conv.id, [secret, stepId], 'the steps of a conversation');
      await showsNone(ctx, t, 'GET', '/reasoning/steps', [secret, stepId], 'a reasoning step');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/reasoning/trace/${seg(id)}`, conv.id, [secret, stepId], 'the trace of a conversation');
      await readsAsUnknown(ctx, t, 'GET', (id) => `/reasoning/explain/${seg(id)}`, stepId, [secret], 'a reasoning step');

      ctx.defer('DELETE', `/conversations/${seg(conv.id)}`, t.other);
      const intruder = uid('intruder');
      const recorded = await ctx.call('POST', '/reasoning/steps', { as: t.other, body: stepBody(conv.id, intruder) });
      await leftAsItWas(ctx, t, recorded, `/reasoning/trace/${seg(conv.id)}`, 'the trace of a conversation', { notShown: intruder });
      const tool = uid('intruder');
      // silent: record_tool_call's body; the established clients' stepId, toolName, arguments.
      const called = await ctx.call('POST', '/reasoning/tool-calls', { as: t.other, body: { stepId, toolName: tool, arguments: { about: tool } } });
      await leftAsItWas(ctx, t, called, `/reasoning/explain/${seg(stepId)}`, 'a reasoning step', { notShown: tool, stillThere: true });
      await leftAsItWas(ctx, t, called, `/reasoning/trace/${seg(conv.id)}`, 'the trace of a conversation', { notShown: tool });
    },
  }),
];
