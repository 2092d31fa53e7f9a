// Bronze, add_message (SPEC-2.1.x): what add_message answers and what it stores
// (SCN-B-027 … SCN-B-042).
import { check } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Role } from '../../src/protocols/bridge/model.js';
import { LONG_CONTENT, NESTED_METADATA, SPECIAL_CONTENT, UNICODE_CONTENT } from '../../fixtures/data.js';
import { addAll, checkSameMessage, checkSequence, labelsOf, type Draft } from '../support/messages.js';
import { sameJson, sameText } from '../support/differences.js';
import { checkRecent } from '../support/time.js';
import type { Cites } from '../support/cite.js';

const group = 'add_message';

/** "SCN-B-033" -> "tck-b033": one fixed session per scenario. */
const sessionOf = (id: string) => `tck-${id.slice(4).replace('-', '').toLowerCase()}`;

/**
 * Adds one message and reads its session back: the answer and the stored message both carry the
 * draft's role (SPEC-1.1.12), content (SPEC-1.1.13, and `cites.content`) and metadata exactly
 * (`metadata` defaults to {} when the draft has none: SPEC-2.1.13; given: SPEC-2.1.5 or `cites.metadata`).
 */
async function roundTrip(bridge: BridgeApi, session_id: string, draft: Draft, call: string, cites: { content?: Cites; metadata?: Cites } = {}): Promise<void> {
  const [m] = await addAll(bridge, session_id, [draft]);
  check.by('SPEC-1.1.12').equal(m!.role, draft.role, `${call}: returned role`);
  sameText(m!.content, draft.content, `${call}: returned content`, ['SPEC-1.1.13', ...(cites.content ?? [])]);
  sameJson(m!.metadata, draft.metadata ?? {}, `${call}: returned metadata`, cites.metadata ?? [draft.metadata === undefined ? 'SPEC-2.1.13' : 'SPEC-2.1.5']);
  const conv = await bridge.get_conversation({ session_id });
  check.by('SPEC-2.7.3').length(conv.messages, 1, `get_conversation(session_id="${session_id}") after ${call}: messages`);
  checkSameMessage(conv.messages[0]!, m!, `get_conversation(session_id="${session_id}") after ${call}: the message read back`);
}

function acceptsRole(id: string, clause: string, role: Role): Scenario {
  return defineScenario({
    id, tier: 'bronze', group, clauses: [clause],
    title: `add_message accepts the ${role} role`,
    asserts: `Adds a message with role "${role}"; the call succeeds, and the answer and the message read back carry role "${role}".`,
    async run({ bridge }) {
      await roundTrip(bridge, sessionOf(id), { role, content: `A ${role} message` }, `add_message(role="${role}")`);
    },
  });
}

