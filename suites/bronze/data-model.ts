// Bronze, Volume 1 of the established clause list: the shape and identity rules of conversations,
// messages, entities, preferences and facts (SCN-B-001 … SCN-B-026, plus our SCN-B-101).
import { check, instant, show } from '../../src/engine/assert.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { EntityType } from '../../src/protocols/bridge/model.js';
import { addAll, checkSameMessage, checkSequence, stored } from '../support/messages.js';
import { sameText } from '../support/differences.js';
import { checkRecent, sameInstant, serverClock, serverTimePast } from '../support/time.js';

// ------------------------------------------------------------------ 1.1 conversation and messages

const group = 'data-model';

const conversationScenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-001', tier: 'bronze', group, clauses: ['SPEC-1.1.1'],
    title: 'The first message of a new session creates its conversation',
    asserts: 'Adds one message to a fresh session; get_conversation answers a conversation of that session holding exactly that message (same id, role, content, metadata and timestamp).',
    async run({ bridge }) {
      const S = 'tck-b001';
      const [m] = await addAll(bridge, S, [{ role: 'user', content: 'Hello' }]);
      const conv = await bridge.get_conversation({ session_id: S });
      check.by('BRIDGE-METHOD-get_conversation').equal(conv.session_id, S, `get_conversation(session_id="${S}"): session_id of the conversation`);
      check.length(conv.messages, 1, `get_conversation(session_id="${S}") after the first add_message: messages`);
      checkSameMessage(conv.messages[0]!, m!, `get_conversation(session_id="${S}"): the first message`);
    },
  }),

  defineScenario({
    id: 'SCN-B-002', tier: 'bronze', group, clauses: ['SPEC-1.1.2'],
    title: 'Later messages of a session join its existing conversation',
    asserts: 'Adds a user message, reads the conversation, adds an assistant message; the conversation keeps its id and holds both messages in order.',
    async run({ bridge }) {
      const S = 'tck-b002';
      const m = await addAll(bridge, S, ['First message']);
      const first = await bridge.get_conversation({ session_id: S });
      m.push(...(await addAll(bridge, S, [{ role: 'assistant', content: 'Second message' }])));
      const second = await bridge.get_conversation({ session_id: S });
      check.equal(second.id, first.id, `get_conversation(session_id="${S}") after a second add_message: conversation id (the existing conversation)`);
      checkSequence(second.messages, { m }, ['m1', 'm2'], `get_conversation(session_id="${S}") after two add_message: messages`);
    },
  }),

  defineScenario({
    id: 'SCN-B-003', tier: 'bronze', group, clauses: ['SPEC-1.1.3'],
    title: 'Messages of one session are not visible in another',
    asserts: 'Adds one message to each of two sessions; each conversation holds exactly its own message.',
    async run({ bridge }) {
      const a = await addAll(bridge, 'tck-b003-a', ['Message in session A']);
      const b = await addAll(bridge, 'tck-b003-b', ['Message in session B']);
      const convA = await bridge.get_conversation({ session_id: 'tck-b003-a' });
      const convB = await bridge.get_conversation({ session_id: 'tck-b003-b' });
      checkSequence(convA.messages, { a, b }, ['a1'], 'get_conversation(session_id="tck-b003-a"): only the message of session a');
      checkSequence(convB.messages, { a, b }, ['b1'], 'get_conversation(session_id="tck-b003-b"): only the message of session b');
    },
  }),

  defineScenario({
    id: 'SCN-B-004', tier: 'bronze', group, clauses: ['SPEC-1.1.4'],
    title: 'A deleted message is gone from the conversation',
    asserts: 'Adds three messages, deletes the middle one (delete_message answers deleted: true); get_conversation no longer returns its id.',
    async run({ bridge }) {
      const S = 'tck-b004';
      const [, doomed] = await addAll(bridge, S, ['Keep me', 'Delete me', 'Keep me too']);
      const res = await bridge.delete_message({ message_id: doomed!.id });
      check.by('SPEC-2.5.1').equal(res.deleted, true, `delete_message(message_id=<existing message>): deleted`);
      const conv = await bridge.get_conversation({ session_id: S });
      check.none(conv.messages, (m) => m.id === doomed!.id, `get_conversation(session_id="${S}") after delete_message: the deleted message must not be returned`);
    },
  }),

  defineScenario({
    id: 'SCN-B-005', tier: 'bronze', group, clauses: ['SPEC-1.1.5'],
    title: 'A conversation id is a UUID',
    asserts: 'Adds a message and reads the conversation; its id is a UUID string (any version).',
    async run({ bridge }) {
      await addAll(bridge, 'tck-b005', ['Hello']);
      const conv = await bridge.get_conversation({ session_id: 'tck-b005' });
      // silent: UUID version.
      check.uuid(conv.id, 'get_conversation(session_id="tck-b005"): conversation id');
    },
  }),

  defineScenario({
    id: 'SCN-B-006', tier: 'bronze', group, clauses: ['SPEC-1.1.6'],
    title: 'A conversation keeps the created_at of its creation',
    asserts: "Adds a message; the conversation's created_at is within 5 minutes of the kit's clock at that moment, and, once the server's clock has passed it by two units of its precision (asked with add_message to another session), is the same instant after a later message is added.",
    async run(ctx) {
      const { bridge } = ctx;
      const S = 'tck-b006';
      const before = Date.now();
      await addAll(bridge, S, ['Hello']);
      const after = Date.now();
      const first = await bridge.get_conversation({ session_id: S });
      check.timestamp(first.created_at, `get_conversation(session_id="${S}"): created_at`);
      checkRecent(first.created_at, before, after, `get_conversation(session_id="${S}"): created_at of a conversation created by add_message`);
      // A created_at rewritten by a later message (or read as the time of the read) shows only once the server's clock has moved past it.
      await serverTimePast(first.created_at, serverClock(ctx, 'add_message', `${S}-clock`));
      await addAll(bridge, S, [{ role: 'assistant', content: 'Hi' }]);
      const second = await bridge.get_conversation({ session_id: S });
      // silent (timestamp-format): the zone form and precision of created_at; only the instant must stay.
      check.ok(
        sameInstant(second.created_at, first.created_at),
        `get_conversation(session_id="${S}"): created_at must stay the creation time, was ${first.created_at}, after another add_message got ${second.created_at}`,
        { expected: first.created_at, actual: second.created_at },
      );
    },
  }),

  defineScenario({
    id: 'SCN-B-007', tier: 'bronze', group, clauses: ['SPEC-1.1.7'],
    title: 'A conversation needs no title',
    asserts: 'Adds a message without any title and reads the conversation; it is valid whether title is null, omitted or a string.',
    async run({ bridge }) {
      await addAll(bridge, 'tck-b007', ['Hello']);
      const conv = await bridge.get_conversation({ session_id: 'tck-b007' });
      // silent: title null, omitted or a string (MAY); the data model already rejects any other type.
      check.ok(
        conv.title === undefined || conv.title === null || typeof conv.title === 'string',
        `get_conversation(session_id="tck-b007"): title must be a string, null or omitted, got ${show(conv.title)}`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-B-008', tier: 'bronze', group, clauses: ['SPEC-1.1.8'],
    title: 'A session keeps one conversation id across calls',
    asserts: 'Reads the conversation of a session twice, adds a message, reads it again; all three answers carry the same conversation id.',
    async run({ bridge }) {
      const S = 'tck-b008';
      await addAll(bridge, S, ['First']);
      const ids = [(await bridge.get_conversation({ session_id: S })).id, (await bridge.get_conversation({ session_id: S })).id];
      await addAll(bridge, S, ['Second']);
      ids.push((await bridge.get_conversation({ session_id: S })).id);
      check.equal(ids, [ids[0], ids[0], ids[0]], `get_conversation(session_id="${S}") called three times (one more add_message before the third): conversation id must not change`);
    },
  }),

  defineScenario({
    id: 'SCN-B-009', tier: 'bronze', group, clauses: ['SPEC-1.1.9'],
    title: 'Different sessions have different conversation ids',
    asserts: 'Adds a message to each of three sessions; their conversation ids are pairwise distinct.',
    async run({ bridge }) {
      const sessions = ['tck-b009-a', 'tck-b009-b', 'tck-b009-c'];
      for (const s of sessions) await addAll(bridge, s, [`Hello from ${s}`]);
      const ids: string[] = [];
      for (const s of sessions) ids.push((await bridge.get_conversation({ session_id: s })).id);
      check.distinct(ids, `get_conversation of sessions ${sessions.join(', ')}: conversation ids must be distinct`);
    },
  }),

  defineScenario({
    id: 'SCN-B-010', tier: 'bronze', group, clauses: ['SPEC-1.1.10'],
    title: 'Deleting a message leaves the other messages untouched',
    asserts: 'Adds four messages with different roles and metadata (and one in another session), deletes the second; the remaining messages read back exactly as before (id, role, content, timestamp, metadata, order).',
    async run({ bridge }) {
      const S = 'tck-b010';
      const sent = await addAll(bridge, S, [
        { role: 'user', content: 'Keep me', metadata: { n: 1 } },
        { role: 'assistant', content: 'Delete me', metadata: { n: 2 } },
        { role: 'system', content: 'Keep me too', metadata: { n: 3, tags: ['x'] } },
        { role: 'user', content: 'And me' },
      ]);
      const other = await addAll(bridge, 'tck-b010-other', ['Elsewhere']);
      const before = await bridge.get_conversation({ session_id: S });
      const otherBefore = await bridge.get_conversation({ session_id: 'tck-b010-other' });
      await bridge.delete_message({ message_id: sent[1]!.id });
      const after = await bridge.get_conversation({ session_id: S });
      // silent: embedding may be filled in later; every other field must not change.
      const expected = before.messages.filter((m) => m.id !== sent[1]!.id).map(stored);
      checkSequence(after.messages, { m: sent, o: other }, ['m1', 'm3', 'm4'], `get_conversation(session_id="${S}") after deleting m2: remaining messages`, ['SPEC-1.1.10', 'SPEC-2.5.4']);
      check.equal(after.messages.map(stored), expected, `get_conversation(session_id="${S}") after deleting m2: the other messages must be unchanged`);
      const otherAfter = await bridge.get_conversation({ session_id: 'tck-b010-other' });
      check.equal(otherAfter.messages.map(stored), otherBefore.messages.map(stored), 'get_conversation(session_id="tck-b010-other") after deleting a message of another session: unchanged');
    },
  }),

  defineScenario({
    id: 'SCN-B-011', tier: 'bronze', group, clauses: ['SPEC-1.1.11'],
    title: 'A message has an id, and it is the id the store keeps',
    asserts: 'Adds two messages; each answer has a non-null id, the two ids differ, and get_conversation returns exactly those ids.',
    async run({ bridge }) {
      const S = 'tck-b011';
      const m = await addAll(bridge, S, ['Hello', 'Hello']);
      for (const msg of m) check.ok(msg.id != null, 'add_message: id must not be null');
      check.by('SPEC-2.8.1').distinct(m.map((x) => x.id), 'add_message called twice: message ids must be distinct');
      const conv = await bridge.get_conversation({ session_id: S });
      checkSequence(conv.messages, { m }, ['m1', 'm2'], `get_conversation(session_id="${S}"): the ids add_message returned`, ['SPEC-2.2.1']);
    },
  }),

  defineScenario({
    id: 'SCN-B-012', tier: 'bronze', group, clauses: ['SPEC-1.1.12'],
    title: "A message's role is the role it was added with",
    asserts: 'Adds a system, a user and an assistant message; each answer carries the role given.',
    async run({ bridge }) {
      for (const role of ['system', 'user', 'assistant'] as const) {
        const [m] = await addAll(bridge, 'tck-b012', [{ role, content: `A ${role} message` }]);
        check.equal(m!.role, role, `add_message(role="${role}"): role`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-013', tier: 'bronze', group, clauses: ['SPEC-1.1.13'],
    title: "A message's content is the content it was added with",
    asserts: 'Adds a message whose content has leading and trailing whitespace; the answer carries exactly that content.',
    async run({ bridge }) {
      const content = '  Hello world  \n';
      const [m] = await addAll(bridge, 'tck-b013', [content]);
      sameText(m!.content, content, `add_message(content=${JSON.stringify(content)}): content must be returned unchanged`);
    },
  }),

  defineScenario({
    id: 'SCN-B-014', tier: 'bronze', group, clauses: ['SPEC-1.1.14'],
    title: 'A message has a timestamp',
    asserts: 'Adds a message; the answer has a non-null ISO 8601 date-time timestamp that reads as an instant.',
    async run({ bridge }) {
      const [m] = await addAll(bridge, 'tck-b014', ['Hello']);
      // silent: zone form (Z or ±hh:mm) and precision.
      check.timestamp(m!.timestamp, 'add_message: timestamp');
      check.ok(Number.isFinite(instant(m!.timestamp)), `add_message: timestamp ${m!.timestamp} does not read as an instant`);
    },
  }),

  defineScenario({
    id: 'SCN-B-101', tier: 'bronze', group, clauses: ['SPEC-V1-Message.timestamp', 'SPEC-1.1.14'],
    title: 'A message keeps the timestamp it was created with',
    asserts: "Adds two messages, then reads the conversation twice, each time once the server's clock has passed the second message's timestamp by two units of its precision (asked with add_message to another session); every message read back has the instant add_message returned for it.",
    async run(ctx) {
      const { bridge } = ctx;
      const S = 'tck-b101';
      const m = await addAll(bridge, S, ['First', 'Second']);
      for (const round of ['first', 'second']) {
        // A timestamp read as the time of the read shows only once the server's clock has moved past the creation time.
        await serverTimePast(m[1]!.timestamp, serverClock(ctx, 'add_message', `${S}-clock`));
        const conv = await bridge.get_conversation({ session_id: S });
        check.by('SPEC-2.2.1').length(conv.messages, 2, `get_conversation(session_id="${S}") (${round} read): messages`);
        conv.messages.forEach((got, i) => {
          const want = m[i]!;
          // silent (timestamp-format): compared as instants, at the precision of the coarser answer
          check.by('SPEC-V1-Message.timestamp').ok(
            sameInstant(got.timestamp, want.timestamp),
            `get_conversation(session_id="${S}") (${round} read): message ${i + 1} timestamp ${got.timestamp} is not its creation time returned by add_message (${want.timestamp})`,
            { expected: want.timestamp, actual: got.timestamp },
          );
        });
      }
    },
  }),
];

// ------------------------------------------------------------------ 1.2 entities, 1.3 preferences, 1.4 facts

function entityType(id: string, clause: string, type: EntityType, name: string): Scenario {
  return defineScenario({
    id, tier: 'bronze', group, clauses: [clause],
    title: `add_entity accepts and keeps the ${type} type`,
    asserts: `Adds an entity of type ${type}; the answer has type ${type} and the name given.`,
    async run({ bridge }) {
      const e = await bridge.add_entity({ name, entity_type: type });
      check.equal(e.type, type, `add_entity(name="${name}", entity_type="${type}"): type`);
      check.by('BRIDGE-METHOD-add_entity', 'SPEC-1.2.1').equal(e.name, name, `add_entity(name="${name}", entity_type="${type}"): name`);
    },
  });
}

const longTermScenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-015', tier: 'bronze', group, clauses: ['SPEC-1.2.1'],
    title: 'An entity has id, name, type and created_at',
    asserts: 'Adds a PERSON entity with a description; the answer has a UUID id, the name and type given, and a created_at timestamp.',
    async run({ bridge }) {
      const p = { name: 'Ada Lovelace', entity_type: 'PERSON', description: 'Mathematician and writer' } as const;
      const e = await bridge.add_entity(p);
      check.by('SPEC-1.2.1', 'SPEC-1.2.2').uuid(e.id, 'add_entity: id');
      check.by('SPEC-1.2.1', 'BRIDGE-METHOD-add_entity').equal(e.name, p.name, `add_entity(name="${p.name}"): name`);
      check.by('SPEC-1.2.1', 'SPEC-1.2.3').equal(e.type, p.entity_type, `add_entity(entity_type="${p.entity_type}"): type`);
      check.timestamp(e.created_at, 'add_entity: created_at');
    },
  }),

  defineScenario({
    id: 'SCN-B-016', tier: 'bronze', group, clauses: ['SPEC-1.2.2'],
    title: 'Entity ids are UUIDs',
    asserts: 'Adds two entities; each id is a UUID string and the two differ.',
    async run({ bridge }) {
      const a = await bridge.add_entity({ name: 'Test Entity', entity_type: 'PERSON' });
      const b = await bridge.add_entity({ name: 'Other Entity', entity_type: 'OBJECT' });
      // silent: UUID version.
      check.uuid(a.id, 'add_entity: id');
      check.uuid(b.id, 'add_entity: id');
      check.by('SPEC-1.2.2', 'SPEC-3.1.8').distinct([a.id, b.id], 'add_entity called twice: entity ids must be distinct');
    },
  }),

  entityType('SCN-B-017', 'SPEC-1.2.3', 'PERSON', 'Alice'),
  entityType('SCN-B-018', 'SPEC-1.2.4', 'ORGANIZATION', 'Acme Corporation'),
  entityType('SCN-B-019', 'SPEC-1.2.5', 'LOCATION', 'New York City'),
  entityType('SCN-B-020', 'SPEC-1.2.6', 'EVENT', 'Product Launch 2026'),
  entityType('SCN-B-021', 'SPEC-1.2.7', 'OBJECT', 'Laptop'),

  defineScenario({
    id: 'SCN-B-022', tier: 'bronze', group, clauses: ['SPEC-1.2.8'],
    title: 'An entity has a created_at timestamp of its creation',
    asserts: "Adds an entity; created_at is a non-null ISO 8601 date-time within 5 minutes of the kit's clock.",
    async run({ bridge }) {
      const before = Date.now();
      const e = await bridge.add_entity({ name: 'Timestamped', entity_type: 'PERSON' });
      const after = Date.now();
      check.timestamp(e.created_at, 'add_entity: created_at');
      checkRecent(e.created_at, before, after, 'add_entity: created_at', ['SPEC-V1-Entity.created_at']);
    },
  }),

  defineScenario({
    id: 'SCN-B-023', tier: 'bronze', group, clauses: ['SPEC-1.3.1'],
    title: 'A preference has id, category and preference',
    asserts: 'Adds a preference; the answer has a UUID id and exactly the category and preference text given.',
    async run({ bridge }) {
      const p = { category: 'language', preference: 'Prefers Python for scripting', context: 'Said while planning a tool' };
      const pref = await bridge.add_preference(p);
      check.by('SPEC-1.3.1', 'SPEC-1.3.2').uuid(pref.id, 'add_preference: id');
      check.by('SPEC-1.3.1', 'SPEC-3.2.1').equal(pref.category, p.category, `add_preference(category="${p.category}"): category`);
      check.by('SPEC-1.3.1', 'SPEC-3.2.1').equal(pref.preference, p.preference, `add_preference(preference="${p.preference}"): preference`);
    },
  }),

  defineScenario({
    id: 'SCN-B-024', tier: 'bronze', group, clauses: ['SPEC-1.3.2'],
    title: 'Preference ids are UUIDs',
    asserts: 'Adds two preferences; each id is a UUID string and the two differ.',
    async run({ bridge }) {
      const a = await bridge.add_preference({ category: 'food', preference: 'Likes pizza' });
      const b = await bridge.add_preference({ category: 'food', preference: 'Dislikes olives' });
      check.uuid(a.id, 'add_preference: id');
      check.uuid(b.id, 'add_preference: id');
      check.by('SPEC-1.3.2', 'SPEC-3.2.3').distinct([a.id, b.id], 'add_preference called twice: preference ids must be distinct');
    },
  }),

  defineScenario({
    id: 'SCN-B-025', tier: 'bronze', group, clauses: ['SPEC-1.4.1'],
    title: 'A fact has id, subject, predicate and object',
    asserts: 'Adds a fact (subject, predicate, obj); the answer has a UUID id and subject, predicate and object exactly as given.',
    async run({ bridge }) {
      const f = await bridge.add_fact({ subject: 'Alice', predicate: 'WORKS_AT', obj: 'Acme Corp' });
      check.by('SPEC-1.4.1', 'SPEC-1.4.2').uuid(f.id, 'add_fact: id');
      check.by('SPEC-1.4.1', 'SPEC-3.3.1').equal(
        { subject: f.subject, predicate: f.predicate, object: f.object },
        { subject: 'Alice', predicate: 'WORKS_AT', object: 'Acme Corp' },
        'add_fact(subject="Alice", predicate="WORKS_AT", obj="Acme Corp"): subject, predicate and object',
      );
    },
  }),

  defineScenario({
    id: 'SCN-B-026', tier: 'bronze', group, clauses: ['SPEC-1.4.2'],
    title: 'Fact ids are UUIDs',
    asserts: 'Adds two facts; each id is a UUID string and the two differ.',
    async run({ bridge }) {
      const a = await bridge.add_fact({ subject: 'Bob', predicate: 'KNOWS', obj: 'Alice' });
      const b = await bridge.add_fact({ subject: 'Alice', predicate: 'KNOWS', obj: 'Bob' });
      check.uuid(a.id, 'add_fact: id');
      check.uuid(b.id, 'add_fact: id');
      check.by('SPEC-1.4.2', 'SPEC-3.3.2').distinct([a.id, b.id], 'add_fact called twice: fact ids must be distinct');
    },
  }),
];

export const scenarios: Scenario[] = [...conversationScenarios, ...longTermScenarios];
