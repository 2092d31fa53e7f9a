// The shape of the protocol itself (bridge-protocol.md: "Request rules", "Response rules",
// "Errors", "Lifecycle"). Calls go through ctx.raw and are judged on their classified kind, so a
// broken shape (a 200 where 204 is due, an envelope around a list, a 404 for "nothing found", an
// error without {"error": string}) is reported as a protocol fault (outcome: error), apart from
// behaviour faults such as a rejected valid call or a failed call that still changed data (failed).
// Three rules can only be shown with Silver methods (null lookups, add_step): against a target
// without them the scenario notes that and checks the rest.
// Every check cites its rule (check.by): the rule of the scenario, or the sentence of Volume 2 a value
// read back enforces. Calls the kit expects refused are judged by support/refusals.ts: that they are
// refused, and that a refused call changes nothing, are advisories; the error answer is a rule.
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { check, show } from '../../src/engine/assert.js';
import { describeOutcome, type BridgeApi, type ScenarioContext } from '../../src/profiles/bridge/context.js';
import { ProtocolFault, SchemaViolation, TransportFault } from '../../src/engine/faults.js';
import type { Outcome } from '../../src/profiles/bridge/index.js';
import { Conversation, Entity, Message, ReasoningTrace, SessionInfo, type ReasoningStep } from '../../src/protocols/bridge/model.js';
import type { MethodName } from '../../src/protocols/bridge/methods.js';
import { validate } from '../../src/protocols/bridge/validate.js';
import { modelCites } from '../../src/protocols/clauses/index.js';
import type { z } from 'zod';
import { SPECIAL_CONTENT, UNICODE_CONTENT } from '../../fixtures/data.js';
import { UNKNOWN_ID, expectConversation } from '../support/messages.js';
import { firstDifference } from '../support/differences.js';
import { callText, expectRefusal, type OnAccepted } from '../support/refusals.js';

const RULES = {
  'BRIDGE-REQUEST-1': 'the body is JSON, sent as application/json (UTF-8)',
  'BRIDGE-REQUEST-2': 'the body is one flat JSON object of the parameters',
  'BRIDGE-REQUEST-3': 'identifiers travel as UUID strings',
  'BRIDGE-REQUEST-4': 'optional parameters without a value are omitted from the body',
  'BRIDGE-RESPONSE-1': 'a single object answers 200 with the object',
  'BRIDGE-RESPONSE-2': 'a list answers 200 with a bare JSON array',
  'BRIDGE-RESPONSE-3': 'delete_message answers 200 with {"deleted": boolean}',
  'BRIDGE-RESPONSE-4': 'a void method answers 204 with an empty body',
  'BRIDGE-RESPONSE-5': 'a lookup that finds nothing answers 200 with the JSON value null',
  'BRIDGE-RESPONSE-6': 'an error answers 400 or 500 with {"error": string}',
  'BRIDGE-ERRORS-1': 'a failed call answers 400 or 500 with {"error": string} saying what went wrong',
  'BRIDGE-ERRORS-2': 'a lookup that finds nothing is not an error',
  'BRIDGE-ERRORS-3': 'a void method never returns a body',
  'BRIDGE-LIFECYCLE-setup': 'setup answers 200 {"ok": true}',
  'BRIDGE-LIFECYCLE-teardown': 'teardown answers 204',
  'BRIDGE-LIFECYCLE-clear_all_data': 'clear_all_data answers 204',
  'SPEC-V3-clear_all_data': 'clear_all_data deletes all data',
} as const;
type Rule = keyof typeof RULES;
const cite = (rule: Rule) => `(${rule}: ${RULES[rule]})`;

type Want = 'object' | 'list' | 'deleted' | 'void' | 'null' | 'error';
type Answer<W extends Want> = Extract<Outcome, { kind: W }>;
const EXPECTED: Record<Want, string> = {
  object: '200 with a JSON object',
  list: '200 with a bare JSON array',
  deleted: '200 with {"deleted": boolean}',
  void: '204 with an empty body',
  null: '200 with the JSON value null',
  error: '400 or 500 with {"error": string}',
};

type Params = Record<string, unknown>;

