// The rules explore's oracle checks: each one a statement of the specifications, by the ids of the
// clause map (src/protocols/clauses). Explore compares a server with the reference model only
// through these: a difference no rule covers is not a finding (what the protocol leaves open is
// silent by default, see open.ts). A finding names its rule; findings are grouped by rule.
import { answerCites, modelCites } from '../protocols/clauses/index.js';
import type { MethodName } from '../protocols/bridge/index.js';

interface Rule {
  /** What must hold, in one line. */
  states: string;
  /** The sentences it enforces (ids of the clause map). */
  cites: readonly string[];
}

export const RULES = {
  // ------------------------------------------------------------------ every call
  'call.succeeds': {
    states: 'a call the protocol lets succeed (valid parameters, every id it names live) is answered with success, not refused',
    cites: ['BRIDGE-ERRORS-1'],
  },
  'call.answer': {
    states: 'every answer has the status, kind and data model of its method',
    cites: ['BRIDGE-ERRORS-1'],
  },
  'ids.fresh': {
    states: 'an object a write creates gets an id that no other object of the sequence has',
    cites: ['SPEC-2.8.1', 'SPEC-4.1.2', 'BRIDGE-GENERAL-1'],
  },
  // ------------------------------------------------------------------ conversations (Bronze)
  'message.written': {
    states: 'add_message answers the message with the role, content and metadata sent ({} when none), stamped within a day of now',
    cites: ['SPEC-1.1.12', 'SPEC-1.1.13', 'SPEC-2.1.5', 'SPEC-2.1.13', 'SPEC-2.1.15'],
  },
  'message.kept': {
    states: 'a message read back (conversation, search) has the role, content, metadata and creation time it was written with',
    cites: ['SPEC-1.1.10', 'SPEC-1.1.14', 'SPEC-2.2.7', 'SPEC-2.2.8', 'SPEC-2.2.9'],
  },
  'conversation.messages': {
    states: "get_conversation answers exactly the session's live messages in insertion order (with limit: the first or the last N of them)",
    cites: ['SPEC-2.2.1', 'SPEC-2.2.2', 'SPEC-2.2.4', 'SPEC-2.2.5', 'SPEC-1.1.3', 'SPEC-1.1.4', 'SPEC-2.5.2', 'SPEC-2.6.1', 'SPEC-2.6.2'],
  },
  'conversation.identity': {
    states: 'a session keeps its conversation id and created_at while it has messages; two sessions with messages have different conversation ids',
    cites: ['SPEC-1.1.2', 'SPEC-1.1.6', 'SPEC-1.1.8', 'SPEC-1.1.9'],
  },
  'conversation.time-order': {
    states: 'the timestamps of the messages of a conversation never decrease',
    cites: ['SPEC-2.7.2'],
  },
  'search_messages.scope': {
    states: 'search_messages answers only live messages, of the session asked for, at most limit',
    cites: ['SPEC-2.3.2', 'SPEC-2.3.3', 'SPEC-2.3.7', 'SPEC-2.5.2', 'SPEC-2.6.1'],
  },
  'search_messages.match': {
    states: 'a message whose content is exactly the query is found; nothing is found on an empty store, or at a high threshold by a query sharing no word with any message',
    cites: ['SPEC-2.3.1', 'SPEC-2.3.4', 'SPEC-2.3.6'],
  },
  'list_sessions.sessions': {
    states: 'list_sessions lists every session that has messages (at most limit), and no session the caller never named since clear_all_data',
    cites: ['SPEC-2.4.1', 'SPEC-2.4.5', 'BRIDGE-LIFECYCLE-clear_all_data'],
  },
  'list_sessions.counts': {
    states: "message_count of a listed session is the number of its live messages",
    cites: ['SPEC-2.4.2', 'SPEC-2.4.7', 'SPEC-2.4.8'],
  },
  'delete_message.result': {
    states: 'delete_message answers deleted: true for a live message, false for one that is gone or never was',
    cites: ['SPEC-2.5.1', 'SPEC-2.5.3', 'SPEC-2.5.9'],
  },
  // ------------------------------------------------------------------ long-term memory (Silver)
  'entity.written': {
    states: 'add_entity answers the entity with the name, type and description sent',
    cites: ['SPEC-3.1.1', 'SPEC-3.1.2', 'SPEC-1.2.1', 'SPEC-1.2.3'],
  },
  'entity.kept': {
    states: 'an entity read back has its name and type, its description (until a merge makes it open) and the canonical_name a merge gave it',
    cites: ['SPEC-1.2.1', 'SPEC-3.1.2', 'SPEC-3.1.8', 'BRIDGE-METHOD-merge_duplicate_entities'],
  },
  'preference.written': {
    states: 'add_preference answers, and search_preferences reads back, the category, preference and context sent',
    cites: ['SPEC-3.2.1', 'SPEC-3.2.2', 'SPEC-3.2.3'],
  },
  'fact.written': {
    states: 'add_fact answers the subject, predicate and object sent',
    cites: ['SPEC-3.3.1', 'SPEC-1.4.1'],
  },
  'search_entities.scope': {
    states: 'search_entities answers only live entities, at most limit',
    cites: ['SPEC-3.4.2', 'SPEC-5.3.1'],
  },
  'search_entities.match': {
    states: 'an entity whose name is exactly the query is found; nothing is found on an empty store or by a query sharing no word with any entity',
    cites: ['SPEC-3.4.1', 'SPEC-3.4.3', 'SPEC-3.4.4'],
  },
  'search_preferences.scope': {
    states: 'search_preferences answers only preferences of the category asked for (exactly), at most limit',
    cites: ['SPEC-3.5.2', 'SPEC-V3-search_preferences'],
  },
  'search_preferences.match': {
    states: 'a preference whose text is exactly the query is found; nothing is found on an empty store or by a query sharing no word with any preference',
    cites: ['SPEC-3.5.1', 'SPEC-3.5.3', 'SPEC-3.5.4'],
  },
  'get_entity_by_name.lookup': {
    states: 'get_entity_by_name answers an entity of that name when one exists, and null when no entity has or had the name',
    cites: ['SPEC-3.6.1', 'SPEC-3.6.2'],
  },
  'get_related_entities.neighbours': {
    states: 'get_related_entities answers every direct neighbour (over relationships of the type asked for), and only entities those relationships reach',
    cites: ['SPEC-3.7.1', 'SPEC-3.7.2', 'SPEC-3.7.3', 'SPEC-5.2.2', 'SPEC-5.3.2'],
  },
  // ------------------------------------------------------------------ reasoning memory (Silver)
  'trace.written': {
    states: 'start_trace answers the session_id and task sent with no steps; complete_trace answers the outcome and success sent and a completed_at',
    cites: ['SPEC-4.1.1', 'SPEC-4.4.1', 'SPEC-4.4.2'],
  },
  'step.written': {
    states: 'add_step answers a step of the trace with the thought, action and observation sent',
    cites: ['SPEC-4.2.1', 'SPEC-4.2.3'],
  },
  'step.numbers': {
    states: 'the step numbers of a trace strictly increase in the order the steps were added, and a step keeps its number',
    cites: ['SPEC-4.2.2', 'SPEC-4.2.6'],
  },
  'tool_call.written': {
    states: 'record_tool_call answers the call with the tool_name, arguments, result, status (success when none is sent), duration_ms and error sent',
    cites: ['SPEC-4.3.1', 'SPEC-4.3.2', 'SPEC-V3-record_tool_call'],
  },
  'get_trace_with_steps.trace': {
    states: 'get_trace_with_steps answers the trace as written and completed, with every step in the order added and each step with exactly the tool calls recorded on it',
    cites: ['SPEC-4.5.1', 'SPEC-4.5.2', 'SPEC-4.4.1'],
  },
  'list_traces.traces': {
    states: 'list_traces answers every live trace of the session asked for (exactly that session), at most limit, each as written (its steps, each with its tool calls)',
    cites: ['SPEC-4.6.1', 'SPEC-4.6.2', 'SPEC-4.6.3', 'SPEC-5.5.2', 'SPEC-4.5.2'],
  },
  'get_tool_stats.stats': {
    states: 'get_tool_stats has one entry per tool called (only the tool asked for), counting exactly the calls recorded: totals, successes, failures, success_rate and the mean duration',
    cites: ['SPEC-4.7.1', 'SPEC-4.7.2', 'SPEC-4.7.4'],
  },
  // ------------------------------------------------------------------ Gold
  'add_relationship.written': {
    states: 'add_relationship answers the relationship between the entities named, with the type and properties sent',
    cites: ['SPEC-5.2.1', 'SPEC-5.2.4'],
  },
  'merge.result': {
    states: 'merge_duplicate_entities answers the target entity (its id, name and type), with the canonical_name sent',
    cites: ['SPEC-5.3.1', 'BRIDGE-METHOD-merge_duplicate_entities'],
  },
  'get_similar_traces.scope': {
    states: 'get_similar_traces answers only live traces (only successful ones with success_only), at most limit',
    cites: ['SPEC-5.4.1', 'SPEC-5.4.2', 'BRIDGE-METHOD-get_similar_traces'],
  },
  'get_similar_traces.match': {
    states: 'a trace whose task is exactly the one asked for is found (when success_only allows it); nothing is found on an empty store',
    cites: ['SPEC-5.4.1', 'SPEC-5.4.3'],
  },
  // ------------------------------------------------------------------ Platinum (Volume 5)
  'create_conversation.written': {
    states: 'create_conversation answers a fresh id, the user_id sent, and the workspace_id every conversation of the caller has',
    cites: ['SPEC-V5-5.1.1'],
  },
  'list_conversations.list': {
    states: 'list_conversations answers the conversations not deleted, newest first (the newest ones under a limit), never a deleted one',
    cites: ['SPEC-V5-5.1.2', 'SPEC-V5-5.1.3'],
  },
  'get_conversation_metadata.kept': {
    states: 'get_conversation_metadata answers the conversation with its id, user_id and workspace_id',
    cites: ['HOSTED-ENDPOINT-get_conversation_metadata', 'SPEC-V5-5.1.1'],
  },
  'bulk_add_messages.written': {
    states: 'bulk_add_messages answers the messages sent, in the order sent, with their roles, contents and metadata',
    cites: ['SPEC-V5-5.1.4'],
  },
  'get_context.conversation': {
    states: 'the context of a conversation holds messages, observations and reflections of that conversation only',
    cites: ['SPEC-V5-5.2.1', 'SPEC-V5-5.2.2'],
  },
  'entity.lifecycle': {
    states: 'get_entity answers the entity as written or updated; update_entity answers what it sent; a deleted entity is found by no read',
    cites: ['HOSTED-ENDPOINT-get_entity', 'HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-delete_entity'],
  },
  'list_entities.scope': {
    states: 'list_entities answers only entities that exist (of the type asked for, in any case), at most limit',
    cites: ['HOSTED-ENDPOINT-list_entities'],
  },
  'set_entity_feedback.result': {
    states: 'set_entity_feedback answers {id, updated} for the entity named',
    cites: ['SPEC-V5-5.3.1'],
  },
  'get_entity_history.mentions': {
    states: 'get_entity_history answers the entity named, and each mention is a message that exists with that content',
    cites: ['SPEC-V5-5.3.2'],
  },
  'merge_entities.link': {
    states: 'merge_entities answers the source and target named, and leaves a SAME_AS link from the source to the target in the graph',
    cites: ['SPEC-V5-5.3.3'],
  },
  'get_entity_graph.graph': {
    states: 'the entity graph holds every live relationship as an edge, and no node or edge of an entity that was deleted',
    cites: ['SPEC-V5-5.3.4', 'HOSTED-ENDPOINT-delete_entity'],
  },
  'reasoning_steps.steps': {
    states: 'record_step answers what it sent; list_steps answers exactly the steps recorded under the conversation',
    cites: ['SPEC-V5-5.4.1'],
  },
  'explain_step.step': {
    states: "explain_step answers the step as recorded, with exactly the tool calls recorded on it and only entities that exist",
    cites: ['SPEC-V5-5.4.2'],
  },
  'get_trace_by_conversation.trace': {
    states: "get_trace_by_conversation answers every step recorded under the conversation and exactly their tool calls",
    cites: ['SPEC-V5-5.4.3'],
  },
  'get_entity_provenance.steps': {
    states: 'get_entity_provenance answers the entity named, with steps that were recorded',
    cites: ['SPEC-V5-5.4.4'],
  },
  'cypher_query.read': {
    states: 'a read-only query executes: MATCH (n) RETURN count(n) AS total counts at least every live entity',
    cites: ['SPEC-V5-5.5.1a'],
  },
  'cypher_query.write': {
    states: 'a query that writes is rejected',
    cites: ['SPEC-V5-5.5.1b'],
  },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

/** A rule the server broke: the rule, the sentences (the rule's and the call's), and what happened. */
export class Violation extends Error {
  readonly cites: readonly string[];
  /** The method whose answer broke the rule (set by the run when it catches the violation). */
  method: MethodName | undefined;
  constructor(readonly rule: RuleId, message: string, extraCites: readonly string[] = []) {
    super(message);
    this.name = 'Violation';
    this.cites = [...new Set([...RULES[rule].cites, ...extraCites])];
  }
}

/** Throws the violation of `rule`. */
export function violated(rule: RuleId, message: string, extraCites: readonly string[] = []): never {
  throw new Violation(rule, message, extraCites);
}

/** The sentences a refused or malformed answer of `method` breaks. */
export const callCites = (method: MethodName): string[] => answerCites(method);
export const shapeCites = (method: MethodName): string[] => modelCites(method);
