// Issue 25, items 1-4: the servers the kit ships bound the WORK of every request, not only its
// bytes. One small request used to freeze a single-threaded server for seconds to minutes (a Cypher
// query returning a node a thousand times, a body nested millions of levels deep, metadata of a
// million keys, a 15 MiB search query, get_related_entities at depth 2^31 on a long cycle). Each
// bound is checked here by what the server answers and by counting the work done, never by time:
// the figures (a small request's latency while the attack runs, peak RSS) are bench/abuse.mjs's
// `work` attacks (docs/reference-server.md, "Limits of the servers the kit ships").
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryStore, createDispatcher, fieldTokens, tokenize } from '../../src/servers/bridge/index.js';
import { MAX_QUERY_CHARS as STORE_QUERY_CHARS, MAX_RELATED_DEPTH as STORE_RELATED_DEPTH } from '../../src/servers/bridge/store.js';
import { startCombinedServers, type CombinedServers } from '../../src/servers/hosted/index.js';
import { QUERY_BOUNDS as SERVER_QUERY_BOUNDS, QueryError, runQuery, withoutStrings, writeClauseOf } from '../../src/servers/hosted/query.js';
import { MAX_BODY_VALUES as SERVER_BODY_VALUES, MAX_NESTING_DEPTH as SERVER_NESTING_DEPTH } from '../../src/servers/nesting.js';
import type { Relationship } from '../../src/protocols/bridge/index.js';
import { testIdp } from '../hosted/helpers.js';
import { seeded } from './helpers.js';

// The documented bounds (docs/reference-server.md, "Limits of the servers the kit ships"), written out: a change of
// a bound is a change of what docs/reference-server.md promises, and must show here.
const QUERY_BOUNDS = { maxChars: 16_384, maxItems: 100, maxValues: 100_000, maxAnswerChars: 4 * 1024 * 1024 };
const MAX_QUERY_CHARS = 16_384;
const MAX_RELATED_DEPTH = 1_000;
const MAX_BODY_VALUES = 50_000;
const MAX_NESTING_DEPTH = 512;

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const wide = (keys: number) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i % 10}`).join(',')}}`;

let servers: CombinedServers;
let readKey: string;
let nodes = 0;

async function bridge(method: string, body: string): Promise<{ status: number; body: any; bytes: number }> {
  const r = await fetch(`${servers.bridge.url}/${method}`, { method: 'POST', body });
  const text = await r.text();
  return { status: r.status, body: text === '' ? undefined : JSON.parse(text), bytes: text.length };
}

