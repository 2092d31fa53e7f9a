import { test } from 'vitest';
import { request } from 'undici';
import { startReferenceServer } from '../../src/reference/index.js';
import { Readable } from 'node:stream';

test('scratch', async () => {
  const s = await startReferenceServer();
  const post = async (m: string, body: unknown) => {
    const r = await request(`${s.url}/${m}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const text = await r.body.text();
    console.log(m, r.statusCode, r.headers['content-type'], text.slice(0, 300));
  };
  await post('setup', {});
  await post('add_message', { session_id: 's', role: 'user', content: 'Hello world' });
  await post('add_message', { session_id: 's', content: 'Hello world' });
  await post('add_message', { session_id: 's', role: 'x', content: 5 });
  await post('get_conversation', { session_id: 's', limit: -3 });
  await post('get_conversation', { session_id: 's' });
  await post('search_messages', { query: 'hello' });
  await post('teardown', '');
  await post('foo', '');
  await post('add_message', '[1]');
  await post('add_message', '{bad');
  let t = Date.now();
  try {
    const big = Buffer.alloc(16 * 1024 * 1024 + 1, 0x20);
    const r = await request(`${s.url}/add_message`, { method: 'POST', body: big });
    console.log('big', r.statusCode, await r.body.text(), Date.now() - t);
  } catch (e) { console.log('big err', e, Date.now() - t); }
  t = Date.now();
  try {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    async function* gen() { for (let i = 0; i < 40; i++) yield chunk; }
    const r = await request(`${s.url}/add_message`, { method: 'POST', body: Readable.from(gen()) });
    console.log('chunked', r.statusCode, await r.body.text(), Date.now() - t);
  } catch (e) { console.log('chunked err', e, Date.now() - t); }
  await post('setup', {});
  const r = await fetch(`${s.url}/setup`, { method: 'GET' });
  console.log('GET', r.status, await r.text(), [...r.headers]);
  await s.close();
});
