// The variants that prove the power of the Platinum scenarios SCN-P-001 … SCN-P-011 and SCN-P-101 …
// SCN-P-123 (../platinum.test.ts): faulty variants of the hosted reference store (the store that
// implements Volume 5), each breaking exactly the rule one scenario checks, and valid variants
// making other allowed choices. The catalogue of one-rule faults (./platinum-catalogue.ts) adds the
// faults it was measured with; the valid variants of the silent points are in the harness
// (PLATINUM_VARIANTS of test/harness/valid-variants.ts).
import { randomUUID } from 'node:crypto';
import { HostedStore } from '../../../src/servers/hosted/store.js';
import type { Params } from '../../../src/servers/bridge/index.js';
import { compose, mapAnswers, mapRequest, mapResponse, type Wrap } from '../../harness/variants.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';
import { uuidV7 } from '../../harness/valid-variants.js';
import { intercept, type V } from './platinum-base.js';
import { CATALOGUE } from './platinum-catalogue.js';
import { PLATINUM_FAULTS as MATRIX_FAULTS } from './matrix.js';

export { run } from './platinum-base.js';

const w = (wrap: Wrap, ticking = false): V => ({ wrap, ticking });

const OWN: FaultRow<V>[] = [
  ['SCN-P-001', 'create_conversation answers user_id null', w(mapResponse('create_conversation', (b) => ({ ...b, user_id: null }))), /user_id/],
  ['SCN-P-001', 'conversations carry no workspace_id', w(mapAnswers((b, m) => (m.includes('conversation') && !Array.isArray(b) ? { ...b, workspace_id: null } : b))), /workspace_id/],
  ['SCN-P-101', 'the workspace_id is per conversation, not per key', w(mapResponse('create_conversation', (b) => ({ ...b, workspace_id: `ws-${b.id}` }))), /workspace_id/],
  ['SCN-P-002', 'list_conversations lists oldest first', w(mapResponse('list_conversations', (b) => b.reverse()), true), /newest first/],
  ['SCN-P-002', 'list_conversations leaves out the newest conversation', w(mapResponse('list_conversations', (b) => b.slice(1))), /missing/],
  ['SCN-P-003', 'delete_conversation answers 204 but deletes nothing', w(intercept((next, m, b) => (m === 'delete_conversation' ? { status: 204 } : next(m, b)))), /still listed/],
  ['SCN-P-005', 'get_context answers no recent messages', w(mapResponse('get_context', (b) => ({ ...b, recent_messages: [] }))), /recent_messages/],
  ['SCN-P-006', "get_observations lists another conversation's observations", w(mapResponse('get_observations', (b) => b.map((o: any) => ({ ...o, conversation_id: 'another' })))), /another conversation/],
  ['SCN-P-007', 'set_entity_feedback answers another id', w(mapResponse('set_entity_feedback', (b) => ({ ...b, id: randomUUID() }))), /set_entity_feedback/],
  ['SCN-P-008', 'get_entity_graph answers no edges', w(mapResponse('get_entity_graph', (b) => ({ ...b, edges: [] }))), /WORKS_AT.*: no edge from "Alice Graph" \([0-9a-f]{8}…\) to "Acme Graph" \([0-9a-f]{8}…\) among 0$/],
  ['SCN-P-008', 'get_entity_graph answers its edges the wrong way round', w(mapResponse('get_entity_graph', (b) => ({ ...b, edges: b.edges.map((e: any) => ({ ...e, source: e.target, target: e.source })) }))),
    /source and target swapped: the graph has "Acme Graph" \([0-9a-f]{8}…\) -WORKS_AT-> "Alice Graph" \([0-9a-f]{8}…\)$/],
  ['SCN-P-104', "get_entity_history lists only one conversation's mentions", w(mapResponse('get_entity_history', (b) => ({ ...b, mentions: b.mentions.slice(0, 1) }))), /conversations of its mentions/],
  ['SCN-P-104', 'get_entity_history lists every message as a mention', w(historyOfEverything()), /does not name it/],
  // Issue 32: our own reference did this (an independent strict kit found it): a bridge session's mention under its session id.
  ['SCN-P-127', "get_entity_history names a bridge session's mention by the session id, not the Conversation's UUID", { store: () => new MentionsBySessionId() },
    /get_entity_history: response does not match the data model:\s+mentions\[\d+\]\.conversation_id: "tck-hist-a" is not a UUID/],
  ['SCN-P-127', "get_entity_history names a bridge session's mention by a UUID of no conversation", w(mapResponse('get_entity_history', (b) => ({ ...b, mentions: b.mentions.map((m: any) => ({ ...m, conversation_id: randomUUID() })) }))),
    /get_entity_history\("Kestrel Point"\): the mention of .* in session "tck-hist-a" is listed under conversation .*, not the session's Conversation/],
  // Issue 32: our own console refused these reads (SPEC-5.5.1: read-only queries MUST run).
  ['SCN-P-128', 'cypher_query refuses ORDER BY, SKIP, CONTAINS, STARTS WITH and DISTINCT (the console of a narrow subset)',
    w(intercept((next, m, b) => (m === 'cypher_query' && /\b(ORDER\s+BY|SKIP|CONTAINS|STARTS\s+WITH|DISTINCT)\b/i.test(String(b?.cypher)) ? { status: 400, body: { error: 'ORDER BY is not supported by the query console' } } : next(m, b)))),
    /cypher_query\("MATCH \(n\) WHERE n\.name STARTS WITH \$prefix RETURN n\.name AS name ORDER BY name"\): expected success, got 400/],
  ['SCN-P-128', 'cypher_query reads ORDER BY … DESC as ascending', w(mapRequest('cypher_query', (b) => ({ ...b, cypher: String(b.cypher).replace(/ DESC\b/, '') }))),
    /ORDER BY name DESC SKIP 1 LIMIT 1.*: expected \[\["Ordo Beta"\]\], got \[\["Ordo Alpha"\]\]/],
  ['SCN-P-128', 'cypher_query ignores DISTINCT', w(mapRequest('cypher_query', (b) => ({ ...b, cypher: String(b.cypher).replace(/DISTINCT /g, '') }))),
    /RETURN DISTINCT n\.name AS name.*: expected exactly 3, got 4/],
  ['SCN-P-105', 'merge_entities answers source and target the wrong way round', w(mapResponse('merge_entities', (b) => ({ ...b, source_id: b.target_id, target_id: b.source_id }))),
    /merge_entities\("A\. Merge" -> "Alice Merge"\): source_id and target_id: source and target swapped: the answer goes from "Alice Merge" \([0-9a-f]{8}…\) to "A\. Merge"/],
  ['SCN-P-105', 'merge_entities answers an empty status', w(mapResponse('merge_entities', (b) => ({ ...b, status: '' }))), /status/],
  ['SCN-P-009', 'list_steps answers no steps', w(mapResponse('list_steps', () => [])), /list_steps/],
  ['SCN-P-010', 'get_trace_by_conversation answers another conversation_id', w(mapResponse('get_trace_by_conversation', (b) => ({ ...b, conversation_id: 'other' }))), /conversation_id/],
  ['SCN-P-106', "explain_step answers the step without its reasoning", w(mapResponse('explain_step', (b) => ({ ...b, reasoning: '' }))), /explain_step/],
  ['SCN-P-010', 'get_trace_by_conversation answers one of two steps', w(mapResponse('get_trace_by_conversation', (b) => ({ ...b, steps: b.steps.slice(1) }))), /after two record_step calls: the steps: expected exactly 2, got 1/],
  ['SCN-P-107', 'get_entity_provenance answers another entity_id', w(mapResponse('get_entity_provenance', (b) => ({ ...b, entity_id: randomUUID() }))), /entity_id/],
  ['SCN-P-011', 'cypher_query names the column "count"', w(mapResponse('cypher_query', (b) => ({ ...b, columns: ['count'] }))), /columns/],
  ['SCN-P-011', 'cypher_query answers rows as objects', w(mapResponse('cypher_query', (b) => ({ ...b, rows: b.rows.map((r: any) => ({ total: r[0] })) }))), /rows/],
  ['SCN-P-109', 'cypher_query ignores params', w(mapRequest('cypher_query', (b) => ({ ...b, params: { label: null } }))), /params/],
];

/** The faulty variants of the proof: the rows above, and each fault of the catalogue against the scenario that catches it. */
export const FAULTS: FaultRow<V>[] = [
  ...OWN,
  // Issue 34: the coverage matrix's Platinum read → write → read cells.
  ...MATRIX_FAULTS,
  ...CATALOGUE.flatMap((f): FaultRow<V>[] => (f.caught === undefined ? [] : [[f.caught[0], `${f.id}: ${f.fault}`, f.variant, f.caught[1]]])),
];

/** get_entity_history lists a mention under the session id of its message (a bridge session's is no UUID). */
class MentionsBySessionId extends HostedStore {
  override get_entity_history(p: Params<'get_entity_history'>) {
    const h = super.get_entity_history(p) as { entity_id: string; mentions: { message_id: string }[] };
    const sessionOf = new Map([...this.sessions.values()].flatMap((s) => s.messages.map((m) => [m.message.id, s.session_id] as const)));
    return { ...h, mentions: h.mentions.map((m) => ({ ...m, conversation_id: sessionOf.get(m.message_id) })) };
  }
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
  ['time-ordered (v7) UUIDs for every id', { store: () => new HostedStore({ newId: uuidV7 }) }],
  ['no entity is extracted from message content', { store: () => new NoExtraction() }],
];

/** Reads no message for entities (the reference reads bulk-added ones): silent point entity-extraction. */
class NoExtraction extends HostedStore {
  protected override extractFrom(_text: string): void {}
}
