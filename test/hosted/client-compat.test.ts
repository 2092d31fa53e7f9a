// The hosted reference service as the official clients see it. Each request below is what the
// established TypeScript client's REST transport (clients/typescript/src/transport/rest.ts in the
// established repository) sends for one operation: its method and path, its query parameters in
// snake_case (limit, type, user_id, conversation_id, workspace_id), its body with every key in
// camelCase (user data included: metadata keys arrive camelized), a Bearer key, and
// `content-type: application/json` only when there is a body. Each answer is then read as that
// client reads it: any 2xx is success (204: no value), the list envelopes ({messages},
// {conversations}, {entities}, {observations}, {reflections}, {steps}, {keys}) are unwrapped,
// every key is turned to snake_case, and the assertions are on the fields its code and its e2e
// suite read. The requests are written here from reading rest.ts, not taken from its code.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startService, type Service } from './helpers.js';

type Json = Record<string, any>;

/** What the client's code sees: every key snake_case (each capital X becomes _x), recursively. */
function asClientSees(value: unknown): any {
  if (Array.isArray(value)) return value.map(asClientSees);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), asClientSees(v)]));
}

/** A list answer unwrapped as the client does: the envelope's array when present, else the raw value. */
const unwrap = (raw: any, field: string) => (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Array.isArray(raw[field]) ? raw[field] : raw);

/** Go's and C#'s typed decoding: an RFC 3339 time string. */
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

let s: Service;
let wire: (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts?: { query?: Record<string, string | number>; body?: Json; token?: string | null }) => Promise<{ status: number; value: any }>;

