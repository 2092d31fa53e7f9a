// The bridge data model (bridge-protocol.md, "Resources and their fields"). The single source of
// truth for types: every TypeScript type of a resource is inferred from these schemas.
// Objects are loose: unknown extra fields are kept and reported as notes (forward compatibility).
import { z } from 'zod';
import { Embedding, JsonObject, Timestamp, Uuid, describe, optional } from './primitives.js';

export const ROLES = ['user', 'assistant', 'system'] as const;
export const ENTITY_TYPES = ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT', 'OBJECT'] as const;
export const TOOL_CALL_STATUSES = ['pending', 'success', 'failure', 'error', 'timeout', 'cancelled'] as const;

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
  z.enum(values, {
    error: (iss) =>
      iss.input === undefined ? 'is missing (required)' : `${describe(iss.input)} is not ${what} (${values.join(', ')})`,
  });

export const Role = oneOf(ROLES, 'a role');
export const EntityType = oneOf(ENTITY_TYPES, 'an entity type');
export const ToolCallStatus = oneOf(TOOL_CALL_STATUSES, 'a tool-call status');

export const Message = z.looseObject({
  id: Uuid,
  role: Role,
  content: z.string(),
  timestamp: Timestamp,
  embedding: optional(Embedding),
  metadata: JsonObject,
});

export const Conversation = z.looseObject({
  id: Uuid,
  session_id: z.string(),
  messages: z.array(Message),
  title: optional(z.string()),
  created_at: Timestamp,
  updated_at: optional(Timestamp),
});

export const Entity = z.looseObject({
  id: Uuid,
  name: z.string(),
  type: EntityType,
  subtype: optional(z.string()),
  description: optional(z.string()),
  embedding: optional(Embedding),
  canonical_name: optional(z.string()),
  created_at: Timestamp,
});

export const ToolCall = z.looseObject({
  id: Uuid,
  tool_name: z.string(),
  arguments: JsonObject,
  result: z.unknown().optional(),
  status: ToolCallStatus,
  duration_ms: optional(z.int()),
  error: optional(z.string()),
});

export const ReasoningStep = z.looseObject({
  id: Uuid,
  trace_id: Uuid,
  step_number: z.int(),
  thought: optional(z.string()),
  action: optional(z.string()),
  observation: optional(z.string()),
  tool_calls: z.array(ToolCall),
});

export const ReasoningTrace = z.looseObject({
  id: Uuid,
  session_id: z.string(),
  task: z.string(),
  steps: z.array(ReasoningStep),
  outcome: optional(z.string()),
  success: optional(z.boolean()),
  started_at: Timestamp,
  completed_at: optional(Timestamp),
});

// The protocol names the next five types only; their fields are those the established kit uses.
export const SessionInfo = z.looseObject({
  session_id: z.string(),
  message_count: z.int().nonnegative(),
  created_at: Timestamp,
  updated_at: optional(Timestamp),
});

export const Preference = z.looseObject({
  id: Uuid,
  category: z.string(),
  preference: z.string(),
  context: optional(z.string()),
  embedding: optional(Embedding),
});

export const Fact = z.looseObject({
  id: Uuid,
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  embedding: optional(Embedding),
});

export const ToolStats = z.looseObject({
  name: z.string(),
  total_calls: z.int().nonnegative(),
  successful_calls: z.int().nonnegative(),
  failed_calls: z.int().nonnegative(),
  success_rate: z.number().min(0).max(1),
  avg_duration_ms: optional(z.number().nonnegative()),
});

export const Relationship = z.looseObject({
  id: Uuid,
  source_id: Uuid,
  target_id: Uuid,
  relationship_type: z.string(),
  properties: optional(JsonObject),
});

// Platinum (SPEC.md Volume 5, the bridge form of the hosted operations). Field names are the
// established kit's result models (tck/adapters/base_adapter.py). Conversation ids are strings:
// a conversation made by create_conversation has a UUID id that is also its session_id.
export const PlatinumConversation = Conversation.extend({
  user_id: optional(z.string()),
  workspace_id: optional(z.string()),
  metadata: optional(JsonObject),
});

export const Observation = z.looseObject({
  id: Uuid,
  conversation_id: z.string(),
  content: z.string(),
  window_start: optional(Timestamp),
  window_end: optional(Timestamp),
  created_at: Timestamp,
});

export const Reflection = z.looseObject({
  id: Uuid,
  conversation_id: z.string(),
  content: z.string(),
  created_at: Timestamp,
});

