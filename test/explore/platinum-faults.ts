// Issue 23 item 3: stateful faults of the optional Platinum methods (the established kit's Volume 5),
// written BEFORE explore drew Platinum methods. Each is the hosted reference store (which implements
// Volume 5) with one rule broken after a particular history of calls; `breaks` names the sentence.
import { HostedStore } from '../../src/servers/hosted/store.js';
import type { Params } from '../../src/servers/bridge/index.js';
import type { Entity } from '../../src/protocols/bridge/index.js';
import type { Fault } from './faults-22.js';

type Json = Record<string, any>;

/** list_conversations(limit) takes the N oldest conversations, then orders them newest first. */
class ConversationsLimitOldest extends HostedStore {
  override list_conversations(p: Params<'list_conversations'>): Json[] {
    const all = super.list_conversations({ ...p, limit: null });
    return p.limit == null ? all : all.slice(Math.max(0, all.length - p.limit));
  }
}

/** delete_conversation deletes only conversations without messages (a foreign key it does not cascade); it still answers 204. */
class DeleteKeepsConversationsWithMessages extends HostedStore {
  override delete_conversation(p: Params<'delete_conversation'>): void {
    if ((this.sessions.get(p.conversation_id)?.messages.length ?? 0) > 0) return;
    super.delete_conversation(p);
  }
}

/** get_context's recent messages are the latest messages of every conversation (the query lacks its conversation filter). */
class ContextRecentFromEverywhere extends HostedStore {
  override get_context(p: Params<'get_context'>): Json {
    const c = super.get_context(p);
    const all = [...this.sessions.values()].flatMap((s) => s.messages.map((r) => r.message));
    const recent = all.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0)).slice(-20);
    return { ...c, recent_messages: structuredClone(recent) };
  }
}

/** get_trace_by_conversation joins tool calls to the conversation's steps by step number, across every conversation. */
class TraceToolCallsJoinedByNumber extends HostedStore {
  override get_trace_by_conversation(p: Params<'get_trace_by_conversation'>): Json {
    const t = super.get_trace_by_conversation(p);
    const own = [...this.traces.values()].filter((r) => r.trace.session_id === p.conversation_id).flatMap((r) => r.trace.steps);
    const numbers = new Set(own.map((s) => s.step_number));
    const calls = [...this.traces.values()].flatMap((r) => r.trace.steps).filter((s) => numbers.has(s.step_number))
      .flatMap((s) => s.tool_calls.map((c) => ({ ...structuredClone(c), step_id: s.id })));
    return { ...t, tool_calls: calls };
  }
}

/** merge_entities leaves no SAME_AS link when the source had relationships (the link is written with them and lost when they are re-pointed). */
class MergeLinkLostWithRelationships extends HostedStore {
  override merge_entities(p: Params<'merge_entities'>): Json {
    const had = this.relationships.some((r) => r.source_id === p.source_id || r.target_id === p.source_id);
    const r = super.merge_entities(p);
    if (had) this.sameAs = this.sameAs.filter((l) => l.sourceId !== p.source_id);
    return r;
  }
}

/** delete_entity leaves the entity's relationships in place: the graph keeps edges to an entity that is gone. */
class DeleteEntityKeepsEdges extends HostedStore {
  override delete_entity(p: Params<'delete_entity'>): void {
    const kept = this.relationships.filter((r) => r.source_id === p.entity_id || r.target_id === p.entity_id);
    super.delete_entity(p);
    this.relationships.push(...kept);
  }
}

/** get_entity_by_name reads a name index written by add_entity and never updated by update_entity. */
class RenameNotIndexed extends HostedStore {
  #names = new Map<string, string>();
  override add_entity(p: Params<'add_entity'>): Entity {
    const e = super.add_entity(p);
    this.#names.set(e.id, p.name);
    return e;
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#names.clear();
    super.clear_all_data(p);
  }
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    const renamed = (id: string) => this.#names.has(id) && this.#names.get(id) !== this.entities.get(id)?.entity.name;
    const hit = super.get_entity_by_name(p);
    if (hit !== null && !renamed(hit.id)) return hit;
    const byOld = [...this.#names].find(([id, name]) => name === p.name && this.entities.has(id));
    return byOld === undefined ? null : structuredClone(this.entities.get(byOld[0])!.entity);
  }
}

export const PLATINUM_FAULTS: Fault[] = [
  { name: 'list_conversations(limit) keeps the oldest, newest first', make: () => ({ store: new ConversationsLimitOldest() }), breaks: ['SPEC-V5-5.1.2'], platinum: true, caughtBy: ['SCN-P-111'] },
  { name: 'delete_conversation keeps a conversation that has messages', make: () => ({ store: new DeleteKeepsConversationsWithMessages() }), breaks: ['SPEC-V5-5.1.3', 'SPEC-V5-5.1.2'], platinum: true, caughtBy: ['SCN-P-112'] },
  { name: "get_context's recent messages come from every conversation", make: () => ({ store: new ContextRecentFromEverywhere() }), breaks: ['SPEC-V5-5.2.1'], platinum: true, caughtBy: ['SCN-P-113'] },
  { name: 'get_trace_by_conversation joins tool calls by step number', make: () => ({ store: new TraceToolCallsJoinedByNumber() }), breaks: ['SPEC-V5-5.4.3'], platinum: true, caughtBy: ['SCN-P-121'] },
  { name: 'merge_entities loses the SAME_AS link of a source with relationships', make: () => ({ store: new MergeLinkLostWithRelationships() }), breaks: ['SPEC-V5-5.3.3'], platinum: true },
  { name: 'delete_entity leaves its relationships as edges', make: () => ({ store: new DeleteEntityKeepsEdges() }), breaks: ['SPEC-V5-5.3.4', 'HOSTED-ENDPOINT-delete_entity'], platinum: true, caughtBy: ['SCN-P-117'] },
  { name: 'get_entity_by_name misses a renamed entity', make: () => ({ store: new RenameNotIndexed() }), breaks: ['SPEC-3.6.1', 'HOSTED-ENDPOINT-update_entity'], platinum: true, caughtBy: ['SCN-P-116'], missed: 'needs update_entity to rename an entity, then get_entity_by_name with the new name: the generators rename rarely' },
];
