// The hosted reference service as the official clients of the established kit meet it. The
// requests below are the ones the TypeScript client's REST transport
// (clients/typescript/src/transport/rest.ts) sends for each operation, written here from reading
// it: bodies deep-camelCased (user data in metadata and params too), query parameters snake_case
// (limit, type, user_id, conversation_id, workspace_id), `Authorization: Bearer`, and
// `Content-Type` only with a body. Answers are read as the client reads them: a list envelope
// ({messages}, {conversations}, {entities}, {observations}, {reflections}, {steps}, {keys}) is
// unwrapped, then every key is snake_cased; the assertions are the fields the client and its e2e
// suite (test/e2e/hosted-service.test.ts) read. The Go and C# clients decode into typed structs,
// so strings must be strings, rows arrays of arrays, times ISO strings: checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type Service } from './helpers.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are plain JSON */

let s: Service;
beforeAll(async () => {
  s = await startService();
});
afterAll(async () => s?.close());

const ENVELOPES = ['messages', 'conversations', 'entities', 'observations', 'reflections', 'steps', 'keys'];
const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
function deepSnake(v: any): any {
  if (Array.isArray(v)) return v.map(deepSnake);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [snake(k), deepSnake(x)]));
}
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * One request as the TS REST transport makes it; resolves to the parsed answer (undefined for an
 * empty body) or throws the status, as the client's TransportError would.
 */
