// Token exchange, refresh rotation, access tokens and the three discovery documents of the hosted
// reference service. Tokens are checked with jose against what the service publishes.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, DevIdentityProvider } from '../../src/servers/hosted/index.js';
import { exchange, request, startService, type Service } from './helpers.js';

let s: Service;
afterEach(async () => s?.close());

const origin = () => s.hosted.url;
const get = (path: string) => request(`${origin()}${path}`, 'GET', { token: null });
const post = (path: string, opts: Parameters<typeof request>[2]) => request(`${s.hosted.baseUrl}${path}`, 'POST', { token: null, ...opts });

describe('token exchange', () => {
  it('returns access_token, refresh_token and expires_in, not to be cached', async () => {
    s = await startService();
    const subjectToken = await s.idp.mint({ now: s.clock.now() });
    const r = await post('/auth/exchange', { body: { subjectToken } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('the access token is a JWT that verifies against the published JWKS, with iss and aud of the discovery documents', async () => {
    s = await startService();
    const { access_token, expires_in } = await exchange(s, { subject: 'alice' });
    const jwks = (await get('/.well-known/jwks.json')).body;
    const as = (await get('/.well-known/oauth-authorization-server')).body;
    const pr = (await get('/.well-known/oauth-protected-resource')).body;
    const { payload, protectedHeader } = await jwtVerify(access_token, createLocalJWKSet(jwks), {
      issuer: as.issuer, audience: pr.resource, currentDate: s.clock.now(),
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'at+jwt' });
    expect(jwks.keys.map((k: any) => k.kid)).toContain(protectedHeader.kid);
    expect(payload).toMatchObject({ sub: 'alice', scope: 'read write', workspace_id: 'default' });
    expect(payload.exp! - payload.iat!).toBe(expires_in);
  });

  it('accepts the identity token as a form field, under other field names, or as the Bearer value', async () => {
    s = await startService();
    const t = () => s.idp.mint({ now: s.clock.now() });
    const ok = async (opts: Parameters<typeof request>[2]) => expect((await post('/auth/exchange', opts)).status).toBe(200);
    await ok({ form: { grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: await t() } });
    await ok({ body: { idToken: await t() } });
    await ok({ body: { token: await t() } });
    await ok({ token: await t() });
  });

  it('refuses a missing, garbage, expired, untrusted or wrongly-audienced identity token with 401', async () => {
    s = await startService();
    const stranger = await DevIdentityProvider.generate(); // same issuer name, another key
    const cases: [string, Parameters<typeof request>[2]][] = [
      ['missing', { body: {} }],
      ['garbage', { body: { subjectToken: 'garbage' } }],
      ['expired', { body: { subjectToken: await s.idp.mint({ now: new Date(s.clock.now().getTime() - 7200_000), ttlSeconds: 3600 }) } }],
      ['signed by an untrusted key', { body: { subjectToken: await stranger.mint({ now: s.clock.now() }) } }],
      ['an access token of the service itself', { body: { subjectToken: (await exchange(s)).access_token } }],
      ['a grant type that is not supported', { body: { grant_type: 'password', subjectToken: await s.idp.mint({ now: s.clock.now() }) } }],
    ];
    for (const [what, opts] of cases) {
      const r = await post('/auth/exchange', opts);
      expect({ what, status: r.status }).toEqual({ what, status: what.startsWith('a grant') ? 400 : 401 });
      expect(typeof r.body.error).toBe('string');
      expect(r.body).not.toHaveProperty('access_token');
    }
  });

  it('the identity token\'s scope and workspace carry over to the access token', async () => {
    s = await startService();
    const { access_token } = await exchange(s, { scope: 'read', workspaceId: 'ws-idp' });
    expect((await s.call('GET', '/entities', { token: access_token })).status).toBe(200);
    expect((await s.call('POST', '/entities', { token: access_token, body: { name: 'X', type: 'PERSON' } })).status).toBe(403);
    expect((await s.call('GET', '/auth/api-keys', { token: access_token })).body.workspaceId).toBe('ws-idp');
  });

  it('an access token expires after expires_in seconds', async () => {
    s = await startService();
    const { access_token, expires_in } = await exchange(s);
    s.clock.advance(expires_in * 1000 - 1000);
    expect((await s.call('GET', '/entities', { token: access_token })).status).toBe(200);
    s.clock.advance(1000);
    expect((await s.call('GET', '/entities', { token: access_token })).status).toBe(401);
  });
});

describe('refresh rotates', () => {
  it('gives a new access token and a new refresh token; the used refresh token stops working', async () => {
    s = await startService();
    const first = await exchange(s);
    s.clock.advance(1000);
    const r = await post('/auth/refresh', { body: { refreshToken: first.refresh_token } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: expect.any(Number) });
    expect(r.body.access_token).not.toBe(first.access_token);
    expect(r.body.refresh_token).not.toBe(first.refresh_token);
    expect((await s.call('GET', '/entities', { token: r.body.access_token })).status).toBe(200);
    const again = await post('/auth/refresh', { body: { refreshToken: first.refresh_token } });
    expect(again.status).toBe(401);
    expect(again.body).not.toHaveProperty('access_token');
  });

  it('reuse of a spent refresh token revokes its family: the newer tokens stop working too', async () => {
    s = await startService();
    const first = await exchange(s);
    const second = (await post('/auth/refresh', { body: { refresh_token: first.refresh_token } })).body;
    expect((await post('/auth/refresh', { body: { refreshToken: first.refresh_token } })).status).toBe(401);
    expect((await post('/auth/refresh', { body: { refreshToken: second.refresh_token } })).status).toBe(401);
    expect((await s.call('GET', '/entities', { token: second.access_token })).status).toBe(401);
  });

  it('two concurrent uses of one refresh token: exactly one succeeds', async () => {
    s = await startService();
    const { refresh_token } = await exchange(s);
    const answers = await Promise.all([1, 2, 3].map(() => post('/auth/refresh', { body: { refreshToken: refresh_token } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('refuses a missing or unknown refresh token, and works as grant_type=refresh_token at the token endpoint', async () => {
    s = await startService();
    expect((await post('/auth/refresh', { body: {} })).status).toBe(401);
    expect((await post('/auth/refresh', { body: { refreshToken: 'nope' } })).status).toBe(401);
    const { refresh_token } = await exchange(s);
    const r = await post('/auth/exchange', { form: { grant_type: 'refresh_token', refresh_token } });
    expect(r.status).toBe(200);
    expect(r.body.refresh_token).not.toBe(refresh_token);
  });
});

describe('discovery documents', () => {
  it('exist at the origin without credentials, parse as JSON, and have the required members', async () => {
    s = await startService();
    const pr = await get('/.well-known/oauth-protected-resource');
    const as = await get('/.well-known/oauth-authorization-server');
    const jwks = await get('/.well-known/jwks.json');
    for (const d of [pr, as, jwks]) {
      expect(d.status).toBe(200);
      expect(d.headers.get('content-type')).toMatch(/^application\/json/);
    }
    // RFC 9728 §2: resource is required; authorization_servers lists issuers.
    expect(pr.body.resource).toBe(origin());
    expect(pr.body.authorization_servers).toEqual(expect.arrayContaining([expect.any(String)]));
    // RFC 8414 §2: issuer, token_endpoint (a token-issuing server), response_types_supported.
    expect(as.body).toMatchObject({ issuer: expect.any(String), token_endpoint: expect.any(String), response_types_supported: expect.any(Array) });
    expect(new URL(as.body.issuer).search).toBe('');
    // RFC 7517: a key set of public keys.
    expect(jwks.body.keys.length).toBeGreaterThan(0);
    for (const k of jwks.body.keys) {
      expect(k).toMatchObject({ kty: 'EC', kid: expect.any(String) });
      expect(k).not.toHaveProperty('d');
    }
  });

  it('agree with each other and with the tokens', async () => {
    s = await startService();
    const pr = (await get('/.well-known/oauth-protected-resource')).body;
    const as = (await get('/.well-known/oauth-authorization-server')).body;
    expect(pr.authorization_servers).toContain(as.issuer);
    // RFC 8414 §3: the metadata lives at the issuer + /.well-known/oauth-authorization-server.
    expect(`${as.issuer}/.well-known/oauth-authorization-server`).toBe(`${origin()}/.well-known/oauth-authorization-server`);
    expect(pr.jwks_uri).toBe(as.jwks_uri);
    expect(as.jwks_uri).toBe(`${origin()}/.well-known/jwks.json`);
    expect(as.token_endpoint).toBe(`${s.hosted.baseUrl}/auth/exchange`);
    const { access_token } = await exchange(s);
    const kids = (await get('/.well-known/jwks.json')).body.keys.map((k: any) => k.kid);
    expect(kids).toContain(decodeProtectedHeader(access_token).kid);
    const claims = JSON.parse(Buffer.from(access_token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ iss: as.issuer, aud: pr.resource });
  });

  it('a 401 challenge points at the protected-resource metadata', async () => {
    s = await startService();
    const r = await s.call('GET', '/conversations', { token: null });
    const m = /resource_metadata="([^"]+)"/.exec(r.headers.get('www-authenticate') ?? '');
    expect(m?.[1]).toBe(`${origin()}/.well-known/oauth-protected-resource`);
    expect((await get(new URL(m![1]!).pathname)).status).toBe(200);
  });
});
