// The coverage matrix (docs/coverage.md), in the manner of category-partition testing: the cells
// are derived from the method tables (src/protocols/bridge/methods.ts, src/protocols/hosted/document.ts)
// and each parameter's type, crossed with value classes, prior histories, limit × filter, graph
// shapes × walks, credential × endpoint and answer framing. Whether a cell is covered is never
// written by hand: it is read from the requests the fixed scenarios sent to the embedded reference
// (a recording run) and from those a seeded `tck explore` sent, each value classified into its
// class. A cell neither covers must match a written reason (REASONS); a test fails otherwise.
import { METHODS, type MethodName } from '../protocols/bridge/index.js';
import { DOCUMENT_ENDPOINTS, TOKEN_OPERATIONS } from '../protocols/hosted/document.js';

/** One call of a trail: what was sent, how it was answered (the body parsed when it is JSON). */
export interface TrailCall {
  method: string;
  params: Record<string, unknown>;
  status?: number;
  body?: unknown;
}

/** The calls of one scenario, or of one explore sequence, in order. */
export interface Trail {
  source: string;
  calls: TrailCall[];
}

/** One hosted request: its operation, the credential it carried (in words), its URL, body and answer. */
export interface HostedCall {
  operation: string;
  credential?: string;
  /** GET, POST, PUT, DELETE (a read and its repetition are compared by method, URL and body). */
  httpMethod?: string;
  url: string;
  /** The JSON body as sent (none for GET and DELETE). */
  params?: Record<string, unknown>;
  status?: number;
  body?: unknown;
}
export interface HostedTrail {
  source: string;
  calls: HostedCall[];
}

type Dimension = 'value' | 'history' | 'limit-filter' | 'graph' | 'credential' | 'framing';
const DIMENSIONS: readonly Dimension[] = ['value', 'history', 'limit-filter', 'graph', 'credential', 'framing'];
type Profile = 'bronze-gold' | 'platinum' | 'hosted';
const PROFILES: readonly Profile[] = ['bronze-gold', 'platinum', 'hosted'];

interface Cell {
  /** dimension/method-or-operation/part/class: value/add_message/content/nfd. */
  id: string;
  dimension: Dimension;
  profile: Profile;
  /** The method (bridge) or operation (hosted) the cell is about. */
  subject: string;
  /** The row within the subject (a parameter, a write, a filter, a shape) and the column (a class). */
  row: string;
  column: string;
}

export interface CoveredCell extends Cell {
  /** Scenario ids whose requests fall in the cell (sorted). */
  fixed: string[];
  /** Explore sequences whose requests fall in the cell. */
  explore: number;
  /** Sequences of `tck explore --classes` (opt-in) whose requests fall in it, when the default ones did not. */
  classes: number;
  /** Why the cell is not covered, when neither covers it and a reason matches. */
  reason?: string;
  reasonKind?: Reason['kind'];
}

// ---------------------------------------------------------------------------------------------
// Parameters and their classes

type Kind = 'id' | 'string' | 'int' | 'number' | 'boolean' | 'enum' | 'object' | 'list' | 'any' | 'scopes';

/** Parameters that name an object the server handed out, and the kind they name. */
const ID_KIND: Record<string, string> = {
  message_id: 'message', entity_id: 'entity', source_id: 'entity', target_id: 'entity', trace_id: 'trace', step_id: 'step', conversation_id: 'conversation',
};
const ID_KIND_OF: Partial<Record<MethodName, Record<string, string>>> = { explain_step: { step_id: 'agentStep' } };

/** What creates each kind of object (the id of its answer). */
const CREATES: Partial<Record<string, string>> = {
  add_message: 'message', add_entity: 'entity', start_trace: 'trace', add_step: 'step', record_tool_call: 'toolCall',
  add_relationship: 'relationship', add_preference: 'preference', add_fact: 'fact', create_conversation: 'conversation', record_step: 'agentStep',
};

interface ZodLike { _zod: { def: { type: string; innerType?: ZodLike; out?: ZodLike; format?: string } } }

function kindOf(method: MethodName, param: string, schema: ZodLike): Kind {
  if (idKind(method, param) !== undefined) return 'id';
  let s = schema;
  for (let i = 0; i < 6; i++) {
    const def = s._zod.def;
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.out) s = def.out;
    else break;
  }
  const def = s._zod.def;
  switch (def.type) {
    case 'string': return 'string';
    case 'number': return def.format === 'safeint' ? 'int' : 'number';
    case 'boolean': return 'boolean';
    case 'enum': return 'enum';
    case 'record': return 'object';
    case 'array': return 'list';
    default: return 'any';
  }
}

const idKind = (method: MethodName, param: string): string | undefined => ID_KIND_OF[method]?.[param] ?? ID_KIND[param];

function enumValues(schema: ZodLike): string[] {
  let s = schema;
  for (let i = 0; i < 6 && s._zod.def.type !== 'enum'; i++) s = s._zod.def.innerType ?? s._zod.def.out ?? s;
  const entries = (s._zod.def as unknown as { entries?: Record<string, string> }).entries;
  return entries ? Object.values(entries) : [];
}

