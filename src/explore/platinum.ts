// The oracle of the optional Platinum methods (the established kit's Volume 5). What they create
// (conversations, their messages, the steps record_step keeps) is held apart from the bridge's
// sessions and traces: the two documents never say how the two views meet, so no rule here
// relates them. Entities are shared: get_entity, update_entity, delete_entity and the merges act
// on the entities add_entity made (the model store, HostedStore, does them too).
import { METHODS, type MethodName } from '../protocols/bridge/index.js';
import { ok, opt, same, short, show, type Answer, type Call, type Obj } from './judge.js';
import type { ExploreModel, PlatinumToolCall } from './model.js';
import { violated } from './rules.js';

/** The Platinum methods that change what the model holds. */
export const PLATINUM_WRITES: MethodName[] = ['create_conversation', 'delete_conversation', 'bulk_add_messages', 'update_entity', 'delete_entity', 'set_entity_feedback', 'merge_entities', 'record_step'];

/** The read queries explore sends to cypher_query, and the writes it must refuse. */
export const CYPHER_READS = ['MATCH (n) RETURN count(n) AS total', 'MATCH (n) RETURN $label AS label LIMIT 1'] as const;
export const CYPHER_WRITES = ["CREATE (n:Entity {name: 'tck-explore'}) RETURN n", 'MATCH (n) DETACH DELETE n'] as const;
const isWrite = (q: unknown) => (CYPHER_WRITES as readonly unknown[]).includes(q);

/**
 * For a Platinum call, whether it must succeed (false: the protocol lets it fail); undefined for
 * the other methods.
 */
export function platinumMustSucceed(model: ExploreModel, method: MethodName, mp: Obj): boolean | undefined {
  if (METHODS[method].tier !== 'platinum') return undefined;
  switch (method) {
    case 'cypher_query':
      return !isWrite(mp.cypher); // a write must be refused
    case 'explain_step': {
      // A bridge step: the views' meeting is open. A step of a deleted conversation may be gone with it (delete-conversation-steps).
      const step = model.platinum.steps.get(mp.step_id as string);
      return step !== undefined && model.platinum.conversations.get(step.conversation)?.deleted !== true;
    }
    case 'get_entity':
      return !model.platinum.deletedEntityIds.includes(mp.entity_id as string); // a deleted entity: an error is the answer
    case 'update_entity':
      // silent: a partial update (a field left out) may be refused by a server that replaces the entity.
      return mp.name !== undefined && mp.description !== undefined;
    default:
      return true;
  }
}

const body = (c: Call) => c.answer.body as Obj;
const time = (v: unknown) => (v == null ? undefined : Date.parse(String(v)));
/** a is newer than b by created_at, and by updated_at too when both answer it. */
function newer(a: Obj, b: Obj): boolean {
  const [ua, ub] = [time(a.updated_at), time(b.updated_at)];
  return time(a.created_at)! > time(b.created_at)! && (ua === undefined || ub === undefined || ua > ub);
}
const list = (c: Call) => c.answer.body as Obj[];
const lower = (id: unknown) => String(id).toLowerCase();
const modelIdOf = (model: ExploreModel, id: unknown) => (typeof id === 'string' ? model.ids.toModel(id) : undefined);

/** An entity a Platinum read may show: live (checked against the model), or one the server may hold that the model cannot know. */
function entityAllowed(model: ExploreModel, e: Obj): 'live' | 'foreign' | 'deleted' | 'unknown' {
  const id = modelIdOf(model, e.id);
  if (model.deletedEntities.has(lower(e.id))) return 'deleted';
  if (id !== undefined && model.snapshot().entities.some((x) => x.id === id)) return 'live';
  if (model.fuzzyServer.has(lower(e.id)) || model.mergedAway.has(lower(e.id))) return 'foreign';
  return id === undefined && model.foreignEntities ? 'foreign' : 'unknown';
}

function entityMatches(model: ExploreModel, what: string, e: Obj): void {
  const m = model.snapshot().entities.find((x) => x.id === modelIdOf(model, e.id));
  if (m === undefined) return;
  const diffs = [
    e.name !== m.name && `name ${show(e.name)}, written ${show(m.name)}`,
    typeof e.type === 'string' && e.type.toUpperCase() !== m.type && `type ${show(e.type)}, written ${show(m.type)}`,
    e.description !== undefined && !model.descriptionOpen.has(m.id) && opt(e.description) !== opt(m.description) && `description ${show(e.description)}, written ${show(m.description ?? null)}`,
  ].filter((d): d is string => d !== false);
  if (diffs.length > 0) violated('entity.lifecycle', `${what}: entity ${short(e.id)}: ${diffs.join('; ')}`);
}

