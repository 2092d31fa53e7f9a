// The 26 methods of bridge protocol 0.1.0 ("Endpoints"), plus the 22 Platinum methods of the
// established kit's Volume 5 (optional): parameters, tier and response kind.
// The client, the reference server, the probe and the suites all read this one table.
import { z } from 'zod';
import { JsonObject, Uuid } from './primitives.js';
import {
  Conversation, DeleteResult, Entity, EntityType, Fact, Message, Preference, ReasoningStep,
  ReasoningTrace, Relationship, Role, SessionInfo, SetupResult, ToolCall, ToolCallStatus, ToolStats,
  AgentStep, AgentStepExplanation, ConversationContext, ConversationTrace, CypherResult, EntityFeedbackResult,
  EntityGraph, EntityHistory, EntityMergeResult, EntityProvenance, Observation, PlatinumConversation, Reflection,
} from './model.js';

/** How a method answers (bridge-protocol.md, "Response rules"). */
export type ResponseKind =
  | 'object' //        200, the object
  | 'object-or-null' // 200, the object or the JSON value null
  | 'list' //          200, a bare JSON array
  | 'deleted' //       200, {"deleted": bool}
  | 'void'; //         204, empty body

export type Tier = 'lifecycle' | 'bronze' | 'silver' | 'gold' | 'platinum';

// Request rule 4 omits nulls; a null that arrives anyway is read as "absent". Messages come from
// validate(), which prefixes the parameter's path: `limit: must be >= 0`, `role: is missing (required)`.
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
const limit = opt(z.int().min(0, { error: 'must be >= 0' }));
const BulkMessageInput = z.looseObject({ role: z.unknown().pipe(Role), content: z.string(), metadata: opt(JsonObject) });

function method<T extends Tier, P extends z.ZodRawShape, K extends ResponseKind, R extends z.ZodType | null>(
  tier: T,
  params: P,
  kind: K,
  result: R,
) {
  return { tier, params: z.looseObject(params), kind, result } as const;
}

