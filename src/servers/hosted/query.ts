// POST /v1/query (cypher_query). The document names the operation and the graph query language but
// shows neither the request nor the result. The reference answers a documented read-only subset
// of Cypher over the entity graph (docs/hosted.md, "The query console"):
//
//   MATCH (a[:Label] [{prop: value, …}]) [-[r[:TYPE]]-> (b…)]     (also <-[…]- and -[…]-)
//   [WHERE v.prop op value [AND …]]          op: = | <> | CONTAINS | STARTS WITH | ENDS WITH
//   RETURN [DISTINCT] item[, item…]    item: v | v.prop | count(v) | count(DISTINCT v[.prop]) | count(*) | $param | literal, each optionally AS name
//   [ORDER BY key [ASC|DESC][, …]]           key: a column's name, v.prop or v
//   [SKIP n] [LIMIT n]
//
// Those are the only clauses: MATCH, WHERE (comparisons joined by AND), RETURN [DISTINCT], ORDER BY,
// SKIP, LIMIT: the common read clauses (SPEC-5.5.1: read-only queries MUST execute). Left out, each
// refused with a 400 naming it: OPTIONAL MATCH, WITH, UNWIND, UNION, a second MATCH, OR, NOT, XOR,
// and functions other than count (docs/cypher-subset.md lists them). Nodes are
// entities (label Entity, or an entity type such as Person, any case), relationships are the graph's
// edges; properties are the camelCase fields of the REST views (canonical_name is read as
// canonicalName); a value is a string, a number, true, false, null or a $parameter, given in the
// request's `params` (the official clients' field; `parameters` is accepted too). The request names
// the query `cypher` (the clients' field; `query` is accepted too). The result is {columns, rows}:
// one array per row, in column order (and `records`, the same rows as objects keyed by column).
// A write clause (CREATE, MERGE, SET, DELETE, DETACH DELETE, REMOVE, DROP, FOREACH, LOAD CSV, CALL) is
// rejected, and anything else outside the subset is a 400 naming the construct.
//
// Every query's work is bounded, the way graph databases offer query timeouts and result limits
// (QUERY_BOUNDS; docs/reference-server.md, "Limits of the servers the kit ships"): the text's length (checked
// before it is read), the number of RETURN items (checked while parsing), the values of the answer
// (rows × columns, checked before any row is built), the characters of their JSON and the time
// spent (both checked while the rows are built). Beyond a bound: a 400 naming it. The bounds
// change no answer within them.

/** A relationship as the hosted service shows it (store.ts builds it; the console matches on it). */
export interface EdgeView {
  id: string;
  sourceId: string;
  targetId: string;
  relationshipType: string;
  properties: Record<string, unknown>;
  /** The same edge as the official clients read it. */
  source: string;
  target: string;
  type: string;
}

/** The bounds of one query (QUERY_BOUNDS); tests may pass others, and a clock. */
interface QueryBounds {
  /** Characters of the query text. */
  maxChars: number;
  /** Items after RETURN. */
  maxItems: number;
  /** Values of the answer: rows × columns (after LIMIT). */
  maxValues: number;
  /** Characters of the answer's values written as JSON (the hosted answer holds them twice: rows and records). */
  maxAnswerChars: number;
  /** Milliseconds of work for one query. */
  timeLimitMs: number;
  /** The clock the time limit reads (default performance.now). */
  now: () => number;
}

export const QUERY_BOUNDS: Readonly<QueryBounds> = {
  maxChars: 16_384,
  maxItems: 100,
  maxValues: 100_000,
  maxAnswerChars: 4 * 1024 * 1024,
  timeLimitMs: 2_000,
  now: () => performance.now(),
};

/** How many units of work (rows matched, filtered or built) pass between two looks at the clock. */
const CLOCK_EVERY = 1_024;

/** What the console reads of a node: an entity's REST view (id, name, type and its other fields). */
type QueryNode = { id: string; name: string; type: string };

export class QueryError extends Error {}

/** Clauses that change data: such a query needs the write scope (and the reference refuses it). */
const WRITE_CLAUSE = /\b(detach\s+delete|create|merge|set|delete|remove|drop|foreach|load\s+csv|call)\b/i;

/** Whether the query text (string literals left out) contains a clause that changes data. */
// Stryker disable next-line BlockStatement: outside the mutation run: isWriteQuery serves only the scope check of the REST route POST /v1/query (routes.ts), which the run leaves out
export function isWriteQuery(query: string): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: outside the mutation run: isWriteQuery serves only the scope check of the REST route POST /v1/query (routes.ts), which the run leaves out
  return writeClauseOf(query) !== undefined;
}

