// Every credential rule of the hosted reference service (hosted-rest-api.md, "Authentication" and
// the API key lifecycle): refused credentials, key creation, listing, revocation, reveal, expiry,
// scopes, and API keys and access tokens used alike.
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_LIFETIME_MS, ApiKeyRegistry } from '../../src/servers/hosted/index.js';
import { digestOf } from '../../src/servers/hosted/credentials.js';
import { READING_POSTS, seededRequests } from './endpoints.js';
import { DAY_MS, exchange, startService, type Service } from './helpers.js';

let s: Service;
afterEach(async () => s?.close());

/** Creates a key with the bootstrap key and returns its id and plaintext. */
async function createKey(svc: Service, body: Record<string, unknown> = {}, token?: string) {
  const r = await svc.call('POST', '/auth/api-keys', { body: { label: 'test', scopes: ['read', 'write'], workspaceId: svc.hosted.workspaceId, ...body }, ...(token ? { token } : {}) });
  expect(r.status, r.text).toBe(201);
  return r.body as { id: string; key: string; expiresAt: string; createdAt: string; workspaceId: string };
}

describe('refused credentials: 401 with a JSON error, and nothing changes', () => {
  const refusals: [string, (svc: Service) => Promise<{ token?: string | null; authorization?: string }>][] = [
    ['no Authorization header', async () => ({ token: null })],
    ['a garbage Bearer value', async () => ({ token: 'garbage' })],
    ['an unknown key of the right form', async () => ({ token: ApiKeyRegistry.generateKey() })],
    ['another scheme (Basic)', async () => ({ authorization: 'Basic dXNlcjpwYXNz' })],
    ['Bearer with no credential', async () => ({ authorization: 'Bearer' })],
    ['a Bearer value with spaces', async () => ({ authorization: 'Bearer a b' })],
    ['a revoked key', async (svc) => {
      const k = await createKey(svc);
      expect((await svc.call('DELETE', `/auth/api-keys/${k.id}`)).status).toBe(204);
      return { token: k.key };
    }],
    ['a tampered access token (signature of another token)', async (svc) => {
      const { access_token } = await exchange(svc);
      const [h, p] = access_token.split('.');
      const other = await exchange(svc);
      return { token: `${h}.${p}.${other.access_token.split('.')[2]}` };
    }],
  ];

  it.each(refusals)('%s, on every endpoint', async (_what, credential) => {
    s = await startService();
    const requests = await seededRequests(s);
    const cred = await credential(s);
    const before = s.state();
    for (const r of requests) {
      const a = await s.call(r.method, r.path, { ...cred, ...(r.body !== undefined ? { body: r.body } : {}) });
      expect({ op: r.operation, status: a.status }).toEqual({ op: r.operation, status: 401 });
      expect(typeof a.body?.error, `${r.operation}: ${a.text}`).toBe('string');
      expect(a.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/);
    }
    expect(s.state()).toBe(before);
  });

  it('an expired key and an expired access token, on every endpoint', async () => {
    s = await startService();
    const requests = await seededRequests(s);
    const { access_token } = await exchange(s);
    const k = await createKey(s);
    s.clock.advance(API_KEY_LIFETIME_MS);
    const before = s.state();
    for (const token of [k.key, access_token]) {
      for (const r of requests) {
        const a = await s.call(r.method, r.path, { token, ...(r.body !== undefined ? { body: r.body } : {}) });
        expect({ op: r.operation, status: a.status, error: typeof a.body?.error }).toEqual({ op: r.operation, status: 401, error: 'string' });
      }
    }
    expect(s.state()).toBe(before);
  });
});

