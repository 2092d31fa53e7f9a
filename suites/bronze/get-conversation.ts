// Bronze, get_conversation (SPEC-2.2.x): order, limit, isolation and fidelity of what is read back
// (SCN-B-043 … SCN-B-054, plus our SCN-B-102).
import { isDeepStrictEqual } from 'node:util';
import { check, show } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Message } from '../../src/protocols/bridge/model.js';
import { LONG_CONTENT, NESTED_METADATA, SPECIAL_CONTENT, UNICODE_CONTENT } from '../../fixtures/data.js';
import { addAll, checkOfSession, checkSameMessage, checkSequence, labels, labelsOf, nMessages, type Draft } from '../support/messages.js';

const group = 'get_conversation';

/** Five messages of a short exchange, alternating roles; their contents do not sort in insertion order. */
const EXCHANGE: Draft[] = [
  { role: 'user', content: 'Hi, I need help planning a trip' },
  { role: 'assistant', content: 'Sure, where would you like to go?' },
  { role: 'user', content: 'Japan, in the spring' },
  { role: 'assistant', content: 'Cherry blossom season is a great time' },
  { role: 'user', content: 'Book me a hotel in Kyoto' },
];

/** Whether `part` is `whole` with some items left out, the rest in the same order. */
function inOrder(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const x of part) {
    at = whole.indexOf(x, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/**
 * get_conversation(session_id, limit) returns exactly `limit` messages of `m` (the session's
 * messages, in the order sent), the scenario's clause: messages of that session only (SPEC-2.2.4),
 * in the order added (SPEC-2.2.1). That they are the first `limit` or the last `limit` is the kit's
 * reading of what limit keeps (ADV-limit-window): no sentence says which messages a limit keeps.
 */
function checkLimitWindow(got: readonly string[], all: readonly string[], n: number, call: string, ofSession: string): void {
  check.by('SPEC-2.2.4').every(got, (l) => all.includes(l), `${call}: messages of session "${ofSession}" only, got ${show(got)}`, (l) => `${l} is not a message of that session`);
  check.by('SPEC-2.2.1').ok(inOrder(got, all), `${call}: messages in the order they were added (${show(all)}), got ${show(got)}`, { expected: all, actual: got });
  const first = all.slice(0, n);
  const last = all.slice(all.length - n);
  // silent (limit-window): which messages limit keeps (first N or last N); any run of one end, oldest first
  check.advise('ADV-limit-window').ok(
    isDeepStrictEqual(got, first) || isDeepStrictEqual(got, last),
    `${call}: expected the first ${n} ${show(first)} or the last ${n} ${show(last)} of the session in chronological order, got ${show(got)}`,
    { expected: [first, last], actual: got },
  );
}

async function checkLimit(bridge: BridgeApi, session_id: string, limit: number, sent: Record<string, readonly Message[]>, name: string): Promise<void> {
  const call = `get_conversation(session_id="${session_id}", limit=${limit})`;
  const conv = await bridge.get_conversation({ session_id, limit });
  const all = labelsOf(name, sent[name]!);
  const n = Math.min(limit, all.length);
  check.ok(conv.messages.length === n, `${call} on ${nMessages(all.length)}: expected ${nMessages(n)}, got ${conv.messages.length}`, { expected: n, actual: conv.messages.length });
  checkLimitWindow(labels(conv.messages, sent), all, n, call, session_id);
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-043', tier: 'bronze', group, clauses: ['SPEC-2.2.1'],
    title: 'get_conversation returns messages in insertion order',
    asserts: 'Adds five messages with alternating roles; get_conversation returns exactly those ids in the order sent.',
    async run({ bridge }) {
      const m = await addAll(bridge, 'tck-b043', EXCHANGE);
      const conv = await bridge.get_conversation({ session_id: 'tck-b043' });
      checkSequence(conv.messages, { m }, labelsOf('m', m), 'get_conversation(session_id="tck-b043"): messages in insertion order');
    },
  }),

  defineScenario({
    id: 'SCN-B-044', tier: 'bronze', group, clauses: ['SPEC-2.2.2'],
    title: 'get_conversation honours limit',
    asserts: 'Adds five messages to a session and three to another; get_conversation(limit=2) returns exactly two messages of the session, oldest first (the first two or the last two: advisory ADV-limit-window).',
    async run({ bridge }) {
      const m = await addAll(bridge, 'tck-b044', EXCHANGE);
      const x = await addAll(bridge, 'tck-b044-other', ['Decoy one', 'Decoy two', 'Decoy three']);
      await checkLimit(bridge, 'tck-b044', 2, { m, x }, 'm');
    },
  }),

  defineScenario({
    id: 'SCN-B-045', tier: 'bronze', group, clauses: ['SPEC-2.2.3'],
    title: 'get_conversation of an unknown session is an empty conversation',
    asserts: 'With another session holding a message, reads a session that never had one; the answer is a valid Conversation (not null, not an error) of that session_id with messages [].',
    async run({ bridge }) {
      await addAll(bridge, 'tck-b045-other', ['Somebody else']);
      const conv = await bridge.get_conversation({ session_id: 'tck-b045-nonexistent' });
      // silent: the id and created_at of a conversation that has no messages (any valid values).
      check.by('BRIDGE-METHOD-get_conversation').equal(conv.session_id, 'tck-b045-nonexistent', 'get_conversation(session_id="tck-b045-nonexistent"): session_id');
      checkOfSession(bridge, conv.messages, 'tck-b045-nonexistent', 'get_conversation(session_id="tck-b045-nonexistent") of a session without messages: messages');
      check.empty(conv.messages, 'get_conversation(session_id="tck-b045-nonexistent") of a session without messages: messages');
    },
  }),

  defineScenario({
    id: 'SCN-B-046', tier: 'bronze', group, clauses: ['SPEC-2.2.4'],
    title: 'get_conversation returns only the messages of the session named',
    asserts: 'Interleaves messages of sessions "tck-b046-s1" and "tck-b046-s10" (one id a prefix of the other); each conversation holds exactly its own messages, in order.',
    async run({ bridge }) {
      const a = await addAll(bridge, 'tck-b046-s1', ['Alpha message 1']);
      const b = await addAll(bridge, 'tck-b046-s10', ['Beta message 1']);
      a.push(...(await addAll(bridge, 'tck-b046-s1', ['Alpha message 2'])));
      const convA = await bridge.get_conversation({ session_id: 'tck-b046-s1' });
      const convB = await bridge.get_conversation({ session_id: 'tck-b046-s10' });
      checkSequence(convA.messages, { a, b }, ['a1', 'a2'], 'get_conversation(session_id="tck-b046-s1"): only its own messages');
      checkSequence(convB.messages, { a, b }, ['b1'], 'get_conversation(session_id="tck-b046-s10"): only its own messages');
    },
  }),

  defineScenario({
    id: 'SCN-B-047', tier: 'bronze', group, clauses: ['SPEC-2.2.5'],
    title: 'get_conversation with a limit above the count returns every message',
    asserts: 'Adds three messages (and five to another session); get_conversation(limit=100) returns all three, in order.',
    async run({ bridge }) {
      const m = await addAll(bridge, 'tck-b047', ['Only one', 'Only two', 'Only three']);
      const x = await addAll(bridge, 'tck-b047-other', ['d1', 'd2', 'd3', 'd4', 'd5']);
      const conv = await bridge.get_conversation({ session_id: 'tck-b047', limit: 100 });
      checkSequence(conv.messages, { m, x }, ['m1', 'm2', 'm3'], 'get_conversation(session_id="tck-b047", limit=100) on 3 messages: all of them, in order');
    },
  }),

  defineScenario({
    id: 'SCN-B-048', tier: 'bronze', group, clauses: ['SPEC-2.2.6'],
    title: 'get_conversation with limit=1 returns exactly one message',
    asserts: 'Adds five messages; get_conversation(limit=1) returns exactly one message of the session (the first or the last: advisory ADV-limit-window).',
    async run({ bridge }) {
      const m = await addAll(bridge, 'tck-b048', EXCHANGE);
      await checkLimit(bridge, 'tck-b048', 1, { m }, 'm');
    },
  }),

  defineScenario({
    id: 'SCN-B-049', tier: 'bronze', group, clauses: ['SPEC-2.2.7'],
    title: 'get_conversation reads content back unchanged',
    asserts: 'Adds UNICODE_CONTENT, SPECIAL_CONTENT (control characters included), LONG_CONTENT and an empty string; get_conversation returns each content exactly, in order.',
    async run({ bridge }) {
      const contents = [UNICODE_CONTENT, SPECIAL_CONTENT, LONG_CONTENT, ''];
      const names = ['UNICODE_CONTENT', 'SPECIAL_CONTENT', 'LONG_CONTENT', 'empty content'];
      const m = await addAll(bridge, 'tck-b049', contents);
      const conv = await bridge.get_conversation({ session_id: 'tck-b049' });
      checkSequence(conv.messages, { m }, labelsOf('m', m), 'get_conversation(session_id="tck-b049"): messages', ['SPEC-2.2.1']);
      conv.messages.forEach((got, i) => checkSameMessage(got, m[i]!, `get_conversation(session_id="tck-b049"): message with ${names[i]}`));
    },
  }),

  defineScenario({
    id: 'SCN-B-050', tier: 'bronze', group, clauses: ['SPEC-2.2.8'],
    title: 'get_conversation reads metadata back unchanged',
    asserts: 'Adds messages with NESTED_METADATA, with flat metadata and with none; get_conversation returns exactly NESTED_METADATA, the flat object and {}.',
    async run({ bridge }) {
      const metas = [NESTED_METADATA, { key: 'value', num: 99 }, undefined];
      const m = await addAll(bridge, 'tck-b050', metas.map((metadata, i) => ({ role: 'user', content: `With meta ${i}`, ...(metadata ? { metadata } : {}) })));
      const conv = await bridge.get_conversation({ session_id: 'tck-b050' });
      checkSequence(conv.messages, { m }, labelsOf('m', m), 'get_conversation(session_id="tck-b050"): messages', ['SPEC-2.2.1']);
      const sent = ['NESTED_METADATA', '{key, num}', 'no metadata'];
      conv.messages.forEach((got, i) => checkSameMessage(got, { ...m[i]!, metadata: metas[i] ?? {} }, `get_conversation(session_id="tck-b050"): message with ${sent[i]}`));
    },
  }),

  defineScenario({
    id: 'SCN-B-051', tier: 'bronze', group, clauses: ['SPEC-2.2.9'],
    title: 'get_conversation reads roles back unchanged',
    asserts: 'Adds system, user, assistant and user messages; get_conversation returns them with exactly those roles, in order.',
    async run({ bridge }) {
      const roles = ['system', 'user', 'assistant', 'user'] as const;
      const m = await addAll(bridge, 'tck-b051', roles.map((role) => ({ role, content: `A ${role} message` })));
      const conv = await bridge.get_conversation({ session_id: 'tck-b051' });
      checkSequence(conv.messages, { m }, labelsOf('m', m), 'get_conversation(session_id="tck-b051"): messages', ['SPEC-2.2.1']);
      check.equal(conv.messages.map((x) => x.role), [...roles], 'get_conversation(session_id="tck-b051"): roles in order');
    },
  }),

  defineScenario({
    id: 'SCN-B-052', tier: 'bronze', group, clauses: ['SPEC-2.2.10'],
    title: 'get_conversation keeps the order of 25 messages',
    asserts: 'Adds 25 messages; get_conversation without limit returns all 25 ids and contents in the order sent.',
    async run({ bridge }) {
      const contents = Array.from({ length: 25 }, (_, i) => `Message ${String(i).padStart(3, '0')}`);
      const m = await addAll(bridge, 'tck-b052', contents);
      const conv = await bridge.get_conversation({ session_id: 'tck-b052' });
      checkSequence(conv.messages, { m }, labelsOf('m', m), 'get_conversation(session_id="tck-b052") after 25 add_message: all messages in the order sent');
      check.equal(conv.messages.map((x) => x.content), contents, 'get_conversation(session_id="tck-b052"): contents in the order sent');
    },
  }),

  defineScenario({
    id: 'SCN-B-053', tier: 'bronze', group, clauses: ['SPEC-2.2.11'],
    title: 'get_conversation answers a UUID conversation id, with or without limit',
    asserts: 'Adds two messages; get_conversation with and without limit=1 answers a UUID id, the same in both.',
    async run({ bridge }) {
      await addAll(bridge, 'tck-b053', ['Hello', 'World']);
      const whole = await bridge.get_conversation({ session_id: 'tck-b053' });
      const limited = await bridge.get_conversation({ session_id: 'tck-b053', limit: 1 });
      // silent: UUID version.
      check.uuid(whole.id, 'get_conversation(session_id="tck-b053"): conversation id');
      check.uuid(limited.id, 'get_conversation(session_id="tck-b053", limit=1): conversation id');
      check.by('SPEC-1.1.8').equal(limited.id, whole.id, 'get_conversation(session_id="tck-b053", limit=1): conversation id (same as without limit)');
    },
  }),

  defineScenario({
    id: 'SCN-B-054', tier: 'bronze', group, clauses: ['SPEC-2.2.12'],
    title: 'Three sessions have fully separate conversations',
    asserts: 'Interleaves one, two and three messages over three sessions; each conversation holds exactly its own messages in order, and the three conversation ids differ.',
    async run({ bridge }) {
      const sent: Record<string, Message[]> = { a: [], b: [], c: [] };
      for (const [name, content] of [['a', 'Alpha'], ['b', 'Beta 1'], ['c', 'Gamma 1'], ['b', 'Beta 2'], ['c', 'Gamma 2'], ['c', 'Gamma 3']] as const) {
        sent[name]!.push(...(await addAll(bridge, `tck-b054-${name}`, [content])));
      }
      const ids: string[] = [];
      for (const name of ['a', 'b', 'c']) {
        const conv = await bridge.get_conversation({ session_id: `tck-b054-${name}` });
        checkSequence(conv.messages, sent, labelsOf(name, sent[name]!), `get_conversation(session_id="tck-b054-${name}"): only its own messages, in order`);
        ids.push(conv.id);
      }
      check.by('SPEC-2.2.12', 'SPEC-1.1.9').distinct(ids, 'get_conversation of tck-b054-a, -b, -c: conversation ids must be distinct');
    },
  }),

  defineScenario({
    id: 'SCN-B-102', tier: 'bronze', group, clauses: ['SPEC-2.2.4'],
    title: 'Session ids are matched exactly, whatever characters they hold',
    asserts: 'Adds messages to "projects/α β/42", to its prefix "projects/α β" and to "projects/α_β/42"; each conversation echoes its session_id exactly and holds only its own message.',
    async run({ bridge }) {
      const sessions = { s: 'projects/α β/42', p: 'projects/α β', u: 'projects/α_β/42' } as const;
      const sent: Record<string, Message[]> = {};
      for (const [name, session_id] of Object.entries(sessions)) sent[name] = await addAll(bridge, session_id, [`In ${session_id}`]);
      for (const [name, session_id] of Object.entries(sessions)) {
        const conv = await bridge.get_conversation({ session_id });
        check.by('BRIDGE-METHOD-get_conversation').equal(conv.session_id, session_id, `get_conversation(session_id=${JSON.stringify(session_id)}): session_id`);
        checkSequence(conv.messages, sent, [`${name}1`], `get_conversation(session_id=${JSON.stringify(session_id)}): only its own message`);
      }
    },
  }),
];
