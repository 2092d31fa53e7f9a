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

// ---------------------------------------------------------------- issue 23 item 3, second round
// Written after the fixed Platinum suite grew (SCN-P-110…123), from the text and the kinds of defect
// real servers have (state a delete, a rename or a feedback leaves behind, seen through another
// method), BEFORE explore's Platinum generators or oracle were touched. Which fixed scenarios
// catch each is measured in faults.test.ts.

/** create_conversation hands out again the id of the conversation deleted last (an id pool that recycles). */
class ConversationIdRecycled extends HostedStore {
  #free: string[] = [];
  override delete_conversation(p: Params<'delete_conversation'>): void {
    const known = this.conversationOf(p.conversation_id) !== undefined && this.conversationAttrs.has(p.conversation_id);
    super.delete_conversation(p);
    if (known) this.#free.push(p.conversation_id);
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#free = [];
    super.clear_all_data(p);
  }
  override create_conversation(p: Params<'create_conversation'>): Json {
    const made = super.create_conversation(p);
    const reused = this.#free.pop();
    if (reused === undefined) return made;
    const fresh = String(made.id);
    this.sessions.set(reused, { ...this.sessions.get(fresh)!, session_id: reused, conversation_id: reused });
    this.sessions.delete(fresh);
    this.conversationAttrs.set(reused, this.conversationAttrs.get(fresh)!);
    this.conversationAttrs.delete(fresh);
    return this.bridgeConversation(this.conversationOf(reused)!);
  }
}

