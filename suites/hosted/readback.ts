// Read-back of every write the document's tables list (issue 27): what a bulk add, an update,
// feedback and a merge wrote is what a later read shows, and what a delete removed is gone from
// the lists and reads of its resource. The single writes (create, add_message, record_step,
// add_entity) are read back in resources.ts.
//
// silent: where the document shows no field (feedback, history, graph edges, a deleted resource
// read by id, derived views that may lag such as searches), the check is an advisory or accepts
// every reading; lists are read with the clients' `limit` (100) and judged by id, in any order.
import type { Answer } from '../../src/profiles/hosted/context.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { DISCOVERY } from '../../src/protocols/hosted/document.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, checkObject, hasPair, holds, is2xx, isObject, itemsOf, listItems, messagesIn, said, type Json } from '../support/http-answers.js';
import { entityBody, newConversation, newEntity, uid } from '../support/hosted-data.js';

const seg = encodeURIComponent;

/** A list item or graph node marked as deleted (a soft delete keeps it, saying so). */
const markedDeleted = (item: Json): boolean => item.deleted === true || (typeof item.deletedAt === 'string' && item.deletedAt !== '');

/** Every string value of an object (an edge, whatever its field names). */
const stringsOf = (o: Json): string[] => Object.values(o).filter((v): v is string => typeof v === 'string');

/** The ends of an edge when its field names say which is which (silent: the edge's shape is not shown). */
function endsOf(edge: Json): [unknown, unknown] | undefined {
  for (const [from, to] of [['source', 'target'], ['sourceId', 'targetId'], ['from', 'to'], ['start', 'end'], ['startNodeId', 'endNodeId']] as const) {
    if (edge[from] !== undefined && edge[to] !== undefined) return [edge[from], edge[to]];
  }
  return undefined;
}

const READBACK = 'HOSTED-READBACK';

