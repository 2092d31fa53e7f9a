// Writing messages and judging what is read back: a conversation, a search answer, a deletion.
// A message written is read in one of two ways: as what add_message answered (to judge that answer
// itself: addAll), or as what was written, the server's id with the role and content as sent (to
// judge reading back against what was written, not against an echo: addMessages, addTurns).
import { isDeepStrictEqual } from 'node:util';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { check, show } from '../../src/engine/assert.js';
import type { Message, Role } from '../../src/protocols/bridge/model.js';
import { allIn, ids, misplaced } from './by-id.js';
import { citing, type Cites } from './cite.js';
import { sameJson, sameText } from './differences.js';
import { sameInstant } from './time.js';

export interface Draft {
  role: Role;
  content: string;
  metadata?: Record<string, unknown>;
}

/**
 * The session each message written by addAll went to (message id -> session_id), per scenario: a
 * scenario has its own BridgeApi, so ids a server reuses across scenarios cannot mislead.
 */
const writtenTo = new WeakMap<BridgeApi, Map<string, string>>();

/** Adds messages one after the other (each awaited) and returns what add_message answered. */
export async function addAll(bridge: BridgeApi, session_id: string, drafts: readonly (Draft | string)[]): Promise<Message[]> {
  const sent: Message[] = [];
  const sessions = writtenTo.get(bridge) ?? new Map<string, string>();
  writtenTo.set(bridge, sessions);
  for (const d of drafts) {
    const draft = typeof d === 'string' ? { role: 'user' as const, content: d } : d;
    const m = await bridge.add_message({ session_id, ...draft });
    sessions.set(m.id, session_id);
    sent.push(m);
  }
  return sent;
}

const SESSION = { noun: 'message', field: 'session' };

/** Every message of `list` was written to `session` (by addAll); a failure says which session the message belongs to. */
export function checkOfSession(bridge: BridgeApi, list: readonly Message[], session: string, what: string): void {
  allIn(list, session, (m) => writtenTo.get(bridge)?.get(m.id), what, SESSION);
}

/**
 * Adds `[role, content]` turns to `session_id` in order. Each returned message carries the id the
 * server handed out but the role and content as sent.
 */
export async function addTurns(bridge: BridgeApi, session_id: string, turns: readonly (readonly [Role, string])[]): Promise<Message[]> {
  const answers = await addAll(bridge, session_id, turns.map(([role, content]) => ({ role, content })));
  return answers.map((m, i) => ({ ...m, role: turns[i]![0], content: turns[i]![1] }));
}

/** Adds `contents` to `session_id` in order (one call each), all with `role`, as addTurns. */
export async function addMessages(bridge: BridgeApi, session_id: string, contents: readonly string[], role: Role = 'user'): Promise<Message[]> {
  return addTurns(bridge, session_id, contents.map((content) => [role, content] as const));
}

/** What a conversation is judged on: the id handed out, the role and the content. */
export interface Written {
  id: string;
  role: string;
  content: string;
}

const view = (m: Written): Written => ({ id: m.id, role: m.role, content: m.content });

/** Fields of a stored message that must not change while it is stored (embedding may be computed later). */
export function stored(m: Message): Pick<Message, 'id' | 'role' | 'content' | 'timestamp' | 'metadata'> {
  return { id: m.id, role: m.role, content: m.content, timestamp: m.timestamp, metadata: m.metadata };
}

/** "1 message", "2 messages". */
export const nMessages = (n: number) => `${n} message${n === 1 ? '' : 's'}`;

/**
 * A message read back is the message add_message answered: same id (the scenario's clauses), role
 * (SPEC-2.2.9), content (SPEC-2.2.7), metadata (SPEC-2.2.8) and creation instant (the Message
 * table of SPEC Volume 1: timestamp is the message's creation time).
 */
export function checkSameMessage(got: Message, sent: Message, what: string): void {
  check.equal(got.id, sent.id, `${what}: id (the id add_message returned)`);
  check.by('SPEC-2.2.9').equal(got.role, sent.role, `${what}: role`);
  sameText(got.content, sent.content, `${what}: content`, ['SPEC-2.2.7']);
  sameJson(got.metadata, sent.metadata, `${what}: metadata`, ['SPEC-2.2.8']);
  // silent (timestamp-format): the zone form and precision may differ between answers; the instant may not.
  check.by('SPEC-V1-Message.timestamp').ok(
    sameInstant(got.timestamp, sent.timestamp),
    `${what}: timestamp ${got.timestamp} is not the instant add_message returned (${sent.timestamp})`,
    { expected: sent.timestamp, actual: got.timestamp },
  );
}

/**
 * Names messages by where they were sent: `{ a: [m1, m2] }` labels m1 "a1" and m2 "a2"; a message
 * nobody sent is "?" and the start of its id.
 */
export function labels(messages: readonly Message[], sent: Record<string, readonly Message[]>): string[] {
  return messages.map((m) => {
    for (const [name, list] of Object.entries(sent)) {
      const i = list.findIndex((s) => s.id === m.id);
      if (i >= 0) return `${name}${i + 1}`;
    }
    return `?${String(m.id).slice(0, 8)}`;
  });
}

/** Labels of `sent[name]`, in the order sent. */
export function labelsOf(name: string, list: readonly Message[]): string[] {
  return list.map((_, i) => `${name}${i + 1}`);
}

