// `tck explore --hosted`: seeded sequences of calls to a hosted REST service's resource endpoints
// (conversations, messages, entities, reasoning steps), each answer judged against a model of what
// the service must hold. A judgement is made only where a sentence states the rule, and cites it;
// where the documents are silent (error statuses, extra fields, where a list sits in an answer,
// page sizes, whether a query parameter is read at all) every reasonable reading passes.
//
// The REST interface has no reset: each sequence makes its own data (user ids and entity names carry
// a tag of the sequence), judges only what it made, and deletes it at the end. A failing sequence is
// shrunk (its operations removed while the same rule still breaks), replayed once more to record its
// exchanges, and reported once per rule and operation; exploring goes on for the next one.
import { RestClient, type RestExchange } from '../profiles/hosted/client.js';
import { operationOf, type HttpMethod } from '../protocols/hosted/document.js';
import { isJsonObject } from '../util/json.js';
import { hasPair, holds, listItems as readItems, messagesIn } from '../profiles/hosted/readings.js';
import { BULK_SIZES, CONTENTS, LIST_LIMITS, MESSAGE_LIMITS, NAMES, ROLES, SCORES, SEARCH_LIMITS, THRESHOLDS, TYPES } from './hosted-values.js';
import { mulberry32 } from '../util/random.js';

type Json = Record<string, unknown>;

// ------------------------------------------------------------------ the operations of a sequence

/** One operation; references (c, e, s) pick among what the sequence made, modulo their number. */
export type HostedOp =
  | { k: 'createConversation'; user: number }
  | { k: 'listConversations'; limit: number | undefined }
  | { k: 'getConversationMetadata'; c: number }
  | { k: 'deleteConversation'; c: number; twice: boolean }
  | { k: 'addMessage'; c: number; role: number; content: number }
  | { k: 'bulkAddMessages'; c: number; size: number; first: number }
  | { k: 'getConversation'; c: number; limit: number | undefined }
  | { k: 'searchMessages'; c: number; limit: number; threshold: number }
  | { k: 'getContext'; c: number }
  | { k: 'addEntity'; name: number; type: number }
  | { k: 'getEntity'; e: number }
  | { k: 'listEntities'; type: number; limit: number }
  | { k: 'updateEntity'; e: number; name: number }
  | { k: 'deleteEntity'; e: number }
  | { k: 'searchEntities'; e: number; limit: number; threshold: number }
  | { k: 'setFeedback'; e: number; score: number }
  | { k: 'mergeEntities'; e: number; into: number }
  | { k: 'getEntityGraph' }
  | { k: 'getEntityHistory'; e: number }
  | { k: 'recordStep'; c: number }
  | { k: 'listSteps'; c: number }
  | { k: 'explainStep'; s: number }
  | { k: 'getTrace'; c: number }
  /** Re-issues an earlier read of the sequence, the same URL and body (`back` reads before the last). */
  | { k: 'again'; back: number };

const WRITES = new Set<HostedOp['k']>(['createConversation', 'deleteConversation', 'addMessage', 'bulkAddMessages', 'addEntity', 'updateEntity', 'deleteEntity', 'setFeedback', 'mergeEntities', 'recordStep']);


/** The seed of sequence `i` of a run seeded `seed`. */
export const sequenceSeed = (seed: number, i: number): number => (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + Math.imul(i + 1, 0x85ebca6b)) >>> 0;

/** The operations and their weights: writes and reads of every kind, the reads often enough to see each write. */
type Draw = readonly [number, (r: () => number) => HostedOp];
let drawTable: readonly Draw[] | undefined;
function table(): readonly Draw[] {
  const n = (r: () => number, max: number) => Math.floor(r() * max);
  const pick = <T>(r: () => number, xs: readonly T[]): T => xs[n(r, xs.length)]!;
  // The long texts (10 001 and 70 000 characters) one message in six: a store may spend much on each.
  const long = CONTENTS.flatMap((c, i) => (c.length > 10_000 ? [i] : []));
  const shorter = CONTENTS.flatMap((c, i) => (c.length > 10_000 ? [] : [i]));
  const content = (r: () => number) => (r() < 1 / 6 ? pick(r, long) : pick(r, shorter));
  return [
    [6, (r) => ({ k: 'createConversation', user: n(r, 2) })],
    [4, (r) => ({ k: 'listConversations', limit: pick(r, LIST_LIMITS) })],
    [3, (r) => ({ k: 'getConversationMetadata', c: n(r, 8) })],
    [3, (r) => ({ k: 'deleteConversation', c: n(r, 8), twice: r() < 0.5 })],
    [8, (r) => ({ k: 'addMessage', c: n(r, 8), role: n(r, ROLES.length), content: content(r) })],
    [3, (r) => ({ k: 'bulkAddMessages', c: n(r, 8), size: pick(r, BULK_SIZES), first: n(r, CONTENTS.length) })],
    [5, (r) => ({ k: 'getConversation', c: n(r, 8), limit: pick(r, MESSAGE_LIMITS) })],
    [2, (r) => ({ k: 'searchMessages', c: n(r, 8), limit: pick(r, SEARCH_LIMITS), threshold: pick(r, THRESHOLDS) })],
    [1, (r) => ({ k: 'getContext', c: n(r, 8) })],
    [6, (r) => ({ k: 'addEntity', name: n(r, NAMES.length), type: n(r, TYPES.length) })],
    [4, (r) => ({ k: 'getEntity', e: n(r, 8) })],
    [3, (r) => ({ k: 'listEntities', type: n(r, TYPES.length), limit: pick(r, SEARCH_LIMITS) })],
    [3, (r) => ({ k: 'updateEntity', e: n(r, 8), name: n(r, NAMES.length) })],
    [2, (r) => ({ k: 'deleteEntity', e: n(r, 8) })],
    [3, (r) => ({ k: 'searchEntities', e: n(r, 8), limit: pick(r, SEARCH_LIMITS), threshold: pick(r, THRESHOLDS) })],
    [2, (r) => ({ k: 'setFeedback', e: n(r, 8), score: n(r, SCORES.length) })],
    [1, (r) => ({ k: 'mergeEntities', e: n(r, 8), into: n(r, 8) })],
    [1, () => ({ k: 'getEntityGraph' })],
    [1, (r) => ({ k: 'getEntityHistory', e: n(r, 8) })],
    [2, (r) => ({ k: 'recordStep', c: n(r, 8) })],
    [1, (r) => ({ k: 'listSteps', c: n(r, 8) })],
    [1, (r) => ({ k: 'explainStep', s: n(r, 8) })],
    [1, (r) => ({ k: 'getTrace', c: n(r, 8) })],
  ];
}

