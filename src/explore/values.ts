// The inputs explore draws from: realistic values and nasty ones, as fast-check arbitraries.
// Small pools on purpose: sessions, texts and names repeat, so sequences pile many messages into
// one session, search for what was stored, and meet values that are prefixes or case variants of
// each other (where a LIKE, a collation or a trim hides), and fractions that do not come out even.
import fc from 'fast-check';

/**
 * Session ids: realistic ones, and namesakes: ones that are prefixes of each other (s-1, s-10),
 * differ only in case (Alice, alice, ALICE), by a trailing space, by Unicode normal form (Café
 * precomposed and decomposed), or by a LIKE wildcard where another has a character (s_1, s-1).
 * Histories (history.ts) add the namesakes of any key they read.
 */
export const SESSION_IDS = ['s-1', 's-10', 's-2', 'Alice', 'alice', 'ALICE', 'alice ', 'سلام-٣', 's_1', 'Caf\u00e9', 'Cafe\u0301'] as const;
/**
 * A session id, the first as often as all the others together: most messages of a sequence meet
 * in one session (deletes, limits and clears then act on a longer conversation), next to its
 * prefixes and case variants.
 */
export const sessionFocus = fc.oneof({ arbitrary: fc.constant(SESSION_IDS[0]), weight: SESSION_IDS.length - 1 }, { arbitrary: fc.constantFrom(...SESSION_IDS.slice(1)), weight: 1 });

export const CATEGORIES = ['ui', 'ui-dark', 'UI', 'food'] as const;
/** Durations whose means are fractions that do not round evenly (1/3, 2/3 …) and very long ones. */
export const DURATIONS = [0, 1, 2, 250, 333, 86_400_000] as const;
export const RELATIONSHIP_TYPES = ['KNOWS', 'knows', 'KNOWS_WELL', 'WORKS_AT'] as const;
export const TASKS = ['plan a trip', 'summarise the meeting', 'Plan a trip', 'plan a trip abroad', 'deploy 🚀'] as const;
export const TOOL_NAMES = ['search', 'Search', 'search_web', 'calculator'] as const;
/** Limits around the size of the lists a sequence builds, and past the usual default pages (10, 20). */
export const LIMITS = fc.oneof({ arbitrary: fc.nat({ max: 6 }), weight: 4 }, { arbitrary: fc.constantFrom(10, 11, 20, 21, 25, 100), weight: 1 });

/** Texts: realistic sentences and nasty strings (combining marks, emoji, RTL, whitespace). */
const TEXTS = [
  'graph databases store nodes',
  'the user prefers dark mode',
  'meeting with Acme at noon',
  'graph nodes',
  'Cafe\u0301 au lait',
  'Café au lait',
  '👩‍💻 deploy 🚀 done',
  'مرحبا بالعالم',
  '  leading and trailing  ',
  'tab\tand\nnewline',
  // C0 controls: NUL (a store of C strings cuts there), BEL, ESC, DEL; read back exactly.
  'nul\u0000 byte',
  'bell\u0007 esc\u001b[0m del\u007f',
  '',
  'x'.repeat(5000),
] as const;

/** Queries that share no word with any text above: at a high threshold they must find nothing. */
export const NO_MATCH_QUERIES = ['zyzzyva quokka'] as const;

const WORDS = ['graph', 'nodes', 'dark', 'Acme', 'café', 'deploy'] as const;

/** Names, with namesakes: case (Alice Smith, alice smith), normal form (Zoë precomposed and decomposed), a trailing space. */
export const NAMES = ['Alice', 'alice', 'Alice Smith', 'alice smith', 'Acme Corp', 'Zo\u00eb', 'Zoe\u0308', 'Ünïcödé', 'Bob ', 'Bob'] as const;

const text = fc.constantFrom(...TEXTS);
/** A query: a stored text (exact), one of its words, or a word stored nowhere. */
export const query = fc.oneof(text, fc.constantFrom(...WORDS), fc.constantFrom(...NO_MATCH_QUERIES), fc.constantFrom(...NAMES));

const scalar = fc.oneof(
  fc.constantFrom(false, 0, '', true, -1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1.5, 'x', 'ß'),
  fc.constant(null),
);
/** Nested JSON metadata with false, 0, "", big integers and nulls at every level. */
export const jsonObject = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('object'), fc.array(tie('value'), { maxLength: 3 })),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'nested', '', 'ключ', 'snake_key', 'camelKey', 'A'), tie('value'), { maxKeys: 3 }),
})).object as fc.Arbitrary<Record<string, unknown>>;

export { text };