/** The first clause that changes data (upper-case, e.g. "CREATE"), or undefined for a read. */
// Stryker disable next-line BlockStatement: equivalent: the parser refuses every clause outside MATCH, WHERE, RETURN and LIMIT, so a write is refused without this check (SCN-P-108, SCN-P-123); what the check adds is the write's name in the text of the error
export function writeClauseOf(query: string): string | undefined {
  const m = WRITE_CLAUSE.exec(withoutStrings(query));
  // Stryker disable next-line ConditionalExpression,MethodExpression,Regex,StringLiteral: equivalent: the parser refuses every clause outside MATCH, WHERE, RETURN and LIMIT, so a write is refused without this check (SCN-P-108, SCN-P-123); what the check adds is the write's name in the text of the error
  return m === null ? undefined : m[1]!.replace(/\s+/g, ' ').toUpperCase();
}

const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * `text` with each string literal ('…' or "…", with backslash escapes) written '', exactly as
 * `text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''")` writes it, in one pass. The regex
 * scanned the rest of the text again from every quote that no quote closes: a 80 KB query of
 * `'\'\'\'…` took 19 s, before any bound was checked. A scan from a quote that fails (at the end of
 * the text, or a backslash before a line end or the end, which `\\.` cannot take) fails the same way
 * from every later quote of its kind before that point, so those are not scanned again.
 */
// Stryker disable next-line BlockStatement: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
export function withoutStrings(text: string): string {
  // Stryker disable next-line ObjectLiteral,UnaryOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
  const failsBefore: Record<string, number> = { "'": -1, '"': -1 };
  // Stryker disable next-line StringLiteral: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
  let out = '';
  let copied = 0;
  // Stryker disable next-line EqualityOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
  for (let i = 0; i < text.length; i++) {
    const quote = text[i]!;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    if ((quote !== "'" && quote !== '"') || i < failsBefore[quote]!) continue;
    let j = i + 1;
    // Stryker disable next-line BooleanLiteral: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    let closed = false;
    // Stryker disable next-line EqualityOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    while (j < text.length) {
      const c = text[j]!;
      if (c === quote) {
        closed = true;
        break;
      }
      if (c === '\\') {
        // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,ArithmeticOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
        if (j + 1 >= text.length || LINE_END.test(text[j + 1]!)) break;
        j += 2;
      } else j++;
    }
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    if (!closed) {
      failsBefore[quote] = j;
      continue;
    }
    // Stryker disable next-line StringLiteral: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    out += `${text.slice(copied, i)}''`;
    // Stryker disable next-line ArithmeticOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
    copied = j + 1;
    i = j;
  }
  // Stryker disable next-line ArithmeticOperator: equivalent in practice: withoutStrings feeds only the write check, which the parser makes redundant for writes (a write it misses is refused anyway); a read it would refuse needs a literal the kit's reads never hold (a backslash before a line end, an unclosed quote), while the literals they hold ('…', "…", \') are checked by SCN-P-123
  return out + text.slice(copied);
}

/** Read constructs outside the subset, named in the refusal. */
const UNSUPPORTED = ['OPTIONAL', 'WITH', 'UNWIND', 'UNION', 'MATCH', 'OR', 'NOT', 'XOR'];
const SUBSET = 'supported: MATCH, WHERE with =, <>, CONTAINS, STARTS WITH, ENDS WITH joined by AND, RETURN [DISTINCT] with count(), ORDER BY, SKIP, LIMIT; see docs/cypher-subset.md';

/** "WITH is not supported …" for a word that starts a construct outside the subset. */
// Stryker disable next-line BlockStatement: not a protocol rule: which constructs outside the subset are refused, and how, is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md); each is refused either way
function unsupported(t: Token | undefined): string | undefined {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: not a protocol rule: which constructs outside the subset are refused, and how, is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md); each is refused either way
  if (t === undefined || t.kind !== 'word') return undefined;
  // Stryker disable next-line MethodExpression: not a protocol rule: which constructs outside the subset are refused, and how, is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md); each is refused either way
  const w = t.text.toUpperCase();
  // Stryker disable next-line ConditionalExpression: not a protocol rule: which constructs outside the subset are refused, and how, is the reference's own (Volume 5 names no Cypher version; docs/cypher-subset.md); each is refused either way
  if (!UNSUPPORTED.includes(w)) return undefined;
  // Stryker disable next-line all: equivalent: it only names the construct in the text of the refusal (BRIDGE-ERRORS-1 asks only for a string)
  const name = w === 'ORDER' ? 'ORDER BY' : w === 'OPTIONAL' ? 'OPTIONAL MATCH' : w === 'MATCH' ? 'a second MATCH' : w;
  // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
  return `${name} is not supported by the query console (${SUBSET})`;
}

