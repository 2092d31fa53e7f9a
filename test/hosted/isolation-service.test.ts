// The hosted reference service isolates workspaces (issue 36, docs/isolation.md): the issue's
// steps, replayed as a second tenant with an access token exchanged for workspace ws-other, now find
// nothing of the default workspace and change nothing of it; and the bridge view acts in the
// bootstrap key's workspace.
import { afterEach, describe, expect, it } from 'vitest';
import { HostedStore } from '../../src/servers/hosted/index.js';
import { startReferenceServer } from '../../src/servers/bridge/index.js';
import { exchange, request, startService, type Service } from './helpers.js';

let s: Service | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

describe('workspaces of the hosted reference service', () => {
  it("a token exchanged for another workspace reaches none of the default workspace's data, and changes none of it", async () => {
    s = await startService();
    const conv = (await s.call('POST', '/conversations', { body: { userId: 'ada' } })).body.id as string;
    await s.call('POST', `/conversations/${conv}/messages`, { body: { role: 'user', content: 'Ada Lovelace works at Analytical Engines' } });
    const ent = (await s.call('POST', '/entities', { body: { name: 'Ada Lovelace', type: 'person' } })).body.id as string;
    const { access_token: other } = await exchange(s, { workspaceId: 'ws-other' });
    const before = s.state();
    const as = { token: other };
    expect((await s.call('GET', '/auth/api-keys', as)).body.workspaceId).toBe('ws-other');
    expect((await s.call('GET', '/conversations', as)).body).toEqual({ conversations: [] });
    expect((await s.call('GET', `/conversations/${conv}`, as)).status).toBe(404);
    expect((await s.call('POST', '/entities/search', { ...as, body: { query: 'Ada Lovelace' } })).body).toEqual({ entities: [] });
    expect((await s.call('GET', '/entities/graph', as)).body).toEqual({ nodes: [], edges: [] });
    expect((await s.call('GET', `/entities/${ent}`, as)).status).toBe(404);
    expect((await s.call('POST', '/query', { ...as, body: { cypher: 'MATCH (n) RETURN count(n) AS c' } })).body.rows).toEqual([[0]]);
    // Writes and deletes addressed to the default workspace's ids change nothing there.
    expect((await s.call('DELETE', `/conversations/${conv}`, as)).status).toBe(204);
    expect((await s.call('PUT', `/entities/${ent}`, { ...as, body: { description: 'changed' } })).status).toBe(404);
    expect((await s.call('DELETE', `/entities/${ent}`, as)).status).toBe(204);
    expect(s.state()).toBe(before);
    expect((await s.call('POST', `/conversations/${conv}/messages`, { ...as, body: { role: 'user', content: 'intruder' } })).status).toBe(201);
    expect((await s.call('GET', `/conversations/${conv}/messages`)).body.messages.map((m: { content: string }) => m.content)).toEqual(['Ada Lovelace works at Analytical Engines']);
    // … the message went to a conversation of that id in ws-other, which only ws-other sees.
    expect((await s.call('GET', `/conversations/${conv}/messages`, as)).body.messages.map((m: { content: string }) => m.content)).toEqual(['intruder']);
    expect((await s.call('GET', `/conversations/${conv}`)).body).toMatchObject({ id: conv, userId: 'ada', workspaceId: 'default' });
  });

  it("the bridge view acts in the bootstrap key's workspace", async () => {
    const store = new HostedStore();
    s = await startService({ store });
    const bridge = await startReferenceServer({ store, port: 0 });
    try {
      await request(`${bridge.url}/add_message`, 'POST', { body: { session_id: 's-1', role: 'user', content: 'via the bridge' } });
      expect((await s.call('GET', '/conversations/s-1/messages')).body.messages.map((m: { content: string }) => m.content)).toEqual(['via the bridge']);
      const other = (await s.hosted.keys.issue({ label: 'b', scopes: ['read'], workspaceId: 'ws-b' })).key;
      expect((await s.call('GET', '/conversations', { token: other })).body).toEqual({ conversations: [] });
      expect((await s.call('GET', '/conversations/s-1', { token: other })).status).toBe(404);
    } finally {
      await bridge.close();
    }
  });
});
