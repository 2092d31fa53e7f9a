// The variants that prove the power of the concurrency scenarios (suites/*/concurrency.ts): faulty
// servers with an `await` between a read and a write (../../harness/races.ts), one per sentence a
// race breaks, each caught by a concurrent scenario and by no sequential one; and valid servers that
// serialise every request, answer out of arrival order, or lock per session, none of them flagged.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FaultRow, ValidRow } from '../../harness/power.js';
import { Locks, OpenStore, Race, countedId, readAwaitWrite, strictClock, type OpenState } from '../../harness/races.js';
import type { Relationship } from '../../../src/protocols/bridge/index.js';
import { compose, type Dispatch, type VariantOptions, type Wrap } from '../../harness/variants.js';

/** A racy server: the reference store opened to the wrap, served by a front that runs pipelined requests at once. */
const racy = (wrap: Wrap, store: OpenStore = new OpenStore()): VariantOptions => ({ store, wrap, http: {} });

const sessionOf = (s: OpenState, id: unknown) => s.sessions.get(id as string);
const traceOf = (s: OpenState, id: unknown) => s.traces.get(id as string)?.trace;
const stepOf = (s: OpenState, id: unknown) => s.steps.get(id as string)?.step;

// ------------------------------------------------------------------ the faults, one per sentence

/** A session's messages kept as one document: read, await, written back with the new message. */
const lostMessage: Wrap = readAwaitWrite(
  'add_message',
  (s, b) => [...(sessionOf(s, b.session_id)?.messages ?? [])],
  (s, b, answer, before) => {
    const session = sessionOf(s, b.session_id)!;
    // (The record may already be gone from the list, dropped by another request's write: the index keeps it.)
    session.messages = [...before, s.messages.get(answer.id)!];
  },
);

/** The registry of sessions kept as one document: a session created at the same time as another is lost. */
const lostSession: Wrap = readAwaitWrite(
  'add_message',
  (s) => new Map(s.sessions),
  (s, b, answer, before) => {
    if (before.has(b.session_id)) return;
    s.sessions = new Map([...before, [b.session_id, sessionOf(s, b.session_id) ?? s.messages.get(answer.id)!.session]]);
  },
);

/** Message ids from a counter read before the await and written back after it: two messages, one id. */
function duplicateMessageId(): Wrap {
  return (next, store) => {
    let counter = 1;
    return readAwaitWrite(
      'add_message',
      () => counter,
      (s, _b, answer, n) => {
        counter = n + 1;
        const rec = s.messages.get(answer.id)!;
        s.messages.delete(answer.id);
        rec.message.id = countedId(n);
        s.messages.set(rec.message.id, rec);
        return { ...answer, id: rec.message.id };
      },
    )(next, store);
  };
}

/** message_count kept in a counter per session, read before the await and written after it. */
const staleMessageCount: Wrap = (next, store) => {
  const counts = new Map<string, number>();
  const counting: Dispatch = async (m, body: any) => {
    if (m === 'clear_all_data') counts.clear();
    const res = await next(m, body);
    if (res.status >= 300) return res; // (clear_session answers 204)
    if (m === 'clear_session') counts.delete(body.session_id);
    if (m === 'delete_message' && (res.body as { deleted: boolean }).deleted) {
      // The session of a deleted message: the one whose count the reference lowered.
      const listed = (store as OpenStore).open.sessions;
      for (const [id, count] of counts) if ((listed.get(id)?.messages.length ?? 0) < count) counts.set(id, count - 1);
    }
    if (m === 'list_sessions') {
      return { ...res, body: (res.body as { session_id: string; message_count: number }[]).map((x) => ({ ...x, message_count: counts.get(x.session_id) ?? 0 })) };
    }
    return res;
  };
  return readAwaitWrite('add_message', (_s, b) => counts.get(b.session_id) ?? 0, (_s, b, _a, n) => void counts.set(b.session_id, n + 1))(counting, store);
};

/**
 * A message's timestamp taken when the request is read, the message appended when it is written:
 * requests written in the other order than they were read leave timestamps that go back in time.
 */
const timestampAtRead: Wrap = readAwaitWrite(
  'add_message',
  (s) => (s as unknown as OpenStore).now().toISOString(),
  (s, _b, answer, at) => {
    s.messages.get(answer.id)!.message.timestamp = at;
    return { ...answer, timestamp: at };
  },
  { laterFirst: true },
);

/** step_number = the steps counted before the await, the step appended after it. */
const duplicateStepNumber: Wrap = readAwaitWrite(
  'add_step',
  (s, b) => traceOf(s, b.trace_id)!.steps.length + 1,
  (s, _b, answer, n) => {
    stepOf(s, answer.id)!.step_number = n;
    return { ...answer, step_number: n };
  },
);