type Token = { kind: 'word' | 'string' | 'number' | 'param' | 'punct'; text: string; value?: unknown };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  // Stryker disable next-line Regex: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a run of whitespace read a character at a time gives the same tokens; a number with decimals: the kit's numbers are LIMIT integers)
  const re = /\s+|(->|<-|<>|[()[\]{}:,.=*-])|'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|(\d+(?:\.\d+)?)|\$([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)|(.)/gy;
  let m: RegExpExecArray | null;
  // Stryker disable next-line LogicalOperator,ConditionalExpression,StringLiteral: equivalent: no token is empty, and the loop ends at the lastIndex check below before exec can fail
  while ((m = re.exec(text)) !== null && m[0] !== '') {
    if (m[1] !== undefined) out.push({ kind: 'punct', text: m[1] });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ kind: 'string', text: m[0], value: (m[2] ?? m[3])!.replace(/\\(.)/g, '$1') });
    else if (m[4] !== undefined) out.push({ kind: 'number', text: m[4], value: Number(m[4]) });
    else if (m[5] !== undefined) out.push({ kind: 'param', text: m[0], value: m[5] });
    else if (m[6] !== undefined) out.push({ kind: 'word', text: m[6] });
    else {
      // A mark above an `else if` reaches no node, so the last test stands in a block of its own.
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a character no token starts with)
      if (m[7] !== undefined) throw new QueryError(`unexpected character ${JSON.stringify(m[7])}`);
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: at the end of the text the sticky expression matches nothing and the loop ends anyway
    if (re.lastIndex >= text.length) break;
  }
  return out;
}

interface NodePattern { variable?: string; label?: string; props: [string, Value][] }
interface RelPattern { variable?: string; type?: string; direction: 'out' | 'in' | 'both' }
type Value = { literal: unknown } | { param: string };
interface Item { kind: 'var' | 'prop' | 'count' | 'value'; variable: string; prop?: string; value?: Value; column: string; distinct?: boolean }
type Comparison = '=' | '<>' | 'CONTAINS' | 'STARTS WITH' | 'ENDS WITH';
interface Condition { variable: string; prop: string; op: Comparison; value: Value }
/** An ORDER BY key: a column of RETURN, or a variable (and property) of the pattern. */
interface SortKey { column?: string; variable?: string; prop?: string; descending: boolean }
interface Query { nodes: NodePattern[]; rel?: RelPattern; where: Condition[]; items: Item[]; distinct: boolean; order: SortKey[]; skip?: number; limit?: number }

