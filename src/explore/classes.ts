// The value classes of the coverage matrix (src/report/coverage.ts, docs/coverage.md) as explore
// values, for `tck explore --classes`: the keys a store that matches, filters or re-encodes them
// would merge (SQL LIKE wildcards, control characters, spaces at the edges, Cyrillic of one length,
// astral characters, quotes), texts of every string class, and numbers a single-precision or
// fixed-point store changes. Opt-in: without --classes the sequences of every seed are unchanged.
import fc from 'fast-check';
import { jsonObject } from './values.js';

/** Session ids in pairs that such a store would merge. */
const CLASS_SESSION_IDS = ['tck-a_c', 'tck-abc', 'tck-100%', 'tck-100x', 'ctl\u0001', 'ctl', ' pad ', 'pad', 'сессия', 'другая', 'q\'"\\', 'q', '🚀-1', '🛸-1'] as const;

/** One text of each string class (empty, long, control, NFC, NFD, non-Latin, astral, edge spaces, escapes). */
const CLASS_TEXTS = [
  '', 'x'.repeat(2_000), 'nul\u0000 bell\u0007 esc\u001b[31m del\u007f', 'Café crème', 'Cafe\u0301 cre\u0300me', 'Привет мир 你好 مرحبا',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🚀👩‍💻', '  edges  ', 'O\'Brien "quoted" \\ back <b>&amp;</b> 100% _sure_',
] as const;

/** Keys and labels of the same classes, in small pools so that they repeat within a sequence. */
const CLASS_KEYS = ['k_1', 'kx1', 'k%', 'k\u0001', 'k', ' k ', 'ключ', 'ключи', 'k🚀', 'k"\\'] as const;

/** Numbers a float32 or a DECIMAL(…, 2) store changes, and integers beyond 32 bits. */
const CLASS_NUMBERS = [0.1, 1 / 3, 16_777_217, 2 ** 31, 2 ** 53 - 1, -0.5, 1e-7, 123.456789] as const;

const texts = fc.constantFrom(...CLASS_TEXTS);
const keys = fc.constantFrom(...CLASS_KEYS);
/** JSON objects holding the class numbers and non-ASCII keys, beside explore's own. */
const classObject = fc.oneof(
  jsonObject,
  fc.record({ n: fc.constantFrom(...CLASS_NUMBERS), 'ключ': fc.constantFrom(...CLASS_NUMBERS), nested: fc.record({ v: fc.constantFrom(...CLASS_NUMBERS) }) }),
);

/** Values by parameter name that replace explore's (PARAM_VALUES of commands.ts) in a --classes sequence. */
export const CLASS_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  session_id: fc.constantFrom(...CLASS_SESSION_IDS),
  content: texts, query: fc.oneof(texts, keys), description: texts, preference: texts, context: texts, obj: texts,
  thought: texts, observation: texts, outcome: texts, reasoning: texts, error: texts,
  name: keys, category: keys, subject: keys, predicate: keys, relationship_type: keys, tool_name: keys, task: keys, canonical_name: keys, user_id: keys, action: keys, action_taken: keys,
  metadata: classObject, arguments: classObject, properties: classObject,
  duration_ms: fc.constantFrom(0, 1, 2 ** 31, 86_400_000),
  user_score: fc.constantFrom(0, 0.1, 1 / 3, 1),
  threshold: fc.constantFrom(0, 0.1, 1 / 3),
};
