// The bridge forwarder keeps its one credential's workspace (issue 36 item 4): what it writes lands
// in the workspace of MEMORY_API_KEY, what it lists and clears is that workspace's only, and another
// workspace's data is neither shown through it nor deleted by its clear_all_data.
import { afterEach, describe, expect, it } from 'vitest';
import { HostedStore, createForwarder } from '../../src/servers/hosted/index.js';
import { startBridgeServer, type RunningBridgeServer } from '../../src/servers/bridge/index.js';
import { request, startService, type Service } from './helpers.js';

let s: Service | undefined;
let fwd: RunningBridgeServer | undefined;
afterEach(async () => {
  await fwd?.close();
  await s?.close();
  fwd = s = undefined;
});

describe('the forwarder and workspaces', () => {
  it("acts in its credential's workspace only: another workspace's data is not shown through it, nor cleared by it", async () => {
    s = await startService({ store: new HostedStore() });
    const other = (await s.hosted.keys.issue({ label: 'b', scopes: ['read', 'write'], workspaceId: 'ws-b' })).key;
    fwd = await startBridgeServer(createForwarder({ endpoint: s.hosted.baseUrl, apiKey: s.hosted.apiKey, timeoutMs: 5_000 }));
    const bridge = (method: string, body: unknown = {}) => request(`${fwd!.url}/${method}`, 'POST', { body });
    const rest = (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => request(`${s!.hosted.baseUrl}${path}`, method, { token, ...(body !== undefined ? { body } : {}) });

    // The other workspace's data, written over REST with its own key.
    const conv = (await rest('POST', '/conversations', other, { userId: 'bo' })).body.id as string;
    expect((await rest('POST', `/conversations/${conv}/messages`, other, { role: 'user', content: 'Bo keeps the b-secret' })).status).toBe(201);
    expect((await rest('POST', '/entities', other, { name: 'Bo Secret', type: 'person' })).status).toBe(201);

    // Through the forwarder (the bootstrap key's workspace): its own data, none of the other's.
    expect((await bridge('add_message', { session_id: 'fwd-1', role: 'user', content: 'Ada via the forwarder' })).status).toBe(200);
    expect((await bridge('add_entity', { name: 'Ada Forward', entity_type: 'PERSON' })).status).toBe(200);
    const listed = JSON.stringify((await bridge('list_conversations', {})).body);
    expect(listed).not.toContain(conv);
    expect(JSON.stringify((await bridge('search_entities', { query: 'Bo Secret' })).body)).not.toContain('Bo Secret');
    expect(JSON.stringify((await bridge('get_conversation', { session_id: conv })).body)).not.toContain('b-secret');
    expect(JSON.stringify((await bridge('cypher_query', { cypher: 'MATCH (n) WHERE n.name = $name RETURN n.name AS name', params: { name: 'Bo Secret' } })).body)).not.toContain('Bo Secret');

    // The other workspace sees none of the forwarder's writes.
    expect(JSON.stringify((await rest('GET', '/conversations', other)).body)).not.toContain('fwd-1');
    expect(JSON.stringify((await rest('GET', '/entities', other)).body)).not.toContain('Ada Forward');

    // clear_all_data through the forwarder clears its workspace, and leaves the other's as it was.
    expect((await bridge('clear_all_data', {})).status).toBeLessThan(300);
    expect(JSON.stringify((await rest('GET', '/entities', s.hosted.apiKey)).body)).not.toContain('Ada Forward');
    expect((await rest('GET', `/conversations/${conv}/messages`, other)).body.messages.map((m: { content: string }) => m.content)).toEqual(['Bo keeps the b-secret']);
    expect(JSON.stringify((await rest('GET', '/entities', other)).body)).toContain('Bo Secret');
  });
});