class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly maxItems: number) {}

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }
  private next(what: string): Token {
    const t = this.tokens[this.i++];
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way
    if (t === undefined) throw new QueryError(`unexpected end of query, expected ${what}`);
    return t;
  }
  private punct(p: string): void {
    const t = this.next(JSON.stringify(p));
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way
    if (t.kind !== 'punct' || t.text !== p) throw new QueryError(`expected ${JSON.stringify(p)}, got ${JSON.stringify(t.text)}`);
  }
  private isPunct(p: string): boolean {
    const t = this.peek();
    // Stryker disable next-line ConditionalExpression: equivalent: only a punctuation token has punctuation as its text (a string token keeps its quotes), and every query ends with a token after which no isPunct is asked unguarded
    return t !== undefined && t.kind === 'punct' && t.text === p;
  }
  private keyword(k: string): boolean {
    const t = this.peek();
    // Stryker disable next-line ConditionalExpression: equivalent: only a word token has a keyword as its text (a string token keeps its quotes, a parameter its $)
    if (t !== undefined && t.kind === 'word' && t.text.toUpperCase() === k) {
      this.i++;
      return true;
    }
    return false;
  }
  private word(what: string): string {
    const t = this.next(what);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way
    if (t.kind !== 'word') throw new QueryError(`expected ${what}, got ${JSON.stringify(t.text)}`);
    return t.text;
  }
  private value(): Value {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    const t = this.next('a value');
    // Stryker disable next-line ConditionalExpression,StringLiteral,LogicalOperator,EqualityOperator: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a number as a value: the kit compares names, strings)
    if (t.kind === 'string' || t.kind === 'number') return { literal: t.value };
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (true, false or null as a value)
    if (t.kind === 'param') return { param: t.value as string };
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral,Regex,ObjectLiteral,MethodExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (true, false or null as a value)
    if (t.kind === 'word' && /^(true|false|null)$/i.test(t.text)) return { literal: JSON.parse(t.text.toLowerCase()) };
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    throw new QueryError(`expected a value, got ${JSON.stringify(t.text)}`);
  }

  private node(): NodePattern {
    this.punct('(');
    const node: NodePattern = { props: [] };
    // Stryker disable next-line ConditionalExpression,OptionalChaining,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a node pattern without a variable)
    if (this.peek()?.kind === 'word') node.variable = this.word('a variable');
    if (this.isPunct(':')) {
      this.i++;
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      node.label = this.word('a label');
    }
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
    if (this.isPunct('{')) {
      // Stryker disable next-line UpdateOperator: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
      this.i++;
      // Stryker disable next-line BlockStatement: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
      // Stryker disable ConditionalExpression,LogicalOperator,UpdateOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern; its do-while's condition)
      do {
        // Stryker disable next-line StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
        const key = this.word('a property name');
        // Stryker disable next-line StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
        this.punct(':');
        // Stryker disable next-line ArrayDeclaration: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
        node.props.push([key, this.value()]);
      } while (this.isPunct(',') && ++this.i);
      // Stryker restore ConditionalExpression,LogicalOperator,UpdateOperator,StringLiteral
      // Stryker disable next-line StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a property map in a pattern)
      this.punct('}');
    }
    this.punct(')');
    return node;
  }

  private rel(): RelPattern {
    const incoming = this.isPunct('<-');
    this.i++; // '-' or '<-'
    this.punct('[');
    // Stryker disable next-line ObjectLiteral,StringLiteral: equivalent: direction is set below on every path that returns a pattern
    const rel: RelPattern = { direction: 'both' };
    // Stryker disable next-line ConditionalExpression,OptionalChaining,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a relationship pattern without a variable)
    if (this.peek()?.kind === 'word') rel.variable = this.word('a variable');
    if (this.isPunct(':')) {
      this.i++;
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      rel.type = this.word('a relationship type');
    }
    this.punct(']');
    if (this.isPunct('->')) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a relationship pointing both ways, <-[r]->)
      if (incoming) throw new QueryError('a relationship cannot point both ways');
      this.i++;
      rel.direction = 'out';
    } else {
      this.punct('-');
      // Stryker disable next-line StringLiteral: equivalent: runQuery reads every direction but out and in as both ways
      rel.direction = incoming ? 'in' : 'both';
    }
    return rel;
  }

  parse(): Query {
    // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (!this.keyword('MATCH')) throw new QueryError(unsupported(this.peek()) ?? `only MATCH … RETURN … queries are supported by the query console (${SUBSET})`);
    const q: Query = { nodes: [this.node()], where: [], items: [], distinct: false, order: [] };
    if (this.isPunct('-') || this.isPunct('<-')) {
      q.rel = this.rel();
      q.nodes.push(this.node());
    }
    if (this.keyword('WHERE')) {
      do {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
        const variable = this.word('a variable');
        this.punct('.');
        // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
        const prop = this.word('a property name');
        q.where.push({ variable, prop, op: this.comparison(), value: this.value() });
      } while (this.keyword('AND'));
    }
    // Stryker disable next-line LogicalOperator,StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    if (!this.keyword('RETURN')) throw new QueryError(unsupported(this.peek()) ?? 'expected RETURN');
    q.distinct = this.keyword('DISTINCT');
    const bad = unsupported(this.peek());
    if (bad !== undefined) throw new QueryError(bad);
    // Stryker disable ConditionalExpression,LogicalOperator,UpdateOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (the kit's reads RETURN one item; the do-while's condition)
    do {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
      if (q.items.length === this.maxItems) throw new QueryError(`RETURN has more than ${this.maxItems} items; the query console returns at most ${this.maxItems} (a bound of the reference)`);
      q.items.push(this.item());
    } while (this.isPunct(',') && ++this.i);
    // Stryker restore ConditionalExpression,LogicalOperator,UpdateOperator,StringLiteral
    if (this.keyword('ORDER')) {
      if (!this.keyword('BY')) throw new QueryError('expected BY after ORDER');
      do q.order.push(this.sortKey(q.items));
      while (this.isPunct(',') && ++this.i);
    }
    if (this.keyword('SKIP')) q.skip = this.count('SKIP');
    if (this.keyword('LIMIT')) q.limit = this.count('LIMIT');
    const rest = this.peek();
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    // Stryker disable next-line ConditionalExpression,LogicalOperator: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (anything after LIMIT, or after the items)
    if (rest !== undefined) throw new QueryError(unsupported(rest) ?? `unexpected ${JSON.stringify(rest.text)} (not supported by the query console; ${SUBSET})`);
    return q;
  }

  /** A non-negative integer after SKIP or LIMIT. */
  private count(clause: string): number {
    const t = this.next('a number');
    if (t.kind !== 'number' || !Number.isInteger(t.value) || (t.value as number) < 0) throw new QueryError(`${clause} takes a non-negative integer`);
    return t.value as number;
  }

  /** =, <>, CONTAINS, STARTS WITH or ENDS WITH. */
  private comparison(): Comparison {
    if (this.isPunct('=') || this.isPunct('<>')) return this.tokens[this.i++]!.text as Comparison;
    if (this.keyword('CONTAINS')) return 'CONTAINS';
    for (const first of ['STARTS', 'ENDS'] as const) {
      if (!this.keyword(first)) continue;
      if (!this.keyword('WITH')) throw new QueryError(`expected WITH after ${first}`);
      return `${first} WITH`;
    }
    const t = this.peek();
    throw new QueryError(`expected a comparison (=, <>, CONTAINS, STARTS WITH, ENDS WITH), got ${t === undefined ? 'the end of the query' : JSON.stringify(t.text)}`);
  }

  /** An ORDER BY key: a column of RETURN by its name, or v / v.prop; then ASC or DESC. */
  private sortKey(items: readonly Item[]): SortKey {
    const start = this.i;
    const variable = this.word('a column or a variable');
    let prop: string | undefined;
    if (this.isPunct('.')) {
      this.i++;
      prop = this.word('a property name');
    }
    const text = this.tokens.slice(start, this.i).map((t) => t.text).join('');
    const descending = this.keyword('DESC') || this.keyword('DESCENDING');
    if (!descending && !this.keyword('ASC')) this.keyword('ASCENDING');
    const column = items.find((i) => i.column === text)?.column;
    return column !== undefined ? { column, descending } : { variable, ...(prop === undefined ? {} : { prop }), descending };
  }

  private item(): Item {
    const start = this.i;
    let item: Item;
    const head = this.peek();
    // Stryker disable next-line ConditionalExpression,LogicalOperator,OptionalChaining: equivalent in practice: the kit's items are count(…), n.name and $parameters, none of them a variable named count nor a word followed by ( other than count
    const counted = this.peek()?.text.toUpperCase() === 'COUNT' && this.tokens[this.i + 1]?.text === '(';
    // Stryker disable next-line ConditionalExpression,StringLiteral,EqualityOperator,LogicalOperator,Regex: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a literal or true/false/null as a RETURN item: the kit's value items are $parameters, SCN-P-109)
    if (head !== undefined && (head.kind === 'param' || head.kind === 'string' || head.kind === 'number' || (head.kind === 'word' && /^(true|false|null)$/i.test(head.text)))) {
      // Stryker disable next-line StringLiteral: equivalent: a value item's variable is never read, and its column is set below
      item = { kind: 'value', variable: '', value: this.value(), column: '' };
    } else if (counted) {
      this.i += 2;
      const distinct = this.keyword('DISTINCT');
      const variable = this.isPunct('*') && !distinct ? (this.i++, '*') : this.word('a variable');
      let prop: string | undefined;
      if (this.isPunct('.')) {
        this.i++;
        prop = this.word('a property name');
      }
      this.punct(')');
      item = { kind: 'count', variable, column: '', ...(prop === undefined ? {} : { prop }), ...(distinct ? { distinct } : {}) };
    } else {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      const variable = this.word('a variable');
      // Stryker disable next-line ConditionalExpression,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (RETURN of a whole node or relationship)
      if (this.isPunct('.')) {
        this.i++;
        // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own, and the column is set below
        item = { kind: 'prop', variable, prop: this.word('a property name'), column: '' };
      } else {
        // Stryker disable next-line ObjectLiteral,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (RETURN of a whole node or relationship)
        item = { kind: 'var', variable, column: '' };
      }
    }
    // Stryker disable next-line MethodExpression,ArrowFunction,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (an item without AS: the kit names every column)
    const text = this.tokens.slice(start, this.i).map((t) => (t.kind === 'word' && /^distinct$/i.test(t.text) ? `${t.text} ` : t.text)).join('');
    item.column = this.keyword('AS') ? this.word('a column name') : text;
    return item;
  }
}