/**
 * Judges an outcome against the kind the rule demands. A wrong shape is a ProtocolFault (error);
 * a well-formed answer of the wrong kind (an error for a valid call, success for a call that
 * cannot succeed, an object where nothing exists) is a failed check.
 */
function judge<W extends Want>(outcome: Outcome, method: string, call: string, want: W, rule: Rule, also: readonly Rule[] = []): Answer<W> {
  const rules = [rule, ...also];
  if (outcome.kind === want) {
    // The answer kind held: recorded under its rule (the clause map counts it).
    check.by(...rules).ok(true, `${call}: ${EXPECTED[want]}`);
    return outcome as Answer<W>;
  }
  switch (outcome.kind) {
    case 'transport':
      throw new TransportFault(method, outcome.failure, outcome.reason);
    case 'violation': {
      // A 404/501 counts as "not implemented" only where the method itself is missing; callers
      // that know the method exists (silverLookup) judge it as a shape fault instead.
      const fault = new ProtocolFault(call, `${outcome.reason} ${cite(rule)}`, outcome.notImplemented);
      fault.cites = rules;
      throw fault;
    }
    default:
      return check.by(...rules).fail(`${call}: expected ${EXPECTED[want]}, got ${describeOutcome(outcome)} ${cite(rule)}`, { expected: EXPECTED[want], actual: outcome });
  }
}

/** Posts through ctx.raw and requires the answer kind `want`. */
async function answer<W extends Want>(ctx: ScenarioContext, method: string, params: Params, want: W, rule: Rule): Promise<Answer<W>> {
  const { outcome } = await ctx.raw(method, params);
  return judge(outcome, method, callText(method, params), want, rule);
}

/** Requires `value`, answered by `method`, to match a schema of the data model (citing the method's row and its model). */
function conform<S extends z.ZodType>(schema: S, value: unknown, method: string, call: string): z.infer<S> {
  const v = validate(schema, value);
  if (!v.ok) {
    const fault = new SchemaViolation(call, v.issues);
    fault.cites = modelCites(method as MethodName);
    throw fault;
  }
  return value as z.infer<S>;
}

/** An object answer that matches `schema`. */
async function object<S extends z.ZodType>(ctx: ScenarioContext, method: string, params: Params, schema: S, rule: Rule): Promise<z.infer<S>> {
  const { value } = await answer(ctx, method, params, 'object', rule);
  return conform(schema, value, method, callText(method, params));
}

/** A bare-array answer whose items match `schema`. */
async function list<S extends z.ZodType>(ctx: ScenarioContext, method: string, params: Params, schema: S, rule: Rule): Promise<z.infer<S>[]> {
  const { value } = await answer(ctx, method, params, 'list', rule);
  const call = callText(method, params);
  return value.map((item, i) => conform(schema, item, method, `${call}[${i}]`));
}

/** The stored state a failed call must not touch: sessions with counts, and whole conversations. */
async function snapshot(bridge: BridgeApi, sessions: readonly string[]) {
  const listed = await bridge.list_sessions({});
  const conversations: Record<string, unknown[]> = {};
  for (const session_id of sessions) {
    const conv = await bridge.get_conversation({ session_id });
    conversations[session_id] = conv.messages.map((m) => ({ id: m.id, role: m.role, content: m.content, metadata: m.metadata }));
  }
  // session id -> message_count (list_sessions order is open)
  return { sessions: Object.fromEntries(listed.map((s) => [s.session_id, s.message_count])), conversations };
}

/** A call the kit expects refused: method, parameters, and why. */
type Rejected = [method: MethodName, params: Params, why: string];

/**
 * A call the kit expects refused, judged by support/refusals.ts (`accepted`: the advisory that notes
 * an accepting answer, or the rules it breaks). When it is refused, what `read` reads back (the
 * stored data) must equal what it read before the call: the kit's reading, ADV-failed-call-changes-nothing.
 */
async function expectRejected(ctx: ScenarioContext, [method, params, why]: Rejected, accepted: OnAccepted, read: () => Promise<unknown>): Promise<void> {
  const before = await read();
  const answer = await expectRefusal(ctx, method, params, why, accepted);
  if (!answer.refused) return; // accepted: the advisory or the rules have spoken; what changed is the call's doing
  const after = await read();
  const change = firstDifference(before, after);
  check.advise('ADV-failed-call-changes-nothing').ok(
    change === undefined,
    `${callText(method, params)} (${why}) answered ${answer.status} but changed the stored data (${change}); the kit expects a failed call to leave it as it was`,
    { expected: before, actual: after },
  );
}

