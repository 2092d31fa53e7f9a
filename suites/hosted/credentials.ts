// Credentials: each rule of the document's Authentication section, and the API key lifecycle.
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { Answer, Credential, HostedContext } from '../../src/profiles/hosted/context.js';
import { NO_CREDENTIAL } from '../../src/profiles/hosted/context.js';
import { DISCOVERY } from '../../src/protocols/hosted/document.js';
import { defineHostedScenario, type HostedScenario } from '../../src/profiles/hosted/scenario.js';
import { check } from '../../src/engine/assert.js';
import { check2xx, holds, is2xx, isObject, isRefusal, listItems, said } from '../support/http-answers.js';
import { deleteIfCreated, uid } from '../support/hosted-data.js';
import { LEEWAY_SECONDS, forgedCredential, nowSeconds, partsOf } from '../support/hosted-forgery.js';
import { exchangeTokens, forgedAccessToken, listKeys, madeUpCredentials, newKey, publishedKeys, refresh, someAccessToken, tokensOf, type Tokens } from '../support/hosted-credentials.js';
import { allEndpointRequests, send, type EndpointRequest } from '../support/hosted-endpoints.js';
import { parseChallenges } from '../support/challenges.js';

/**
 * How many requests present one refresh token at once (SCN-H-059): as many as the hosted client keeps
 * connections (4), so none waits behind another on a socket the server may have closed meanwhile.
 */
const CONCURRENT_REFRESHES = 4;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every planned request sent with each credential must be refused (401 or 403), and nothing the
 * refused requests asked for may have happened: the data stays, the spare key still works, no
 * conversation or entity of the refused creations exists.
 */
async function refusedEverywhere(ctx: HostedContext, credentials: Credential[], rule: string): Promise<void> {
  const planned = await allEndpointRequests(ctx);
  for (const as of credentials) {
    for (const r of planned) {
      const a = await ctx.call(r.method, r.path, { as, operation: r.operation, ...(r.body !== undefined ? { body: r.body } : {}) });
      // silent: 401 or 403; the body of the refusal.
      check.by(rule).that(isRefusal(a), `${r.operation} without a valid credential is refused (401 or 403)`, () => ({
        message: `${rule}: ${r.operation} (${a.request}) with ${as.label}: expected a refusal (401 or 403), got ${said(a)}`,
        expected: '401 or 403',
        actual: a.status,
        status: [401, 403],
      }));
    }
  }
  await nothingChanged(ctx, planned, rule);
}

/** What the refused requests asked for did not happen (checked with the run's credential). */
export async function nothingChanged(ctx: HostedContext, planned: EndpointRequest[], rule: string): Promise<void> {
  const cite = check.by(rule);
  for (const { operation, unchanged } of planned) {
    if (unchanged?.stillThere !== undefined) {
      const a = await ctx.call('GET', unchanged.stillThere);
      cite.that(a.status !== 404 && a.status !== 410, `${operation} refused: what it would have removed is still there`, () => ({ message: `${rule}: ${operation} was refused, yet ${a.request} is gone: ${said(a)}`, expected: 'unchanged', actual: a.status }));
    }
    if (unchanged?.notShown !== undefined) {
      const [path, marker] = unchanged.notShown;
      const a = await ctx.call('GET', path);
      cite.that(!(is2xx(a) && a.text.includes(marker)), `${operation} refused: what it asked to write is not shown`, () => ({ message: `${rule}: ${operation} was refused, yet ${a.request} shows what it asked to write (${marker})`, expected: 'nothing written', actual: marker }));
    }
    if (unchanged?.keyWorks !== undefined) {
      const a = await works(ctx, unchanged.keyWorks);
      cite.that(!isRefusal(a), `${operation} refused: the key it asked to revoke still works`, () => ({
        message: `${rule}: ${operation} was refused, yet the key it asked to revoke no longer works: ${a.request} answered ${said(a)}`,
        expected: 'the key still works',
        actual: a.status,
      }));
    }
  }
}

/** A key of another workspace: its credential, how the scenario got it, and its workspace and id when known. */
interface OtherWorkspace {
  credential: Credential;
  via: string;
  workspaceId?: string;
  keyId?: string;
}

/** The second workspace of rule 4: a key of it (given, or created for a workspace of its own). */
export async function otherWorkspace(ctx: HostedContext, own: { id: string }): Promise<OtherWorkspace> {
  if (ctx.target.otherApiKey !== undefined) return { credential: ctx.bearer(ctx.target.otherApiKey, 'the API key of another workspace (--other-api-key)'), via: 'the key given with --other-api-key' };
  const workspaceId = uid('workspace');
  const a = await ctx.call('POST', '/auth/api-keys', { body: { label: uid('key'), scopes: ['read', 'write'], workspaceId } });
  if (!is2xx(a) || !isObject(a.json) || typeof a.json.key !== 'string' || typeof a.json.id !== 'string') {
    ctx.skip(`no key of another workspace: creating one for a new workspace answered ${a.status}; pass --other-api-key KEY (or TCK_OTHER_API_KEY), a key of another workspace; until then the group is incomplete`, '--other-api-key');
  }
  const other = ctx.bearer(a.json.key, `the API key created for workspace ${workspaceId} by call ${ctx.exchanges.length - 1}`);
  ctx.defer('DELETE', `/auth/api-keys/${encodeURIComponent(a.json.id)}`, other);
  // The service must really have put it in another workspace: its list does not show the caller's key.
  const shown = a.json.workspaceId === workspaceId ? false : (await listKeysRaw(ctx, other)).includes(own.id);
  if (shown) ctx.skip('the key created for a new workspace sees the caller\'s keys (same workspace); pass --other-api-key KEY, a key of another workspace', '--other-api-key');
  return { credential: other, via: `a key created for the new workspace ${workspaceId}`, workspaceId, keyId: a.json.id };
}

async function listKeysRaw(ctx: HostedContext, as: Credential): Promise<string> {
  const a = await ctx.call('GET', '/auth/api-keys', { as });
  return is2xx(a) ? a.text : '';
}

/**
 * The auth-schemes of a WWW-Authenticate value, lower-cased: RFC 9110 §11.6.1 lets one header (or
 * several, joined by commas) carry several challenges, each a scheme followed by auth-params or a
 * token68; a comma-separated part that starts with `name=` is a parameter, not a scheme.
 */