/** The operations of one sequence: `length` drawn, each write followed most often by a re-issued earlier read. */
export function drawSequence(seed: number, length: number): HostedOp[] {
  const r = mulberry32(seed);
  const ops = (drawTable ??= table());
  const total = ops.reduce((s, [w]) => s + w, 0);
  const out: HostedOp[] = [];
  // Two conversations and two entities first: most operations then have something to act on.
  out.push({ k: 'createConversation', user: 0 }, { k: 'addEntity', name: Math.floor(r() * NAMES.length), type: Math.floor(r() * TYPES.length) });
  while (out.length < length) {
    let x = r() * total;
    const [, make] = ops.find(([w]) => (x -= w) < 0) ?? ops[0]!;
    const op = make(r);
    out.push(op);
    if (WRITES.has(op.k) && r() < 0.7) out.push({ k: 'again', back: Math.floor(r() * 4) });
  }
  return out;
}

/** An operation in a few words, for the console (`addMessage c1 "Café…"`). */
function opLabel(op: HostedOp): string {
  const { k, ...rest } = op;
  return `${k}${Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ''}`;
}

// ------------------------------------------------------------------ the model

interface Written {
  role: string;
  content: string;
}

/** Messages that may or may not be stored (a refused write, a bulk past the cap): at most `cap` of them. */
interface Maybe {
  messages: Written[];
  cap: number;
  why: string;
}

interface Conv {
  id: string;
  userId: string;
  /** The service's createdAt (ms), when it answered one. */
  createdAt?: number;
  /** Deleted (2xx), or 'unknown' after a refused delete. */
  deleted: boolean | 'unknown';
  /** The status class of its first 2xx delete. */
  deletedWith?: number;
  messages: Written[];
  maybe: Maybe[];
  /** A message was written after its creation: `bound` is the createdAt of the first conversation made after the last such write. */
  bound?: number;
  awaitingBound: boolean;
  steps: string[];
  /** Its metadata was read while it lived (a cache may hold it). */
}

interface Ent {
  id: string;
  name: string;
  /** The name it was renamed from, when the last successful write was a rename. */
  renamedFrom?: string;
  type: string;
  deleted: boolean;
  /** Merged away, or a write refused: what it holds is no longer known. */
  unknown: boolean;
  /** userScores refused (outside [0, 1]): none may be shown. */
  refusedScores: number[];
}

// ------------------------------------------------------------------ judgements

/** A rule broken: the sentences it cites, what was sent, what came back, what was expected. */
class HostedViolation extends Error {
  constructor(
    /** rule key: the same rule broken by the same operation is one finding. */
    readonly rule: string,
    readonly operation: string,
    readonly cites: readonly string[],
    message: string,
    readonly request: { method: string; url: string; body?: unknown },
    readonly got: { status: number; body: string },
    readonly expected: string,
  ) {
    super(message);
    this.name = 'HostedViolation';
  }
}

/** The run ends: no answer at all, or stopped. */
export class HostedTransportError extends Error {}

interface Answer {
  method: HttpMethod;
  /** The path under the base URL, with its query. */
  path: string;
  body: unknown;
  status: number;
  text: string;
  json: unknown;
  isJson: boolean;
}

const is2xx = (a: Answer) => a.status >= 200 && a.status < 300;
const seg = encodeURIComponent;
const short = (v: unknown, n = 160): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s;
};
const said = (a: Answer) => `${a.status}${a.text.trim() === '' ? ' with an empty body' : ` ${short(a.text)}`}`;
const req = (a: Answer) => `${a.method} ${a.path}`;

/** The object items of a list answer. silent: a bare array, or an object holding one array (the preferred names first). */
const listItems = (json: unknown, preferred: string[]): Json[] | undefined => readItems(json, preferred)?.filter(isJsonObject);

/** An item marked as deleted (a soft delete keeps it, saying so). */
const markedDeleted = (item: Json): boolean => item.deleted === true || (typeof item.deletedAt === 'string' && item.deletedAt !== '') || item.status === 'deleted';

/** The id of a hit: its own, or its entity's. silent: a search hit may wrap the entity. */
const hitId = (x: Json): unknown => x.id ?? (isJsonObject(x.entity) ? x.entity.id : undefined);

const timeOf = (v: unknown): number | undefined => {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : t;
};
const keyOf = (m: { role?: unknown; content?: unknown }) => `${String(m.role)}\u0001${String(m.content)}`;
const showMessage = (m: Written) => `{role: "${m.role}", content: ${short(m.content, 80)}}`;

// ------------------------------------------------------------------ running one sequence

export interface StepLine {
  /** The operation of the sequence it belongs to, and its number there (from 1). */
  op: string;
  n: number;
  method: string;
  url: string;
  body?: unknown;
  status: number;
}

interface Transport {
  send(method: HttpMethod, path: string, body: Record<string, unknown> | undefined, record: boolean): Promise<Omit<Answer, 'method' | 'path' | 'body'>>;
}