/**
 * Stores a message in each of `sessions`, then posts every call of `cases`, expecting each refused
 * without changing them; `accepted` judges an answer accepting a call (the same for all, or per call).
 */
async function rejectedWithoutChange(ctx: ScenarioContext, sessions: readonly string[], cases: readonly Rejected[], accepted: OnAccepted | ((c: Rejected) => OnAccepted)): Promise<void> {
  for (const s of sessions) await rawMessage(ctx, s, `Stored in ${s}`);
  const read = () => snapshot(ctx.bridge, sessions);
  for (const c of cases) await expectRejected(ctx, c, typeof accepted === 'function' ? accepted(c) : accepted, read);
}

/** A message in `session` through ctx.raw, judged as a single-object answer. */
async function rawMessage(ctx: ScenarioContext, session_id: string, content: string, extra: Params = {}, rule: Rule = 'BRIDGE-RESPONSE-1') {
  return object(ctx, 'add_message', { session_id, role: 'user', content, ...extra }, Message, rule);
}

/**
 * For the rules that only Silver methods show: the positive call first. When the method is not
 * implemented (404/501), or refuses the call with a well-formed error (400/500 {"error": string}, how
 * a failed call answers: bridge-protocol.md, "Errors" 1), the rule cannot be shown with it: a note,
 * and null. A Bronze verdict never rests on a Silver method succeeding (Bronze is SPEC-1.x and
 * SPEC-2.x); the Silver scenarios judge the refusal (docs/third-party.md).
 */
async function silverObject<S extends z.ZodType>(ctx: ScenarioContext, method: string, params: Params, schema: S, rule: Rule): Promise<z.infer<S> | null> {
  const { outcome } = await ctx.raw(method, params);
  if (outcome.kind === 'violation' && outcome.notImplemented) {
    ctx.note(`${method} is not implemented (a Silver method): ${rule} was not checked with it`);
    return null;
  }
  if (outcome.kind === 'error') {
    ctx.note(`${method} refused the call (${outcome.status} {"error": ${JSON.stringify(outcome.message)}}; a Silver method): ${rule} was not checked with it`);
    return null;
  }
  const { value } = judge(outcome, method, callText(method, params), 'object', rule);
  return conform(schema, value, method, callText(method, params));
}

/** A lookup of something that does not exist, on a method known to be implemented: 200 null. */
async function expectNull(ctx: ScenarioContext, method: string, params: Params): Promise<void> {
  const { outcome } = await ctx.raw(method, params);
  const call = callText(method, params);
  if (outcome.kind === 'violation') {
    // The method answered the positive lookup, so a 404 here is a shape fault, not a missing method.
    const got = outcome.reason.replace(/^not implemented: /, '');
    const fault = new ProtocolFault(call, `expected ${EXPECTED.null}, got ${got} ${cite('BRIDGE-RESPONSE-5')}`);
    fault.cites = ['BRIDGE-RESPONSE-5', 'BRIDGE-ERRORS-2'];
    throw fault;
  }
  judge(outcome, method, call, 'null', 'BRIDGE-RESPONSE-5', ['BRIDGE-ERRORS-2']);
}

const tier = 'bronze';
const group = 'protocol';

