// Silver, long-term memory: add_preference and add_fact (SPEC-3.2, SPEC-3.3).
// Preferences are read back with search_preferences (the only read of a preference); facts have
// no read method, so their scenarios judge the answer of add_fact.
import { LONG_CONTENT, UNICODE_CONTENT } from '../../fixtures/data.js';
import type { Check } from '../../src/engine/assert.js';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import type { Fact, Preference } from '../../src/protocols/bridge/model.js';

// ------------------------------------------------------------------ helpers (also used by search.ts)

type NewPreference = { category: string; preference: string; context?: string };

/** The fields of a preference fixed by add_preference. silent: an unset context is null or omitted (never ""). */
function preferenceView(p: Preference) {
  return { id: p.id, category: p.category, preference: p.preference, context: p.context ?? null };
}

/** Adds preferences in order, checking that each answer echoes what was sent (SPEC-3.2.1; the context: SPEC-3.2.2). */
export async function addPreferences(bridge: BridgeApi, check: Check, list: readonly NewPreference[]): Promise<Preference[]> {
  const out: Preference[] = [];
  for (const sent of list) {
    const p = await bridge.add_preference(sent);
    check.by('SPEC-3.2.1', 'SPEC-3.2.2').equal(
      { category: p.category, preference: p.preference, context: p.context ?? null },
      { category: sent.category, preference: sent.preference, context: sent.context ?? null },
      `add_preference(category=${JSON.stringify(sent.category)}): category, preference and context of the returned preference`,
    );
    out.push(p);
  }
  return out;
}

/**
 * search_preferences(query, category) finds `sent` under its id (SPEC-3.5.1, and SPEC-3.5.2 with a
 * category) with its fields unchanged: what `readCites` names (default: the scenario's clauses,
 * when they are about what a preference stores).
 */
export async function checkPreferenceFound(
  bridge: BridgeApi, check: Check, sent: Preference, query: string, category?: string, readCites?: readonly string[],
): Promise<Preference[]> {
  const params = category === undefined ? { query, limit: 10 } : { query, category, limit: 10 };
  const hits = await bridge.search_preferences(params);
  const call = `search_preferences(query=${JSON.stringify(query)}${category === undefined ? '' : `, category=${JSON.stringify(category)}`})`;
  // silent: the rank of the match among the results.
  const got = check.by('SPEC-3.5.1', ...(category === undefined ? [] : ['SPEC-3.5.2'])).some(hits, (h) => h.id === sent.id, `${call}: the matching preference ${sent.id} written by add_preference`);
  (readCites === undefined ? check : check.by(...readCites)).equal(preferenceView(got), preferenceView(sent), `${call}: the preference read back`);
  return hits;
}

/** add_fact echoes subject, predicate and object exactly (the object arrives as `obj`): the scenario's clauses, or `cites`. */
async function addFact(bridge: BridgeApi, check: Check, subject: string, predicate: string, obj: string, cites?: readonly string[]): Promise<Fact> {
  const f = await bridge.add_fact({ subject, predicate, obj });
  (cites === undefined ? check : check.by(...cites)).equal(
    { subject: f.subject, predicate: f.predicate, object: f.object },
    { subject, predicate, object: obj },
    `add_fact(subject=${JSON.stringify(subject)}, predicate=${JSON.stringify(predicate)}, obj=${JSON.stringify(obj)}): subject, predicate and object of the returned fact`,
  );
  return f;
}

