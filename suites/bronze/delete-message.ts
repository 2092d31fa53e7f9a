// delete_message (SPEC-2.5.x): {"deleted": true} once, {"deleted": false} after and for unknown
// ids; the message is gone and the others keep their order.
import { check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Message } from '../../src/protocols/bridge/model.js';
import { addMessages, deleteAndCheck, deleteMessage, expectConversation, UNKNOWN_ID } from '../support/messages.js';
import { expectCounts } from '../support/sessions.js';

const group = 'delete_message';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-070',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.1'],
    title: 'delete_message of a stored message answers deleted: true',
    asserts: 'Stores two messages and deletes one by the id add_message returned; the answer must be {"deleted": true}.',
    async run({ bridge }) {
      const [doomed] = await addMessages(bridge, 'delete-true', ['Delete me', 'Keep me']);
      await deleteMessage(bridge, doomed!.id, true, 'of a stored message');
    },
  }),

  defineScenario({
    id: 'SCN-B-071',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.2'],
    title: 'a deleted message is gone from the conversation and from search',
    asserts:
      'Stores "Keep me" and a second message, deletes the second; get_conversation must hold only the first, and a search for ' +
      'the deleted text must not return it.',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'delete-gone', ['Keep me', 'Delete me: a unique walrus sentence']);
      const [keep, doomed] = stored as [Message, Message];
      await deleteMessage(bridge, doomed.id, true, 'of a stored message');
      await expectConversation(bridge, 'delete-gone', [keep], 'after deleting the second of 2 messages');
      const found = await bridge.search_messages({ query: doomed.content, limit: 10, threshold: 0 });
      // A deleted message is deleted (SPEC-V3-delete_message): search returns the messages there are (SPEC-2.3.1).
      check.by('SPEC-V3-delete_message', 'SPEC-2.3.1').none(found, (m) => m.id === doomed.id, `search_messages(query=${JSON.stringify(doomed.content)}) after delete_message: the deleted message`);
    },
  }),

  defineScenario({
    id: 'SCN-B-072',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.3'],
    title: 'delete_message of an unknown id answers deleted: false and deletes nothing',
    asserts:
      'With two messages stored, deletes a well-formed UUID that was never handed out; the answer must be {"deleted": false} and ' +
      'both messages must remain.',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'delete-unknown', ['First', 'Second']);
      await deleteMessage(bridge, UNKNOWN_ID, false, 'of an id never handed out');
      await expectConversation(bridge, 'delete-unknown', stored, 'after deleting an unknown id', ['SPEC-V3-delete_message', 'SPEC-1.1.10']);
    },
  }),

  defineScenario({
    id: 'SCN-B-073',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.4'],
    title: 'deleting a message keeps the others in their order',
    asserts: 'Stores four messages and deletes the second; get_conversation must hold the first, third and fourth, in that order.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'delete-order', ['First', 'Second', 'Third', 'Fourth'], [1]);
    },
  }),

  defineScenario({
    id: 'SCN-B-074',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.5'],
    title: 'deleting the first message keeps the rest',
    asserts: 'Stores three messages and deletes the first; get_conversation must hold the second and third, in order.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'delete-first', ['First', 'Second', 'Third'], [0]);
    },
  }),

  defineScenario({
    id: 'SCN-B-075',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.6'],
    title: 'deleting the last message keeps the earlier ones',
    asserts: 'Stores three messages and deletes the third; get_conversation must hold the first and second, in order.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'delete-last', ['First', 'Second', 'Third'], [2]);
    },
  }),

  defineScenario({
    id: 'SCN-B-076',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.7'],
    title: 'deleting the middle message joins its neighbours',
    asserts: 'Stores three messages and deletes the second; get_conversation must hold the first and third, in order.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'delete-middle', ['First', 'Second', 'Third'], [1]);
    },
  }),

  defineScenario({
    id: 'SCN-B-077',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.8'],
    title: 'deleting every message one by one empties the session',
    asserts:
      'Stores three messages and deletes each (every answer {"deleted": true}); get_conversation must be empty, list_sessions ' +
      'must count 0 (or no longer list the session) and a search must not return them.',
    async run({ bridge }) {
      await deleteAndCheck(bridge, 'delete-all', ['One', 'Two', 'Three'], [0, 1, 2]);
      await expectCounts(bridge, { 'delete-all': 0 }, 'after deleting all 3 messages', ['SPEC-2.5.8', 'SPEC-2.4.7']);
      const found = await bridge.search_messages({ query: 'One', session_id: 'delete-all', limit: 10, threshold: 0 });
      check.empty(found, 'search_messages(query="One", session_id="delete-all") after deleting every message');
    },
  }),

  defineScenario({
    id: 'SCN-B-078',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.5.9'],
    title: 'deleting the same message twice answers true, then false',
    asserts: 'Deletes one stored message twice; the first answer must be {"deleted": true}, the second {"deleted": false}, and the other message stays.',
    async run({ bridge }) {
      const [doomed, kept] = await addMessages(bridge, 'delete-twice', ['Delete twice', 'Stay']);
      await deleteMessage(bridge, doomed!.id, true, 'the first time');
      await deleteMessage(bridge, doomed!.id, false, 'the second time', ['SPEC-2.5.9']);
      await expectConversation(bridge, 'delete-twice', [kept!], 'after deleting the first message twice', ['SPEC-1.1.10']);
    },
  }),
];
