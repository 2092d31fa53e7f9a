// The clause map: every sentence the kit enforces, by id, and the kit's own readings (advisories).
// Also the sentences a profile cites for the checks it makes of every answer (status, data model).
import { ADVISORIES, type Advisory } from './advisories.js';
import { BRIDGE_SENTENCES } from './bridge.js';
import { HOSTED_SENTENCES } from './hosted.js';
import { RFC_SENTENCES } from './rfc.js';
import { SPEC_SENTENCES } from './spec.js';
import type { Sentence } from './sentence.js';
import { METHODS, type MethodName } from '../bridge/methods.js';
import { MODEL } from '../bridge/model.js';

export type { Sentence, SourceDoc } from './sentence.js';
export type { Advisory } from './advisories.js';
export { ADVISORIES };

export const SENTENCES: readonly Sentence[] = [...SPEC_SENTENCES, ...BRIDGE_SENTENCES, ...HOSTED_SENTENCES, ...RFC_SENTENCES];

const BY_ID = new Map<string, Sentence>(SENTENCES.map((s) => [s.id, s]));
const ADVISORY_BY_ID = new Map<string, Advisory>(ADVISORIES.map((a) => [a.id, a]));

export const sentenceOf = (id: string): Sentence | undefined => BY_ID.get(id);
export const advisoryOf = (id: string): Advisory | undefined => ADVISORY_BY_ID.get(id);

/** Volume 5 (Platinum) clause of each Platinum method that one names; the others are rows of the hosted endpoint tables. */
const PLATINUM_CLAUSE: Partial<Record<MethodName, string>> = {
  create_conversation: 'SPEC-V5-5.1.1',
  list_conversations: 'SPEC-V5-5.1.2',
  delete_conversation: 'SPEC-V5-5.1.3',
  bulk_add_messages: 'SPEC-V5-5.1.4',
  get_context: 'SPEC-V5-5.2.1',
  get_observations: 'SPEC-V5-5.2.2',
  get_reflections: 'SPEC-V5-5.2.2',
  set_entity_feedback: 'SPEC-V5-5.3.1',
  get_entity_history: 'SPEC-V5-5.3.2',
  merge_entities: 'SPEC-V5-5.3.3',
  get_entity_graph: 'SPEC-V5-5.3.4',
  record_step: 'SPEC-V5-5.4.1',
  explain_step: 'SPEC-V5-5.4.2',
  get_trace_by_conversation: 'SPEC-V5-5.4.3',
  get_entity_provenance: 'SPEC-V5-5.4.4',
  cypher_query: 'SPEC-V5-5.5.1a',
};

/** The sentence that names a method and what it returns: its row of a method table. */
function methodSentence(method: MethodName): string {
  if (METHODS[method].tier !== 'platinum') return METHODS[method].tier === 'lifecycle' ? `BRIDGE-LIFECYCLE-${method}` : `BRIDGE-METHOD-${method}`;
  return PLATINUM_CLAUSE[method] ?? `HOSTED-ENDPOINT-${method}`;
}

/** The response rule of each response kind (bridge-protocol.md, "Response rules"). */
const RESPONSE_RULE = { object: 'BRIDGE-RESPONSE-1', list: 'BRIDGE-RESPONSE-2', deleted: 'BRIDGE-RESPONSE-3', void: 'BRIDGE-RESPONSE-4', 'object-or-null': 'BRIDGE-RESPONSE-5' } as const;

/** What a call's answer status and kind enforce: the method's row and the response rule of its kind. */
export function answerCites(method: MethodName): string[] {
  const kind = METHODS[method].kind;
  return kind === 'object-or-null' ? [methodSentence(method), RESPONSE_RULE.object, RESPONSE_RULE[kind]] : [methodSentence(method), RESPONSE_RULE[kind]];
}

const MODEL_NAME = new Map<unknown, string>(Object.entries(MODEL).map(([name, schema]) => [schema, name]));

/** The bridge resource tables (BRIDGE-MODEL-<name>); the other types of the model are stated elsewhere. */
const TABLES = new Set(['Message', 'Conversation', 'Entity', 'ReasoningTrace', 'ReasoningStep', 'ToolCall']);

/**
 * What states the fields of a type the bridge document names without its fields ("not shown beyond
 * their names"): the established SPEC's clauses on it, and the BaseAdapter row of the method, whose
 * interface (tck/adapters/base_adapter.py) defines the result types. The envelope of delete_message
 * is its response rule; setup's and Platinum's are stated by the method sentence itself.
 */
const NAMED_ONLY: Partial<Record<string, (method: MethodName) => string[]>> = {
  SessionInfo: (m) => ['SPEC-2.4.2', 'SPEC-2.4.6', `SPEC-V3-${m}`],
  Preference: (m) => ['SPEC-1.3.1', 'SPEC-1.3.2', `SPEC-V3-${m}`],
  Fact: (m) => ['SPEC-1.4.1', 'SPEC-1.4.2', `SPEC-V3-${m}`],
  ToolStats: (m) => ['SPEC-4.7.1', `SPEC-V3-${m}`],
  Relationship: (m) => ['SPEC-5.2.4', `SPEC-V3-${m}`],
  DeleteResult: () => [RESPONSE_RULE.deleted],
  // A mention's conversation_id is an identifier: a UUID string (General rules; the BaseAdapter's TCKEntityMention).
  EntityHistory: () => ['BRIDGE-GENERAL-1'],
};

/** What a call's answer body enforces: the method's row and the data model of what it returns. */
export function modelCites(method: MethodName): string[] {
  const name = MODEL_NAME.get(METHODS[method].result);
  if (name === undefined) return [methodSentence(method)];
  if (TABLES.has(name)) return [methodSentence(method), `BRIDGE-MODEL-${name}`];
  return [methodSentence(method), ...(NAMED_ONLY[name]?.(method) ?? [])];
}
