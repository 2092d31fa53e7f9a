// search_messages (SPEC-2.3.x): a matching message is found, the session filter and the limit
// are honoured, an unrelated query at threshold 0.99 and an empty store find nothing.
// silent: the search algorithm and the order of results; a query equal to a stored content is
// the one kind of "matching" every algorithm agrees on, so the scenarios rely on it.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { Message } from '../../src/protocols/bridge/model.js';
import { TOPICS, UNRELATED_QUERY } from '../../fixtures/data.js';
import { addMessages, checkOfSession, checkStored, type Written } from '../support/messages.js';

type SearchParams = { query: string; session_id?: string; limit?: number; threshold?: number };

/** A call as it reads in a message: search_messages(query="…", limit=2, threshold=0). */
function callText(p: SearchParams): string {
  const parts = Object.entries(p).map(([k, v]) => `${k}=${show(v, 60)}`);
  return `search_messages(${parts.join(', ')})`;
}

/** Searches, and requires every result to be a message this scenario stored (each at most once: an advisory). */
async function search(bridge: BridgeApi, params: SearchParams, stored: readonly Written[]): Promise<{ results: Message[]; call: string }> {
  const call = callText(params);
  const results = await bridge.search_messages(params);
  checkStored(results, stored, call);
  return { results, call };
}

/** The fixture topics, all in one session: weather ×3, cooking ×2, databases ×2. */
async function addTopics(bridge: BridgeApi, session_id: string): Promise<Message[]> {
  return addMessages(bridge, session_id, [...TOPICS.weather, ...TOPICS.cooking, ...TOPICS.databases]);
}

/** 1 <= results <= limit when more than `limit` messages match. */
function checkLimit(results: readonly Message[], limit: number, call: string): void {
  check.atMost(results, limit, `${call}: limit ${limit}`);
  // silent: whether fewer than `limit` may come back when more match; at least one must (SPEC-2.3.1)
  check.by('SPEC-2.3.1').nonEmpty(results, `${call}: more than ${limit} stored messages match`);
}

