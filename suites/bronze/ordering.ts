// Message order (SPEC-2.7.x): a conversation lists its messages in insertion order, whatever
// their number, roles and deletions, with timestamps that never go back.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import type { Role } from '../../src/protocols/bridge/model.js';
import { addMessages, addTurns, deleteAndCheck, expectConversation } from '../support/messages.js';
import { compareInstants } from '../support/time.js';

const group = 'ordering';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-084',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.1'],
    title: 'messages come back in insertion order',
    asserts: 'Stores five messages; get_conversation must return exactly their ids and contents in the order sent.',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'order-five', ['First', 'Second', 'Third', 'Fourth', 'Fifth']);
      await expectConversation(bridge, 'order-five', stored, 'after 5 add_message calls');
    },
  }),

  defineScenario({
    id: 'SCN-B-085',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.2'],
    title: 'message timestamps never decrease',
    asserts:
      'Stores ten messages in quick succession; in get_conversation every timestamp must be the same instant as or later than ' +
      'the one before (compared as instants: any zone designator and precision).',
    async run({ bridge }) {
      await addMessages(bridge, 'order-time', Array.from({ length: 10 }, (_, i) => `Tick ${i}`));
      const conv = await bridge.get_conversation({ session_id: 'order-time' });
      conv.messages.forEach((m, i) => {
        const prev = conv.messages[i - 1];
        if (prev === undefined) return;
        // silent: Z or +00:00 (or any offset), and the precision; equal instants are allowed
        check.ok(
          compareInstants(prev.timestamp, m.timestamp) <= 0,
          `get_conversation(session_id="order-time"): timestamp of message ${i} (${show(m.timestamp)}) is earlier than that of message ${i - 1} (${show(prev.timestamp)}); timestamps must be non-decreasing`,
          { expected: `>= ${prev.timestamp}`, actual: m.timestamp },
        );
      });
    },
  }),

  defineScenario({
    id: 'SCN-B-086',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.3'],
    title: 'a session with a single message returns it',
    asserts: 'Stores one message; get_conversation must return exactly that message (id, role, content).',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'order-solo', ['Solo'], 'assistant');
      await expectConversation(bridge, 'order-solo', stored, 'after 1 add_message');
    },
  }),

  defineScenario({
    id: 'SCN-B-087',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.4'],
    title: 'two messages come back in order',
    asserts: 'Stores a user then an assistant message; get_conversation must return them in that order.',
    async run({ bridge }) {
      const stored = await addTurns(bridge, 'order-two', [['user', 'First'], ['assistant', 'Second']]);
      await expectConversation(bridge, 'order-two', stored, 'after 2 add_message calls');
    },
  }),

  defineScenario({
    id: 'SCN-B-088',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.5'],
    title: 'the order survives deleting a middle message',
    asserts: 'Stores A, B, C, D, E and deletes C; get_conversation must return A, B, D, E in that order.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'order-chain', ['A', 'B', 'C', 'D', 'E'], [2]);
    },
  }),

  defineScenario({
    id: 'SCN-B-089',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.6'],
    title: 'one hundred messages come back complete and in order',
    asserts: 'Stores Msg-0000 … Msg-0099; get_conversation (no limit) must return all 100, ids and contents in the order sent.',
    async run({ bridge }) {
      const contents = Array.from({ length: 100 }, (_, i) => `Msg-${String(i).padStart(4, '0')}`);
      const stored = await addMessages(bridge, 'order-hundred', contents);
      await expectConversation(bridge, 'order-hundred', stored, 'after 100 add_message calls');
    },
  }),

  defineScenario({
    id: 'SCN-B-090',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.7.7'],
    title: 'messages of mixed roles keep their order',
    asserts: 'Stores system, user, assistant, user, assistant turns; get_conversation must return the same roles and contents in the same order.',
    async run({ bridge }) {
      const turns: [Role, string][] = [
        ['system', 'You are helpful'],
        ['user', 'Hello'],
        ['assistant', 'Hi there'],
        ['user', 'How are you?'],
        ['assistant', "I'm doing well"],
      ];
      const stored = await addTurns(bridge, 'order-roles', turns);
      await expectConversation(bridge, 'order-roles', stored, 'after a system, user, assistant, user, assistant sequence');
    },
  }),
];