/** The messages of a conversation are exactly `expected` (labels), in this order. */
export function checkSequence(
  messages: readonly Message[],
  sent: Record<string, readonly Message[]>,
  expected: readonly string[],
  what: string,
  cites?: Cites,
): void {
  const got = labels(messages, sent);
  // A check that holds is recorded too (the clause map counts it), under its plain description.
  if (isDeepStrictEqual(got, expected)) return citing(cites).ok(true, what);
  let i = 0;
  while (i < got.length && got[i] === expected[i]) i++;
  const where =
    i < got.length && i < expected.length
      ? `first difference at position ${i + 1}: expected ${expected[i]}, got ${got[i]}`
      : `expected ${nMessages(expected.length)}, got ${got.length}`;
  citing(cites).equal(got, expected, `${what} (${where})`);
}

/**
 * Reads `session_id` back and requires exactly `expected` (ids, roles, contents), in that order.
 * `after` says what happened before, for the message: "after deleting the first message"; `cites`
 * what that enforces (default: the scenario's clauses).
 */
export async function expectConversation(bridge: BridgeApi, session_id: string, expected: readonly Written[], after: string, cites?: Cites): Promise<Message[]> {
  const conv = await bridge.get_conversation({ session_id });
  const call = `get_conversation(session_id=${show(session_id)})`;
  check.by('BRIDGE-METHOD-get_conversation').equal(conv.session_id, session_id, `${call}: session_id of the conversation`);
  const got = conv.messages.map(view);
  const want = expected.map(view);
  if (!isDeepStrictEqual(got, want)) {
    const i = got.findIndex((m, k) => !isDeepStrictEqual(m, want[k]));
    const detail = got.length !== want.length
      ? `expected ${want.length} message(s), got ${got.length}: contents ${show(got.map((m) => m.content))}`
      : `message ${i}: expected ${show(want[i])}, got ${show(got[i])}`;
    // A message of another session in the answer: say whose it is, so nobody has to match ids.
    const stray = conv.messages.find((m) => ![undefined, session_id].includes(writtenTo.get(bridge)?.get(m.id)));
    const whose = stray === undefined ? '' : `; ${misplaced(SESSION.noun, stray, SESSION.field, writtenTo.get(bridge)?.get(stray.id), session_id)}`;
    citing(cites).fail(`${call} ${after}: ${detail}${whose} (expected the messages written, in insertion order)`, { expected: want, actual: got });
  }
  citing(cites).ok(true, `${call} ${after}: the messages written, in insertion order`);
  return conv.messages;
}

/**
 * Every item of a search answer is a stored message (SPEC-2.3.1: it returns messages, those that
 * match) with its stored role and content (SPEC-1.1.12, SPEC-1.1.13); each at most once is the
 * kit's reading (ADV-search-results-distinct).
 */
export function checkStored(results: readonly Message[], stored: readonly Written[], call: string): void {
  const byId = new Map(stored.map((m) => [m.id, m]));
  for (const r of results) {
    const own = byId.get(r.id);
    if (own === undefined) return check.by('SPEC-2.3.1').fail(`${call}: result ${show(r.id)} is none of the messages stored by this scenario`, { actual: r });
    check.by('SPEC-1.1.12', 'SPEC-1.1.13').equal(view(r), view(own), `${call}: result ${show(r.id)} must read as stored`);
  }
  check.advise('ADV-search-results-distinct').distinct(ids(results), `${call}: each message at most once`);
}

/** A well-formed UUID that no server hands out in practice. */
export const UNKNOWN_ID = '6f1d2c3b-7a8e-4f00-9c1d-00000000dead';

/**
 * delete_message, requiring `{"deleted": expected}` (extra fields allowed): SPEC-2.5.1 for true,
 * SPEC-2.5.3 for false, unless `cites` names another sentence (SPEC-2.5.9: the second delete).
 */
export async function deleteMessage(bridge: BridgeApi, message_id: string, expected: boolean, why: string, cites?: Cites): Promise<void> {
  const result = await bridge.delete_message({ message_id });
  citing(cites ?? [expected ? 'SPEC-2.5.1' : 'SPEC-2.5.3']).equal(result.deleted, expected, `delete_message(message_id=${message_id}) ${why}: deleted`);
}

const ORDINAL = ['first', 'second', 'third', 'fourth', 'fifth'];

/**
 * Stores `contents` in `session`, deletes those at `doomed` (each must answer deleted: true) and
 * requires the conversation to hold exactly the others, in insertion order.
 */
export async function deleteAndCheck(bridge: BridgeApi, session: string, contents: readonly string[], doomed: readonly number[]): Promise<Message[]> {
  const stored = await addMessages(bridge, session, contents);
  for (const i of doomed) await deleteMessage(bridge, stored[i]!.id, true, `of the ${ORDINAL[i]} stored message`);
  const kept = stored.filter((_, i) => !doomed.includes(i));
  const what = doomed.length === contents.length ? `all ${contents.length} messages` : `${doomed.map((i) => `the ${ORDINAL[i]}`).join(' and ')} of ${contents.length} messages`;
  await expectConversation(bridge, session, kept, `after deleting ${what}`);
  return kept;
}
