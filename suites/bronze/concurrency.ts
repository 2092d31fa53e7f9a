// Bronze under concurrency: add_message calls and reads sent at once, over several connections and
// pipelined on one. Each check is a sentence the documents state of every call, which a server that
// reads a row, awaits, and writes it back breaks when two requests meet: a message that was added is
// stored (SPEC-2.1.16), once, with a new id (SPEC-2.8.1); counts are exact (SPEC-2.4.2); an answer
// is the answer to its own request (SPEC-1.1.13, SPEC-2.2.4). The order among calls in flight at
// once is left open: every serial order of a batch is accepted (suites/support/concurrency.ts).
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { ConnectionReopened } from '../../src/profiles/bridge/context.js';
import type { ConcurrencyShape } from '../../src/profiles/bridge/client.js';
import { show } from '../../src/engine/assert.js';
import type { Conversation, Message, Role } from '../../src/protocols/bridge/model.js';
import { MANY, ONE_SOCKET, SOCKETS, batch, range, repeats, shapeName } from '../support/concurrency.js';
import { expectCounts } from '../support/sessions.js';
import { compareInstants } from '../support/time.js';

const group = 'concurrency';

/** What `got` lacks of `want`, holds twice, or holds that `want` does not: empty when each id of `want` is there once. */
function difference(got: readonly string[], want: readonly string[]): string[] {
  const missing = want.filter((id) => !got.includes(id));
  const twice = repeats(got);
  const unknown = got.filter((id) => !want.includes(id));
  return [
    ...(missing.length > 0 ? [`missing ${missing.length}: ${missing.join(', ')}`] : []),
    ...(twice.length > 0 ? [`repeated: ${twice.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`not added by this scenario: ${unknown.join(', ')}`] : []),
  ];
}

/** The n-th message of a batch: roles alternate, contents are numbered. */
const draft = (label: string, i: number): { role: Role; content: string } => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `${label} ${i + 1}` });

/** Every add_message answer carries the role and content its own request sent (not another request's). */
function checkOwnAnswers(check: Parameters<Scenario['run']>[0]['check'], answers: readonly Message[], sent: readonly { role: Role; content: string }[], how: string): void {
  answers.forEach((a, i) => {
    check.by('SPEC-1.1.12', 'SPEC-1.1.13').equal({ role: a.role, content: a.content }, sent[i], `add_message call ${i + 1} of ${answers.length} sent at once ${how}: the answer carries the role and content that call sent`);
  });
}

/** MANY add_message calls at once to one session, between one message answered before and one sent after. */
function oneSession(id: string, shape: ConcurrencyShape): Scenario {
  const how = shapeName(shape);
  return defineScenario({
    id, tier: 'bronze', group,
    clauses: ['SPEC-2.1.16', 'SPEC-2.8.1', 'SPEC-2.2.1', 'SPEC-2.7.2', 'SPEC-2.4.2', 'SPEC-1.1.13'],
    title: `${MANY} add_message calls at once to one session, ${how}, are each stored once`,
    asserts:
      `Adds a message, then ${MANY} messages to the same session at once (${how}), then one more. Each answer must carry the ` +
      `content its own call sent; the ${MANY + 2} ids must be distinct (SPEC-2.8.1); get_conversation must hold each of them exactly once ` +
      '(SPEC-2.1.16), the first first and the last last, in any order between (every serial order of the calls in flight is accepted), ' +
      `with timestamps that never decrease (SPEC-2.7.2); list_sessions must count ${MANY + 2} messages (SPEC-2.4.2).`,
    async run(ctx) {
      const session = `concurrent-one-${shape.connections}x${shape.pipelining}`;
      try {
        await judgeOneSession(ctx, shape, session);
      } catch (err) {
        if (!(err instanceof ConnectionReopened)) throw err;
        // silent (connection-close): a server may close a connection after any answer; what was pipelined behind it may have run and is sent again.
        ctx.note(`${id}: the server closed the connection the batch was pipelined on (${err.opened} connections opened): judged over ${SOCKETS.connections} connections instead`);
        await judgeOneSession(ctx, SOCKETS, `${session}-again`);
      }
    },
  });
}

/** The body of oneSession: one batch of `shape` to `session`, judged. */
async function judgeOneSession(ctx: Parameters<Scenario['run']>[0], shape: ConcurrencyShape, session: string): Promise<void> {
  const how = shapeName(shape);
  const { bridge, check } = ctx;
  const first = await bridge.add_message({ session_id: session, role: 'user', content: 'before the batch' });
  const sent = range(MANY).map((i) => draft('concurrent message', i));
  const answers = await batch(ctx, shape, (b) => sent.map((m) => b.add_message({ session_id: session, ...m })));
  const last = await bridge.add_message({ session_id: session, role: 'user', content: 'after the batch' });
  checkOwnAnswers(check, answers, sent, how);

  const ids = [first, ...answers, last].map((m) => m.id);
  check.by('SPEC-2.8.1').that(repeats(ids).length === 0, `add_message: ${ids.length} calls (${MANY} at once) answer ${ids.length} distinct ids`, () => ({
    message: `add_message (${MANY} calls at once ${how}, one before, one after): an id was answered to more than one call: ${repeats(ids).join(', ')}; every add_message answers a message with a new id`,
    expected: 'distinct ids', actual: ids,
  }));

  const conv = await bridge.get_conversation({ session_id: session });
  const got = conv.messages.map((m) => m.id);
  const off = difference(got, ids);
  check.by('SPEC-2.1.16').that(off.length === 0, `get_conversation holds each of the ${ids.length} messages added (${MANY} at once) exactly once`, () => ({
    message: `get_conversation(session_id=${show(session)}) after ${ids.length} add_message calls (${MANY} at once ${how}) that all answered 200: each message must be stored once; ${off.join('; ')}`,
    expected: ids, actual: got,
  }));
  // silent: the order among the calls in flight at once (every serial order); the one answered before comes first, the one sent after last.
  check.by('SPEC-2.2.1').that(got[0] === first.id && got.at(-1) === last.id, 'get_conversation: the message added before the batch first, the one added after it last', () => ({
    message: `get_conversation(session_id=${show(session)}): the message added before the batch (${first.id}) must come first and the one added after it (${last.id}) last; got ${got[0]} first and ${got.at(-1)} last`,
    expected: { first: first.id, last: last.id }, actual: got,
  }));
  const back = conv.messages.findIndex((m, i) => i > 0 && compareInstants(conv.messages[i - 1]!.timestamp, m.timestamp) > 0);
  check.by('SPEC-2.7.2').that(back < 0, 'get_conversation: timestamps never decrease in the order the messages are listed', () => ({
    message: `get_conversation(session_id=${show(session)}) after ${MANY} add_message calls at once ${how}: message ${back + 1} (${show(conv.messages[back]!.timestamp)}) is listed after message ${back} (${show(conv.messages[back - 1]!.timestamp)}), which is later; timestamps never decrease in insertion order`,
    expected: 'non-decreasing timestamps', actual: conv.messages.map((m) => m.timestamp),
  }));
  await expectCounts(bridge, { [session]: ids.length }, `after ${ids.length} add_message calls, ${MANY} of them at once ${how}`);
}

/** Several sessions created at once: 8 sessions, 2 messages each, all 16 calls at once. */
const SESSIONS = 8;

export const scenarios: Scenario[] = [
  oneSession('SCN-B-143', SOCKETS),
  oneSession('SCN-B-144', ONE_SOCKET),

  defineScenario({
    id: 'SCN-B-145', tier: 'bronze', group,
    clauses: ['SPEC-2.4.1', 'SPEC-2.4.2', 'SPEC-2.4.8', 'SPEC-2.2.4', 'SPEC-2.1.16', 'SPEC-2.8.1'],
    title: `${MANY} add_message calls at once to ${SESSIONS} new sessions are each stored in their own session`,
    asserts:
      `Sends ${MANY} add_message calls at once over ${MANY} connections, two to each of ${SESSIONS} sessions that do not exist yet. ` +
      `The ids must be distinct (SPEC-2.8.1); list_sessions must list every session (SPEC-2.4.1) with message_count 2 (SPEC-2.4.2, SPEC-2.4.8); ` +
      'get_conversation of each must hold exactly its two messages (SPEC-2.1.16, SPEC-2.2.4), in either order.',
    async run(ctx) {
      const { bridge, check } = ctx;
      const sessionOf = (i: number) => `concurrent-many-${i % SESSIONS}`;
      const sent = range(MANY).map((i) => ({ session_id: sessionOf(i), ...draft(`message of ${sessionOf(i)}, number`, i) }));
      const answers = await batch(ctx, SOCKETS, (b) => sent.map((m) => b.add_message(m)));
      checkOwnAnswers(check, answers, sent.map(({ role, content }) => ({ role, content })), shapeName(SOCKETS));
      const ids = answers.map((m) => m.id);
      check.by('SPEC-2.8.1').that(repeats(ids).length === 0, `add_message: ${MANY} calls at once answer ${MANY} distinct ids`, () => ({
        message: `add_message (${MANY} calls at once to ${SESSIONS} sessions): an id was answered to more than one call: ${repeats(ids).join(', ')}; every add_message answers a message with a new id`,
        expected: 'distinct ids', actual: ids,
      }));
      const counts = Object.fromEntries(range(SESSIONS).map((i) => [sessionOf(i), MANY / SESSIONS]));
      await expectCounts(bridge, counts, `after ${MANY} add_message calls at once to ${SESSIONS} new sessions`, ['SPEC-2.4.2', 'SPEC-2.4.8']);
      for (const session of Object.keys(counts)) {
        const mine = answers.filter((_, i) => sessionOf(i) === session).map((m) => m.id);
        const got = (await bridge.get_conversation({ session_id: session })).messages.map((m) => m.id);
        const off = difference(got, mine);
        // silent: the order of the two messages sent at once.
        check.by('SPEC-2.1.16', 'SPEC-2.2.4').that(off.length === 0, 'get_conversation of each session holds exactly its own messages, once each', () => ({
          message: `get_conversation(session_id=${show(session)}) after ${MANY} add_message calls at once to ${SESSIONS} new sessions: it must hold exactly the ${mine.length} messages added to it; ${off.join('; ')}`,
          expected: mine, actual: got,
        }));
      }
    },
  }),

  defineScenario({
    id: 'SCN-B-146', tier: 'bronze', group,
    clauses: ['SPEC-2.2.4', 'SPEC-1.1.3', 'SPEC-1.1.13'],
    title: 'reads beside writes at once: each answer is the answer to its own request',
    asserts:
      `Fills ${SESSIONS} sessions with two messages each, then sends at once, over ${MANY} connections and again pipelined on one connection, ` +
      `a get_conversation of each session beside an add_message to each. Every get_conversation answer must be the conversation of the ` +
      'session it asked for, holding only that session\'s messages (SPEC-2.2.4, SPEC-1.1.3); every add_message answer must carry the content its own call sent (SPEC-1.1.13).',
    async run(ctx) {
      const { bridge, check } = ctx;
      const sessionOf = (i: number) => `concurrent-read-${i}`;
      const own = new Map<string, string>();
      for (const i of range(SESSIONS)) {
        for (const n of [1, 2]) {
          const m = await bridge.add_message({ session_id: sessionOf(i), role: 'user', content: `stored ${n} of ${sessionOf(i)}` });
          own.set(m.id, sessionOf(i));
        }
      }
      for (const shape of [SOCKETS, ONE_SOCKET]) {
        const how = shapeName(shape);
        const writes = range(SESSIONS).map((i) => ({ session_id: sessionOf(i), role: 'assistant' as const, content: `written ${how} to ${sessionOf(i)}` }));
        type Answer = { read: number; c: Conversation } | { write: number; m: Message };
        const results = await batch(ctx, shape, (b) => range(SESSIONS).flatMap((i): Promise<Answer>[] => [
          b.get_conversation({ session_id: sessionOf(i) }).then((c) => ({ read: i, c })),
          b.add_message(writes[i]!).then((m) => ({ write: i, m })),
        ]), { evenIfReopened: true }); // what is judged here holds whether a request was sent once or twice
        for (const r of results) {
          if ('write' in r) {
            own.set(r.m.id, sessionOf(r.write));
            check.by('SPEC-1.1.13').equal(r.m.content, writes[r.write]!.content, `add_message(session_id=${show(sessionOf(r.write))}) sent at once with reads ${how}: the answer carries the content that call sent`);
            continue;
          }
          const asked = sessionOf(r.read);
          const foreign = r.c.messages.filter((m) => own.get(m.id) !== asked && m.content !== writes[r.read]!.content);
          check.by('SPEC-2.2.4', 'SPEC-1.1.3').that(r.c.session_id === asked && foreign.length === 0, 'get_conversation answers the session it asked for, with only its messages', () => ({
            message: `get_conversation(session_id=${show(asked)}) sent at once with other reads and writes ${how}: answered ${r.c.session_id === asked ? '' : `the conversation of another session (session_id ${show(r.c.session_id)}) `}` +
              `holding ${foreign.length} message(s) of another session (${foreign.map((m) => show(m.content)).join(', ')}); the answer must be that of the session asked for`,
            expected: { session_id: asked }, actual: { session_id: r.c.session_id, messages: r.c.messages.map((m) => m.content) },
          }));
        }
      }
    },
  }),
];
