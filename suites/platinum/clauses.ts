// Volume 5 of the established SPEC.md ("Hosted-Service Operations", the Platinum tier) numbers its
// clauses SPEC-5.1.1 … SPEC-5.5.1, ids that Volume 4 (Gold, cross-memory) also uses for other
// rules. This kit names a Volume 5 clause SPEC-V5-<number> (SPEC-5.1.1 of Volume 5 is
// SPEC-V5-5.1.1); the registry's SCN-P scenarios keep their ids and cite their clause this way. A
// clause that holds two sentences has one id per sentence, lettered: SPEC-V5-5.3.1a / b, 5.5.1a / b.

/** Every clause of Volume 5 with its keyword (all MUST but 5.2.2). */
export const VOLUME5_CLAUSES: readonly { clause: string; keyword: 'MUST' | 'MAY' }[] = [
  '5.1.1', '5.1.2', '5.1.3', '5.1.4', '5.2.1', '5.2.2', '5.3.1', '5.3.2', '5.3.3', '5.3.4', '5.4.1', '5.4.2', '5.4.3', '5.4.4', '5.5.1',
].map((n) => ({ clause: v5(n), keyword: n === '5.2.2' ? 'MAY' : 'MUST' }));

/** The kit's id of a Volume 5 clause or sentence: v5('5.1.1') is 'SPEC-V5-5.1.1', v5('5.5.1a') 'SPEC-V5-5.5.1a'. */
export function v5(number: string): string {
  return `SPEC-V5-${number}`;
}

/** The kit's id of the registry's clause string of a Platinum scenario ('SPEC-5.1.1' -> 'SPEC-V5-5.1.1'). */
export function fromRegistry(clause: string): string {
  return v5(clause.replace(/^SPEC-/, ''));
}

/** Whether sentence id `id` is clause `clause` or one of its lettered sentences (SPEC-V5-5.5.1b of SPEC-V5-5.5.1). */
export const ofClause = (id: string, clause: string): boolean => id === clause || (id.startsWith(clause) && /^[a-z]$/.test(id.slice(clause.length)));

/**
 * A sentence the Platinum scenarios enforce: its id, the kit's own summary of it (the established
 * SPEC's prose is not copied), and, for one no scenario checks on purpose, why.
 */
interface PlatinumSentence {
  id: string;
  text: string;
  keyword?: 'MUST' | 'MAY';
  unchecked?: string;
}

/**
 * The sentences of the Platinum tier, one by one: Volume 5's; the BaseAdapter's rows of the methods
 * Volume 5 names no rule for, or says more of than Volume 5 (Volume 3 points at base_adapter.py for
 * "the full interface definition"); and the hosted document's endpoint rows of the operations that
 * only those name. docs/scenarios.md maps each to the scenarios that check it.
 */
export const PLATINUM_SENTENCES: readonly PlatinumSentence[] = [
  { id: 'SPEC-V5-status', text: 'Platinum is optional: an implementation without these operations stays Bronze, Silver or Gold compliant.',
    unchecked: 'a grading rule, not a behaviour: test/suites/platinum.test.ts checks that a server without Platinum still reaches Gold' },
  { id: v5('5.1.1'), keyword: 'MUST', text: 'create_conversation answers a Conversation with a fresh UUID id, the user_id given and a workspace_id scoped to the API key.' },
  { id: v5('5.1.2'), keyword: 'MUST', text: 'list_conversations answers the conversations the caller can access, newest first.' },
  { id: v5('5.1.3'), keyword: 'MUST', text: 'delete_conversation is idempotent.' },
  { id: v5('5.1.4'), keyword: 'MUST', text: 'bulk_add_messages caps its input at 100 messages and answers them in insertion order.' },
  { id: v5('5.2.1'), keyword: 'MUST', text: 'get_context answers three lists: reflections, observations, recent_messages.' },
  { id: v5('5.2.2'), keyword: 'MAY', text: 'Observations and reflections are made asynchronously and may be empty for a new conversation.' },
  { id: v5('5.3.1a'), keyword: 'MUST', text: 'set_entity_feedback answers {id, updated}, updated a boolean.' },
  { id: v5('5.3.1b'), text: 'user_score lies in [0, 1].' },
  { id: v5('5.3.2'), keyword: 'MUST', text: 'get_entity_history answers every mention of the entity, across conversations.' },
  { id: v5('5.3.3'), keyword: 'MUST', text: 'merge_entities leaves a SAME_AS provenance link from the source to the target.' },
  { id: v5('5.3.4'), keyword: 'MUST', text: 'get_entity_graph answers a node-and-edge view fit for visualisation.' },
  { id: v5('5.4.1'), keyword: 'MUST', text: 'record_step persists the step under its conversation.' },
  { id: v5('5.4.2'), keyword: 'MUST', text: "explain_step answers the step's tool calls and the entities it influenced." },
  { id: v5('5.4.3'), keyword: 'MUST', text: 'get_trace_by_conversation answers every step and tool call of the conversation.' },
  { id: v5('5.4.4'), keyword: 'MUST', text: "get_entity_provenance answers the reasoning chain behind the entity's creation." },
  { id: v5('5.5.1a'), keyword: 'MUST', text: 'cypher_query executes read-only queries.' },
  { id: v5('5.5.1b'), keyword: 'MUST', text: 'cypher_query rejects write operations.' },
  { id: 'SPEC-V3-get_conversation_metadata', text: "get_conversation_metadata(conversation_id) fetches a conversation's metadata, without its messages." },
  { id: 'SPEC-V3-delete_conversation', text: 'delete_conversation(conversation_id) deletes a conversation and all of its messages.' },
  { id: 'SPEC-V3-get_observations', text: "get_observations(conversation_id, limit?) answers the conversation's automatic message-window summaries." },
  { id: 'SPEC-V3-get_reflections', text: "get_reflections(conversation_id) answers the conversation's insights derived from its observations." },
  { id: 'SPEC-V3-list_entities', text: 'list_entities(type?, limit?) lists entities, of one type when asked.' },
  { id: 'SPEC-V3-get_entity', text: 'get_entity(entity_id) fetches one entity by id (with its relationships).' },
  { id: 'SPEC-V3-update_entity', text: "update_entity(entity_id, name?, description?) changes an entity's name and/or description." },
  { id: 'SPEC-V3-delete_entity', text: 'delete_entity(entity_id) deletes an entity and its relationships.' },
  { id: 'SPEC-V3-get_entity_graph', text: 'get_entity_graph() is a full-graph view: every entity and every edge.' },
  { id: 'SPEC-V3-list_steps', text: 'list_steps(conversation_id) lists every reasoning step of one conversation.' },
  ...['get_conversation_metadata', 'list_entities', 'get_entity', 'update_entity', 'delete_entity', 'list_steps'].map((op) => ({
    id: `HOSTED-ENDPOINT-${op}`, text: `The hosted endpoint table names the operation ${op} (bridge method of the same name).`,
  })),
];