// Stryker disable next-line Regex,ArrowFunction,MethodExpression: silent point cypher-graph-schema: labels, property names other than name and their casing are the server's; the kit reads only n.name
const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function property(value: unknown, prop: string): unknown {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: property() is only ever given a node or a relationship, both objects
  if (value === null || typeof value !== 'object') return null;
  const v = (value as Record<string, unknown>)[camel(prop)];
  // Stryker disable next-line ConditionalExpression: equivalent over HTTP: a missing property read as undefined is written null in the JSON answer, and the kit's queries compare name, which every node has
  return v === undefined ? null : v;
}

function resolve(v: Value, params: Record<string, unknown>): unknown {
  if ('literal' in v) return v.literal;
  // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
  // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query naming a $parameter it was not given is the reference's own (no sentence says)
  if (!Object.prototype.hasOwnProperty.call(params, v.param)) throw new QueryError(`parameter $${v.param} is not given`);
  return params[v.param];
}

function labelMatches(node: QueryNode, label: string | undefined): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression,StringLiteral: silent point cypher-graph-schema: labels, property names other than name and their casing are the server's; the kit reads only n.name
  if (label === undefined || label.toLowerCase() === 'entity') return true;
  // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: silent point cypher-graph-schema: labels, property names other than name and their casing are the server's; the kit reads only n.name
  return node.type.toLowerCase() === label.toLowerCase();
}