const group = 'search_messages';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-055',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.1'],
    title: 'search_messages finds the message that matches the query',
    asserts:
      'Stores seven messages on three topics and searches with the exact content of two of them (threshold 0, then the server defaults); ' +
      'each time the matching message id must be among the results, and every result must be a stored message read back unchanged.',
    async run({ bridge }) {
      const stored = await addTopics(bridge, 'search-relevant');
      for (const [target, params] of [
        [stored[3]!, { query: stored[3]!.content, limit: 10, threshold: 0 }],
        [stored[5]!, { query: stored[5]!.content }],
      ] as const) {
        const { results, call } = await search(bridge, params, stored);
        check.some(results, (m) => m.id === target.id, `${call}: the message whose content is the query (id ${target.id}) must be found`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-056',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.2'],
    title: 'search_messages with session_id returns only messages of that session',
    asserts:
      'Session A holds a message close to the query, session B the exact query text; a search filtered on A (limit 10, then limit 1) ' +
      'must return nothing from B, A\'s match at limit 10 and one of A\'s messages at limit 1.',
    async run({ bridge }) {
      const [query, near] = TOPICS.databases;
      const inA = await addMessages(bridge, 'search-filter-a', [TOPICS.weather[0], near]);
      // The decoy: a better match than anything in A, in another session.
      const inB = await addMessages(bridge, 'search-filter-b', [query, TOPICS.cooking[0]]);
      const stored = [...inA, ...inB];
      for (const limit of [10, 1]) {
        const { results, call } = await search(bridge, { query, session_id: 'search-filter-a', limit, threshold: 0 }, stored);
        checkOfSession(bridge, results, 'search-filter-a', `${call}: every result must belong to session "search-filter-a"`);
        check.by('SPEC-2.3.3').atMost(results, limit, `${call}: limit ${limit}`);
        // silent (search-ties): at limit 1 a scoring may rank A's two messages equally, so which
        // one comes back is open; with room for both, the one sharing the query's words is found.
        if (limit === 1) check.by('SPEC-2.3.1').nonEmpty(results, `${call}: session "search-filter-a" holds a message that shares the query's words`);
        else check.by('SPEC-2.3.1').some(results, (m) => m.id === inA[1]!.id, `${call}: the message of session "search-filter-a" that shares the query's words (id ${inA[1]!.id}) must be found`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-057',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.3'],
    title: 'search_messages returns no more results than limit',
    asserts:
      'Stores six messages matching the query (in two sessions) and one unrelated; searches with limit 2 and limit 3 ' +
      'must return between one and limit stored messages (each at most once: advisory ADV-search-results-distinct).',
    async run({ bridge }) {
      const stored = [
        ...(await addMessages(bridge, 'search-limit', ['Test message number 0', 'Test message number 1', 'Test message number 2', 'Test message number 3', TOPICS.cooking[1]])),
        ...(await addMessages(bridge, 'search-limit-other', ['Test message number 4', 'Test message number 5'])),
      ];
      for (const limit of [2, 3]) {
        const { results, call } = await search(bridge, { query: 'Test message number', limit, threshold: 0 }, stored);
        checkLimit(results, limit, call);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-058',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.4'],
    title: 'search_messages at threshold 0.99 finds nothing for an unrelated query',
    asserts:
      'Stores the seven topic messages in two sessions and searches for a query sharing no word with them at threshold 0.99, ' +
      'across sessions and within one; both answers must be [].',
    async run({ bridge }) {
      await addTopics(bridge, 'search-none');
      await addMessages(bridge, 'search-none-other', [TOPICS.weather[1]]);
      for (const params of [
        { query: UNRELATED_QUERY, limit: 10, threshold: 0.99 },
        { query: UNRELATED_QUERY, session_id: 'search-none', limit: 10, threshold: 0.99 },
      ]) {
        const results = await bridge.search_messages(params);
        check.empty(results, `${callText(params)}: nothing stored matches the query`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-059',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.5'],
    title: 'search_messages with limit 1 returns exactly one of the matches',
    asserts: 'Stores five messages matching the query; a search with limit 1 must return exactly one of them.',
    async run({ bridge }) {
      const stored = await addMessages(bridge, 'search-limit-one', [0, 1, 2, 3, 4].map((i) => `Searchable content ${i}`));
      const { results, call } = await search(bridge, { query: 'Searchable content', limit: 1, threshold: 0 }, stored);
      checkLimit(results, 1, call);
    },
  }),

  defineScenario({
    id: 'SCN-B-060',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.6'],
    title: 'search_messages on an empty store returns []',
    asserts:
      'On the fresh store, and again after storing the topic messages and calling clear_all_data, searches for a topic sentence ' +
      '(threshold 0, and the defaults) must return [].',
    async run({ bridge }) {
      const queries = [
        { query: TOPICS.weather[0], limit: 10, threshold: 0 },
        { query: TOPICS.weather[0] },
      ];
      for (const params of queries) {
        check.empty(await bridge.search_messages(params), `${callText(params)} on an empty store`);
      }
      await addTopics(bridge, 'search-empty');
      await bridge.clear_all_data();
      for (const params of queries) {
        check.by('SPEC-2.3.6', 'SPEC-V3-clear_all_data').empty(await bridge.search_messages(params), `${callText(params)} after clear_all_data`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-061',
    tier: 'bronze',
    group,
    clauses: ['SPEC-2.3.7'],
    title: 'search_messages without session_id searches every session',
    asserts:
      'Puts one weather message and one other message in each of three sessions; a search for "weather Paris" without session_id ' +
      '(limit 10, threshold 0) must find all three weather messages.',
    async run({ bridge }) {
      const others = [TOPICS.cooking[0], TOPICS.databases[0], TOPICS.cooking[1]];
      const stored: Message[] = [];
      const weather: Message[] = [];
      for (const [i, content] of TOPICS.weather.entries()) {
        const [w, o] = await addMessages(bridge, `search-across-${i}`, [content, others[i]!]);
        weather.push(w!);
        stored.push(w!, o!);
      }
      const { results, call } = await search(bridge, { query: 'weather Paris', limit: 10, threshold: 0 }, stored);
      for (const [i, w] of weather.entries()) {
        check.some(results, (m) => m.id === w.id, `${call}: the weather message of session "search-across-${i}" (id ${w.id}) must be found`);
      }
    },
  }),
];