/** A trace's steps kept as one document: a step added at the same time as another is lost. */
const lostStep: Wrap = readAwaitWrite(
  'add_step',
  (s, b) => [...traceOf(s, b.trace_id)!.steps],
  (s, b, answer, before) => {
    const trace = traceOf(s, b.trace_id)!;
    trace.steps = [...before, stepOf(s, answer.id)!];
  },
);

/** A step's tool calls kept as one document: a call recorded at the same time as another is lost. */
const lostToolCall: Wrap = readAwaitWrite(
  'record_tool_call',
  (s, b) => [...stepOf(s, b.step_id)!.tool_calls],
  (s, b, answer, before) => {
    const step = stepOf(s, b.step_id)!;
    step.tool_calls = [...before, step.tool_calls.find((c) => c.id === answer.id) ?? structuredClone(answer)];
  },
);

/**
 * The statistics kept apart from the calls, as the set of calls counted so far (a counter row):
 * read before the await, written back after it, so a call recorded at the same time is not counted.
 */
const staleToolStats: Wrap = (next, store) => {
  let counted = new Set<string>();
  const state = (store as OpenStore).open;
  const stats: Dispatch = async (m, body) => {
    if (m === 'clear_all_data') counted = new Set();
    if (m !== 'get_tool_stats') return next(m, body);
    // The reference's aggregate over the counted calls only (synchronously: no request sees the hidden lists).
    const kept = [...state.steps.values()].map(({ step }) => [step, step.tool_calls] as const);
    for (const [step, calls] of kept) step.tool_calls = calls.filter((c) => counted.has(c.id));
    try {
      return next(m, body);
    } finally {
      for (const [step, calls] of kept) step.tool_calls = calls;
    }
  };
  return readAwaitWrite('record_tool_call', () => new Set(counted), (_s, _b, answer, before) => void (counted = new Set([...before, answer.id])))(stats, store);
};

/** The entities kept as one document: an entity added at the same time as another is lost. */
const lostEntity: Wrap = readAwaitWrite(
  'add_entity',
  (s) => new Map(s.entities),
  (s, _b, answer, before) => void (s.entities = new Map([...before, [answer.id, s.entities.get(answer.id) ?? { entity: structuredClone(answer), aliases: [] }]])),
);

/** Trace ids from a counter read before the await and written back after it. */
function duplicateTraceId(): Wrap {
  return (next, store) => {
    let counter = 1;
    return readAwaitWrite(
      'start_trace',
      () => counter,
      (s, _b, answer, n) => {
        counter = n + 1;
        const rec = s.traces.get(answer.id)!;
        s.traces.delete(answer.id);
        rec.trace.id = countedId(n);
        s.traces.set(rec.trace.id, rec);
        return { ...answer, id: rec.trace.id };
      },
    )(next, store);
  };
}

/** The relationships kept as one document: one added at the same time as another is lost. */
const lostRelationship: Wrap = readAwaitWrite(
  'add_relationship',
  (s) => [...s.relationships],
  (s, _b, answer, before) => void (s.relationships = [...before, s.relationships.find((r) => r.id === answer.id) ?? structuredClone(answer)]),
);

/**
 * The relationships kept as one document that add_relationship and merge_duplicate_entities both
 * read before an await and write back after it (an add: what it read plus its own; a merge: what it
 * read, re-pointed): whichever writes last, what the others wrote meanwhile is lost.
 */
const mergeFromStaleGraph: Wrap = (next, store) => {
  const state = (store as OpenStore).open;
  const race = new Race();
  return race.track(async (m, body: any) => {
    if (m !== 'add_relationship' && m !== 'merge_duplicate_entities') return next(m, body);
    const before = [...state.relationships];
    await race.meet();
    const res = await next(m, body);
    if (res.status !== 200) return res;
    if (m === 'add_relationship') state.relationships = [...before, state.relationships.find((r) => r.id === (res.body as { id: string }).id) ?? structuredClone(res.body as Relationship)];
    // The reference re-points in place what it keeps: the merge's own result, cut down to what it read.
    else state.relationships = state.relationships.filter((r) => before.includes(r));
    return res;
  });
};

/** The request being served kept in one variable shared by every request: answers cross. */
const crossedAnswers: Wrap = (next) => {
  const race = new Race();
  let current: unknown;
  return race.track(async (m, body) => {
    if (m !== 'get_conversation') return next(m, body);
    current = body;
    await race.meet();
    return next(m, current);
  });
};

// ------------------------------------------------------------------ the table