/** Runs one sequence against the service, judging every answer; throws the first HostedViolation. */
class SequenceRun {
  readonly convs: Conv[] = [];
  readonly ents: Ent[] = [];
  readonly steps: { id: string; conv: Conv }[] = [];
  readonly lines: StepLine[] = [];
  requests = 0;
  /** The reads done so far, for `again`. */
  private readonly reads: HostedOp[] = [];
  private currentOp = '';
  private opNumber = 0;
  private firstCreatedAt: number | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly tag: string,
    private readonly record: boolean,
  ) {}

  private async call(method: HttpMethod, path: string, body?: Record<string, unknown>): Promise<Answer> {
    this.requests++;
    const a = await this.transport.send(method, path, body, this.record);
    this.lines.push({ op: this.currentOp, n: this.opNumber, method, url: path, ...(body !== undefined ? { body } : {}), status: a.status });
    return { method, path, body, ...a };
  }

  private fail(rule: string, operation: string, cites: string[], message: string, a: Answer, expected: string): never {
    throw new HostedViolation(rule, operation, cites, message, { method: a.method, url: a.path, ...(a.body !== undefined ? { body: a.body } : {}) }, { status: a.status, body: short(a.text, 2000) }, expected);
  }

  /** A read of something that exists must succeed: the endpoint answers a valid request (its row of the document's tables). */
  private must2xx(a: Answer, operation: string): void {
    if (!is2xx(a)) this.fail('answers-2xx', operation, [`HOSTED-ENDPOINT-${operation}`], `${operation} (${req(a)}) of what the sequence made and did not delete: expected a 2xx answer, got ${said(a)}`, a, '2xx');
  }

  private conv(ref: number, live: boolean): Conv | undefined {
    const pool = live ? this.convs.filter((c) => c.deleted === false) : this.convs.filter((c) => c.deleted !== 'unknown');
    return pool.length === 0 ? undefined : pool[ref % pool.length];
  }

  private ent(ref: number, live: boolean): Ent | undefined {
    const pool = this.ents.filter((e) => !e.unknown && (!live || !e.deleted));
    return pool.length === 0 ? undefined : pool[ref % pool.length];
  }

  async run(ops: readonly HostedOp[]): Promise<void> {
    for (const op of ops) await this.step(op);
  }

  /** Deletes what the sequence made (not recorded, answers ignored). */
  async cleanup(): Promise<void> {
    for (const c of this.convs) if (c.deleted !== true) await this.transport.send('DELETE', `/conversations/${seg(c.id)}`, undefined, false);
    for (const e of this.ents) if (!e.deleted) await this.transport.send('DELETE', `/entities/${seg(e.id)}`, undefined, false);
  }

  async step(op: HostedOp): Promise<void> {
    if (op.k === 'again') {
      if (this.reads.length === 0) return;
      const earlier = this.reads[this.reads.length - 1 - (op.back % this.reads.length)]!;
      return this.exec(earlier, true);
    }
    return this.exec(op, false);
  }

  private async exec(op: HostedOp, again: boolean): Promise<void> {
    this.currentOp = again ? `again: ${opLabel(op)}` : opLabel(op);
    this.opNumber++;
    const done = await this.perform(op);
    if (done && !again && !WRITES.has(op.k)) this.reads.push(op);
  }

  /** Performs one operation; false when it had nothing to act on (no request sent). */
  private async perform(op: HostedOp): Promise<boolean> {
    switch (op.k) {
      case 'createConversation': {
        // Forced gaps: a creation at least 2 ms after the previous one, so that a service stamping
        // in milliseconds gives distinct createdAt values (newest-first is judged only between them).
        await new Promise((resolve) => setTimeout(resolve, 2));
        const userId = `${op.user === 0 ? 'u' : 'U'}-${this.tag}`;
        const a = await this.call('POST', '/conversations', { userId });
        if (!is2xx(a) || !isJsonObject(a.json) || typeof a.json.id !== 'string') return true;
        this.userIdReadBack(a, a.json, userId, 'create_conversation');
        const createdAt = timeOf(a.json.createdAt);
        const conv: Conv = { id: a.json.id, userId, deleted: false, messages: [], maybe: [], awaitingBound: false, steps: [], ...(createdAt !== undefined ? { createdAt } : {}) };
        if (createdAt !== undefined) {
          this.firstCreatedAt ??= createdAt;
          for (const c of this.convs) {
            if (!c.awaitingBound) continue;
            c.bound = createdAt;
            c.awaitingBound = false;
          }
        }
        this.convs.push(conv);
        return true;
      }
      case 'listConversations':
        return this.listConversations(op.limit);
      case 'getConversationMetadata': {
        const c = this.conv(op.c, false);
        if (c === undefined) return false;
        const a = await this.call('GET', `/conversations/${seg(c.id)}`);
        if (c.deleted === false) {
          this.must2xx(a, 'get_conversation_metadata');
          if (isJsonObject(a.json)) this.userIdReadBack(a, a.json, c.userId, 'get_conversation_metadata');
        } else if (is2xx(a) && isJsonObject(a.json) && a.json.id === c.id && !markedDeleted(a.json)) {
          this.fail('deleted-conversation-read', 'get_conversation_metadata', ['HOSTED-READBACK', 'HOSTED-ENDPOINT-delete_conversation'],
            `get_conversation_metadata (${req(a)}) after delete_conversation answered ${said(a)}: the deleted conversation read back as live (a deleted conversation may answer 404/410 or a soft-deleted record, never itself unmarked)`, a, 'no live conversation (404, 410, or marked deleted)');
        }
        return true;
      }
      case 'deleteConversation': {
        const c = this.conv(op.c, false);
        if (c === undefined) return false;
        const times = op.twice ? 2 : 1;
        for (let i = 0; i < times; i++) {
          const a = await this.call('DELETE', `/conversations/${seg(c.id)}`);
          if (c.deleted === true) {
            // SPEC-V5-5.1.3: idempotent: a repeated delete has the effect of one. silent: its answer —
            // 2xx again or 404/410 (RFC 9110 §9.2.2: the answers of an idempotent request may differ) — never a server error.
            if (a.status >= 500) {
              this.fail('delete-idempotent', 'delete_conversation', ['SPEC-V5-5.1.3'],
                `delete_conversation (${req(a)}) again answered ${said(a)}, where the first delete of the same conversation answered ${c.deletedWith}: delete_conversation MUST be idempotent (a repeated delete answers as the first, or that the conversation is gone; never a server error)`, a, `${c.deletedWith} (as the first delete), or 404/410`);
            }
          } else if (is2xx(a)) {
            c.deleted = true;
            c.deletedWith = a.status;
          } else c.deleted = 'unknown';
        }
        return true;
      }
      case 'addMessage': {
        const c = this.conv(op.c, true);
        if (c === undefined) return false;
        const m = { role: ROLES[op.role]!, content: CONTENTS[op.content]! };
        const a = await this.call('POST', `/conversations/${seg(c.id)}/messages`, m);
        if (is2xx(a)) c.messages.push(m);
        else c.maybe.push({ messages: [m], cap: 1, why: `add_message refused with ${a.status}` });
        c.awaitingBound = true;
        delete c.bound;
        return true;
      }
      case 'bulkAddMessages':
        return this.bulk(op);
      case 'getConversation':
        return this.getConversation(op.c, op.limit);
      case 'searchMessages':
        return this.searchMessages(op);
      case 'getContext': {
        const c = this.conv(op.c, false);
        if (c === undefined) return false;
        // Read for its effect on caches; what a context holds is silent (context-recent-window).
        await this.call('GET', `/conversations/${seg(c.id)}/context`);
        return true;
      }
      case 'addEntity': {
        const name = `${NAMES[op.name]!} ${this.tag}`;
        const type = TYPES[op.type]!;
        // silent: the body of add_entity; `type` and `entityType` are both common readings.
        const a = await this.call('POST', '/entities', { name, type, entityType: type });
        if (is2xx(a) && isJsonObject(a.json) && typeof a.json.id === 'string') this.ents.push({ id: a.json.id, name, type, deleted: false, unknown: false, refusedScores: [] });
        return true;
      }
      case 'getEntity':
        return this.getEntity(op.e);
      case 'listEntities':
        return this.listEntities(op);
      case 'updateEntity': {
        const e = this.ent(op.e, true);
        if (e === undefined) return false;
        const name = `${NAMES[op.name]!} ${this.tag}`;
        const a = await this.call('PUT', `/entities/${seg(e.id)}`, { name, type: e.type, entityType: e.type });
        if (is2xx(a)) {
          if (name !== e.name) e.renamedFrom = e.name;
          else delete e.renamedFrom;
          e.name = name;
        } else e.unknown = true;
        return true;
      }
      case 'deleteEntity': {
        const e = this.ent(op.e, true);
        if (e === undefined) return false;
        const a = await this.call('DELETE', `/entities/${seg(e.id)}`);
        if (is2xx(a)) e.deleted = true;
        else e.unknown = true;
        return true;
      }
      case 'searchEntities':
        return this.searchEntities(op);
      case 'setFeedback': {
        const e = this.ent(op.e, true);
        if (e === undefined) return false;
        const score = SCORES[op.score % SCORES.length]!;
        const a = await this.call('PUT', `/entities/${seg(e.id)}/feedback`, { userScore: score, confirmed: true });
        const outside = score < 0 || score > 1;
        if (outside && is2xx(a)) {
          this.fail('feedback-range', 'set_entity_feedback', ['SPEC-V5-5.3.1b'],
            `set_entity_feedback (${req(a)}) with userScore ${score}, outside [0, 1], answered ${said(a)}: user_score is in [0, 1] (SPEC-5.3.1), so a score outside it is refused and not stored`, a, 'a refusal (not 2xx)');
        }
        if (outside) e.refusedScores.push(score);
        return true;
      }
      case 'mergeEntities': {
        const e = this.ent(op.e, true);
        const into = this.ent(op.into, true);
        if (e === undefined || into === undefined || e === into) return false;
        const a = await this.call('POST', `/entities/${seg(e.id)}/merge`, { targetId: into.id });
        // silent (merge-source-lookup): what becomes of the source; a refused merge: of both.
        e.unknown = true;
        if (!is2xx(a)) into.unknown = true;
        return true;
      }
      case 'getEntityGraph': {
        const a = await this.call('GET', '/entities/graph');
        this.must2xx(a, 'get_entity_graph');
        const nodes = isJsonObject(a.json) && Array.isArray(a.json.nodes) ? a.json.nodes.filter(isJsonObject) : [];
        for (const e of this.ents.filter((x) => x.deleted && !x.unknown)) {
          if (nodes.some((n) => n.id === e.id && !markedDeleted(n))) {
            this.fail('deleted-entity-listed', 'get_entity_graph', ['HOSTED-READBACK', 'HOSTED-ENDPOINT-delete_entity'], `get_entity_graph (${req(a)}) still has the entity ${e.id} (${short(e.name, 60)}) as a node after delete_entity`, a, 'no such node');
          }
        }
        return true;
      }
      case 'getEntityHistory': {
        const e = this.ent(op.e, true);
        if (e === undefined) return false;
        const a = await this.call('GET', `/entities/${seg(e.id)}/history`);
        this.refusedScoreShown(a, e, 'get_entity_history');
        return true;
      }
      case 'recordStep': {
        const c = this.conv(op.c, true);
        if (c === undefined) return false;
        const a = await this.call('POST', '/reasoning/steps', { conversationId: c.id, reasoning: `looked at ${this.tag}`, actionTaken: 'search memory', result: 'found it' });
        // A step may count as activity of its conversation (silent: conversation-newest).
        c.awaitingBound = true;
        delete c.bound;
        if (is2xx(a) && isJsonObject(a.json) && typeof a.json.id === 'string') {
          c.steps.push(a.json.id);
          this.steps.push({ id: a.json.id, conv: c });
        }
        return true;
      }
      case 'listSteps': {
        const c = this.conv(op.c, true);
        if (c === undefined) return false;
        const a = await this.call('GET', `/reasoning/steps?conversationId=${seg(c.id)}`);
        this.must2xx(a, 'list_steps');
        const items = (a.isJson ? listItems(a.json, ['steps']) : undefined) ?? [];
        // silent (platinum-list-default): a page of any size; judged only on an answer shorter than the clients' page.
        if (items.length < 100) {
          for (const id of c.steps) {
            if (!items.some((s) => s.id === id)) this.fail('step-kept', 'list_steps', ['SPEC-V5-5.4.1'], `list_steps (${req(a)}) does not list the step ${id} recorded under the conversation ${c.id}: record_step MUST persist the step under the conversation`, a, id);
          }
        }
        return true;
      }
      case 'explainStep': {
        const live = this.steps.filter((s) => s.conv.deleted === false);
        const s = live.length === 0 ? undefined : live[op.s % live.length];
        if (s === undefined) return false;
        const a = await this.call('GET', `/reasoning/explain/${seg(s.id)}`);
        this.must2xx(a, 'explain_step');
        return true;
      }
      case 'getTrace': {
        const c = this.conv(op.c, true);
        if (c === undefined) return false;
        const a = await this.call('GET', `/reasoning/trace/${seg(c.id)}`);
        this.must2xx(a, 'get_trace_by_conversation');
        for (const id of c.steps) {
          if (!holds(a.json, id)) this.fail('trace-all-steps', 'get_trace_by_conversation', ['SPEC-V5-5.4.3'], `get_trace_by_conversation (${req(a)}) does not hold the step ${id} recorded under the conversation: it MUST return all steps of the conversation`, a, id);
        }
        return true;
      }
      case 'again':
        return false;
    }
  }

  /** A conversation shows the userId it was created with (when it shows one): namesakes differing in case stay apart. */
  private userIdReadBack(a: Answer, body: Json, userId: string, operation: string): void {
    if (typeof body.userId === 'string' && body.userId !== userId) {
      this.fail('user-id-readback', operation, ['HOSTED-RESOURCE-Conversation.userId', 'SPEC-V5-5.1.1'],
        `${operation} (${req(a)}) shows the conversation ${String(body.id)} with userId ${JSON.stringify(body.userId)}, created with ${JSON.stringify(userId)}: a conversation keeps the userId supplied when creating it`, a, JSON.stringify(userId));
    }
  }

  private async listConversations(limit: number | undefined): Promise<boolean> {
    const a = await this.call('GET', `/conversations${limit === undefined ? '' : `?limit=${limit}`}`);
    this.must2xx(a, 'list_conversations');
    const items = (a.isJson ? listItems(a.json, ['conversations']) : undefined) ?? [];
    const at = new Map<unknown, number>();
    items.forEach((x, i) => at.set(x.id, i));
    for (const c of this.convs) {
      const item = items.find((x) => x.id === c.id);
      if (c.deleted === false && item !== undefined) this.userIdReadBack(a, item, c.userId, 'list_conversations');
      if (c.deleted === true && item !== undefined && !markedDeleted(item)) {
        this.fail('deleted-conversation-listed', 'list_conversations', ['HOSTED-READBACK', 'HOSTED-ENDPOINT-delete_conversation'], `list_conversations (${req(a)}) still lists the conversation ${c.id} after delete_conversation`, a, 'not listed');
      }
    }
    // SPEC-V5-5.1.2, newest first. silent (conversation-newest): by createdAt or by last activity;
    // a pair is judged only where both readings agree (y created after x's last write, by the
    // service's own createdAt), and silent (platinum-list-default): any page, kept from the newest end.
    const live = this.convs.filter((c) => c.deleted === false && c.createdAt !== undefined);
    const olderBound = (x: Conv): number | undefined => (x.awaitingBound ? undefined : x.bound ?? x.createdAt);
    for (const x of live) {
      const ix = at.get(x.id);
      if (ix === undefined) continue;
      const bx = olderBound(x);
      if (bx === undefined) continue;
      for (const y of live) {
        if (y === x || y.createdAt! <= bx) continue;
        const iy = at.get(y.id);
        if (iy === undefined || iy > ix) {
          this.fail('newest-first', 'list_conversations', ['SPEC-V5-5.1.2'],
            `list_conversations (${req(a)}) ${iy === undefined ? `holds ${x.id} but not ${y.id}, created after it` : `lists ${x.id} before ${y.id}, created after it`} (createdAt ${new Date(x.createdAt!).toISOString()} and ${new Date(y.createdAt!).toISOString()}, by the service's answers): conversations come newest first, so a page holds the newest`,
            a, `${y.id} before ${x.id}`);
        }
      }
    }
    // Conversations made before this sequence, which it never wrote to, are older than every one it made after its first.
    const first = this.firstCreatedAt;
    const strangers = items.filter((x) => typeof x.id === 'string' && !this.convs.some((c) => c.id === x.id) && !markedDeleted(x));
    if (first !== undefined && strangers.length > 0) {
      const lastStranger = Math.max(...strangers.map((x) => at.get(x.id)!));
      for (const y of live) {
        if (y.createdAt! <= first) continue;
        const iy = at.get(y.id);
        if (iy === undefined || iy > lastStranger) {
          this.fail('newest-first', 'list_conversations', ['SPEC-V5-5.1.2'],
            `list_conversations (${req(a)}) ${iy === undefined ? `holds a conversation made before this sequence (${String(items[lastStranger]!.id)}) but not ${y.id}, created during it` : `lists a conversation made before this sequence (${String(items[lastStranger]!.id)}) before ${y.id}, created during it`}: conversations come newest first, so a page holds the newest`,
            a, `${y.id} listed first`);
        }
      }
    }
    return true;
  }

  private async bulk(op: Extract<HostedOp, { k: 'bulkAddMessages' }>): Promise<boolean> {
    const c = this.conv(op.c, true);
    if (c === undefined) return false;
    const over = op.size > 100;
    const messages: Written[] = Array.from({ length: op.size }, (_, i) => ({
      role: ROLES[i % ROLES.length]!,
      // Past the cap, every message is its own (counted one by one when read back).
      content: over || op.size === 100 ? `bulk ${i} ${this.tag} memory` : CONTENTS[(op.first + i) % CONTENTS.length]!,
    }));
    const a = await this.call('POST', `/conversations/${seg(c.id)}/messages/bulk`, { messages });
    c.awaitingBound = true;
    delete c.bound;
    if (!is2xx(a)) {
      c.maybe.push({ messages, cap: Math.min(100, messages.length), why: `bulk_add_messages of ${messages.length} refused with ${a.status}` });
      return true;
    }
    const answered = a.isJson ? messagesIn(a.json) : [];
    if (over) {
      if (answered.length > 100) {
        this.fail('bulk-cap', 'bulk_add_messages', ['SPEC-V5-5.1.4'], `bulk_add_messages (${req(a)}) of ${messages.length} messages answered ${a.status} with ${answered.length} messages: it MUST cap its input at 100 messages (none stored past 100)`, a, 'at most 100 messages (or a refusal)');
      }
      c.maybe.push({ messages, cap: 100, why: `bulk_add_messages of ${messages.length}, past the cap` });
      return true;
    }
    c.messages.push(...messages);
    // SPEC-V5-5.1.4: the messages returned in insertion order. silent: whether the answer lists them at all.
    if (answered.length > 0) {
      const sent = messages.map((m) => m.content);
      const got = answered.map((m) => m.content);
      const changed = messages.map((m) => ({ m, near: nearest(m, answered) })).find((x) => x.near !== undefined && !got.includes(x.m.content));
      if (changed !== undefined) {
        this.fail('bulk-content', 'bulk_add_messages', ['SPEC-V5-5.1.4', 'HOSTED-READBACK'],
          `bulk_add_messages (${req(a)}) answered the message ${showMessage(changed.m)} as ${short(changed.near!.content, 80)}: ${changed.near!.how}; it MUST return the messages sent, as sent`, a, showMessage(changed.m));
      }
      if (got.length !== sent.length || got.some((x, i) => x !== sent[i])) {
        this.fail('bulk-order', 'bulk_add_messages', ['SPEC-V5-5.1.4'],
          `bulk_add_messages (${req(a)}) answered its ${sent.length} messages with contents ${short(got.map((x) => short(x, 30)), 300)}, not in the order sent (${short(sent.map((x) => short(x, 30)), 300)}): it MUST return them in insertion order`, a, short(sent, 300));
      }
    }
    return true;
  }

  private async getConversation(ref: number, limit: number | undefined): Promise<boolean> {
    const c = this.conv(ref, false);
    if (c === undefined) return false;
    const a = await this.call('GET', `/conversations/${seg(c.id)}/messages${limit === undefined ? '' : `?limit=${limit}`}`);
    const cites = ['HOSTED-READBACK', 'HOSTED-ENDPOINT-get_conversation'];
    if (c.deleted === true) {
      const all = [...c.messages, ...c.maybe.flatMap((g) => g.messages)].map(keyOf);
      const left = is2xx(a) ? messagesIn(a.json).filter((m) => all.includes(keyOf(m))) : [];
      if (left.length > 0) this.fail('deleted-messages-read', 'get_conversation', [...cites, 'HOSTED-ENDPOINT-delete_conversation'], `get_conversation (${req(a)}) after delete_conversation still reads ${left.length} of its messages: ${short(left.map((m) => m.content), 200)}`, a, 'no messages');
      return true;
    }
    this.must2xx(a, 'get_conversation');
    const read = messagesIn(a.json);
    const counts = new Map<string, number>();
    for (const m of read) counts.set(keyOf(m), (counts.get(keyOf(m)) ?? 0) + 1);
    const written = new Map<string, number>();
    for (const m of c.messages) written.set(keyOf(m), (written.get(keyOf(m)) ?? 0) + 1);
    const maybe = new Map<string, number>();
    for (const g of c.maybe) for (const m of g.messages) maybe.set(keyOf(m), (maybe.get(keyOf(m)) ?? 0) + 1);
    // Every message written is read back, when the read asks for more than the conversation holds.
    // silent (limit-window, platinum-list-default): a smaller limit keeps either end; no limit, a page of any size.
    const total = c.messages.length + c.maybe.reduce((s, g) => s + g.messages.length, 0);
    if (limit !== undefined && limit >= 100 && total <= 100) {
      for (const [k, n] of written) {
        const got = counts.get(k) ?? 0;
        if (got < n) {
          const m = c.messages.find((x) => keyOf(x) === k)!;
          const instead = nearest(m, read);
          this.fail('message-once', 'get_conversation', cites,
            `get_conversation (${req(a)}): the message ${showMessage(m)} is read back ${got} times, expected ${n === 1 ? 'once' : `${n} times`} (${read.length} messages read of ${c.messages.length} written${got === 0 && instead !== undefined ? `; read back instead: ${short(instead.content, 80)}, ${instead.how}` : ''})`, a, showMessage(m));
        }
      }
    }
    // Never more often than written (each message once), and never a message that was not written.
    for (const m of read) {
      const k = keyOf(m);
      const n = counts.get(k)!;
      const most = (written.get(k) ?? 0) + (maybe.get(k) ?? 0);
      if (n > most) {
        const source = most === 0 ? [...c.messages, ...c.maybe.flatMap((g) => g.messages)].map((w) => ({ w, near: nearest(w, [m]) })).find((x) => x.near !== undefined) : undefined;
        this.fail('message-once', 'get_conversation', cites,
          most === 0
            ? `get_conversation (${req(a)}) reads back a message never written to this conversation: {role: ${JSON.stringify(m.role)}, content: ${short(m.content, 80)}}${source !== undefined ? ` — the message ${showMessage(source.w)} ${source.near!.how}` : ''} (what is written is read back as written, role and content)`
            : `get_conversation (${req(a)}) reads back the message {role: ${JSON.stringify(m.role)}, content: ${short(m.content, 80)}} ${n} times, written ${most} time(s): each message is read back once`,
          a, most === 0 ? 'only messages written' : `${most} time(s)`);
      }
    }
    for (const g of c.maybe) {
      const n = g.messages.filter((m) => (counts.get(keyOf(m)) ?? 0) > (written.get(keyOf(m)) ?? 0)).length;
      if (g.cap === 100 && n > 100) this.fail('bulk-cap', 'bulk_add_messages', ['SPEC-V5-5.1.4', ...cites], `get_conversation (${req(a)}) reads back ${n} messages of one bulk_add_messages of ${g.messages.length}: it MUST cap its input at 100 messages`, a, 'at most 100');
    }
    return true;
  }

  private async searchMessages(op: Extract<HostedOp, { k: 'searchMessages' }>): Promise<boolean> {
    const c = this.conv(op.c, true);
    if (c === undefined) return false;
    const path = `/conversations/${seg(c.id)}/search`;
    await this.limitRead('search_messages', 'SPEC-2.3.3', path, 'memory', op.limit, op.threshold);
    return true;
  }

  /**
   * A search's limit: a service shows it reads `limit` when the same query in the same state
   * answers more hits at limit 100 than at a smaller limit k, and no more than k; such a service
   * then answers no more than k with a threshold as well. silent: a service may read no limit (and no threshold) at all.
   */
  private async limitRead(operation: string, clause: string, path: string, query: string, k: number, threshold: number): Promise<void> {
    const count = (a: Answer) => (is2xx(a) && a.isJson ? (listItems(a.json, ['messages', 'entities', 'results']) ?? []).length : undefined);
    const wide = await this.call('POST', path, { query, limit: 100 });
    const narrow = await this.call('POST', path, { query, limit: k });
    const withThreshold = await this.call('POST', path, { query, limit: k, threshold });
    const [nw, nn, nt] = [count(wide), count(narrow), count(withThreshold)];
    if (nw === undefined || nn === undefined || nt === undefined) return;
    const readsLimit = nw > k && nn <= k;
    if (readsLimit && nt > k) {
      this.fail('search-limit', operation, [clause],
        `${operation} (${req(withThreshold)} ${short(withThreshold.body)}) answered ${nt} hits for limit ${k} with a threshold, while the same query without one answers ${nn} for limit ${k} and ${nw} for limit 100: a search returns no more results than its limit, with or without a threshold`,
        withThreshold, `at most ${k} hits`);
    }
  }

  private async getEntity(ref: number): Promise<boolean> {
    const e = this.ents.filter((x) => !x.unknown);
    const ent = e.length === 0 ? undefined : e[ref % e.length];
    if (ent === undefined) return false;
    const a = await this.call('GET', `/entities/${seg(ent.id)}`);
    if (ent.deleted) {
      if (is2xx(a) && isJsonObject(a.json) && a.json.id === ent.id && !markedDeleted(a.json)) {
        this.fail('deleted-entity-read', 'get_entity', ['HOSTED-READBACK', 'HOSTED-ENDPOINT-delete_entity'], `get_entity (${req(a)}) after delete_entity answered ${said(a)}: the deleted entity read back as live`, a, 'no live entity (404, 410, or marked deleted)');
      }
      return true;
    }
    this.must2xx(a, 'get_entity');
    const cites = ['HOSTED-READBACK', ent.renamedFrom !== undefined ? 'HOSTED-ENDPOINT-update_entity' : 'HOSTED-ENDPOINT-add_entity'];
    const body = isJsonObject(a.json) ? a.json : {};
    const nameOk = typeof body.name === 'string' ? body.name === ent.name : holds(body, ent.name);
    if (!nameOk) {
      this.fail('entity-readback', 'get_entity', cites, `get_entity (${req(a)}): the name written ${JSON.stringify(ent.name)} is not read back (name ${JSON.stringify(body.name)})${ent.renamedFrom !== undefined ? ` after update_entity renamed it from ${JSON.stringify(ent.renamedFrom)}` : ''}`, a, JSON.stringify(ent.name));
    }
    const type = typeof body.type === 'string' ? body.type : typeof body.entityType === 'string' ? body.entityType : undefined;
    // silent (hosted): the casing a service keeps a type in (PERSON, person).
    if (type !== undefined && type.toLowerCase() !== ent.type.toLowerCase()) {
      this.fail('entity-readback', 'get_entity', cites, `get_entity (${req(a)}): the type written ${JSON.stringify(ent.type)} reads back as ${JSON.stringify(type)} (any casing is accepted)`, a, JSON.stringify(ent.type));
    }
    this.refusedScoreShown(a, ent, 'get_entity');
    return true;
  }

  private refusedScoreShown(a: Answer, e: Ent, operation: string): void {
    if (!is2xx(a)) return;
    for (const s of e.refusedScores) {
      if (hasPair(a.json, 'userScore', s)) this.fail('feedback-range', operation, ['SPEC-V5-5.3.1b'], `${operation} (${req(a)}) shows userScore ${s}, outside [0, 1], which set_entity_feedback was given for ${e.id}: a score outside [0, 1] is not stored`, a, `no userScore ${s}`);
    }
  }

  private async listEntities(op: Extract<HostedOp, { k: 'listEntities' }>): Promise<boolean> {
    const type = TYPES[op.type]!;
    const wide = await this.call('GET', `/entities?type=${seg(type)}&limit=100`);
    this.must2xx(wide, 'list_entities');
    const narrow = await this.call('GET', `/entities?type=${seg(type)}&limit=${op.limit}`);
    this.must2xx(narrow, 'list_entities');
    for (const a of [wide, narrow]) {
      const items = (a.isJson ? listItems(a.json, ['entities']) : undefined) ?? [];
      for (const e of this.ents.filter((x) => !x.deleted && !x.unknown)) {
        const item = items.find((x) => x.id === e.id);
        if (item !== undefined && typeof item.name === 'string' && item.name !== e.name) {
          this.fail('entity-listed-readback', 'list_entities', ['HOSTED-READBACK', e.renamedFrom !== undefined ? 'HOSTED-ENDPOINT-update_entity' : 'HOSTED-ENDPOINT-add_entity'],
            `list_entities (${req(a)}) shows the entity ${e.id} with the name ${JSON.stringify(item.name)}, not the name written ${JSON.stringify(e.name)}${e.renamedFrom !== undefined ? ` (update_entity renamed it from ${JSON.stringify(e.renamedFrom)})` : ''}`, a, JSON.stringify(e.name));
        }
      }
      for (const e of this.ents.filter((x) => x.deleted && !x.unknown)) {
        if (items.some((x) => x.id === e.id && !markedDeleted(x))) this.fail('deleted-entity-listed', 'list_entities', ['HOSTED-READBACK', 'HOSTED-ENDPOINT-delete_entity'], `list_entities (${req(a)}) still lists the entity ${e.id} after delete_entity`, a, 'not listed');
      }
    }
    // The type filter goes before the limit: a limit of k keeps min(k, m) of the m entities the
    // same filter lists at the clients' page. silent: a service may read neither ?type nor ?limit.
    const m = ((wide.isJson ? listItems(wide.json, ['entities']) : undefined) ?? []).length;
    const j = ((narrow.isJson ? listItems(narrow.json, ['entities']) : undefined) ?? []).length;
    if (j < Math.min(op.limit, m)) {
      this.fail('entities-type-limit', 'list_entities', ['SPEC-V3-list_entities', 'HOSTED-ENDPOINT-list_entities'],
        `list_entities (${req(narrow)}) answered ${j} entities, while ${req(wide)} answers ${m}: a limit of ${op.limit} keeps ${Math.min(op.limit, m)} of those of type ${JSON.stringify(type)} — the limit was applied before the type filter`, narrow, `${Math.min(op.limit, m)} entities`);
    }
    return true;
  }

  private async searchEntities(op: Extract<HostedOp, { k: 'searchEntities' }>): Promise<boolean> {
    const e = this.ent(op.e, true);
    if (e === undefined) return false;
    const a = await this.call('POST', '/entities/search', { query: e.name, limit: 100 });
    if (is2xx(a) && a.isJson) {
      const hits = listItems(a.json, ['entities', 'results']) ?? [];
      if (!hits.some((x) => hitId(x) === e.id)) {
        this.fail('search-finds-name', 'search_entities', ['SPEC-3.4.1', 'HOSTED-ENDPOINT-search_entities'],
          `search_entities (${req(a)} ${short(a.body)}) does not find the entity ${e.id} by its ${e.renamedFrom !== undefined ? `new name ${JSON.stringify(e.name)} (update_entity renamed it from ${JSON.stringify(e.renamedFrom)})` : `name ${JSON.stringify(e.name)}`}: ${hits.length} hits; a search finds the entities that match its query`,
          a, e.id);
      }
    }
    await this.limitRead('search_entities', 'SPEC-3.4.2', '/entities/search', this.tag, op.limit, op.threshold);
    return true;
  }
}

