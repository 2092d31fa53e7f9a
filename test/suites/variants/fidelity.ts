// The faulty and valid variants of the fidelity scenarios added for issue 12 (defects only visible after history, with inputs that
// expose truncation, normalisation and case-folding, or at the HTTP level): each fails a server
// breaking its one rule, with a message naming the method, what was sent and got, and the clause.
import { randomUUID } from 'node:crypto';
import { MemoryStore, type Params } from '../../../src/servers/bridge/index.js';
import type { ReasoningTrace } from '../../../src/protocols/bridge/index.js';
import { TOOL_CALL_STATUSES } from '../../../src/protocols/bridge/model.js';
import type { FaultRow, ValidRow } from '../../harness/power.js';
import { mapRequest, mapResponse, type Wrap } from '../../harness/variants.js';
import { FAULTS as MATRIX_FAULTS } from './matrix.js';

 


/**
 * Keeps deleted messages as tombstones and applies get_conversation's limit (last N) before
 * dropping them: a session whose newest messages were deleted answers fewer than limit.
 */
const limitBeforeDeletes: Wrap = (next) => {
  const everAdded = new Map<string, string[]>();
  return async (m, body: any) => {
    const res = await next(m, body);
    if (m === 'add_message' && res.status === 200) everAdded.set(body.session_id, [...(everAdded.get(body.session_id) ?? []), (res.body as any).id]);
    if (m !== 'get_conversation' || res.status !== 200 || body.limit == null) return res;
    const whole = (await next(m, { ...body, limit: undefined })).body as any;
    const window = new Set((everAdded.get(body.session_id) ?? []).slice(-body.limit));
    return { ...res, body: { ...whole, messages: whole.messages.filter((x: any) => window.has(x.id)) } };
  };
};

/** Hands the id of the last deleted message to the next thing created. */
export function reusesDeletedIds(): MemoryStore {
  const free: string[] = [];
  return new (class extends MemoryStore {
    override delete_message(p: Params<'delete_message'>) {
      const r = super.delete_message(p);
      if (r.deleted) free.push(p.message_id);
      return r;
    }
  })({ newId: () => free.pop() ?? randomUUID() });
}

/** complete_trace sets started_at to the completion time too (a clock that ticks 1 s per call). */
function overwritesStartedAt(): MemoryStore {
  let tick = Date.parse('2026-01-01T00:00:00.000Z');
  return new (class extends MemoryStore {
    override complete_trace(p: Params<'complete_trace'>): ReasoningTrace {
      const done = super.complete_trace(p);
      const rec = this.traces.get(p.trace_id)!;
      rec.trace.started_at = done.completed_at!;
      return { ...done, started_at: done.completed_at! };
    }
  })({ now: () => new Date((tick += 1000)) });
}

/**
 * complete_trace writes its completion time over started_at, on a fast server: its clock has not
 * moved between start_trace and complete_trace (within one millisecond), deterministically — the
 * clock moves one millisecond when a trace is started, and at no other call. SCN-S-108 sees the
 * overwrite only when it makes the server's clock move past started_at before completing.
 */
function overwritesStartedAtWithinAMillisecond(): MemoryStore {
  let ms = Date.parse('2026-01-01T00:00:00.000Z');
  return new (class extends MemoryStore {
    override start_trace(p: Params<'start_trace'>): ReasoningTrace {
      ms += 1;
      return super.start_trace(p);
    }
    override complete_trace(p: Params<'complete_trace'>): ReasoningTrace {
      const done = super.complete_trace(p);
      this.traces.get(p.trace_id)!.trace.started_at = done.completed_at!;
      return { ...done, started_at: done.completed_at! };
    }
  })({ now: () => new Date(ms) });
}

/** merge_duplicate_entities moves only the source's outgoing relationships (incoming ones are lost). */
class MergesOutgoingOnly extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    this.relationships = this.relationships.filter((r) => r.target_id !== p.source_id || r.source_id === p.target_id);
    return super.merge_duplicate_entities(p);
  }
}

/** record_tool_call stores any status as given (the reference refuses one outside the six). */
const storesAnyStatus: Wrap = (next) => async (m, b: any) => {
  if (m !== 'record_tool_call' || (TOOL_CALL_STATUSES as readonly string[]).includes(b.status ?? 'success')) return next(m, b);
  const res = await next(m, { ...b, status: 'success' });
  return res.status === 200 ? { ...res, body: { ...(res.body as object), status: b.status } } : res;
};