/** The concurrency scenarios, by id (suites/bronze|silver|gold/concurrency.ts). */
const CONCURRENCY_IDS = {
  oneSession: 'SCN-B-143',
  oneSessionPipelined: 'SCN-B-144',
  sessions: 'SCN-B-145',
  crossed: 'SCN-B-146',
  steps: 'SCN-S-112',
  callsOneStep: 'SCN-S-113',
  stats: 'SCN-S-114',
  entities: 'SCN-S-115',
  traces: 'SCN-S-116',
  relationships: 'SCN-G-108',
  merge: 'SCN-G-109',
} as const;
const C = CONCURRENCY_IDS;

export const FAULTS: FaultRow[] = [
  [C.oneSession, 'add_message rewrites the session read before an await: concurrent messages are lost', racy(lostMessage), /get_conversation.*SPEC-2\.1\.16|stored once/],
  [C.oneSessionPipelined, 'add_message rewrites the session read before an await (pipelined on one connection)', racy(lostMessage), /stored once/],
  [C.oneSession, 'message ids from a counter read before an await: two messages get one id', racy(duplicateMessageId()), /distinct|new id/],
  [C.oneSession, 'message_count kept in a counter read before an await', racy(staleMessageCount), /message_count/],
  [C.oneSession, "a message's timestamp taken before the await, the message appended after it", racy(timestampAtRead, new OpenStore({ now: strictClock() })), /timestamps? .*decrease|never decrease/],
  [C.sessions, 'the registry of sessions rewritten from a read before an await: a session is lost', racy(lostSession), /list_sessions|session/],
  [C.crossed, 'the request being served kept in a variable every request shares: answers cross', racy(crossedAnswers), /another session|asked for/],
  [C.steps, 'step_number counted before an await: two steps, one number', racy(duplicateStepNumber), /step_number/],
  [C.steps, "a trace's steps rewritten from a read before an await: a step is lost", racy(lostStep), /step_number|every step/],
  [C.callsOneStep, "a step's tool calls rewritten from a read before an await: a call is lost", racy(lostToolCall), /tool call|total_calls/],
  [C.stats, 'the calls counted in the statistics rewritten from a read before an await', racy(staleToolStats), /total_calls|get_tool_stats/],
  [C.entities, 'the entities rewritten from a read before an await: an entity is lost', racy(lostEntity), /get_entity_by_name/],
  [C.traces, 'trace ids from a counter read before an await: two traces, one id', racy(duplicateTraceId()), /own id|distinct/],
  [C.relationships, 'the relationships rewritten from a read before an await: one is lost', racy(lostRelationship), /get_related_entities/],
  [C.merge, 'a merge writes back the relationships it read before an await: those added meanwhile are lost', racy(mergeFromStaleGraph), /get_related_entities|relationships/],
];

// ------------------------------------------------------------------ valid: the same awaits, made harmless

/** Every request runs alone, one after the other, holding the lock across an await (one database connection). */
const serialised: Wrap = (next) => {
  const locks = new Locks();
  return (m, body) => locks.with('all', async () => {
    await nextTurn();
    return next(m, body);
  });
};

/** Each request is done at once; its answer goes after a number of turns that varies with its arrival, so answers overtake one another. */
const outOfOrder: Wrap = (next) => {
  let arrivals = 0;
  return async (m, body) => {
    const res = await next(m, body);
    for (let i = (arrivals++ * 7) % 5; i > 0; i--) await nextTurn();
    return res;
  };
};

/**
 * The racy read-await-writes of the faulty table, each under a lock of what it writes (the
 * session, the trace, the step, the entity graph, the statistics): correct whatever arrives at once.
 */
const lockedPerSession: Wrap = (next, store) => {
  const locks = new Locks();
  const keyOf = (m: string, b: any): string | undefined => {
    switch (m) {
      case 'add_message':
        return `session:${b.session_id}`;
      case 'add_step':
        return `trace:${b.trace_id}`;
      case 'record_tool_call':
        return 'tool-calls';
      case 'add_entity':
      case 'add_relationship':
      case 'merge_duplicate_entities':
        return 'graph';
      case 'start_trace':
        return 'traces';
      default:
        return undefined;
    }
  };
  // The faulty read-await-writes, composed: without the locks this server loses messages, steps, calls, entities and relationships.
  const racyInside = compose(lostMessage, lostStep, lostToolCall, lostEntity, lostRelationship)(next, store);
  return async (m, body) => {
    const key = keyOf(m, body);
    return key === undefined ? racyInside(m, body) : locks.with(key, async () => racyInside(m, body));
  };
};

export const VALID: ValidRow[] = [
  ['every request is served alone, one after the other, across an await', { store: new OpenStore(), wrap: serialised, http: {} }],
  ['answers leave out of arrival order', { store: new OpenStore(), wrap: outOfOrder, http: {} }],
  ['each read-await-write runs under a lock of what it writes (per session, per trace)', { store: new OpenStore(), wrap: lockedPerSession, http: {} }],
];
