// Entity extraction from message content (hosted-rest-api.md: the service "extracts entities
// automatically from message content"). The NLP is compromise's: its part-of-speech tagger and
// its people / places / organizations matchers. What it finds, with the hosted type given:
// - people -> "person", places -> "location", organizations -> "organization";
// - other proper-noun phrases (e.g. "Nobel Prize") -> "concept";
// - single nouns written like identifiers (an inner capital, or a capital and a digit, e.g.
//   "TCKMercury1a2b", "iPhone15", "GPT4"), which the tagger calls nouns but not proper nouns -> "concept".
// Pronouns and lone acronyms are left out. Names are deduplicated case-insensitively, first kept.
import { createRequire } from 'node:module';
import type nlpType from 'compromise';

// Loaded on the first extraction, not with the module: compromise's lexicon takes a good part of
// a second to load, which every `tck` command that reaches the hosted server code would pay.
let nlp: typeof nlpType | undefined;
const loadNlp = (): typeof nlpType => (nlp ??= createRequire(import.meta.url)('compromise') as typeof nlpType);

interface Extracted {
  name: string;
  /** A hosted (lower-case) entity type. */
  type: 'person' | 'location' | 'organization' | 'concept';
}

/**
 * The name in a match: up to the first bracket or sentence punctuation the matchers keep
 * ("Bob (tck-1" -> "Bob"), without leading or trailing punctuation ("Berlin." -> "Berlin"), and
 * without lower-case words at either end of a phrase, which the tagger sometimes pulls in
 * ("Where does Alice work?" -> "Alice work" -> "Alice"; "University of Paris" keeps its "of").
 */
function tidy(text: string): string {
  const words = (text.split(/[()[\]{}"\u201c\u201d,;:!?]/u).find((part) => part.trim() !== '') ?? '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
    .split(/\s+/);
  const lower = (w: string | undefined) => w !== undefined && /^\p{Ll}/u.test(w);
  while (words.length > 1 && lower(words.at(-1))) words.pop();
  while (words.length > 1 && lower(words[0])) words.shift();
  return words.join(' ').replace(/[^\p{L}\p{N}]+$/u, '');
}

/** An identifier-like token: an upper-case letter after the first character, or a capital then a digit. */
const IDENTIFIER = /^(?:.+\p{Lu}|\p{Lu}.*\p{N})/u;

/**
 * The characters of a message that are read: tagging costs about 0.1 ms a character, so a bulk add
 * of 100 long messages would otherwise hold the service for a minute.
 */
export const EXTRACT_MAX_CHARS = 2000;

/** The entities named in the first EXTRACT_MAX_CHARS characters of `text`. */
export function extractEntities(text: string): Extracted[] {
  const doc = loadNlp()(text.slice(0, EXTRACT_MAX_CHARS));
  const found: Extracted[] = [];
  const seen = new Set<string>();
  const add = (name: string, type: Extracted['type']) => {
    const n = tidy(name);
    if (n.length < 2 || seen.has(n.toLowerCase())) return;
    seen.add(n.toLowerCase());
    found.push({ name: n, type });
  };
  for (const n of doc.people().out('array') as string[]) add(n, 'person');
  for (const n of doc.places().out('array') as string[]) add(n, 'location');
  for (const n of doc.organizations().out('array') as string[]) add(n, 'organization');
  for (const n of doc.match('#ProperNoun+').not('#Pronoun').out('array') as string[]) add(n, 'concept');
  for (const n of doc.match('#Noun').not('(#Pronoun|#ProperNoun|#Acronym)').out('array') as string[]) {
    if (IDENTIFIER.test(tidy(n))) add(n, 'concept');
  }
  return found;
}
