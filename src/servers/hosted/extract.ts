// Entity extraction from message content (hosted-rest-api.md: the service "extracts entities
// automatically from message content"). The NLP is the `compromise` library's: people, places and
// organisations of English text; besides those, a noun the library tags whose spelling carries a
// capital after its first letter (TCKMercury, iPhone, NASA) is taken as a "concept", since such
// coined names are exactly what agents are told about and compromise tags them as plain nouns.
import nlp from 'compromise';

export type ExtractedType = 'person' | 'location' | 'organization' | 'concept';

export interface Extracted {
  name: string;
  type: ExtractedType;
}

/**
 * Trailing punctuation and a possessive that compromise keeps in a match's text, and lower-case
 * words at either end ("Where does Alice work?" makes it match "Alice work"): a name starts and
 * ends with a capitalised word, and keeps lower-case words only inside (University of Paris).
 */
function clean(text: string): string {
  const words = text.trim().replace(/['’]s$/u, '').replace(/[.,;:!?"')\]]+$/u, '').replace(/^["'([]+/u, '').split(/\s+/u);
  const capital = (w: string) => /^[\p{Lu}\p{N}]/u.test(w);
  while (words.length > 0 && !capital(words[0]!)) words.shift();
  while (words.length > 0 && !capital(words[words.length - 1]!)) words.pop();
  return words.join(' ');
}

/** The entities named in `text`, each once (first spelling wins, compared ignoring case). */
export function extractEntities(text: string): Extracted[] {
  const doc = nlp(text);
  const found: Extracted[] = [];
  const seen = new Set<string>();
  const add = (names: string[], type: ExtractedType) => {
    for (const raw of names) {
      const name = clean(raw);
      if (name.length < 2 || seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      found.push({ name, type });
    }
  };
  add(doc.people().out('array') as string[], 'person');
  add(doc.places().out('array') as string[], 'location');
  add(doc.organizations().out('array') as string[], 'organization');
  const coined = (doc.match('#Noun').out('array') as string[]).map(clean).filter((w) => /^\S+$/u.test(w) && /\p{Lu}/u.test(w.slice(1)));
  add(coined, 'concept');
  return found;
}
