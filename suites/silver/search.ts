// Silver, long-term memory: search_entities and search_preferences (SPEC-3.4, SPEC-3.5).
// The search algorithm is the server's (silent): only that a matching item is found, that a query
// sharing no word with anything finds nothing, and that limit and category are honoured.
import { UNRELATED_QUERY } from '../../fixtures/data.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { addEntities, checkSameEntity } from './entities.js';
import { addPreferences, checkPreferenceFound } from './preferences-facts.js';
import { allIn } from '../support/by-id.js';

const ENTITY_SET = [
  { name: 'Alice Johnson', type: 'PERSON', description: 'Software engineer at Acme Corp' },
  { name: 'Acme Corp', type: 'ORGANIZATION', description: 'A technology company' },
  { name: 'San Francisco', type: 'LOCATION', description: 'City on the bay in California' },
  { name: 'Launch Party', type: 'EVENT', description: 'Celebration of the product release' },
  { name: 'Laptop', type: 'OBJECT', description: 'Portable work computer' },
] as const;

const PREFERENCE_SET = [
  { category: 'language', preference: 'Prefers Python over JavaScript', context: 'for data work' },
  { category: 'communication', preference: 'Prefers async communication', context: 'work environment' },
  { category: 'food', preference: 'Likes spicy food' },
] as const;

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-014', tier: 'silver', group: 'search_entities', clauses: ['SPEC-3.4.1'],
    title: 'search_entities finds an entity by its name',
    asserts: 'Adds five entities; search_entities("Alice Johnson") returns the Alice Johnson entity under its id, unchanged.',
    async run({ bridge, check }) {
      const [alice] = await addEntities(bridge, check, ENTITY_SET);
      const hits = await bridge.search_entities({ query: 'Alice Johnson', limit: 10 });
      // silent: the rank of the match among the results.
      const got = check.some(hits, (h) => h.id === alice!.id, `search_entities(query="Alice Johnson", limit=10): the entity named Alice Johnson (${alice!.id})`);
      checkSameEntity(check, got, alice!, 'search_entities(query="Alice Johnson"): the entity read back');
    },
  }),

  defineScenario({
    id: 'SCN-S-015', tier: 'silver', group: 'search_entities', clauses: ['SPEC-3.4.2'],
    title: 'search_entities returns at most limit entities',
    asserts: 'Adds five entities whose names share the word "graph"; search_entities("graph", limit=2) returns one or two entities, all of them ours (each at most once: advisory ADV-search-results-distinct).',
    async run({ bridge, check }) {
      const added = await addEntities(bridge, check, ['One', 'Two', 'Three', 'Four', 'Five'].map((n) => ({ name: `Graph Node ${n}`, type: 'OBJECT' as const })));
      const hits = await bridge.search_entities({ query: 'graph', limit: 2 });
      check.atMost(hits, 2, 'search_entities(query="graph", limit=2) with five matching entities');
      // silent: which matching entities fill the limit, and whether fewer than `limit` come back.
      check.by('SPEC-3.4.1').nonEmpty(hits, 'search_entities(query="graph", limit=2): five entities match, at least one must be found');
      const ids = new Set(added.map((e) => e.id));
      check.by('SPEC-3.4.1').every(hits, (h) => ids.has(h.id), 'search_entities(query="graph", limit=2): every result is one of the entities added');
      check.advise('ADV-search-results-distinct').distinct(hits.map((h) => h.id), 'search_entities(query="graph", limit=2): result ids');
    },
  }),

  defineScenario({
    id: 'SCN-S-051', tier: 'silver', group: 'search_entities', clauses: ['SPEC-3.4.3'],
    title: 'search_entities on an empty store returns []',
    asserts: 'With no entity stored, search_entities("anything") returns an empty array.',
    async run({ bridge, check }) {
      check.empty(await bridge.search_entities({ query: 'anything', limit: 10 }), 'search_entities(query="anything") with no entities stored');
    },
  }),

  defineScenario({
    id: 'SCN-S-052', tier: 'silver', group: 'search_entities', clauses: ['SPEC-3.4.4'],
    title: 'search_entities returns [] when nothing matches',
    asserts: `Adds five entities; search_entities(${JSON.stringify(UNRELATED_QUERY)}), a query sharing no word with any of them, returns [].`,
    async run({ bridge, check }) {
      await addEntities(bridge, check, ENTITY_SET);
      // The protocol gives search_entities no threshold; a query with no word in common with any
      // entity must find nothing (the established kit's reading, kept here).
      check.empty(
        await bridge.search_entities({ query: UNRELATED_QUERY, limit: 10 }),
        `search_entities(query=${JSON.stringify(UNRELATED_QUERY)}) where no entity shares a word with the query`,
      );
    },
  }),

  defineScenario({
    id: 'SCN-S-016', tier: 'silver', group: 'search_preferences', clauses: ['SPEC-3.5.1'],
    title: 'search_preferences finds a matching preference',
    asserts: 'Adds three preferences; search_preferences("Python") returns the Python preference under its id, unchanged.',
    async run({ bridge, check }) {
      const [python] = await addPreferences(bridge, check, PREFERENCE_SET);
      await checkPreferenceFound(bridge, check, python!, 'Python');
    },
  }),

  defineScenario({
    id: 'SCN-S-017', tier: 'silver', group: 'search_preferences', clauses: ['SPEC-3.5.2'],
    title: 'search_preferences with category returns the match from that category only',
    asserts: 'Adds the same text in categories language and tooling; search_preferences("Python data analysis", category=language) returns the language one and nothing from another category.',
    async run({ bridge, check }) {
      const [decoy, target] = await addPreferences(bridge, check, [
        { category: 'tooling', preference: 'Prefers Python for data analysis' },
        { category: 'language', preference: 'Prefers Python for data analysis' },
        { category: 'food', preference: 'Likes Python-shaped pasta for data analysis lunches' },
      ]);
      const hits = await checkPreferenceFound(bridge, check, target!, 'Python data analysis', 'language');
      allIn(hits, 'language', (h) => h.category, 'search_preferences(query="Python data analysis", category="language"): only preferences of that category', { noun: 'preference', field: 'category' });
      check.none(hits, (h) => h.id === decoy!.id, 'search_preferences(category="language"): the same text stored under category tooling');
    },
  }),

  defineScenario({
    id: 'SCN-S-053', tier: 'silver', group: 'search_preferences', clauses: ['SPEC-3.5.3'],
    title: 'search_preferences on an empty store returns []',
    asserts: 'With no preference stored, search_preferences("anything") returns an empty array.',
    async run({ bridge, check }) {
      check.empty(await bridge.search_preferences({ query: 'anything', limit: 10 }), 'search_preferences(query="anything") with no preferences stored');
    },
  }),

  defineScenario({
    id: 'SCN-S-054', tier: 'silver', group: 'search_preferences', clauses: ['SPEC-3.5.4'],
    title: 'search_preferences returns [] when nothing matches',
    asserts: `Adds "Likes pizza" (food); search_preferences(${JSON.stringify(UNRELATED_QUERY)}), a query sharing no word with it, returns [].`,
    async run({ bridge, check }) {
      await addPreferences(bridge, check, [{ category: 'food', preference: 'Likes pizza' }]);
      check.empty(
        await bridge.search_preferences({ query: UNRELATED_QUERY, limit: 10 }),
        `search_preferences(query=${JSON.stringify(UNRELATED_QUERY)}) where no preference shares a word with the query`,
      );
    },
  }),
];