describe('API keys', () => {
  it('creation returns {id, key} with the plaintext key, prefix_random, which then works', async () => {
    s = await startService();
    const k = await createKey(s, { label: 'ci', scopes: ['read'] });
    expect(k.id).toEqual(expect.any(String));
    expect(k.key).toMatch(/^nams_[A-Za-z0-9_-]{43}$/);
    expect((await s.call('GET', '/conversations', { token: k.key })).status).toBe(200);
  });

  it('the plaintext is shown once: never through list (nor any later answer)', async () => {
    s = await startService();
    const k = await createKey(s);
    const list = await s.call('GET', '/auth/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(k.key);
    expect(list.text).not.toContain(s.hosted.apiKey);
    const listed = list.body.keys.find((x: any) => x.id === k.id);
    expect(listed).toMatchObject({ id: k.id, label: 'test', scopes: ['read', 'write'], workspaceId: 'default', createdAt: k.createdAt, expiresAt: k.expiresAt, status: 'active' });
    expect(listed).not.toHaveProperty('key');
    for (const path of ['/conversations', '/entities', '/reasoning/steps']) expect((await s.call('GET', path)).text).not.toContain(k.key);
  });

  it('keys are stored as SHA-256 digests (and a sealed copy for reveal), never in plaintext', async () => {
    s = await startService();
    const k = await createKey(s);
    const table = JSON.stringify([...(s.hosted.keys as any).byId.values()]);
    expect(table).not.toContain(k.key);
    expect(table).toContain(digestOf(k.key));
  });

  it('revocation takes effect on the very next request, also for a key revoking itself', async () => {
    s = await startService();
    const k = await createKey(s);
    expect((await s.call('GET', '/entities', { token: k.key })).status).toBe(200);
    expect((await s.call('DELETE', `/auth/api-keys/${k.id}`)).status).toBe(204);
    expect((await s.call('GET', '/entities', { token: k.key })).status).toBe(401);
    const self = await createKey(s);
    expect((await s.call('DELETE', `/auth/api-keys/${self.id}`, { token: self.key })).status).toBe(204);
    expect((await s.call('GET', '/entities', { token: self.key })).status).toBe(401);
    const listed = (await s.call('GET', '/auth/api-keys')).body.keys.find((x: any) => x.id === k.id);
    expect(listed).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('a key expires 90 days after issue (expiresAt reported in the list)', async () => {
    s = await startService();
    const k = await createKey(s);
    expect(Date.parse(k.expiresAt) - Date.parse(k.createdAt)).toBe(90 * DAY_MS);
    s.clock.advance(90 * DAY_MS - 1);
    expect((await s.call('GET', '/entities', { token: k.key })).status).toBe(200);
    s.clock.advance(1);
    const r = await s.call('GET', '/entities', { token: k.key });
    expect(r.status).toBe(401);
    expect(r.body.error).toMatch(/expired/);
    const listed = s.hosted.keys.list('default').find((x) => x.id === k.id);
    expect(listed).toMatchObject({ status: 'expired', expiresAt: k.expiresAt });
  });

  it('reveal returns the plaintext of a key of the caller\'s workspace', async () => {
    s = await startService();
    const k = await createKey(s);
    const r = await s.call('GET', `/auth/api-keys/${k.id}/reveal`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: k.id, key: k.key, workspaceId: 'default' });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('reveal refuses another workspace\'s key, both ways, and a workspace_id that is not the caller\'s', async () => {
    s = await startService();
    const issued = await s.hosted.keys.issue({ label: 'other', scopes: ['read', 'write'], workspaceId: 'ws-other' });
    const other = { id: issued.view.id, key: issued.key };
    const mine = await createKey(s);
    const a = await s.call('GET', `/auth/api-keys/${other.id}/reveal`);
    expect([403, 404]).toContain(a.status);
    expect(a.text).not.toContain(other.key);
    const b = await s.call('GET', `/auth/api-keys/${mine.id}/reveal`, { token: other.key });
    expect([403, 404]).toContain(b.status);
    expect(b.text).not.toContain(mine.key);
    const c = await s.call('GET', `/auth/api-keys/${mine.id}/reveal?workspace_id=ws-other`);
    expect(c.status).toBe(403);
    expect((await s.call('GET', `/auth/api-keys/${crypto.randomUUID()}/reveal`)).status).toBe(404);
  });

  it('reveal refuses a key with a scope the caller lacks, and a revoked key', async () => {
    s = await startService();
    const reader = await createKey(s, { scopes: ['read'] });
    const writer = await createKey(s);
    expect((await s.call('GET', `/auth/api-keys/${writer.id}/reveal`, { token: reader.key })).status).toBe(403);
    await s.call('DELETE', `/auth/api-keys/${writer.id}`);
    expect((await s.call('GET', `/auth/api-keys/${writer.id}/reveal`)).status).toBe(404);
  });

  it('list shows the caller\'s workspace only; another workspace\'s list or key is out of reach', async () => {
    s = await startService();
    const issued = await s.hosted.keys.issue({ label: 'other', scopes: ['read', 'write'], workspaceId: 'ws-b' });
    const other = { id: issued.view.id, key: issued.key };
    const mine = (await s.call('GET', '/auth/api-keys')).body;
    expect(mine.keys.map((k: any) => k.workspaceId)).toEqual(['default']);
    const theirs = (await s.call('GET', '/auth/api-keys', { token: other.key })).body;
    expect(theirs.keys.map((k: any) => k.id)).toEqual([other.id]);
    expect((await s.call('GET', '/auth/api-keys?workspace_id=ws-b')).status).toBe(403);
    expect((await s.call('GET', '/auth/api-keys?workspaceId=default')).status).toBe(200);
    expect((await s.call('DELETE', `/auth/api-keys/${other.id}`)).status).toBe(404);
    expect((await s.call('GET', '/entities', { token: other.key })).status).toBe(200);
  });

  it('creation is refused for another workspace (existing or not), an unknown scope, or a scope the caller lacks', async () => {
    s = await startService();
    const wsB = await s.hosted.keys.issue({ label: 'b', scopes: ['read', 'write'], workspaceId: 'ws-b' });
    const readOnly = await s.hosted.keys.issue({ label: 'r', scopes: ['read'], workspaceId: 'default' });
    const refusals: [Record<string, unknown>, number, string | undefined, string?][] = [
      [{ label: 'x', scopes: ['read'], workspaceId: 'ws-b' }, 403, undefined],
      // Issue 17: no squatting on a workspace nobody owns yet, from either side.
      [{ label: 'x', scopes: ['read'], workspaceId: 'acme' }, 403, undefined],
      [{ label: 'x', scopes: ['read'], workspaceId: 'acme' }, 403, wsB.key],
      [{ label: 'x', scopes: ['admin'] }, 400, undefined, 'scopes'],
      [{ label: 'x', scopes: [] }, 400, undefined, 'scopes'],
      [{ scopes: ['read'] }, 400, undefined, 'label'],
      [{ label: 'x', scopes: ['read', 'write'] }, 403, readOnly.key],
    ];
    const before = s.state();
    for (const [body, status, token, field] of refusals) {
      const r = await s.call('POST', '/auth/api-keys', { body, ...(token ? { token } : {}) });
      expect(r.status, JSON.stringify(body)).toBe(status);
      if (field) expect(r.body.error).toContain(field);
    }
    expect(s.state()).toBe(before);
  });
});

describe('scopes: read allows GET and search, every change needs write', () => {
  it('a read key reads every GET and search endpoint and is refused (403, nothing changed) on every change', async () => {
    s = await startService();
    const requests = await seededRequests(s);
    const reader = await s.hosted.keys.issue({ label: 'reader', scopes: ['read'], workspaceId: 'default' });
    const before = s.state();
    for (const r of requests) {
      const reads = r.method === 'GET' || READING_POSTS.has(r.operation);
      const a = await s.call(r.method, r.path, { token: reader.key, ...(r.body !== undefined ? { body: r.body } : {}) });
      if (reads) expect({ op: r.operation, ok: a.status >= 200 && a.status < 300 }).toEqual({ op: r.operation, ok: true });
      else {
        expect({ op: r.operation, status: a.status, error: typeof a.body?.error }).toEqual({ op: r.operation, status: 403, error: 'string' });
        expect(a.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
      }
    }
    expect(s.state()).toBe(before);
  });

  it('a write-only key changes but does not read; a query that writes needs write', async () => {
    s = await startService();
    const writer = await s.hosted.keys.issue({ label: 'writer', scopes: ['write'], workspaceId: 'default' });
    const reader = await s.hosted.keys.issue({ label: 'reader', scopes: ['read'], workspaceId: 'default' });
    expect((await s.call('POST', '/conversations', { token: writer.key, body: { userId: 'u' } })).status).toBe(201);
    expect((await s.call('GET', '/conversations', { token: writer.key })).status).toBe(403);
    const write = { query: "MATCH (n) DETACH DELETE n RETURN count(n)" };
    expect((await s.call('POST', '/query', { token: reader.key, body: write })).status).toBe(403);
    expect((await s.call('POST', '/query', { body: write })).status).toBe(400);
  });
});

describe('an API key and an access token are used identically', () => {
  it('the same requests give the same answers with either', async () => {
    s = await startService();
    const { access_token } = await exchange(s);
    const answers: Record<string, unknown[]> = {};
    for (const [name, token] of [['key', s.hosted.apiKey], ['token', access_token]] as const) {
      const conv = await s.call('POST', '/conversations', { token, body: { userId: 'u-1' } });
      const add = await s.call('POST', `/conversations/${conv.body.id}/messages`, { token, body: { role: 'user', content: 'hello Alice' } });
      const get = await s.call('GET', `/conversations/${conv.body.id}/messages`, { token });
      const ent = await s.call('POST', '/entities', { token, body: { name: `Alice-${name}`, type: 'PERSON' } });
      const keys = await s.call('GET', '/auth/api-keys', { token });
      const reader = await s.call('POST', '/auth/api-keys', { token, body: { label: name, scopes: ['read'] } });
      const revealed = await s.call('GET', `/auth/api-keys/${reader.body.id}/reveal`, { token });
      const revoked = await s.call('DELETE', `/auth/api-keys/${reader.body.id}`, { token });
      answers[name] = [
        conv.status, Object.keys(conv.body).sort(), add.status, add.body.content, get.status, get.body.messages.length,
        ent.status, keys.status, keys.body.workspaceId, reader.status, revealed.status, revealed.body.key === reader.body.key, revoked.status,
      ];
    }
    expect(answers.token).toEqual(answers.key);
    expect(answers.key).toEqual([201, expect.any(Array), 201, 'hello Alice', 200, 1, 201, 200, 'default', 201, 200, true, 204]);
  });

  it('the Bearer scheme name is case-insensitive', async () => {
    s = await startService();
    expect((await s.call('GET', '/entities', { authorization: `bearer ${s.hosted.apiKey}` })).status).toBe(200);
  });
});
