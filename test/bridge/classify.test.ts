import { describe, expect, it } from 'vitest';
import { classifyFailure, classifyResponse, displayText, formatExchange } from '../../src/profiles/bridge/index.js';
import type { Exchange, ResponseFacts } from '../../src/profiles/bridge/index.js';
import { ABSENT_METHOD, answersLikeAbsent } from '../../src/profiles/bridge/classify.js';

const facts = (status: number, text = '', extra: Partial<ResponseFacts> = {}): ResponseFacts => ({
  status,
  text,
  bytes: Buffer.byteLength(text),
  ...extra,
});

describe('classifyResponse', () => {
  it('object-or-null accepts an object and null, nothing else', () => {
    expect(classifyResponse('object-or-null', facts(200, '{"a":1}'))).toEqual({ kind: 'object', value: { a: 1 } });
    expect(classifyResponse('object-or-null', facts(200, 'null'))).toEqual({ kind: 'null' });
    expect(classifyResponse('object-or-null', facts(200, '[]'))).toEqual({
      kind: 'violation',
      reason: 'a JSON object or null expected, got an array: []',
    });
  });

  it('deleted requires a boolean deleted field', () => {
    expect(classifyResponse('deleted', facts(200, '{"deleted":true}'))).toEqual({ kind: 'deleted', value: { deleted: true } });
    expect(classifyResponse('deleted', facts(200, '{"deleted":"yes"}'))).toEqual({
      kind: 'violation',
      reason: 'an object {"deleted": boolean} expected, got an object: {"deleted":"yes"}',
    });
    expect(classifyResponse('deleted', facts(200, 'true')).kind).toBe('violation');
  });

  it('204 with a body is a violation', () => {
    expect(classifyResponse('void', facts(204, 'hello'))).toEqual({
      kind: 'violation',
      reason: '204 must have an empty body, got 5 bytes: hello',
    });
  });

  it('204 where a value is expected is a violation', () => {
    expect(classifyResponse('object-or-null', facts(204))).toEqual({
      kind: 'violation',
      reason: '200 with a JSON object or null expected, got 204 No Content',
    });
  });

  it('200 with an empty body where a value is expected is a violation', () => {
    expect(classifyResponse('list', facts(200))).toEqual({
      kind: 'violation',
      reason: 'a bare JSON array expected, got 200 with an empty body',
    });
  });

  it('void method answering 200 with an empty body', () => {
    expect(classifyResponse('void', facts(200))).toEqual({ kind: 'violation', reason: '204 expected, got 200 with an empty body' });
  });

  it('other 2xx statuses are violations naming the status', () => {
    expect(classifyResponse('object', facts(201, '{}'))).toEqual({
      kind: 'violation',
      reason: '200 expected, got 201 Created with body {}',
    });
  });

  it('error field must be a string', () => {
    expect(classifyResponse('object', facts(500, '{"error":{"code":1}}')).kind).toBe('violation');
    expect(classifyResponse('void', facts(400, '{"error":""}'))).toEqual({ kind: 'error', status: 400, message: '' });
  });

  it('scalars are described', () => {
    expect(classifyResponse('object', facts(200, '"ok"'))).toEqual({ kind: 'violation', reason: 'a JSON object expected, got a string: "ok"' });
    expect(classifyResponse('list', facts(200, '42'))).toEqual({ kind: 'violation', reason: 'a bare JSON array expected, got a number: 42' });
  });

  it('a redirect without Location says so', () => {
    expect(classifyResponse('object', facts(307))).toEqual({
      kind: 'transport',
      failure: 'redirect',
      reason: 'redirect 307 Temporary Redirect without a Location header not followed: the protocol answers every call directly',
    });
  });

  it('invalid JSON quotes about 80 characters on one line', () => {
    const o = classifyResponse('object', facts(200, `<html>\n${'z'.repeat(300)}`));
    expect(o).toEqual({ kind: 'transport', failure: 'invalid-json', reason: `body is not JSON: <html> ${'z'.repeat(73)}…` });
  });
});

