// Writes are not deduplicated, clears are repeatable (SPEC-2.8.x).
import { check } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { addMessages, expectConversation } from '../support/messages.js';
import { expectCounts } from '../support/sessions.js';
import { ids } from '../support/by-id.js';
import { mustSucceed } from '../support/cite.js';

const group = 'idempotency';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-091',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.8.1'],
    title: 'every add_message returns a new id',
    asserts:
      'Stores the same content three times in one session and once in another; the four ids must be distinct UUIDs, and ' +
      'the session must read back with exactly the three ids returned.',
    async run({ bridge }) {
      const same = await addMessages(bridge, 'unique-ids', ['Same content', 'Same content', 'Same content']);
      const elsewhere = await addMessages(bridge, 'unique-ids-other', ['Same content']);
      const all = ids([...same, ...elsewhere]);
      for (const id of all) check.by('SPEC-2.1.14').uuid(id, 'add_message: id');
      check.distinct(all, 'add_message("Same content") ×4: ids');
      await expectConversation(bridge, 'unique-ids', same, 'after storing the same content three times', ['SPEC-2.8.1', 'SPEC-2.8.2']);
    },
  }),

  defineScenario({
    id: 'SCN-B-092',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.8.2'],
    title: 'identical content is stored as separate messages',
    asserts:
      'Stores "Duplicate" three times in one session; get_conversation must hold three messages with the three returned ids and ' +
      'list_sessions must count 3.',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'duplicates', ['Duplicate', 'Duplicate', 'Duplicate']);
      await expectConversation(bridge, 'duplicates', stored, 'after storing "Duplicate" three times');
      await expectCounts(bridge, { duplicates: 3 }, 'after storing "Duplicate" three times', ['SPEC-2.8.2', 'SPEC-2.4.2']);
    },
  }),

  defineScenario({
    id: 'SCN-B-093',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.8.3'],
    title: 'clear_session can be called repeatedly',
    asserts: 'Stores a message, then clears its session three times (each a success); the conversation must be empty afterwards.',
    async run({ bridge }) {
      await addMessages(bridge, 'clear-repeat', ['Data']);
      for (let i = 0; i < 3; i++) await mustSucceed(bridge.clear_session({ session_id: 'clear-repeat' }), `clear_session(session_id="clear-repeat"), call ${i + 1} of 3`, ['SPEC-2.8.3']);
      await expectConversation(bridge, 'clear-repeat', [], 'after three clear_session calls', ['SPEC-2.6.1']);
    },
  }),
];
