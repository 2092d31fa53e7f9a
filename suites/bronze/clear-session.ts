// clear_session (SPEC-2.6.x): empties that session only, is harmless on an unknown session, and
// leaves the session able to take new messages.
import { check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Message } from '../../src/protocols/bridge/model.js';
import { addMessages, expectConversation } from '../support/messages.js';
import { expectCounts } from '../support/sessions.js';
import { mustSucceed } from '../support/cite.js';

const group = 'clear_session';

/** One message per session, content `<session> message`; returns them by session. */
async function onePerSession(bridge: BridgeApi, sessions: readonly string[]): Promise<Map<string, Message>> {
  const out = new Map<string, Message>();
  for (const s of sessions) out.set(s, (await addMessages(bridge, s, [`${s} message`]))[0]!);
  return out;
}

/** After clear_session of `cleared`: it is empty, every other session holds exactly its message. */
async function expectOnlyCleared(bridge: BridgeApi, written: Map<string, Message>, cleared: string): Promise<void> {
  const after = `after clear_session(session_id="${cleared}")`;
  for (const [session, message] of written) {
    await expectConversation(bridge, session, session === cleared ? [] : [message], after);
  }
  const counts = Object.fromEntries([...written.keys()].map((s) => [s, s === cleared ? 0 : 1]));
  await expectCounts(bridge, counts, after, ['SPEC-2.6.5', 'SPEC-2.4.2']);
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-079',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.6.1'],
    title: 'clear_session removes every message of the session',
    asserts:
      'Stores three messages with mixed roles and clears the session; get_conversation must be empty and a search for one of ' +
      'the texts must not return any of them.',
    async run({ bridge }) {
      const stored = [
        await bridge.add_message({ session_id: 'clear-all', role: 'user', content: 'One kangaroo' }),
        await bridge.add_message({ session_id: 'clear-all', role: 'assistant', content: 'Two kangaroos' }),
        await bridge.add_message({ session_id: 'clear-all', role: 'user', content: 'Three kangaroos' }),
      ];
      await bridge.clear_session({ session_id: 'clear-all' });
      await expectConversation(bridge, 'clear-all', [], 'after clear_session');
      const found = await bridge.search_messages({ query: 'Two kangaroos', limit: 10, threshold: 0 });
      check.none(found, (m) => stored.some((s) => s.id === m.id), 'search_messages(query="Two kangaroos") after clear_session: a cleared message');
    },
  }),

  defineScenario({
    id: 'SCN-B-080',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.6.2'],
    title: 'clear_session leaves other sessions alone',
    asserts: 'Writes two sessions and clears the first; the first must be empty, the second must still hold its two messages in order.',
    async run({ bridge }) {
      await addMessages(bridge, 'clear-mine', ['Alpha', 'Alpha again']);
      const theirs = await addMessages(bridge, 'clear-theirs', ['Beta', 'Beta again']);
      await bridge.clear_session({ session_id: 'clear-mine' });
      await expectConversation(bridge, 'clear-mine', [], 'after clear_session(session_id="clear-mine")');
      await expectConversation(bridge, 'clear-theirs', theirs, 'after clear_session(session_id="clear-mine")');
      await expectCounts(bridge, { 'clear-mine': 0, 'clear-theirs': 2 }, 'after clear_session(session_id="clear-mine")', ['SPEC-2.6.2', 'SPEC-2.4.2']);
    },
  }),

  defineScenario({
    id: 'SCN-B-081',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.6.3'],
    title: 'clear_session of a session that never existed succeeds',
    asserts:
      'Clears a session id never written to (answer 204, not an error); its conversation must be empty and another session ' +
      'must keep its message.',
    async run({ bridge }) {
      const [other] = await addMessages(bridge, 'clear-unknown-other', ['Untouched']);
      await mustSucceed(bridge.clear_session({ session_id: 'clear-never-written' }), 'clear_session(session_id="clear-never-written") of a session never written to', ['SPEC-2.6.3']);
      await expectConversation(bridge, 'clear-never-written', [], 'after clear_session of a session never written to');
      await expectConversation(bridge, 'clear-unknown-other', [other!], 'after clear_session(session_id="clear-never-written")');
    },
  }),

  defineScenario({
    id: 'SCN-B-082',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.6.4'],
    title: 'a cleared session accepts new messages',
    asserts:
      'Stores a message, clears the session and stores another; get_conversation must hold exactly the new message and ' +
      'list_sessions must count 1.',
    async run({ bridge }) {
      await addMessages(bridge, 'clear-reuse', ['Before clear', 'Also before']);
      await bridge.clear_session({ session_id: 'clear-reuse' });
      const fresh = await addMessages(bridge, 'clear-reuse', ['After clear']);
      await expectConversation(bridge, 'clear-reuse', fresh, 'after clear_session and one new add_message');
      await expectCounts(bridge, { 'clear-reuse': 1 }, 'after clear_session and one new add_message', ['SPEC-2.6.4', 'SPEC-2.4.2']);
    },
  }),

  defineScenario({
    id: 'SCN-B-083',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.6.5'],
    title: 'clearing one of three sessions preserves the other two',
    asserts:
      'Writes one message to each of three sessions and clears the middle one; it must be empty, the other two must keep their ' +
      'message and list_sessions must count 1 for each of them.',
    async run({ bridge }) {
      const written = await onePerSession(bridge, ['clear-some-a', 'clear-some-b', 'clear-some-c']);
      await bridge.clear_session({ session_id: 'clear-some-b' });
      await expectOnlyCleared(bridge, written, 'clear-some-b');
    },
  }),
];