beforeEach(async () => {
  s = await startService();
  wire = async (method, path, opts = {}) => {
    const qs = new URLSearchParams(Object.entries(opts.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const headers: Record<string, string> = { accept: 'application/json' };
    const token = opts.token === undefined ? s.hosted.apiKey : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${s.hosted.baseUrl}${path}${qs ? `?${qs}` : ''}`, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
    const text = await res.text();
    // The client: 2xx with an empty body (or 204) is no value; any other status throws.
    if (res.status >= 400) return { status: res.status, value: text === '' ? undefined : JSON.parse(text) };
    return { status: res.status, value: res.status === 204 || text === '' ? undefined : asClientSees(JSON.parse(text)) };
  };
});
afterEach(async () => s.close());

/** A call the client accepts (2xx); its value as the client's code reads it. */
async function ok(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, opts: { query?: Record<string, string | number>; body?: Json } = {}): Promise<any> {
  const a = await wire(method, path, opts);
  expect(a.status, `${method} ${path} ${JSON.stringify(opts.body ?? {})} answered ${a.status} ${JSON.stringify(a.value)}`).toBeLessThan(300);
  return a.value;
}

/** The e2e suite's newConv: a conversation with metadata (camelized keys) and the fixture step. */
async function newConversation(test: string): Promise<Json> {
  const userId = `tck-e2e-ts-${test}-${Math.random().toString(16).slice(2, 10)}`;
  const conv = await ok('POST', '/conversations', { body: { userId, metadata: { tckClient: 'typescript', tckRunId: 'local', tckTest: test, tckPhase: 'fixture' } } });
  await ok('POST', '/reasoning/steps', {
    body: { conversationId: conv.id, reasoning: `TCK e2e test setup: ${test} [client=typescript]`, actionTaken: 'create_conversation', result: JSON.stringify({ tck_client: 'typescript', conversation_id: conv.id }) },
  });
  return conv;
}

describe('conversations and messages, as the official clients call them', () => {
  it('create_conversation answers id, user_id and a workspace_id; metadata and list read it back', async () => {
    const conv = await newConversation('lifecycle');
    expect(conv.id.length).toBeGreaterThanOrEqual(8);
    expect(conv.user_id).toMatch(/^tck-e2e-ts-lifecycle-/);
    expect(conv.workspace_id).toBe(s.hosted.workspaceId);
    expect(conv.metadata).toMatchObject({ tck_run_id: 'local' }); // sent camelized, read snake_cased
    expect(conv.created_at).toMatch(ISO);
    const meta = await ok('GET', `/conversations/${conv.id}`);
    expect(meta).toMatchObject({ id: conv.id, user_id: conv.user_id, workspace_id: s.hosted.workspaceId });
    const listed = unwrap(await ok('GET', '/conversations', { query: { limit: 200, user_id: conv.user_id } }), 'conversations');
    expect(listed.map((c: Json) => c.id)).toEqual([conv.id]);
    expect(listed[0].workspace_id).toBeTruthy();
    const later = await newConversation('lifecycle-later');
    expect(unwrap(await ok('GET', '/conversations', { query: { limit: 1 } }), 'conversations').map((c: Json) => c.id)).toEqual([later.id]); // newest first
    // The connect probe and the API-key e2e: the workspace of the conversation lists the keys.
    await ok('GET', '/conversations', { query: { limit: 1 } });
    const keys = unwrap(await ok('GET', '/auth/api-keys', { query: { workspace_id: meta.workspace_id } }), 'keys');
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) expect(k).toMatchObject({ id: expect.any(String), workspace_id: meta.workspace_id });
  });

  it('delete_conversation is idempotent: a second delete and a delete of an unknown id do not throw', async () => {
    const conv = await newConversation('delete');
    expect(await ok('DELETE', `/conversations/${conv.id}`)).toBeUndefined();
    expect(await ok('DELETE', `/conversations/${conv.id}`)).toBeUndefined();
    expect(await ok('DELETE', '/conversations/00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('messages: add answers the message; get lists them; an unknown conversation has an empty list', async () => {
    const conv = await newConversation('messages');
    for (const role of ['user', 'assistant', 'system']) {
      const content = `héllo "${role}" \\ \n\r\t 東京 ${'x'.repeat(role === 'system' ? 10_000 : 1)}`;
      const m = await ok('POST', `/conversations/${conv.id}/messages`, { body: { role, content, metadata: { source: 'e2e', priority: 'high', count: 42, active: true } } });
      expect(m).toMatchObject({ id: expect.any(String), role, content });
      expect(m.timestamp ?? m.created_at).toMatch(ISO);
    }
    const got = unwrap(await ok('GET', `/conversations/${conv.id}/messages`, { query: { limit: 5 } }), 'messages');
    expect(got.map((m: Json) => m.role)).toEqual(['user', 'assistant', 'system']);
    expect(unwrap(await ok('GET', '/conversations/never-created/messages', { query: { limit: 5 } }), 'messages')).toEqual([]);
    const hits = unwrap(await ok('POST', `/conversations/${conv.id}/search`, { body: { query: 'Nobel', limit: 5, threshold: 0 } }), 'messages');
    expect(Array.isArray(hits)).toBe(true);
    // The clients' default threshold (0.7) keeps a long message that holds the word asked for.
    await ok('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: 'Marie Curie won the Nobel Prize in Physics in 1903, and a second one in Chemistry in 1911.' } });
    const nobel = unwrap(await ok('POST', `/conversations/${conv.id}/search`, { body: { query: 'Nobel', limit: 5, threshold: 0.7 } }), 'messages');
    expect(nobel).toEqual([expect.objectContaining({ content: expect.stringContaining('Nobel Prize'), score: 1 })]);
  });

  it('bulk_add_messages: 5 in, 5 out, in order; 101 is refused (the cap is 100)', async () => {
    const conv = await newConversation('bulk');
    const messages = Array.from({ length: 5 }, (_, i) => ({ role: 'user', content: `bulk-${i}` }));
    const added = unwrap(await ok('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages } }), 'messages');
    expect(added.map((m: Json) => m.content)).toEqual(messages.map((m) => m.content));
    const tooMany = await wire('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages: Array.from({ length: 101 }, (_, i) => ({ role: 'user', content: `m${i}` })) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.value.error).toMatch(/at most 100/);
    expect(unwrap(await ok('GET', `/conversations/${conv.id}/messages`), 'messages')).toHaveLength(5);
  });

  it('context has reflections, observations and recent_messages; observation and reflection items carry id and conversation_id', async () => {
    const conv = await newConversation('context');
    await ok('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: 'context-probe-message: I met Marie Curie in Paris.' } });
    const ctx = await ok('GET', `/conversations/${conv.id}/context`);
    expect(ctx.recent_messages.map((m: Json) => m.content)).toContain('context-probe-message: I met Marie Curie in Paris.');
    const observations = unwrap(await ok('GET', `/conversations/${conv.id}/observations`, { query: { limit: 10 } }), 'observations');
    const reflections = unwrap(await ok('GET', `/conversations/${conv.id}/reflections`), 'reflections');
    for (const list of [ctx.observations, ctx.reflections, observations, reflections]) {
      expect(list.length).toBeGreaterThan(0);
      // Python's parser reads d["id"] and d["conversation_id"]; Go's wants strings and RFC 3339 times.
      for (const item of list) expect(item).toMatchObject({ id: expect.any(String), conversation_id: conv.id, content: expect.any(String), created_at: expect.stringMatching(ISO) });
    }
    // Made from what is stored: the message's entities, the fixture step's action and result.
    expect(observations.map((o: Json) => o.content).join('\n')).toMatch(/Marie Curie[\s\S]*create_conversation: \{"tck_client"/);
    expect(reflections[0].content).toMatch(/2 messages|1 message/);
    expect(unwrap(await ok('GET', `/conversations/${conv.id}/observations`, { query: { limit: 1 } }), 'observations')).toHaveLength(1);
  });
});

describe('entities, as the official clients call them', () => {
  async function newEntity(name = `TCK-Probe-${Math.random().toString(16).slice(2, 10)}`, type = 'concept'): Promise<Json> {
    return ok('POST', '/entities', { body: { name, entityType: type, type, description: `[tck:typescript:local:t] test ${type}` } });
  }

  it('add (free-form lower-case type), get, list by type, update, delete', async () => {
    const e = await newEntity('TCK Alice');
    expect(e).toMatchObject({ id: expect.any(String), name: 'TCK Alice', type: 'concept', description: '[tck:typescript:local:t] test concept' });
    expect(e.id.length).toBeGreaterThanOrEqual(8);
    await newEntity('Grace Hopper', 'person');
    await ok('POST', '/entities', { body: { name: 'Ada Lovelace', entityType: 'PERSON', type: 'PERSON' } }); // upper-case still works
    const people = unwrap(await ok('GET', '/entities', { query: { type: 'person', limit: 5 } }), 'entities');
    expect(people.map((x: Json) => x.name).sort()).toEqual(['Ada Lovelace', 'Grace Hopper']);
    for (const p of people) expect(p.type).toBe('person');
    expect(await ok('GET', `/entities/${e.id}`)).toMatchObject({ id: e.id, name: 'TCK Alice', relationships: [] });
    expect(await ok('PUT', `/entities/${e.id}`, { body: { description: 'rewritten' } })).toMatchObject({ id: e.id, description: 'rewritten' });
    expect(await ok('PUT', `/entities/${e.id}`, { body: { name: 'Renamed-1' } })).toMatchObject({ id: e.id, name: 'Renamed-1' });
    expect(await ok('DELETE', `/entities/${e.id}`)).toBeUndefined();
    expect((await wire('GET', `/entities/${e.id}`)).status).toBe(404);
    expect(await ok('DELETE', `/entities/${e.id}`)).toBeUndefined(); // afterAll deletes again
  });

  it('search by name and by a lower-case type', async () => {
    const e = await newEntity();
    expect(unwrap(await ok('POST', '/entities/search', { body: { query: e.name, limit: 10 } }), 'entities').map((x: Json) => x.id)).toContain(e.id);
    expect(unwrap(await ok('POST', '/entities/search', { body: { query: e.name, type: 'concept', limit: 5 } }), 'entities').map((x: Json) => x.id)).toContain(e.id);
    expect(Array.isArray(unwrap(await ok('POST', '/entities/search', { body: { query: 'anything', limit: 10 } }), 'entities'))).toBe(true);
  });

  it('feedback answers {id, updated}; history answers entity_id and mentions; merge answers source_id, target_id, status', async () => {
    const a = await newEntity('Marie Curie', 'person');
    expect(await ok('PUT', `/entities/${a.id}/feedback`, { body: { userScore: 0.93, confirmed: true } })).toMatchObject({ id: a.id, updated: true });
    expect(await ok('PUT', `/entities/${a.id}/feedback`, { body: { userScore: 0, confirmed: false } })).toMatchObject({ id: a.id });
    const c1 = await newConversation('history-1');
    const c2 = await newConversation('history-2');
    await ok('POST', `/conversations/${c1.id}/messages`, { body: { role: 'user', content: 'Marie Curie discovered polonium.' } });
    await ok('POST', `/conversations/${c2.id}/messages`, { body: { role: 'assistant', content: 'Yes, Marie Curie won two Nobel Prizes.' } });
    const history = await ok('GET', `/entities/${a.id}/history`);
    expect(history.entity_id).toBe(a.id);
    expect(history.mentions.map((m: Json) => m.conversation_id).sort()).toEqual([c1.id, c2.id].sort());
    for (const m of history.mentions) expect(m).toMatchObject({ message_id: expect.any(String), content: expect.stringContaining('Marie Curie'), timestamp: expect.stringMatching(ISO) });
    const b = await newEntity();
    const merged = await ok('POST', `/entities/${b.id}/merge`, { body: { targetId: a.id } });
    expect(merged).toMatchObject({ source_id: b.id, target_id: a.id, status: 'merged', link: { type: 'SAME_AS', source_id: b.id, target_id: a.id } });
  });

  it('extracted entities are found by search, by type and in the bridge view; a merge is a SAME_AS edge; history without mentions is present', async () => {
    const unique = 'TCKMercury1a2b3c4d';
    const c = await newConversation('extract');
    await ok('POST', `/conversations/${c.id}/messages`, { body: { role: 'user', content: `${unique} is the smallest planet in our solar system.` } });
    await ok('POST', `/conversations/${c.id}/messages`, { body: { role: 'assistant', content: `Yes, ${unique} has a thin atmosphere. Grace Hopper agreed.` } });
    const found = unwrap(await ok('POST', '/entities/search', { body: { query: unique, limit: 10 } }), 'entities').find((e: Json) => e.name === unique);
    expect(found).toMatchObject({ type: 'concept' });
    expect(unwrap(await ok('GET', '/entities', { query: { type: 'person' } }), 'entities').map((e: Json) => e.name)).toContain('Grace Hopper');
    expect((await ok('GET', `/entities/${found.id}/history`)).mentions.map((m: Json) => m.conversation_id)).toEqual([c.id, c.id]);
    // Over the bridge: the five types, a free-form one as OBJECT with it as the subtype.
    expect(s.store.get_entity_by_name({ name: 'Grace Hopper' })).toMatchObject({ type: 'PERSON' });
    expect(s.store.get_entity_by_name({ name: unique })).toMatchObject({ type: 'OBJECT', subtype: 'concept' });
    const quiet = await newEntity();
    expect(await ok('GET', `/entities/${quiet.id}/history`)).toMatchObject({ entity_id: quiet.id, mentions: [] });
    const src = await newEntity();
    await ok('POST', `/entities/${src.id}/merge`, { body: { targetId: quiet.id } });
    expect((await ok('GET', '/entities/graph')).edges).toContainEqual(expect.objectContaining({ id: expect.any(String), source: src.id, target: quiet.id, type: 'SAME_AS' }));
  });

  it('the graph has nodes {id, name, type} and edges {id, source, target, type}', async () => {
    const a = await newEntity('Alice Example', 'person');
    const b = await newEntity('Acme Example', 'organization');
    s.store.add_relationship({ source_id: a.id, target_id: b.id, relationship_type: 'WORKS_AT' });
    const graph = await ok('GET', '/entities/graph');
    expect(graph.nodes[0]).toMatchObject({ id: expect.any(String), name: expect.any(String), type: expect.any(String) });
    expect(graph.edges).toEqual([expect.objectContaining({ id: expect.any(String), source: a.id, target: b.id, type: 'WORKS_AT' })]);
    // get_entity's relationships, when present, are {id, type, targetId, targetName, properties} (Python reads d["id"]).
    expect((await ok('GET', `/entities/${a.id}`)).relationships).toEqual([{ id: graph.edges[0].id, type: 'WORKS_AT', target_id: b.id, target_name: 'Acme Example', properties: {} }]);
  });
});

describe('reasoning and the query console, as the official clients call them', () => {
  it('record, list, explain (top-level fields, tool_calls, influenced_entities), trace (steps, tool_calls), provenance', async () => {
    const conv = await newConversation('reasoning');
    const entity = await ok('POST', '/entities', { body: { name: 'Acme', entityType: 'organization', type: 'organization' } });
    const r1 = await ok('POST', '/reasoning/steps', { body: { conversationId: conv.id, reasoning: 'r-one about Acme', actionTaken: 'lookup', result: 'found Acme' } });
    const r2 = await ok('POST', '/reasoning/steps', { body: { conversationId: conv.id, reasoning: 'r-two', actionTaken: 'answer' } });
    expect(r1).toMatchObject({ id: expect.any(String), conversation_id: conv.id, reasoning: 'r-one about Acme', action_taken: 'lookup', created_at: expect.stringMatching(ISO) });
    const call = await ok('POST', '/reasoning/tool-calls', { body: { stepId: r1.id, toolName: 'graph_search', arguments: { q: 'Acme' }, input: '{"q":"Acme"}', result: 'one hit', output: 'one hit', status: 'success', durationMs: 5 } });
    expect(call).toMatchObject({ id: expect.any(String), tool_name: 'graph_search', duration_ms: 5 });
    const listed = unwrap(await ok('GET', '/reasoning/steps', { query: { conversation_id: conv.id } }), 'steps');
    expect(listed.map((x: Json) => x.id)).toEqual(expect.arrayContaining([r1.id, r2.id]));
    const explained = await ok('GET', `/reasoning/explain/${r1.id}`);
    expect(explained).toMatchObject({ id: r1.id, conversation_id: conv.id, reasoning: 'r-one about Acme', action_taken: 'lookup', result: 'found Acme', created_at: expect.stringMatching(ISO) });
    expect(explained.tool_calls.map((c: Json) => c.id)).toEqual([call.id]);
    expect(explained.influenced_entities.map((e: Json) => e.id)).toEqual([entity.id]);
    const trace = await ok('GET', `/reasoning/trace/${conv.id}`);
    expect(trace.conversation_id).toBe(conv.id);
    expect(trace.steps.map((x: Json) => x.id)).toEqual(expect.arrayContaining([r1.id, r2.id]));
    expect(trace.steps.some((x: Json) => String(x.reasoning).includes('r'))).toBe(true);
    expect(trace.tool_calls).toEqual([expect.objectContaining({ id: call.id, step_id: r1.id })]);
    const fresh = await newConversation('fresh');
    expect(await ok('GET', `/reasoning/trace/${fresh.id}`)).toMatchObject({ conversation_id: fresh.id, steps: [expect.any(Object)], tool_calls: [] });
    const provenance = await ok('GET', `/reasoning/provenance/${entity.id}`);
    expect(provenance).toMatchObject({ entity_id: entity.id, steps: [expect.objectContaining({ id: r1.id })] });
  });

  it('cypher with params: {columns, rows} with rows as arrays; parameters; writes rejected with 400', async () => {
    await ok('POST', '/entities', { body: { name: 'Alice', entityType: 'person', type: 'person' } });
    const count = await ok('POST', '/query', { body: { cypher: 'MATCH (n) RETURN count(n) AS total', params: {} } });
    expect(count).toMatchObject({ columns: ['total'], rows: [[1]] });
    const label = await ok('POST', '/query', { body: { cypher: 'MATCH (n) RETURN $label AS label LIMIT 1', params: { label: 'tck-e2e' } } });
    expect(label).toMatchObject({ columns: ['label'], rows: [['tck-e2e']] });
    const write = await wire('POST', '/query', { body: { cypher: "CREATE (n:Person {name: 'x'})", params: {} } });
    expect(write.status).toBe(400);
    expect(write.value.error).toMatch(/CREATE changes data; the query console is read-only/);
  });

  it('refuses a made-up key and a missing one (AuthenticationError: 401)', async () => {
    expect((await wire('GET', '/conversations', { query: { limit: 1 }, token: 'nams_obviously_not_real_token' })).status).toBe(401);
    expect((await wire('GET', '/conversations', { query: { limit: 1 }, token: null })).status).toBe(401);
  });
});

describe("the clients' end-to-end flow", () => {
  it('create a conversation, add messages, find the extracted entity, context, explain, trace, query', async () => {
    const unique = `TCKMercury${Math.random().toString(16).slice(2, 10)}`;
    const conv = await newConversation('agent-workflow');
    await ok('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: `${unique} is the smallest planet in the solar system.` } });
    await ok('POST', `/conversations/${conv.id}/messages`, { body: { role: 'assistant', content: `Yes, ${unique} has a thin atmosphere.` } });
    // The e2e suite polls search_entities for the name; extraction is synchronous here, so one call finds it.
    const found = unwrap(await ok('POST', '/entities/search', { body: { query: unique, limit: 10 } }), 'entities');
    const entity = found.find((e: Json) => String(e.name).toLowerCase().includes(unique.toLowerCase()));
    expect(entity).toMatchObject({ id: expect.any(String), name: unique, type: 'concept' });
    expect(unwrap(await ok('GET', '/entities', { query: { type: 'concept' } }), 'entities').map((e: Json) => e.id)).toContain(entity.id);
    expect((await ok('GET', `/entities/${entity.id}/history`)).mentions).toHaveLength(2);
    // The bridge view of the same entity: OBJECT, one of the bridge's five types.
    expect(s.store.get_entity_by_name({ name: unique })).toMatchObject({ id: entity.id, type: 'OBJECT' });

    await ok('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages: [{ role: 'user', content: 'I flew to Tokyo last week.' }, { role: 'assistant', content: 'Did you visit the Tsukiji market?' }] } });
    const ctx = await ok('GET', `/conversations/${conv.id}/context`);
    expect(ctx.recent_messages.some((m: Json) => /Tokyo|Tsukiji/.test(m.content))).toBe(true);
    expect(ctx.observations.length).toBeGreaterThan(0);

    const step = await ok('POST', '/reasoning/steps', { body: { conversationId: conv.id, reasoning: `The user asked about ${unique}`, actionTaken: 'answer', result: 'explained the atmosphere' } });
    const explained = await ok('GET', `/reasoning/explain/${step.id}`);
    expect(explained.id).toBe(step.id);
    expect(explained.influenced_entities.map((e: Json) => e.id)).toContain(entity.id);
    const trace = await ok('GET', `/reasoning/trace/${conv.id}`);
    expect(trace.steps.map((x: Json) => x.id)).toContain(step.id);
    const q = await ok('POST', '/query', { body: { cypher: 'MATCH (e:Concept {name: $name}) RETURN e.id AS id', params: { name: unique } } });
    expect(q).toMatchObject({ columns: ['id'], rows: [[entity.id]] });
  });
});