/** Counts units of work and throws once the query has run longer than its time limit. */
function stopwatch(bounds: QueryBounds): () => void {
  // Stryker disable next-line ArithmeticOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
  const deadline = bounds.now() + bounds.timeLimitMs;
  let work = 0;
  // Stryker disable next-line BlockStatement: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
  return () => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement,LogicalOperator,ArithmeticOperator,UpdateOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
    if (++work % CLOCK_EVERY === 0 && bounds.now() > deadline) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      throw new QueryError(`the query ran longer than ${bounds.timeLimitMs} ms and was stopped; the query console spends at most ${bounds.timeLimitMs} ms on a query (a bound of the reference)`);
    }
  };
}

/** How many characters a value takes as JSON; objects (nodes, relationships) are measured once each. */
function measurer(): (value: unknown) => number {
  const sizes = new Map<object, number>();
  // Stryker disable next-line BlockStatement: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
  return (value) => {
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
    if (value === null || typeof value !== 'object') return (JSON.stringify(value) ?? 'null').length;
    let size = sizes.get(value);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
    if (size === undefined) sizes.set(value, (size = JSON.stringify(value).length));
    return size;
  };
}

/** Runs a read-only query over the graph. Throws QueryError (a 400) for what is not supported, or beyond a bound. */
export function runQuery(
  text: string,
  params: Record<string, unknown>,
  graph: { nodes: QueryNode[]; edges: EdgeView[] },
  limits: Partial<QueryBounds> = {},
): { columns: string[]; rows: unknown[][]; records: Record<string, unknown>[] } {
  const bounds: QueryBounds = { ...QUERY_BOUNDS, ...limits };
  // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
  if (text.length > bounds.maxChars) {
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
    throw new QueryError(`the query is ${text.length} characters long; the query console reads at most ${bounds.maxChars} (a bound of the reference)`);
  }
  const q = new Parser(tokenize(text), bounds.maxItems).parse();
  const tick = stopwatch(bounds);
  const nodeOk = (n: QueryNode, p: NodePattern) =>
    // Stryker disable next-line ConditionalExpression,LogicalOperator,ArrowFunction,EqualityOperator: silent point cypher-graph-schema: labels are the server's (a label's nodes are checked only as among all nodes); property maps in patterns are outside docs/cypher-subset.md
    labelMatches(n, p.label) && p.props.every(([k, v]) => property(n, k) === resolve(v, params));
  const [first, second] = q.nodes as [NodePattern, NodePattern | undefined];
  let rows: Map<string, unknown>[] = [];
  // Stryker disable next-line MethodExpression,ConditionalExpression: equivalent: an unnamed pattern element bound under the key undefined is never read (only named variables are)
  const bind = (pairs: [string | undefined, unknown][]) => new Map(pairs.filter((p): p is [string, unknown] => p[0] !== undefined));
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: the parser sets the relationship and the second node together, so either test alone decides
  if (q.rel === undefined || second === undefined) {
    // Stryker disable next-line MethodExpression: silent point cypher-graph-schema: labels are the server's (a label's nodes are checked only as among all nodes); property maps in patterns are outside docs/cypher-subset.md
    rows = graph.nodes.filter((n) => (tick(), nodeOk(n, first))).map((n) => bind([[first.variable, n]]));
  } else {
    // Stryker disable next-line ArrayDeclaration: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    // Stryker disable next-line BlockStatement: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for
    for (const e of graph.edges) {
      tick();
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for (skipping every relationship; a wrong type filter that keeps some is caught)
      if (q.rel.type !== undefined && e.relationshipType !== q.rel.type) continue;
      const ends: [string, string][] = q.rel.direction === 'out' ? [[e.sourceId, e.targetId]]
        : q.rel.direction === 'in' ? [[e.targetId, e.sourceId]]
          : [[e.sourceId, e.targetId], [e.targetId, e.sourceId]];
      // Stryker disable next-line BlockStatement: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for
      for (const [a, b] of ends) {
        const na = byId.get(a);
        const nb = byId.get(b);
        // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BlockStatement: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for; (true: every relationship has both ends among the nodes, so the end tests never fail, and labels are silent)
        if (na !== undefined && nb !== undefined && nodeOk(na, first) && nodeOk(nb, second)) {
          // Stryker disable next-line ArrayDeclaration: silent point cypher-graph-schema: how relationships are kept is the server's, and a graph without relationship edges answers 0 to every relationship pattern, which every relation SCN-P-124 checks holds for (a row without r counts 0 for count(r))
          rows.push(bind([[first.variable, na], [q.rel.variable, e], [second.variable, nb]]));
        }
      }
    }
  }
  for (const { variable, prop, op, value: v } of q.where) {
    rows = rows.filter((r) => {
      tick();
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (WHERE on a variable the pattern does not define)
      if (!r.has(variable)) throw new QueryError(`variable ${variable} is not defined`);
      return compare(op, property(r.get(variable), prop), resolve(v, params));
    });
  }
  const counts = q.items.filter((i) => i.kind === 'count');
  // Stryker disable next-line ConditionalExpression,MethodExpression,ArrowFunction,LogicalOperator,EqualityOperator,StringLiteral: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or naming what it does not define) is the reference's own; the kit sends none
  if (counts.length > 0 && q.items.some((i) => i.kind === 'var' || i.kind === 'prop')) throw new QueryError('count() mixed with other items (grouping) is not supported by the reference');
  // Stryker disable next-line BlockStatement: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (a $parameter not given, or an item naming a variable the pattern does not define)
  for (const item of q.items) {
    if (item.kind === 'value') {
      resolve(item.value!, params); // an absent $parameter is a 400 even with no rows
      continue;
    }
    // Stryker disable next-line ConditionalExpression,MethodExpression,OptionalChaining,BlockStatement,EqualityOperator,LogicalOperator: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (an item naming a variable the pattern does not define)
    if (item.variable !== '*' && !(q.nodes.some((n) => n.variable === item.variable) || q.rel?.variable === item.variable)) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      throw new QueryError(`variable ${item.variable} is not defined`);
    }
  }
  const columns = q.items.map((i) => i.column);
  let records: Record<string, unknown>[];
  const cell = (i: Item, r: Map<string, unknown>) =>
    // Stryker disable next-line ConditionalExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (RETURN of a whole node or relationship)
    i.kind === 'value' ? resolve(i.value!, params) : i.kind === 'prop' ? property(r.get(i.variable), i.prop!) : r.get(i.variable);
  if (counts.length > 0) {
    records = [Object.fromEntries(q.items.map((i) => [i.column,
      // Stryker disable next-line ConditionalExpression,StringLiteral,MethodExpression: equivalent in practice: a row binds every variable of its pattern to a node or a relationship, never null, so count(v) counts the rows count(*) counts (checked equal by SCN-P-124); the kit mixes no value item with count()
      i.kind === 'value' ? resolve(i.value!, params) : i.variable === '*' ? rows.length : countOf(i, rows, tick)]))];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,MethodExpression: not a protocol rule: what the console answers to a query outside docs/cypher-subset.md (malformed, or of a construct the kit never sends) is the reference's own; the kit's queries parse alike either way (LIMIT on a count query)
    records = records.slice(q.skip ?? 0, q.limit === undefined ? undefined : (q.skip ?? 0) + q.limit);
  } else {
    // SKIP and LIMIT before the rows are built, when nothing reorders or merges them: the same
    // answer, without building what they drop. ORDER BY and DISTINCT need every row first.
    const whole = q.order.length > 0 || q.distinct;
    const from = q.skip ?? 0;
    const kept = whole ? rows : rows.slice(from, q.limit === undefined ? undefined : from + q.limit);
    // Stryker disable next-line ArithmeticOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
    const values = kept.length * columns.length;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
    if (values > bounds.maxValues) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
      throw new QueryError(`the answer would hold ${values} values (${kept.length} rows × ${columns.length} columns); the query console answers at most ${bounds.maxValues} (a bound of the reference; add LIMIT)`);
    }
    const size = measurer();
    let chars = 0;
    records = kept.map((r) => {
      tick();
      const record = Object.fromEntries(q.items.map((i) => [i.column, cell(i, r)]));
      // Stryker disable next-line AssignmentOperator: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
      for (const i of q.items) chars += size(record[i.column]);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: not a protocol rule: a bound of the reference's own on a query's work (issue 25; test/reliability/work-bounds.test.ts proves it); Volume 5 states no bound, and the scenarios' queries stay far below it
      if (chars > bounds.maxAnswerChars) {
        // Stryker disable next-line StringLiteral: equivalent: the text of an error is the server's own (BRIDGE-ERRORS-1 asks only for a string)
        throw new QueryError(`the answer's values would take more than ${bounds.maxAnswerChars} characters of JSON; the query console answers at most ${bounds.maxAnswerChars} (a bound of the reference; add LIMIT or return properties)`);
      }
      return record;
    });
    if (whole) records = reordered(q, kept, records, tick);
  }
  return { columns, rows: records.map((r) => columns.map((c) => r[c])), records };
}

