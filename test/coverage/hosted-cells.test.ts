// The hosted dimensions of the coverage matrix (value, history, limit × filter, credential × owner)
// and the storage classes added to every string (NUL, NFKC, over 10 000 and 65 535): each is read from
// a hand-built recorded request, and each test shows a cell going from uncovered to covered by that
// request alone, and staying uncovered by the request that differs in the one thing the cell is about.
import { describe, expect, it } from 'vitest';
import { DOCUMENT_ENDPOINTS } from '../../src/protocols/hosted/document.js';
import { coverageMatrix, hostedTrailCells, trailCells, type HostedCall } from '../../src/report/coverage.js';
import { hostedExploreTrails } from './trails.js';

const BASE = 'http://127.0.0.1:9/v1';
const RUN = "the run's API key";
const OTHER = 'the API key of another workspace (--other-api-key)';
const C = '00000000-0000-4000-8000-00000000000c';
const E1 = '00000000-0000-4000-8000-0000000000e1';
const E2 = '00000000-0000-4000-8000-0000000000e2';

const req = (operation: string, httpMethod: string, path: string, extra: Partial<HostedCall> = {}): HostedCall => ({
  operation, httpMethod, url: `${BASE}${path}`, credential: RUN, status: 200, params: {}, ...extra,
});

/** The cell's coverage in a matrix of this one hosted trail: the scenarios that cover it. */
function coveredBy(calls: HostedCall[], id: string): string[] {
  const cell = coverageMatrix({ fixed: [], hosted: [{ source: 'SCN-T', calls }], explore: [] }).cells.find((c) => c.id === id);
  expect(cell, `the matrix has the cell ${id}`).toBeDefined();
  return cell!.fixed;
}
const flips = (id: string, without: HostedCall[], withIt: HostedCall[]) => {
  expect(coveredBy(without, id), `${id} uncovered without the request`).toEqual([]);
  expect(coveredBy(withIt, id), `${id} covered by the request`).toEqual(['SCN-T']);
};

describe('string classes that matter for storage (bridge and hosted)', () => {
  const classes = (content: string) => [...trailCells({ source: 't', calls: [{ method: 'add_message', params: { session_id: 's', role: 'user', content }, status: 200 }] })]
    .filter((id) => id.startsWith('value/add_message/content/')).map((id) => id.split('/').at(-1));

  it('NUL is a class of its own, apart from the other control characters', () => {
    expect(classes('a\u0000b')).toContain('nul');
    expect(classes('a\u0000b')).not.toContain('control');
    expect(classes('a\u0007b')).toEqual(['control']);
  });

  it('compatibility characters (what NFKC folds and NFC keeps) are nfkc; plain accents are not', () => {
    expect(classes('\ufb01le \uff21 \u2460')).toContain('nfkc');
    expect(classes('caf\u00e9')).not.toContain('nfkc');
  });

  it('over 10 000 characters, and over 65 535 bytes of UTF-8 (not characters)', () => {
    expect(classes('x'.repeat(10_000))).toEqual(['long']);
    expect(classes('x'.repeat(10_001))).toEqual(['long', 'over-10k']);
    // 40 000 characters of two bytes each: 80 000 bytes
    expect(classes('\u00e9'.repeat(40_000))).toContain('over-64k');
    expect(classes('x'.repeat(40_000))).not.toContain('over-64k');
  });
});

describe('hosted value: operation × field × class, from bodies and query strings', () => {
  it('a message body, a bulk item, a query-string limit, scopes and an unknown conversation id are classified', () => {
    const plain = [
      req('create_conversation', 'POST', '/conversations', { params: { userId: 'u' }, body: { id: C } }),
      req('add_message', 'POST', `/conversations/${C}/messages`, { params: { role: 'user', content: 'hello' } }),
      req('list_conversations', 'GET', '/conversations?limit=5'),
      req('create_api_key', 'POST', '/auth/api-keys', { params: { label: 'k', scopes: ['read'] } }),
      req('record_step', 'POST', '/reasoning/steps', { params: { conversationId: C, reasoning: 'r', actionTaken: 'a', result: 'x' } }),
    ];
    const classed = [
      req('add_message', 'POST', `/conversations/${C}/messages`, { params: { role: 'user', content: 'a\u0000b \ufb01' } }),
      req('bulk_add_messages', 'POST', `/conversations/${C}/messages/bulk`, { params: { messages: [{ role: 'system', content: 'x'.repeat(10_001) }] } }),
      req('list_conversations', 'GET', '/conversations?limit=1'),
      req('create_api_key', 'POST', '/auth/api-keys', { params: { label: 'k', scopes: ['READ'] } }),
      req('record_step', 'POST', '/reasoning/steps', { status: 404, params: { conversationId: '00000000-0000-4000-8000-000000000404', reasoning: 'r', actionTaken: 'a', result: 'x' } }),
    ];
    for (const id of [
      'value/hosted:add_message/content/nul', 'value/hosted:add_message/content/nfkc', 'value/hosted:bulk_add_messages/messages[].content/over-10k',
      'value/hosted:bulk_add_messages/messages[].role/member:system', 'value/hosted:bulk_add_messages/messages/one', 'value/hosted:list_conversations/?limit/one',
      'value/hosted:create_api_key/scopes/case-variant', 'value/hosted:record_step/conversationId/unknown',
    ]) flips(id, plain, classed);
  });

  it('an id handed out as another kind of object is other-kind, the same kind is no class', () => {
    const made = [
      req('create_conversation', 'POST', '/conversations', { params: { userId: 'u' }, body: { id: C } }),
      req('add_entity', 'POST', '/entities', { params: { name: 'Ada', type: 'person' }, body: { id: E1 } }),
    ];
    const cells = hostedTrailCells({ source: 't', calls: [...made, req('record_step', 'POST', '/reasoning/steps', { params: { conversationId: E1 } })] });
    expect(cells).toContain('value/hosted:record_step/conversationId/other-kind');
    expect(hostedTrailCells({ source: 't', calls: [...made, req('record_step', 'POST', '/reasoning/steps', { params: { conversationId: C } })] })).not.toContain('value/hosted:record_step/conversationId/other-kind');
  });
});