/** A read message that is a written one changed by the store (NFKC-normalised, cut, trimmed), and how. */
function nearest(m: Written, read: readonly Json[]): { content: string; how: string } | undefined {
  for (const r of read) {
    if (typeof r.content !== 'string' || r.role !== m.role || r.content === m.content) continue;
    const got = r.content;
    if (got === m.content.normalize('NFKC')) return { content: got, how: 'NFKC-normalised' };
    if (got === m.content.normalize('NFC') || got === m.content.normalize('NFD')) return { content: got, how: `normalised to ${got === m.content.normalize('NFC') ? 'NFC' : 'NFD'}` };
    if (got.length < m.content.length && m.content.startsWith(got)) return { content: got, how: `cut at ${got.length} characters of ${m.content.length}` };
    if (got === m.content.trim()) return { content: got, how: 'trimmed' };
    if (got === m.content.replace(/\p{Cc}/gu, '')) return { content: got, how: 'stripped of control characters' };
  }
  return undefined;
}

// ------------------------------------------------------------------ the exploration

export interface HostedFinding {
  rule: string;
  operation: string;
  cites: string[];
  message: string;
  request: { method: string; url: string; body?: unknown };
  got: { status: number; body: string };
  expected: string;
  /** The minimal sequence of operations, and the requests it sent. */
  sequence: string[];
  requests: StepLine[];
  seed: number;
  sequenceIndex: number;
  shrunkFrom: number;
  exchanges: RestExchange[];
  /** The minimal sequence failed again when replayed. */
  replayed: boolean;
}