/** A content that must come back byte for byte, from add_message and from get_conversation. */
function keepsContent(id: string, clause: string, title: string, what: string, content: string): Scenario {
  return defineScenario({
    id, tier: 'bronze', group, clauses: [clause],
    title,
    asserts: `Adds a message whose content is ${what}; the answer and the message read back hold exactly that content.`,
    async run({ bridge }) {
      await roundTrip(bridge, sessionOf(id), { role: 'user', content }, `add_message(content=${what})`, { content: [clause] });
    },
  });
}

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-027', tier: 'bronze', group, clauses: ['SPEC-2.1.1'],
    title: 'add_message answers a valid Message with a UUID and a timestamp',
    asserts: "Adds a user message; the answer is a Message (not wrapped) with a UUID id, the role and content given, and a timestamp within 5 minutes of the kit's clock.",
    async run({ bridge }) {
      const before = Date.now();
      const [m] = await addAll(bridge, 'tck-b027', ['Hello, world!']);
      const after = Date.now();
      check.uuid(m!.id, 'add_message: id');
      check.by('SPEC-1.1.12', 'SPEC-1.1.13').equal({ role: m!.role, content: m!.content }, { role: 'user', content: 'Hello, world!' }, 'add_message(role="user", content="Hello, world!"): role and content');
      check.timestamp(m!.timestamp, 'add_message: timestamp');
      checkRecent(m!.timestamp, before, after, 'add_message: timestamp', ['SPEC-2.1.15']);
    },
  }),

  acceptsRole('SCN-B-028', 'SPEC-2.1.2', 'user'),
  acceptsRole('SCN-B-029', 'SPEC-2.1.3', 'assistant'),
  acceptsRole('SCN-B-030', 'SPEC-2.1.4', 'system'),

  defineScenario({
    id: 'SCN-B-031', tier: 'bronze', group, clauses: ['SPEC-2.1.5'],
    title: 'add_message keeps the metadata given',
    asserts: 'Adds a message with metadata holding strings, a number, a boolean and a list; the answer and the message read back hold exactly that metadata.',
    async run({ bridge }) {
      const metadata = { source: 'test', priority: 'high', score: 0.5, urgent: false, tags: ['x', 'y'] };
      await roundTrip(bridge, 'tck-b031', { role: 'user', content: 'Message with metadata', metadata }, 'add_message(metadata={source, priority, score, urgent, tags})');
    },
  }),

  defineScenario({
    id: 'SCN-B-032', tier: 'bronze', group, clauses: ['SPEC-2.1.6'],
    title: 'add_message to a new session creates a conversation of its own',
    asserts: 'With another session already holding two messages, adds a first message to a new session; its conversation has that session_id, only the new message, and an id other than the existing conversation.',
    async run({ bridge }) {
      const old = await addAll(bridge, 'tck-b032-old', ['Old one', 'Old two']);
      const oldConv = await bridge.get_conversation({ session_id: 'tck-b032-old' });
      const fresh = await addAll(bridge, 'tck-b032-new', ['First message']);
      const conv = await bridge.get_conversation({ session_id: 'tck-b032-new' });
      check.by('BRIDGE-METHOD-get_conversation').equal(conv.session_id, 'tck-b032-new', 'get_conversation(session_id="tck-b032-new"): session_id');
      checkSequence(conv.messages, { old, new: fresh }, ['new1'], 'get_conversation(session_id="tck-b032-new") after its first add_message: messages');
      check.by('SPEC-2.1.6', 'SPEC-1.1.9').notEqual(conv.id, oldConv.id, 'get_conversation(session_id="tck-b032-new"): conversation id (another session already has this id)');
    },
  }),

  keepsContent('SCN-B-033', 'SPEC-2.1.7', 'add_message accepts empty content', 'the empty string', ''),
  keepsContent('SCN-B-034', 'SPEC-2.1.8', 'add_message keeps content of 12 000 characters', `LONG_CONTENT (${LONG_CONTENT.length} chars)`, LONG_CONTENT),
  keepsContent('SCN-B-035', 'SPEC-2.1.9', 'add_message keeps Unicode and emoji', 'UNICODE_CONTENT (emoji, ZWJ sequences, combining marks, CJK, RTL, astral)', UNICODE_CONTENT),
  keepsContent('SCN-B-036', 'SPEC-2.1.10', 'add_message keeps newlines, tabs, quotes, backslashes and control characters', 'SPECIAL_CONTENT (\\n, \\r\\n, \\t, quotes, backslash, JSON, HTML, U+0001, U+001F, U+007F)', SPECIAL_CONTENT),

  defineScenario({
    id: 'SCN-B-037', tier: 'bronze', group, clauses: ['SPEC-2.1.11'],
    title: 'add_message accepts empty metadata',
    asserts: 'Adds a message with metadata {}; the call succeeds and the answer and the message read back have metadata {}.',
    async run({ bridge }) {
      await roundTrip(bridge, 'tck-b037', { role: 'user', content: 'Empty meta', metadata: {} }, 'add_message(metadata={})', { metadata: ['SPEC-2.1.11'] });
    },
  }),

  defineScenario({
    id: 'SCN-B-038', tier: 'bronze', group, clauses: ['SPEC-2.1.12'],
    title: 'add_message keeps nested metadata',
    asserts: 'Adds a message with NESTED_METADATA (every JSON value kind, nested objects and lists, null, empty containers); the answer and the message read back hold exactly that value.',
    async run({ bridge }) {
      await roundTrip(bridge, 'tck-b038', { role: 'user', content: 'Nested meta', metadata: NESTED_METADATA }, 'add_message(metadata=NESTED_METADATA)', { metadata: ['SPEC-2.1.12'] });
    },
  }),

  defineScenario({
    id: 'SCN-B-142', tier: 'bronze', group, clauses: ['SPEC-2.1.12'],
    title: 'add_message keeps metadata keys named like object internals',
    asserts:
      'Adds a message whose metadata has the keys "__proto__", "constructor", "prototype" and "hasOwnProperty" (at the top and nested); ' +
      'the answer and the message read back hold exactly those keys and values. Any JSON key is data; servers that copy metadata ' +
      'through plain object assignment lose "__proto__".',
    async run({ bridge }) {
      // Built by JSON.parse: an object literal would make "__proto__" the prototype, not a key.
      const metadata = JSON.parse('{"__proto__": {"polluted": true}, "constructor": "c", "prototype": [1], "hasOwnProperty": 0, "nested": {"__proto__": "x"}}');
      await roundTrip(bridge, 'tck-b142', { role: 'user', content: 'Internal-looking keys', metadata }, 'add_message(metadata with "__proto__", "constructor", "prototype", "hasOwnProperty" keys)', { metadata: ['SPEC-2.1.12'] });
    },
  }),

  defineScenario({
    id: 'SCN-B-039', tier: 'bronze', group, clauses: ['SPEC-2.1.13'],
    title: 'add_message without metadata stores {}',
    asserts: 'Adds a message without a metadata parameter; the answer and the message read back have metadata {} (not null, not missing, no keys).',
    async run({ bridge }) {
      await roundTrip(bridge, 'tck-b039', { role: 'user', content: 'No meta' }, 'add_message(no metadata)');
    },
  }),

  defineScenario({
    id: 'SCN-B-040', tier: 'bronze', group, clauses: ['SPEC-2.1.14'],
    title: 'add_message ids are distinct UUIDs',
    asserts: 'Adds six messages over two sessions; every id is a UUID string and all six differ.',
    async run({ bridge }) {
      const m = [
        ...(await addAll(bridge, 'tck-b040-a', ['one', 'two', 'three'])),
        ...(await addAll(bridge, 'tck-b040-b', ['one', 'two', 'three'])),
      ];
      // silent: UUID version.
      for (const msg of m) check.uuid(msg.id, 'add_message: id');
      check.by('SPEC-2.8.1').distinct(m.map((x) => x.id), 'add_message called six times: message ids must be distinct');
    },
  }),

  defineScenario({
    id: 'SCN-B-041', tier: 'bronze', group, clauses: ['SPEC-2.1.15'],
    title: 'add_message stamps the current time',
    asserts: "Adds a message; its timestamp is within 5 minutes (either way) of the kit's clock around the call, whatever zone form it uses.",
    async run({ bridge }) {
      const before = Date.now();
      const [m] = await addAll(bridge, 'tck-b041', ['Timestamp check']);
      const after = Date.now();
      // silent: zone form (Z or ±hh:mm) and precision; the window allows for clock skew.
      checkRecent(m!.timestamp, before, after, 'add_message: timestamp');
    },
  }),

  defineScenario({
    id: 'SCN-B-042', tier: 'bronze', group, clauses: ['SPEC-2.1.16'],
    title: 'Fifty messages added in quick succession are all stored, in order',
    asserts: 'Adds 50 messages to one session back to back; get_conversation returns exactly those 50 ids, in the order sent, with their contents.',
    async run({ bridge }) {
      const S = 'tck-b042';
      const contents = Array.from({ length: 50 }, (_, i) => `Rapid message ${i}`);
      const m = await addAll(bridge, S, contents);
      check.by('SPEC-2.8.1').distinct(m.map((x) => x.id), 'add_message called 50 times: message ids must be distinct');
      const conv = await bridge.get_conversation({ session_id: S });
      checkSequence(conv.messages, { m }, labelsOf('m', m), `get_conversation(session_id="${S}") after 50 add_message: all messages in the order sent`);
      check.equal(conv.messages.map((x) => x.content), contents, `get_conversation(session_id="${S}"): contents in the order sent`);
    },
  }),

];