// ------------------------------------------------------------------ scenarios

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-S-009', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.1'],
    title: 'add_preference returns the new preference, which search_preferences reads back',
    asserts: 'Adds a preference; the answer has a UUID and the category and text sent; search_preferences("Python") returns it under the same id, unchanged.',
    async run({ bridge, check }) {
      const [p] = await addPreferences(bridge, check, [{ category: 'language', preference: 'Prefers Python over JavaScript' }]);
      check.by('SPEC-1.3.2').uuid(p!.id, 'add_preference: id');
      await checkPreferenceFound(bridge, check, p!, 'Python', undefined, ['SPEC-3.5.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-010', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.2'],
    title: 'add_preference stores the context',
    asserts: 'Adds a preference with a context; the answer and the search_preferences read-back give that context exactly.',
    async run({ bridge, check }) {
      const [p] = await addPreferences(bridge, check, [
        { category: 'communication', preference: 'Prefers async communication', context: 'work environment' },
      ]);
      await checkPreferenceFound(bridge, check, p!, 'async communication', 'communication');
    },
  }),

  defineScenario({
    id: 'SCN-S-011', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.3'],
    title: 'several preferences are stored independently',
    asserts: 'Adds four preferences in four categories; their ids are distinct and each is found by search_preferences in its category, unchanged.',
    async run({ bridge, check }) {
      const added = await addPreferences(bridge, check, [
        { category: 'language', preference: 'Prefers Python over JavaScript', context: 'for data work' },
        { category: 'communication', preference: 'Prefers async messages to meetings', context: 'remote team' },
        { category: 'food', preference: 'Enjoys spicy Thai curry' },
        { category: 'editor', preference: 'Uses dark themes in the code editor', context: 'late evenings' },
      ]);
      check.distinct(added.map((p) => p.id), 'add_preference ×4: preference ids');
      for (const p of added) await checkPreferenceFound(bridge, check, p, p.preference, p.category, ['SPEC-3.2.3', 'SPEC-3.5.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-044', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.4'],
    title: 'add_preference works without a context',
    asserts: 'Adds a preference without context; the answer and the read-back have context null or omitted (not "").',
    async run({ bridge, check }) {
      const [p] = await addPreferences(bridge, check, [{ category: 'color', preference: 'Likes blue' }]);
      await checkPreferenceFound(bridge, check, p!, 'blue', 'color');
    },
  }),

  defineScenario({
    id: 'SCN-S-045', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.5'],
    title: 'a long preference text is kept whole',
    asserts: 'Adds a preference of about 12 000 characters; the answer and the search_preferences read-back give the text exactly, untruncated.',
    async run({ bridge, check }) {
      const text = `Prefers detailed explanations: ${LONG_CONTENT}`;
      const [p] = await addPreferences(bridge, check, [{ category: 'style', preference: text }]);
      await checkPreferenceFound(bridge, check, p!, 'detailed explanations', 'style');
    },
  }),

  defineScenario({
    id: 'SCN-S-046', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.6'],
    title: 'two preferences in one category are two preferences',
    asserts: 'Adds "Likes pizza" and "Dislikes sushi" in category food; the ids differ and search_preferences("pizza sushi", category=food) returns both.',
    async run({ bridge, check }) {
      const added = await addPreferences(bridge, check, [
        { category: 'food', preference: 'Likes pizza' },
        { category: 'food', preference: 'Dislikes sushi' },
      ]);
      check.distinct(added.map((p) => p.id), 'add_preference ×2 in category food: preference ids');
      for (const p of added) await checkPreferenceFound(bridge, check, p, 'pizza sushi', 'food', ['SPEC-3.2.6', 'SPEC-3.5.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-047', tier: 'silver', group: 'add_preference', clauses: ['SPEC-3.2.7'],
    title: 'add_preference returns a UUID id, the id under which it is stored',
    asserts: 'The id of a new preference is a UUID string and search_preferences returns the preference under that same id.',
    async run({ bridge, check }) {
      const p = await bridge.add_preference({ category: 'test', preference: 'UUID check' });
      check.uuid(p.id, 'add_preference: id');
      await checkPreferenceFound(bridge, check, p, 'UUID check', 'test', ['SPEC-3.5.1']);
    },
  }),

  defineScenario({
    id: 'SCN-S-012', tier: 'silver', group: 'add_fact', clauses: ['SPEC-3.3.1'],
    title: 'add_fact returns the triple it was given',
    asserts: 'Adds (Alice Johnson, WORKS_AT, Acme Corp); the answer has a UUID id and exactly that subject, predicate and object.',
    async run({ bridge, check }) {
      const f = await addFact(bridge, check, 'Alice Johnson', 'WORKS_AT', 'Acme Corp');
      check.by('SPEC-1.4.2').uuid(f.id, 'add_fact: id');
    },
  }),

  defineScenario({
    id: 'SCN-S-013', tier: 'silver', group: 'add_fact', clauses: ['SPEC-3.3.2'],
    title: 'several facts are stored independently',
    asserts: 'Adds four different facts; each answer holds its own triple and the four ids are distinct.',
    async run({ bridge, check }) {
      const facts = [
        ['Alice Johnson', 'WORKS_AT', 'Acme Corp'],
        ['Acme Corp', 'LOCATED_IN', 'San Francisco'],
        ['Bob Smith', 'KNOWS', 'Alice Johnson'],
        ['Laptop', 'OWNED_BY', 'Bob Smith'],
      ] as const;
      const added: Fact[] = [];
      for (const [s, p, o] of facts) added.push(await addFact(bridge, check, s, p, o));
      check.distinct(added.map((f) => f.id), 'add_fact ×4: fact ids');
    },
  }),

  defineScenario({
    id: 'SCN-S-048', tier: 'silver', group: 'add_fact', clauses: ['SPEC-3.3.3'],
    title: 'facts keep special and Unicode characters exactly',
    asserts: 'Adds a fact whose subject and object hold accents, CJK, emoji, combining marks, quotes and a newline; the answer gives them code unit for code unit.',
    async run({ bridge, check }) {
      await addFact(bridge, check, 'Café 世界 "quoted" \\ 👍🏽', 'LOCATED_IN', `París\n${UNICODE_CONTENT}`);
    },
  }),

  defineScenario({
    id: 'SCN-S-049', tier: 'silver', group: 'add_fact', clauses: ['SPEC-3.3.4'],
    title: 'add_fact returns a UUID id',
    asserts: 'The id of a new fact is a UUID string (8-4-4-4-12 hex).',
    async run({ bridge, check }) {
      const f = await addFact(bridge, check, 'A', 'KNOWS', 'B', ['SPEC-3.3.1']);
      check.uuid(f.id, 'add_fact: id');
    },
  }),

  defineScenario({
    id: 'SCN-S-050', tier: 'silver', group: 'add_fact', clauses: ['SPEC-3.3.5'],
    title: 'facts about one subject are stored independently',
    asserts: 'Adds (Alice, WORKS_AT, Acme) and (Alice, LIVES_IN, San Francisco); each answer holds its own triple and the ids differ.',
    async run({ bridge, check }) {
      const f1 = await addFact(bridge, check, 'Alice', 'WORKS_AT', 'Acme');
      const f2 = await addFact(bridge, check, 'Alice', 'LIVES_IN', 'San Francisco');
      check.notEqual(f2.id, f1.id, 'add_fact(subject="Alice") twice with different predicates: a new fact id');
    },
  }),
];