async function client(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: { query?: Record<string, string | number>; body?: unknown; /** false: an object answer with lists inside (context, graph, trace), read whole. */ envelope?: boolean } = {}): Promise<any> {
  const qs = new URLSearchParams(Object.entries(opts.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const headers: Record<string, string> = { authorization: `Bearer ${s.hosted.apiKey}` };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.hosted.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const text = await res.text();
  if (!res.ok) throw Object.assign(new Error(`${method} ${path} -> ${res.status} ${text}`), { status: res.status });
  if (res.status === 204 || text === '') return undefined;
  let raw = JSON.parse(text);
  if (opts.envelope !== false && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    // The route's shape: its list envelope, when the answer has one (objects are read as they are).
    const key = ENVELOPES.find((k) => Array.isArray(raw[k]));
    if (key !== undefined) raw = raw[key];
  }
  return deepSnake(raw);
}
const fails = (p: Promise<unknown>) => p.then(() => undefined, (e: { status?: number }) => e.status ?? -1);

const meta = { tckClient: 'typescript', tckRunId: 'local', tckTest: 'compat' }; // deep-camelized by the client
let conv: any;

describe('conversations and messages, as the clients send them', () => {
  it('create_conversation: {userId, metadata} -> id, user_id echoed, a non-empty workspace_id', async () => {
    conv = await client('POST', '/conversations', { body: { userId: 'tck-e2e-ts-compat', metadata: meta } });
    expect(conv).toMatchObject({ id: expect.any(String), user_id: 'tck-e2e-ts-compat', workspace_id: expect.any(String), metadata: { tck_client: 'typescript' } });
    expect(conv.workspace_id).not.toBe('');
    expect(conv.created_at).toMatch(ISO);
    // The e2e fixture records a setup step with a JSON string result.
    const step = await client('POST', '/reasoning/steps', { body: { conversationId: conv.id, reasoning: 'TCK e2e test setup: compat [client=typescript]', actionTaken: 'create_conversation', result: JSON.stringify({ tck_client: 'typescript', conversation_id: conv.id }) } });
    expect(step).toMatchObject({ id: expect.any(String), conversation_id: conv.id, action_taken: 'create_conversation' });
  });

  it('get_conversation_metadata and list_conversations (limit, user_id): the conversation with its workspace_id', async () => {
    expect(await client('GET', `/conversations/${conv.id}`)).toMatchObject({ id: conv.id, user_id: conv.user_id, workspace_id: conv.workspace_id });
    const list = await client('GET', '/conversations', { query: { limit: 200, user_id: 'tck-e2e-ts-compat' } });
    expect(list.map((c: any) => c.id)).toContain(conv.id);
    expect(list.every((c: any) => typeof c.workspace_id === 'string')).toBe(true);
    expect(await client('GET', '/conversations', { query: { limit: 1 } })).toHaveLength(1); // connect()'s probe
  });

  it('add_message and get_conversation: content round-trips; an unknown conversation has no messages', async () => {
    const text = 'Marie Curie won the Nobel Prize in Stockholm. "quotes" \\ \n\t and 東京';
    const m = await client('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: text, metadata: { source: 'compat', count: 42 } } });
    expect(m).toMatchObject({ id: expect.any(String), role: 'user', content: text });
    expect(m.timestamp).toMatch(ISO);
    const msgs = await client('GET', `/conversations/${conv.id}/messages`);
    expect(msgs.map((x: any) => x.content)).toContain(text);
    expect(await client('GET', `/conversations/${crypto.randomUUID()}/messages`, { query: { limit: 5 } })).toEqual([]);
    expect(Array.isArray(await client('POST', `/conversations/${conv.id}/search`, { body: { query: 'Nobel', limit: 5, threshold: 0 } }))).toBe(true);
  });

  it('bulk_add_messages: 5 in, 5 out in order; 101 refused (the cap of 100)', async () => {
    const five = [0, 1, 2, 3, 4].map((i) => ({ role: 'user', content: `bulk-${i}` }));
    const got = await client('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages: five } });
    expect(got.map((x: any) => x.content)).toEqual(five.map((x) => x.content));
    const many = Array.from({ length: 101 }, (_, i) => ({ role: 'user', content: `over-${i}` }));
    expect(await fails(client('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages: many } }))).toBe(400);
  });

  it('get_context: {reflections, observations, recent_messages}; observation and reflection items carry id and conversation_id', async () => {
    await client('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: 'context-probe-message' } });
    const ctx = await client('GET', `/conversations/${conv.id}/context`, { envelope: false });
    expect(ctx.recent_messages.map((m: any) => m.content)).toContain('context-probe-message');
    for (const list of [ctx.observations, ctx.reflections, await client('GET', `/conversations/${conv.id}/observations`, { query: { limit: 10 } }), await client('GET', `/conversations/${conv.id}/reflections`)]) {
      expect(Array.isArray(list)).toBe(true);
      for (const x of list) expect(x).toMatchObject({ id: expect.any(String), conversation_id: conv.id, content: expect.any(String), created_at: expect.stringMatching(ISO) });
    }
    // This conversation has a step with a result and messages: observations are derived from them.
    expect(ctx.observations.length).toBeGreaterThan(0);
    expect((await client('GET', `/conversations/${conv.id}/observations`, { query: { limit: 1 } })).length).toBe(1);
  });

  it('delete_conversation twice: both succeed (idempotent)', async () => {
    const c = await client('POST', '/conversations', { body: { userId: 'tck-e2e-ts-delete' } });
    expect(await client('DELETE', `/conversations/${c.id}`)).toBeUndefined();
    expect(await client('DELETE', `/conversations/${c.id}`)).toBeUndefined();
  });
});

describe('entities, as the clients send them', () => {
  let alice: any;
  let other: any;
  it('add_entity {name, entityType, type: "concept", description}: created, type echoed in lower case', async () => {
    alice = await client('POST', '/entities', { body: { name: 'TCK Alice', entityType: 'concept', type: 'concept', description: '[tck:typescript:local:compat] test person' } });
    expect(alice).toMatchObject({ id: expect.any(String), name: 'TCK Alice', type: 'concept', description: '[tck:typescript:local:compat] test person' });
    expect(alice.id.length).toBeGreaterThanOrEqual(8);
    other = await client('POST', '/entities', { body: { name: 'TCK-Probe-ab12cd34', entityType: 'concept', type: 'concept' } });
  });

  it('list_entities (type=person, limit): every type is exactly "person"; get_entity reads it back', async () => {
    await client('POST', '/entities', { body: { name: 'Ada Lovelace', entityType: 'person', type: 'person' } });
    const people = await client('GET', '/entities', { query: { type: 'person', limit: 5 } });
    expect(people.length).toBeGreaterThan(0);
    expect(people.every((e: any) => e.type === 'person')).toBe(true);
    expect(await client('GET', `/entities/${alice.id}`)).toMatchObject({ id: alice.id, name: 'TCK Alice' });
  });

  it('search_entities: by name, and with type "concept" (an array, never a 400)', async () => {
    expect((await client('POST', '/entities/search', { body: { query: 'TCK-Probe-ab12cd34', limit: 10 } })).map((e: any) => e.name)).toContain('TCK-Probe-ab12cd34');
    expect(Array.isArray(await client('POST', '/entities/search', { body: { query: 'anything', type: 'concept', limit: 5 } }))).toBe(true);
  });

  it('entities named in message content are extracted, and found by search, history (mentions) and the bridge view', async () => {
    const unique = 'TCKMercury1a2b3c4d';
    const c = await client('POST', '/conversations', { body: { userId: 'tck-e2e-ts-extract' } });
    await client('POST', `/conversations/${c.id}/messages`, { body: { role: 'user', content: `${unique} is the smallest planet in our solar system.` } });
    await client('POST', `/conversations/${c.id}/messages`, { body: { role: 'assistant', content: `Yes, ${unique} has a thin atmosphere. Grace Hopper agreed.` } });
    const hits = await client('POST', '/entities/search', { body: { query: unique, limit: 10 } });
    const found = hits.find((e: any) => e.name.toLowerCase().includes(unique.toLowerCase()));
    expect(found).toMatchObject({ type: 'concept' });
    const grace = (await client('GET', '/entities', { query: { type: 'person' } })).find((e: any) => e.name === 'Grace Hopper');
    expect(grace).toBeDefined();
    const h = await client('GET', `/entities/${found.id}/history`, { envelope: false });
    expect(h.entity_id).toBe(found.id);
    expect(h.mentions.map((m: any) => m.conversation_id)).toEqual([c.id, c.id]);
    for (const m of h.mentions) expect(m).toMatchObject({ message_id: expect.any(String), content: expect.any(String), timestamp: expect.stringMatching(ISO) });
    expect(s.store.get_entity_by_name({ name: 'Grace Hopper' })).toMatchObject({ type: 'PERSON' });
    expect(s.store.get_entity_by_name({ name: unique })).toMatchObject({ type: 'OBJECT', subtype: 'concept' });
  });

  it('update_entity: description, then name (the answer is the entity, or the client reads it back)', async () => {
    const u1 = await client('PUT', `/entities/${alice.id}`, { body: { description: 'rewritten' } });
    const read1 = u1?.id ? u1 : await client('GET', `/entities/${alice.id}`);
    expect(read1.description).toBe('rewritten');
    const u2 = await client('PUT', `/entities/${alice.id}`, { body: { name: 'Renamed-compat' } });
    expect((u2?.id ? u2 : await client('GET', `/entities/${alice.id}`)).name).toBe('Renamed-compat');
  });

  it('set_entity_feedback {userScore, confirmed} -> {id, updated: true}; score 0 too', async () => {
    expect(await client('PUT', `/entities/${alice.id}/feedback`, { body: { userScore: 0.93, confirmed: true } })).toMatchObject({ id: alice.id, updated: true });
    expect(await client('PUT', `/entities/${alice.id}/feedback`, { body: { userScore: 0, confirmed: false } })).toMatchObject({ id: alice.id });
  });

  it('get_entity_history -> {entity_id, mentions: []} (present, even with no mention)', async () => {
    expect(await client('GET', `/entities/${other.id}/history`, { envelope: false })).toMatchObject({ entity_id: other.id, mentions: [] });
  });

  it('merge_entities POST /entities/{source}/merge {targetId} -> {source_id, target_id, status}; the graph has edges {id, source, target, type}', async () => {
    const src = await client('POST', '/entities', { body: { name: 'Merge-Src', entityType: 'concept', type: 'concept' } });
    const r = await client('POST', `/entities/${src.id}/merge`, { body: { targetId: other.id } });
    expect(r).toMatchObject({ source_id: src.id, target_id: other.id, status: expect.any(String) });
    const g = await client('GET', '/entities/graph', { envelope: false });
    expect(g.nodes[0].id).toBeTruthy();
    expect(g.nodes.every((n: any) => typeof n.name === 'string')).toBe(true);
    expect(g.edges).toContainEqual(expect.objectContaining({ id: expect.any(String), source: src.id, target: other.id, type: 'SAME_AS' }));
  });

  it('get_entity_provenance -> {entity_id, steps: []}; delete twice, then get is a 404', async () => {
    expect(await client('GET', `/reasoning/provenance/${alice.id}`, { envelope: false })).toMatchObject({ entity_id: alice.id, steps: expect.any(Array) });
    await client('DELETE', `/entities/${alice.id}`);
    await client('DELETE', `/entities/${alice.id}`);
    expect(await fails(client('GET', `/entities/${alice.id}`))).toBe(404);
  });
});

describe('reasoning and the query console, as the clients send them', () => {
  let step: any;
  it('record_step, list_steps (conversation_id), explain_step (flat, with tool_calls and influenced_entities)', async () => {
    step = await client('POST', '/reasoning/steps', { body: { conversationId: conv.id, reasoning: 'r because Ada Lovelace', actionTaken: 'a' } });
    expect(step).toMatchObject({ id: expect.any(String), conversation_id: conv.id, reasoning: 'r because Ada Lovelace', action_taken: 'a', created_at: expect.stringMatching(ISO) });
    const listed = await client('GET', '/reasoning/steps', { query: { conversation_id: conv.id } });
    expect(listed.map((x: any) => x.id)).toContain(step.id);
    const x = await client('GET', `/reasoning/explain/${step.id}`, { envelope: false });
    expect(x).toMatchObject({ id: step.id, conversation_id: conv.id, reasoning: 'r because Ada Lovelace', tool_calls: [], influenced_entities: [expect.objectContaining({ name: 'Ada Lovelace', created_at: expect.stringMatching(ISO) })] });
  });

  it('get_trace_by_conversation -> {conversation_id, steps, tool_calls}, also for a conversation with no steps', async () => {
    const t = await client('GET', `/reasoning/trace/${conv.id}`, { envelope: false });
    expect(t.conversation_id).toBe(conv.id);
    expect(t.steps.map((x: any) => x.id)).toContain(step.id);
    expect(t.steps.some((x: any) => x.reasoning.includes('r'))).toBe(true);
    expect(Array.isArray(t.tool_calls)).toBe(true);
    const fresh = await client('POST', '/conversations', { body: { userId: 'tck-e2e-ts-trace' } });
    expect(await client('GET', `/reasoning/trace/${fresh.id}`, { envelope: false })).toMatchObject({ conversation_id: fresh.id, steps: [], tool_calls: [] });
  });

  it('cypher_query {cypher, params}: {columns, rows} with rows as arrays; $label works; writes are a 400', async () => {
    const total = await client('POST', '/query', { body: { cypher: 'MATCH (n) RETURN count(n) AS total', params: {} }, envelope: false });
    expect(total.columns).toContain('total');
    expect(total.rows.length).toBeGreaterThanOrEqual(1);
    expect(Array.isArray(total.rows[0])).toBe(true);
    expect(Number.isInteger(total.rows[0][0])).toBe(true);
    const labelled = await client('POST', '/query', { body: { cypher: 'MATCH (n) RETURN $label AS label LIMIT 1', params: { label: 'tck-e2e' } }, envelope: false });
    expect(labelled).toMatchObject({ columns: ['label'], rows: [['tck-e2e']] });
    expect(await fails(client('POST', '/query', { body: { cypher: "CREATE (n:Entity {name: 'x'}) RETURN n", params: {} } }))).toBe(400);
  });

  it('list_api_keys (workspace_id from the conversation) -> keys with id', async () => {
    const keys = await client('GET', '/auth/api-keys', { query: { workspace_id: conv.workspace_id } });
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatchObject({ id: expect.any(String), workspace_id: conv.workspace_id });
  });
});
