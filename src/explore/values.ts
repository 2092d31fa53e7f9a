// The inputs explore draws from: realistic values and nasty ones, as fast-check arbitraries.
// Small pools on purpose: sessions, texts and names repeat, so sequences pile many messages into
// one session, search for what was stored, and meet ids that differ only in case or a space.
import fc from 'fast-check';

/** Session ids: a few realistic ones, and ones that differ only in case or a trailing space. */
export const SESSION_IDS = ['s-1', 's-2', 'Alice', 'alice', 'alice ', 'سلام-٣'] as const;
/**
 * A session id, the first as often as all the others together: most messages of a sequence meet
 * in one session (deletes, limits and clears then act on a longer conversation).
 */
export const ONE_SESSION_MOSTLY = fc.oneof({ arbitrary: fc.constant(SESSION_IDS[0]), weight: SESSION_IDS.length - 1 }, { arbitrary: fc.constantFrom(...SESSION_IDS.slice(1)), weight: 1 });

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
  '',
  'x'.repeat(5000),
] as const;

/** Queries that share no word with any text above: at a high threshold they must find nothing. */
export const NO_MATCH_QUERIES = ['zyzzyva quokka'] as const;

const WORDS = ['graph', 'nodes', 'dark', 'Acme', 'café', 'deploy'] as const;

export const NAMES = ['Alice', 'alice', 'Acme Corp', 'Zoë', 'Ünïcödé', 'Bob '] as const;

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
  object: fc.dictionary(fc.constantFrom('a', 'b', 'nested', '', 'ключ'), tie('value'), { maxKeys: 3 }),
})).object as fc.Arbitrary<Record<string, unknown>>;

export { text };
