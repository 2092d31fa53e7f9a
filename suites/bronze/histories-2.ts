// The coverage matrix (issue 34, docs/coverage.md): reads made again, with the very same arguments
// (limit included), after a write that changes their answer — a cache keyed by the request shows
// only this way — and session ids that differ only in case, for the writes and filters that take one.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { ids } from '../support/by-id.js';
import { addMessages } from '../support/messages.js';

const tier = 'bronze';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-160', tier, group: 'get_conversation', clauses: ['SPEC-2.5.2', 'SPEC-1.1.2', 'SPEC-2.6.1'],
    title: 'get_conversation(session, limit) read again after delete_message, add_message and clear_session shows each write',
    asserts:
      'Adds m0, m1, m2 to "rwr-conversation" and reads get_conversation(limit=10); deletes m1 and makes the same read: m0, m2 (SPEC-2.5.2); adds m3 and ' +
      'makes it again: m0, m2, m3 (SPEC-1.1.2); clears the session and makes it again: no message (SPEC-2.6.1). A conversation cache keyed by the request ' +
      'answers the first answer every time.',
    async run({ bridge }) {
      const session_id = 'rwr-conversation';
      const params = { session_id, limit: 10 };
      const call = `get_conversation(session_id="${session_id}", limit=10)`;
      const sent = await addMessages(bridge, session_id, ['m0', 'm1', 'm2']);
      const contents = async () => (await bridge.get_conversation(params)).messages.map((m) => m.content);
      let before = await contents();
      const step = (cite: string, write: string, got: string[], expected: string[], rule: string) => {
        check.by(cite).that(JSON.stringify(got) === JSON.stringify(expected), `${call} read again after ${write.replace(/\(.*\)/, '')} shows it`, () => ({
          message: `${call} after ${write}, the same read having answered ${before.join(', ') || 'no message'} before (${cite}: ${rule}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
          expected,
          actual: got,
        }));
        before = got;
      };
      await bridge.delete_message({ message_id: sent[1]!.id });
      step('SPEC-2.5.2', 'delete_message(<m1>)', await contents(), ['m0', 'm2'], 'a deleted message is gone from get_conversation');
      await addMessages(bridge, session_id, ['m3']);
      step('SPEC-1.1.2', 'add_message("m3")', await contents(), ['m0', 'm2', 'm3'], "later messages join the session's conversation");
      await bridge.clear_session({ session_id });
      step('SPEC-2.6.1', `clear_session("${session_id}")`, await contents(), [], "clear_session removes all of the session's messages");
    },
  }),

  defineScenario({
    id: 'SCN-B-161', tier, group: 'list_sessions', clauses: ['SPEC-2.4.1', 'SPEC-2.4.2', 'SPEC-2.6.1'],
    title: 'list_sessions(limit) read again after add_message and clear_session shows each write',
    asserts:
      'Adds a message to "rwr-sessions-a" and reads list_sessions(limit=100); adds one to the new session "rwr-sessions-b" and makes the same read: b is ' +
      'listed (SPEC-2.4.1); adds a second to a: a counts 2 (SPEC-2.4.2); clears a: a is not listed or counts 0 (SPEC-2.6.1; which of the two is ' +
      'silent point empty-session-listing). A list cache keyed by the request answers the first list every time.',
    async run({ bridge }) {
      const [a, b] = ['rwr-sessions-a', 'rwr-sessions-b'];
      const call = 'list_sessions(limit=100)';
      const read = async () => new Map((await bridge.list_sessions({ limit: 100 })).map((s) => [s.session_id, s.message_count]));
      await addMessages(bridge, a, ['first of a']);
      await read();
      await addMessages(bridge, b, ['first of b']);
      const afterB = await read();
      check.by('SPEC-2.4.1').that(afterB.has(b), `${call} read again after add_message to a new session lists it`, () => ({
        message: `${call} after add_message to the new session "${b}", the same list having been read before (SPEC-2.4.1: every active session is listed): "${b}" is not listed; got ${show([...afterB.keys()])}`,
        expected: `a list holding ${b}`,
        actual: [...afterB.keys()],
      }));
      await addMessages(bridge, a, ['second of a']);
      const afterA = await read();
      check.by('SPEC-2.4.2').that(afterA.get(a) === 2, `${call} read again after a second add_message counts it`, () => ({
        message: `${call} after a second add_message to "${a}", the same list having counted 1 before (SPEC-2.4.2: each session is listed with the right message count): expected message_count 2, got ${afterA.get(a)}`,
        expected: 2,
        actual: afterA.get(a),
      }));
      await bridge.clear_session({ session_id: a });
      const afterClear = await read();
      // silent (empty-session-listing): a cleared session is listed with 0 messages or not listed.
      check.by('SPEC-2.6.1').that(!afterClear.has(a) || afterClear.get(a) === 0, `${call} read again after clear_session shows the session empty or gone`, () => ({
        message: `${call} after clear_session("${a}"), the same list having counted 2 before (SPEC-2.6.1: clear_session removes all of the session's messages): expected "${a}" not listed or with message_count 0, got message_count ${afterClear.get(a)}`,
        expected: 'not listed, or 0',
        actual: afterClear.get(a),
      }));
    },
  }),

  defineScenario({
    id: 'SCN-B-162', tier, group: 'search_messages', clauses: ['SPEC-2.3.1', 'SPEC-1.1.4', 'SPEC-2.6.1'],
    title: 'search_messages(query, session, limit) made again after delete_message and clear_session shows each write',
    asserts:
      'Adds "the wombat digs" and "the wombat sleeps" to "rwr-search" and searches it for "wombat" (limit 10, threshold 0): both are found (SPEC-2.3.1). ' +
      'Deletes the first and makes the same search: it is not found (SPEC-1.1.4); clears the session and makes it again: [] (SPEC-2.6.1). A search ' +
      'cache keyed by the request answers the first answer every time.',
    async run({ bridge }) {
      const session_id = 'rwr-search';
      const params = { query: 'wombat', session_id, limit: 10, threshold: 0 };
      const call = `search_messages(query="wombat", session_id="${session_id}", limit=10, threshold=0)`;
      const [digs, sleeps] = await addMessages(bridge, session_id, ['the wombat digs', 'the wombat sleeps']);
      const first = ids(await bridge.search_messages(params));
      check.by('SPEC-2.3.1').that(first.includes(digs!.id) && first.includes(sleeps!.id), `${call} finds both messages holding the word`, () => ({
        message: `${call} with "the wombat digs" and "the wombat sleeps" in the session (SPEC-2.3.1: a search finds the messages that match its query): expected both, got ${show(first)}`,
        expected: [digs!.id, sleeps!.id],
        actual: first,
      }));
      await bridge.delete_message({ message_id: digs!.id });
      const afterDelete = ids(await bridge.search_messages(params));
      check.by('SPEC-1.1.4').that(!afterDelete.includes(digs!.id), `${call} made again after delete_message no longer finds the deleted message`, () => ({
        message: `${call} after delete_message(<"the wombat digs">), the same search having found it before (SPEC-1.1.4: a message once deleted is gone): the deleted message ${digs!.id} is still found`,
        expected: `no ${digs!.id}`,
        actual: afterDelete,
      }));
      await bridge.clear_session({ session_id });
      const afterClear = ids(await bridge.search_messages(params));
      check.by('SPEC-2.6.1').that(afterClear.length === 0, `${call} made again after clear_session finds nothing`, () => ({
        message: `${call} after clear_session("${session_id}"), the same search having found ${afterDelete.length} message(s) before (SPEC-2.6.1: clear_session removes all of the session's messages): expected [], got ${show(afterClear)}`,
        expected: [],
        actual: afterClear,
      }));
    },
  }),

  defineScenario({
    id: 'SCN-B-163', tier, group: 'clear_session', clauses: ['SPEC-2.6.2', 'SPEC-2.3.2', 'SPEC-2.6.1'],
    title: 'clear_session and a search filtered on a session leave alone the sessions whose ids differ only in case or by a trailing space',
    asserts:
      'Adds one message to each of "Case-Clear", "case-clear", "CASE-CLEAR" and "case-clear "; clear_session("case-clear") empties that session (SPEC-2.6.1) ' +
      'and leaves each of the three others its message (SPEC-2.6.2). With "heron in …" in "Case-Search", "case-search" and "CASE-SEARCH", ' +
      'search_messages("heron", session_id="Case-Search") finds only the message of "Case-Search" (SPEC-2.3.2). Session ids are compared as sent ' +
      '(SCN-B-139 for get_conversation and list_sessions).',
    async run({ bridge }) {
      const names = ['Case-Clear', 'case-clear', 'CASE-CLEAR', 'case-clear '];
      for (const s of names) await addMessages(bridge, s, [`only in ${s}`]);
      await bridge.clear_session({ session_id: 'case-clear' });
      for (const s of names) {
        const got = (await bridge.get_conversation({ session_id: s, limit: 10 })).messages.map((m) => m.content);
        const expected = s === 'case-clear' ? [] : [`only in ${s}`];
        const cite = s === 'case-clear' ? 'SPEC-2.6.1' : 'SPEC-2.6.2';
        const rule = s === 'case-clear' ? "clear_session removes all of the session's messages" : 'clear_session leaves other sessions untouched; ids are compared as sent';
        check.by(cite).that(JSON.stringify(got) === JSON.stringify(expected), `get_conversation after clear_session of a session whose id differs in case: ${s === 'case-clear' ? 'the cleared one' : 'another'}`, () => ({
          message: `get_conversation(session_id=${JSON.stringify(s)}) after clear_session(session_id="case-clear"), with ${names.map((n) => JSON.stringify(n)).join(', ')} holding one message each (${cite}: ${rule}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`,
          expected,
          actual: got,
        }));
      }
      const searched = ['Case-Search', 'case-search', 'CASE-SEARCH'];
      const sent: { id: string }[] = [];
      for (const s of searched) sent.push(...(await addMessages(bridge, s, [`heron in ${s}`])));
      const hits = await bridge.search_messages({ query: 'heron', session_id: 'Case-Search', limit: 10, threshold: 0 });
      const strangers = hits.filter((m) => m.id !== sent[0]!.id).map((m) => m.content);
      check.by('SPEC-2.3.2').that(strangers.length === 0, 'search_messages filtered on a session finds no message of a session whose id differs in case', () => ({
        message: `search_messages(query="heron", session_id="Case-Search", limit=10, threshold=0) with "case-search" and "CASE-SEARCH" holding a message each (SPEC-2.3.2: with session_id, only that session is searched; ids are compared as sent): messages of another session: ${JSON.stringify(strangers)}`,
        expected: [`heron in Case-Search`],
        actual: hits.map((m) => m.content),
      }));
    },
  }),

  // Values a storage engine changes: a NUL (C strings end there; PostgreSQL text refuses it) and C1 controls (filters that strip them).
  defineScenario({
    id: 'SCN-B-164', tier, group: 'add_message', clauses: ['SPEC-1.1.13', 'SPEC-2.2.7'],
    title: 'content holding a NUL character and C1 controls comes back exactly',
    asserts:
      'Adds "before\\u0000after \\u0085next-line \\u009fapc \\u0080 end" (a NUL, then C1 controls) to session "values-nul"; the add_message answer ' +
      '(SPEC-1.1.13: a message keeps the content it was added with) and get_conversation (SPEC-2.2.7: special characters read back unchanged) carry it ' +
      'character for character. A store that ends strings at NUL, or strips control characters, changes it.',
    async run({ bridge }) {
      const content = 'before\u0000after \u0085next-line \u009fapc \u0080 end';
      const echo = await bridge.add_message({ session_id: 'values-nul', role: 'user', content });
      const shown = (x: string) => JSON.stringify(x);
      check.by('SPEC-1.1.13').that(echo.content === content, 'add_message answers content with a NUL and C1 controls exactly', () => ({
        message: `add_message(session_id="values-nul", content=${shown(content)}) answer (SPEC-1.1.13: a message keeps the content it was added with): expected ${shown(content)}, got ${shown(echo.content)}`,
        expected: content,
        actual: echo.content,
      }));
      const got = (await bridge.get_conversation({ session_id: 'values-nul', limit: 10 })).messages.map((m) => m.content);
      check.by('SPEC-2.2.7').that(got.length === 1 && got[0] === content, 'get_conversation reads back content with a NUL and C1 controls exactly', () => ({
        message: `get_conversation(session_id="values-nul", limit=10) after add_message(content=${shown(content)}) (SPEC-2.2.7: special characters in content read back unchanged): expected [${shown(content)}], got ${JSON.stringify(got)}`,
        expected: [content],
        actual: got,
      }));
    },
  }),
];
