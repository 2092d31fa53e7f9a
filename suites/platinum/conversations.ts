// Platinum: the conversation lifecycle (Volume 5, 5.1). The established tests are weak (SCN-P-001
// cannot pass and accepts a null user_id, SCN-P-002 asserts only a list); these check the clauses.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { v5 } from './clauses.js';
import { ids, newConversation, short } from './helpers.js';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-P-001',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.1')],
    title: 'create_conversation returns a Conversation with a UUID id, the user_id and a workspace_id',
    asserts:
      'create_conversation(user_id="tck-alice"): the id is a UUID (schema), user_id is exactly "tck-alice" (null is not ' +
      'accepted), workspace_id is a non-empty string, and get_conversation_metadata reads the same back.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-alice');
      check.equal(conv.user_id, 'tck-alice', 'create_conversation(user_id="tck-alice"): user_id of the answer');
      check.ok(typeof conv.workspace_id === 'string' && conv.workspace_id !== '',
        `create_conversation(user_id="tck-alice"): workspace_id must be a non-empty string (scoped to the API key), got ${JSON.stringify(conv.workspace_id)}`,
        { expected: 'a non-empty string', actual: conv.workspace_id });
      const read = await bridge.get_conversation_metadata({ conversation_id: conv.id });
      check.equal({ id: read.id, user_id: read.user_id, workspace_id: read.workspace_id }, { id: conv.id, user_id: 'tck-alice', workspace_id: conv.workspace_id },
        `get_conversation_metadata(${short(conv.id)}) after create_conversation: id, user_id and workspace_id`);
    },
  }),

  defineScenario({
    id: 'SCN-P-101',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.1')],
    title: 'Each create_conversation has a fresh id; the workspace is the same for one caller',
    asserts:
      'Two create_conversation calls for the same user: different ids, and the same workspace_id (it is scoped to ' +
      'the API key, not to the conversation).',
    async run({ bridge, check }) {
      const a = await newConversation(bridge, 'tck-fresh');
      const b = await newConversation(bridge, 'tck-fresh');
      check.notEqual(b.id, a.id, 'create_conversation twice: the second id must be fresh');
      check.equal(b.workspace_id, a.workspace_id, 'create_conversation twice by one caller: workspace_id');
    },
  }),

  defineScenario({
    id: 'SCN-P-002',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.2')],
    title: 'list_conversations returns the conversations the caller can see, newest first',
    asserts:
      'Creates three conversations; list_conversations(limit=10) holds all three and its created_at never increases ' +
      'along the list; with limit=2 at most two come back.',
    async run({ bridge, check }) {
      const made = [await newConversation(bridge, 'tck-list-1'), await newConversation(bridge, 'tck-list-2'), await newConversation(bridge, 'tck-list-3')];
      const list = await bridge.list_conversations({ limit: 10 });
      const listed = ids(list);
      const missing = made.filter((c) => !listed.includes(c.id));
      check.ok(missing.length === 0, `list_conversations(limit=10) after creating 3: missing ${missing.map((c) => short(c.id)).join(', ')}`,
        { expected: ids(made), actual: listed });
      const times = list.map((c) => Date.parse(c.created_at));
      const bad = times.findIndex((t, i) => i > 0 && t > times[i - 1]!);
      check.ok(bad === -1, `list_conversations(limit=10): newest first, but item ${bad} (created_at ${list[bad]?.created_at}) is newer than item ${bad - 1} (${list[bad - 1]?.created_at})`,
        { expected: 'created_at non-increasing', actual: list.map((c) => c.created_at) });
      // The three are created in order: among them, the newest must come first (ties allowed).
      const order = made.map((c) => listed.indexOf(c.id));
      const [t1, t2, t3] = made.map((c) => Date.parse(c.created_at));
      check.ok(!(t3! > t1! && order[2]! > order[0]!) && !(t2! > t1! && order[1]! > order[0]!),
        'list_conversations(limit=10): a conversation created later is listed after an earlier one (newest first)', { expected: 'newest first', actual: order });
      check.atMost(await bridge.list_conversations({ limit: 2 }), 2, 'list_conversations(limit=2)');
    },
  }),

  defineScenario({
    id: 'SCN-P-003',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.3')],
    title: 'delete_conversation is idempotent',
    asserts:
      'Deletes a conversation twice (both succeed) and then a conversation that never existed (succeeds); the deleted ' +
      'one is no longer listed by list_conversations.',
    async run({ bridge, check }) {
      const keep = await newConversation(bridge, 'tck-keep');
      const conv = await newConversation(bridge, 'tck-delete');
      await bridge.delete_conversation({ conversation_id: conv.id });
      await bridge.delete_conversation({ conversation_id: conv.id });
      await bridge.delete_conversation({ conversation_id: '00000000-0000-4000-8000-00000000d3d3' });
      const listed = ids(await bridge.list_conversations({ limit: 100 }));
      check.ok(!listed.includes(conv.id), `list_conversations after delete_conversation(${short(conv.id)}): the deleted conversation is still listed`,
        { expected: `no ${conv.id}`, actual: listed });
      check.ok(listed.includes(keep.id), `list_conversations after deleting another conversation: ${short(keep.id)} must stay`, { expected: keep.id, actual: listed });
    },
  }),

  defineScenario({
    id: 'SCN-P-004',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.4')],
    title: 'bulk_add_messages returns the messages in insertion order',
    asserts:
      'bulk_add_messages of msg-0 … msg-4 (alternating user and assistant) returns five messages whose contents and ' +
      'roles are exactly those, in that order, each with its own id.',
    async run({ bridge, check }) {
      const conv = await newConversation(bridge, 'tck-bulk');
      const input = [0, 1, 2, 3, 4].map((i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `msg-${i}` }) as const);
      const got = await bridge.bulk_add_messages({ conversation_id: conv.id, messages: [...input] });
      check.equal(got.map((m) => [m.role, m.content]), input.map((m) => [m.role, m.content]), 'bulk_add_messages(msg-0 … msg-4): roles and contents, in order');
      check.distinct(ids(got), 'bulk_add_messages(msg-0 … msg-4): message ids');
    },
  }),

  defineScenario({
    id: 'SCN-P-102',
    tier: 'platinum',
    group: 'conversations',
    clauses: [v5('5.1.4')],
    title: 'bulk_add_messages caps its input at 100 messages',
    asserts:
      '100 messages are accepted (100 back); 101 are refused with an error and none of them is added (the ' +
      "conversation's recent messages do not show the 101-batch).",
    async run(ctx) {
      const { bridge, check } = ctx;
      const full = await newConversation(bridge, 'tck-cap-100');
      const hundred = Array.from({ length: 100 }, (_, i) => ({ role: 'user' as const, content: `cap-${i}` }));
      check.length(await bridge.bulk_add_messages({ conversation_id: full.id, messages: hundred }), 100, 'bulk_add_messages(100 messages)');
      const over = await newConversation(bridge, 'tck-cap-101');
      const batch = Array.from({ length: 101 }, (_, i) => ({ role: 'user' as const, content: `over-${i}` }));
      await ctx.expectError('bulk_add_messages', { conversation_id: over.id, messages: batch }, 'with 101 messages (the cap is 100, SPEC-5.1.4 of Volume 5)');
      const context = await bridge.get_context({ conversation_id: over.id });
      const added = context.recent_messages.filter((m) => m.content.startsWith('over-'));
      check.empty(added, 'get_context after a refused bulk_add_messages of 101: recent_messages of that batch');
    },
  }),
];