/** A read of a deleted resource by id answers 404 or 410 (an advisory: the official clients accept a soft delete). */
function goneById(a: Answer, what: string): void {
  check.advise('ADV-deleted-not-found').ok(a.status === 404 || a.status === 410, `${a.request} after ${what} answered ${said(a)}`, { expected: '404 or 410', actual: a.status });
}

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-013',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-bulk_add_messages', READBACK],
    title: 'Every message of a bulk add is read back, once, beside the messages added before',
    asserts:
      'Adds two messages one by one to a new conversation, then 30 in one bulk add (roles user and assistant; contents that are prefixes and case variants of ' +
      'each other, "entry 1" and "entry 10", "entry 3" and "ENTRY 3"). GET /conversations/{id}/messages?limit=100 holds each of the 32 messages (role and content) exactly once. ' +
      'Advisory (ADV-search-finds-written): POST /conversations/{id}/search {query, limit: 100} with the exact content of "entry 1" finds that message.',
    async run(ctx) {
      const conv = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation');
      const base = uid('bulk');
      const path = `/conversations/${seg(conv.id)}/messages`;
      const single = [{ role: 'user', content: `${base}: first` }, { role: 'assistant', content: `${base}: second` }];
      for (const m of single) check2xx(await ctx.call('POST', path, { body: m }), 'HOSTED-ENDPOINT-add_message');
      const batch = Array.from({ length: 30 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: i < 15 ? `${base}: entry ${i}` : `${base}: ENTRY ${i - 15}` }));
      check2xx(await ctx.call('POST', `${path}/bulk`, { body: { messages: batch } }), 'HOSTED-ENDPOINT-bulk_add_messages');
      // silent: the page size of get_conversation; the clients' limit asks for more than were written.
      const read = check2xx(await ctx.call('GET', `${path}?limit=100`), READBACK);
      const seen = messagesIn(read.json);
      for (const m of [...single, ...batch]) {
        const n = seen.filter((x) => x.content === m.content && x.role === m.role).length;
        check.by(READBACK, 'HOSTED-ENDPOINT-bulk_add_messages').that(n === 1, 'get_conversation after a bulk add reads back each message written (role and content) exactly once', () => ({
          message: `get_conversation (${read.request}) after a bulk add of 30: the message {role: "${m.role}", content: ${JSON.stringify(m.content)}} is read back ${n} times, expected once (${seen.length} messages read)`,
          expected: m,
          actual: n,
        }));
      }
      // advisory: the search's body and answer are not shown; the clients' {query, limit}.
      const wanted = batch[1]!.content;
      const found = await ctx.call('POST', `/conversations/${seg(conv.id)}/search`, { body: { query: wanted, limit: 100 } });
      check.advise('ADV-search-finds-written').ok(is2xx(found) && messagesIn(found.json).some((x) => x.content === wanted), `search_messages (${found.request}) for the exact content ${JSON.stringify(wanted)} does not find it: ${said(found)}`, { expected: wanted, actual: found.json });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-014',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-update_entity', READBACK],
    title: 'An entity update is read back: the new description, then the new name',
    asserts:
      'Adds an entity; PUT /entities/{id} {name, type, description} with a new description, then with a new name (the old one its prefix) and the description in upper case. ' +
      'After each, GET /entities/{id} shows the values just written (a name field, when there is one, is the new name), and the entity listed under its id does too. ' +
      'Advisories: GET /entities?limit=100 lists it (ADV-list-shows-written); POST /entities/search {query: its new name, limit: 100} finds it (ADV-search-finds-written).',
    async run(ctx) {
      const e = await newEntity(ctx, 'HOSTED-ENDPOINT-add_entity');
      const path = `/entities/${seg(e.id)}`;
      const first = `${uid('description')} written by an update`;
      const steps = [{ name: e.name, description: first }, { name: `${e.name}-renamed`, description: first.toUpperCase() }];
      for (const want of steps) {
        check2xx(await ctx.call('PUT', path, { body: entityBody(want.name, want.description) }), 'HOSTED-ENDPOINT-update_entity');
        const answer = await ctx.call('GET', path);
        const read = checkObject(answer, READBACK);
        for (const value of [want.name, want.description]) {
          check.by(READBACK, 'HOSTED-ENDPOINT-update_entity').that(holds(read, value), 'get_entity after update_entity reads back the name and description written', () => ({
            message: `get_entity (${answer.request}) after update_entity: ${JSON.stringify(value)} is not read back: ${JSON.stringify(read).slice(0, 300)}`,
            expected: value,
            actual: read,
          }));
        }
        if (typeof read.name === 'string') {
          check.by(READBACK).that(read.name === want.name, 'get_entity after update_entity: the name field is the new name', () => ({ message: `get_entity after update_entity: name is ${JSON.stringify(read.name)}, expected ${JSON.stringify(want.name)}`, expected: want.name, actual: read.name }));
        }
        const listed = itemsOf(check2xx(await ctx.call('GET', '/entities?limit=100'), 'HOSTED-ENDPOINT-list_entities'), ['entities']).find((x) => x.id === e.id);
        // silent: whether the list shows a given entity at all (pagination); when it does, as written.
        check.advise('ADV-list-shows-written').ok(listed !== undefined, `list_entities (GET /entities?limit=100) after update_entity does not list the entity ${e.id}`, { expected: e.id, actual: 'not listed' });
        if (listed !== undefined) {
          check.by(READBACK).that(holds(listed, want.description), 'list_entities after update_entity shows the entity with its new description', () => ({
            message: `list_entities after update_entity shows the entity ${e.id} without its new description ${JSON.stringify(want.description)}: ${JSON.stringify(listed).slice(0, 300)}`,
            expected: want.description,
            actual: listed,
          }));
        }
      }
      const name = steps[steps.length - 1]!.name;
      const found = await ctx.call('POST', '/entities/search', { body: { query: name, limit: 100 } });
      const hits = (found.isJson ? listItems(found.json, ['entities', 'results']) : undefined) ?? [];
      check.advise('ADV-search-finds-written').ok(is2xx(found) && hits.some((x) => isObject(x) && (x.id === e.id || (isObject(x.entity) && x.entity.id === e.id))), `search_entities (${found.request}) for the exact name ${JSON.stringify(name)} does not find the entity ${e.id}: ${said(found)}`, { expected: e.id, actual: found.json });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-015',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-delete_conversation', READBACK],
    title: 'A deleted conversation is gone from the list and its messages from the reads; another one stays',
    asserts:
      'Makes two conversations with three messages each and deletes the first (2xx). GET /conversations?limit=100 lists the second and not the first; GET /conversations/{first}/messages ' +
      'holds none of its messages; the second still holds its own. Its metadata answering 404/410, and its context and search no longer showing its messages, are advisories.',
    async run(ctx) {
      const [gone, kept] = [await newConversation(ctx), await newConversation(ctx)];
      const base = uid('deleted');
      const contents = (c: { id: string }) => [0, 1, 2].map((i) => `${base} ${c === gone ? 'gone' : 'kept'} message ${i}`);
      for (const c of [gone, kept]) {
        for (const content of contents(c)) check2xx(await ctx.call('POST', `/conversations/${seg(c.id)}/messages`, { body: { role: 'user', content } }), 'HOSTED-ENDPOINT-add_message');
      }
      check2xx(await ctx.call('DELETE', `/conversations/${seg(gone.id)}`), 'HOSTED-ENDPOINT-delete_conversation');
      const cite = check.by(READBACK, 'HOSTED-ENDPOINT-delete_conversation');
      const list = check2xx(await ctx.call('GET', '/conversations?limit=100'), 'HOSTED-ENDPOINT-list_conversations');
      const listed = itemsOf(list, ['conversations']);
      cite.that(!listed.some((c) => c.id === gone.id && !markedDeleted(c)), 'list_conversations after delete_conversation no longer lists the deleted conversation', () => ({
        message: `list_conversations (${list.request}) still lists the conversation ${gone.id} after delete_conversation`,
        expected: 'not listed',
        actual: gone.id,
      }));
      cite.that(listed.some((c) => c.id === kept.id), 'list_conversations after delete_conversation still lists the conversation not deleted', () => ({
        message: `list_conversations (${list.request}) no longer lists ${kept.id}, which was not deleted (delete_conversation removed another conversation)`,
        expected: kept.id,
        actual: listed.map((c) => c.id),
      }));
      const read = await ctx.call('GET', `/conversations/${seg(gone.id)}/messages`);
      const left = contents(gone).filter((m) => read.text.includes(m));
      cite.that(!(is2xx(read) && left.length > 0), 'get_conversation of the deleted conversation reads none of its messages', () => ({ message: `get_conversation (${read.request}) after delete_conversation still reads ${left.length} of its messages: ${said(read)}`, expected: 'no messages', actual: left }));
      const other = check2xx(await ctx.call('GET', `/conversations/${seg(kept.id)}/messages`), READBACK);
      const lost = contents(kept).filter((m) => !other.text.includes(m));
      cite.that(lost.length === 0, 'get_conversation of the conversation not deleted still reads all its messages', () => ({ message: `get_conversation (${other.request}): ${lost.length} message(s) of a conversation that was not deleted are gone`, expected: contents(kept), actual: other.json }));
      goneById(await ctx.call('GET', `/conversations/${seg(gone.id)}`), 'delete_conversation');
      for (const a of [await ctx.call('GET', `/conversations/${seg(gone.id)}/context`), await ctx.call('POST', `/conversations/${seg(gone.id)}/search`, { body: { query: base } })]) {
        const shown = contents(gone).filter((m) => a.text.includes(m));
        check.advise('ADV-deleted-gone-from-derived').ok(!is2xx(a) || shown.length === 0, `${a.request} after delete_conversation still shows ${shown.length} of its messages`, { expected: 'none', actual: shown });
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-016',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-delete_entity', READBACK],
    title: 'A deleted entity is gone from the list and the graph; another one stays',
    asserts:
      'Adds two entities and deletes the first (2xx). GET /entities?limit=100 and GET /entities/graph hold no unmarked item or node with its id; the second still reads back by id. ' +
      'Its read by id answering 404/410, and search_entities no longer finding it, are advisories.',
    async run(ctx) {
      const [gone, kept] = [await newEntity(ctx), await newEntity(ctx)];
      check2xx(await ctx.call('DELETE', `/entities/${seg(gone.id)}`), 'HOSTED-ENDPOINT-delete_entity');
      const cite = check.by(READBACK, 'HOSTED-ENDPOINT-delete_entity');
      const list = check2xx(await ctx.call('GET', '/entities?limit=100'), 'HOSTED-ENDPOINT-list_entities');
      cite.that(!itemsOf(list, ['entities']).some((x) => x.id === gone.id && !markedDeleted(x)), 'list_entities after delete_entity no longer lists the deleted entity', () => ({ message: `list_entities (${list.request}) still lists the entity ${gone.id} after delete_entity`, expected: 'not listed', actual: gone.id }));
      const graph = checkObject(await ctx.call('GET', '/entities/graph'), 'HOSTED-ENDPOINT-get_entity_graph');
      const nodes = Array.isArray(graph.nodes) ? graph.nodes.filter(isObject) : [];
      cite.that(!nodes.some((n) => n.id === gone.id && !markedDeleted(n)), 'get_entity_graph after delete_entity has no node of the deleted entity', () => ({ message: `get_entity_graph still has the entity ${gone.id} as a node after delete_entity`, expected: 'no such node', actual: gone.id }));
      const other = checkObject(await ctx.call('GET', `/entities/${seg(kept.id)}`), READBACK);
      cite.that(holds(other, kept.name), 'get_entity of the entity not deleted still reads back its name', () => ({ message: `get_entity (${kept.id}): an entity that was not deleted no longer reads back (${JSON.stringify(other).slice(0, 200)})`, expected: kept.name, actual: other }));
      goneById(await ctx.call('GET', `/entities/${seg(gone.id)}`), 'delete_entity');
      const found = await ctx.call('POST', '/entities/search', { body: { query: gone.name } });
      const hits = itemsOf(found, ['entities', 'results']).filter((x) => x.id === gone.id && !markedDeleted(x));
      check.advise('ADV-deleted-gone-from-derived').ok(hits.length === 0, `search_entities (${found.request}) still finds the entity ${gone.id} after delete_entity`, { expected: 'not found', actual: hits });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-017',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-set_entity_feedback', READBACK],
    title: 'Feedback is given to the entity in the path, and changes neither its data nor another entity',
    asserts:
      'Adds two entities; PUT /entities/{first}/feedback {userScore: 0.25, confirmed: true, comment} (2xx). The first still reads back with its name and description; ' +
      'the second shows nothing of the feedback. Whether a later read of the first (or its history) shows the feedback is an advisory: the document does not show feedback fields.',
    async run(ctx) {
      const [given, other] = [await newEntity(ctx), await newEntity(ctx)];
      const description = `${uid('description')} set before feedback`;
      check2xx(await ctx.call('PUT', `/entities/${seg(given.id)}`, { body: entityBody(given.name, description) }), 'HOSTED-ENDPOINT-update_entity');
      const comment = uid('feedback');
      check2xx(await ctx.call('PUT', `/entities/${seg(given.id)}/feedback`, { body: { userScore: 0.25, confirmed: true, comment } }), 'HOSTED-ENDPOINT-set_entity_feedback');
      const cite = check.by(READBACK, 'HOSTED-ENDPOINT-set_entity_feedback');
      const read = checkObject(await ctx.call('GET', `/entities/${seg(given.id)}`), READBACK);
      for (const value of [given.name, description]) {
        cite.that(holds(read, value), 'get_entity after set_entity_feedback still reads back the name and description written before', () => ({
          message: `get_entity after set_entity_feedback: ${JSON.stringify(value)}, written before, is not read back: feedback is not an update of the entity (${JSON.stringify(read).slice(0, 300)})`,
          expected: value,
          actual: read,
        }));
      }
      for (const path of [`/entities/${seg(other.id)}`, `/entities/${seg(other.id)}/history`]) {
        const a = await ctx.call('GET', path);
        cite.that(!(is2xx(a) && a.text.includes(comment)), 'another entity (its read and its history) shows nothing of the feedback', () => ({ message: `${a.request} shows the feedback given to another entity (${given.id}): feedback goes to the entity in the path`, expected: 'no feedback', actual: comment }));
      }
      const history = await ctx.call('GET', `/entities/${seg(given.id)}/history`);
      const shown = [read, is2xx(history) ? history.json : undefined].some((j) => JSON.stringify(j ?? null).includes(comment) || hasPair(j, 'userScore', 0.25));
      check.advise('ADV-feedback-shown').ok(shown, `neither get_entity nor get_entity_history of ${given.id} shows the feedback just given (userScore 0.25, comment ${comment})`, { expected: 'the feedback', actual: read });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-018',
    group: 'resources',
    clauses: ['SPEC-V5-5.3.3', 'SPEC-V5-5.3.4', READBACK],
    title: 'After a merge the target reads back, and the graph holds the SAME_AS link from the source to it',
    asserts:
      'Adds two entities and merges the second into the first (POST /entities/{second}/merge {targetId: first}, 2xx). GET /entities/{first} reads back its name; ' +
      'GET /entities/graph has an edge that names both ids and SAME_AS, and, where its field names say which end is which, runs from the second to the first.',
    async run(ctx) {
      const [target, source] = [await newEntity(ctx), await newEntity(ctx)];
      check2xx(await ctx.call('POST', `/entities/${seg(source.id)}/merge`, { body: { targetId: target.id } }), 'HOSTED-ENDPOINT-merge_entities');
      const read = checkObject(await ctx.call('GET', `/entities/${seg(target.id)}`), READBACK);
      check.by(READBACK, 'SPEC-V5-5.3.3').that(holds(read, target.name), 'get_entity after a merge reads back the name of the target', () => ({
        message: `get_entity (${target.id}) after merging ${source.id} into it does not read back its name ${JSON.stringify(target.name)}: ${JSON.stringify(read).slice(0, 200)}`,
        expected: target.name,
        actual: read,
      }));
      const graph = checkObject(await ctx.call('GET', '/entities/graph'), 'SPEC-V5-5.3.4');
      const edges = Array.isArray(graph.edges) ? graph.edges.filter(isObject) : [];
      const links = edges.filter((e) => stringsOf(e).includes(source.id) && stringsOf(e).includes(target.id) && stringsOf(e).some((v) => v.toUpperCase() === 'SAME_AS'));
      const merged = check.by('SPEC-V5-5.3.3');
      merged.that(links.length > 0, 'get_entity_graph after a merge has a SAME_AS edge between the source and the target', () => ({
        message: `get_entity_graph after merging ${source.id} into ${target.id}: no SAME_AS edge between them among ${edges.length} edges (merge leaves a SAME_AS provenance link from the source to the target)`,
        expected: { source: source.id, target: target.id, type: 'SAME_AS' },
        actual: edges.slice(0, 10),
      }));
      const directed = links.map(endsOf).filter((e) => e !== undefined);
      if (directed.length > 0) {
        merged.that(directed.some(([from, to]) => from === source.id && to === target.id), 'get_entity_graph: the SAME_AS edge runs from the merged source to the target', () => ({
          message: `get_entity_graph: the SAME_AS link runs from ${String(directed[0]![0])} to ${String(directed[0]![1])}, expected from the merged source ${source.id} to the target ${target.id}`,
          expected: { from: source.id, to: target.id },
          actual: directed,
        }));
      }
      if (directed.length === 0) ctx.note('the SAME_AS edge does not name its ends (source/target, from/to, …): its direction was not judged');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-063',
    group: 'resources',
    clauses: ['HOSTED-ENDPOINT-bulk_add_messages', 'HOSTED-ENDPOINT-add_message', READBACK],
    title: 'A bulk add beside single adds at once: every message is read back, once',
    asserts:
      'Adds one message to a new conversation, then sends at once, over the client\'s four connections, two bulk adds of 10 messages and 2 single adds to it. ' +
      'Each answers 2xx; GET /conversations/{id}/messages?limit=100 holds each of the 23 messages (role and content) exactly once, whatever order the service took the requests in.',
    async run(ctx) {
      const conv = await newConversation(ctx, 'HOSTED-ENDPOINT-create_conversation');
      const base = uid('at-once');
      const path = `/conversations/${seg(conv.id)}/messages`;
      const first = { role: 'user', content: `${base}: before` };
      check2xx(await ctx.call('POST', path, { body: first }), 'HOSTED-ENDPOINT-add_message');
      const bulks = [0, 1].map((b) => Array.from({ length: 10 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${base}: bulk ${b} entry ${i}` })));
      // As many requests as the hosted client keeps connections (4): none waits behind another on a socket the server may have closed meanwhile.
      const singles = Array.from({ length: 2 }, (_, i) => ({ role: 'user', content: `${base}: single ${i}` }));
      // The client's connections opened first (reads of the key set, at once), so the adds leave together.
      await Promise.all([...bulks, ...singles].map(() => ctx.fetch(DISCOVERY.jwks)));
      const answers = await Promise.all([
        ...bulks.map((messages) => ctx.call('POST', `${path}/bulk`, { body: { messages } }).then((a) => [a, 'HOSTED-ENDPOINT-bulk_add_messages'] as const)),
        ...singles.map((m) => ctx.call('POST', path, { body: m }).then((a) => [a, 'HOSTED-ENDPOINT-add_message'] as const)),
      ]);
      for (const [answer, rule] of answers) check2xx(answer, rule);
      // silent: the page size of get_conversation; the clients' limit asks for more than were written.
      const read = check2xx(await ctx.call('GET', `${path}?limit=100`), READBACK);
      const seen = messagesIn(read.json);
      for (const m of [first, ...bulks.flat(), ...singles]) {
        const n = seen.filter((x) => x.content === m.content && x.role === m.role).length;
        check.by(READBACK).that(n === 1, 'get_conversation after bulk and single adds at once reads back each message written (role and content) exactly once', () => ({
          message: `get_conversation (${read.request}) after two bulk adds and 2 single adds sent at once, all answered 2xx: the message {role: "${m.role}", content: ${JSON.stringify(m.content)}} is read back ${n} times, expected once (${seen.length} messages read)`,
          expected: m,
          actual: n,
        }));
      }
    },
  }),
];
