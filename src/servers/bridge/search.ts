// Relevance scoring of the reference server, shared by search_messages, search_entities,
// search_preferences and get_similar_traces. The protocol leaves "relevance" and the meaning of
// `threshold` open; the reference uses a deterministic lexical similarity so that every answer can
// be predicted by a test:
//
//   tokens(text)  = the set of maximal runs of Unicode letters, marks and digits of the
//                   NFKC-normalised, lower-cased text ("Héllo, WORLD 42!" -> {héllo, world, 42});
//   sim(q, d)     = |Q ∩ D| / sqrt(|Q| · |D|)  — the cosine similarity of the binary token vectors
//                   (Otsuka–Ochiai coefficient), in [0, 1]; 0 when either set is empty;
//   score(q, doc) = the largest sim over the document's fields and over all fields joined
//                   (so an entity whose name is exactly the query scores 1 however long its
//                   description, and a query spanning two fields still scores high).
//
// A candidate is returned only when score > 0 (it shares at least one token with the query) and,
// when a threshold is given, score >= threshold. Identical token sets score 1, so at threshold 0.99
// only (near-)exact matches survive, and a query sharing no token with a document never returns it.
// Results are sorted by score descending, ties by insertion order, then cut to `limit`.

const TOKEN = /[\p{L}\p{M}\p{N}]+/gu;

/** The set of lower-case word tokens of a text. */
export function tokenize(text: string): Set<string> {
  const out = new Set<string>();
  // Stryker disable next-line MethodExpression: silent point search-relevance (src/engine/silent-points.ts), how text is scored is the server's: upper- instead of lower-case folding on both sides
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(TOKEN)) out.add(m[0]);
  return out;
}

/** Cosine similarity of two binary token vectors, in [0, 1]. */
export function similarity(query: ReadonlySet<string>, doc: ReadonlySet<string>): number {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: a shortcut; an empty set shares no token and scores 0 below anyway
  if (query.size === 0 || doc.size === 0) return 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: which set is iterated does not change the count of shared tokens
  const [small, large] = query.size <= doc.size ? [query, doc] : [doc, query];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  // Stryker disable next-line ConditionalExpression: equivalent: a shortcut; 0 / sqrt(n) is 0
  if (shared === 0) return 0;
  // Clamp: floating point may give 1.0000000000000002 for identical sets.
  // Stryker disable next-line ArithmeticOperator,MethodExpression: silent point search-relevance (src/engine/silent-points.ts), how text is scored is the server's
  return Math.min(1, shared / Math.sqrt(query.size * doc.size));
}

/** A searchable document: its fields, already tokenised (see `fieldTokens`). */
export type DocTokens = readonly ReadonlySet<string>[];

/** Tokenises each non-empty field and, when there are several, all of them joined. */
export function fieldTokens(fields: readonly (string | null | undefined)[]): DocTokens {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent: an empty field tokenizes to the empty set, which never raises a score
  const present = fields.filter((f): f is string => typeof f === 'string' && f !== '');
  const sets: ReadonlySet<string>[] = present.map(tokenize);
  // Stryker disable next-line BlockStatement,ConditionalExpression,EqualityOperator: silent point search-relevance (src/engine/silent-points.ts), how text is scored is the server's: whether all fields joined are scored too
  if (sets.length > 1) sets.push(new TokenUnion(sets.slice()));
  return sets;
}

/**
 * The tokens of several fields joined, as a view over their sets rather than a set of its own: a
 * stored entity keeps each of its tokens once (a 1 MiB description's joined set was as large as
 * its own). `has` asks each field; the size is counted once, when it is made.
 */
// Stryker disable all: silent point search-relevance: the joined fields' view only adds the score of all fields joined, which the line that makes it (fieldTokens) leaves to the server; its members are read by similarity() alone
class TokenUnion implements ReadonlySet<string> {
  readonly size: number;

  constructor(private readonly sets: readonly ReadonlySet<string>[]) {
    let size = 0;
    for (const _ of this) size++;
    this.size = size;
  }

  has(token: string): boolean {
    return this.sets.some((s) => s.has(token));
  }

  *[Symbol.iterator](): SetIterator<string> {
    for (let i = 0; i < this.sets.length; i++) {
      for (const t of this.sets[i]!) if (!this.earlier(i, t)) yield t;
    }
  }

  /** Whether a field before the i-th holds `token` (it was yielded there). */
  private earlier(i: number, token: string): boolean {
    for (let j = 0; j < i; j++) if (this.sets[j]!.has(token)) return true;
    return false;
  }

  // The rest of the ReadonlySet interface: similarity() and the hosted search only iterate a set and ask `has`.
  // Stryker disable all: equivalent: never called by the reference
  *entries(): SetIterator<[string, string]> {
    for (const t of this) yield [t, t];
  }

  keys(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  values(): SetIterator<string> {
    return this[Symbol.iterator]();
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const t of this) callback.call(thisArg, t, t, this);
  }
}
// Stryker restore all

/** The score of a document for a query: the best similarity over its token sets. */
export function score(query: ReadonlySet<string>, doc: DocTokens): number {
  let best = 0;
  for (const set of doc) {
    const s = similarity(query, set);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: silent point search-relevance (src/engine/silent-points.ts), how text is scored is the server's (and >= picks the same maximum)
    if (s > best) best = s;
  }
  return best;
}

interface RankOptions {
  limit?: number | null | undefined;
  threshold?: number | null | undefined;
}

/**
 * Ranks candidates (given in insertion order) for a query text: keeps those with score > 0 and
 * score >= threshold, sorts by score descending (stable, so ties keep insertion order) and applies
 * the limit. Returns the candidates with their scores.
 */
export function rank<T>(
  queryText: string,
  candidates: Iterable<T>,
  docOf: (candidate: T) => DocTokens,
  options: RankOptions = {},
): { item: T; score: number }[] {
  const { limit, threshold } = options;
  // Stryker disable next-line ArrayDeclaration,ConditionalExpression: equivalent: a shortcut; slice(0, 0) below gives no hits too
  if (limit === 0) return [];
  const query = tokenize(queryText);
  // Stryker disable next-line ArrayDeclaration,ConditionalExpression: equivalent: a shortcut; an empty query scores 0 against everything
  if (query.size === 0) return [];
  const hits: { item: T; score: number }[] = [];
  for (const item of candidates) {
    const s = score(query, docOf(item));
    // Stryker disable next-line ConditionalExpression,EqualityOperator: silent points search-topk (hits sharing no word) and search-relevance (where a threshold cuts)
    if (s > 0 && (threshold == null || s >= threshold)) hits.push({ item, score: s });
  }
  // Stryker disable next-line ArithmeticOperator,ArrowFunction,MethodExpression: silent points search-ties and list-order: the order of search results is the server's
  hits.sort((a, b) => b.score - a.score); // Array.prototype.sort is stable.
  // Stryker disable next-line ConditionalExpression: equivalent: slice(0, undefined) is the whole list
  return limit == null ? hits : hits.slice(0, limit);
}
