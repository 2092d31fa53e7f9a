// The hosted REST interface (hosted-rest-api.md) as an OpenAPI 3.1 document, built from the
// endpoint tables the hosted profile judges by (src/protocols/hosted/document.ts). The document
// fixes paths, methods, operations and credentials; where it is silent (bodies, error shapes) the
// schemas stay open and the description says so.
import { DISCOVERY, DOCUMENT_ENDPOINTS, TOKEN_OPERATIONS } from './document.js';
import { KIT_VERSION } from '../../util/kit.js';

type Json = Record<string, unknown>;
const anyJson = { description: 'JSON; the document does not fix its shape.', content: { 'application/json': { schema: {} } } };

export function hostedOpenApi(): Json {
  const paths: Record<string, Json> = {};
  for (const e of DOCUMENT_ENDPOINTS) {
    const params = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const op: Json = {
      operationId: e.operation,
      tags: [e.section],
      summary: `${e.operation}`,
      ...(params.length > 0 ? { parameters: params } : {}),
      ...(e.method === 'POST' || e.method === 'PUT' ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
      responses: {
        '2XX': anyJson,
        401: { description: 'Missing, expired or revoked credential.' },
        403: { description: 'The credential lacks the scope.' },
      },
      // The token endpoints carry the token they are given; every other one a Bearer credential.
      ...(TOKEN_OPERATIONS.has(e.operation) ? { security: [] } : {}),
    };
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  const discovery = (what: string) => ({ get: { operationId: what.replace(/\W+/g, '_'), tags: ['discovery'], summary: what, security: [], servers: [{ url: 'http://127.0.0.1:3002', description: 'The service origin.' }], responses: { 200: anyJson } } });
  paths[DISCOVERY.protectedResource] = discovery('protected resource metadata (RFC 9728)');
  paths[DISCOVERY.authorizationServer] = discovery('authorization server metadata (RFC 8414)');
  paths[DISCOVERY.jwks] = discovery('JSON Web Key Set');
  return {
    openapi: '3.1.0',
    info: {
      title: 'agent-memory hosted REST interface',
      version: '1',
      description: `The hosted REST interface the hosted profile of agent-memory-tck ${KIT_VERSION} checks (tck run --hosted), from the endpoint tables of hosted-rest-api.md. Paths are relative to the base URL …/v1; the discovery documents are at the service origin.`,
    },
    servers: [{ url: 'http://127.0.0.1:3002/v1', description: 'A hosted service (its /v1 base URL).' }],
    security: [{ bearer: [] }],
    tags: [...new Set(DOCUMENT_ENDPOINTS.map((e) => e.section)), 'discovery'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An API key (nams_…) or an OAuth access token, as a Bearer credential.' },
      },
    },
  };
}