function messageFits(what: string, got: Obj, want: { role: string; content: string; metadata: Record<string, unknown> }, rule: 'bulk_add_messages.written' | 'get_context.conversation'): void {
  if (got.role !== want.role || got.content !== want.content || !same(got.metadata ?? {}, want.metadata)) {
    violated(rule, `${what}: message ${short(got.id)} reads ${show({ role: got.role, content: got.content, metadata: got.metadata })}, sent ${show(want)}`);
  }
}

function stepFits(what: string, rule: 'reasoning_steps.steps' | 'explain_step.step' | 'get_trace_by_conversation.trace', got: Obj, want: { conversation: string; reasoning: string; action_taken: string; result: string | null }): void {
  if (lower(got.conversation_id) !== lower(want.conversation) || got.reasoning !== want.reasoning || got.action_taken !== want.action_taken || opt(got.result) !== want.result) {
    violated(rule, `${what}: step ${short(got.id)} reads ${show({ conversation_id: got.conversation_id, reasoning: got.reasoning, action_taken: got.action_taken, result: got.result })}, recorded ${show({ ...want, conversation_id: want.conversation })}`);
  }
}

/** The tool calls of an answer against those recorded (a multiset by id; order is open). */
function callsFit(what: string, rule: 'explain_step.step' | 'get_trace_by_conversation.trace', got: Obj[], want: readonly PlatinumToolCall[]): void {
  const byId = new Map(want.map((c) => [lower(c.id), c]));
  const seen = new Set<string>();
  for (const c of got) {
    const w = byId.get(lower(c.id));
    if (w === undefined || seen.has(lower(c.id))) violated(rule, `${what}: tool call ${show(c)} ${w === undefined ? 'was not recorded on these steps' : 'is listed twice'} (recorded: ${show(want.map((x) => x.tool_name))})`);
    seen.add(lower(c.id));
    if (c.tool_name !== w!.tool_name || !same(c.arguments, w!.arguments) || c.status !== w!.status) violated(rule, `${what}: tool call ${short(c.id)} reads ${show(c)}, recorded ${show(w)}`);
  }
  if (seen.size !== byId.size) violated(rule, `${what}: ${got.length} tool calls, ${byId.size} were recorded on these steps: ${show(want.map((x) => x.tool_name))}`);
}