const PAGE_EDGES = new Set([10, 11, 20, 21, 50, 51, 100, 101]);
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The classes of each kind of parameter (an enum's members are added per parameter). */
const CLASSES: Record<Kind, readonly string[]> = {
  // unknown: well formed, never handed out; malformed: not a UUID; other-kind: an id of another kind of object.
  id: ['unknown', 'malformed', 'other-kind'],
  // Storage engines treat these differently: collations, normalisation, control-character filters, escaping, length caps.
  // nul apart from the other controls (C strings, PostgreSQL text refuse it); nfkc: compatibility characters an NFKC
  // normaliser or a search analyser folds (ﬁ, full-width Ａ, ①); over-10k and over-64k: past common column sizes
  // (VARCHAR(10000), MySQL TEXT and 16-bit lengths: 65 535 bytes of UTF-8).
  string: ['empty', 'long', 'over-10k', 'over-64k', 'nul', 'control', 'nfc', 'nfd', 'nfkc', 'non-latin', 'astral', 'edge-space', 'escapes'],
  int: ['zero', 'one', 'negative', 'page-edge', 'beyond-int32', 'fraction'],
  // float32-lossy: a value a single-precision store changes; many-decimals: one a fixed-point store changes.
  number: ['zero', 'negative', 'fraction', 'above-one', 'float32-lossy', 'many-decimals'],
  boolean: ['true', 'false'],
  enum: ['unknown', 'case-variant'],
  object: ['empty', 'nested', 'falsy-values', 'float32-lossy', 'beyond-int32', 'non-latin-key', 'array-value'],
  list: ['empty', 'one', 'at-max', 'over-max'],
  any: ['object', 'string', 'number', 'falsy'],
  // A list of enum members (an API key's scopes): the members are added per field.
  scopes: ['empty', 'unknown', 'case-variant'],
};

/** The class of a string (several may hold). */
function stringClasses(s: string): string[] {
  const out: string[] = [];
  if (s === '') out.push('empty');
  if (s.length >= 1000) out.push('long');
  if (s.length > 10_000) out.push('over-10k');
  if (s.length > 16_383 && Buffer.byteLength(s, 'utf8') > 65_535) out.push('over-64k');
  if (s.includes('\u0000')) out.push('nul');
  // eslint-disable-next-line no-control-regex
  if (/[\u0001-\u001f\u007f-\u009f]/.test(s)) out.push('control');
  if (/[\u0080-\u{10ffff}]/u.test(s) && s.normalize('NFD') !== s) out.push('nfc');
  if (s.normalize('NFC') !== s) out.push('nfd');
  if (/[\u00a0-\u{10ffff}]/u.test(s) && s.normalize('NFKC') !== s.normalize('NFC')) out.push('nfkc');
  if (/(?=\p{L})[^\p{Script=Latin}]/u.test(s)) out.push('non-latin');
  if (/[\u{10000}-\u{10ffff}]/u.test(s)) out.push('astral');
  if (s !== '' && /^\s|\s$/.test(s)) out.push('edge-space');
  if (/['"\\<>%&]/.test(s)) out.push('escapes');
  return out;
}

const isFloat32Lossy = (n: number) => Number.isFinite(n) && Math.fround(n) !== n;
/** More than four decimals: a DECIMAL(…, 2..4) column changes it. */
const hasManyDecimals = (n: number) => Number.isFinite(n) && !Number.isInteger(n * 10_000);
const beyondInt32 = (n: number) => Number.isInteger(n) && (n > 2 ** 31 - 1 || n < -(2 ** 31));

function objectClasses(value: unknown): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const out = new Set<string>();
  if (Object.keys(value).length === 0) out.add('empty');
  const walk = (v: unknown, depth: number) => {
    if (Array.isArray(v)) {
      out.add('array-value');
      for (const x of v) walk(x, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      if (depth >= 1) out.add('nested');
      for (const [k, x] of Object.entries(v)) {
        if (/[\u0080-\u{10ffff}]/u.test(k)) out.add('non-latin-key');
        walk(x, depth + 1);
      }
    } else if (v === false || v === 0 || v === '' || v === null) out.add('falsy-values');
    if (typeof v === 'number') {
      if (isFloat32Lossy(v)) out.add('float32-lossy');
      if (beyondInt32(v)) out.add('beyond-int32');
    }
  };
  walk(value, 0);
  return [...out];
}

function valueClasses(kind: Kind, value: unknown, members: readonly string[], idOf: (v: string) => { known: boolean; sameKind: boolean }): string[] {
  switch (kind) {
    case 'id': {
      if (typeof value !== 'string') return ['malformed'];
      const { known, sameKind } = idOf(value);
      if (known) return sameKind ? [] : ['other-kind'];
      return UUID.test(value) ? ['unknown'] : ['malformed'];
    }
    case 'string':
      return typeof value === 'string' ? stringClasses(value) : [];
    case 'int':
      if (typeof value !== 'number') return [];
      if (!Number.isInteger(value)) return ['fraction'];
      return [value === 0 ? 'zero' : value === 1 ? 'one' : value < 0 ? 'negative' : '', PAGE_EDGES.has(value) ? 'page-edge' : '', beyondInt32(value) ? 'beyond-int32' : ''].filter((c) => c !== '');
    case 'number':
      if (typeof value !== 'number') return [];
      return [
        value === 0 ? 'zero' : '', value < 0 ? 'negative' : '', !Number.isInteger(value) ? 'fraction' : '', value > 1 ? 'above-one' : '',
        isFloat32Lossy(value) ? 'float32-lossy' : '', hasManyDecimals(value) ? 'many-decimals' : '',
      ].filter((c) => c !== '');
    case 'boolean':
      return typeof value === 'boolean' ? [String(value)] : [];
    case 'enum':
      if (typeof value !== 'string') return ['unknown'];
      if (members.includes(value)) return [`member:${value}`];
      return members.some((m) => m.toLowerCase() === value.toLowerCase()) ? ['case-variant'] : ['unknown'];
    case 'object':
      return objectClasses(value);
    case 'list':
      if (!Array.isArray(value)) return [];
      return [value.length === 0 ? 'empty' : value.length === 1 ? 'one' : value.length === 100 ? 'at-max' : value.length > 100 ? 'over-max' : ''].filter((c) => c !== '');
    case 'any':
      if (value === undefined) return [];
      if (value === null || value === false || value === 0 || value === '') return ['falsy'];
      return [typeof value === 'object' ? 'object' : typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : ''].filter((c) => c !== '');
    case 'scopes':
      if (!Array.isArray(value)) return ['unknown'];
      if (value.length === 0) return ['empty'];
      return [...new Set(value.flatMap((v) => valueClasses('enum', v, members, idOf)))];
  }
}

const profileOf = (method: MethodName): Profile => (METHODS[method].tier === 'platinum' ? 'platinum' : 'bronze-gold');
const DRAWN = (Object.keys(METHODS) as MethodName[]).filter((m) => METHODS[m].tier !== 'lifecycle');

interface ParamInfo { method: MethodName; param: string; kind: Kind; members: string[] }
function params(): ParamInfo[] {
  return DRAWN.flatMap((method) => Object.entries(METHODS[method].params.shape as Record<string, ZodLike>).map(([param, schema]) => {
    const kind = kindOf(method, param, schema);
    return { method, param, kind, members: kind === 'enum' ? enumValues(schema) : [] };
  }));
}

// ---------------------------------------------------------------------------------------------
// Histories: which writes change which reads (read → write → read shows a stale cache)

/**
 * For each read, the writes that change its answer. Bronze–Gold: the protocol's sentences on each
 * read (SPEC-1.1.4 a deleted message is gone, SPEC-2.6.x clear_session, SPEC-4.2.x merges …);
 * Platinum: Volume 5 and the hosted document's operations on the same resources.
 */
const CHANGES: Partial<Record<MethodName, readonly MethodName[]>> = {
  get_conversation: ['add_message', 'delete_message', 'clear_session', 'bulk_add_messages'],
  search_messages: ['add_message', 'delete_message', 'clear_session'],
  list_sessions: ['add_message', 'delete_message', 'clear_session'],
  get_entity_by_name: ['add_entity', 'merge_duplicate_entities', 'update_entity', 'delete_entity', 'merge_entities'],
  search_entities: ['add_entity', 'merge_duplicate_entities', 'update_entity', 'delete_entity'],
  get_related_entities: ['add_relationship', 'merge_duplicate_entities', 'delete_entity', 'merge_entities'],
  search_preferences: ['add_preference'],
  get_trace_with_steps: ['add_step', 'record_tool_call', 'complete_trace'],
  list_traces: ['start_trace', 'complete_trace'],
  get_tool_stats: ['record_tool_call'],
  get_similar_traces: ['start_trace', 'complete_trace'],
  list_conversations: ['create_conversation', 'delete_conversation'],
  get_conversation_metadata: ['delete_conversation'],
  get_context: ['bulk_add_messages', 'delete_conversation'],
  list_entities: ['add_entity', 'update_entity', 'delete_entity', 'merge_entities'],
  get_entity: ['update_entity', 'delete_entity', 'merge_entities', 'set_entity_feedback'],
  get_entity_graph: ['add_entity', 'add_relationship', 'delete_entity', 'merge_entities'],
  list_steps: ['record_step'],
  get_trace_by_conversation: ['record_step', 'record_tool_call'],
  get_entity_provenance: ['record_step'],
  cypher_query: ['add_entity', 'add_relationship', 'delete_entity'],
};

/** Reads where two objects share the field the read looks them up by (an implementation may pick "the first"). */
const NAMESAKES: Partial<Record<MethodName, { by: MethodName; field: string; read: string }>> = {
  get_entity_by_name: { by: 'add_entity', field: 'name', read: 'name' },
  search_entities: { by: 'add_entity', field: 'name', read: 'query' },
  search_preferences: { by: 'add_preference', field: 'preference', read: 'query' },
  get_similar_traces: { by: 'start_trace', field: 'task', read: 'task' },
};
const MERGES: readonly MethodName[] = ['merge_duplicate_entities', 'merge_entities'];

// ---------------------------------------------------------------------------------------------
// Limit beside a filter

/** Methods with a limit and a parameter that narrows what the limit counts. */
const LIMIT_FILTERS: Partial<Record<MethodName, readonly string[]>> = {
  search_messages: ['session_id', 'threshold'],
  search_preferences: ['category'],
  list_traces: ['session_id'],
  get_similar_traces: ['success_only'],
  list_entities: ['type'],
};

// ---------------------------------------------------------------------------------------------
// Graph shapes × walks

const SHAPES = ['chain', 'cycle', 'self-loop', 'diamond', 'fan-out', 'parallel-edges'] as const;
const WALKS = ['get_related_entities depth=1', 'get_related_entities depth>=2', 'get_related_entities depth omitted', 'get_related_entities relationship_type', 'get_entity_graph', 'cypher_query'] as const;

function shapesOf(edges: readonly [string, string][], start?: string): Set<string> {
  const out = new Set<string>();
  const adj = new Map<string, string[]>();
  const und = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    adj.set(a, [...(adj.get(a) ?? []), b]);
    und.set(a, (und.get(a) ?? new Set()).add(b));
    und.set(b, (und.get(b) ?? new Set()).add(a));
  }
  // The component of the start (every node when the walk has none).
  let nodes = new Set([...und.keys()]);
  if (start !== undefined) {
    nodes = new Set();
    const todo = [start];
    while (todo.length > 0) {
      const n = todo.pop()!;
      if (nodes.has(n)) continue;
      nodes.add(n);
      todo.push(...(und.get(n) ?? []));
    }
  }
  const inside = edges.filter(([a]) => nodes.has(a));
  if (inside.some(([a, b]) => a === b)) out.add('self-loop');
  const seen = new Set<string>();
  for (const [a, b] of inside) {
    const key = `${a}>${b}`;
    if (seen.has(key)) out.add('parallel-edges');
    seen.add(key);
  }
  const outs = (n: string) => (adj.get(n) ?? []).filter((m) => m !== n);
  for (const n of nodes) {
    const o = new Set(outs(n));
    if (o.size >= 2) out.add('fan-out');
    for (const m of o) if (outs(m).some((k) => k !== n)) out.add('chain');
    // diamond: two distinct children reaching one grandchild
    const reached = new Map<string, number>();
    for (const m of o) for (const k of new Set(outs(m))) if (k !== n) reached.set(k, (reached.get(k) ?? 0) + 1);
    if ([...reached.values()].some((c) => c >= 2)) out.add('diamond');
  }
  // cycle of length >= 2: a node reaching itself
  for (const n of nodes) {
    const todo = outs(n);
    const visited = new Set<string>();
    while (todo.length > 0) {
      const m = todo.pop()!;
      if (m === n) {
        out.add('cycle');
        break;
      }
      if (visited.has(m)) continue;
      visited.add(m);
      todo.push(...outs(m));
    }
    if (out.has('cycle')) break;
  }
  return out;
}

function walkOf(call: TrailCall): string[] {
  if (call.method === 'get_entity_graph') return ['get_entity_graph'];
  if (call.method === 'cypher_query') return /\]-?>|<-?\[|-\[/.test(String(call.params.cypher ?? '')) ? ['cypher_query'] : [];
  if (call.method !== 'get_related_entities') return [];
  const depth = call.params.depth;
  const out = [typeof depth !== 'number' ? 'get_related_entities depth omitted' : depth >= 2 ? 'get_related_entities depth>=2' : 'get_related_entities depth=1'];
  if (call.params.relationship_type !== undefined) out.push('get_related_entities relationship_type');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hosted: credential × endpoint × owner

/**
 * Every kind of credential the document names or its rules imply (Authentication): a static API key
 * (the run's, or one made by create_api_key), an access token from the exchange (rule 5) and one from
 * a refresh (rule 6, a rotation), the scheme written in another case (RFC 9110 §11.1), keys narrowed to
 * one scope, a key of another workspace (rule 4), a revoked key (rule 3), a key past its 90 days
 * (Limits), an access token past its exp, no credential, another scheme, a Bearer value that is not a
 * token68 (RFC 6750 §2.1), a made-up value, a forged JWT, and two tokens that are not access tokens.
 */
const CREDENTIALS = [
  'valid-key', 'access-token', 'refreshed-token', 'scheme-case', 'read-only-key', 'write-only-key', 'other-workspace', 'revoked-key',
  'expired-key', 'expired', 'none', 'wrong-scheme', 'malformed', 'made-up', 'forged-jwt', 'refresh-as-bearer', 'idp-as-bearer',
] as const;

/** The credential class of an exchange's credential, from its words (never its value). */
function credentialClass(label: string | undefined): string | undefined {
  if (label === undefined) return undefined;
  const rules: [RegExp, string][] = [
    [/^no credential$/, 'none'],
    [/^a revoked key/, 'revoked-key'],
    [/scheme written "bearer"/i, 'scheme-case'],
    [/read-only/, 'read-only-key'],
    [/write-only/, 'write-only-key'],
    [/another workspace|created for workspace/, 'other-workspace'],
    [/API key past its 90 days/, 'expired-key'],
    [/past its exp/, 'expired'],
    [/refresh token .*as a Bearer/, 'refresh-as-bearer'],
    [/token of the identity provider/, 'idp-as-bearer'],
    [/scheme|Basic/, 'wrong-scheme'],
    [/malformed|not a token68/, 'malformed'],
    [/made-up (Bearer|key)/, 'made-up'],
    [/JWT/, 'forged-jwt'],
    [/access token issued by call|run's access token/, 'access-token'],
    [/run's API key|API key created by call|run's credential/, 'valid-key'],
  ];
  return rules.find(([re]) => re.test(label))?.[1];
}

/** Credentials a service serves (their workspace is the one whose resources they reach). */
const SERVED = new Set(['valid-key', 'access-token', 'refreshed-token', 'scheme-case', 'read-only-key', 'write-only-key', 'other-workspace']);

const HOSTED_OPERATIONS = DOCUMENT_ENDPOINTS.map((e) => e.operation);
const HOSTED_PATH = new Map(DOCUMENT_ENDPOINTS.map((e) => [e.operation, e.path.split('/').filter((s) => s !== '')]));

/** Operations that name one resource (a path identifier, or the conversation or step a record goes under): the owner rows. */
const OWNED = HOSTED_OPERATIONS.filter((op) => HOSTED_PATH.get(op)!.some((s) => s.startsWith('{')) || ['record_step', 'record_tool_call', 'list_steps'].includes(op));
/** Body and query fields that name a resource (the established clients' spellings and the bridge's). */
const ID_FIELDS = ['conversationId', 'conversation_id', 'stepId', 'step_id', 'targetId', 'target_id', 'entityId', 'entity_id'];

// ---------------------------------------------------------------------------------------------
// Hosted: value, history, limit × filter

/** A hosted field: where its values are (body, query, or each item of a body list) and its kind. */
interface HostedField {
  row: string;
  kind: Kind;
  /** Its spellings: the document's camelCase first, then the readings scenarios also send. */
  names: readonly string[];
  at: 'body' | 'query' | 'items';
  /** For items: the list field holding them. */
  list?: string;
  members?: readonly string[];
  /** For ids: the kind of object named. */
  refers?: string;
}
const bodyField = (row: string, kind: Kind, names: readonly string[] = [row], extra: Partial<HostedField> = {}): HostedField => ({ row, kind, names, at: 'body', ...extra });
const queryField = (row: string, kind: Kind, names: readonly string[]): HostedField => ({ row: `?${row}`, kind, names, at: 'query' });
const ROLES = ['user', 'assistant', 'system'];

/**
 * The fields of each hosted operation the matrix classifies: the document's tables (Resources and
 * their fields; Payload shapes) and, where it shows none ("body fields … not shown"), the fields the
 * established clients and the scenarios send (entity name, type, description; feedback; tool calls;
 * search query and limit; list limit and type; the query's text).
 */
const HOSTED_FIELDS: Readonly<Record<string, readonly HostedField[]>> = {
  list_conversations: [queryField('limit', 'int', ['limit'])],
  create_conversation: [bodyField('userId', 'string')],
  get_conversation: [queryField('limit', 'int', ['limit'])],
  add_message: [bodyField('role', 'enum', ['role'], { members: ROLES }), bodyField('content', 'string')],
  bulk_add_messages: [
    bodyField('messages', 'list'),
    { row: 'messages[].role', kind: 'enum', names: ['role'], at: 'items', list: 'messages', members: ROLES },
    { row: 'messages[].content', kind: 'string', names: ['content'], at: 'items', list: 'messages' },
  ],
  search_messages: [bodyField('query', 'string'), bodyField('limit', 'int')],
  list_entities: [queryField('limit', 'int', ['limit']), queryField('type', 'string', ['type', 'entityType'])],
  add_entity: [bodyField('name', 'string'), bodyField('type', 'string', ['type', 'entityType']), bodyField('description', 'string')],
  update_entity: [bodyField('name', 'string'), bodyField('description', 'string')],
  set_entity_feedback: [bodyField('userScore', 'number'), bodyField('confirmed', 'boolean')],
  search_entities: [bodyField('query', 'string'), bodyField('limit', 'int')],
  record_step: [bodyField('conversationId', 'id', ['conversationId'], { refers: 'conversation' }), bodyField('reasoning', 'string'), bodyField('actionTaken', 'string'), bodyField('result', 'string')],
  record_tool_call: [bodyField('stepId', 'id', ['stepId'], { refers: 'step' }), bodyField('toolName', 'string'), bodyField('arguments', 'object'), bodyField('result', 'any')],
  cypher_query: [bodyField('cypher', 'string', ['cypher', 'query'])],
  create_api_key: [bodyField('label', 'string'), bodyField('scopes', 'scopes', ['scopes'], { members: ['read', 'write'] }), bodyField('workspaceId', 'string')],
};

/** What each hosted create hands out (the id of its 2xx answer). */
const HOSTED_CREATES: Readonly<Record<string, string>> = {
  create_conversation: 'conversation', add_message: 'message', add_entity: 'entity', record_step: 'step', record_tool_call: 'toolCall', create_api_key: 'key',
};

/**
 * Each hosted read and the writes that change its answer, with why: the document's operations
 * (Endpoints; What the service does) read with the sentences of SPEC.md Volume 5 and the bridge
 * equivalents of CHANGES. Covered by read → write → read with the identical read (method, URL, body).
 */
const HOSTED_CHANGES: Readonly<Record<string, readonly (readonly [write: string, why: string])[]>> = {
  list_conversations: [
    ['create_conversation', 'a new conversation is one more the key may see (SPEC-V5-5.1.2)'],
    ['delete_conversation', 'a deleted conversation is no longer listed (SPEC-V5-5.1.2, SPEC-V5-5.1.3)'],
  ],
  get_conversation_metadata: [['delete_conversation', 'the conversation is gone (bridge: get_conversation_metadata after delete_conversation)']],
  get_conversation: [
    ['add_message', 'the message joins the conversation (the service stores it: HOSTED-READBACK)'],
    ['bulk_add_messages', 'the messages join it, in the order sent (SPEC-V5-5.1.4)'],
    ['delete_conversation', 'the messages go with their conversation'],
  ],
  search_messages: [
    ['add_message', 'a new message is one more a search may find'],
    ['bulk_add_messages', 'so are messages added in bulk'],
    ['delete_conversation', "a deleted conversation's messages are found no more"],
  ],
  get_context: [
    ['add_message', 'recent_messages holds it (SPEC-V5-5.2.1)'],
    ['bulk_add_messages', 'recent_messages holds them (SPEC-V5-5.2.1)'],
    ['delete_conversation', 'the conversation has no context any more'],
  ],
  get_observations: [['add_message', 'observations are made of the messages (What the service does, item 1; they may come later, SPEC-V5-5.2.2)']],
  get_reflections: [['add_message', 'reflections are made of the messages (item 1; SPEC-V5-5.2.2)']],
  list_entities: [
    ['add_entity', 'a new entity is listed'],
    ['update_entity', 'its name, type or description changes'],
    ['delete_entity', 'a deleted entity is not listed'],
    ['merge_entities', 'two entities become one (SPEC-V5-5.3.3)'],
  ],
  get_entity: [
    ['update_entity', 'its fields change'],
    ['set_entity_feedback', 'its feedback is kept (SPEC-V5-5.3.1)'],
    ['delete_entity', 'it is gone'],
    ['merge_entities', 'a merged source is gone or points at its target (SPEC-V5-5.3.3)'],
  ],
  get_entity_history: [
    ['add_message', 'a message naming the entity is a mention (SPEC-V5-5.3.2; entities are extracted from message content, What the service does, item 2)'],
    ['merge_entities', "the target's history holds the source's mentions (SPEC-V5-5.3.2)"],
  ],
  get_entity_graph: [
    ['add_entity', 'a node more (SPEC-V5-5.3.4)'],
    ['update_entity', "the node's name changes"],
    ['delete_entity', 'a node less'],
    ['merge_entities', 'two nodes become one, with a SAME_AS edge (SPEC-V5-5.3.3)'],
  ],
  search_entities: [
    ['add_entity', 'a new entity may be found'],
    ['update_entity', 'a renamed entity is found by its new name'],
    ['delete_entity', 'a deleted entity is found no more'],
    ['merge_entities', 'a merged source is found no more as itself'],
  ],
  list_steps: [
    ['record_step', 'the step is kept under its conversation (SPEC-V5-5.4.1)'],
    ['delete_conversation', "the conversation's steps go with it"],
  ],
  explain_step: [['record_tool_call', "the step's tool calls are part of its explanation (SPEC-V5-5.4.2)"]],
  get_trace_by_conversation: [
    ['record_step', 'every step of the conversation (SPEC-V5-5.4.3)'],
    ['record_tool_call', 'every tool call of the conversation (SPEC-V5-5.4.3)'],
    ['delete_conversation', 'the trace goes with the conversation'],
  ],
  get_entity_provenance: [['record_step', 'a step that led to the entity joins its provenance (SPEC-V5-5.4.4)']],
  cypher_query: [
    ['add_entity', 'a query over the entities sees the new one (SPEC-V5-5.5.1a)'],
    ['update_entity', 'and the changed one'],
    ['delete_entity', 'and not the deleted one'],
    ['merge_entities', 'and the merge (SPEC-V5-5.3.3)'],
  ],
  list_api_keys: [
    ['create_api_key', 'the new key is one of its workspace (Payload shapes: list of keys of that workspace)'],
    ['revoke_api_key', 'a revoked key is no longer active (rule 3: immediate)'],
  ],
  reveal_api_key: [['revoke_api_key', 'a revoked key is revealed no more (rule 3)']],
};

/** Reads that name one resource, after the delete or merge that removed or changed it. */
const AFTER: Readonly<Record<string, { row: string; reads: readonly string[] }>> = {
  delete_conversation: { row: 'after delete', reads: ['get_conversation_metadata', 'get_conversation', 'search_messages', 'get_context', 'get_observations', 'get_reflections', 'list_steps', 'get_trace_by_conversation'] },
  delete_entity: { row: 'after delete', reads: ['get_entity', 'get_entity_history', 'get_entity_provenance'] },
  revoke_api_key: { row: 'after delete', reads: ['reveal_api_key'] },
};
const AFTER_MERGE_READS = ['get_entity', 'get_entity_history', 'get_entity_provenance'] as const;

/** Hosted limits beside what narrows or orders what they count; bulk_add_messages around its 100 (SPEC-V5-5.1.4). */
const HOSTED_LIMIT_FILTERS: Readonly<Record<string, readonly { row: string; names: readonly string[] }[]>> = {
  list_conversations: [{ row: 'order', names: ['order', 'sort', 'orderBy', 'sortBy', 'direction'] }],
  list_entities: [{ row: 'type', names: ['type', 'entityType'] }],
  search_messages: [{ row: 'threshold', names: ['threshold', 'minScore'] }],
  search_entities: [{ row: 'threshold', names: ['threshold', 'minScore'] }],
};
const BULK_COUNTS = [99, 100, 101] as const;
/** A limit that cuts the messages (as many come back as asked), and one above their number (fewer come back). */
const LIMIT_CUTS = ['limit reached', 'limit above the count'] as const;
const MERGE_ENDS = ['merge_entities source', 'merge_entities target'] as const;
const OWNERS = ['own workspace', 'another workspace'] as const;

const hosted = (op: string) => `hosted:${op}`;

// ---------------------------------------------------------------------------------------------
// The cells

/** Every cell of the matrix, derived from the tables. */
export function matrixCells(): Cell[] {
  const cells: Cell[] = [];
  const add = (dimension: Dimension, profile: Profile, subject: string, row: string, column: string) =>
    cells.push({ id: `${dimension}/${subject}/${row}/${column}`, dimension, profile, subject, row, column });
  for (const p of params()) {
    const classes = p.kind === 'enum' ? [...p.members.map((m) => `member:${m}`), ...CLASSES.enum] : CLASSES[p.kind];
    for (const c of classes) add('value', profileOf(p.method), p.method, p.param, c);
  }
  for (const [read, writes] of Object.entries(CHANGES) as [MethodName, MethodName[]][]) {
    for (const w of writes) add('history', METHODS[read].tier === 'platinum' || METHODS[w].tier === 'platinum' ? 'platinum' : 'bronze-gold', read, 'read → write → read', w);
  }
  for (const read of Object.keys(NAMESAKES) as MethodName[]) add('history', profileOf(read), read, 'two of one kind', 'namesakes');
  for (const m of MERGES) add('history', profileOf(m), m, 'chain', 'A → B → C');
  for (const [m, filters] of Object.entries(LIMIT_FILTERS) as [MethodName, string[]][]) for (const f of filters) add('limit-filter', profileOf(m), m, f, 'limit + filter');
  for (const shape of SHAPES) {
    for (const walk of WALKS) add('graph', walk.startsWith('get_related') ? 'bronze-gold' : 'platinum', walk.split(' ')[0]!, shape, walk);
  }
  for (const op of HOSTED_OPERATIONS) for (const c of CREDENTIALS) add('credential', 'hosted', op, 'credential', c);
  for (const op of OWNED) for (const o of OWNERS) add('credential', 'hosted', op, 'owner', o);
  for (const [op, fields] of Object.entries(HOSTED_FIELDS)) {
    for (const f of fields) {
      const classes = f.members !== undefined ? [...f.members.map((m) => `member:${m}`), ...CLASSES[f.kind]] : CLASSES[f.kind];
      for (const c of classes) add('value', 'hosted', hosted(op), f.row, c);
    }
  }
  for (const [read, writes] of Object.entries(HOSTED_CHANGES)) for (const [w] of writes) add('history', 'hosted', hosted(read), 'read → write → read', w);
  for (const [removal, a] of Object.entries(AFTER)) for (const r of a.reads) add('history', 'hosted', hosted(r), a.row, removal);
  for (const r of AFTER_MERGE_READS) for (const end of MERGE_ENDS) add('history', 'hosted', hosted(r), 'after merge', end);
  for (const [op, filters] of Object.entries(HOSTED_LIMIT_FILTERS)) for (const f of filters) add('limit-filter', 'hosted', hosted(op), f.row, 'limit + filter');
  for (const c of LIMIT_CUTS) add('limit-filter', 'hosted', hosted('get_conversation'), 'limit', c);
  for (const n of BULK_COUNTS) add('limit-filter', 'hosted', hosted('bulk_add_messages'), 'messages', `count ${n}`);
  for (const m of DRAWN) for (const c of ['success', 'error']) add('framing', profileOf(m), m, 'answer', c);
  for (const op of HOSTED_OPERATIONS) for (const c of ['2xx', '4xx']) add('framing', 'hosted', op, 'answer', c);
  return cells;
}

// ---------------------------------------------------------------------------------------------
// What a trail covers

const ok = (c: TrailCall | HostedCall) => c.status !== undefined && c.status >= 200 && c.status < 300;

/** The ids of the cells a bridge trail's calls fall in. */
export function trailCells(trail: Trail): Set<string> {
  const out = new Set<string>();
  const info = new Map(params().map((p) => [`${p.method}.${p.param}`, p]));
  // ids handed out so far, and their kind
  const issued = new Map<string, string>();
  const learn = (kind: string, body: unknown) => {
    for (const item of Array.isArray(body) ? body : [body]) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id === 'string') issued.set(id.toLowerCase(), kind);
    }
  };
  const reads = new Map<string, number>(); // read method -> index of its first successful call
  const writesAfter = new Map<string, Set<string>>(); // read -> writes seen since its first read
  const created: Record<string, Map<string, number>> = {}; // namesakes: method -> field value -> count
  const merges: { source: string; target: string }[] = [];
  const edges: [string, string][] = [];
  for (const call of trail.calls) {
    const method = call.method as MethodName;
    if (!(method in METHODS)) continue;
    if (call.status !== undefined) out.add(`framing/${method}/answer/${ok(call) ? 'success' : 'error'}`);
    for (const [param, value] of Object.entries(call.params)) {
      const p = info.get(`${method}.${param}`);
      if (p === undefined || call.status === undefined) continue;
      const idOf = (v: string) => {
        const k = issued.get(v.toLowerCase());
        const want = idKind(method, param);
        // A conversation's id is also a session id (a message's conversation): a string key, not another kind.
        return { known: k !== undefined, sameKind: k === want || (want === 'step' && k === 'agentStep') || (want === 'conversation' && k === 'message') };
      };
      for (const c of valueClasses(p.kind, value, p.members, idOf)) out.add(`value/${method}/${param}/${c}`);
    }
    if (!ok(call)) continue;
    // histories
    const changes = CHANGES[method];
    if (changes !== undefined) {
      for (const w of writesAfter.get(method) ?? []) out.add(`history/${method}/read → write → read/${w}`);
      if (!reads.has(method)) reads.set(method, 0);
      writesAfter.set(method, new Set());
    }
    for (const [read, seen] of writesAfter) if (read !== method && CHANGES[read as MethodName]?.includes(method)) seen.add(method);
    const namesake = NAMESAKES[method];
    if (namesake && (created[namesake.by]?.get(String(call.params[namesake.read])) ?? 0) >= 2) out.add(`history/${method}/two of one kind/namesakes`);
    for (const n of Object.values(NAMESAKES)) {
      if (n.by !== method) continue;
      const m = (created[method] ??= new Map());
      const key = String(call.params[n.field]);
      m.set(key, (m.get(key) ?? 0) + 1);
    }
    if (MERGES.includes(method)) {
      const source = String(call.params.source_id);
      const target = String(call.params.target_id);
      if (merges.some((m) => m.target === source && m.source !== target)) out.add(`history/${method}/chain/A → B → C`);
      merges.push({ source, target });
    }
    // graph walks, on the relationships written before them
    const walks = walkOf(call);
    if (walks.length > 0) {
      const start = typeof call.params.entity_id === 'string' ? call.params.entity_id : undefined;
      for (const shape of shapesOf(edges, start)) for (const walk of walks) out.add(`graph/${walk.split(' ')[0]}/${shape}/${walk}`);
    }
    if (method === 'add_relationship') edges.push([String(call.params.source_id), String(call.params.target_id)]);
    // limit × filter
    const filters = LIMIT_FILTERS[method];
    if (filters && typeof call.params.limit === 'number' && call.params.limit >= 1) {
      for (const f of filters) if (call.params[f] !== undefined) out.add(`limit-filter/${method}/${f}/limit + filter`);
    }
    const kind = CREATES[method];
    if (kind !== undefined) learn(kind, call.body);
    if (method === 'bulk_add_messages') learn('message', call.body);
  }
  return out;
}

/** The items of a list answer: the array itself, or the first array member of an object. */
function itemsOf(body: unknown): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (body !== null && typeof body === 'object') for (const v of Object.values(body)) if (Array.isArray(v)) return v;
  return undefined;
}

const decoded = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A query value as the kind of its field reads it (a number for an int or number field). */
const fromQuery = (kind: Kind, v: string): unknown => ((kind === 'int' || kind === 'number') && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : v);

/** The values a request gives a field. */
function fieldValues(f: HostedField, body: Record<string, unknown>, query: URLSearchParams): unknown[] {
  if (f.at === 'query') return f.names.flatMap((n) => query.getAll(n).map((v) => fromQuery(f.kind, v)));
  if (f.at === 'items') {
    const list = body[f.list!];
    return Array.isArray(list) ? list.flatMap((item) => f.names.map((n) => (item as Record<string, unknown> | null)?.[n]).filter((v) => v !== undefined)) : [];
  }
  return f.names.map((n) => body[n]).filter((v) => v !== undefined);
}

/** The resource ids a request names: its path identifiers, then the id fields of its query and body. */
function namedIds(op: string, url: URL, body: Record<string, unknown>): { path: string[]; fields: Map<string, string> } {
  const pattern = HOSTED_PATH.get(op) ?? [];
  const segments = url.pathname.split('/').filter((s) => s !== '');
  const tail = segments.slice(segments.length - pattern.length);
  const path = pattern.flatMap((p, i) => (p.startsWith('{') && tail[i] !== undefined ? [decoded(tail[i])] : []));
  const fields = new Map<string, string>();
  for (const f of ID_FIELDS) {
    const v = url.searchParams.get(f) ?? body[f];
    if (typeof v === 'string') fields.set(f, v);
  }
  return { path, fields };
}

/**
 * The ids of the cells a hosted trail's requests fall in. The credential's workspace is read from
 * its words: a key "created for workspace W" is W's, "the API key of another workspace" another's,
 * a key or token made by call N is of the workspace of call N's credential (an exchanged or refreshed
 * token: the run's), every other served credential the run's. A resource is of the workspace whose
 * credential created it (an API key: of the new workspace it was created for, when the trail names it so).
 */
export function hostedTrailCells(trail: HostedTrail): Set<string> {
  const out = new Set<string>();
  // Keys created (call index -> id) and revoked (ids), for "a revoked key".
  const keyIds = new Map<number, string>();
  const revoked = new Set<string>();
  const fresh = new Set<string>();
  for (const c of trail.calls) {
    const m = /created for workspace (\S+)/.exec(c.credential ?? '');
    if (m) fresh.add(m[1]!);
  }
  const workspaceOf = (label: string | undefined, depth = 0): string | undefined => {
    const c = credentialClass(label);
    if (label === undefined || c === undefined || !SERVED.has(c) || depth > 8) return undefined;
    const forNew = /created for workspace (\S+)/.exec(label);
    if (forNew) return `workspace ${forNew[1]}`;
    if (/another workspace/.test(label)) return 'another';
    const by = /(?:created|issued) by call (\d+)/.exec(label);
    const maker = by ? trail.calls[Number(by[1])] : undefined;
    if (by && maker !== undefined && !TOKEN_OPERATIONS.has(maker.operation)) return workspaceOf(maker.credential, depth + 1);
    return 'run';
  };
  const owner = new Map<string, string>(); // resource id -> its workspace
  const issued = new Map<string, string>(); // id handed out -> its kind
  const reads = new Map<string, { ws: string | undefined; writes: Set<string> }>(); // a read (method, URL, body) -> the writes of its workspace since
  const removed = new Map<string, string>(); // id -> the delete that removed it
  const merged = new Map<string, string>(); // id -> the end of a merge it was
  trail.calls.forEach((call, i) => {
    const op = call.operation;
    if (!HOSTED_OPERATIONS.includes(op) || call.status === undefined) return;
    const good = ok(call);
    out.add(`framing/${op}/answer/${good ? '2xx' : call.status >= 400 && call.status < 500 ? '4xx' : 'other'}`);
    let c = credentialClass(call.credential);
    const created = /API key created by call (\d+)/.exec(call.credential ?? '');
    if (created && revoked.has(keyIds.get(Number(created[1])) ?? '')) c = 'revoked-key';
    const issuedBy = /access token issued by call (\d+)/.exec(call.credential ?? '');
    if (c === 'access-token' && issuedBy && trail.calls[Number(issuedBy[1])]?.operation === 'refresh_access_token') c = 'refreshed-token';
    if (c !== undefined && !TOKEN_OPERATIONS.has(op)) out.add(`credential/${op}/credential/${c}`);
    if (op === 'create_api_key' && good) {
      const id = (call.body as { id?: unknown } | null)?.id;
      if (typeof id === 'string') keyIds.set(i, id);
    }
    if (op === 'revoke_api_key' && good) revoked.add(decoded(call.url.split('?')[0]!.split('/').at(-1) ?? ''));

    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      return;
    }
    const body = call.params ?? {};
    const { path, fields } = namedIds(op, url, body);
    const ids = [...path, ...fields.values()];
    // owner: the credential's workspace against the workspace of the resource it names
    const ws = workspaceOf(call.credential);
    if (ws !== undefined && OWNED.includes(op)) {
      for (const id of ids) {
        const o = owner.get(id);
        if (o !== undefined) out.add(`credential/${op}/owner/${o === ws ? OWNERS[0] : OWNERS[1]}`);
      }
    }
    // value: only what a served credential sent (a value refused with the credential never reached the store)
    for (const f of ws === undefined ? [] : HOSTED_FIELDS[op] ?? []) {
      const idOf = (v: string) => ({ known: issued.has(v), sameKind: issued.get(v) === f.refers });
      for (const v of fieldValues(f, body, url.searchParams)) for (const cls of valueClasses(f.kind, v, f.members ?? [], idOf)) out.add(`value/${hosted(op)}/${f.row}/${cls}`);
    }
    // after a delete or a merge: a read naming what it removed or changed (whatever its answer)
    for (const id of ids) {
      const d = removed.get(id);
      if (d !== undefined && AFTER[d]!.reads.includes(op)) out.add(`history/${hosted(op)}/${AFTER[d]!.row}/${d}`);
      const m = merged.get(id);
      if (m !== undefined && (AFTER_MERGE_READS as readonly string[]).includes(op)) out.add(`history/${hosted(op)}/after merge/${m}`);
    }
    // limits
    const has = (n: string) => url.searchParams.has(n) || body[n] !== undefined;
    const messages = body.messages;
    if (op === 'bulk_add_messages' && Array.isArray(messages) && (BULK_COUNTS as readonly number[]).includes(messages.length)) out.add(`limit-filter/${hosted(op)}/messages/count ${messages.length}`);
    if (!good) return;
    if (has('limit')) {
      for (const f of HOSTED_LIMIT_FILTERS[op] ?? []) if (f.names.some(has)) out.add(`limit-filter/${hosted(op)}/${f.row}/limit + filter`);
      const limit = Number(url.searchParams.get('limit') ?? body.limit);
      const items = itemsOf(call.body);
      if (op === 'get_conversation' && items !== undefined && Number.isInteger(limit) && limit >= 1) out.add(`limit-filter/${hosted(op)}/limit/${items.length >= limit ? LIMIT_CUTS[0] : LIMIT_CUTS[1]}`);
    }
    // histories: read → write → read, the same read (method, URL, body, by the same workspace) twice
    // around a write of that workspace (another workspace's write changes nothing the read shows)
    const changes = HOSTED_CHANGES[op];
    if (changes !== undefined) {
      const key = `${ws ?? ''} ${call.httpMethod ?? ''} ${call.url} ${JSON.stringify(body)}`;
      for (const w of reads.get(key)?.writes ?? []) if (changes.some(([x]) => x === w)) out.add(`history/${hosted(op)}/read → write → read/${w}`);
      reads.set(key, { ws, writes: new Set() });
    } else for (const r of reads.values()) if (r.ws === ws) r.writes.add(op);
    if (AFTER[op] !== undefined) for (const id of path) removed.set(id, op);
    if (op === 'merge_entities') {
      if (path[0] !== undefined) merged.set(path[0], MERGE_ENDS[0]);
      const target = fields.get('targetId') ?? fields.get('target_id');
      if (target !== undefined) merged.set(target, MERGE_ENDS[1]);
    }
    // what the answer hands out, and whose it is
    const kind = HOSTED_CREATES[op];
    if (kind !== undefined) {
      for (const item of Array.isArray(call.body) ? call.body : [call.body]) {
        const id = (item as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') continue;
        issued.set(id, kind);
        const requested = op === 'create_api_key' && typeof body.workspaceId === 'string' && fresh.has(body.workspaceId) ? `workspace ${body.workspaceId}` : undefined;
        if (ws !== undefined) owner.set(id, requested ?? ws);
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reasons for the cells nothing covers

export interface Reason {
  /** Which cells it explains: a pattern over the cell id. */
  cells: RegExp;
  /**
   * open: coverable, not covered yet (the backlog, counted apart); silent: no sentence makes any
   * answer to it wrong, so a check could only advise (the silent point or advisory is named);
   * n/a: the cell does not apply.
   */
  kind: 'open' | 'silent' | 'n/a';
  reason: string;
}

const BRIDGE_IDS = 'message_id|entity_id|source_id|target_id|trace_id|step_id|conversation_id';
/** String parameters that key or label an object (compared for equality), not stored prose. */
const KEYS = 'session_id|category|relationship_type|tool_name|user_id|predicate|action|action_taken|type|task|canonical_name|subject|name|query|cypher|error|outcome';

/**
 * Why a cell is not covered. Each reason must explain at least one uncovered cell (a stale one
 * fails the test), and every uncovered cell must match one. The first that matches is taken.
 */
const REASONS: readonly Reason[] = [
  // hosted value (before the bridge's: their subjects are hosted:<operation>)
  { cells: /^value\/hosted:[a-z_]+\/(conversationId|stepId)\/(unknown|malformed|other-kind)$/, kind: 'silent',
    reason: 'A step or tool call under a conversation or step id that names nothing, is malformed or names another kind of object: the document shows no error for it (Errors: "not shown") nor whether a record may open a conversation of an id not seen before; refusing it is the advisory ADV-refuse-invalid-input, taking it a reading.' },
  { cells: /^value\/hosted:[a-z_]+\/(role|messages\[\]\.role)\/(unknown|case-variant)$/, kind: 'silent',
    reason: 'A role outside the values seen, or in another case: the document lists user (the bridge document user, assistant, system) and shows no error; refusing it or keeping it are both readings (ADV-refuse-invalid-input).' },
  { cells: /^value\/hosted:[a-z_]+\/(content|messages\[\]\.content|reasoning|actionTaken|result|description|name)\/(empty|long|over-10k|over-64k)$/, kind: 'open',
    reason: 'Open: hosted prose this long, or empty. "Rate limits, size limits and page sizes: not shown" lets a service refuse it (then nothing is judged), but what it accepts it stores (HOSTED-READBACK) and reads back whole; for the hosted value scenarios (SCN-H-200…219).' },
  { cells: /^value\/hosted:[a-z_]+\/[^/]+\/(empty|long|over-10k|over-64k)$/, kind: 'silent',
    reason: 'An empty or very long hosted key, label, type, query or workspace identifier: "size limits … not shown" and no sentence promises that it is accepted; refusing it is a reading (ADV-refuse-invalid-input).' },
  { cells: /^value\/hosted:[a-z_]+\/(userId|label|workspaceId|type|\?type|toolName|query|cypher)\/(nul|control|nfc|nfd|nfkc|non-latin|astral|edge-space|escapes)$/, kind: 'open',
    reason: 'Open: a hosted key, label, type or search text of this class (compared for equality or searched): storage engines treat these differently (normalisation, collation, control filters, NUL in C strings, LIKE wildcards); for the hosted value scenarios (SCN-H-200…219).' },
  { cells: /^value\/hosted:[a-z_]+\/[^/]+\/(nul|control|nfc|nfd|nfkc|non-latin|astral|edge-space|escapes)$/, kind: 'open',
    reason: 'Open: stored hosted prose of this class (message content, entity names and descriptions, step fields): no hosted scenario sends it yet; for the hosted value scenarios (SCN-H-200…219), which read it back unchanged (HOSTED-READBACK).' },
  { cells: /^value\/hosted:[a-z_]+\/\??limit\/(zero|negative|beyond-int32|fraction)$/, kind: 'silent',
    reason: 'A hosted limit of 0, below 0, beyond 32 bits or not an integer: the document shows no query parameter, pagination or page size ("not shown", Payload shapes and Limits); refusing, clamping or ignoring it are all readings.' },
  { cells: /^value\/hosted:[a-z_]+\/\??limit\/(one|page-edge)$/, kind: 'open',
    reason: 'Open: a hosted limit of 1 or at a page edge on this operation (the established clients send limit; the document shows no pagination); for the hosted history and limit scenarios (SCN-H-220…249, suites/hosted/histories.ts).' },
  { cells: /^value\/hosted:set_entity_feedback\/userScore\//, kind: 'silent',
    reason: 'A feedback score outside [0, 1] or with decimals a store changes: SPEC-V5-5.3.1b puts user_score in [0, 1] (Volume 5), so one outside may be refused or clamped (the document shows no error), and no hosted read is shown to return the score ("feedback … not shown"), so what a store keeps of it cannot be judged.' },
  { cells: /^value\/hosted:create_api_key\/scopes\//, kind: 'silent',
    reason: 'A key with no scope, an unknown one or one in another case: "Key scopes seen are read and write. The meaning of each scope … not shown" (Authentication); making or refusing such a key are both readings.' },
  { cells: /^value\/hosted:record_tool_call\/(arguments|result)\//, kind: 'open',
    reason: 'Open: tool-call arguments or a result of this shape through the hosted interface (explain_step and the trace answer tool calls, SPEC-V5-5.4.2, SPEC-V5-5.4.3; their fields are not shown); for the hosted value scenarios (SCN-H-200…219).' },
  // hosted history
  { cells: /^history\/hosted:(get_observations|get_reflections|get_entity_history)\/read → write → read\/add_message$/, kind: 'silent',
    reason: 'Observations, reflections and the entities a message mentions are derived from it, and may come later (SPEC-V5-5.2.2 MAY; extraction is automatic, What the service does): a read right after the message need not show it, so no check can require the change.' },
  { cells: /^history\/hosted:[a-z_]+\/after delete\//, kind: 'open',
    reason: "Open: a read of what a delete (or a key's revoke) removed, naming its id, after the removal: for the hosted history scenarios (SCN-H-220…249)." },
  { cells: /^history\/hosted:[a-z_]+\/after merge\//, kind: 'open',
    reason: "Open: a read of a merge's source or target by its id after merge_entities (SPEC-V5-5.3.3: a SAME_AS link from the source to the target): for the hosted history scenarios (SCN-H-220…249)." },
  { cells: /^history\/hosted:/, kind: 'open',
    reason: 'Open: no hosted scenario sends this read, then this write in the same workspace, then the identical read (method, URL and body): for the hosted history scenarios (SCN-H-220…249).' },
  // hosted limit × filter
  { cells: /^limit-filter\/hosted:list_conversations\/order\//, kind: 'open',
    reason: 'Open: list_conversations with a limit and an order parameter together (newest first is SPEC-V5-5.1.2; the parameter is not shown, so the kit would send its common spellings): for the hosted limit scenarios (SCN-H-220…249).' },
  { cells: /^limit-filter\/hosted:/, kind: 'open',
    reason: 'Open: a hosted limit beside what narrows what it counts (a type, a threshold), or around its edge: for the hosted limit scenarios (SCN-H-220…249).' },
  // value
  { cells: new RegExp(`^value/[a-z_]+/(${BRIDGE_IDS})/(unknown|malformed|other-kind)$`), kind: 'silent',
    reason: `An id that names nothing, is not a UUID, or names another kind of object: what the method answers is stated for a few methods only (delete_message, get_trace_with_steps, get_entity_by_name; silent points related-unknown-entity, delete-unknown, merge-source-lookup); elsewhere refusing it (ADV-refuse-invalid-input, BRIDGE-ERRORS-1 for the error's form) or answering empty or null are all readings. Explore draws live ids only.` },
  { cells: /^value\/bulk_add_messages\/messages\/(empty|at-max|over-max|one)$/, kind: 'open',
    reason: 'Open: bulk_add_messages with no message, or at or over the 100 of SPEC-5.1.4 (silent point bulk-cap-over for over).' },
  { cells: /^value\/[a-z_]+\/[a-z_]+\/(empty|long|over-10k|over-64k)$/, kind: 'silent',
    reason: 'An empty or very long key, label or optional text: no sentence promises that it is accepted (SPEC-2.1.7 and SPEC-2.1.8 do for message content only, covered), nor bounds its length; refusing it is a reading (ADV-refuse-invalid-input).' },
  { cells: /^value\/[a-z_]+\/session_id\/(nfc|nfd)$/, kind: 'silent',
    reason: 'A session id in composed or decomposed Unicode: whether two ids that differ only in normalisation (canonically equivalent) are one session or two, no sentence says; both readings are accepted, so SCN-B-150 leaves the pair out.' },
  { cells: new RegExp(`^value/[a-z_]+/(${KEYS})/(nul|control|nfc|nfd|nfkc|non-latin|astral|edge-space|escapes)$`), kind: 'open',
    reason: `Open: a key or label (compared for equality) of this class. Storage engines treat these classes differently (normalisation, collation, control filters, LIKE wildcards); SCN-B-139 and SCN-B-150 cover session ids (case, LIKE wildcards, control, edge spaces, non-Latin, astral, quotes), explore's pools cover case, prefix and trailing-space variants. The other keys are the backlog of issue 34.` },
  { cells: /^value\/[a-z_]+\/[a-z_]+\/(nul|control|nfc|nfd|nfkc|non-latin|astral|edge-space|escapes)$/, kind: 'open',
    reason: 'Open: stored prose of this class in a field that no fixed scenario and no explore pool fills with it yet (message content, names, descriptions, facts and step fields are covered).' },
  { cells: /^value\/[a-z_]+\/(limit|depth|duration_ms)\/(zero|negative|beyond-int32|fraction)$/, kind: 'silent',
    reason: `A limit, depth or duration of 0, below 0, beyond 32 bits or not an integer: the protocol gives no range (silent points limit-zero, related-depth); refusing it is the kit's reading (ADV-refuse-wrong-type, ADV-refuse-invalid-input).` },
  { cells: /^value\/[a-z_]+\/(limit|depth|duration_ms)\/(one|page-edge)$/, kind: 'open',
    reason: 'Open: a small limit or one at a page edge, for a method whose list no fixed scenario or explore pool fills past it.' },
  { cells: /^value\/[a-z_]+\/(threshold|user_score)\/(negative|above-one|many-decimals|float32-lossy|fraction|zero)$/, kind: 'silent',
    reason: `A threshold or score outside [0, 1] or with many decimals: the protocol states no scale for threshold (silent point search-relevance) and user_score is refused outside [0, 1] by the kit's reading; what a store keeps of its decimals is not read back by any method.` },
  { cells: /^value\/[a-z_]+\/[a-z_]+\/(unknown|case-variant)$/, kind: 'silent',
    reason: 'An enum value outside its list, or in another case: refusing it is an advisory (ADV-refuse-unknown-status, ADV-refuse-wrong-type); reading it as a member is not forbidden by any sentence.' },
  { cells: /^value\/[a-z_]+\/[a-z_]+\/(empty|nested|falsy-values|float32-lossy|beyond-int32|non-latin-key|array-value)$/, kind: 'open',
    reason: 'Open: a JSON object of this class in a field whose content no read returns whole (properties, params, arguments of one method), or that no scenario fills with it yet; message metadata and tool arguments are covered.' },
  // history
  // graph
  { cells: /^graph\/(get_related_entities\/cycle\/get_related_entities relationship_type|get_entity_graph\/cycle\/get_entity_graph)$/, kind: 'open',
    reason: 'Open: a cycle walked with a relationship_type filter, and the graph view of a cycle. Explore draws them from some seeds (seed 1 did within 60 sequences before its histories took part of its draws); the fixed scenarios walk a cycle with depth given and omitted (SCN-S-151, SCN-G-163) and view a self-loop and a diamond, not a cycle (SCN-P-124 queries one).' },
  // credential
  { cells: /^credential\/(token_exchange|refresh_access_token)\//, kind: 'n/a',
    reason: 'The token endpoints take the token they are given in the body, not a Bearer credential (Authentication rules 5 and 6); the credential classes do not apply.' },
  { cells: /^credential\/[a-z_]+\/credential\/(read-only-key|write-only-key)$/, kind: 'silent',
    reason: 'What a read-only or write-only key may do: "The meaning of each scope … not shown" (Authentication); three advisories try a narrowed key on one read and one write (ADV-read-scope-cannot-write, ADV-reveal-wider-scopes, ADV-grant-wider-scopes).' },
  { cells: /^credential\/[a-z_]+\/credential\/expired-key$/, kind: 'open',
    reason: 'Open: an API key past its 90 days (Limits; the key lifecycle: expired, "key no longer accepted is implied by expiry"): no input of a run gives one (--expired-token gives an access token only) and a run cannot wait 90 days; a flag for such a key would let one scenario send it to every endpoint, as SCN-H-150 does a revoked key.' },
  { cells: /^credential\/[a-z_]+\/credential\/malformed$/, kind: 'open',
    reason: 'Open: an Authorization: Bearer value that is not a token68 (RFC 6750 §2.1: empty, spaces inside, non-ASCII) must be refused like any invalid credential (RFC 6750 §3.1), but no scenario sends one yet; SCN-H-021 sends made-up values of the right form.' },
  // framing
  { cells: /^framing\/[a-z_]+\/answer\/error$/, kind: 'silent',
    reason: 'No request to this method must be refused: every value the data model allows is a valid call, and refusing an ill-typed one is an advisory (ADV-refuse-wrong-type); BRIDGE-ERRORS-1 then fixes the form of the error, judged wherever one comes.' },
];

// ---------------------------------------------------------------------------------------------
// The matrix

export interface Matrix {
  cells: CoveredCell[];
  /** Uncovered cells no reason explains (the gate). */
  unexplained: CoveredCell[];
  /** Reasons that explain no uncovered cell (stale). */
  staleReasons: Reason[];
}

/**
 * The matrix of what was sent. `hostedExplore`: a hosted exploration's requests (`tck explore --hosted`,
 * one trail per sequence, test/coverage/trails.ts); they count as explore (E) like the bridge's.
 */
export function coverageMatrix(
  input: { fixed: readonly Trail[]; hosted: readonly HostedTrail[]; explore: readonly Trail[]; classes?: readonly Trail[]; hostedExplore?: readonly HostedTrail[] },
  reasons: readonly Reason[] = REASONS,
): Matrix {
  const fixed = new Map<string, Set<string>>();
  const note = (id: string, source: string) => (fixed.get(id) ?? fixed.set(id, new Set()).get(id)!).add(source);
  for (const t of input.fixed) for (const id of trailCells(t)) note(id, t.source);
  for (const t of input.hosted) for (const id of hostedTrailCells(t)) note(id, t.source);
  const explored = new Map<string, number>();
  for (const t of input.explore) for (const id of trailCells(t)) explored.set(id, (explored.get(id) ?? 0) + 1);
  for (const t of input.hostedExplore ?? []) for (const id of hostedTrailCells(t)) explored.set(id, (explored.get(id) ?? 0) + 1);
  const classed = new Map<string, number>();
  for (const t of input.classes ?? []) for (const id of trailCells(t)) classed.set(id, (classed.get(id) ?? 0) + 1);
  const used = new Set<Reason>();
  const cells = matrixCells().map((cell): CoveredCell => {
    const f = [...(fixed.get(cell.id) ?? [])].sort();
    const e = explored.get(cell.id) ?? 0;
    const c = e > 0 ? 0 : classed.get(cell.id) ?? 0;
    const covered: CoveredCell = { ...cell, fixed: f, explore: e, classes: c };
    if (f.length === 0 && e === 0 && c === 0) {
      const r = reasons.find((x) => x.cells.test(cell.id));
      if (r) {
        used.add(r);
        covered.reason = r.reason;
        covered.reasonKind = r.kind;
      }
    }
    return covered;
  });
  return {
    cells,
    unexplained: cells.filter((c) => c.fixed.length === 0 && c.explore === 0 && c.classes === 0 && c.reason === undefined),
    staleReasons: reasons.filter((r) => !used.has(r)),
  };
}

// ---------------------------------------------------------------------------------------------
// docs/coverage.md

interface Figures { cells: number; fixed: number; exploreOnly: number; explore: number; classesOnly: number; open: number; silent: number; unexplained: number }

export function figures(cells: readonly CoveredCell[]): Figures {
  return {
    cells: cells.length,
    fixed: cells.filter((c) => c.fixed.length > 0).length,
    explore: cells.filter((c) => c.explore > 0).length,
    exploreOnly: cells.filter((c) => c.fixed.length === 0 && c.explore > 0).length,
    classesOnly: cells.filter((c) => c.fixed.length === 0 && c.explore === 0 && c.classes > 0).length,
    open: cells.filter((c) => c.fixed.length === 0 && c.explore === 0 && c.classes === 0 && c.reasonKind === 'open').length,
    silent: cells.filter((c) => c.fixed.length === 0 && c.explore === 0 && c.classes === 0 && (c.reasonKind === 'silent' || c.reasonKind === 'n/a')).length,
    unexplained: cells.filter((c) => c.fixed.length === 0 && c.explore === 0 && c.classes === 0 && c.reason === undefined).length,
  };
}

const esc = (s: string) => s.replaceAll('|', '\\|');

export function renderCoverage(matrix: Matrix, explore: { seed: number; runs: number; classesRuns?: number }, hostedExplore?: { seed: number; runs: number; maxSteps: number }): string {
  const reasonNumbers = new Map<string, number>();
  const numberOf = (reason: string) => reasonNumbers.get(reason) ?? reasonNumbers.set(reason, reasonNumbers.size + 1).get(reason)!;
  // The first two scenarios that cover a cell are named (and how many more).
  const named = (ids: readonly string[]) => ` (${ids.slice(0, 2).join(', ')}${ids.length > 2 ? ` +${ids.length - 2}` : ''})`;
  const mark = (c: CoveredCell) =>
    c.fixed.length > 0 ? `${c.explore > 0 ? 'FE' : 'F'}${named(c.fixed)}` : c.explore > 0 ? 'E' : c.classes > 0 ? 'C' : c.reason !== undefined ? `r${numberOf(c.reason)}` : '**—**';
  const lines = [
    '# Coverage matrix',
    '',
    'Generated by `npm run docs` (test/coverage/matrix.test.ts); a test fails when this file is stale, and another',
    'when a cell is covered by nothing and no written reason explains it. The matrix is built in the manner of',
    'category-partition testing from the method tables (`src/protocols/bridge/methods.ts`,',
    '`src/protocols/hosted/document.ts`) and each parameter\'s type, crossed with:',
    '',
    '- **value**: method × parameter × value class. Strings: empty, long (≥ 1 000 characters), over 10 000 characters,',
    '  over 65 535 bytes of UTF-8 (MySQL TEXT, 16-bit lengths), NUL apart from the other control characters (C0, DEL, C1),',
    '  precomposed (NFC) and decomposed (NFD) Unicode, compatibility characters NFKC folds (ﬁ, full-width letters, ①),',
    '  non-Latin scripts, astral characters, leading or trailing whitespace, escapes (quotes, backslash, `<>%&`).',
    '  Integers: 0, 1, negative, a page edge (10, 11, 20, 21, 50, 51, 100, 101), beyond 32 bits, a fraction. Numbers: 0,',
    '  negative, fractions, above 1, values a single-precision',
    '  (float32) or fixed-point (four decimals) store would change. Ids: unknown (well formed, never handed out),',
    '  malformed, of another kind of object. JSON objects: empty, nested, falsy values, float32-lossy and beyond-32-bit',
    '  numbers, non-ASCII keys, arrays. Lists: empty, one, at the maximum (100), over it. Enums: every member, an unknown',
    '  value, a case variant. Hosted (`hosted:<operation>`): operation × body or query field (the document\'s fields, and',
    '  where it shows none those the established clients and the scenarios send) × the same classes, read from the bodies',
    '  and query strings of the recorded hosted requests.',
    '- **history**: every read × every write that changes its answer, as read → write → read in one scenario (a cache',
    '  shows only this way); two objects sharing the field a read looks them up by (namesakes); merge chains A → B → C.',
    '  Hosted: every read × every write that changes it (the pairs and why are listed under history), as the identical',
    '  read (method, URL, body, same workspace) before and after a write of that workspace; a read naming what a delete',
    '  or a revoke removed; a read of a merge\'s source and target after merge_entities.',
    '- **limit-filter**: every method with a limit beside a parameter that narrows what it counts, sent together. Hosted:',
    '  list_conversations limit × order, list_entities type × limit, both searches limit × threshold, the messages\' limit',
    '  reached or above their count, bulk_add_messages with 99, 100 and 101 messages.',
    '- **graph**: the shape of the relationships written before a walk (chain, cycle, self-loop, diamond, fan-out,',
    '  parallel edges; of the start entity\'s component for get_related_entities) × the walk and its parameters.',
    '- **credential** (hosted): every endpoint × every kind of credential the document names or its rules imply (API key,',
    '  access token from the exchange and from a refresh, the scheme in another case, read-only and write-only keys, a key',
    '  of another workspace, revoked key, key past its 90 days, token past its exp, none, another scheme, a malformed',
    '  Bearer value, a made-up one, a forged JWT, a refresh or identity-provider token as Bearer), told apart by the words',
    '  the evidence names it with (a revoked key: a key used after its revoke_api_key; a refreshed token: one issued by',
    '  refresh_access_token); and every endpoint naming a resource × its owner: the credential\'s own workspace or another',
    '  (the workspace whose credential created the resource).',
    '- **framing**: every method or endpoint × a success answer and an error answer.',
    '',
    '**How coverage is known.** Nothing here is asserted by hand. `F (SCN-…)`: a fixed scenario sent a request in the cell',
    'when every scenario ran against the embedded reference (the recording run of `src/run/`; its assertions held); the',
    'first two such scenarios are named, and how many more.',
    `\`E\`: explore's default generator (src/explore/commands.ts; seed ${explore.seed}, ${explore.runs} sequences, every method the reference has) sent one.`,
    `\`C\`: only \`tck explore --classes\` (opt-in, src/explore/classes.ts; seed ${explore.seed}, ${explore.classesRuns ?? 0} sequences) sent one.`,
    hostedExplore === undefined
      ? 'No hosted exploration was read, so `E` is empty in the hosted rows (`coverageMatrix` takes one\'s requests as `hostedExplore`).'
      : `In the hosted rows, \`E\`: \`tck explore --hosted\` (src/explore/hosted.ts; seed ${hostedExplore.seed}, ${hostedExplore.runs} sequences of ${hostedExplore.maxSteps} operations, against the embedded hosted reference, its cleanup deletes included) sent one, with the run's API key: it sends no other credential and never calls the key, token or discovery endpoints.`,
    '`rN`: none does; reason N below says why. **—**: nothing covers it and nothing says why (the gate fails).',
    'A cell is covered when a request of its kind was sent and answered; whether an assertion judged that value is',
    'what the scenario catalogue (docs/scenarios.md) and the clause map (docs/clauses.md) say.',
    '',
    '**Exploration in the gate (issue 34, item 4).** `npm run measure:gate` (test/explore/gate-figures.test.ts) explores every',
    'fault of the explore catalogues and the matrix\'s faulty variants (79; 38 of them no fixed scenario caught when measured, before',
    'the fixed scenarios SCN-B-160 … SCN-P-164 of the same stop were merged: 26 of the catalogue\'s 70 are now caught by none) from seeds 1, 2',
    'and 3, at most 60 sequences each (TCK_GATE_CAP=60). Measured (2026-11-28) before and after the default generator drew',
    'histories (a read, a write that changes it or one aimed at a namesake of its key, the same read again), namesake keys (case,',
    'Unicode normal form, a trailing space, LIKE wildcards, a control character in session ids), C0 controls in texts, and',
    'filtered reads of limit 1 around a match outside the filter (src/explore/history.ts): of the 38, a seeded exploration finds',
    '2–5 → 11–17 within 10 sequences, 7–10 → 18–23 within 30 and 11 → 22–29 within 60; of the 13 faults written for that change',
    'first (test/explore/faults-34.ts: caches a write misses, case, LIKE and NFC keys, content cut at NUL, limits before filters)',
    '0–1 → 11–12 within 60; of the 9 matrix variants 2 → 7 (a walk from a cycle never; LIKE and the A → B → C chain from some seeds). 60',
    'sequences of the embedded reference cost about 2 500 requests (2 180 before; as many as the whole bridge suite, Platinum',
    'included). With `--classes` (TCK_GATE_CLASSES=1; measured before the histories) it found 3 or 4 of the 8 matrix variants',
    'then and, its draws shared with the class sequences, fewer of the others: opt-in. So neither `tck run` nor `tck certify`',
    'explores by default yet: 60 sequences would find 58–76 % of what the fixed scenarios miss at the price of doubling a run\'s',
    'requests, and a finding is not a scenario (no tier grades it; `tck verify` cannot replay',
    'it). `tck explore --seed 1 --runs 60` after `tck run` gives the same reproducible verdict where that trade pays.',
    '',
    '## Figures',
    '',
    '| profile | dimension | cells | fixed scenarios | explore | explore only | explore --classes only | open (a reason) | silent or n/a (a reason) | unexplained |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const profile of PROFILES) {
    for (const dimension of DIMENSIONS) {
      const cells = matrix.cells.filter((c) => c.profile === profile && c.dimension === dimension);
      if (cells.length === 0) continue;
      const f = figures(cells);
      lines.push(`| ${profile} | ${dimension} | ${f.cells} | ${f.fixed} | ${f.explore} | ${f.exploreOnly} | ${f.classesOnly} | ${f.open} | ${f.silent} | ${f.unexplained} |`);
    }
  }
  const all = figures(matrix.cells);
  lines.push(`| **all** | | **${all.cells}** | **${all.fixed}** | **${all.explore}** | **${all.exploreOnly}** | **${all.classesOnly}** | **${all.open}** | **${all.silent}** | **${all.unexplained}** |`, '');
  for (const dimension of DIMENSIONS) {
    const cells = matrix.cells.filter((c) => c.dimension === dimension);
    lines.push(`## ${dimension}`, '');
    // One table per subject group: rows × columns.
    const groups = dimension === 'value'
      ? [...new Set(cells.map((c) => c.subject))].map((s) => cells.filter((c) => c.subject === s))
      : PROFILES.map((p) => cells.filter((c) => c.profile === p)).filter((g) => g.length > 0);
    // The row a cell is shown in: its parameter (value), its shape (graph), else subject · row.
    const rowOf = (c: CoveredCell) => (dimension === 'value' || dimension === 'graph' ? c.row : `${c.subject} · ${c.row}`);
    for (const group of groups) {
      const columns = [...new Set(group.map((c) => c.column))];
      const rows = [...new Set(group.map(rowOf))];
      lines.push(`### ${dimension === 'value' ? group[0]!.subject : group[0]!.profile}`, '');
      // Wide tables are split into a line per row listing its columns.
      if (columns.length > 9) {
        for (const row of rows) {
          const inRow = group.filter((c) => rowOf(c) === row);
          lines.push(`- ${esc(row)}: ${inRow.map((c) => `${c.column} ${mark(c)}`).join(', ')}`);
        }
        lines.push('');
        continue;
      }
      lines.push(`| | ${columns.map(esc).join(' | ')} |`, `|---|${columns.map(() => '---').join('|')}|`);
      for (const row of rows) {
        const inRow = (col: string) => group.find((c) => rowOf(c) === row && c.column === col);
        lines.push(`| ${esc(row)} | ${columns.map((col) => { const c = inRow(col); return c ? mark(c) : ''; }).join(' | ')} |`);
      }
      lines.push('');
    }
  }
  lines.push('## Hosted histories: the pairs', '', 'Each hosted read and the writes that change its answer (the history cells above), and why:', '');
  for (const [read, writes] of Object.entries(HOSTED_CHANGES)) for (const [w, why] of writes) lines.push(`- ${read} ← ${w}: ${esc(why)}`);
  lines.push('');
  lines.push('## Reasons', '');
  const kindOfReason = new Map(matrix.cells.filter((c) => c.reason !== undefined).map((c) => [c.reason!, c.reasonKind!]));
  for (const [reason, n] of [...reasonNumbers].sort((a, b) => a[1] - b[1])) lines.push(`${n}. (${kindOfReason.get(reason)}) ${esc(reason)}`);
  lines.push('');
  return lines.join('\n');
}
