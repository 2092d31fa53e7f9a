// `tck probe`: one harmless call per method, so a vendor sees what answers before a full run.
// Read-only by default: people probe shared staging servers before they dare to `run`, so only
// setup and the reads are called, and every write is shown as not probed. --destructive calls the
// writes too (add_*, delete_*, clear_session, clear_all_data, teardown): it deletes the target's data.
import { BridgeClient, type Outcome } from '../profiles/bridge/index.js';
import { firstContact } from '../profiles/bridge/contact.js';
import { METHODS, type MethodName } from '../protocols/bridge/methods.js';
import { EXIT } from '../engine/errors.js';
import { headersFrom } from './options.js';
import { colorFor } from '../report/render/color.js';
import { TIERS } from '../engine/scenario.js';
import { targetWords, type TargetFlags } from './target.js';

type ProbeStatus = 'answers' | 'rejects' | 'missing' | 'broken' | 'not probed';

interface ProbeRow {
  method: MethodName;
  tier: string;
  status: ProbeStatus;
  detail: string;
}

const PROBE_SESSION = 'tck-probe';
const NIL_UUID = '00000000-0000-4000-8000-000000000000';

/** The methods that change the target's data (or, teardown, its state): called only with --destructive. */
const WRITES: ReadonlySet<MethodName> = new Set<MethodName>([
  'add_message', 'delete_message', 'clear_session', 'add_entity', 'add_preference', 'add_fact', 'start_trace', 'add_step', 'record_tool_call',
  'complete_trace', 'add_relationship', 'merge_duplicate_entities', 'create_conversation', 'bulk_add_messages', 'update_entity', 'set_entity_feedback',
  'record_step', 'merge_entities', 'delete_entity', 'delete_conversation', 'clear_all_data', 'teardown',
]);
const NOT_PROBED = 'a write: not called without --destructive';

/**
 * Probes every method in dependency order, threading ids from earlier answers into later calls.
 * Without `destructive` only setup and the reads are called (with made-up ids where a write would
 * have made one); the writes are rows "not probed".
 */
