// The 26 methods of bridge protocol 0.1.0 ("Endpoints"): parameters, tier and response kind.
// The client, the reference server, the probe and the suites all read this one table.
import { z } from 'zod';
import { JsonObject, Uuid } from './primitives.js';
import {
  Conversation, DeleteResult, Entity, EntityType, Fact, Message, Preference, ReasoningStep,
  ReasoningTrace, Relationship, Role, SessionInfo, SetupResult, ToolCall, ToolCallStatus, ToolStats,
} from './model.js';

/** How a method answers (bridge-protocol.md, "Response rules"). */
export type ResponseKind =
  | 'object' //        200, the object
  | 'object-or-null' // 200, the object or the JSON value null
  | 'list' //          200, a bare JSON array
  | 'deleted' //       200, {"deleted": bool}
  | 'void'; //         204, empty body

export type Tier = 'lifecycle' | 'bronze' | 'silver' | 'gold';

// Request rule 4 omits nulls; a null that arrives anyway is read as "absent".
const opt = <T extends z.ZodType>(schema: T) => schema.nullish();
const str = (name: string) => z.string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a string`) });
const limit = opt(z.int({ error: 'limit must be an integer' }).min(0, { error: 'limit must be >= 0' }));
const uuid = (name: string) => z.string({ error: (iss) => (iss.input === undefined ? `${name} is required` : `${name} must be a UUID string`) }).pipe(Uuid);

function method<P extends z.ZodRawShape, K extends ResponseKind, R extends z.ZodType | null>(
  tier: Tier,
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
    session_id: str('session_id'),
    role: z.unknown().pipe(Role),
    content: str('content'),
    metadata: opt(JsonObject),
  }, 'object', Message),
  get_conversation: method('bronze', { session_id: str('session_id'), limit }, 'object', Conversation),
  search_messages: method('bronze', {
    query: str('query'),
    session_id: opt(z.string({ error: 'session_id must be a string' })),
    limit,
    threshold: opt(z.number({ error: 'threshold must be a number' })),
  }, 'list', Message),
  list_sessions: method('bronze', { limit }, 'list', SessionInfo),
  delete_message: method('bronze', { message_id: str('message_id') }, 'deleted', DeleteResult),
  clear_session: method('bronze', { session_id: str('session_id') }, 'void', null),

  // Long-term memory (Silver)
  add_entity: method('silver', {
    name: str('name'),
    entity_type: z.unknown().pipe(EntityType),
    description: opt(z.string({ error: 'description must be a string' })),
  }, 'object', Entity),
  add_preference: method('silver', {
    category: str('category'),
    preference: str('preference'),
    context: opt(z.string({ error: 'context must be a string' })),
  }, 'object', Preference),
  add_fact: method('silver', { subject: str('subject'), predicate: str('predicate'), obj: str('obj') }, 'object', Fact),
  search_entities: method('silver', { query: str('query'), limit }, 'list', Entity),
  search_preferences: method('silver', {
    query: str('query'),
    category: opt(z.string({ error: 'category must be a string' })),
    limit,
  }, 'list', Preference),
  get_entity_by_name: method('silver', { name: str('name') }, 'object-or-null', Entity),
  get_related_entities: method('silver', {
    entity_id: uuid('entity_id'),
    relationship_type: opt(z.string({ error: 'relationship_type must be a string' })),
    depth: opt(z.int({ error: 'depth must be an integer' }).min(1, { error: 'depth must be >= 1' })),
  }, 'list', Entity),

  // Reasoning memory (Silver)
  start_trace: method('silver', { session_id: str('session_id'), task: str('task') }, 'object', ReasoningTrace),
  add_step: method('silver', {
    trace_id: uuid('trace_id'),
    thought: opt(z.string({ error: 'thought must be a string' })),
    action: opt(z.string({ error: 'action must be a string' })),
    observation: opt(z.string({ error: 'observation must be a string' })),
  }, 'object', ReasoningStep),
  record_tool_call: method('silver', {
    step_id: uuid('step_id'),
    tool_name: str('tool_name'),
    arguments: z.unknown().pipe(JsonObject),
    result: z.unknown().optional(),
    status: opt(ToolCallStatus),
    duration_ms: opt(z.int({ error: 'duration_ms must be an integer' }).min(0, { error: 'duration_ms must be >= 0' })),
    error: opt(z.string({ error: 'error must be a string' })),
  }, 'object', ToolCall),
  complete_trace: method('silver', {
    trace_id: uuid('trace_id'),
    outcome: opt(z.string({ error: 'outcome must be a string' })),
    success: opt(z.boolean({ error: 'success must be a boolean' })),
  }, 'object', ReasoningTrace),
  get_trace_with_steps: method('silver', { trace_id: str('trace_id') }, 'object-or-null', ReasoningTrace),
  list_traces: method('silver', {
    session_id: opt(z.string({ error: 'session_id must be a string' })),
    limit,
  }, 'list', ReasoningTrace),
  get_tool_stats: method('silver', { tool_name: opt(z.string({ error: 'tool_name must be a string' })) }, 'list', ToolStats),

  // Gold
  add_relationship: method('gold', {
    source_id: uuid('source_id'),
    target_id: uuid('target_id'),
    relationship_type: str('relationship_type'),
    properties: opt(JsonObject),
  }, 'object', Relationship),
  merge_duplicate_entities: method('gold', {
    source_id: uuid('source_id'),
    target_id: uuid('target_id'),
    canonical_name: opt(z.string({ error: 'canonical_name must be a string' })),
  }, 'object', Entity),
  get_similar_traces: method('gold', {
    task: str('task'),
    limit,
    success_only: opt(z.boolean({ error: 'success_only must be a boolean' })),
  }, 'list', ReasoningTrace),
} as const;

export type MethodName = keyof typeof METHODS;
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
