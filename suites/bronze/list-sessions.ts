// list_sessions (SPEC-2.4.x): one entry per session, exact message counts, the limit, created_at.
// silent: the order of list_sessions, and which sessions a limit keeps.
import { check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Message } from '../../src/protocols/bridge/model.js';
import { addMessages, deleteMessage } from '../support/messages.js';
import { entryOf, expectCounts, listSessions } from '../support/sessions.js';

const group = 'list_sessions';
const sorted = (values: readonly string[]) => [...values].sort();

/** Adds `counts[session]` messages to each session, in order; returns them by session. */
async function fill(bridge: BridgeApi, counts: Record<string, number>): Promise<Record<string, Message[]>> {
  const out: Record<string, Message[]> = {};
  for (const [session, n] of Object.entries(counts)) {
    out[session] = await addMessages(bridge, session, Array.from({ length: n }, (_, i) => `${session} message ${i + 1}`));
  }
  return out;
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-062',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.1'],
    title: 'list_sessions lists every session with messages, once',
    asserts: 'Writes to three sessions; list_sessions must list exactly those three session ids, one entry each.',
    async run({ bridge }) {
      const counts = { 'sessions-all-a': 1, 'sessions-all-b': 2, 'sessions-all-c': 1 };
      await fill(bridge, counts);
      const list = await listSessions(bridge);
      // silent: the order of list_sessions
      check.equal(sorted(list.map((s) => s.session_id)), sorted(Object.keys(counts)), 'list_sessions(): the session ids written to');
    },
  }),

  defineScenario({
    id: 'SCN-B-063',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.2'],
    title: 'list_sessions reports the exact message count',
    asserts: 'Adds a user, an assistant and a user message to one session and one message to another; the counts must be exactly 3 and 1.',
    async run({ bridge }) {
      await bridge.add_message({ session_id: 'sessions-count-a', role: 'user', content: 'One' });
      await bridge.add_message({ session_id: 'sessions-count-a', role: 'assistant', content: 'Two' });
      await bridge.add_message({ session_id: 'sessions-count-a', role: 'user', content: 'Three' });
      await bridge.add_message({ session_id: 'sessions-count-b', role: 'system', content: 'Other' });
      await expectCounts(bridge, { 'sessions-count-a': 3, 'sessions-count-b': 1 }, 'after 3 and 1 messages');
    },
  }),

  defineScenario({
    id: 'SCN-B-064',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.3'],
    title: 'list_sessions on an empty store returns []',
    asserts: 'On the fresh store, and again after writing two sessions and calling clear_all_data, list_sessions must return [].',
    async run({ bridge }) {
      check.empty(await bridge.list_sessions({}), 'list_sessions() on an empty store');
      await fill(bridge, { 'sessions-empty-a': 2, 'sessions-empty-b': 1 });
      await bridge.clear_all_data();
      check.by('SPEC-2.4.3', 'SPEC-V3-clear_all_data').empty(await bridge.list_sessions({}), 'list_sessions() after clear_all_data');
    },
  }),

  defineScenario({
    id: 'SCN-B-065',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.4'],
    title: 'list_sessions with one session returns exactly one entry',
    asserts: 'Writes two messages to a single session; list_sessions must return exactly one entry, for that session, with message_count 2.',
    async run({ bridge }) {
      await fill(bridge, { 'sessions-solo': 2 });
      const list = await listSessions(bridge);
      check.length(list, 1, 'list_sessions() with one session');
      check.equal(list[0]!.session_id, 'sessions-solo', 'list_sessions(): session_id of the only entry');
      check.by('SPEC-2.4.2').equal(list[0]!.message_count, 2, 'list_sessions(): message_count of session "sessions-solo"');
    },
  }),

  defineScenario({
    id: 'SCN-B-066',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.5'],
    title: 'list_sessions returns exactly limit entries when more sessions exist',
    asserts:
      'Writes four sessions; list_sessions with limit 1, 2, 4 and 10 must return 1, 2, 4 and 4 distinct entries of those sessions.',
    async run({ bridge }) {
      const names = ['sessions-limit-a', 'sessions-limit-b', 'sessions-limit-c', 'sessions-limit-d'];
      await fill(bridge, Object.fromEntries(names.map((n) => [n, 1])));
      for (const limit of [1, 2, 4, 10]) {
        const list = await listSessions(bridge, limit);
        // Every session (SPEC-2.4.1), no more than limit (SPEC-2.4.5): min(limit, sessions).
        check.by('SPEC-2.4.5', 'SPEC-2.4.1').length(list, Math.min(limit, names.length), `list_sessions(limit=${limit}) with ${names.length} sessions`);
        // silent: which sessions a limit keeps
        check.by('SPEC-2.4.1').every(list, (s) => names.includes(s.session_id), `list_sessions(limit=${limit}): entries are sessions written to`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-067',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.6'],
    title: 'every list_sessions entry carries a created_at timestamp',
    asserts: 'Writes two sessions; each entry of list_sessions must have created_at as an ISO 8601 date-time.',
    async run({ bridge }) {
      await fill(bridge, { 'sessions-created-a': 1, 'sessions-created-b': 2 });
      const list = await listSessions(bridge);
      for (const session of ['sessions-created-a', 'sessions-created-b']) {
        const entry = entryOf(list, session, 'after writing it');
        check.timestamp(entry.created_at, `list_sessions(): created_at of session "${session}"`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-068',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.7'],
    title: 'list_sessions message counts follow deletions',
    asserts:
      'Writes three messages to a session (and one to another), then deletes them one at a time; after each deletion the count ' +
      'must drop by exactly one while the other session keeps 1.',
    async run({ bridge }) {
      const { 'sessions-delete': mine = [] } = await fill(bridge, { 'sessions-delete': 3, 'sessions-delete-other': 1 });
      for (const [i, message] of mine.entries()) {
        await deleteMessage(bridge, message.id, true, 'of a stored message');
        const left = mine.length - i - 1;
        await expectCounts(bridge, { 'sessions-delete': left, 'sessions-delete-other': 1 }, `after deleting ${i + 1} of 3 messages`, ['SPEC-2.4.7']);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-069',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.4.8'],
    title: 'list_sessions counts each session separately',
    asserts: 'Writes 2, 1 and 3 messages to three sessions; list_sessions must report exactly 2, 1 and 3.',
    async run({ bridge }) {
      const counts = { 'sessions-counts-a': 2, 'sessions-counts-b': 1, 'sessions-counts-c': 3 };
      await fill(bridge, counts);
      await expectCounts(bridge, counts, 'after writing 2, 1 and 3 messages', ['SPEC-2.4.8']);
    },
  }),
];