export const METHODS = {
  // Lifecycle
  setup: method('lifecycle', {}, 'object', SetupResult),
  teardown: method('lifecycle', {}, 'void', null),
  clear_all_data: method('lifecycle', {}, 'void', null),

  // Short-term memory (Bronze)
  add_message: method('bronze', {
    session_id: z.string(),
    role: z.unknown().pipe(Role),
    content: z.string(),
    metadata: opt(JsonObject),
  }, 'object', Message),
  get_conversation: method('bronze', { session_id: z.string(), limit }, 'object', Conversation),
  search_messages: method('bronze', {
    query: z.string(),
    session_id: opt(z.string()),
    limit,
    threshold: opt(z.number()),
  }, 'list', Message),
  list_sessions: method('bronze', { limit }, 'list', SessionInfo),
  delete_message: method('bronze', { message_id: z.string() }, 'deleted', DeleteResult),
  clear_session: method('bronze', { session_id: z.string() }, 'void', null),

  // Long-term memory (Silver)
  add_entity: method('silver', {
    name: z.string(),
    entity_type: z.unknown().pipe(EntityType),
    description: opt(z.string()),
  }, 'object', Entity),
  add_preference: method('silver', {
    category: z.string(),
    preference: z.string(),
    context: opt(z.string()),
  }, 'object', Preference),
  add_fact: method('silver', { subject: z.string(), predicate: z.string(), obj: z.string() }, 'object', Fact),
  search_entities: method('silver', { query: z.string(), limit }, 'list', Entity),
  search_preferences: method('silver', {
    query: z.string(),
    category: opt(z.string()),
    limit,
  }, 'list', Preference),
  get_entity_by_name: method('silver', { name: z.string() }, 'object-or-null', Entity),
  get_related_entities: method('silver', {
    entity_id: Uuid,
    relationship_type: opt(z.string()),
    depth: opt(z.int().min(1, { error: 'must be >= 1' })),
  }, 'list', Entity),

  // Reasoning memory (Silver)
  start_trace: method('silver', { session_id: z.string(), task: z.string() }, 'object', ReasoningTrace),
  add_step: method('silver', {
    trace_id: Uuid,
    thought: opt(z.string()),
    action: opt(z.string()),
    observation: opt(z.string()),
  }, 'object', ReasoningStep),
  record_tool_call: method('silver', {
    step_id: Uuid,
    tool_name: z.string(),
    arguments: z.unknown().pipe(JsonObject),
    result: z.unknown().optional(),
    status: opt(ToolCallStatus),
    duration_ms: opt(z.int().min(0, { error: 'must be >= 0' })),
    error: opt(z.string()),
  }, 'object', ToolCall),
  complete_trace: method('silver', {
    trace_id: Uuid,
    outcome: opt(z.string()),
    success: opt(z.boolean()),
  }, 'object', ReasoningTrace),
  get_trace_with_steps: method('silver', { trace_id: z.string() }, 'object-or-null', ReasoningTrace),
  list_traces: method('silver', {
    session_id: opt(z.string()),
    limit,
  }, 'list', ReasoningTrace),
  get_tool_stats: method('silver', { tool_name: opt(z.string()) }, 'list', ToolStats),

  // Gold
  add_relationship: method('gold', {
    source_id: Uuid,
    target_id: Uuid,
    relationship_type: z.string(),
    properties: opt(JsonObject),
  }, 'object', Relationship),
  merge_duplicate_entities: method('gold', {
    source_id: Uuid,
    target_id: Uuid,
    canonical_name: opt(z.string()),
  }, 'object', Entity),
  get_similar_traces: method('gold', {
    task: z.string(),
    limit,
    success_only: opt(z.boolean()),
  }, 'list', ReasoningTrace),

  // Platinum (optional; the established kit's tck/adapters/http_bridge.py names the parameters).
  // A server without them answers 404 or 501: "not implemented".
  create_conversation: method('platinum', { user_id: z.string(), metadata: opt(JsonObject) }, 'object', PlatinumConversation),
  list_conversations: method('platinum', { limit }, 'list', PlatinumConversation),
  get_conversation_metadata: method('platinum', { conversation_id: z.string() }, 'object', PlatinumConversation),
  delete_conversation: method('platinum', { conversation_id: z.string() }, 'void', null),
  get_context: method('platinum', { conversation_id: z.string() }, 'object', ConversationContext),
  bulk_add_messages: method('platinum', {
    conversation_id: z.string(),
    // SPEC-5.1.4: at most 100 per call; more is refused (400) before any is added.
    messages: z.array(BulkMessageInput).max(100, { error: 'at most 100 messages per call (SPEC-5.1.4)' }),
  }, 'list', Message),
  get_observations: method('platinum', { conversation_id: z.string(), limit }, 'list', Observation),
  get_reflections: method('platinum', { conversation_id: z.string() }, 'list', Reflection),
  list_entities: method('platinum', { type: opt(z.string()), limit }, 'list', Entity),
  get_entity: method('platinum', { entity_id: Uuid }, 'object', Entity),
  update_entity: method('platinum', { entity_id: Uuid, name: opt(z.string()), description: opt(z.string()) }, 'object', Entity),
  delete_entity: method('platinum', { entity_id: Uuid }, 'void', null),
  set_entity_feedback: method('platinum', {
    entity_id: Uuid,
    user_score: z.number().min(0, { error: 'must be in [0, 1]' }).max(1, { error: 'must be in [0, 1]' }),
    // Required: SPEC-5.3.1 names set_entity_feedback(entity_id, user_score, confirmed), and the
    // BaseAdapter's signature has `confirmed: bool` as a keyword without a default.
    confirmed: z.boolean(),
  }, 'object', EntityFeedbackResult),
  get_entity_history: method('platinum', { entity_id: Uuid }, 'object', EntityHistory),
  merge_entities: method('platinum', { source_id: Uuid, target_id: Uuid }, 'object', EntityMergeResult),
  get_entity_graph: method('platinum', {}, 'object', EntityGraph),
  record_step: method('platinum', {
    conversation_id: z.string(),
    reasoning: z.string(),
    action_taken: z.string(),
    result: opt(z.string()),
  }, 'object', AgentStep),
  list_steps: method('platinum', { conversation_id: z.string() }, 'list', AgentStep),
  explain_step: method('platinum', { step_id: Uuid }, 'object', AgentStepExplanation),
  get_trace_by_conversation: method('platinum', { conversation_id: z.string() }, 'object', ConversationTrace),
  get_entity_provenance: method('platinum', { entity_id: Uuid }, 'object', EntityProvenance),
  cypher_query: method('platinum', { cypher: z.string(), params: opt(JsonObject) }, 'object', CypherResult),
} as const;

export type MethodName = keyof typeof METHODS;
/** The optional Platinum methods (a store may leave them out; the server then answers 501). */
export type PlatinumMethodName = { [M in MethodName]: (typeof METHODS)[M]['tier'] extends 'platinum' ? M : never }[MethodName];
export const PLATINUM_METHODS = (Object.keys(METHODS) as MethodName[]).filter((m) => METHODS[m].tier === 'platinum') as PlatinumMethodName[];
export const METHOD_NAMES = Object.keys(METHODS) as MethodName[];

/** Parameters of a method as a caller writes them (optional ones may be left out). */
export type ParamsOf<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;

type ResultSchema<M extends MethodName> = NonNullable<(typeof METHODS)[M]['result']>;
/** What a successful call of the method yields, by its response kind. */
export type ResultOf<M extends MethodName> = (typeof METHODS)[M]['kind'] extends 'void'
  ? undefined
  : (typeof METHODS)[M]['kind'] extends 'list'
    ? z.infer<ResultSchema<M>>[]
    : (typeof METHODS)[M]['kind'] extends 'object-or-null'
      ? z.infer<ResultSchema<M>> | null
      : z.infer<ResultSchema<M>>;

export function isMethodName(name: string): name is MethodName {
  return Object.prototype.hasOwnProperty.call(METHODS, name);
}