async function rest(method: string, path: string, body: string, key: string | null = servers.hosted.apiKey): Promise<{ status: number; body: any; bytes: number }> {
  const r = await fetch(`${servers.hosted.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
    body,
  });
  const text = await r.text();
  return { status: r.status, body: text === '' ? undefined : JSON.parse(text), bytes: text.length };
}

beforeAll(async () => {
  servers = await startCombinedServers({ identityProviders: [(await testIdp()).trustedIssuer()] });
  // 2 000 entities in a chain of relationships: small enough to seed at once, large enough that
  // each unbounded attack below did seconds of work (or answered tens of MB) before the bounds.
  const ids: string[] = [];
  for (let i = 0; i < 2_000; i++) ids.push(servers.store.add_entity({ name: `node-${i}`, entity_type: 'OBJECT', description: `node number ${i} of the chain` }).id);
  for (let i = 0; i + 1 < ids.length; i++) servers.store.add_relationship({ source_id: ids[i]!, target_id: ids[i + 1]!, relationship_type: 'NEXT' });
  nodes = ids.length;
  readKey = (await servers.hosted.keys.issue({ label: 'reader', scopes: ['read'], workspaceId: servers.hosted.workspaceId })).key;
}, 60_000);
afterAll(() => servers.close());

it('the bounds written out here are the servers\' own', () => {
  expect(SERVER_QUERY_BOUNDS).toMatchObject({ ...QUERY_BOUNDS, timeLimitMs: 2_000 });
  expect([STORE_QUERY_CHARS, STORE_RELATED_DEPTH, SERVER_BODY_VALUES, SERVER_NESTING_DEPTH]).toEqual([MAX_QUERY_CHARS, MAX_RELATED_DEPTH, MAX_BODY_VALUES, MAX_NESTING_DEPTH]);
});

describe('item 1: cypher_query bounds its text, its RETURN items, its answer and its time (400 naming the bound)', () => {
  const returning = (item: string, times: number) => `MATCH (a) RETURN ${Array(times).fill(item).join(',')}`;

  it('RETURN a.name ×1000 (a 7 KB query) is refused while parsing, over the bridge and over REST with a read-only key', async () => {
    const cypher = returning('a.name', 1_000);
    expect(cypher.length).toBeLessThan(QUERY_BOUNDS.maxChars);
    const b = await bridge('cypher_query', JSON.stringify({ cypher }));
    expect(b.status).toBe(400);
    expect(b.body.error).toMatch(/^cypher: RETURN has more than 100 items; the query console returns at most 100/);
    const r = await rest('POST', '/query', JSON.stringify({ cypher }), readKey);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^cypher: RETURN has more than 100 items/);
  });

  it(`a query longer than ${QUERY_BOUNDS.maxChars} characters is refused before it is read`, async () => {
    const cypher = returning('a.name', 4_000); // 28 KB
    expect(cypher.length).toBeGreaterThan(QUERY_BOUNDS.maxChars);
    const r = await rest('POST', '/query', JSON.stringify({ cypher }), readKey);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`cypher: the query is ${cypher.length} characters long; the query console reads at most ${QUERY_BOUNDS.maxChars} (a bound of the reference)`);
  });

  it('an answer of more values (rows × columns) than the bound is refused before a row is built; LIMIT brings it within', async () => {
    const cypher = returning('a.name', 60); // 2 000 rows × 60 columns = 120 000 values
    const b = await bridge('cypher_query', JSON.stringify({ cypher }));
    expect(b.status).toBe(400);
    expect(b.body.error).toBe(`cypher: the answer would hold ${nodes * 60} values (${nodes} rows × 60 columns); the query console answers at most ${QUERY_BOUNDS.maxValues} (a bound of the reference; add LIMIT)`);
    const limited = await bridge('cypher_query', JSON.stringify({ cypher: `${cypher} LIMIT 10` }));
    expect(limited.status).toBe(200);
    expect(limited.body.rows).toHaveLength(10);
    expect(limited.body.rows[0]).toHaveLength(60);
  });

  it('at the bounds exactly, the query is answered in full', async () => {
    const cypher = returning('a.name', QUERY_BOUNDS.maxValues / nodes); // 50 columns × 2 000 rows
    const b = await bridge('cypher_query', JSON.stringify({ cypher }));
    expect(b.status).toBe(200);
    expect(b.body.rows).toHaveLength(nodes);
    expect(b.body.columns).toHaveLength(50);
  });

  it('an answer whose values take more JSON than the bound is refused while it is built', async () => {
    const cypher = returning('a', 40); // 80 000 values, each a whole entity (~300 characters): ~24 MB
    const r = await rest('POST', '/query', JSON.stringify({ cypher }), readKey);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`cypher: the answer's values would take more than ${QUERY_BOUNDS.maxAnswerChars} characters of JSON; the query console answers at most ${QUERY_BOUNDS.maxAnswerChars} (a bound of the reference; add LIMIT or return properties)`);
  });

  it('a query that runs past its time limit is stopped (a clock that jumps ten seconds a look: counted, not timed)', () => {
    const graph = servers.store.liveGraph();
    let looks = 0;
    const now = () => looks++ * 10_000;
    let error: unknown;
    try {
      runQuery('MATCH (a)-[r]->(b) RETURN a.name', {}, graph, { now, timeLimitMs: 2_000 });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(QueryError);
    expect((error as Error).message).toBe('the query ran longer than 2000 ms and was stopped; the query console spends at most 2000 ms on a query (a bound of the reference)');
    // The clock is read when the query starts and then once every 1 024 units of work, not per row.
    expect(looks).toBe(2);
    // With the real clock, the same query answers every row.
    expect(runQuery('MATCH (a)-[r]->(b) RETURN a.name', {}, graph).rows).toHaveLength(nodes - 1);
  });

  it('string literals are left out of the write-clause check in one pass, exactly as the regex that rescanned from every unclosed quote', () => {
    const regex = (text: string) => text.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''");
    const text = fc.array(fc.constantFrom("'", '"', '\\', '\n', '\u2028', 'a', ' ', 'CREATE'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(fc.property(text, (t) => withoutStrings(t) === regex(t)), { numRuns: 20_000, seed: 25 });
    // The text that made the regex quadratic (80 KB took 19 s): 2 MB in one pass.
    const quotes = `'${"\\'".repeat(1_000_000)} CREATE`;
    expect(withoutStrings(quotes)).toBe(quotes);
    expect(writeClauseOf(quotes)).toBe('CREATE');
  });

  it('the bounds change no answer within them: count(*) and LIMIT as before', async () => {
    const b = await bridge('cypher_query', JSON.stringify({ cypher: 'MATCH (a)-[r:NEXT]->(b) RETURN count(*) AS n' }));
    expect(b.body).toEqual({ columns: ['n'], rows: [[nodes - 1]] });
    const l = await bridge('cypher_query', JSON.stringify({ cypher: "MATCH (a {name: 'node-7'}) RETURN a.name, a.type LIMIT 5" }));
    expect(l.body).toEqual({ columns: ['a.name', 'a.type'], rows: [['node-7', 'object']] });
  });
});

describe('item 2: depth is refused on the bytes, before JSON.parse and before any credential is looked at', () => {
  it('a body nested 200 000 deep under an unknown key is a 400 naming the key (it was answered 200)', async () => {
    const r = await bridge('get_conversation', `{"session_id":"s","x":${deep(200_000)}}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`x: nested more than ${MAX_NESTING_DEPTH} levels deep`);
  });

  it('/v1/auth/exchange with no credential: refused without parsing the body or verifying anything', async () => {
    const body = `{"subjectToken":"x","a":${deep(200_000)}}`;
    const parse = vi.spyOn(JSON, 'parse');
    const exchange = vi.spyOn(servers.hosted.tokens, 'exchange');
    try {
      const r = await rest('POST', '/auth/exchange', body, null);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(`a: nested more than ${MAX_NESTING_DEPTH} levels deep`);
      // JSON.parse never saw the body (this process parses only the small answer above).
      expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length >= body.length)).toEqual([]);
      expect(exchange).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      exchange.mockRestore();
    }
  });

  it('512 levels of user data are still stored and read back', async () => {
    const r = await bridge('add_message', `{"session_id":"deep","role":"user","content":"x","metadata":{"a":${deep(511)}}}`);
    expect(r.status).toBe(200);
    const conv = await bridge('get_conversation', '{"session_id":"deep"}');
    expect(JSON.stringify(conv.body.messages[0].metadata)).toBe(`{"a":${deep(511)}}`);
  });
});

describe('item 3: wide JSON costs one pass, and a body holds at most MAX_BODY_VALUES values', () => {
  it('metadata of 150 000 keys is refused on the bytes (bridge and REST, with or without a credential)', async () => {
    const metadata = wide(150_000);
    const b = await bridge('add_message', `{"session_id":"w","role":"user","content":"x","metadata":${metadata}}`);
    expect(b.status).toBe(400);
    expect(b.body.error).toBe(`metadata: the body holds more than ${MAX_BODY_VALUES} JSON values; a request holds at most ${MAX_BODY_VALUES} (a bound of the server)`);
    const r = await rest('POST', '/conversations/w/messages', `{"role":"user","content":"x","metadata":${metadata}}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`metadata: the body holds more than ${MAX_BODY_VALUES} JSON values; a request holds at most ${MAX_BODY_VALUES} (a bound of the server)`);
    const anonymous = await rest('POST', '/auth/exchange', `{"subjectToken":"x","metadata":${metadata}}`, null);
    expect(anonymous.status).toBe(400);
    expect(servers.store.get_conversation({ session_id: 'w' }).messages).toEqual([]);
  });

  it('free-form data is read once to store it, not walked by validation (counted through a proxy)', () => {
    const keys = 20_000;
    let reads = 0;
    const metadata = new Proxy(JSON.parse(wide(keys)) as Record<string, unknown>, {
      get(target, key, receiver) {
        if (typeof key === 'string' && key.startsWith('k')) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const dispatch = createDispatcher(new MemoryStore());
    const r = dispatch('add_message', { session_id: 'w', role: 'user', content: 'x', metadata });
    expect(r.status).toBe(200);
    expect(Object.keys((r.body as { metadata: object }).metadata)).toHaveLength(keys);
    // The nesting check of the dispatcher (for callers in this process) and the copy the store
    // keeps: two reads a key. Validation walking the record (zod copies every entry) made it three.
    expect(reads).toBeLessThanOrEqual(2 * keys);
  });

  it(`a search query (and get_similar_traces' task) longer than ${MAX_QUERY_CHARS} characters is refused before it is tokenised`, async () => {
    const query = 'alice '.repeat(4_000);
    for (const [method, param] of [['search_entities', 'query'], ['search_messages', 'query'], ['search_preferences', 'query'], ['get_similar_traces', 'task']] as const) {
      const b = await bridge(method, JSON.stringify({ [param]: query }));
      expect(b.status, method).toBe(400);
      expect(b.body.error).toBe(`${param}: is ${query.length} characters long; at most ${MAX_QUERY_CHARS} are accepted`);
    }
    for (const path of ['/entities/search', '/conversations/c/search']) {
      const r = await rest('POST', path, JSON.stringify({ query }));
      expect(r.status, path).toBe(400);
      expect(r.body.error).toMatch(/^query: is 24000 characters long/);
    }
    expect((await bridge('search_entities', JSON.stringify({ query: `node ${'x '.repeat(MAX_QUERY_CHARS / 2 - 3)}` }))).status).toBe(200);
  });
});

describe('item 3: an entity keeps each of its words once', () => {
  it('the joined fields are a view over the fields\' sets that answers as their union does (size, has, order)', () => {
    const random = seeded(3);
    const word = () => ['alice', 'acme', 'bob', 'Zoë', 'x1', 'memory', 'graph'][Math.floor(random() * 7)]!;
    for (let round = 0; round < 200; round++) {
      const fields = Array.from({ length: 2 + Math.floor(random() * 3) }, () => Array.from({ length: Math.floor(random() * 6) }, word).join(' '));
      const sets = fieldTokens(fields);
      const joined = sets.at(-1)!;
      const union = new Set(fields.filter((f) => f !== '').flatMap((f) => [...tokenize(f)]));
      if (sets.length < 2) continue;
      expect(joined).not.toBeInstanceOf(Set);
      expect(joined.size).toBe(union.size);
      expect([...joined]).toEqual([...union]);
      for (const w of ['alice', 'acme', 'bob', 'zoë', 'x1', 'memory', 'graph', 'none']) expect(joined.has(w)).toBe(union.has(w));
    }
  });
});

describe('item 4: get_related_entities visits each relationship at most twice, and depth is bounded', () => {
  /** A store whose relationship list counts how often an element is read. */
  class Counting extends MemoryStore {
    reads = 0;
    constructor() {
      super();
      const list: Relationship[] = [];
      this.relationships = new Proxy(list, {
        get: (target, key, receiver) => {
          if (typeof key === 'string' && /^\d+$/.test(key)) this.reads++;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
    }
  }

  it(`depth 2^31 is a 400; depth ${MAX_RELATED_DEPTH} on a 2 000-entity cycle reads each relationship a few times, not once per hop`, () => {
    const store = new Counting();
    const ids = Array.from({ length: 2_000 }, (_, i) => store.add_entity({ name: `n${i}`, entity_type: 'OBJECT' }).id);
    ids.forEach((id, i) => store.add_relationship({ source_id: id, target_id: ids[(i + 1) % ids.length]!, relationship_type: 'NEXT' }));
    const dispatch = createDispatcher(store);
    const refused = dispatch('get_related_entities', { entity_id: ids[0], depth: 2 ** 31 });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toBe(`depth: is ${2 ** 31}; at most ${MAX_RELATED_DEPTH} hops are followed (a bound of the reference)`);
    store.reads = 0;
    const all = dispatch('get_related_entities', { entity_id: ids[0], depth: MAX_RELATED_DEPTH });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(ids.length - 1);
    // A scan of every relationship per hop read 2 000 × 1 000 of them.
    expect(store.reads).toBeLessThanOrEqual(3 * ids.length);
  });

  it('answers exactly what a scan of every relationship per hop answered, in the same order (seeded graphs)', () => {
    // The walk it replaces: per hop, every relationship in creation order, source side first.
    const scan = (edges: Relationship[], start: string, depth: number): string[] => {
      const visited = new Set([start]);
      const out: string[] = [];
      let frontier = new Set([start]);
      for (let level = 0; level < depth && frontier.size > 0; level++) {
        const next = new Set<string>();
        for (const e of edges) {
          for (const [from, to] of [[e.source_id, e.target_id], [e.target_id, e.source_id]] as const) {
            if (frontier.has(from) && !visited.has(to)) {
              visited.add(to);
              next.add(to);
              out.push(to);
            }
          }
        }
        frontier = next;
      }
      return out;
    };
    const random = seeded(25);
    for (let round = 0; round < 30; round++) {
      const store = new MemoryStore();
      const ids = Array.from({ length: 5 + Math.floor(random() * 40) }, (_, i) => store.add_entity({ name: `n${i}`, entity_type: 'OBJECT' }).id);
      const pick = () => ids[Math.floor(random() * ids.length)]!;
      const rels: Relationship[] = [];
      for (let k = Math.floor(random() * 80); k > 0; k--) rels.push(store.add_relationship({ source_id: pick(), target_id: pick(), relationship_type: random() < 0.7 ? 'A' : 'B' }));
      for (const depth of [1, 2, 3, 7]) {
        for (const type of [undefined, 'A']) {
          const start = pick();
          const got = store.get_related_entities({ entity_id: start, depth, ...(type ? { relationship_type: type } : {}) }).map((e) => e.id);
          expect(got, `round ${round}, depth ${depth}, type ${type}`).toEqual(scan(type ? rels.filter((r) => r.relationship_type === type) : rels, start, depth));
        }
      }
    }
  });
});

describe('item 7: numbers that JSON.parse would change are refused, naming the field; the rest round-trip exactly', () => {
  it.each([
    ['1e400', 'is too large to keep exactly (it would be stored as null)'],
    ['-1e400', 'is too large to keep exactly (it would be stored as null)'],
    ['1e-400', 'is too small to keep exactly (it would be stored as 0)'],
    ['123456789012345678901234567890', 'has more digits than a 64-bit number keeps (it would be stored as 1.2345678901234568e+29)'],
    ['9007199254740993', 'has more digits than a 64-bit number keeps (it would be stored as 9007199254740992)'],
    ['0.10000000000000000001', 'has more digits than a 64-bit number keeps (it would be stored as 0.1)'],
  ])('%s: 400 naming metadata.a.b[1], nothing stored (bridge and REST)', async (number, why) => {
    const b = await bridge('add_message', `{"session_id":"num","role":"user","content":"x","metadata":{"a":{"b":[0,${number}]}}}`);
    expect(b.status).toBe(400);
    expect(b.body.error).toBe(`metadata.a.b[1]: the number ${number} ${why}; send it as a string`);
    const r = await rest('POST', '/conversations/num/messages', `{"role":"user","content":"x","metadata":{"a":{"b":[0,${number}]}}}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`metadata.a.b[1]: the number ${number} ${why}; send it as a string`);
    expect(servers.store.get_conversation({ session_id: 'num' }).messages).toEqual([]);
  });

  it('every number a 64-bit float holds exactly is kept, whatever its spelling (-0 is written 0: JSON has one zero)', async () => {
    const numbers = ['0', '-0', '0.1', '1.0', '1E2', '1e300', '-1.5e-300', '9007199254740992', '0.30000000000000004', '5e-324', '1.7976931348623157e308', '2.2250738585072014e-308', '123456789012345'];
    const text = `{"session_id":"kept","role":"user","content":"x","metadata":{"n":[${numbers.join(',')}]}}`;
    const b = await bridge('add_message', text);
    expect(b.status).toBe(200);
    const conv = await bridge('get_conversation', '{"session_id":"kept"}');
    expect(conv.body.messages[0].metadata.n).toEqual(numbers.map((n) => Number(n) || 0));
  });
});

describe('the scan is exact for valid JSON', () => {
  it('brackets, quotes and escapes inside strings are not nesting; a key with escapes is named decoded', async () => {
    const content = `${'['.repeat(600)}\\"{ ]]] -1e400`;
    const ok = await bridge('add_message', JSON.stringify({ session_id: 's', role: 'user', content, metadata: { x: '{'.repeat(1_000), '[': [1.5, true, null] } }));
    expect(ok.status).toBe(200);
    expect(ok.body.content).toBe(content);
    const bad = await bridge('add_message', '{"session_id":"s","role":"user","content":"x","metadata":{"a\\"b\\u00e9":[{"c":1e400}]}}');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('metadata.a"bé[0].c: the number 1e400 is too large to keep exactly (it would be stored as null); send it as a string');
  });
});
