// Gold: several agents sharing one memory (SPEC-5.5.x). Entities are shared by all sessions;
// traces and conversations belong to their session and filter by it exactly.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { ids, indexOfId, sameIds } from '../support/by-id.js';
import { addEntities } from '../support/entities.js';
import { addTrace } from '../support/traces.js';

// Session ids where one is a prefix of the other: a filter that matches by prefix leaks.
const AGENT_1 = 'gold-agent-1';
const AGENT_10 = 'gold-agent-10';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-G-016',
    tier: 'gold',
    group: 'multi-agent',
    clauses: ['SPEC-5.5.1'],
    title: 'An entity created by one agent is searchable by another',
    asserts:
      'Agent 1 talks and creates "Alice Shared"; agent 10 talks, then search_entities("Alice Shared") and ' +
      'get_entity_by_name("Alice Shared") both return Alice\'s id.',
    async run({ bridge, check }) {
      await bridge.add_message({ session_id: AGENT_1, role: 'user', content: 'Creating entities' });
      const { alice } = await addEntities(bridge, { alice: ['Alice Shared', 'PERSON', 'Shared entity'] });
      await bridge.add_message({ session_id: AGENT_10, role: 'user', content: 'Looking for shared entities' });
      const found = await bridge.search_entities({ query: 'Alice Shared' });
      indexOfId(found, alice, `search_entities("Alice Shared") in the context of ${AGENT_10}, created in the context of ${AGENT_1}`);
      const byName = await bridge.get_entity_by_name({ name: 'Alice Shared' });
      check.equal(byName?.id ?? null, alice.id, `get_entity_by_name("Alice Shared") in the context of ${AGENT_10}: id of the entity created in the context of ${AGENT_1}`);
    },
  }),

  defineScenario({
    id: 'SCN-G-017',
    tier: 'gold',
    group: 'multi-agent',
    clauses: ['SPEC-5.5.2'],
    title: 'list_traces filters by session exactly',
    asserts:
      'Two traces in gold-agent-1 and one in gold-agent-10 (a session id it is a prefix of): list_traces of each returns ' +
      'exactly its own traces, and of an unused session [].',
    async run({ bridge }) {
      const one = [await addTrace(bridge, AGENT_1, 'Agent 1 task', true), await addTrace(bridge, AGENT_1, 'Agent 1 second task')];
      const ten = [await addTrace(bridge, AGENT_10, 'Agent 10 task')];
      for (const [session, traces] of [[AGENT_1, one], [AGENT_10, ten], ['gold-agent-unused', []]] as const) {
        // silent: the order of list_traces
        sameIds(await bridge.list_traces({ session_id: session }), traces, `list_traces(session_id=${JSON.stringify(session)})`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-G-018',
    tier: 'gold',
    group: 'multi-agent',
    clauses: ['SPEC-5.5.3'],
    title: 'Conversations stay per session while entities are shared',
    asserts:
      'Each of two agents adds a message; each conversation holds exactly its own message, search_messages within a ' +
      'session (threshold 0) finds only that session\'s message, and an entity created afterwards is found by name from both.',
    async run({ bridge, check }) {
      const msgs = {
        [AGENT_1]: await bridge.add_message({ session_id: AGENT_1, role: 'user', content: 'Agent one speaking' }),
        [AGENT_10]: await bridge.add_message({ session_id: AGENT_10, role: 'user', content: 'Agent ten speaking' }),
      };
      const { corp } = await addEntities(bridge, { corp: ['SharedCorp', 'ORGANIZATION'] });
      for (const [session, own] of Object.entries(msgs)) {
        const conv = await bridge.get_conversation({ session_id: session });
        sameIds(conv.messages, [own], `get_conversation(${session}) with one message in each of two sessions`, { ordered: true });
        // silent (search-relevance): threshold 0, so whatever the scoring the session's one message is found
        const hits = await bridge.search_messages({ query: 'Agent speaking', session_id: session, limit: 10, threshold: 0 });
        const searched = `search_messages("Agent speaking", session_id=${session}, limit=10, threshold=0) with an equally matching message in the other session`;
        sameIds(hits, [own], searched, { allowRepeats: true, cites: ['SPEC-5.5.3', 'SPEC-2.3.2', 'SPEC-2.3.1'] });
        check.advise('ADV-search-results-distinct').distinct(ids(hits), `${searched}: each message at most once`);
        const found = await bridge.get_entity_by_name({ name: 'SharedCorp' });
        check.equal(found?.id ?? null, corp.id, `get_entity_by_name("SharedCorp") in the context of ${session}: the shared entity's id`);
      }
    },
  }),
];