export const scenarios: Scenario[] = [
  defineScenario({
    id: 'SCN-B-120',
    tier,
    group,
    clauses: ['BRIDGE-REQUEST-1'],
    title: 'a JSON request body is read as UTF-8 JSON, escapes and all',
    asserts:
      'Posts add_message with Unicode content (emoji, CJK, RTL, astral characters) and with escaped control characters, quotes and ' +
      'backslashes; the answers and get_conversation must carry both contents exactly as sent.',
    async run(ctx) {
      const sent = [UNICODE_CONTENT, SPECIAL_CONTENT];
      const echoes: Message[] = [];
      for (const content of sent) echoes.push(await rawMessage(ctx, 'proto-json', content, {}, 'BRIDGE-REQUEST-1'));
      check.by('BRIDGE-REQUEST-1', 'SPEC-2.1.9', 'SPEC-2.1.10').equal(echoes.map((m) => m.content), sent, `add_message: content as sent ${cite('BRIDGE-REQUEST-1')}`);
      const conv = await object(ctx, 'get_conversation', { session_id: 'proto-json' }, Conversation, 'BRIDGE-RESPONSE-1');
      check.by('BRIDGE-REQUEST-1', 'SPEC-2.2.7').equal(conv.messages.map((m) => m.content), sent, `get_conversation(session_id="proto-json"): contents as sent ${cite('BRIDGE-REQUEST-1')}`);
    },
  }),

  defineScenario({
    id: 'SCN-B-121',
    tier,
    group,
    clauses: ['BRIDGE-REQUEST-2'],
    title: 'parameters are read from one flat JSON object',
    asserts:
      'Posts add_message with session_id, role, content and metadata side by side at the top level; the call must succeed and ' +
      'each parameter must take effect (the message reads back in that session with that role, content and metadata).',
    async run(ctx) {
      const params = { session_id: 'proto-flat', role: 'system', content: 'Flat parameters', metadata: { source: 'flat', n: 2 } };
      const m = await object(ctx, 'add_message', params, Message, 'BRIDGE-REQUEST-2');
      const what = { role: m.role, content: m.content, metadata: m.metadata };
      check.equal(what, { role: params.role, content: params.content, metadata: params.metadata }, `add_message: every top-level parameter taken ${cite('BRIDGE-REQUEST-2')}`);
      await expectConversation(ctx.bridge, 'proto-flat', [m], 'after add_message with that session_id');
    },
  }),

  defineScenario({
    id: 'SCN-B-122',
    tier,
    group,
    clauses: ['BRIDGE-REQUEST-3'],
    title: 'an id handed out as a UUID string names its message when sent back',
    asserts:
      'Stores two messages; their ids must be UUID strings, and sending one back as the string message_id must delete exactly ' +
      'that message ({"deleted": true}, the other stays).',
    async run(ctx) {
      const first = await rawMessage(ctx, 'proto-ids', 'Keep this one');
      const second = await rawMessage(ctx, 'proto-ids', 'Delete this one');
      for (const m of [first, second]) check.by('BRIDGE-REQUEST-3', 'BRIDGE-GENERAL-1').uuid(m.id, `add_message: id ${cite('BRIDGE-REQUEST-3')}`);
      const { value } = await answer(ctx, 'delete_message', { message_id: second.id }, 'deleted', 'BRIDGE-RESPONSE-3');
      check.by('BRIDGE-REQUEST-3', 'SPEC-2.5.1').equal(value.deleted, true, `delete_message(message_id=${show(second.id)}) with the string id add_message returned ${cite('BRIDGE-REQUEST-3')}`);
      await expectConversation(ctx.bridge, 'proto-ids', [first], 'after deleting the second message', ['BRIDGE-REQUEST-3', 'SPEC-2.5.2']);
    },
  }),

  defineScenario({
    id: 'SCN-B-123',
    tier,
    group,
    clauses: ['BRIDGE-REQUEST-4'],
    title: 'calls without their optional parameters succeed with the defaults',
    asserts:
      'Posts add_message without metadata, get_conversation without limit, search_messages with only query and list_sessions ' +
      'with an empty body; each must succeed: metadata an object, all three messages, the matching message, the one session.',
    async run(ctx) {
      const stored: Message[] = [];
      for (const content of ['No metadata here', 'Nor here', 'Omitted parameters are absent']) {
        stored.push(await object(ctx, 'add_message', { session_id: 'proto-omit', role: 'user', content }, Message, 'BRIDGE-REQUEST-4'));
      }
      const conv = await object(ctx, 'get_conversation', { session_id: 'proto-omit' }, Conversation, 'BRIDGE-REQUEST-4');
      // SPEC-V3-get_conversation: limit defaults to none (BaseAdapter: limit=None), so every message.
      check.by('BRIDGE-REQUEST-4', 'SPEC-V3-get_conversation').equal(conv.messages.map((m) => m.id), stored.map((m) => m.id), `get_conversation without limit: every message ${cite('BRIDGE-REQUEST-4')}`);
      const found = await list(ctx, 'search_messages', { query: 'Omitted parameters are absent' }, Message, 'BRIDGE-REQUEST-4');
      check.by('BRIDGE-REQUEST-4', 'SPEC-2.3.1').some(found, (m) => m.id === stored[2]!.id, `search_messages with only query: the message whose content is the query ${cite('BRIDGE-REQUEST-4')}`);
      const sessions = await list(ctx, 'list_sessions', {}, SessionInfo, 'BRIDGE-REQUEST-4');
      check.by('BRIDGE-REQUEST-4', 'SPEC-2.4.4').equal(sessions.map((s) => s.session_id), ['proto-omit'], `list_sessions without limit ${cite('BRIDGE-REQUEST-4')}`);
    },
  }),

  defineScenario({
    id: 'SCN-B-124',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-1'],
    title: 'single-object methods answer 200 with the bare object',
    asserts: 'add_message and get_conversation must answer 200 with a JSON object that is the Message and the Conversation themselves.',
    async run(ctx) {
      const m = await rawMessage(ctx, 'proto-object', 'An object answer');
      const conv = await object(ctx, 'get_conversation', { session_id: 'proto-object' }, Conversation, 'BRIDGE-RESPONSE-1');
      check.by('SPEC-2.7.3').equal(conv.messages.map((x) => x.id), [m.id], 'get_conversation(session_id="proto-object"): the message just stored');
    },
  }),

  defineScenario({
    id: 'SCN-B-125',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-2'],
    title: 'list methods answer 200 with a bare array, [] when empty',
    asserts:
      'On the empty store search_messages and list_sessions must answer 200 [] (not null, not 204, not an envelope); with one ' +
      'message stored both must answer a bare array holding it.',
    async run(ctx) {
      const query = { query: 'A list answer', limit: 5, threshold: 0 };
      check.by('BRIDGE-RESPONSE-2', 'SPEC-2.3.6').empty(await list(ctx, 'search_messages', query, Message, 'BRIDGE-RESPONSE-2'), 'search_messages on an empty store');
      check.by('BRIDGE-RESPONSE-2', 'SPEC-2.4.3').empty(await list(ctx, 'list_sessions', {}, SessionInfo, 'BRIDGE-RESPONSE-2'), 'list_sessions on an empty store');
      const m = await rawMessage(ctx, 'proto-list', 'A list answer');
      const found = await list(ctx, 'search_messages', query, Message, 'BRIDGE-RESPONSE-2');
      check.by('SPEC-2.3.1').some(found, (x) => x.id === m.id, 'search_messages(query="A list answer"): the message whose content is the query');
      const sessions = await list(ctx, 'list_sessions', {}, SessionInfo, 'BRIDGE-RESPONSE-2');
      check.by('SPEC-2.4.4').equal(sessions.map((s) => s.session_id), ['proto-list'], 'list_sessions(): the one session');
    },
  }),

  defineScenario({
    id: 'SCN-B-126',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-3'],
    title: 'delete_message answers 200 {"deleted": boolean}',
    asserts: 'Deleting a stored message must answer 200 {"deleted": true}; deleting it again, and deleting an unknown id, 200 {"deleted": false}.',
    async run(ctx) {
      const m = await rawMessage(ctx, 'proto-delete', 'Delete me');
      for (const [message_id, expected, why, sentence] of [
        [m.id, true, 'of a stored message', 'SPEC-2.5.1'],
        [m.id, false, 'of a message already deleted', 'SPEC-2.5.9'],
        [UNKNOWN_ID, false, 'of an unknown id', 'SPEC-2.5.3'],
      ] as const) {
        const { value } = await answer(ctx, 'delete_message', { message_id }, 'deleted', 'BRIDGE-RESPONSE-3');
        check.by(sentence).equal(value.deleted, expected, `delete_message(message_id=${message_id}) ${why}: deleted`);
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-127',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-4', 'BRIDGE-ERRORS-3'],
    title: 'void methods answer 204 with an empty body',
    asserts: 'clear_session of a stored and of an unknown session, and clear_all_data, must each answer 204 with no body.',
    async run(ctx) {
      await rawMessage(ctx, 'proto-void', 'Cleared soon');
      await answer(ctx, 'clear_session', { session_id: 'proto-void' }, 'void', 'BRIDGE-RESPONSE-4');
      await answer(ctx, 'clear_session', { session_id: 'proto-void-never-written' }, 'void', 'BRIDGE-RESPONSE-4');
      await rawMessage(ctx, 'proto-void', 'Wiped soon');
      await answer(ctx, 'clear_all_data', {}, 'void', 'BRIDGE-ERRORS-3');
    },
  }),

  defineScenario({
    id: 'SCN-B-128',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-5', 'BRIDGE-ERRORS-2'],
    title: 'a lookup that finds nothing answers 200 null, not an error',
    asserts:
      'Where the Silver lookups exist (get_entity_by_name, get_trace_with_steps answer a stored name / trace), looking up an ' +
      'unknown name and an unknown trace id must answer 200 with null; a target without them gets a note.',
    async run(ctx) {
      const entity = await silverObject(ctx, 'add_entity', { name: 'Ada Lovelace', entity_type: 'PERSON' }, Entity, 'BRIDGE-RESPONSE-1');
      if (entity !== null) {
        const found = await silverObject(ctx, 'get_entity_by_name', { name: 'Ada Lovelace' }, Entity, 'BRIDGE-RESPONSE-5');
        if (found !== null) await expectNull(ctx, 'get_entity_by_name', { name: 'Nobody Atall Byname' });
      }
      const trace = await silverObject(ctx, 'start_trace', { session_id: 'proto-null', task: 'Look things up' }, ReasoningTrace, 'BRIDGE-RESPONSE-1');
      if (trace !== null) {
        const found = await silverObject(ctx, 'get_trace_with_steps', { trace_id: trace.id }, ReasoningTrace, 'BRIDGE-RESPONSE-5');
        if (found !== null) await expectNull(ctx, 'get_trace_with_steps', { trace_id: UNKNOWN_ID });
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-129',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-6', 'BRIDGE-ERRORS-1'],
    title: 'a call missing a required parameter, when refused, gets a well-formed error',
    asserts:
      'With two sessions stored, posts add_message without session_id, content or role, delete_message, clear_session, ' +
      'get_conversation and search_messages without their required parameter; an answer refusing one must be 400 or 500 with a ' +
      'non-empty {"error": string}, and an answer accepting one must be the method\'s answer, matching the data model. That each ' +
      'call is refused (ADV-refuse-missing-param) and that a refused call leaves the sessions and conversations unchanged ' +
      '(ADV-failed-call-changes-nothing) are advisories: no sentence says so.',
    async run(ctx) {
      await rejectedWithoutChange(ctx, ['proto-missing-a', 'proto-missing-b'], [
        ['add_message', { role: 'user', content: 'No session' }, 'session_id missing'],
        ['add_message', { session_id: 'proto-missing-a', role: 'user' }, 'content missing'],
        ['add_message', { session_id: 'proto-missing-a', content: 'No role' }, 'role missing'],
        ['delete_message', {}, 'message_id missing'],
        ['clear_session', {}, 'session_id missing'],
        ['get_conversation', {}, 'session_id missing'],
        ['search_messages', { session_id: 'proto-missing-a' }, 'query missing'],
      ], { advise: 'ADV-refuse-missing-param' });
    },
  }),

  defineScenario({
    id: 'SCN-B-130',
    tier,
    group,
    clauses: ['SPEC-1.1.12', 'BRIDGE-MODEL-Message.role', 'BRIDGE-ERRORS-1'],
    title: 'add_message with a role outside user, assistant, system cannot succeed',
    asserts:
      'Posts add_message with roles "bogus" and "narrator". No Message can answer it: a message has the role it was added with ' +
      '(SPEC-1.1.12) and a role is one of user, assistant, system (BRIDGE-MODEL-Message.role). So each answer must be 400 or 500 ' +
      'with a non-empty {"error": string}; a 200 fails naming the sentence its Message breaks. That the refused call leaves the ' +
      'stored session unchanged is an advisory (ADV-failed-call-changes-nothing).',
    async run(ctx) {
      const call = (role: string): Rejected => ['add_message', { session_id: 'proto-role', role, content: 'Who am I?' }, 'unknown role'];
      // The answer's data model is judged first (an echo of the role breaks BRIDGE-MODEL-Message.role); a valid Message breaks SPEC-1.1.12.
      const roleKept = ([, params]: Rejected): OnAccepted => ({
        judge: (value, said) =>
          check.by('SPEC-1.1.12').equal((value as Message).role, params['role'], `${said} answered 200 with a Message: its role (a message has the role it was added with, and ${show(params['role'])} is none of user, assistant, system, so the call cannot succeed)`),
      });
      await rejectedWithoutChange(ctx, ['proto-role'], [call('bogus'), call('narrator')], roleKept);
    },
  }),

  defineScenario({
    id: 'SCN-B-131',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-6', 'BRIDGE-ERRORS-1'],
    title: 'a parameter of the wrong type, when refused, gets a well-formed error',
    asserts:
      'Posts add_message with metadata as a string and with content as an object, get_conversation with limit "all" and ' +
      'search_messages with threshold "high"; an answer refusing one must be 400 or 500 with a non-empty {"error": string}, and an ' +
      'answer accepting one must match the data model (content a string, metadata an object). That each call is refused ' +
      '(ADV-refuse-wrong-type) and that a refused call leaves the data unchanged (ADV-failed-call-changes-nothing) are advisories.',
    async run(ctx) {
      await rejectedWithoutChange(ctx, ['proto-types'], [
        ['add_message', { session_id: 'proto-types', role: 'user', content: 'Typed', metadata: 'not an object' }, 'metadata must be an object'],
        ['add_message', { session_id: 'proto-types', role: 'user', content: { text: 'nested' } }, 'content must be a string'],
        ['get_conversation', { session_id: 'proto-types', limit: 'all' }, 'limit must be an integer'],
        ['search_messages', { query: 'valid', threshold: 'high' }, 'threshold must be a number'],
      ], { advise: 'ADV-refuse-wrong-type' });
    },
  }),

  defineScenario({
    id: 'SCN-B-132',
    tier,
    group,
    clauses: ['BRIDGE-RESPONSE-6', 'BRIDGE-ERRORS-1', 'SPEC-4.2.1'],
    title: 'add_step on an unknown trace, when refused, gets a well-formed error',
    asserts:
      'Where reasoning traces exist (start_trace works): add_step with a trace_id no trace has must answer 400 or 500 with a ' +
      'non-empty {"error": string} if refused; if accepted, the step answered must be linked to the trace_id sent (SPEC-4.2.1). ' +
      'That it is refused (ADV-refuse-unknown-trace) and that list_traces and the real trace then read back unchanged ' +
      '(ADV-failed-call-changes-nothing) are advisories. A target without traces gets a note.',
    async run(ctx) {
      const trace = await silverObject(ctx, 'start_trace', { session_id: 'proto-step', task: 'A real trace' }, ReasoningTrace, 'BRIDGE-RESPONSE-1');
      if (trace === null) return;
      const read = async () => ({
        traces: await list(ctx, 'list_traces', {}, ReasoningTrace, 'BRIDGE-RESPONSE-2'),
        trace: await object(ctx, 'get_trace_with_steps', { trace_id: trace.id }, ReasoningTrace, 'BRIDGE-RESPONSE-5'),
      });
      const judge = (value: unknown, said: string) =>
        check.by('SPEC-4.2.1').equal((value as ReasoningStep).trace_id, UNKNOWN_ID, `${said} answered 200 with a step: its trace_id (a step is linked to the trace named)`);
      await expectRejected(ctx, ['add_step', { trace_id: UNKNOWN_ID, thought: 'Orphan step' }, 'no such trace'], { advise: 'ADV-refuse-unknown-trace', judge }, read);
    },
  }),

  defineScenario({
    id: 'SCN-B-133',
    tier,
    group,
    clauses: ['BRIDGE-LIFECYCLE-setup'],
    title: 'setup answers 200 {"ok": true}',
    asserts: 'Calls setup again (the runner called it once before the run); the answer must be 200 with a JSON object whose ok is true.',
    async run(ctx) {
      const { value } = await answer(ctx, 'setup', {}, 'object', 'BRIDGE-LIFECYCLE-setup');
      check.equal(value['ok'], true, `setup(): ok ${cite('BRIDGE-LIFECYCLE-setup')}`);
    },
  }),

  defineScenario({
    id: 'SCN-B-134',
    tier,
    group,
    clauses: ['BRIDGE-LIFECYCLE-teardown', 'BRIDGE-LIFECYCLE-setup'],
    title: 'teardown answers 204, and setup brings the target back',
    asserts:
      'Calls teardown (204, empty body expected), then setup again ({"ok": true}); afterwards add_message and get_conversation ' +
      'must work as before (no sentence lets a method stop answering after teardown and a new setup).',
    async run(ctx) {
      await answer(ctx, 'teardown', {}, 'void', 'BRIDGE-LIFECYCLE-teardown');
      const { value } = await answer(ctx, 'setup', {}, 'object', 'BRIDGE-LIFECYCLE-setup');
      check.by('BRIDGE-LIFECYCLE-setup').equal(value['ok'], true, `setup() after teardown: ok ${cite('BRIDGE-LIFECYCLE-setup')}`);
      // silent: whether teardown or setup keep data; only that the target serves again after setup
      const m = await rawMessage(ctx, 'proto-teardown', 'Still serving', {}, 'BRIDGE-LIFECYCLE-setup');
      await expectConversation(ctx.bridge, 'proto-teardown', [m], 'after teardown and setup', ['BRIDGE-LIFECYCLE-setup', 'SPEC-2.7.3']);
    },
  }),

  defineScenario({
    id: 'SCN-B-135',
    tier,
    group,
    clauses: ['BRIDGE-LIFECYCLE-clear_all_data', 'SPEC-V3-clear_all_data'],
    title: 'clear_all_data answers 204 and empties sessions, entities and traces',
    asserts:
      'Stores messages in two sessions (and, where Silver exists, an entity and a trace), calls clear_all_data (204 expected); ' +
      'list_sessions, both conversations and a search must then be empty, the entity and the trace gone (Volume 3: clear_all_data ' +
      'deletes all data).',
    async run(ctx) {
      const sessions = ['proto-wipe-a', 'proto-wipe-b'];
      for (const s of sessions) await rawMessage(ctx, s, `Wipe me please, ${s}`);
      const entity = await silverObject(ctx, 'add_entity', { name: 'Grace Hopper', entity_type: 'PERSON' }, Entity, 'BRIDGE-RESPONSE-1');
      const trace = await silverObject(ctx, 'start_trace', { session_id: 'proto-wipe-a', task: 'Wipe the store' }, ReasoningTrace, 'BRIDGE-RESPONSE-1');
      await answer(ctx, 'clear_all_data', {}, 'void', 'BRIDGE-LIFECYCLE-clear_all_data');
      const after = 'after clear_all_data';
      const wiped = check.by('SPEC-V3-clear_all_data');
      wiped.empty(await ctx.bridge.list_sessions({}), `list_sessions() ${after} ${cite('SPEC-V3-clear_all_data')}`);
      for (const session_id of sessions) {
        const conv = await ctx.bridge.get_conversation({ session_id });
        wiped.empty(conv.messages, `get_conversation(session_id="${session_id}") ${after}`);
      }
      wiped.empty(await ctx.bridge.search_messages({ query: 'Wipe me please', limit: 10, threshold: 0 }), `search_messages(query="Wipe me please") ${after}`);
      if (entity !== null) {
        wiped.equal(await ctx.bridge.get_entity_by_name({ name: 'Grace Hopper' }), null, `get_entity_by_name(name="Grace Hopper") ${after} ${cite('SPEC-V3-clear_all_data')}`);
      }
      if (trace !== null) {
        wiped.empty(await ctx.bridge.list_traces({}), `list_traces() ${after} ${cite('SPEC-V3-clear_all_data')}`);
        wiped.equal(await ctx.bridge.get_trace_with_steps({ trace_id: trace.id }), null, `get_trace_with_steps(trace_id=${trace.id}) ${after}`);
      }
    },
  }),
];