export async function probe(client: BridgeClient, destructive = false): Promise<ProbeRow[]> {
  const rows: ProbeRow[] = [];
  const ids = { message: NIL_UUID, entity: NIL_UUID, entity2: NIL_UUID, trace: NIL_UUID, step: NIL_UUID, conversation: NIL_UUID, agentStep: NIL_UUID };
  const call = async (method: MethodName, params: Record<string, unknown>, capture?: (v: Record<string, unknown>) => void) => {
    if (!destructive && WRITES.has(method)) {
      rows.push({ method, tier: METHODS[method].tier, status: 'not probed', detail: NOT_PROBED });
      return;
    }
    const { outcome } = await client.call(method, params);
    if (outcome.kind === 'object' && capture) capture(outcome.value);
    rows.push({ method, tier: METHODS[method].tier, ...judge(outcome) });
  };
  const id = (v: Record<string, unknown>) => (typeof v.id === 'string' ? v.id : NIL_UUID);
  /** A write whose row is not shown (it makes the second entity of a merge). */
  const quietly = async (method: MethodName, params: Record<string, unknown>) => {
    if (!destructive) return;
    const { outcome } = await client.call(method, params);
    if (outcome.kind === 'object') ids.entity2 = id(outcome.value);
  };

  // Nothing answers (exit 3), credentials refused or no bridge server (exit 2): contact.ts.
  const first = await firstContact(client, 'nothing was probed');
  rows.push({ method: 'setup', tier: METHODS.setup.tier, ...judge(first.outcome) });
  await call('add_message', { session_id: PROBE_SESSION, role: 'user', content: 'tck probe' }, (v) => (ids.message = id(v)));
  await call('get_conversation', { session_id: PROBE_SESSION });
  await call('search_messages', { query: 'probe' });
  await call('list_sessions', {});
  await call('delete_message', { message_id: ids.message });
  await call('clear_session', { session_id: PROBE_SESSION });
  await call('add_entity', { name: 'TCK Probe A', entity_type: 'OBJECT' }, (v) => (ids.entity = id(v)));
  await call('add_preference', { category: 'tck-probe', preference: 'probe' });
  await call('add_fact', { subject: 'TCK Probe A', predicate: 'is', obj: 'a probe' });
  await call('search_entities', { query: 'probe' });
  await call('search_preferences', { query: 'probe' });
  await call('get_entity_by_name', { name: 'TCK Probe A' });
  await call('get_related_entities', { entity_id: ids.entity });
  await call('start_trace', { session_id: PROBE_SESSION, task: 'tck probe' }, (v) => (ids.trace = id(v)));
  await call('add_step', { trace_id: ids.trace, thought: 'probe' }, (v) => (ids.step = id(v)));
  await call('record_tool_call', { step_id: ids.step, tool_name: 'tck-probe', arguments: {} });
  await call('complete_trace', { trace_id: ids.trace, outcome: 'probed', success: true });
  await call('get_trace_with_steps', { trace_id: ids.trace });
  await call('list_traces', {});
  await call('get_tool_stats', {});
  await quietly('add_entity', { name: 'TCK Probe B', entity_type: 'OBJECT' });
  await call('add_relationship', { source_id: ids.entity, target_id: ids.entity2, relationship_type: 'PROBES' });
  await call('merge_duplicate_entities', { source_id: ids.entity2, target_id: ids.entity });
  await call('get_similar_traces', { task: 'tck probe' });
  // Platinum (optional): a server without it answers 404 or 501, shown as "missing".
  await call('create_conversation', { user_id: 'tck-probe' }, (v) => (ids.conversation = id(v)));
  await call('list_conversations', { limit: 1 });
  await call('get_conversation_metadata', { conversation_id: ids.conversation });
  await call('bulk_add_messages', { conversation_id: ids.conversation, messages: [{ role: 'user', content: 'tck probe' }] });
  await call('get_context', { conversation_id: ids.conversation });
  await call('get_observations', { conversation_id: ids.conversation });
  await call('get_reflections', { conversation_id: ids.conversation });
  await call('list_entities', { limit: 1 });
  await call('get_entity', { entity_id: ids.entity });
  await call('update_entity', { entity_id: ids.entity, description: 'probed' });
  await call('set_entity_feedback', { entity_id: ids.entity, user_score: 1, confirmed: true });
  await call('get_entity_history', { entity_id: ids.entity });
  await call('get_entity_graph', {});
  await call('record_step', { conversation_id: ids.conversation, reasoning: 'probe', action_taken: 'probe' }, (v) => (ids.agentStep = id(v)));
  await call('list_steps', { conversation_id: ids.conversation });
  await call('explain_step', { step_id: ids.agentStep });
  await call('get_trace_by_conversation', { conversation_id: ids.conversation });
  await call('get_entity_provenance', { entity_id: ids.entity });
  await call('cypher_query', { cypher: 'MATCH (n) RETURN count(n) AS total', params: {} });
  await quietly('add_entity', { name: 'TCK Probe C', entity_type: 'OBJECT' });
  await call('merge_entities', { source_id: ids.entity2, target_id: ids.entity });
  await call('delete_entity', { entity_id: ids.entity });
  await call('delete_conversation', { conversation_id: ids.conversation });
  await call('clear_all_data', {});
  await call('teardown', {});
  return rows;
}

/** What a 404 with an {"error"} body adds to its reason; said once under the table, not on every row. */
const LOOKUP_HINT = / \(if the method exists, a lookup that finds nothing answers 200 null\)$/;

function judge(outcome: Outcome): { status: ProbeStatus; detail: string } {
  switch (outcome.kind) {
    case 'error':
      return { status: 'rejects', detail: `${outcome.status} {"error": ${JSON.stringify(outcome.message).slice(0, 80)}}` };
    case 'violation':
      return { status: outcome.notImplemented ? 'missing' : 'broken', detail: outcome.reason };
    case 'transport':
      return { status: 'broken', detail: outcome.reason };
    default:
      return { status: 'answers', detail: outcome.kind };
  }
}