/** A WHERE comparison as Cypher makes it: a comparison with null, or a string test of what is no string, is not true. */
function compare(op: Comparison, left: unknown, right: unknown): boolean {
  if (op === '=') return left === right;
  if (left === null || right === null) return false;
  if (op === '<>') return left !== right;
  if (typeof left !== 'string' || typeof right !== 'string') return false;
  return op === 'CONTAINS' ? left.includes(right) : op === 'STARTS WITH' ? left.startsWith(right) : left.endsWith(right);
}

/** A value as DISTINCT and count(DISTINCT …) tell values apart: a node or a relationship by its id. */
function identity(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') return `#${(value as { id: string }).id}`;
  return JSON.stringify(value) ?? 'null';
}

/** count(v), count(v.prop), count(DISTINCT …): the rows where it is not null (each value once with DISTINCT). */
function countOf(i: Item, rows: readonly Map<string, unknown>[], tick: () => void): number {
  const values = rows.map((r) => (tick(), i.prop === undefined ? r.get(i.variable) : property(r.get(i.variable), i.prop))).filter((v) => v != null);
  return i.distinct === true ? new Set(values.map(identity)).size : values.length;
}

/** Cypher's order of values of different kinds, ascending: maps and nodes, strings, booleans, numbers; null last. */
function rank(v: unknown): number {
  return typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : typeof v === 'number' ? 3 : v === null || v === undefined ? 5 : 0;
}

