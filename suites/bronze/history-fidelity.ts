// Rules that only show after some history or with inputs built to expose truncation and
// case-folding (issue 12): a malformed request body gets the protocol's error answer; limit counts
// live messages only; a deleted message's id is never handed out again; session ids are compared
// exactly; long content comes back whole.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { ids } from '../support/by-id.js';
import { citing, type Cites } from '../support/cite.js';
import { addMessages } from '../support/messages.js';
import { expectRefusal } from '../support/refusals.js';

const tier = 'bronze';

/** Equal texts, or a failure (citing `cites`) saying how long each is and where they first differ (not the texts). */
export function sameText(actual: string, sent: string, what: string, cites?: Cites): void {
  let at = 0;
  while (at < actual.length && at < sent.length && actual[at] === sent[at]) at++;
  citing(cites).ok(actual === sent, `${what}: expected the ${sent.length} characters sent, got ${actual.length} characters (first difference at index ${at})`, {
    expected: `${sent.length} characters`,
    actual: `${actual.length} characters`,
  });
}

/** Over 64 KiB of UTF-8 (and over 64 Ki UTF-16 units), with multi-byte characters and a marked end. */
const LONG_CONTENT = `${'Lorem ipsum dolor sit amet — ünïcødé 数据 🙂 '.repeat(1_800)}THE END`;

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-136', tier, group: 'protocol', clauses: ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'],
    title: 'a malformed JSON request body, when refused, gets 400 or 500 with a JSON {"error"} body',
    asserts:
      'Posts add_message with a body that is not JSON (cut off mid-object) and one that is JSON text but not valid (a trailing comma); ' +
      'an answer refusing one must be 400 or 500 with a JSON object holding a non-empty string error (any other status or body fails). ' +
      'That both are refused (ADV-refuse-malformed-body) and that nothing is stored (ADV-failed-call-changes-nothing) are advisories.',
    async run(ctx) {
      let refused = 0;
      const bodies = ['{"session_id": "bad-json", "role": "user", "content": "hel', '{"session_id": "bad-json", "role": "user", "content": "hi",}'];
      for (const text of bodies) {
        const answer = await expectRefusal(ctx, 'add_message', {}, 'malformed JSON', { advise: 'ADV-refuse-malformed-body' }, { rawBody: text });
        if (answer.refused) refused++;
      }
      if (refused < bodies.length) return; // a body was read after all: what it stored is that call's doing
      const conv = await ctx.bridge.get_conversation({ session_id: 'bad-json' });
      check.advise('ADV-failed-call-changes-nothing').empty(conv.messages, 'get_conversation(session_id="bad-json") after two refused add_message bodies');
    },
  }),

  defineScenario({
    id: 'SCN-B-137', tier, group: 'get_conversation', clauses: ['SPEC-2.2.2', 'SPEC-2.5.2'],
    title: 'get_conversation(limit) counts only messages that were not deleted',
    asserts:
      'Adds eight messages, deletes the two newest, the oldest and one in the middle; get_conversation(limit=3) and (limit=4) ' +
      'must return 3 and 4 live messages, consecutive and chronological from either end of what is left; limit=10 returns all four.',
    async run({ bridge }) {
      const session_id = 'limit-after-delete';
      const sent = await addMessages(bridge, session_id, ['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7']);
      for (const i of [7, 6, 0, 3]) check.by('SPEC-2.5.1').equal(await bridge.delete_message({ message_id: sent[i]!.id }), { deleted: true }, `delete_message(message_id=<m${i}>)`);
      const live = ids([sent[1]!, sent[2]!, sent[4]!, sent[5]!]);
      const name = new Map(sent.map((m, i) => [m.id, `m${i}`]));
      const names = (list: readonly string[]) => show(list.map((id) => name.get(id) ?? id));
      for (const limit of [3, 4, 10]) {
        const got = ids((await bridge.get_conversation({ session_id, limit })).messages);
        const n = Math.min(limit, live.length);
        const call = `get_conversation(session_id="${session_id}", limit=${limit}) after deleting m7, m6, m0 and m3 of m0…m7`;
        check.by('SPEC-2.2.2').ok(
          got.length === n,
          `${call} (SPEC-2.2.2: limit counts the conversation's messages; deleted ones are not in it): expected ${n} of m1, m2, m4, m5, got ${got.length} message(s) ${names(got)}`,
          { expected: n, actual: got.length },
        );
        check.by('SPEC-2.5.2').every(got, (id) => live.includes(id), `${call}: only messages not deleted`, (id) => `${name.get(id) ?? id} was deleted (or was never in the session)`);
        // silent (limit-window): first N or last N; either way N live messages in order
        const first = live.slice(0, n);
        const last = live.slice(live.length - n);
        check.advise('ADV-limit-window').ok(
          JSON.stringify(got) === JSON.stringify(first) || JSON.stringify(got) === JSON.stringify(last),
          `${call}: expected the first or last ${n} of m1, m2, m4, m5 in chronological order, got ${names(got)}`,
          { expected: [first, last], actual: got },
        );
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-138', tier, group: 'delete_message', clauses: ['SPEC-2.5.9', 'SPEC-2.8.1'],
    title: 'a deleted message\'s id is never handed out again',
    asserts:
      'Adds a message, deletes it, adds three more; none may carry the deleted id, deleting the old id again answers false ' +
      'and the new messages are all still there.',
    async run({ bridge }) {
      const session_id = 'id-reuse';
      const [gone] = await addMessages(bridge, session_id, ['to be deleted']);
      check.by('SPEC-2.5.1').equal(await bridge.delete_message({ message_id: gone!.id }), { deleted: true }, 'delete_message(<the first message>)');
      const next = await addMessages(bridge, session_id, ['after one', 'after two', 'after three']);
      check.by('SPEC-2.8.1').every(next, (m) => m.id !== gone!.id, `add_message after delete_message(${gone!.id}) (SPEC-2.8.1: each add_message returns a message with a unique id): a new message reuses the deleted id`);
      check.by('SPEC-2.5.9').equal(
        await bridge.delete_message({ message_id: gone!.id }),
        { deleted: false },
        `delete_message(message_id=${gone!.id}) a second time, after three new messages (SPEC-2.5.9)`,
      );
      const conv = await bridge.get_conversation({ session_id });
      check.by('SPEC-2.2.1').equal(ids(conv.messages), ids(next), `get_conversation(session_id="${session_id}"): the three messages added after the delete`);
    },
  }),

  defineScenario({
    id: 'SCN-B-139', tier, group: 'get_conversation', clauses: ['SPEC-2.2.4', 'SPEC-1.1.3'],
    title: 'session ids that differ only in case are different sessions',
    asserts:
      'Adds one message to each of "Tck-Case", "tck-case" and "TCK-CASE"; each conversation holds only its own message and ' +
      'list_sessions lists all three with message_count 1.',
    async run({ bridge }) {
      const names = ['Tck-Case', 'tck-case', 'TCK-CASE'];
      const sent = [];
      for (const s of names) sent.push(...(await addMessages(bridge, s, [`only in ${s}`])));
      for (const [i, s] of names.entries()) {
        const conv = await bridge.get_conversation({ session_id: s });
        check.equal(
          conv.messages.map((m) => m.content),
          [`only in ${s}`],
          `get_conversation(session_id=${JSON.stringify(s)}) with ${names.map((n) => JSON.stringify(n)).join(', ')} each holding one message ` +
            `(SPEC-2.2.4: sessions are isolated; ids are compared exactly)`,
        );
        check.equal(conv.messages[0]?.id, sent[i]!.id, `get_conversation(session_id=${JSON.stringify(s)}): the id of its message`);
      }
      const listed = (await bridge.list_sessions({ limit: 100 })).filter((s) => names.includes(s.session_id));
      check.by('SPEC-2.4.1', 'SPEC-2.4.2').equal(
        listed.map((s) => [s.session_id, s.message_count]).sort(),
        names.map((s) => [s, 1]).sort(),
        'list_sessions(limit=100): the three case-variant sessions, one message each',
      );
    },
  }),

  defineScenario({
    id: 'SCN-B-140', tier, group: 'add_message', clauses: ['SPEC-2.1.8', 'SPEC-2.2.7'],
    title: 'content over 64 KiB comes back whole',
    asserts:
      `Adds a message of ${LONG_CONTENT.length} characters (${Buffer.byteLength(LONG_CONTENT)} bytes of UTF-8, with multi-byte characters); ` +
      'the add_message answer and get_conversation must carry it character for character.',
    async run({ bridge }) {
      const echo = await bridge.add_message({ session_id: 'long-content', role: 'user', content: LONG_CONTENT });
      sameText(echo.content, LONG_CONTENT, 'add_message(content=<over 64 KiB>) answer (SPEC-2.1.8: long content is preserved)', ['SPEC-2.1.8']);
      const conv = await bridge.get_conversation({ session_id: 'long-content' });
      check.by('SPEC-2.7.3').length(conv.messages, 1, 'get_conversation(session_id="long-content")');
      sameText(conv.messages[0]!.content, LONG_CONTENT, 'get_conversation(session_id="long-content") content (SPEC-2.2.7)', ['SPEC-2.2.7']);
    },
  }),

  defineScenario({
    id: 'SCN-B-141', tier, group: 'search_messages', clauses: ['SPEC-2.3.2'],
    title: 'search_messages filtered on a session that was never written to answers []',
    asserts: 'With a matching message in another session, search_messages filtered on a session never written to answers [] (not an error).',
    async run({ bridge }) {
      await addMessages(bridge, 'search-known', ['Graph databases store nodes and relationships']);
      const hits = await bridge.search_messages({ query: 'Graph databases', session_id: 'search-never-written', limit: 10, threshold: 0 });
      check.empty(hits, 'search_messages(query="Graph databases", session_id="search-never-written", limit=10, threshold=0) (SPEC-2.3.2: only that session\'s messages)');
    },
  }),

  // The coverage matrix (issue 34, docs/coverage.md): a key of each string class a storage engine
  // treats differently, and a search read again after a write.
  defineScenario({
    id: 'SCN-B-150', tier, group: 'get_conversation', clauses: ['SPEC-2.2.4', 'SPEC-1.1.3'],
    title: 'session ids with LIKE wildcards, a control character, edge spaces, non-Latin or astral characters and quotes are sessions of their own',
    asserts:
      'Adds one message to each of twelve sessions, in pairs a store that matches, filters or re-encodes keys would merge: "tck-a_c" and "tck-abc", ' +
      '"tck-100%" and "tck-100x" (SQL LIKE wildcards), "tck-ctl\\u0001" and "tck-ctl" (a control character), " tck-pad " and "tck-pad" (spaces at the ' +
      'edges), "сессия" and "другая" (Cyrillic of one length: a Latin-1 column makes both "??????"), "tck-🚀" and "tck-🛸" (astral) and "tck-q\'\\"\\\\" ' +
      'and "tck-q" (quotes, a backslash). Each conversation holds only its own message, and list_sessions lists every id as sent. Whether ids that ' +
      'differ only in Unicode normalisation are one session is left open (docs/coverage.md).',
    async run({ bridge }) {
      const names = ['tck-a_c', 'tck-abc', 'tck-100%', 'tck-100x', 'tck-ctl\u0001', 'tck-ctl', ' tck-pad ', 'tck-pad', 'сессия', 'другая', 'tck-🚀', 'tck-🛸', 'tck-q\'"\\', 'tck-q'];
      for (const s of names) await addMessages(bridge, s, [`only in ${s}`]);
      for (const s of names) {
        const conv = await bridge.get_conversation({ session_id: s });
        check.equal(
          conv.messages.map((m) => m.content),
          [`only in ${s}`],
          `get_conversation(session_id=${JSON.stringify(s)}) with ${names.length} sessions whose ids differ by a wildcard, a control character, ` +
            "edge spaces, non-Latin or astral characters or quotes (SPEC-2.2.4: only the requested session's messages; ids are compared as sent)",
        );
      }
      const listed = new Set((await bridge.list_sessions({ limit: 100 })).map((s) => s.session_id));
      check.by('SPEC-2.4.1').equal(
        names.filter((n) => !listed.has(n)),
        [],
        `list_sessions(limit=100) after one message in each of ${names.length} sessions: the ids not listed as sent`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-B-151', tier, group: 'search_messages', clauses: ['SPEC-2.3.1', 'SPEC-2.3.6'],
    title: 'a search made before a write finds what the write added (read, write, read)',
    asserts:
      'Searches session "search-rwr" for "quokka" (limit 10, threshold 0) on the empty store: [] (SPEC-2.3.6). Adds the message "the quokka smiles" ' +
      'and makes the same search again: the new message must be found (SPEC-2.3.1). A search cache a write does not invalidate answers [] again.',
    async run({ bridge }) {
      const params = { query: 'quokka', session_id: 'search-rwr', limit: 10, threshold: 0 };
      const call = 'search_messages(query="quokka", session_id="search-rwr", limit=10, threshold=0)';
      check.by('SPEC-2.3.6').empty(await bridge.search_messages(params), `${call} on the empty store`);
      const [added] = await addMessages(bridge, 'search-rwr', ['the quokka smiles']);
      const after = await bridge.search_messages(params);
      check.by('SPEC-2.3.1').that(after.some((m) => m.id === added!.id), `${call} after add_message finds the message added`, () => ({
        message: `${call} after add_message("the quokka smiles"), the same search having answered [] before (SPEC-2.3.1: a search finds the messages that match its query): expected the new message ${added!.id}, got ${after.length} result(s) ${show(ids(after))}`,
        expected: `a list holding ${added!.id}`,
        actual: show(ids(after)),
      }));
    },
  }),
];