export const ConversationContext = z.looseObject({
  reflections: z.array(Reflection),
  observations: z.array(Observation),
  recent_messages: z.array(Message),
});

export const EntityMention = z.looseObject({
  // The Conversation's id: "uuid-string" (protocol.md 0.2.0, EntityHistory), UUID in the BaseAdapter's
  // TCKEntityMention; bridge-protocol.md: identifiers are UUID strings.
  conversation_id: Uuid,
  message_id: optional(Uuid),
  content: z.string(),
  timestamp: Timestamp,
});

export const EntityHistory = z.looseObject({ entity_id: Uuid, mentions: z.array(EntityMention) });

export const EntityGraph = z.looseObject({
  nodes: z.array(z.looseObject({ id: Uuid, name: z.string(), type: z.string() })),
  edges: z.array(z.looseObject({ id: Uuid, source: Uuid, target: Uuid, type: z.string() })),
});

export const EntityFeedbackResult = z.looseObject({ id: Uuid, updated: z.boolean() });
export const EntityMergeResult = z.looseObject({ source_id: Uuid, target_id: Uuid, status: z.string() });

export const AgentStep = z.looseObject({
  id: Uuid,
  conversation_id: z.string(),
  reasoning: z.string(),
  action_taken: z.string(),
  result: optional(z.string()),
  created_at: Timestamp,
});

export const AgentStepExplanation = AgentStep.extend({ tool_calls: z.array(ToolCall), influenced_entities: z.array(Entity) });
export const ConversationTrace = z.looseObject({ conversation_id: z.string(), steps: z.array(AgentStep), tool_calls: z.array(ToolCall) });
export const EntityProvenance = z.looseObject({ entity_id: Uuid, steps: z.array(AgentStep) });
export const CypherResult = z.looseObject({ columns: z.array(z.string()), rows: z.array(z.array(z.unknown())), stats: optional(JsonObject) });

// Envelopes.
export const SetupResult = z.looseObject({ ok: z.boolean() });
export const DeleteResult = z.looseObject({ deleted: z.boolean() });
export const ErrorBody = z.looseObject({ error: z.string() });

export type Role = z.infer<typeof Role>;
export type EntityType = z.infer<typeof EntityType>;
export type ToolCallStatus = z.infer<typeof ToolCallStatus>;
export type Message = z.infer<typeof Message>;
export type Conversation = z.infer<typeof Conversation>;
export type Entity = z.infer<typeof Entity>;
export type ToolCall = z.infer<typeof ToolCall>;
export type ReasoningStep = z.infer<typeof ReasoningStep>;
export type ReasoningTrace = z.infer<typeof ReasoningTrace>;
export type SessionInfo = z.infer<typeof SessionInfo>;
export type Preference = z.infer<typeof Preference>;
export type Fact = z.infer<typeof Fact>;
export type ToolStats = z.infer<typeof ToolStats>;
export type Relationship = z.infer<typeof Relationship>;
export type SetupResult = z.infer<typeof SetupResult>;
export type DeleteResult = z.infer<typeof DeleteResult>;
export type ErrorBody = z.infer<typeof ErrorBody>;
export type PlatinumConversation = z.infer<typeof PlatinumConversation>;
export type Observation = z.infer<typeof Observation>;
export type Reflection = z.infer<typeof Reflection>;
export type ConversationContext = z.infer<typeof ConversationContext>;
export type EntityHistory = z.infer<typeof EntityHistory>;
export type EntityGraph = z.infer<typeof EntityGraph>;
export type AgentStep = z.infer<typeof AgentStep>;
export type AgentStepExplanation = z.infer<typeof AgentStepExplanation>;
export type ConversationTrace = z.infer<typeof ConversationTrace>;
export type EntityProvenance = z.infer<typeof EntityProvenance>;
export type CypherResult = z.infer<typeof CypherResult>;

/** Every named type of the data model, for `tck schema` and for lookups by name. */
export const MODEL = {
  Message, Conversation, Entity, ReasoningTrace, ReasoningStep, ToolCall,
  SessionInfo, Preference, Fact, ToolStats, Relationship,
  SetupResult, DeleteResult, ErrorBody,
  PlatinumConversation, Observation, Reflection, ConversationContext, EntityMention, EntityHistory, EntityGraph,
  EntityFeedbackResult, EntityMergeResult, AgentStep, AgentStepExplanation, ConversationTrace, EntityProvenance, CypherResult,
} as const;
export type ModelName = keyof typeof MODEL;