export interface HostedExploreOptions {
  baseUrl: string;
  apiKey: string;
  seed: number;
  runs: number;
  maxSteps: number;
  timeBudgetMs: number;
  requestTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (p: { sequences: number; requests: number; findings: number; elapsedMs: number }) => void;
  /** Stops exploring once a finding satisfies it (tests that look for one fault). */
  stopWhen?: (finding: HostedFinding) => boolean;
  /**
   * Called with every request sent, once answered: the exchange (`method` the document's operation,
   * as the hosted profile records it; `httpMethod`, absolute `url`, `requestBody`, `status`,
   * `responseText`, `credential` in words), and which run of which sequence sent it. `attempt`
   * numbers every run of a sequence (the first, each shrinking try, the replay) from 0; `cleanup`:
   * a delete of what the run made, after it.
   */
  onExchange?: (exchange: RestExchange, from: { sequence: number; attempt: number; cleanup: boolean }) => void;
}

/** The credential every explored request carries, in the words the coverage matrix reads. */
const RUN_KEY = "the run's API key";

export interface HostedExploreResult {
  seed: number;
  sequences: number;
  requests: number;
  durationMs: number;
  stoppedBy: 'completed' | 'time-budget' | 'interrupted';
  findings: HostedFinding[];
  /** How each endpoint answered: "POST /conversations/{id}/messages" -> status -> count. */
  statuses: Record<string, Record<string, number>>;
}