/** Checks a successful Platinum call; 'not platinum' for the other methods. */
export function judgePlatinum(model: ExploreModel, c: Call): Answer | undefined | 'not platinum' {
  if (METHODS[c.method].tier !== 'platinum') return 'not platinum';
  const p = model.platinum;
  const what = `${c.method}(${show(c.sp)})`;
  switch (c.method) {
    case 'create_conversation': {
      const a = body(c);
      if (p.conversations.has(String(a.id))) violated('create_conversation.written', `${what}: id ${show(a.id)} is the id of a conversation created before`);
      if (a.user_id !== c.mp.user_id) violated('create_conversation.written', `${what}: user_id ${show(a.user_id)}`);
      if (typeof a.workspace_id !== 'string' || a.workspace_id === '') violated('create_conversation.written', `${what}: workspace_id ${show(a.workspace_id)} (a workspace scoped to the caller's key)`);
      if (p.workspace !== undefined && a.workspace_id !== p.workspace) violated('create_conversation.written', `${what}: workspace_id ${show(a.workspace_id)}; the caller's earlier conversations are in ${show(p.workspace)}`);
      p.workspace = a.workspace_id as string;
      // Silent point conversation-session-id: the conversation may have a session of its own, which the bridge lists.
      if (typeof a.session_id === 'string') p.sessions.add(a.session_id);
      p.conversations.set(String(a.id), { id: String(a.id), userId: String(c.mp.user_id), createdAt: typeof a.created_at === 'string' ? a.created_at : undefined, deleted: false, messages: [], steps: [] });
      return undefined;
    }
    case 'list_conversations': {
      const got = list(c);
      const limit = c.mp.limit as number | undefined;
      if (limit != null && got.length > limit) violated('list_conversations.list', `${what}: ${got.length} conversations`);
      for (const [i, x] of got.entries()) {
        const known = p.conversations.get(String(x.id));
        if (known?.deleted) violated('list_conversations.list', `${what}: [${i}] ${short(x.id)} was deleted`);
        // A session the bridge created may be listed as a conversation, under its own id or with its
        // session_id (SPEC-5.1.2 lists the Conversations the key has access to; a session's is one):
        // how the views meet is open (silent point conversation-session-id).
        const ofSession = model.named.has(String(x.id)) || (typeof x.session_id === 'string' && model.named.has(x.session_id));
        if (known === undefined && !ofSession) violated('list_conversations.list', `${what}: [${i}] ${show(x)} is no conversation this sequence created`);
        if (known !== undefined && x.user_id !== known.userId) violated('list_conversations.list', `${what}: [${i}] ${short(x.id)} has user_id ${show(x.user_id)}, created for ${show(known.userId)}`);
        // Silent point conversation-newest: newest by created_at or by last activity; out of order only where both say so.
        if (i > 0 && newer(x, got[i - 1]!)) {
          violated('list_conversations.list', `${what}: not newest first: [${i}] (created_at ${String(x.created_at)}) is newer than [${i - 1}] (${String(got[i - 1]!.created_at)})`);
        }
      }
      const listed = new Set(got.map((x) => String(x.id)));
      // The listed conversation that is oldest by both readings of "newest" (created_at, last activity).
      const oldestListed = Math.min(...got.map((x) => Math.max(Date.parse(String(x.created_at)), x.updated_at == null ? -Infinity : Date.parse(String(x.updated_at)))));
      for (const conv of p.conversations.values()) {
        if (conv.deleted || listed.has(conv.id)) continue;
        // Silent point platinum-list-default: without a limit, a page of any size.
        if (limit != null && got.length < limit) violated('list_conversations.list', `${what}: conversation ${short(conv.id)} (created_at ${String(conv.createdAt)}) is missing (${got.length} listed)`);
        if (conv.createdAt !== undefined && Date.parse(conv.createdAt) > oldestListed) violated('list_conversations.list', `${what}: conversation ${short(conv.id)} (created_at ${conv.createdAt}) is left out, though it is newer than one listed`);
      }
      return undefined;
    }
    case 'get_conversation_metadata': {
      const a = body(c);
      const conv = p.conversations.get(String(c.mp.conversation_id));
      if (conv === undefined) return undefined;
      if (lower(a.id) !== lower(conv.id) || a.user_id !== conv.userId || (p.workspace !== undefined && a.workspace_id !== p.workspace)) {
        violated('get_conversation_metadata.kept', `${what}: answered id ${show(a.id)}, user_id ${show(a.user_id)}, workspace_id ${show(a.workspace_id)}; created with user_id ${show(conv.userId)} in ${show(p.workspace)}`);
      }
      return undefined;
    }
    case 'delete_conversation': {
      const conv = p.conversations.get(String(c.mp.conversation_id));
      if (conv !== undefined) conv.deleted = true;
      return undefined;
    }
    case 'bulk_add_messages': {
      const sent = c.mp.messages as { role: string; content: string; metadata?: Record<string, unknown> }[];
      const got = list(c);
      if (got.length !== sent.length) violated('bulk_add_messages.written', `${what}: ${got.length} messages answered, ${sent.length} sent`);
      const conv = p.conversations.get(String(c.mp.conversation_id));
      got.forEach((m, i) => {
        const want = { role: sent[i]!.role, content: sent[i]!.content, metadata: sent[i]!.metadata ?? {} };
        messageFits(`${what}: [${i}]`, m, want, 'bulk_add_messages.written');
        if (p.messages.has(String(m.id)) || modelIdOf(model, m.id) !== undefined) violated('ids.fresh', `${what}: [${i}] has id ${show(m.id)}, which names another message`);
        p.messages.set(String(m.id), { conversation: String(c.mp.conversation_id), ...want });
        conv?.messages.push(String(m.id));
      });
      model.foreignEntities = true; // the hosted service extracts entities from message content
      return undefined;
    }
    case 'get_context': {
      const a = body(c);
      const conv = String(c.mp.conversation_id);
      for (const m of a.recent_messages as Obj[]) {
        const known = p.messages.get(String(m.id));
        if (known === undefined || known.conversation !== conv) {
          violated('get_context.conversation', `${what}: recent message ${show(m)} is ${known === undefined ? 'no message added to this conversation' : `a message of conversation ${short(known.conversation)}`}`);
        }
        messageFits(what, m, known!, 'get_context.conversation');
      }
      for (const o of [...(a.observations as Obj[]), ...(a.reflections as Obj[])]) {
        if (lower(o.conversation_id) !== lower(conv)) violated('get_context.conversation', `${what}: ${show(o)} belongs to conversation ${show(o.conversation_id)}`);
      }
      return undefined;
    }
    case 'get_observations':
    case 'get_reflections': {
      const got = list(c);
      const limit = c.mp.limit as number | undefined;
      if (limit != null && got.length > limit) violated('get_context.conversation', `${what}: ${got.length} observations`);
      for (const o of got) if (lower(o.conversation_id) !== lower(c.mp.conversation_id)) violated('get_context.conversation', `${what}: ${show(o)} belongs to conversation ${show(o.conversation_id)}`);
      return undefined;
    }
    case 'list_entities': {
      const got = list(c);
      const limit = c.mp.limit as number | undefined;
      const type = c.mp.type as string | undefined;
      if (limit != null && got.length > limit) violated('list_entities.scope', `${what}: ${got.length} entities`);
      for (const e of got) {
        const allowed = entityAllowed(model, e);
        if (allowed === 'deleted' || allowed === 'unknown') violated('list_entities.scope', `${what}: ${show(e)} is ${allowed === 'deleted' ? 'an entity deleted by delete_entity' : 'no entity this sequence added'}`);
        if (type !== undefined && String(e.type).toLowerCase() !== type.toLowerCase() && allowed === 'live') violated('list_entities.scope', `${what}: ${show(e)} is not of type ${show(type)}`);
        if (allowed === 'live') entityMatches(model, what, e);
      }
      return undefined;
    }
    case 'get_entity': {
      const a = c.answer.body as Obj | null;
      if (model.platinum.deletedEntityIds.includes(c.mp.entity_id as string)) {
        // An error (judged before), or anything but the entity itself (SCN-P-117's reading too; a null body is no Entity: call.answer).
        if (a !== null && lower(a.id) === lower(c.sp.entity_id)) violated('entity.lifecycle', `${what}: answered ${show({ id: a.id, name: a.name, type: a.type })}, an entity delete_entity deleted`);
        return undefined;
      }
      if (a === null) violated('entity.lifecycle', `${what}: null, but the entity is live`);
      if (modelIdOf(model, a.id) !== c.mp.entity_id) violated('entity.lifecycle', `${what}: answered entity ${show(a.id)}`);
      entityMatches(model, what, a);
      return undefined;
    }
    case 'update_entity': {
      const a = body(c);
      const id = c.mp.entity_id as string;
      const before = model.snapshot().entities.find((e) => e.id === id);
      if (modelIdOf(model, a.id) !== id || (c.mp.name !== undefined && a.name !== c.mp.name) || (c.mp.description !== undefined && a.description !== c.mp.description)) {
        violated('entity.lifecycle', `${what}: answered ${show({ id: a.id, name: a.name, description: a.description })}`);
      }
      const m = model.call('update_entity', c.mp);
      if (before !== undefined && c.mp.name !== undefined && c.mp.name !== before.name) {
        model.formerNames.set(id, new Set([...(model.formerNames.get(id) ?? []), before.name]));
      }
      // silent: an update that leaves a field out may keep it or clear it (PUT).
      if (c.mp.description === undefined) model.descriptionOpen.add(id);
      else model.descriptionOpen.delete(id);
      return m;
    }
    case 'delete_entity': {
      model.deletedEntities.add(lower(c.sp.entity_id));
      if (!p.deletedEntityIds.includes(c.mp.entity_id as string)) p.deletedEntityIds.push(c.mp.entity_id as string);
      model.fuzzy.delete(c.mp.entity_id as string);
      return model.call('delete_entity', c.mp);
    }
    case 'set_entity_feedback': {
      const a = body(c);
      if (modelIdOf(model, a.id) !== c.mp.entity_id) violated('set_entity_feedback.result', `${what}: answered id ${show(a.id)}, the entity is ${short(c.sp.entity_id)}`);
      return model.call('set_entity_feedback', c.mp);
    }
    case 'get_entity_history': {
      const a = body(c);
      if (modelIdOf(model, a.entity_id) !== c.mp.entity_id) violated('get_entity_history.mentions', `${what}: entity_id ${show(a.entity_id)}`);
      for (const m of a.mentions as Obj[]) {
        if (m.message_id == null) continue;
        const bridge = modelIdOf(model, m.message_id);
        const text = bridge !== undefined ? model.messageText.get(bridge) : p.messages.get(String(m.message_id))?.content;
        if (text === undefined) violated('get_entity_history.mentions', `${what}: mention ${show(m)} names no message that was added`);
        if (m.content !== text) violated('get_entity_history.mentions', `${what}: mention of message ${short(m.message_id)} has content ${show(m.content)}, the message ${show(text)}`);
      }
      return undefined;
    }
    case 'merge_entities': {
      const a = body(c);
      if (lower(a.source_id) !== lower(c.sp.source_id) || lower(a.target_id) !== lower(c.sp.target_id)) {
        violated('merge_entities.link', `${what}: answered source_id ${show(a.source_id)}, target_id ${show(a.target_id)}`);
      }
      const m = model.call('merge_entities', c.mp);
      // silent: whether the source stays (marked) and where relationships go; the description too.
      for (const id of [c.mp.source_id, c.mp.target_id] as string[]) model.fuzzy.add(id);
      model.fuzzyServer.add(lower(c.sp.source_id));
      model.mergedAway.add(lower(c.sp.source_id));
      model.descriptionOpen.add(c.mp.target_id as string);
      model.canonical.delete(c.mp.target_id as string);
      p.links.push({ source: c.mp.source_id as string, target: c.mp.target_id as string, sourceServer: lower(c.sp.source_id), targetServer: lower(c.sp.target_id) });
      return m;
    }
    case 'get_entity_graph': {
      const a = body(c);
      const snap = model.snapshot();
      const nodes = a.nodes as Obj[];
      for (const n of nodes) {
        if (entityAllowed(model, n) === 'deleted') violated('get_entity_graph.graph', `${what}: node ${show(n)} is an entity deleted by delete_entity`);
        entityMatchesName(model, what, n);
      }
      const edges = a.edges as Obj[];
      for (const e of edges) {
        if (e.type === 'SAME_AS') continue; // a merge's provenance may outlive its ends
        for (const end of [e.source, e.target]) if (model.deletedEntities.has(lower(end))) violated('get_entity_graph.graph', `${what}: edge ${show(e)} ends at an entity deleted by delete_entity`);
      }
      const has = (s: string, t: string, type: string) => edges.some((e) => lower(e.source) === s && lower(e.target) === t && e.type === type);
      const live = new Set(snap.entities.map((x) => x.id));
      for (const r of snap.relationships) {
        if (model.fuzzy.has(r.source_id) || model.fuzzy.has(r.target_id) || !live.has(r.source_id) || !live.has(r.target_id)) continue;
        if (!has(lower(model.serverId(r.source_id)), lower(model.serverId(r.target_id)), r.relationship_type)) {
          violated('get_entity_graph.graph', `${what}: no edge for the relationship ${show(r.relationship_type)} from ${short(model.serverId(r.source_id))} to ${short(model.serverId(r.target_id))}`);
        }
      }
      for (const l of p.links) {
        if (!live.has(l.target) || model.deletedEntities.has(l.targetServer)) continue;
        if (!has(l.sourceServer, l.targetServer, 'SAME_AS')) violated('merge_entities.link', `${what}: no SAME_AS edge from the merged ${short(l.sourceServer)} to ${short(l.targetServer)}`);
      }
      return undefined;
    }
    case 'record_step': {
      const a = body(c);
      const want = { conversation: String(c.mp.conversation_id), reasoning: String(c.mp.reasoning), action_taken: String(c.mp.action_taken), result: (c.mp.result as string | undefined) ?? null };
      stepFits(what, 'reasoning_steps.steps', a, want);
      if (p.steps.has(String(a.id)) || modelIdOf(model, a.id) !== undefined) violated('ids.fresh', `${what}: step id ${show(a.id)} names another step`);
      p.steps.set(String(a.id), { ...want, calls: [] });
      p.conversations.get(want.conversation)?.steps.push(String(a.id));
      return undefined;
    }
    case 'list_steps':
    case 'get_trace_by_conversation': {
      const conv = p.conversations.get(String(c.mp.conversation_id));
      const steps = c.method === 'list_steps' ? list(c) : (body(c).steps as Obj[]);
      const rule = c.method === 'list_steps' ? 'reasoning_steps.steps' : 'get_trace_by_conversation.trace';
      if (c.method === 'get_trace_by_conversation' && lower(body(c).conversation_id) !== lower(c.mp.conversation_id)) violated(rule, `${what}: conversation_id ${show(body(c).conversation_id)}`);
      const want = new Set(conv?.steps ?? []);
      for (const s of steps) {
        const known = p.steps.get(String(s.id));
        if (known === undefined || !want.has(String(s.id))) violated(rule, `${what}: step ${show(s)} ${known === undefined ? 'was never recorded' : `was recorded under conversation ${short(known.conversation)}`}`);
        stepFits(what, rule, s, known!);
      }
      if (steps.length !== want.size) violated(rule, `${what}: ${steps.length} steps, ${want.size} were recorded under the conversation`);
      if (c.method === 'get_trace_by_conversation') callsFit(what, 'get_trace_by_conversation.trace', body(c).tool_calls as Obj[], [...want].flatMap((id) => p.steps.get(id)!.calls));
      return undefined;
    }
    case 'explain_step': {
      const a = body(c);
      const known = p.steps.get(String(c.mp.step_id));
      if (known === undefined) return undefined;
      stepFits(what, 'explain_step.step', a, known);
      callsFit(what, 'explain_step.step', a.tool_calls as Obj[], known.calls);
      for (const e of a.influenced_entities as Obj[]) {
        const allowed = entityAllowed(model, e);
        if (allowed === 'deleted' || allowed === 'unknown') violated('explain_step.step', `${what}: influenced entity ${show(e)} is ${allowed === 'deleted' ? 'deleted' : 'no entity this sequence added'}`);
      }
      return undefined;
    }
    case 'get_entity_provenance': {
      const a = body(c);
      if (modelIdOf(model, a.entity_id) !== c.mp.entity_id) violated('get_entity_provenance.steps', `${what}: entity_id ${show(a.entity_id)}`);
      for (const s of a.steps as Obj[]) {
        if (!p.steps.has(String(s.id)) && modelIdOf(model, s.id) === undefined) violated('get_entity_provenance.steps', `${what}: step ${show(s)} was never recorded`);
      }
      return undefined;
    }
    case 'cypher_query': {
      if (!ok(c.answer)) return undefined;
      if (isWrite(c.mp.cypher)) violated('cypher_query.write', `${what}: answered ${show(c.answer.body)}; a query that writes must be rejected`);
      const a = body(c);
      const live = model.snapshot().entities.length;
      if (c.mp.cypher === CYPHER_READS[0]) {
        const total = (a.rows as unknown[][])[0]?.[0];
        if (!same(a.columns, ['total']) || typeof total !== 'number' || total < live) violated('cypher_query.read', `${what}: answered ${show(a)}; ${live} entities are live (each a node)`);
      } else if (live > 0 && !same({ columns: a.columns, rows: a.rows }, { columns: ['label'], rows: [[(c.mp.params as Obj | undefined)?.label ?? null]] })) {
        violated('cypher_query.read', `${what}: answered ${show(a)}, expected the parameter back in one row`);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A graph node of a live entity carries its name. */
function entityMatchesName(model: ExploreModel, what: string, n: Obj): void {
  const m = model.snapshot().entities.find((x) => x.id === modelIdOf(model, n.id));
  // A name update_entity gave: the finding names that sentence too.
  const renamed = m !== undefined && model.formerNames.has(m.id);
  if (m !== undefined && n.name !== m.name) {
    violated('get_entity_graph.graph', `${what}: node ${short(n.id)} is named ${show(n.name)}, the entity ${show(m.name)}${renamed ? ` (update_entity renamed it from ${show([...model.formerNames.get(m.id)!].join(', '))})` : ''}`, renamed ? ['HOSTED-ENDPOINT-update_entity'] : []);
  }
}

