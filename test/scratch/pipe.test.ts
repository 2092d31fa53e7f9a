import { it } from 'vitest';
import { startBridgeServer, createDispatcher, MemoryStore } from '../../src/servers/bridge/index.js';
import { Client, Pool } from 'undici';
it('pipe', async () => {
const base = createDispatcher(new MemoryStore());
let inflight = 0, max = 0;
const server = await startBridgeServer(async (m, b) => { inflight++; max = Math.max(max, inflight); await new Promise(r => setTimeout(r, 20)); inflight--; return base(m, b); }, { port: 0 });
for (const c of [new Client(server.url, { pipelining: 16 }), new Pool(server.url, { connections: 4 })]) {
max = 0;
const t0 = Date.now();
await Promise.all(Array.from({ length: 16 }, (_, i) => c.request({ idempotent: true, blocking: false, method: 'POST', path: '/add_message', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id: 's', role: 'user', content: 'm' + i }) }).then(r => r.body.text())));
console.log('max inflight', max, Date.now() - t0);
await c.close();
}
await server.close();
});
