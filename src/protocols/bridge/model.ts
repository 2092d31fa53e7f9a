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

/** Every named type of the data model, for `tck schema` and for lookups by name. */
export const MODEL = {
  Message, Conversation, Entity, ReasoningTrace, ReasoningStep, ToolCall,
  SessionInfo, Preference, Fact, ToolStats, Relationship,
  SetupResult, DeleteResult, ErrorBody,
} as const;
export type ModelName = keyof typeof MODEL;