/** delete_conversation is a soft delete, and list_conversations(limit) takes the newest N, deleted ones included, then drops those. */
class ConversationsLimitCountsDeleted extends HostedStore {
  #tombstones: { id: string; created_at: string }[] = [];
  override delete_conversation(p: Params<'delete_conversation'>): void {
    const c = this.conversationOf(p.conversation_id);
    if (c !== undefined && this.conversationAttrs.has(p.conversation_id)) this.#tombstones.push({ id: c.id, created_at: c.createdAt });
    super.delete_conversation(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#tombstones = [];
    super.clear_all_data(p);
  }
  override list_conversations(p: Params<'list_conversations'>): Json[] {
    const live = super.list_conversations({ ...p, limit: null });
    if (p.limit == null) return live;
    const rows = [...live.map((c) => ({ c, at: String(c.created_at) })), ...this.#tombstones.map((t) => ({ c: undefined, at: t.created_at }))];
    rows.sort((a, b) => (a.at > b.at ? -1 : a.at < b.at ? 1 : 0));
    return rows.slice(0, p.limit).flatMap((r) => (r.c === undefined ? [] : [r.c]));
  }
}

/** get_entity_graph answers a cached graph that entity writes refresh and add_relationship does not. */
class GraphCacheMissesNewRelationships extends HostedStore {
  #cache: Json | undefined;
  override get_entity_graph(p: Params<'get_entity_graph'>): Json {
    this.#cache ??= super.get_entity_graph(p);
    return structuredClone(this.#cache);
  }
  override add_entity(p: Params<'add_entity'>): Entity {
    this.#cache = undefined;
    return super.add_entity(p);
  }
  override update_entity(p: Params<'update_entity'>): Entity {
    this.#cache = undefined;
    return super.update_entity(p);
  }
  override delete_entity(p: Params<'delete_entity'>): void {
    this.#cache = undefined;
    super.delete_entity(p);
  }
  override merge_entities(p: Params<'merge_entities'>): Json {
    this.#cache = undefined;
    return super.merge_entities(p);
  }
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    this.#cache = undefined;
    return super.merge_duplicate_entities(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#cache = undefined;
    super.clear_all_data(p);
  }
}

/** delete_entity deletes the SAME_AS links of every merge, not only those of the entity (the link delete lacks its filter). */
class DeleteEntityDropsEveryLink extends HostedStore {
  override delete_entity(p: Params<'delete_entity'>): void {
    const known = this.entities.has(p.entity_id);
    super.delete_entity(p);
    if (known) this.sameAs = [];
  }
}

/** list_entities reads a name column written by add_entity that update_entity never rewrites. */
class ListEntitiesStaleName extends HostedStore {
  #names = new Map<string, string>();
  override add_entity(p: Params<'add_entity'>): Entity {
    const e = super.add_entity(p);
    if (!this.#names.has(e.id)) this.#names.set(e.id, e.name);
    return e;
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#names.clear();
    super.clear_all_data(p);
  }
  override list_entities(p: Params<'list_entities'>): Entity[] {
    return super.list_entities(p).map((e) => ({ ...e, name: this.#names.get(e.id) ?? e.name }));
  }
}

/** set_entity_feedback writes back the whole entity as add_entity stored it (a stale document upsert): an earlier update_entity is undone. */
class FeedbackUndoesUpdate extends HostedStore {
  #asAdded = new Map<string, { name: string; description: string | null }>();
  override add_entity(p: Params<'add_entity'>): Entity {
    const e = super.add_entity(p);
    this.#asAdded.set(e.id, { name: e.name, description: e.description ?? null });
    return e;
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#asAdded.clear();
    super.clear_all_data(p);
  }
  override set_entity_feedback(p: Params<'set_entity_feedback'>): { id: string; updated: boolean } {
    const r = super.set_entity_feedback(p);
    const old = this.#asAdded.get(p.entity_id);
    const e = this.entities.get(p.entity_id)?.entity;
    if (old !== undefined && e !== undefined) {
      e.name = old.name;
      e.description = old.description;
    }
    return r;
  }
}

/** delete_entity removes its name from a name index that get_entity_by_name reads: another entity of that name is no longer found. */
class DeleteEntityUnindexesName extends HostedStore {
  #unindexed = new Set<string>();
  override delete_entity(p: Params<'delete_entity'>): void {
    const name = this.entities.get(p.entity_id)?.entity.name;
    super.delete_entity(p);
    if (name !== undefined) this.#unindexed.add(name);
  }
  override add_entity(p: Params<'add_entity'>): Entity {
    this.#unindexed.delete(p.name);
    return super.add_entity(p);
  }
  override update_entity(p: Params<'update_entity'>): Entity {
    if (p.name != null) this.#unindexed.delete(p.name);
    return super.update_entity(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#unindexed.clear();
    super.clear_all_data(p);
  }
  override get_entity_by_name(p: Params<'get_entity_by_name'>): Entity | null {
    return this.#unindexed.has(p.name) ? null : super.get_entity_by_name(p);
  }
}

/** get_entity reads through a cache that update_entity refreshes and delete_entity never evicts: a deleted entity is still answered. */
class GetEntityCacheOutlivesDelete extends HostedStore {
  #cache = new Map<string, Entity>();
  override get_entity(p: Params<'get_entity'>): Entity {
    const hit = this.#cache.get(p.entity_id);
    if (hit !== undefined) return structuredClone(hit);
    const e = super.get_entity(p);
    this.#cache.set(p.entity_id, e);
    return structuredClone(e);
  }
  override update_entity(p: Params<'update_entity'>): Entity {
    const e = super.update_entity(p);
    this.#cache.delete(p.entity_id);
    return e;
  }
  override set_entity_feedback(p: Params<'set_entity_feedback'>): { id: string; updated: boolean } {
    this.#cache.delete(p.entity_id);
    return super.set_entity_feedback(p);
  }
  override merge_entities(p: Params<'merge_entities'>): Json {
    this.#cache.delete(p.source_id);
    this.#cache.delete(p.target_id);
    return super.merge_entities(p);
  }
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>): Entity {
    this.#cache.delete(p.source_id);
    this.#cache.delete(p.target_id);
    return super.merge_duplicate_entities(p);
  }
  override clear_all_data(p: Params<'clear_all_data'>): void {
    this.#cache.clear();
    super.clear_all_data(p);
  }
}

export const PLATINUM_FAULTS: Fault[] = [
  { name: 'list_conversations(limit) keeps the oldest, newest first', make: () => ({ store: new ConversationsLimitOldest() }), breaks: ['SPEC-V5-5.1.2'], platinum: true, caughtBy: ['SCN-P-111'] },
  { name: 'delete_conversation keeps a conversation that has messages', make: () => ({ store: new DeleteKeepsConversationsWithMessages() }), breaks: ['SPEC-V5-5.1.3', 'SPEC-V5-5.1.2'], platinum: true, caughtBy: ['SCN-P-112', 'SCN-P-161'] },
  { name: "get_context's recent messages come from every conversation", make: () => ({ store: new ContextRecentFromEverywhere() }), breaks: ['SPEC-V5-5.2.1'], platinum: true, caughtBy: ['SCN-P-113'] },
  { name: 'get_trace_by_conversation joins tool calls by step number', make: () => ({ store: new TraceToolCallsJoinedByNumber() }), breaks: ['SPEC-V5-5.4.3'], platinum: true, caughtBy: ['SCN-P-121'] },
  { name: 'merge_entities loses the SAME_AS link of a source with relationships', make: () => ({ store: new MergeLinkLostWithRelationships() }), breaks: ['SPEC-V5-5.3.3'], platinum: true },
  { name: 'delete_entity leaves its relationships as edges', make: () => ({ store: new DeleteEntityKeepsEdges() }), breaks: ['SPEC-V5-5.3.4', 'HOSTED-ENDPOINT-delete_entity'], platinum: true, caughtBy: ['SCN-P-117', 'SCN-P-160'] },
  { name: 'get_entity_by_name misses a renamed entity', make: () => ({ store: new RenameNotIndexed() }), breaks: ['SPEC-3.6.1', 'HOSTED-ENDPOINT-update_entity'], platinum: true, caughtBy: ['SCN-P-116', 'SCN-P-160'] },
  { name: 'create_conversation recycles the id of a deleted conversation', make: () => ({ store: new ConversationIdRecycled() }), breaks: ['SPEC-V5-5.1.1'], platinum: true },
  { name: 'list_conversations(limit) counts deleted conversations against the limit', make: () => ({ store: new ConversationsLimitCountsDeleted() }), breaks: ['SPEC-V5-5.1.2', 'SPEC-V5-5.1.3'], platinum: true },
  // Missed until issue 34's histories (get_entity_graph, add_relationship, get_entity_graph again: history.ts).
  { name: 'get_entity_graph is cached across add_relationship', make: () => ({ store: new GraphCacheMissesNewRelationships() }), breaks: ['SPEC-V5-5.3.4'], platinum: true },
  { name: 'delete_entity drops the SAME_AS links of every merge', make: () => ({ store: new DeleteEntityDropsEveryLink() }), breaks: ['SPEC-V5-5.3.3'], platinum: true },
  { name: 'list_entities shows the name an entity was added with after update_entity', make: () => ({ store: new ListEntitiesStaleName() }), breaks: ['HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-list_entities'], platinum: true },
  { name: 'set_entity_feedback undoes an earlier update_entity', make: () => ({ store: new FeedbackUndoesUpdate() }), breaks: ['HOSTED-ENDPOINT-update_entity', 'HOSTED-ENDPOINT-get_entity', 'SPEC-3.6.1'], platinum: true },
  { name: 'get_entity_by_name misses an entity whose namesake was deleted', make: () => ({ store: new DeleteEntityUnindexesName() }), breaks: ['SPEC-3.6.1', 'HOSTED-ENDPOINT-delete_entity'], platinum: true },
  { name: 'get_entity answers a deleted entity it read before', make: () => ({ store: new GetEntityCacheOutlivesDelete() }), breaks: ['HOSTED-ENDPOINT-delete_entity', 'HOSTED-ENDPOINT-get_entity'], caughtBy: ['SCN-P-160'], platinum: true },
];