describe('classifyFailure', () => {
  const ctx = {
    method: 'add_message',
    url: 'http://h:1/add_message',
    origin: 'http://h:1',
    host: 'h',
    timeoutMs: 10_000,
    timedOut: false,
  };
  const err = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('maps error codes to failures', () => {
    expect(classifyFailure(err('ECONNREFUSED'), ctx).failure).toBe('refused');
    expect(classifyFailure(err('EAI_AGAIN'), ctx)).toEqual({ kind: 'transport', failure: 'dns', reason: 'cannot resolve host h (EAI_AGAIN)' });
    expect(classifyFailure(err('UND_ERR_SOCKET', 'other side closed'), ctx).failure).toBe('reset');
    expect(classifyFailure(err('UND_ERR_HEADERS_TIMEOUT'), ctx)).toEqual({
      kind: 'transport',
      failure: 'timeout',
      reason: 'add_message: no response within 10 s',
    });
    expect(classifyFailure(err('HPE_INVALID_CONSTANT', 'Expected HTTP/'), ctx)).toEqual({
      kind: 'transport',
      failure: 'other',
      reason: 'add_message: Expected HTTP/ (HPE_INVALID_CONSTANT)',
    });
  });

  it('finds codes inside AggregateError and cause', () => {
    const agg = new AggregateError([err('ECONNREFUSED'), err('ECONNREFUSED')], 'connect failed');
    expect(classifyFailure(agg, ctx).failure).toBe('refused');
    expect(classifyFailure(new Error('fetch failed', { cause: err('ENOTFOUND') }), ctx).failure).toBe('dns');
  });

  it('non-Error throwables are handled', () => {
    expect(classifyFailure('boom', ctx)).toEqual({ kind: 'transport', failure: 'other', reason: 'add_message: boom' });
    expect(classifyFailure(undefined, ctx).failure).toBe('other');
  });
});

describe('exchange display', () => {
  it('displayText cuts at 64 KiB with a byte count', () => {
    const buf = Buffer.alloc(70_000, 0x61);
    const t = displayText(buf, buf.toString());
    expect(t.endsWith(`…[truncated: ${70_000 - 65_536} more bytes]`)).toBe(true);
    const small = Buffer.from('abc');
    expect(displayText(small, 'abc')).toBe('abc');
  });

  it('formatExchange renders request, status and body; transport failures say no response', () => {
    const base: Exchange = {
      method: 'add_message',
      url: 'http://h:1/p/add_message',
      requestBody: { a: 1 },
      requestHeaders: { authorization: '***' },
      durationMs: 3.4,
      startedAt: new Date(0).toISOString(),
    };
    expect(formatExchange({ ...base, status: 200, contentType: 'application/json', responseText: '{}', responseBytes: 2 })).toBe(
      'POST /p/add_message {"a":1}\n  authorization: ***\n→ 200 application/json (2 bytes, 3 ms)\n{}',
    );
    expect(formatExchange({ ...base, transportError: 'connection refused at http://h:1' })).toBe(
      'POST /p/add_message {"a":1}\n  authorization: ***\n→ no response (connection refused at http://h:1; 3 ms)',
    );
  });
});

describe('answersLikeAbsent: a 404 is a missing method only when a method that does not exist gets the same answer', () => {
  const ex = (method: string, status: number, responseText: string): Exchange => ({
    method, url: `http://h/${method}`, requestBody: {}, requestHeaders: {}, status, responseText, durationMs: 1, startedAt: '2026-01-01T00:00:00.000Z',
  });
  it('the same answer once the method name and digits are set aside: absent', () => {
    expect(answersLikeAbsent(ex('get_entity_by_name', 404, '{"error":"unknown method: get_entity_by_name"}'), ex(ABSENT_METHOD, 404, `{"error":"unknown method: ${ABSENT_METHOD}"}`), 'get_entity_by_name')).toBe(true);
    expect(answersLikeAbsent(ex('get_entity', 404, '{"ts":1763900000,"path":"/get_entity"}'), ex(ABSENT_METHOD, 404, `{"ts":1763900042,"path":"/${ABSENT_METHOD}"}`), 'get_entity')).toBe(true);
  });
  it('another body or status: the method exists and answered "not found"', () => {
    expect(answersLikeAbsent(ex('get_entity_by_name', 404, '{"error":"not found"}'), ex(ABSENT_METHOD, 404, `{"error":"unknown method: ${ABSENT_METHOD}"}`), 'get_entity_by_name')).toBe(false);
    expect(answersLikeAbsent(ex('get_entity_by_name', 404, '{"error":"not found"}'), ex(ABSENT_METHOD, 405, '{"error":"not found"}'), 'get_entity_by_name')).toBe(false);
  });
});