describe('hosted history: the identical read around a write that changes it', () => {
  const read = (extra: Partial<HostedCall> = {}) => req('get_conversation', 'GET', `/conversations/${C}/messages`, extra);
  const write = (credential = RUN) => req('add_message', 'POST', `/conversations/${C}/messages`, { credential, params: { role: 'user', content: 'x' } });
  const id = 'history/hosted:get_conversation/read → write → read/add_message';

  it('read → write → read of the same workspace covers the pair', () => {
    flips(id, [read(), write()], [read(), write(), read()]);
  });

  it('not when the second read differs (URL), nor when another workspace wrote, nor when another workspace read', () => {
    expect(coveredBy([read(), write(), req('get_conversation', 'GET', `/conversations/${C}/messages?limit=5`)], id)).toEqual([]);
    expect(coveredBy([read(), write(OTHER), read()], id)).toEqual([]);
    // SCN-H-060's shape: the run reads, the other workspace reads the same URL and writes to it, the run reads again.
    expect(coveredBy([read(), read({ credential: OTHER }), write(OTHER), read()], id)).toEqual([]);
  });

  it('a read naming what a delete removed, and the source and target of a merge', () => {
    const del = req('delete_conversation', 'DELETE', `/conversations/${C}`, { status: 204 });
    flips('history/hosted:get_context/after delete/delete_conversation', [req('get_context', 'GET', `/conversations/${C}/context`), del], [del, req('get_context', 'GET', `/conversations/${C}/context`, { status: 404 })]);
    const merge = req('merge_entities', 'POST', `/entities/${E1}/merge`, { params: { targetId: E2 } });
    flips('history/hosted:get_entity/after merge/merge_entities source', [merge, req('get_entity', 'GET', `/entities/${E2}`)], [merge, req('get_entity', 'GET', `/entities/${E1}`)]);
    flips('history/hosted:get_entity/after merge/merge_entities target', [merge, req('get_entity', 'GET', `/entities/${E1}`)], [merge, req('get_entity', 'GET', `/entities/${E2}`)]);
  });
});

describe('hosted limit × filter', () => {
  it('a limit beside a type; bulk around its cap of 100; the messages limit reached or not', () => {
    flips('limit-filter/hosted:list_entities/type/limit + filter', [req('list_entities', 'GET', '/entities?limit=2')], [req('list_entities', 'GET', '/entities?limit=2&type=person')]);
    const bulk = (n: number) => req('bulk_add_messages', 'POST', `/conversations/${C}/messages/bulk`, { status: n > 100 ? 400 : 200, params: { messages: Array.from({ length: n }, () => ({ role: 'user', content: 'x' })) } });
    flips('limit-filter/hosted:bulk_add_messages/messages/count 101', [bulk(100)], [bulk(101)]);
    flips('limit-filter/hosted:bulk_add_messages/messages/count 100', [bulk(99)], [bulk(100)]);
    const two = { messages: [{ id: 'a' }, { id: 'b' }] };
    flips('limit-filter/hosted:get_conversation/limit/limit reached', [req('get_conversation', 'GET', `/conversations/${C}/messages?limit=3`, { body: two })], [req('get_conversation', 'GET', `/conversations/${C}/messages?limit=2`, { body: two })]);
  });
});

