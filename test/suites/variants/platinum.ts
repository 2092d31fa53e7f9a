// The variants that prove the power of the Platinum scenarios SCN-P-001 … SCN-P-011 and SCN-P-101 …
// SCN-P-109 (../platinum.test.ts): faulty variants of the hosted reference store (the store that
// implements Volume 5), each breaking exactly the rule one scenario checks, and valid variants
// making other allowed choices.
import { randomUUID } from 'node:crypto';
import { HostedStore } from '../../../src/servers/hosted/store.js';
import { compose, mapAnswers, mapRequest, mapResponse, runOnVariant, type Dispatch, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';

/** A clock one second further on each reading, so created_at values differ (and order is visible). */
function tickingStore(): HostedStore {
  let t = Date.parse('2026-01-01T00:00:00Z');
  return new HostedStore({ now: () => new Date((t += 1000)) });
}

/** A variant: a wrap over the hosted reference store (a store of its own, or a ticking clock, when asked). */
export type V = { wrap?: Wrap; ticking?: boolean; store?: () => HostedStore };
export const run = (v: V | undefined, ids: string[]) =>
  runOnVariant({ store: v?.store ? v.store() : v?.ticking ? tickingStore() : new HostedStore(), ...(v?.wrap ? { wrap: v.wrap } : {}) }, ids);

const w = (wrap: Wrap, ticking = false): V => ({ wrap, ticking });
export const intercept = (handle: (next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap => (next) => (m, b) => handle(next, m, b);

export const FAULTS: FaultRow<V>[] = [
  ['SCN-P-001', 'create_conversation answers user_id null', w(mapResponse('create_conversation', (b) => ({ ...b, user_id: null }))), /user_id/],
  ['SCN-P-001', 'conversations carry no workspace_id', w(mapAnswers((b, m) => (m.includes('conversation') && !Array.isArray(b) ? { ...b, workspace_id: null } : b))), /workspace_id/],
  ['SCN-P-101', 'the workspace_id is per conversation, not per key', w(mapResponse('create_conversation', (b) => ({ ...b, workspace_id: `ws-${b.id}` }))), /workspace_id/],
  ['SCN-P-002', 'list_conversations lists oldest first', w(mapResponse('list_conversations', (b) => b.reverse()), true), /newest first/],
  ['SCN-P-002', 'list_conversations leaves out the newest conversation', w(mapResponse('list_conversations', (b) => b.slice(1))), /missing/],
  ['SCN-P-003', 'delete_conversation answers 204 but deletes nothing', w(intercept((next, m, b) => (m === 'delete_conversation' ? { status: 204 } : next(m, b)))), /still listed/],
  ['SCN-P-003', 'a second delete_conversation is an error', w(stateDelete()), /delete_conversation/],
  ['SCN-P-004', 'bulk_add_messages answers the messages in reverse order', w(mapResponse('bulk_add_messages', (b) => b.reverse())), /in order/],
  ['SCN-P-102', 'bulk_add_messages takes 101 messages (no cap)', w(splitBulk()), /101 messages/],
  ['SCN-P-005', 'get_context answers no recent messages', w(mapResponse('get_context', (b) => ({ ...b, recent_messages: [] }))), /recent_messages/],
  ['SCN-P-006', "get_observations lists another conversation's observations", w(mapResponse('get_observations', (b) => b.map((o: any) => ({ ...o, conversation_id: 'another' })))), /another conversation/],
  ['SCN-P-007', 'set_entity_feedback answers updated: false', w(mapResponse('set_entity_feedback', (b) => ({ ...b, updated: false }))), /updated/],
  ['SCN-P-007', 'set_entity_feedback answers another id', w(mapResponse('set_entity_feedback', (b) => ({ ...b, id: randomUUID() }))), /set_entity_feedback/],
  ['SCN-P-103', 'set_entity_feedback clamps user_score into [0, 1] instead of refusing', w(mapRequest('set_entity_feedback', (b) => ({ ...b, user_score: Math.min(1, Math.max(0, b.user_score)) }))), /user_score 1\.5/],
  ['SCN-P-008', 'get_entity_graph answers no edges', w(mapResponse('get_entity_graph', (b) => ({ ...b, edges: [] }))), /WORKS_AT.*: no edge from "Alice Graph" \([0-9a-f]{8}…\) to "Acme Graph" \([0-9a-f]{8}…\) among 0$/],
  ['SCN-P-008', 'get_entity_graph answers its edges the wrong way round', w(mapResponse('get_entity_graph', (b) => ({ ...b, edges: b.edges.map((e: any) => ({ ...e, source: e.target, target: e.source })) }))),
    /source and target swapped: the graph has "Acme Graph" \([0-9a-f]{8}…\) -WORKS_AT-> "Alice Graph" \([0-9a-f]{8}…\)$/],
  ['SCN-P-104', "get_entity_history lists only one conversation's mentions", w(mapResponse('get_entity_history', (b) => ({ ...b, mentions: b.mentions.slice(0, 1) }))), /conversations of its mentions/],
  ['SCN-P-104', 'get_entity_history lists every message as a mention', w(historyOfEverything()), /does not name it/],
  ['SCN-P-105', 'merge_entities leaves no SAME_AS link', w(mapResponse('get_entity_graph', (b) => ({ ...b, edges: b.edges.filter((e: any) => e.type !== 'SAME_AS') }))), /SAME_AS/],
  ['SCN-P-105', 'merge_entities answers source and target the wrong way round', w(mapResponse('merge_entities', (b) => ({ ...b, source_id: b.target_id, target_id: b.source_id }))),
    /merge_entities\("A\. Merge" -> "Alice Merge"\): source_id and target_id: source and target swapped: the answer goes from "Alice Merge" \([0-9a-f]{8}…\) to "A\. Merge"/],
  ['SCN-P-105', 'merge_entities answers an empty status', w(mapResponse('merge_entities', (b) => ({ ...b, status: '' }))), /status/],
  ['SCN-P-009', 'list_steps answers no steps', w(mapResponse('list_steps', () => [])), /list_steps/],
  ['SCN-P-009', 'record_step drops the result', w(mapResponse('record_step', (b) => ({ ...b, result: null }))), /echoes the step/],
  ['SCN-P-010', 'get_trace_by_conversation answers the steps newest first', w(mapResponse('get_trace_by_conversation', (b) => ({ ...b, steps: b.steps.reverse() }))), /in order/],
  ['SCN-P-010', 'get_trace_by_conversation answers another conversation_id', w(mapResponse('get_trace_by_conversation', (b) => ({ ...b, conversation_id: 'other' }))), /conversation_id/],
  ['SCN-P-106', "explain_step answers the step without its reasoning", w(mapResponse('explain_step', (b) => ({ ...b, reasoning: '' }))), /explain_step/],
  ['SCN-P-107', 'get_entity_provenance lists a step that does not exist', w(mapResponse('get_entity_provenance', (b) => ({
    ...b, steps: [...b.steps, { id: randomUUID(), conversation_id: 'nowhere', reasoning: '', action_taken: '', result: null, created_at: new Date().toISOString() }],
  }))), /not a step of its conversation/],
  ['SCN-P-107', 'get_entity_provenance answers another entity_id', w(mapResponse('get_entity_provenance', (b) => ({ ...b, entity_id: randomUUID() }))), /entity_id/],
  ['SCN-P-011', 'cypher_query names the column "count"', w(mapResponse('cypher_query', (b) => ({ ...b, columns: ['count'] }))), /columns/],
  ['SCN-P-011', 'cypher_query answers rows as objects', w(mapResponse('cypher_query', (b) => ({ ...b, rows: b.rows.map((r: any) => ({ total: r[0] })) }))), /rows/],
  ['SCN-P-108', 'cypher_query runs a CREATE', w(intercept((next, m, b) => (m === 'cypher_query' && /CREATE|DELETE/.test(b.cypher) ? { status: 200, body: { columns: ['n'], rows: [] } } : next(m, b)))), /CREATE/],
  ['SCN-P-109', 'cypher_query ignores params', w(mapRequest('cypher_query', (b) => ({ ...b, params: { label: null } }))), /params/],
];

/** A second delete of the same conversation answers 400 {"error"}. */
export function stateDelete(): Wrap {
  return (next) => {
    const deleted = new Set<string>();
    return (m, b: any) => {
      if (m !== 'delete_conversation') return next(m, b);
      if (deleted.has(b.conversation_id)) return { status: 400, body: { error: 'conversation_id: already deleted' } };
      deleted.add(b.conversation_id);
      return next(m, b);
    };
  };
}

/** Takes any number of messages, 100 at a time. */
export function splitBulk(): Wrap {
  return (next) => async (m, b: any) => {
    if (m !== 'bulk_add_messages' || b.messages.length <= 100) return next(m, b);
    const out: unknown[] = [];
    for (let i = 0; i < b.messages.length; i += 100) out.push(...((await next(m, { ...b, messages: b.messages.slice(i, i + 100) })).body as unknown[]));
    return { status: 200, body: out };
  };
}

/** get_entity_history lists every message of every conversation it saw as a mention. */
function historyOfEverything(): Wrap {
  return (next) => {
    const seen: { conversation_id: string; content: string; id: string; timestamp: string }[] = [];
    return async (m, b: any) => {
      const res = await next(m, b);
      if (m === 'bulk_add_messages' && res.status === 200) for (const x of res.body as any[]) seen.push({ conversation_id: b.conversation_id, content: x.content, id: x.id, timestamp: x.timestamp });
      if (m === 'get_entity_history' && res.status === 200) {
        return { ...res, body: { ...(res.body as object), mentions: seen.map((s) => ({ conversation_id: s.conversation_id, message_id: s.id, content: s.content, timestamp: s.timestamp })) } };
      }
      return res;
    };
  };
}

export const VALID: ValidRow<V>[] = [
  ['created_at values differ (a real clock between calls)', { ticking: true }],
  ['observations and reflections are always empty (SPEC-5.2.2 is a MAY)', w(compose(
    mapResponse('get_observations', () => []), mapResponse('get_reflections', () => []),
    mapResponse('get_context', (b) => ({ ...b, observations: [], reflections: [] })),
  ))],
  ['every answer object carries an extra field', w(mapAnswers((b) => (Array.isArray(b) || b === null ? b : { ...b, x_vendor: 1 })))],
  ['merge_entities answers status "ok"', w(mapResponse('merge_entities', (b) => ({ ...b, status: 'ok' })))],
  ['cypher_query also answers stats', w(mapResponse('cypher_query', (b) => ({ ...b, stats: { resultAvailableAfter: 1 } })))],
  ['explain_step names no influenced entities', w(mapResponse('explain_step', (b) => ({ ...b, influenced_entities: [] })))],
  ['get_entity_provenance lists no steps', w(mapResponse('get_entity_provenance', (b) => ({ ...b, steps: [] })))],
];
