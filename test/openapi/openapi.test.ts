// `tck openapi`: the bridge protocol and the hosted REST interface as OpenAPI 3.1, checked by a
// real OpenAPI validator (@readme/openapi-parser), and generated from the tables so nothing is missed.
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { bridgeOpenApi } from '../../src/protocols/bridge/openapi.js';
import { hostedOpenApi } from '../../src/protocols/hosted/openapi.js';
import { DOCUMENT_ENDPOINTS } from '../../src/protocols/hosted/document.js';
import { METHODS } from '../../src/protocols/bridge/methods.js';
import { MODEL } from '../../src/protocols/bridge/model.js';

/** The validator dereferences in place: give it a copy. */
async function check(doc: Record<string, unknown>) {
  const result = await validate(structuredClone(doc) as never);
  return result.valid ? [] : compileErrors(result).split('\n');
}

type Doc = { openapi: string; paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };

describe('the bridge protocol as OpenAPI 3.1', () => {
  const doc = bridgeOpenApi() as unknown as Doc;

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(await check(doc as never)).toEqual([]);
  });

  it('has one POST per method of the table, and every model type as a component', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(METHODS).map((m) => `/${m}`).sort());
    for (const m of Object.keys(METHODS)) expect(Object.keys(doc.paths[`/${m}`]!)).toEqual(['post']);
    for (const name of Object.keys(MODEL)) expect(doc.components.schemas[name], name).toBeDefined();
  });

  it('answers by response kind: 204 for void, a bare array for lists, the object or null', () => {
    expect(Object.keys(doc.paths['/clear_all_data']!.post.responses)).toContain('204');
    expect(doc.paths['/search_messages']!.post.responses['200'].content['application/json'].schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Message' } });
    expect(doc.paths['/get_trace_with_steps']!.post.responses['200'].content['application/json'].schema.anyOf).toEqual([{ $ref: '#/components/schemas/ReasoningTrace' }, { type: 'null' }]);
    // Parameters from the zod schemas: required ones required, enums kept.
    const add = doc.components.schemas.add_message_params;
    expect(add.required).toEqual(['session_id', 'role', 'content']);
    expect(add.properties.role.enum).toEqual(['user', 'assistant', 'system']);
  });

  it('the validator is real: it rejects a broken document', async () => {
    const broken = structuredClone(doc) as any;
    broken.paths['/add_message'].post.responses = 'none';
    expect((await check(broken)).length).toBeGreaterThan(0);
  });
});

describe('the hosted REST interface as OpenAPI 3.1', () => {
  const doc = hostedOpenApi() as unknown as Doc;

  it('is a valid OpenAPI 3.1 document with every endpoint of the document tables', async () => {
    expect(await check(doc as never)).toEqual([]);
    for (const e of DOCUMENT_ENDPOINTS) expect(doc.paths[e.path]?.[e.method.toLowerCase()]?.operationId, `${e.method} ${e.path}`).toBe(e.operation);
    expect(doc.paths['/conversations/{id}/messages']!.get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
  });
});