function challengeSchemes(value: string): string[] {
  const out: string[] = [];
  for (const part of value.replace(/"(?:[^"\\]|\\.)*"/g, '""').split(',')) {
    const m = /^\s*([!#$%&'*+.^_`|~\w-]+)\s*(.*)$/.exec(part);
    if (m !== null && !m[2]!.startsWith('=')) out.push(m[1]!.toLowerCase());
  }
  return out;
}

/** The ids of the keys of a key-list answer (empty when it is no list). */
function keyIds(a: Answer): string[] {
  const items = is2xx(a) && a.isJson ? listItems(a.json, ['keys', 'apiKeys', 'items', 'data']) ?? [] : [];
  return items.flatMap((i) => (isObject(i) && typeof i.id === 'string' ? [i.id] : []));
}

/** The workspace a key list names (top-level, or its keys'); silent: where, and whether at all. */
function workspaceOfList(a: Answer): string | undefined {
  if (!is2xx(a) || !a.isJson) return undefined;
  if (isObject(a.json) && typeof a.json.workspaceId === 'string') return a.json.workspaceId;
  const first = (listItems(a.json, ['keys', 'apiKeys', 'items', 'data']) ?? []).find((i) => isObject(i) && typeof i.workspaceId === 'string');
  return first === undefined ? undefined : String((first as Record<string, unknown>).workspaceId);
}

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_SYNTAX = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;

/** The scope values the service's metadata advertises (scopes_supported of either document), when it advertises any. */
async function advertisedScopes(ctx: HostedContext): Promise<Set<string> | undefined> {
  const found = new Set<string>();
  let any = false;
  for (const path of [DISCOVERY.authorizationServer, DISCOVERY.protectedResource]) {
    const doc = await ctx.fetch(path);
    if (doc.isJson && isObject(doc.json) && Array.isArray(doc.json.scopes_supported)) {
      any = true;
      for (const v of doc.json.scopes_supported) if (typeof v === 'string') found.add(v);
    }
  }
  return any ? found : undefined;
}

/**
 * The token_type and scope of a token response as RFC 6749 §5.1 and §3.3 write them: advisories.
 * The hosted document defines its own exchange ("returns access_token, refresh_token and
 * expires_in", Authentication rule 5 and the Token exchange response table) and does not adopt
 * RFC 6749's token response for it or for the refresh; an RFC binds only where the document points
 * to it for that endpoint. token_type "Bearer" in any case; scope, when sent, space-delimited scope
 * tokens; naming only advertised scopes.
 */
function tokenResponseFields(t: Tokens, advertised: Set<string> | undefined): void {
  const { body, answer } = t;
  const type = body.token_type;
  check.advise('ADV-token-type-bearer').ok(typeof type === 'string' && type.toLowerCase() === 'bearer',
    `${answer.operation} (${answer.request}): token_type is ${type === undefined ? 'missing' : JSON.stringify(type)}: an RFC 6749 §5.1 token response holds token_type, here "Bearer" (matched case-insensitively), the scheme every credential of the service is sent with; the hosted document does not adopt RFC 6749 for its exchange, so this is advice`,
    { expected: 'token_type "Bearer"', actual: type ?? null });
  if (!('scope' in body)) return;
  const scope = body.scope;
  const wellFormed = typeof scope === 'string' && SCOPE_SYNTAX.test(scope);
  check.advise('ADV-token-scope-syntax').ok(wellFormed,
    `${answer.operation} (${answer.request}): scope is ${JSON.stringify(scope)}: RFC 6749 §5.1 and §3.3 write the scope of a token response as a string of space-delimited scope tokens, such as "read write"`,
    { expected: 'a string such as "read write"', actual: scope });
  if (advertised === undefined || !wellFormed) return;
  const unknown = (scope as string).split(' ').filter((v) => !advertised.has(v));
  check.advise('ADV-token-scope-advertised').ok(unknown.length === 0, `${answer.operation} (${answer.request}): scope "${String(scope)}" names ${unknown.map((v) => JSON.stringify(v)).join(', ')}, which the service's metadata does not advertise (scopes_supported: ${[...advertised].join(', ')})`, { expected: [...advertised], actual: scope });
}

/**
 * A key of the caller's workspace with `scope` only, for an advisory that tries what it may not do
 * (`trying`, in words); revoked after the scenario. When the service does not create it, a note
 * says what was not tried, and undefined is returned.
 */
async function narrowKey(ctx: HostedContext, scope: 'read' | 'write', trying: string): Promise<Credential | undefined> {
  const ws = ctx.target.workspaceId;
  const made = await ctx.call('POST', '/auth/api-keys', { body: { label: uid('key'), scopes: [scope], ...(ws !== undefined ? { workspaceId: ws } : {}) } });
  if (!(is2xx(made) && isObject(made.json) && typeof made.json.key === 'string' && typeof made.json.id === 'string')) {
    ctx.note(`creating a key with the ${scope} scope only answered ${made.status}: ${trying} was not tried`);
    return undefined;
  }
  ctx.defer('DELETE', `/auth/api-keys/${encodeURIComponent(made.json.id)}`);
  return ctx.bearer(made.json.key, `the ${scope}-only API key created by call ${ctx.exchanges.length - 1}`);
}

/**
 * The advisories of reveal (SCN-H-024), for a read-write key `wide` of the caller's workspace:
 * a key of the read scope only cannot reveal it, and once revoked it is not revealed.
 */
async function revealBeyondReach(ctx: HostedContext, wide: { id: string; key: string }): Promise<void> {
  const narrow = await narrowKey(ctx, 'read', 'revealing a wider key');
  if (narrow !== undefined) {
    const a = await ctx.call('GET', `/auth/api-keys/${encodeURIComponent(wide.id)}/reveal`, { as: narrow });
    check.advise('ADV-reveal-wider-scopes').ok(!is2xx(a) && !a.text.includes(wide.key), `${a.request} with ${narrow.label} answered ${said(a)}: a key with the read scope only revealed a key with read and write`, { expected: 'a refusal, no plaintext', actual: a.status });
  }
  check2xx(await ctx.call('DELETE', `/auth/api-keys/${encodeURIComponent(wide.id)}`), 'HOSTED-AUTH-3');
  const r = await ctx.call('GET', `/auth/api-keys/${encodeURIComponent(wide.id)}/reveal`);
  check.advise('ADV-reveal-revoked').ok(!is2xx(r) && !r.text.includes(wide.key), `${r.request} answered ${said(r)} for a key revoked just before: the plaintext of a revoked key was revealed`, { expected: 'a refusal, no plaintext', actual: r.status });
}

/** Advisory (SCN-H-022): a key with the write scope only cannot create a key with read and write. */
async function grantBeyondReach(ctx: HostedContext): Promise<void> {
  const writer = await narrowKey(ctx, 'write', 'granting a wider key');
  if (writer === undefined) return;
  const ws = ctx.target.workspaceId;
  const a = await ctx.call('POST', '/auth/api-keys', { as: writer, body: { label: uid('key'), scopes: ['read', 'write'], ...(ws !== undefined ? { workspaceId: ws } : {}) } });
  deleteIfCreated(ctx, a, '/auth/api-keys');
  check.advise('ADV-grant-wider-scopes').ok(!is2xx(a), `${a.request} with ${writer.label} answered ${said(a)}: a key with the write scope only created a key with read and write`, { expected: 'a refusal', actual: a.status });
}

/** A JWT of the right look signed HS256 with a made-up secret (an algorithm the service does not use). */
async function hmacToken(ctx: HostedContext): Promise<Credential> {
  const token = await forgedAccessToken(ctx, { alg: 'HS256', typ: 'at+jwt' }, new TextEncoder().encode(uid('secret').padEnd(32, '-')));
  return forgedCredential({ token, what: 'a JWT signed HS256 with a made-up secret' });
}

/** A key with the read scope only creating a conversation (an advisory: the meaning of the scopes is not shown). */
async function readKeyWrites(ctx: HostedContext): Promise<void> {
  const reader = await narrowKey(ctx, 'read', 'writing with it');
  if (reader === undefined) return;
  const a = await ctx.call('POST', '/conversations', { as: reader, body: { userId: uid('user') } });
  deleteIfCreated(ctx, a, '/conversations');
  check.advise('ADV-read-scope-cannot-write').ok(!is2xx(a), `${a.request} with ${reader.label} answered ${said(a)}: a key with the read scope only created a conversation`, { expected: 'a refusal', actual: a.status });
}

/** A GET every credential may make (the read endpoints, which any scope allows). */
const works = async (ctx: HostedContext, as: Credential, path = '/conversations'): Promise<Answer> => ctx.call('GET', path, { as });

export const scenarios: HostedScenario[] = [
  defineHostedScenario({
    id: 'SCN-H-020',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-BEARER'],
    title: 'A request without a credential is refused on every endpoint, and changes nothing',
    asserts:
      'Makes data, then sends one valid request to every endpoint (the token endpoints aside) without an Authorization header: each answer is 401 or 403; ' +
      'afterwards the data is unchanged (nothing deleted, nothing created).',
    run: (ctx) => refusedEverywhere(ctx, [NO_CREDENTIAL], 'HOSTED-AUTH-BEARER'),
  }),

  defineHostedScenario({
    id: 'SCN-H-021',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-BEARER'],
    title: 'Garbage credentials are refused on every endpoint, and change nothing',
    asserts:
      'Sends one valid request to every endpoint with each of: a made-up Bearer value, a made-up key of the service\'s form (prefix_random), ' +
      'another scheme (Basic), a JWT signed by a key nobody published. Each answer is 401 or 403; afterwards the data is unchanged.',
    run: async (ctx) => refusedEverywhere(ctx, await madeUpCredentials(ctx), 'HOSTED-AUTH-BEARER'),
  }),

  defineHostedScenario({
    id: 'SCN-H-022',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-2', 'HOSTED-KEYSTATE-1', 'HOSTED-PAYLOAD-create_api_key', 'HOSTED-PAYLOAD-list_api_keys'],
    title: 'Key creation returns {id, key} with the plaintext once; it works, and the list never shows it',
    asserts:
      'POST /auth/api-keys {label, scopes, workspaceId} answers {id, key}: key is "prefix_random" (the prefix of the run\'s key, when known) and works as a Bearer credential; ' +
      'GET /auth/api-keys lists the key (by id) and shows neither its plaintext nor that of the run\'s key. ' +
      'Advisories: a key with the write scope only cannot create a key with read and write; a key with the read scope only cannot create a conversation.',
    async run(ctx) {
      const k = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      const rule2 = check.by('HOSTED-AUTH-2', 'HOSTED-KEYSTATE-1');
      const form = /^([A-Za-z0-9]+)_(.+)$/.exec(k.key);
      rule2.that(form !== null, 'create_api_key: the key is "<prefix>_<random>"', () => ({ message: 'HOSTED-AUTH-2: create_api_key: the key is not "<prefix>_<random>" (a fixed service prefix followed by an underscore)', expected: 'prefix_random', actual: '***' }));
      const runPrefix = /^([A-Za-z0-9]+)_/.exec(ctx.target.apiKey ?? '')?.[1];
      if (runPrefix !== undefined) {
        rule2.that(form![1] === runPrefix, "create_api_key: the key has the prefix of the run's key (a fixed service prefix)", () => ({
          message: `HOSTED-AUTH-2: create_api_key: the key's prefix is "${form![1]}", the run's key has "${runPrefix}" (a fixed service prefix)`,
          expected: runPrefix,
          actual: form![1],
        }));
      }
      check2xx(await works(ctx, k.credential), 'HOSTED-AUTH-2');
      const { answer, items } = await listKeys(ctx, 'HOSTED-PAYLOAD-list_api_keys');
      check.by('HOSTED-PAYLOAD-list_api_keys').that(items.some((i) => isObject(i) && i.id === k.id), 'list_api_keys lists the key just created (by id)', () => ({
        message: `HOSTED-PAYLOAD-list_api_keys: list_api_keys (${answer.request}): the key just created (${k.id}) is not listed among ${items.length}`,
        expected: k.id,
        actual: items,
      }));
      for (const [plain, which] of [[k.key, 'the key just created'], [ctx.target.apiKey, "the run's key"]] as const) {
        if (plain === undefined) continue;
        rule2.that(!answer.text.includes(plain), `list_api_keys does not show the plaintext of ${which}`, () => ({
          message: `HOSTED-AUTH-2: list_api_keys (${answer.request}) shows the plaintext of ${which}: the plaintext is returned once, at creation`,
          expected: 'no plaintext',
          actual: '***',
        }));
      }
      await grantBeyondReach(ctx);
      await readKeyWrites(ctx);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-023',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-3', 'HOSTED-KEYSTATE-3'],
    title: 'Revoking a key takes effect on the very next request',
    asserts:
      'Creates a key and uses it (2xx); DELETE /auth/api-keys/{id} answers 2xx; the very next requests with the key (a read, then a creation) are refused (401 or 403), ' +
      'and the creation made nothing. Advisory: revoking and revealing an id no key has answer a 4xx, not a 5xx.',
    async run(ctx) {
      const k = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      check2xx(await works(ctx, k.credential), 'HOSTED-AUTH-3');
      check2xx(await ctx.call('DELETE', `/auth/api-keys/${encodeURIComponent(k.id)}`), 'HOSTED-AUTH-3');
      const rule3 = check.by('HOSTED-AUTH-3', 'HOSTED-KEYSTATE-3');
      const next = await works(ctx, k.credential);
      rule3.that(isRefusal(next), 'the very next read with the revoked key is refused (401 or 403)', () => ({
        message: `HOSTED-AUTH-3: revocation is immediate: the very next request with the revoked key (${next.request}) answered ${said(next)}`,
        expected: '401 or 403',
        actual: next.status,
        status: [401, 403],
      }));
      const userId = uid('user');
      const create = await ctx.call('POST', '/conversations', { as: k.credential, body: { userId } });
      rule3.that(isRefusal(create), 'a creation with the revoked key is refused (401 or 403)', () => ({
        message: `HOSTED-AUTH-3: revocation is immediate: a creation with the revoked key (${create.request}) answered ${said(create)}`,
        expected: '401 or 403',
        actual: create.status,
        status: [401, 403],
      }));
      const list = check2xx(await ctx.call('GET', '/conversations'), 'HOSTED-AUTH-3');
      rule3.that(!list.text.includes(userId), 'the refused creation with the revoked key created nothing', () => ({ message: 'HOSTED-AUTH-3: the refused creation with the revoked key created a conversation', expected: 'nothing created', actual: userId }));
      // An id no key has, to revoke and to reveal: a 4xx (not found) rather than a 5xx is an advisory.
      const none = encodeURIComponent(uid('no-such-key'));
      for (const a of [await ctx.call('DELETE', `/auth/api-keys/${none}`), await ctx.call('GET', `/auth/api-keys/${none}/reveal`)]) {
        check.advise('ADV-unknown-key-4xx').ok(a.status >= 400 && a.status < 500, `${a.request}, an id no key has, answered ${said(a)}: expected a 4xx (not found), not a failure of the service`, { expected: '4xx', actual: a.status });
      }
    },
  }),

  // The coverage matrix (issue 34, docs/coverage.md): a revoked key × every endpoint.
  defineHostedScenario({
    id: 'SCN-H-150',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-3', 'HOSTED-KEYSTATE-3'],
    title: 'A revoked key is refused on every endpoint, and changes nothing',
    asserts:
      'Creates a key, uses it (2xx) and revokes it (2xx); then sends one valid request to every endpoint (the token endpoints aside) with the revoked key: ' +
      'each answer is 401 or 403 (rule 3: revoking takes effect immediately; rule 1 makes a credential one on every endpoint, so a revoked one is refused on every one); ' +
      'afterwards the data is unchanged. SCN-H-023 times the revocation on one read and one write.',
    async run(ctx) {
      const k = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      check2xx(await works(ctx, k.credential), 'HOSTED-AUTH-3');
      check2xx(await ctx.call('DELETE', `/auth/api-keys/${encodeURIComponent(k.id)}`), 'HOSTED-AUTH-3');
      const revoked = { ...k.credential, label: `a revoked key (${k.credential.label}, revoked by call ${ctx.exchanges.length - 1})` };
      await refusedEverywhere(ctx, [revoked], 'HOSTED-AUTH-3');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-024',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-4', 'HOSTED-PAYLOAD-reveal_api_key'],
    title: 'Reveal returns the plaintext of a key of the caller\'s workspace (and, advisories, not of a wider or a revoked key)',
    asserts:
      'Creates a key; GET /auth/api-keys/{id}/reveal with the run\'s credential (same workspace) answers 2xx JSON holding the key\'s plaintext. Advisories: revealing that ' +
      '(read-write) key with a key of the read scope only is refused and shows no plaintext (the meaning of scopes is not shown; a service that makes no read-only key is noted); ' +
      'once the key is revoked, revealing it is refused and shows no plaintext.',
    async run(ctx) {
      const k = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      const a = await ctx.call('GET', `/auth/api-keys/${encodeURIComponent(k.id)}/reveal`);
      check2xx(a, 'HOSTED-AUTH-4');
      // silent: the field that carries the plaintext; the answer must hold it somewhere.
      check.by('HOSTED-AUTH-4', 'HOSTED-PAYLOAD-reveal_api_key').that(a.isJson && holds(a.json, k.key), "reveal_api_key answers the plaintext of a key of the caller's workspace", () => ({
        message: `HOSTED-AUTH-4: reveal_api_key (${a.request}): the answer does not hold the key's plaintext (reveal works for keys of the caller's workspace)`,
        expected: 'the plaintext',
        actual: a.json,
      }));
      await revealBeyondReach(ctx, k);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-025',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-4'],
    title: 'Reveal refuses a key of another workspace (and, advisory, revoke leaves it alone)',
    asserts:
      'Creates a key in the caller\'s workspace, and gets a key of another workspace (--other-api-key, else one created for a new workspace; skipped when neither works). ' +
      'With the other workspace\'s key, revealing the first key is refused (403 or 404, or 401) and the answer does not hold its plaintext. ' +
      'Advisory: asking, with it, to revoke the first key leaves that key working (the document binds reveal to the workspace, not revoke).',
    async run(ctx) {
      const mine = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      const other = await otherWorkspace(ctx, mine);
      const across = await ctx.call('GET', `/auth/api-keys/${encodeURIComponent(mine.id)}/reveal`, { as: other.credential });
      // silent: 403 or 404 (or 401) for a key of another workspace.
      check.by('HOSTED-AUTH-4').that(!is2xx(across) && !across.text.includes(mine.key), 'reveal_api_key with a key of another workspace is refused and shows no plaintext', () => ({
        message: `HOSTED-AUTH-4: reveal works only for keys of the caller's workspace: ${other.via} revealed a key of another workspace (${across.request} answered ${across.status})`,
        expected: '403 or 404',
        actual: across.status,
        status: [401, 403, 404],
      }));
      if (![401, 403, 404].includes(across.status)) ctx.note(`reveal across workspaces answered ${across.status}`);
      // The same key of another workspace asks to revoke the caller's key: that it still works is an advisory.
      check2xx(await works(ctx, mine.credential), 'HOSTED-AUTH-2');
      const revoke = await ctx.call('DELETE', `/auth/api-keys/${encodeURIComponent(mine.id)}`, { as: other.credential });
      const after = await works(ctx, mine.credential);
      check.advise('ADV-revoke-other-workspace').ok(!isRefusal(after), `after ${revoke.request} with ${other.via} (answered ${revoke.status}), the key of the caller's workspace it named no longer works: ${after.request} answered ${said(after)}`, { expected: 'the key still works', actual: after.status });
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-031',
    group: 'credentials',
    clauses: ['HOSTED-PAYLOAD-list_api_keys'],
    title: "A key list holds only keys of the caller's workspace",
    asserts:
      "Creates a key in the caller's workspace; gets a key of another workspace (--other-api-key, else one created for a new workspace; skipped when neither works) " +
      "and creates a key with it where it may. The other workspace's list holds none of the caller's keys, and the caller's list holds none of the other workspace's. " +
      "Asking, with the caller's credential, for the keys of the other workspace by its identifier is an advisory.",
    async run(ctx) {
      const mine = await newKey(ctx, 'HOSTED-ENDPOINT-create_api_key');
      const other = await otherWorkspace(ctx, mine);
      const theirs = new Set<string>(other.keyId !== undefined ? [other.keyId] : []);
      const made = await ctx.call('POST', '/auth/api-keys', { as: other.credential, body: { label: uid('key'), scopes: ['read'], ...(other.workspaceId !== undefined ? { workspaceId: other.workspaceId } : {}) } });
      if (is2xx(made) && isObject(made.json) && typeof made.json.id === 'string') {
        theirs.add(made.json.id);
        ctx.defer('DELETE', `/auth/api-keys/${encodeURIComponent(made.json.id)}`, other.credential);
      }
      const otherList = await ctx.call('GET', `/auth/api-keys${other.workspaceId !== undefined ? `?workspaceId=${encodeURIComponent(other.workspaceId)}` : ''}`, { as: other.credential });
      if (!is2xx(otherList)) ctx.note(`the key list of the other workspace answered ${otherList.status}: judged from the caller's side only`);
      const seenThere = keyIds(otherList);
      const cite = check.by('HOSTED-PAYLOAD-list_api_keys');
      cite.that(!seenThere.includes(mine.id), "the other workspace's key list holds none of the caller's keys", () => ({
        message: `list_api_keys (${otherList.request}) with ${other.via} shows the caller's key ${mine.id}: a key list holds the keys of that workspace only`,
        expected: 'no key of another workspace',
        actual: mine.id,
      }));
      for (const id of seenThere) theirs.add(id);
      if (theirs.size === 0) ctx.note('no key of the other workspace is known (it could neither list nor create keys): the caller\'s list was not judged');
      const { answer, items } = await listKeys(ctx, 'HOSTED-PAYLOAD-list_api_keys');
      const leaked = items.flatMap((i) => (isObject(i) && typeof i.id === 'string' && theirs.has(i.id) ? [i.id] : []));
      if (theirs.size > 0) {
        cite.that(leaked.length === 0, "the caller's key list holds none of the other workspace's keys", () => ({
          message: `list_api_keys (${answer.request}) shows ${leaked.length} key(s) of another workspace (${other.via}): a key list holds the keys of that workspace only`,
          expected: "the caller's workspace's keys",
          actual: leaked,
        }));
      }
      const otherWs = other.workspaceId ?? workspaceOfList(otherList);
      if (otherWs !== undefined && otherWs !== ctx.target.workspaceId && theirs.size > 0) {
        const asked = await ctx.call('GET', `/auth/api-keys?workspaceId=${encodeURIComponent(otherWs)}`);
        const shown = keyIds(asked).filter((id) => theirs.has(id));
        check.advise('ADV-list-keys-other-workspace').ok(shown.length === 0, `list_api_keys (${asked.request}) with the caller's credential shows ${shown.length} key(s) of the workspace it names, which is not the caller's`, { expected: 'refused, or no key of that workspace', actual: shown });
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-032',
    group: 'credentials',
    clauses: ['RFC9110-11.6.1', 'RFC9110-11.3', 'RFC6750-3'],
    title: 'A 401 carries WWW-Authenticate with a Bearer challenge',
    asserts:
      "Sends GET and POST /conversations without a credential, with a made-up Bearer value, a made-up key of the service's form, another scheme (Basic), a JWT " +
      'signed by an unpublished key, a JWT signed HS256 with a made-up secret and, when given (--expired-token), an access token past its exp. Every answer that is 401 has a WWW-Authenticate header (RFC 9110 §11.6.1) holding a Bearer challenge, in any case (RFC 6750 §3); ' +
      'every WWW-Authenticate answered is a well-formed list of challenges (RFC 9110 §11.3: a scheme, then a token68 or comma-separated auth-params, token or quoted-string values). ' +
      'A 403 without a Bearer challenge, and a challenge to a Bearer token without error="invalid_token", are advisories.',
    async run(ctx) {
      let judged = 0;
      // Also a JWT of an algorithm the service does not use and the token past its exp (--expired-token): refusals whose reasons
      // may hold quotes, which a challenge's quoted-string must escape.
      const expired = ctx.target.expiredToken !== undefined ? [ctx.bearer(ctx.target.expiredToken, 'the access token past its exp (--expired-token)')] : [];
      for (const as of [NO_CREDENTIAL, ...(await madeUpCredentials(ctx)), await hmacToken(ctx), ...expired]) {
        for (const body of [undefined, { userId: uid('user') }]) {
          const a = await ctx.call(body === undefined ? 'GET' : 'POST', '/conversations', { as, ...(body !== undefined ? { body } : {}) });
          deleteIfCreated(ctx, a, '/conversations');
          const header = a.headers['www-authenticate'];
          const schemes = header === undefined ? [] : challengeSchemes(header);
          if (header !== undefined) {
            const parsed = parseChallenges(header);
            check.by('RFC9110-11.3').that(parsed.ok, 'every WWW-Authenticate answered is a well-formed list of challenges', () => ({
              message: `${a.request} with ${as.label} answered ${a.status} with WWW-Authenticate: ${header}: not a list of challenges (RFC 9110 §11.6.1, §11.3): ${parsed.ok ? '' : `${parsed.reason}, at character ${parsed.at + 1}`}; a sender MUST NOT generate a field that does not match its grammar (RFC 9110 §2.1)`,
              expected: 'auth-scheme [ 1*SP ( token68 / #auth-param ) ], comma-separated',
              actual: header,
            }));
          }
          if (a.status === 403) {
            check.advise('ADV-challenge-on-403').ok(schemes.includes('bearer'), `${a.request} with ${as.label} answered 403 without a Bearer challenge${header === undefined ? '' : ` (WWW-Authenticate: ${header})`}`, { expected: 'WWW-Authenticate: Bearer …', actual: header ?? null });
          }
          if (a.status !== 401) continue;
          judged++;
          check.by('RFC9110-11.6.1').that(header !== undefined, 'a 401 carries a WWW-Authenticate header', () => ({
            message: `${a.request} with ${as.label} answered 401 without a WWW-Authenticate header: a 401 MUST carry at least one challenge (RFC 9110 §11.6.1)`,
            expected: 'WWW-Authenticate: Bearer …',
            actual: 'no WWW-Authenticate',
            status: [401],
          }));
          if (header === undefined) continue;
          check.by('RFC6750-3').that(schemes.includes('bearer'), "a 401's WWW-Authenticate holds a Bearer challenge", () => ({
            message: `${a.request} with ${as.label} answered 401 with WWW-Authenticate: ${header}: no Bearer challenge, though every credential is sent as Authorization: Bearer (RFC 6750 §3)`,
            expected: 'a Bearer challenge',
            actual: header,
          }));
          if (as.authorization?.startsWith('Bearer ')) {
            check.advise('ADV-invalid-token-error').ok(/\berror\s*=\s*"?invalid_token\b/i.test(header), `${a.request} with ${as.label}: the Bearer challenge has no error="invalid_token" (RFC 6750 §3 SHOULD)`, { expected: 'error="invalid_token"', actual: header });
          }
        }
      }
      if (judged === 0) ctx.note('no request was answered 401: the rule of a 401 had nothing to judge');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-033',
    group: 'credentials',
    clauses: ['RFC9110-11.1', 'HOSTED-AUTH-BEARER'],
    title: 'The authentication scheme is matched case-insensitively: "bearer" works like "Bearer"',
    asserts:
      "Sends the run's credential as \"bearer <credential>\" on GET /conversations and on POST /conversations, and as \"BEARER <credential>\" on GET /conversations: each answers 2xx " +
      '(the scheme is a case-insensitive token, RFC 9110 §11.1).',
    async run(ctx) {
      const [value, env] = ctx.target.apiKey !== undefined ? [ctx.target.apiKey, 'TCK_API_KEY'] : [ctx.target.accessToken!, 'TCK_TOKEN'];
      const spelled = (scheme: string): Credential => ({ authorization: `${scheme} ${value}`, label: `the run's credential with the scheme written "${scheme}"`, repro: `"${scheme} \${${env}:?set ${env}}"` });
      for (const [scheme, body] of [['bearer', undefined], ['bearer', { userId: uid('user') }], ['BEARER', undefined]] as const) {
        const a = await ctx.call(body === undefined ? 'GET' : 'POST', '/conversations', { as: spelled(scheme), ...(body !== undefined ? { body } : {}) });
        deleteIfCreated(ctx, a, '/conversations');
        check.by('RFC9110-11.1').that(is2xx(a), `the scheme written "${scheme}" works like "Bearer" (2xx)`, () => ({
          message: `${a.request} with ${spelled(scheme).label} answered ${said(a)}: the authentication scheme is a case-insensitive token (RFC 9110 §11.1), so "${scheme}" works like "Bearer"`,
          expected: '2xx',
          actual: a.status,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-026',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-1'],
    title: 'An API key and an access token are used identically on every endpoint',
    asserts:
      'With an API key (the run\'s, else one created) and an access token (the run\'s, else one exchanged; skipped without either), ' +
      'makes data and sends one valid request to every endpoint with each: every answer is 2xx with both kinds.',
    async run(ctx) {
      const key = ctx.target.apiKey !== undefined ? ctx.target.credential : (await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key')).credential;
      const token = (await someAccessToken(ctx, 'HOSTED-AUTH-5')).credential;
      const statuses = new Map<string, [number?, number?]>();
      for (const [i, as] of [key, token].entries()) {
        for (const r of await allEndpointRequests(ctx, as)) {
          const a = await send(ctx, r, as);
          const seen = statuses.get(r.operation) ?? [];
          seen[i] = a.status;
          statuses.set(r.operation, seen);
        }
      }
      for (const [operation, [withKey, withToken]] of statuses) {
        const good = (s?: number) => s !== undefined && s >= 200 && s < 300;
        check.by('HOSTED-AUTH-1').that(good(withKey) && good(withToken), `${operation} answers 2xx with an API key and with an access token`, () => ({
          message: `HOSTED-AUTH-1: a valid credential of either kind is used identically: ${operation} answered ${withKey} with an API key and ${withToken} with an access token`,
          expected: '2xx with both',
          actual: { apiKey: withKey, accessToken: withToken },
        }));
      }
    },
  }),

  // Issue 34 (the coverage matrix, credential × endpoint): SCN-H-028 and SCN-H-033 send these to
  // GET and POST /conversations only; rule 1 and RFC 9110 hold on every endpoint.
  defineHostedScenario({
    id: 'SCN-H-252',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-1', 'HOSTED-AUTH-6'],
    title: 'The access token a refresh issues is used like any access token, on every endpoint',
    asserts:
      'Exchanges (skipped without an identity-provider token) and refreshes; with the access token the refresh issued, makes data and sends one valid request to every endpoint ' +
      '(the token endpoints aside): every answer is 2xx (rule 1: a valid credential of either kind is used identically on all endpoints; rule 6: the refresh obtains a new access token).',
    async run(ctx) {
      const first = await exchangeTokens(ctx, 'HOSTED-AUTH-5');
      const answer = await refresh(ctx, first.refreshToken, first.credential);
      const n = ctx.exchanges.length - 1;
      const as = ctx.bearer(tokensOf(ctx, answer, 'HOSTED-PAYLOAD-refresh_access_token').accessToken, `the access token issued by call ${n} (a refresh)`);
      for (const r of await allEndpointRequests(ctx, as)) {
        const a = await send(ctx, r, as);
        check.by('HOSTED-AUTH-1', 'HOSTED-AUTH-6').that(is2xx(a), `${r.operation} answers 2xx with the access token a refresh issued`, () => ({
          message: `HOSTED-AUTH-1: ${r.operation} (${a.request}) with ${as.label} answered ${said(a)}: a valid credential of either kind is used identically on all endpoints (rule 1), and the access token a refresh issues is one (rule 6)`,
          expected: '2xx',
          actual: a.status,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-253',
    group: 'credentials',
    clauses: ['RFC9110-11.1', 'HOSTED-AUTH-BEARER'],
    title: 'The scheme written "bearer" works like "Bearer" on every endpoint',
    asserts:
      "Makes data with the run's credential, then sends one valid request to every endpoint (the token endpoints aside) with the run's credential under the scheme written \"bearer\": " +
      'every answer is 2xx (the scheme is a case-insensitive token, RFC 9110 §11.1).',
    async run(ctx) {
      const [value, env] = ctx.target.apiKey !== undefined ? [ctx.target.apiKey, 'TCK_API_KEY'] : [ctx.target.accessToken!, 'TCK_TOKEN'];
      const as: Credential = { authorization: `bearer ${value}`, label: 'the run\'s credential with the scheme written "bearer"', repro: `"bearer \${${env}:?set ${env}}"` };
      for (const r of await allEndpointRequests(ctx)) {
        const a = await send(ctx, r, as);
        check.by('RFC9110-11.1').that(is2xx(a), `${r.operation} answers 2xx with the scheme written "bearer"`, () => ({
          message: `${r.operation} (${a.request}) with ${as.label} answered ${said(a)}: the authentication scheme is a case-insensitive token (RFC 9110 §11.1), so "bearer" works like "Bearer" on every endpoint`,
          expected: '2xx',
          actual: a.status,
        }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-027',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-5', 'HOSTED-PAYLOAD-token_exchange', 'HOSTED-DISCOVERY-3'],
    title: 'The exchange returns access_token, refresh_token and expires_in; the access token is a JWT verified by the published keys',
    asserts:
      'POST /auth/exchange with an identity-provider token (skipped without one) answers {access_token, refresh_token, expires_in}: two non-empty strings and a positive number; ' +
      'the access token is a signed JWT that verifies (signature, exp, nbf) against /.well-known/jwks.json, and works as a Bearer credential. ' +
      'Advisory: its exp is expires_in seconds after the response (RFC 6749 §5.1; the document leaves the unit open).',
    async run(ctx) {
      const t = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      // silent: the unit of expires_in (a number of seconds by OAuth).
      const rule5 = check.by('HOSTED-AUTH-5');
      rule5.that(typeof t.expiresIn === 'number' && t.expiresIn > 0, 'token exchange: expires_in is a positive number', () => ({ message: `HOSTED-AUTH-5: token exchange: expected a positive number expires_in, got ${JSON.stringify(t.expiresIn) ?? 'nothing'}`, expected: 'a number', actual: t.expiresIn }));
      let header: { alg?: unknown } | undefined;
      try {
        header = decodeProtectedHeader(t.accessToken);
      } catch {
        header = undefined;
      }
      rule5.that(header !== undefined, 'token exchange: the access_token is a JWT', () => ({ message: 'HOSTED-AUTH-5: token exchange: the access_token is not a JWT (a short-lived signed token)', expected: 'a JWT', actual: '***' }));
      const alg = header!.alg;
      rule5.that(typeof alg === 'string' && alg !== 'none', 'token exchange: the access_token is signed (an alg other than "none")', () => ({ message: `HOSTED-AUTH-5: token exchange: the access_token is not signed (alg ${JSON.stringify(alg)})`, expected: 'a signed JWT', actual: alg }));
      const jwks = await publishedKeys(ctx, 'HOSTED-DISCOVERY-3');
      let unverified: Error | undefined;
      try {
        await jwtVerify(t.accessToken, createLocalJWKSet(jwks), { clockTolerance: 60 });
      } catch (err) {
        unverified = err as Error;
      }
      rule5.that(unverified === undefined, `the access token verifies against the signing keys published at ${DISCOVERY.jwks} (signature, exp, nbf)`, () => ({
        message: `HOSTED-AUTH-5: the access token does not verify against the signing keys published at ${DISCOVERY.jwks}: ${unverified!.message}`,
        expected: 'verified by the published keys',
        actual: unverified!.message,
      }));
      check2xx(await works(ctx, t.credential), 'HOSTED-AUTH-5');
      const exp = partsOf(t.accessToken)?.payload.exp;
      if (typeof exp === 'number' && typeof t.expiresIn === 'number') {
        const off = exp - (nowSeconds() + t.expiresIn);
        check.advise('ADV-expires-in-matches-exp').ok(Math.abs(off) <= LEEWAY_SECONDS, `token exchange: the access token's exp (${new Date(exp * 1000).toISOString()}) is ${Math.round(off)} s away from expires_in (${t.expiresIn}) seconds after the response`, { expected: `exp about now + ${t.expiresIn} s`, actual: exp });
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-028',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-6', 'HOSTED-PAYLOAD-refresh_access_token'],
    title: 'Refresh rotates: a new access token and refresh token, and the used refresh token stops working',
    asserts:
      'Exchanges (skipped without an identity-provider token); POST /auth/refresh with the refresh token answers a new access token (it works) and a new refresh token; ' +
      'that one refreshes in turn; the first refresh token, presented again, is refused (any 4xx).',
    async run(ctx) {
      const first = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      const second = tokensOf(ctx, await refresh(ctx, first.refreshToken, first.credential), 'HOSTED-PAYLOAD-refresh_access_token');
      const rule6 = check.by('HOSTED-AUTH-6');
      rule6.that(second.accessToken !== first.accessToken, 'refresh_access_token answers a new access token', () => ({ message: 'HOSTED-AUTH-6: refresh_access_token answered the same access token: expected a new one', expected: 'a new access token', actual: 'the same' }));
      rule6.that(second.refreshToken !== first.refreshToken, 'refresh_access_token answers a new refresh token (rotation)', () => ({ message: 'HOSTED-AUTH-6: refresh_access_token answered the same refresh token: a rotation gives a new one', expected: 'a new refresh token', actual: 'the same' }));
      check2xx(await works(ctx, second.credential), 'HOSTED-AUTH-6');
      tokensOf(ctx, await refresh(ctx, second.refreshToken, second.credential), 'HOSTED-PAYLOAD-refresh_access_token');
      const again = await refresh(ctx, first.refreshToken);
      // silent: the status of a spent refresh token (400 invalid_grant by OAuth, or 401/403).
      rule6.that(again.status >= 400 && again.status < 500, 'the spent refresh token, presented again, is refused (4xx)', () => ({ message: `HOSTED-AUTH-6: rotation: the spent refresh token was accepted again (${again.request} answered ${said(again)})`, expected: '4xx', actual: again.status }));
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-034',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-5', 'HOSTED-PAYLOAD-token_exchange', 'HOSTED-PAYLOAD-refresh_access_token'],
    title: 'The token responses of the exchange and the refresh hold what the document lists; token_type and scope as RFC 6749 writes them are advisories',
    asserts:
      'Exchanges (skipped without an identity-provider token), then refreshes. The exchange answers access_token and refresh_token (strings) and expires_in (a number), ' +
      'exactly what Authentication rule 5 and the Token exchange response table list; the refresh answers a new access token. ' +
      'token_type "Bearer", a scope of space-delimited tokens (RFC 6749 §5.1, §3.3, which the document does not adopt for its exchange) and a scope naming only advertised values are advisories.',
    async run(ctx) {
      const advertised = await advertisedScopes(ctx);
      const first = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      check.by('HOSTED-AUTH-5', 'HOSTED-PAYLOAD-token_exchange').that(typeof first.expiresIn === 'number' && Number.isFinite(first.expiresIn), 'token exchange: expires_in is a number (the Token exchange response table)', () => ({
        message: `HOSTED-AUTH-5: token exchange (${first.answer.request}): expires_in is ${JSON.stringify(first.expiresIn) ?? 'missing'}: the exchange returns access_token, refresh_token and expires_in, a number (the Token exchange response table)`,
        expected: 'a number',
        actual: first.expiresIn ?? null,
      }));
      tokenResponseFields(first, advertised);
      const second = tokensOf(ctx, await refresh(ctx, first.refreshToken, first.credential), 'HOSTED-PAYLOAD-refresh_access_token');
      tokenResponseFields(second, advertised);
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-029',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-7'],
    title: 'Access tokens supplied per request all work, in any order',
    asserts: 'Exchanges twice (skipped without an identity-provider token) and alternates the two access tokens over four requests, as a per-request token callback would: each answer is 2xx.',
    async run(ctx) {
      const a = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      const b = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      for (const [as, path] of [[a.credential, '/conversations'], [b.credential, '/entities'], [a.credential, '/entities'], [b.credential, '/conversations']] as const) {
        const r = await works(ctx, as, path);
        check.by('HOSTED-AUTH-7').that(is2xx(r), 'an access token supplied per request, alternating with another, is served (2xx)', () => ({ message: `HOSTED-AUTH-7: an access token supplied per request (${as.label}) was refused: ${r.request} answered ${said(r)}`, expected: '2xx', actual: r.status }));
      }
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-030',
    group: 'credentials',
    clauses: ['HOSTED-LIMIT-key-lifetime'],
    title: 'Where a key\'s issue and expiry are shown, they are 90 days apart',
    asserts:
      'Creates a key; where its creation answer or its list entry shows createdAt and expiresAt, expiresAt is 90 days after createdAt (to the minute). ' +
      'A service that shows neither passes with a note: the document does not say the expiry is shown.',
    async run(ctx) {
      const k = await newKey(ctx, 'HOSTED-PAYLOAD-create_api_key');
      const { items } = await listKeys(ctx, 'HOSTED-PAYLOAD-list_api_keys');
      const listed = items.find((i) => isObject(i) && i.id === k.id) as Record<string, unknown> | undefined;
      let judged = false;
      for (const [where, v] of [['create_api_key', k.body], ['list_api_keys', listed]] as const) {
        if (v === undefined || typeof v.createdAt !== 'string' || typeof v.expiresAt !== 'string') continue;
        const span = Date.parse(v.expiresAt) - Date.parse(v.createdAt);
        if (!Number.isFinite(span)) continue;
        judged = true;
        check.by('HOSTED-LIMIT-key-lifetime').that(Math.abs(span - 90 * DAY_MS) <= 60_000, `${where}: expiresAt is 90 days after createdAt (to the minute)`, () => ({
          message: `HOSTED-LIMIT-key-lifetime: ${where}: a key expires 90 days after issue, but createdAt ${v.createdAt} and expiresAt ${v.expiresAt} are ${(span / DAY_MS).toFixed(2)} days apart`,
          expected: '90 days',
          actual: `${(span / DAY_MS).toFixed(2)} days`,
        }));
      }
      if (!judged) ctx.note('neither the creation answer nor the list shows createdAt and expiresAt: the 90-day lifetime is not observable here');
    },
  }),

  defineHostedScenario({
    id: 'SCN-H-059',
    group: 'credentials',
    clauses: ['HOSTED-AUTH-6'],
    title: 'One refresh token presented by several requests at once is served at most once',
    asserts:
      `Exchanges (skipped without an identity-provider token), then sends ${CONCURRENT_REFRESHES} POST /auth/refresh requests with the same refresh token at once, over the client's connections. ` +
      'A rotation spends the token it is given: whatever order the service takes them in, every presentation after the first is of a spent token, so at most one answers 2xx with new tokens.',
    async run(ctx) {
      const first = await exchangeTokens(ctx, 'HOSTED-PAYLOAD-token_exchange');
      // The client's connections opened first (reads of the key set, at once), so the refreshes leave together.
      await Promise.all(Array.from({ length: CONCURRENT_REFRESHES }, () => ctx.fetch(DISCOVERY.jwks)));
      const answers = await Promise.all(Array.from({ length: CONCURRENT_REFRESHES }, () => refresh(ctx, first.refreshToken)));
      const served = answers.filter(is2xx);
      // silent: whether the one served comes first, and how the others are refused (4xx of any kind); a service may also refuse all.
      check.by('HOSTED-AUTH-6').that(served.length <= 1, `${CONCURRENT_REFRESHES} refreshes of one refresh token at once: at most one is served`, () => ({
        message: `HOSTED-AUTH-6: rotation: ${CONCURRENT_REFRESHES} requests presented one refresh token at once (POST /v1/auth/refresh) and ${served.length} were served with new tokens (${answers.map((a) => a.status).join(', ')}); ` +
          'a rotation spends the refresh token, so every presentation after the first is of a spent token',
        expected: 'at most one 2xx', actual: answers.map((a) => a.status),
      }));
    },
  }),
];