const lowerSessions: Wrap = (next) => (m, body: any) =>
  next(m, typeof body?.session_id === 'string' ? { ...body, session_id: body.session_id.toLowerCase() } : body);

export const FAULTS: FaultRow[] = [
  ['SCN-B-136', 'a malformed JSON body is answered 500 text/plain', { http: { badJson: { status: 500, contentType: 'text/plain', text: 'Internal Server Error' } } },
    /add_message with the body .* \(malformed JSON\): 500 with \{"error": string\} expected, got body Internal Server Error \(BRIDGE-ERRORS-1/, 'error'],
  ['SCN-B-136', 'every answer is labelled gzip but not encoded', { http: { contentEncodingLabel: 'gzip' } },
    /add_message with the body .* \(malformed JSON\): Content-Encoding "gzip", but the body is not gzip data/, 'error'],
  ['SCN-B-137', 'get_conversation applies limit before dropping deleted messages', limitBeforeDeletes,
    /get_conversation\(session_id="limit-after-delete", limit=3\) after deleting .*\(SPEC-2\.2\.2.*expected 3 of m1, m2, m4, m5, got 1 message\(s\) \["m5"\]/],
  ['SCN-B-138', 'a deleted message\'s id is given to the next message', { store: reusesDeletedIds() },
    /add_message after delete_message\(.*\) \(SPEC-2\.8\.1.*\): a new message reuses the deleted id/],
  ['SCN-B-139', 'session ids are compared case-insensitively', lowerSessions,
    /get_conversation\(session_id="Tck-Case"\) .*\(SPEC-2\.2\.4.*\): expected \["only in Tck-Case"\], got \["only in Tck-Case","only in tck-case","only in TCK-CASE"\]/],
  ['SCN-B-140', 'content is cut at 64 KiB', mapRequest('add_message', (b) => ({ ...b, content: b.content.slice(0, 65_536) })),
    /add_message\(content=<over 64 KiB>\) answer \(SPEC-2\.1\.8.*\): expected the \d+ characters sent, got 65536 characters \(first difference at index 65536\)/],
  ['SCN-S-104', 'record_tool_call stores and answers an unknown status as given', storesAnyStatus,
    /record_tool_call\(.*status="done"\) \(status="done" \(SPEC §1\.5: status is one of pending, success.*\)\): response does not match the data model:[\s\S]*status/],
  ['SCN-S-104', 'record_tool_call refuses an unknown status with an empty error text', (next) => async (m, b: any) => {
    const res = await next(m, b);
    return m === 'record_tool_call' && res.status === 400 ? { status: 400, body: { error: ' ' } } : res;
  }, /record_tool_call\(.*status="done"\) .*: the error text must say what went wrong, got " "/],
  // A refusal's 404 is a missing method only when a method that does not exist gets the same answer
  // (probed as for every call); here record_tool_call has not answered before in the run.
  ['SCN-S-104', 'record_tool_call refuses an unknown status with 404 {"error": "unknown status"}', (next) => async (m, b: any) => {
    const res = await next(m, b);
    return m === 'record_tool_call' && res.status === 400 ? { status: 404, body: { error: 'unknown status' } } : res;
  }, /^record_tool_call\(.*status="done"\) .*: 404 Not Found \{"error":"unknown status"\}, though a method that does not exist \(tck_no_such_method\) answers 404 Not Found .*: record_tool_call exists, so this is a protocol error, not a missing method \(BRIDGE-ERRORS-1/, 'error'],
  ['SCN-S-105', 'record_tool_call without status records pending', mapRequest('record_tool_call', (b) => ({ status: 'pending', ...b })),
    /record_tool_call\(.*\) without status \(the established default is success\): status of the answer: expected "success", got "pending"/],
  ['SCN-S-106', 'descriptions are cut at 255 characters', mapRequest('add_entity', (b) => (typeof b.description === 'string' ? { ...b, description: b.description.slice(0, 255) } : b)),
    /add_entity\(description=<1193 characters>\) answer \(SPEC-3\.1\.2.*\): expected the 1193 characters sent, got 255 characters/],
  ['SCN-S-107', 'fact predicates are normalised to UPPER_SNAKE', mapRequest('add_fact', (b) => ({ ...b, predicate: b.predicate.toUpperCase().replace(/[^A-Z0-9]+/g, '_') })),
    /add_fact\(subject="Alice", predicate="works at", obj="Acme Corp"\) \(SPEC-3\.3\.1.*\): expected .*"works at".*, got .*"WORKS_AT"/],
  ['SCN-S-108', 'complete_trace overwrites started_at', { store: overwritesStartedAt() },
    /complete_trace\(<the trace>\) answer: started_at as an instant \(start_trace answered 2026-01-01T00:00:01\.000Z, it is now 2026-01-01T00:00:0\d\.000Z; the trace's start time/],
  ['SCN-S-108', 'complete_trace overwrites started_at, completing within the same millisecond', { store: overwritesStartedAtWithinAMillisecond() },
    /complete_trace\(<the trace>\) answer: started_at as an instant \(start_trace answered 2026-01-01T00:00:00\.001Z, it is now 2026-01-01T00:00:00\.00[3-9]Z; the trace's start time/],
  ['SCN-S-109', 'success_rate is null when no call has finished', mapResponse('get_tool_stats', (l) => l.map((s: any) => (s.successful_calls + s.failed_calls === 0 ? { ...s, success_rate: null } : s))),
    /get_tool_stats: response does not match the data model:\s+\[0\]\.success_rate: expected number, got null/],
  ['SCN-G-104', 'merge moves only the source\'s outgoing relationships', { store: new MergesOutgoingOnly() },
    /get_related_entities\(entity_id=<Bob>, relationship_type="KNOWS"\) after merging Dup \(Bob → Dup\) into Alice \(SPEC-5\.3\.2.*\): expected .* among the results, got \[\]/],
  ['SCN-G-105', 'relationship types are upper-cased', mapRequest('add_relationship', (b) => ({ ...b, relationship_type: b.relationship_type.toUpperCase() })),
    /add_relationship\(relationship_type="works_with"\) answer \(SPEC-5\.2\.1.*\): expected "works_with", got "WORKS_WITH"/],
  ['SCN-G-106', 'properties answered as a JSON text', mapResponse('add_relationship', (r) => ({ ...r, properties: JSON.stringify(r.properties ?? {}) })),
    /add_relationship: response does not match the data model:[\s\S]*properties/],
  ['SCN-G-106', 'nested objects in properties are dropped', mapRequest('add_relationship', (b) => ({ ...b, properties: b.properties && Object.fromEntries(Object.entries(b.properties).filter(([, v]) => typeof v !== 'object' || v === null)) })),
    /add_relationship\(properties=<nested object>\) answer: properties as sent/],
  // The cells of the coverage matrix (issue 34) closed by fixed scenarios.
  ...MATRIX_FAULTS,
];

/** The store searched only when the session exists (an unknown session filter is a TypeError: 500). */
class SearchUnknownSession500 extends MemoryStore {
  override search_messages(p: Params<'search_messages'>) {
    if (p.session_id != null && !this.sessions.has(p.session_id)) throw new TypeError("Cannot read properties of undefined (reading 'messages')");
    return super.search_messages(p);
  }
}

/** Merging an entity into itself deletes it. */
class SelfMergeDeletes extends MemoryStore {
  override merge_duplicate_entities(p: Params<'merge_duplicate_entities'>) {
    if (p.source_id !== p.target_id) return super.merge_duplicate_entities(p);
    const e = this.entities.get(p.source_id)!.entity;
    this.entities.delete(p.source_id);
    return structuredClone(e);
  }
}

FAULTS.push(
  ['SCN-B-141', 'search_messages fails for a session never written to', { store: new SearchUnknownSession500() },
    /search_messages: expected success, got 500 .*Cannot read properties of undefined/],
  ['SCN-S-110', 'search_preferences with a limit finds nothing', mapResponse('search_preferences', (l: unknown[], req) => (req.limit != null ? [] : l)),
    /search_preferences\(query="concise answers", limit=2\) with 5 matching preferences .*: expected at least one item, got \[\]/],
  ['SCN-G-107', 'merging an entity into itself deletes it', { store: new SelfMergeDeletes() },
    /get_entity_by_name\(name="Self Merge Co"\) after merge_duplicate_entities\(source_id=<A>, target_id=<A>\) \(SPEC-5\.3\.1/],
);

export const VALID: ValidRow[] = [
  ['relationship properties left out when none were given', mapResponse('add_relationship', (r, req) => {
    if (req.properties == null) delete r.properties;
    return r;
  })],
  ['merging an entity into itself refused with 400', (next) => (m, b: any) => (m === 'merge_duplicate_entities' && b.source_id === b.target_id ? { status: 400, body: { error: 'same entity' } } : next(m, b))],
  ['pending tool calls counted as failed', mapResponse('get_tool_stats', (l) => l.map((s: any) => ({ ...s, failed_calls: s.total_calls - s.successful_calls })))],
];
