// The data endpoints of the hosted reference service: every endpoint of the document's tables
// answers with camelCase JSON, what is written is read back, and the REST and bridge views share
// one store.
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTED_ENDPOINTS, HostedStore, startCombinedServers, type CombinedServers } from '../../src/servers/hosted/index.js';
import { Entity, validate } from '../../src/protocols/bridge/index.js';
import { DOCUMENT_ENDPOINTS, seededRequests } from './endpoints.js';
import { ManualClock, nonCamelFields, request, startService, testIdp, type Service } from './helpers.js';

let s: Service;
afterEach(async () => s?.close());

describe('every endpoint of the document', () => {
  it('is served, and nothing else is', () => {
    const key = (e: readonly [string, string, string]) => `${e[0]} ${e[1].replace(/\{\w+\}/g, '{}')} ${e[2]}`;
    expect(HOSTED_ENDPOINTS.map(key).sort()).toEqual(DOCUMENT_ENDPOINTS.map(key).sort());
  });

  it('answers a valid request with 2xx and JSON (or 204), every field name camelCase', async () => {
    s = await startService();
    const requests = await seededRequests(s);
    expect(requests.map((r) => r.operation).sort()).toEqual(DOCUMENT_ENDPOINTS.map((e) => e[2]).filter((o) => !/exchange|refresh/.test(o)).sort());
    for (const r of requests) {
      const a = await s.call(r.method, r.path, r.body !== undefined ? { body: r.body } : {});
      expect({ op: r.operation, status: a.status }).toEqual({ op: r.operation, status: r.method === 'DELETE' ? 204 : r.method === 'POST' && !/search|query|merge/.test(r.operation) ? 201 : 200 });
      if (a.status === 204) expect(a.text).toBe('');
      else {
        expect(a.headers.get('content-type'), r.operation).toMatch(/^application\/json/);
        expect({ op: r.operation, bad: nonCamelFields(a.body) }).toEqual({ op: r.operation, bad: [] });
      }
    }
  });

  it('refuses bad input with 400 naming the field, unknown ids with 404, and wrong methods with 405', async () => {
    s = await startService();
    const before = s.state();
    const cases: [string, string, unknown, number, RegExp][] = [
      ['POST', '/conversations', {}, 400, /userId/],
      ['POST', '/conversations/c1/messages', { role: 'robot', content: 'x' }, 400, /role/],
      ['POST', '/conversations/c1/messages/bulk', { messages: [{ role: 'user', content: 'ok' }, { role: 'user' }] }, 400, /messages\[1\]\.content/],
      ['POST', '/entities', { name: 'X', type: '' }, 400, /type/],
      ['POST', '/entities', { name: 'X', type: ' ' }, 400, /type: must not be empty/],
      ['POST', '/conversations/c1/messages/bulk', { messages: Array.from({ length: 101 }, (_, i) => ({ role: 'user', content: `m${i}` })) }, 400, /messages: at most 100/],
      ['POST', '/query', { cypher: 'MATCH (n) DETACH DELETE n' }, 400, /^cypher: DETACH DELETE changes data; the query console is read-only/],
      ['POST', '/query', { params: {} }, 400, /cypher: is missing/],
      ['POST', '/reasoning/steps', { reasoning: 'r' }, 400, /conversationId/],
      ['GET', '/conversations?limit=-1', undefined, 400, /limit/],
      ['GET', '/conversations/nope', undefined, 404, /conversation/],
      ['GET', `/entities/${crypto.randomUUID()}`, undefined, 404, /entity/],
      ['GET', `/reasoning/explain/${crypto.randomUUID()}`, undefined, 404, /step/],
      ['POST', '/reasoning/tool-calls', { stepId: crypto.randomUUID(), toolName: 't' }, 404, /step/],
      ['POST', '/query', { query: 'RETURN 1' }, 400, /MATCH/],
      ['DELETE', '/entities/graph', undefined, 405, /GET/],
      ['GET', '/entities/search', undefined, 405, /POST/],
      ['GET', '/nothing-here', undefined, 404, /not found/],
    ];
    for (const [method, path, body, status, error] of cases) {
      const a = await s.call(method, path, body !== undefined ? { body } : {});
      expect({ path, status: a.status }).toEqual({ path, status });
      expect(a.body.error).toMatch(error);
    }
    expect(s.state()).toBe(before);
    // The messages of an unknown conversation are none, as the official clients read it (not a 404).
    expect((await s.call('GET', '/conversations/nope/messages')).body).toEqual({ id: 'nope', messages: [] });
  });

  it('refuses a body over the cap (413) and one that is not a JSON object (400)', async () => {
    s = await startService({ maxBodyBytes: 1024 });
    const big = await s.call('POST', '/conversations', { body: { userId: 'x'.repeat(2000) } });
    expect(big.status).toBe(413);
    const res = await fetch(`${s.hosted.baseUrl}/conversations`, { method: 'POST', headers: { authorization: `Bearer ${s.hosted.apiKey}`, 'content-type': 'application/json' }, body: '[1]' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/JSON object/);
    expect((await s.call('GET', '/conversations')).body).toEqual({ conversations: [] });
  });
});

describe('a handler that fails', () => {
  // Each server we ship answers every request: a handler that gives no reply (undefined, a
  // non-object, a status outside 100-599), throws something that is not an Error, or an intercept
  // that rejects, is answered 500 {"error"} at once, and the service goes on serving.
  const broken: [string, () => unknown][] = [
    ['no reply', () => undefined],
    ['a reply without a status', () => ({ body: { conversations: [] } })],
    ['a status out of range', () => ({ status: 42, body: {} })],
    ['a thrown string', () => { throw 'boom'; }],
    ['a body JSON cannot hold', () => ({ status: 200, body: { n: 1n } })],
  ];
  it.each(broken)('%s: answered 500 with an error, and the next request is served', async (_, handler) => {
    const { ROUTES } = await import('../../src/servers/hosted/routes.js');
    s = await startService({ routes: ROUTES.map((r) => (r.operation === 'list_conversations' ? { ...r, handler: handler as never } : r)) });
    const a = await s.call('GET', '/conversations');
    expect(a.status).toBe(500);
    expect(a.body.error).toMatch(/^internal error( in list_conversations)?: /);
    expect((await s.call('GET', '/entities')).status).toBe(200);
  });
  it('an intercept that answers no reply: 500, and the next request is served', async () => {
    let calls = 0;
    s = await startService({ intercept: async (r, next) => (++calls === 1 ? (undefined as never) : next(r)) });
    const a = await s.call('GET', '/conversations');
    expect([a.status, a.body]).toEqual([500, { error: 'internal error: no reply' }]);
    expect((await s.call('GET', '/conversations')).status).toBe(200);
  });
});

describe('what is written is read back', () => {
  it('conversations and messages', async () => {
    s = await startService();
    const conv = (await s.call('POST', '/conversations', { body: { userId: 'user-7', metadata: { user_id: 'kept as is' } } })).body;
    expect(conv).toMatchObject({ id: expect.any(String), userId: 'user-7', createdAt: expect.any(String), messageCount: 0 });
    expect((await s.call('GET', `/conversations/${conv.id}`)).body).toEqual(conv);
    expect((await s.call('GET', '/conversations')).body).toEqual({ conversations: [conv] });
    expect((await s.call('GET', '/conversations?user_id=someone-else')).body).toEqual({ conversations: [] });
    const m = (await s.call('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: 'Alice met Bob in Paris', metadata: { snake_key: 1 } } })).body;
    expect(m).toMatchObject({ id: expect.any(String), conversationId: conv.id, role: 'user', content: 'Alice met Bob in Paris', metadata: { snake_key: 1 } });
    await s.call('POST', `/conversations/${conv.id}/messages/bulk`, { body: { messages: [{ role: 'assistant', content: 'Noted' }, { role: 'system', content: 'Paris is in France' }] } });
    const got = (await s.call('GET', `/conversations/${conv.id}/messages`)).body;
    expect(got).toMatchObject({ id: conv.id, userId: 'user-7', messageCount: 3 });
    expect(got.messages.map((x: any) => x.content)).toEqual(['Alice met Bob in Paris', 'Noted', 'Paris is in France']);
    expect((await s.call('GET', `/conversations/${conv.id}/messages?limit=1`)).body.messages.map((x: any) => x.content)).toEqual(['Paris is in France']);
    const hits = (await s.call('POST', `/conversations/${conv.id}/search`, { body: { query: 'Paris' } })).body.messages;
    expect(hits.map((x: any) => x.content).sort()).toEqual(['Alice met Bob in Paris', 'Paris is in France']);
    expect(hits[0].score).toEqual(expect.any(Number));
    expect((await s.call('DELETE', `/conversations/${conv.id}`)).status).toBe(204);
    expect((await s.call('GET', `/conversations/${conv.id}`)).status).toBe(404);
    // Idempotent delete; an unknown (or deleted) conversation reads as empty.
    expect((await s.call('DELETE', `/conversations/${conv.id}`)).status).toBe(204);
    expect((await s.call('DELETE', '/conversations/never-made')).status).toBe(204);
    const state = s.state();
    expect((await s.call('GET', `/conversations/${conv.id}/messages`)).body).toEqual({ id: conv.id, messages: [] });
    expect((await s.call('POST', '/conversations/never-made/search', { body: { query: 'x' } })).body).toEqual({ messages: [] });
    expect((await s.call('GET', '/conversations/never-made/context')).body).toMatchObject({ conversationId: 'never-made', reflections: [], observations: [], recentMessages: [], entities: [] });
    expect((await s.call('GET', '/conversations/never-made/observations')).body).toEqual({ conversationId: 'never-made', observations: [] });
    expect((await s.call('GET', '/conversations/never-made/reflections')).body).toEqual({ conversationId: 'never-made', reflections: [] });
    expect(s.state()).toBe(state);
  });

  it('entities: add, get, update, feedback, history, graph, search, merge, delete', async () => {
    s = await startService();
    const alice = (await s.call('POST', '/entities', { body: { name: 'Alice', entityType: 'PERSON', description: 'a person' } })).body;
    const acme = (await s.call('POST', '/entities', { body: { name: 'Acme', type: 'organization' } })).body;
    // Types are free-form and answered in lower case (the official clients filter on "person").
    expect(alice).toMatchObject({ id: expect.any(String), name: 'Alice', type: 'person', description: 'a person', createdAt: expect.any(String) });
    expect(acme.type).toBe('organization');
    const idea = (await s.call('POST', '/entities', { body: { name: 'Relativity', entityType: 'concept', type: 'concept' } })).body;
    expect(idea.type).toBe('concept');
    expect(s.store.get_entity_by_name({ name: 'Relativity' })).toMatchObject({ type: 'OBJECT', subtype: 'concept' });
    expect((await s.call('GET', '/entities?type=CONCEPT')).body.entities.map((e: any) => e.name)).toEqual(['Relativity']);
    expect((await s.call('GET', `/entities/${alice.id}`)).body).toEqual({ ...alice, relationships: [] });
    const updated = (await s.call('PUT', `/entities/${alice.id}`, { body: { description: 'an engineer', canonicalName: 'Alice A.' } })).body;
    expect(updated).toMatchObject({ name: 'Alice', description: 'an engineer', canonicalName: 'Alice A.', updatedAt: expect.any(String) });
    expect((await s.call('PUT', `/entities/${alice.id}/feedback`, { body: { rating: -1, comment: 'wrong company' } })).body).toMatchObject({ id: alice.id, updated: true, feedback: { rating: -1, comment: 'wrong company' } });
    expect((await s.call('PUT', `/entities/${alice.id}/feedback`, { body: { userScore: 1.5 } })).status).toBe(400);
    expect((await s.call('GET', `/entities/${alice.id}`)).body.feedback).toEqual({ rating: -1, comment: 'wrong company' });
    const history = (await s.call('GET', `/entities/${alice.id}/history`)).body.history;
    expect(history.map((h: any) => h.action)).toEqual(['created', 'updated', 'feedback']);
    expect(history[1].details.description).toEqual({ from: 'a person', to: 'an engineer' });
    expect((await s.call('GET', '/entities?type=PERSON')).body.entities.map((e: any) => e.name)).toEqual(['Alice']);
    expect((await s.call('GET', '/entities?type=person')).body.entities.map((e: any) => e.type)).toEqual(['person']);
    expect((await s.call('GET', '/entities?type=Concept')).body.entities.map((e: any) => e.name)).toEqual(['Relativity']);
    expect((await s.call('POST', '/entities/search', { body: { query: 'Relativity', type: 'concept' } })).body.entities.map((e: any) => e.id)).toEqual([idea.id]);
    expect((await s.call('DELETE', `/entities/${idea.id}`)).status).toBe(204);
    expect((await s.call('DELETE', `/entities/${idea.id}`)).status).toBe(204);
    expect((await s.call('POST', '/entities/search', { body: { query: 'acme' } })).body.entities.map((e: any) => e.name)).toEqual(['Acme']);
    s.store.add_relationship({ source_id: alice.id, target_id: acme.id, relationship_type: 'WORKS_AT' });
    const graph = (await s.call('GET', '/entities/graph')).body;
    expect(graph.nodes.map((n: any) => n.id).sort()).toEqual([alice.id, acme.id].sort());
    expect(graph.edges).toEqual([expect.objectContaining({ source: alice.id, target: acme.id, type: 'WORKS_AT', sourceId: alice.id, targetId: acme.id, relationshipType: 'WORKS_AT' })]);
    const q = (await s.call('POST', '/query', { body: { query: 'MATCH (p:Person)-[r:WORKS_AT]->(o) WHERE o.name = $org RETURN p.name AS person, o.name', parameters: { org: 'Acme' } } })).body;
    expect(q).toEqual({ columns: ['person', 'o.name'], rows: [['Alice', 'Acme']], records: [{ person: 'Alice', 'o.name': 'Acme' }] });
    const dup = (await s.call('POST', '/entities', { body: { name: 'Alicia', type: 'PERSON' } })).body;
    const merged = (await s.call('POST', `/entities/${dup.id}/merge`, { body: { targetId: alice.id } })).body;
    expect(merged).toMatchObject({ sourceId: dup.id, targetId: alice.id, status: 'merged', entity: { id: alice.id, aliases: ['Alicia'] } });
    expect((await s.call('GET', `/entities/${dup.id}`)).status).toBe(404);
    expect((await s.call('DELETE', `/entities/${acme.id}`)).status).toBe(204);
    expect((await s.call('DELETE', `/entities/${acme.id}`)).status).toBe(204); // idempotent
    // The merge's SAME_AS link stays: source -> target.
    expect((await s.call('GET', '/entities/graph')).body.edges).toEqual([expect.objectContaining({ source: dup.id, target: alice.id, type: 'SAME_AS' })]);
  });

  // Graph nodes are "an array of entities" and edges "relationships between entities"
  // (hosted-rest-api.md, Entity graph response): a merged-away entity shown as a node is deleted by
  // DELETE /entities/{id}, and deleting a merge's target takes its SAME_AS links with it, so a client
  // that clears by listing and deleting (the established Go and R bridges would have to:
  // docs/third-party.md) can empty the graph.
  it('entities: deleting a merged-away node or a merge target leaves no node or SAME_AS edge of it', async () => {
    s = await startService();
    const add = async (name: string) => (await s.call('POST', '/entities', { body: { name, type: 'person' } })).body as { id: string };
    const [target, dupA, dupB, other] = [await add('Halvard Quay'), await add('H. Quay'), await add('Hal Quay'), await add('Other One')];
    for (const dup of [dupA, dupB]) expect((await s.call('POST', `/entities/${dup.id}/merge`, { body: { targetId: target.id } })).status).toBe(200);
    const graph = async () => (await s.call('GET', '/entities/graph')).body as { nodes: { id: string }[]; edges: { source: string; target: string; type: string }[] };
    expect((await graph()).nodes.map((n) => n.id).sort()).toEqual([target.id, dupA.id, dupB.id, other.id].sort());
    expect((await s.call('DELETE', `/entities/${dupA.id}`)).status).toBe(204);
    let g = await graph();
    expect(g.nodes.map((n) => n.id).sort()).toEqual([target.id, dupB.id, other.id].sort());
    expect(g.edges).toEqual([expect.objectContaining({ source: dupB.id, target: target.id, type: 'SAME_AS' })]);
    expect((await s.call('DELETE', `/entities/${target.id}`)).status).toBe(204);
    g = await graph();
    expect(g.nodes.map((n) => n.id)).toEqual([other.id]);
    expect(g.edges).toEqual([]);
  });

  it('reasoning: steps, tool calls, explanation, trace, observations, reflections, provenance, context', async () => {
    s = await startService();
    const conv = (await s.call('POST', '/conversations', { body: { userId: 'u' } })).body;
    await s.call('POST', `/conversations/${conv.id}/messages`, { body: { role: 'user', content: 'Where does Alice work?' } });
    const alice = (await s.call('POST', '/entities', { body: { name: 'Alice', type: 'PERSON' } })).body;
    const input = { conversationId: conv.id, reasoning: 'The user asks about Alice', actionTaken: 'search the graph', result: 'Alice works at Acme' };
    const step = (await s.call('POST', '/reasoning/steps', { body: input })).body;
    expect(step).toMatchObject({ ...input, id: expect.any(String), stepNumber: 1, toolCalls: [], createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const call = (await s.call('POST', '/reasoning/tool-calls', { body: { stepId: step.id, toolName: 'graph_search', arguments: { name: 'Alice' }, result: { hits: 1 }, durationMs: 12 } })).body;
    expect(call).toMatchObject({ stepId: step.id, toolName: 'graph_search', arguments: { name: 'Alice' }, result: { hits: 1 }, status: 'success', durationMs: 12 });
    const steps = (await s.call('GET', `/reasoning/steps?conversation_id=${conv.id}`)).body.steps;
    expect(steps).toEqual([{ ...step, toolCalls: [call] }]);
    expect((await s.call('GET', '/reasoning/steps?conversationId=other')).body.steps).toEqual([]);
    const explained = (await s.call('GET', `/reasoning/explain/${step.id}`)).body;
    expect(explained.step.id).toBe(step.id);
    expect(explained).toMatchObject({ id: step.id, toolCalls: [call], influencedEntities: [expect.objectContaining({ id: alice.id })] });
    expect(explained.explanation).toContain('search the graph');
    const trace = (await s.call('GET', `/reasoning/trace/${conv.id}`)).body;
    expect(trace.traces).toHaveLength(1);
    expect(trace.traces[0].steps[0].id).toBe(step.id);
    expect(trace).toMatchObject({ conversationId: conv.id, steps: [expect.objectContaining({ id: step.id })], toolCalls: [call] });
    // Observations: the message window (naming Alice) and the step's result.
    expect((await s.call('GET', `/conversations/${conv.id}/observations`)).body.observations.map((o: any) => o.content)).toEqual([
      '1 message (user) naming Alice; first: "Where does Alice work?"', 'search the graph: Alice works at Acme',
    ]);
    s.store.complete_trace({ trace_id: step.traceId, outcome: 'answered', success: true });
    const reflections = (await s.call('GET', `/conversations/${conv.id}/reflections`)).body.reflections;
    expect(reflections.map((r: any) => r.content)).toEqual([`conversation ${conv.id}: answered (succeeded)`, '2 observations over 1 messages; most named: Alice (1)']);
    expect((await s.call('GET', `/reasoning/provenance/${alice.id}`)).body).toEqual({ entityId: alice.id, steps: [expect.objectContaining({ id: step.id })] });
    const context = (await s.call('GET', `/conversations/${conv.id}/context`)).body;
    expect(context.recentMessages.map((m: any) => m.content)).toEqual(['Where does Alice work?']);
    expect(context.observations).toHaveLength(2);
    expect(context.reflections).toHaveLength(2);
    expect(context.entities.map((e: any) => e.name)).toEqual(['Alice']);
    expect(context.observations).toHaveLength(2);
    expect(context.reflections).toHaveLength(2);
  });
});

describe('the REST and bridge views share one store', () => {
  let both: CombinedServers;
  afterEach(async () => both?.close());
  const bridge = (method: string, body: unknown = {}) => request(`${both.bridge.url}/${method}`, 'POST', { body });
  const rest = (method: string, path: string, body?: unknown) =>
    request(`${both.hosted.baseUrl}${path}`, method, { token: both.hosted.apiKey, ...(body !== undefined ? { body } : {}) });

  it('a message added over REST is the message the bridge sees, and the other way round', async () => {
    const clock = new ManualClock();
    both = await startCombinedServers({ store: new HostedStore({ now: clock.now }), identityProviders: [(await testIdp()).trustedIssuer()] });
    const conv = (await rest('POST', '/conversations', { userId: 'u-1' })).body;
    const m = (await rest('POST', `/conversations/${conv.id}/messages`, { role: 'user', content: 'from REST' })).body;
    const seen = (await bridge('get_conversation', { session_id: conv.id })).body;
    expect(seen.messages).toEqual([{ id: m.id, role: 'user', content: 'from REST', timestamp: m.timestamp, embedding: null, metadata: {} }]);
    const b = (await bridge('add_message', { session_id: 'bridge-session', role: 'assistant', content: 'from the bridge' })).body;
    const got = (await rest('GET', '/conversations/bridge-session/messages')).body;
    expect(got).toMatchObject({ id: 'bridge-session', userId: null, messages: [{ id: b.id, content: 'from the bridge', conversationId: 'bridge-session' }] });
    expect((await bridge('list_sessions')).body.map((x: any) => x.session_id)).toEqual([conv.id, 'bridge-session']);
  });

  it('entities extracted from a REST message are in the bridge view, valid there; bridge messages are not read', async () => {
    both = await startCombinedServers({ identityProviders: [(await testIdp()).trustedIssuer()] });
    await rest('POST', '/conversations/c-x/messages', { role: 'user', content: 'Marie Curie won the Nobel Prize in Paris.' });
    const found = (await bridge('search_entities', { query: 'Marie Curie Nobel Prize Paris' })).body;
    expect(found.map((e: any) => [e.name, e.type]).sort()).toEqual([['Marie Curie', 'PERSON'], ['Nobel Prize', 'OBJECT'], ['Paris', 'LOCATION']]);
    for (const e of found) expect(validate(Entity, e).ok).toBe(true);
    expect((await rest('GET', '/entities?type=concept')).body.entities.map((e: any) => e.name)).toEqual(['Nobel Prize']);
    // An entity added on purpose supersedes the extracted one of its name: one name, one entity.
    const paris = (await bridge('add_entity', { name: 'Paris', entity_type: 'LOCATION', description: 'the capital' })).body;
    expect((await bridge('get_entity_by_name', { name: 'Paris' })).body).toMatchObject({ id: paris.id, description: 'the capital' });
    expect((await rest('GET', '/entities?type=location')).body.entities.map((e: any) => e.id)).toEqual([paris.id]);
    await bridge('add_message', { session_id: 'b-1', role: 'user', content: 'Grace Hopper visited London.' });
    expect((await bridge('get_entity_by_name', { name: 'Grace Hopper' })).body).toBeNull();
  });

  it('entities, relationships and steps are shared; a bridge clear_all_data empties the REST view', async () => {
    both = await startCombinedServers({ identityProviders: [(await testIdp()).trustedIssuer()] });
    const a = (await bridge('add_entity', { name: 'Alice', entity_type: 'PERSON' })).body;
    const o = (await rest('POST', '/entities', { name: 'Acme', type: 'ORGANIZATION' })).body;
    await bridge('add_relationship', { source_id: a.id, target_id: o.id, relationship_type: 'WORKS_AT' });
    expect((await rest('GET', '/entities/graph')).body.edges).toHaveLength(1);
    expect((await bridge('get_related_entities', { entity_id: a.id })).body.map((e: any) => e.name)).toEqual(['Acme']);
    const step = (await rest('POST', '/reasoning/steps', { conversationId: 'c-1', reasoning: 'why', actionTaken: 'what', result: 'so' })).body;
    const trace = (await bridge('get_trace_with_steps', { trace_id: step.traceId })).body;
    expect(trace).toMatchObject({ session_id: 'c-1', steps: [{ id: step.id, thought: 'why', action: 'what', observation: 'so' }] });
    await rest('POST', '/conversations', { userId: 'u' });
    expect((await bridge('clear_all_data')).status).toBe(204);
    expect((await rest('GET', '/conversations')).body).toEqual({ conversations: [] });
    expect((await rest('GET', '/entities')).body).toEqual({ entities: [] });
    expect((await rest('GET', '/reasoning/steps')).body).toEqual({ steps: [] });
  });
});