describe('hosted credential kinds and owners', () => {
  it('an access token issued by a refresh is a refreshed token; by the exchange, an access token', () => {
    const issued = (op: string) => [req(op, 'POST', op === 'token_exchange' ? '/auth/exchange' : '/auth/refresh', { credential: 'no credential' }), req('list_entities', 'GET', '/entities', { credential: 'the access token issued by call 0' })];
    flips('credential/list_entities/credential/refreshed-token', issued('token_exchange'), issued('refresh_access_token'));
    expect(hostedTrailCells({ source: 't', calls: issued('token_exchange') })).toContain('credential/list_entities/credential/access-token');
  });

  it('the scheme written in another case is its own kind, not another scheme', () => {
    const cells = hostedTrailCells({ source: 't', calls: [req('get_entity_graph', 'GET', '/entities/graph', { credential: 'the run\'s credential with the scheme written "bearer"' })] });
    expect(cells).toContain('credential/get_entity_graph/credential/scheme-case');
    expect(cells).not.toContain('credential/get_entity_graph/credential/wrong-scheme');
  });

  it("a resource is its creator's workspace's: reached with another workspace's key, or with a key made for a new workspace", () => {
    const made = req('create_conversation', 'POST', '/conversations', { params: { userId: 'u' }, body: { id: C } });
    const get = (credential: string) => req('get_conversation_metadata', 'GET', `/conversations/${C}`, { credential, status: 404 });
    flips('credential/get_conversation_metadata/owner/another workspace', [made, get(RUN)], [made, get(OTHER)]);
    flips('credential/get_conversation_metadata/owner/own workspace', [made, get(OTHER)], [made, get(RUN)]);
    // A key created (by the run's key) for a new workspace is that workspace's; its reveal by the run's key is across.
    const key = req('create_api_key', 'POST', '/auth/api-keys', { params: { label: 'k', scopes: ['read'], workspaceId: 'ws-new' }, body: { id: 'k1', key: '***' } });
    const reveal = req('reveal_api_key', 'GET', '/auth/api-keys/k1/reveal', { status: 403 });
    const used = req('list_conversations', 'GET', '/conversations', { credential: 'the API key created for workspace ws-new by call 0' });
    flips('credential/reveal_api_key/owner/another workspace', [key, reveal], [key, used, reveal]);
  });
});

describe('the hook for a hosted exploration', () => {
  it("its requests count as explore (E), not as a fixed scenario's", () => {
    const trail = { source: 'explore#1', calls: [req('list_entities', 'GET', '/entities?limit=2&type=person')] };
    const id = 'limit-filter/hosted:list_entities/type/limit + filter';
    const without = coverageMatrix({ fixed: [], hosted: [], explore: [] }).cells.find((c) => c.id === id)!;
    const withIt = coverageMatrix({ fixed: [], hosted: [], explore: [], hostedExplore: [trail] }).cells.find((c) => c.id === id)!;
    expect([without.explore, withIt.explore, withIt.fixed.length]).toEqual([0, 1, 0]);
  });

  it('a real short tck explore --hosted of the reference flips hosted cells to E: values, histories and limits, named by operation', async () => {
    const run = await hostedExploreTrails({ seed: 1, runs: 4, maxSteps: 40 });
    expect([run.findings, run.sequences, run.trails.length]).toEqual([0, 4, 4]);
    const explored = coverageMatrix({ fixed: [], hosted: [], explore: [], hostedExplore: run.trails }).cells;
    const none = coverageMatrix({ fixed: [], hosted: [], explore: [] }).cells;
    const e = (cells: typeof none, id: string) => cells.find((c) => c.id === id)?.explore;
    for (const id of [
      'value/hosted:add_message/content/nfkc', 'value/hosted:list_conversations/?limit/one',
      'history/hosted:get_conversation/read → write → read/add_message', 'limit-filter/hosted:list_entities/type/limit + filter',
      'credential/get_entity/credential/valid-key', 'credential/get_entity/owner/own workspace', 'framing/delete_conversation/answer/2xx',
    ]) {
      expect(e(none, id), `${id} without the exploration`).toBe(0);
      expect(e(explored, id), `${id} by the exploration`).toBeGreaterThan(0);
    }
    // Every request is named by the document's operation and carries the run's API key in words.
    const operations = new Set(DOCUMENT_ENDPOINTS.map((e) => e.operation));
    const calls = run.trails.flatMap((t) => t.calls);
    expect(calls.filter((c) => !operations.has(c.operation) || c.credential !== RUN || c.status === undefined || !/^(GET|POST|PUT|DELETE)$/.test(c.httpMethod ?? ''))).toEqual([]);
    expect(calls.length).toBeGreaterThan(100);
  }, 60_000);
});

describe('what a refused credential sent', () => {
  it('classifies no value: it never reached the store', () => {
    const sent = (credential: string) => [req('add_message', 'POST', `/conversations/${C}/messages`, { credential, status: credential === RUN ? 201 : 401, params: { role: 'user', content: 'a\u0000b' } })];
    flips('value/hosted:add_message/content/nul', sent('the access token past its exp (--expired-token)'), sent(RUN));
  });
});