const LITERALS = new Set(['conversations', 'messages', 'bulk', 'search', 'context', 'entities', 'feedback', 'merge', 'graph', 'history', 'reasoning', 'steps', 'explain', 'trace']);
/** The endpoint of a path: its ids as {id}. */
const endpointOf = (method: string, path: string) => `${method} ${path.split('?')[0]!.split('/').map((p) => (p === '' || LITERALS.has(p) ? p : '{id}')).join('/')}`;

/** Explores the hosted service at `baseUrl` (checked beforehand: reachable, credential accepted). */
export async function exploreHosted(options: HostedExploreOptions): Promise<HostedExploreResult> {
  const started = Date.now();
  const deadline = started + options.timeBudgetMs;
  const client = new RestClient({ ...(options.requestTimeoutMs !== undefined ? { timeoutMs: options.requestTimeoutMs } : {}) });
  client.learn(options.apiKey);
  let recording: RestExchange[] | undefined;
  /** Who sends now, for onExchange. */
  const from = { sequence: -1, attempt: -1, cleanup: false };
  const statuses: Record<string, Record<string, number>> = {};
  const transport: Transport = {
    async send(method, path, body, record) {
      const operation = operationOf(method, path) ?? `${method} ${path.split('?')[0]}`;
      const r = await client.request({ method, url: `${options.baseUrl}${path}`, operation, authorization: `Bearer ${options.apiKey}`, credential: RUN_KEY, ...(body !== undefined ? { body } : {}), ...(options.signal ? { signal: options.signal } : {}) });
      if (record) recording?.push(r.exchange);
      options.onExchange?.(r.exchange, { ...from });
      const ep = (statuses[endpointOf(method, path)] ??= {});
      const st = r.outcome.kind === 'transport' ? 'no answer' : String(r.outcome.status);
      ep[st] = (ep[st] ?? 0) + 1;
      ep.ms = Math.round((ep.ms ?? 0) + r.exchange.durationMs);
      if (r.outcome.kind === 'transport') throw new HostedTransportError(`${method} ${path}: ${r.outcome.reason}`);
      return { status: r.outcome.status, text: r.outcome.text, json: r.outcome.json, isJson: r.outcome.isJson };
    },
  };
  let requests = 0;
  let tags = 0;
  const runTag = (Date.now() % 1_000_000).toString(36);
  /** One sequence: its violation (if any) and the index of the operation that broke the rule. */
  const attempt = async (ops: readonly HostedOp[], record = false): Promise<{ violation?: HostedViolation; at: number; run: SequenceRun }> => {
    from.attempt = tags;
    from.cleanup = false;
    const run = new SequenceRun(transport, `t${runTag}${(tags++).toString(36)}`, record);
    let at = -1;
    try {
      for (const [i, op] of ops.entries()) {
        at = i;
        await run.step(op);
      }
      return { at, run };
    } catch (err) {
      if (err instanceof HostedViolation) return { violation: err, at, run };
      throw err;
    } finally {
      requests += run.requests;
      from.cleanup = true;
      try {
        await run.cleanup();
      } catch {
        /* cleanup is best effort */
      }
    }
  };

  const findings: HostedFinding[] = [];
  const known = new Set<string>();
  let sequences = 0;
  const stopped = () => options.signal?.aborted === true || Date.now() >= deadline;
  try {
    for (let i = 0; i < options.runs && !stopped(); i++) {
      try {
        if (await sequence(i)) break;
      } catch (err) {
        // Interrupted mid-request: what was found so far is the result.
        if (err instanceof HostedTransportError && options.signal?.aborted === true) break;
        throw err;
      }
    }
  } finally {
    await client.close();
  }
  /** Sequence i: drawn, run, and when it breaks a rule not reported yet, shrunk and replayed; true: stop exploring. */
  async function sequence(i: number): Promise<boolean> {
    const seed = sequenceSeed(options.seed, i);
    const ops = drawSequence(seed, options.maxSteps);
    from.sequence = i;
    sequences++;
    options.onProgress?.({ sequences, requests, findings: findings.length, elapsedMs: Date.now() - started });
    const first = await attempt(ops);
    const v = first.violation;
    if (v === undefined) return false;
    const key = `${v.rule} ${v.operation}`;
    if (known.has(key)) return false;
    known.add(key);
    // Shrink: drop chunks of operations while the same rule still breaks (bounded: the budget, or 10 s past it, and 150 attempts).
    let best = ops.slice(0, first.at + 1);
    let tries = 0;
    const shrinkEnd = Math.max(deadline, Date.now() + 10_000);
    const stillFails = async (cand: HostedOp[]) => {
      tries++;
      const r = await attempt(cand);
      return r.violation !== undefined && `${r.violation.rule} ${r.violation.operation}` === key ? cand.slice(0, r.at + 1) : undefined;
    };
    for (let chunk = Math.max(1, Math.floor(best.length / 2)); chunk >= 1; chunk = chunk === 1 ? 0 : Math.max(1, Math.floor(chunk / 2))) {
      for (let start = 0; start < best.length && tries < 150 && Date.now() < shrinkEnd && options.signal?.aborted !== true; ) {
        const cand = [...best.slice(0, start), ...best.slice(start + chunk)];
        const kept = cand.length > 0 ? await stillFails(cand) : undefined;
        if (kept !== undefined) best = kept;
        else start += chunk;
      }
    }
    recording = [];
    const replay = await attempt(best, true);
    const exchanges = recording;
    recording = undefined;
    const found = replay.violation !== undefined && `${replay.violation.rule} ${replay.violation.operation}` === key ? replay.violation : v;
    findings.push({
      rule: found.rule, operation: found.operation, cites: [...found.cites], message: found.message + (found === v ? ' (the minimal sequence did not fail again when replayed: the fault may depend on timing)' : ''),
      request: found.request, got: found.got, expected: found.expected,
      sequence: best.map(opLabel), requests: replay.run.lines, seed: options.seed, sequenceIndex: i, shrunkFrom: first.at + 1,
      exchanges, replayed: found !== v,
    });
    options.onProgress?.({ sequences, requests, findings: findings.length, elapsedMs: Date.now() - started });
    return options.stopWhen?.(findings.at(-1)!) === true;
  }
  return {
    seed: options.seed, sequences, requests, durationMs: Date.now() - started,
    stoppedBy: options.signal?.aborted ? 'interrupted' : sequences < options.runs && Date.now() >= deadline ? 'time-budget' : 'completed',
    findings: findings.map((f) => ({ ...f, message: client.scrub(f.message) })),
    statuses,
  };
}