function ascending(a: unknown, b: unknown): number {
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const [x, y] = typeof a === 'string' && typeof b === 'string' ? [a, b] : [identity(a), identity(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** DISTINCT, then ORDER BY (a stable sort: equal keys keep the match order), then SKIP and LIMIT. */
function reordered(q: Query, rows: readonly Map<string, unknown>[], records: Record<string, unknown>[], tick: () => void): Record<string, unknown>[] {
  for (const k of q.order) {
    if (k.column !== undefined) continue;
    if (q.distinct) throw new QueryError('ORDER BY after RETURN DISTINCT takes the names of the returned columns');
    if (!(q.nodes.some((n) => n.variable === k.variable) || q.rel?.variable === k.variable)) throw new QueryError(`variable ${k.variable} is not defined`);
  }
  let pairs = records.map((record, i) => ({ record, row: rows[i]!, at: i }));
  if (q.distinct) {
    const seen = new Set<string>();
    pairs = pairs.filter(({ record }) => {
      tick();
      const key = q.items.map((i) => identity(record[i.column])).join('\u0000');
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  if (q.order.length > 0) {
    const keyOf = (p: (typeof pairs)[number], k: SortKey) =>
      k.column !== undefined ? p.record[k.column] : k.prop === undefined ? p.row.get(k.variable!) : property(p.row.get(k.variable!), k.prop);
    pairs.sort((x, y) => {
      tick();
      for (const k of q.order) {
        const c = ascending(keyOf(x, k), keyOf(y, k));
        if (c !== 0) return k.descending ? -c : c;
      }
      return x.at - y.at;
    });
  }
  const from = q.skip ?? 0;
  return pairs.slice(from, q.limit === undefined ? undefined : from + q.limit).map(({ record }) => record);
}