/**
 * Tiers whose probed methods (and every lower tier's) all answer. Read-only, the lookups ask for
 * made-up ids (no write made real ones): an {"error"} refusal answers them as the protocol allows.
 */
function reachableTiers(rows: readonly ProbeRow[], destructive: boolean): string[] {
  const order = ['lifecycle', ...TIERS];
  const reachable: string[] = [];
  const answers = (r: ProbeRow) => r.status === 'answers' || (!destructive && r.status === 'rejects');
  for (const tier of order) {
    if (rows.filter((r) => r.tier === tier && r.status !== 'not probed').some((r) => !answers(r))) break;
    if (tier !== 'lifecycle') reachable.push(tier);
  }
  return reachable;
}

/**
 * 0: every probed method up to Gold answers and none of the optional Platinum ones is broken (a
 * Platinum method may be missing); 1 otherwise. docs/exit-codes.md.
 */
function probeExit(rows: readonly ProbeRow[], tiers: readonly string[]): number {
  return tiers.includes('gold') && !rows.some((r) => r.status === 'broken') ? EXIT.ok : EXIT.notReached;
}

export async function probeCommand(flags: TargetFlags & { header?: string[]; requestTimeout: number; json?: boolean; destructive?: boolean }): Promise<number> {
  const headers = headersFrom(flags.header);
  const embedded = flags.url === undefined
    ? await (await import('../servers/bridge/index.js')).startReferenceServer({ port: 0, store: new (await import('../servers/hosted/store.js')).HostedStore() })
    : undefined;
  let client: BridgeClient;
  try {
    client = new BridgeClient({ url: flags.url ?? embedded!.url, headers, timeoutMs: flags.requestTimeout });
  } catch (err) {
    await embedded?.close();
    throw err;
  }
  try {
    const target = targetWords(client.url, flags.urlFrom, embedded !== undefined);
    const destructive = flags.destructive === true;
    if (!flags.json) {
      process.stdout.write(`probing ${target}\n`);
      process.stdout.write(destructive
        ? `--destructive: the writes are called too, and clear_all_data deletes every piece of data at ${client.url}\n\n`
        : 'read-only: setup and the reads are called, no write (--destructive calls every method, and deletes the data at the target)\n\n');
    }
    const rows = await probe(client, destructive);
    const tiers = reachableTiers(rows, destructive);
    if (flags.json) {
      const from = embedded !== undefined ? 'embedded reference server' : (flags.urlFrom ?? '--url');
      process.stdout.write(`${JSON.stringify({ url: client.url, from, destructive, rows, reachableTiers: tiers }, null, 2)}\n`);
      return probeExit(rows, tiers);
    }
    const c = colorFor(process.stdout);
    const paint = { answers: c.green, rejects: c.yellow, missing: c.red, broken: c.red, 'not probed': c.dim };
    let lookups = 0;
    for (const r of rows) {
      const detail = r.detail.replace(LOOKUP_HINT, () => (lookups++, ' *'));
      process.stdout.write(`${paint[r.status](r.status.padEnd(10))} ${r.tier.padEnd(9)} ${r.method.padEnd(25)} ${c.dim(detail)}\n`);
    }
    if (lookups > 0) process.stdout.write(c.dim(`\n* a 404 with an {"error"} body: a missing method, or a lookup that found nothing (which the protocol answers 200 null)\n`));
    const reads = destructive ? '' : '; reads only: run with --destructive to probe the writes';
    process.stdout.write(`\nreachable tiers of ${target}: ${tiers.length ? tiers.join(', ') : 'none'} (a tier is reachable when its methods and every lower tier's answer the probe; platinum is optional${reads})\n`);
    const broken = rows.filter((r) => r.status === 'broken' && r.tier === 'platinum').map((r) => r.method);
    if (broken.length > 0 && tiers.includes('gold')) process.stdout.write(`platinum is optional, but what a server has of it must work: ${broken.join(', ')} broken\n`);
    return probeExit(rows, tiers);
  } finally {
    await client.close();
    await embedded?.close();
  }
}
