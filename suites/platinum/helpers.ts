// Small helpers of the Platinum scenarios.
import type { BridgeApi, ScenarioContext } from '../../src/profiles/bridge/context.js';
import type { Message, PlatinumConversation, Role } from '../../src/protocols/bridge/index.js';
import { check } from '../../src/engine/assert.js';
import { TransportFault } from '../../src/engine/faults.js';
import { describeReading, readAnswer } from '../../src/profiles/bridge/classify.js';
import { isJsonObject } from '../../src/util/json.js';

/** A conversation of a user whose id names the scenario (the established tests use such ids). */
export function newConversation(bridge: BridgeApi, userId: string): Promise<PlatinumConversation> {
  return bridge.create_conversation({ user_id: userId, metadata: { tck: userId } });
}

export const ids = (items: readonly { id: string }[]) => items.map((x) => x.id);
export const short = (id: string) => `${id.slice(0, 8)}…`;

/**
 * The session a conversation's messages live in for the core methods (add_message, get_conversation,
 * start_trace): its session_id, which need not be its id (silent point conversation-session-id).
 */
export const sessionOf = (conv: PlatinumConversation): string => conv.session_id;

/** Adds `contents` one by one with the core add_message, to the conversation's session. */
export async function addOneByOne(bridge: BridgeApi, conv: PlatinumConversation, contents: readonly string[], role: Role = 'user'): Promise<Message[]> {
  const out: Message[] = [];
  for (const content of contents) out.push(await bridge.add_message({ session_id: sessionOf(conv), role, content }));
  return out;
}

/** Adds `contents` with one bulk_add_messages call (at most 100). */
export function addInBulk(bridge: BridgeApi, conv: PlatinumConversation, contents: readonly string[], role: Role = 'user'): Promise<Message[]> {
  return bridge.bulk_add_messages({ conversation_id: conv.id, messages: contents.map((content) => ({ role, content })) });
}

/** Every message of the conversation's session, read with the core get_conversation (a limit above `atLeast`, since its default is silent). */
export async function storedMessages(bridge: BridgeApi, conv: PlatinumConversation, atLeast: number): Promise<Message[]> {
  return (await bridge.get_conversation({ session_id: sessionOf(conv), limit: atLeast + 50 })).messages;
}

/** `n` distinct texts `${stem} 00`, `${stem} 01`, … */
export const texts = (stem: string, n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `${stem} ${String(from + i).padStart(2, '0')}`);

/**
 * The two lists hold the same items, in any order: the failure names what is missing and what is
 * there unasked (by `name` of an item, its id when there is none), citing `sentences`.
 */
export function sameSet(sentences: readonly string[], actual: readonly string[], expected: readonly string[], what: string, name: (id: string) => string = short): void {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((x) => !got.has(x));
  const extra = actual.filter((x) => !want.has(x));
  const dupes = actual.filter((x, i) => actual.indexOf(x) !== i);
  const problems = [
    ...(missing.length > 0 ? [`${missing.length} missing (${missing.slice(0, 5).map(name).join(', ')}${missing.length > 5 ? ', …' : ''})`] : []),
    ...(extra.length > 0 ? [`${extra.length} not expected (${extra.slice(0, 5).map(name).join(', ')}${extra.length > 5 ? ', …' : ''})`] : []),
    ...(dupes.length > 0 ? [`${dupes.length} listed twice (${dupes.slice(0, 5).map(name).join(', ')})`] : []),
  ];
  check.by(...sentences).ok(problems.length === 0, `${what}: expected exactly ${expected.length}, got ${actual.length}: ${problems.join('; ')}`,
    { expected: [...expected].sort(), actual: [...actual].sort() });
}

/** Every id of `expected` is among `actual` (others may be there too). */
export function includesAll(sentences: readonly string[], actual: readonly string[], expected: readonly string[], what: string, name: (id: string) => string = short): void {
  const got = new Set(actual);
  const missing = expected.filter((x) => !got.has(x));
  check.by(...sentences).ok(missing.length === 0,
    `${what}: ${missing.length} of ${expected.length} missing (${missing.slice(0, 5).map(name).join(', ')}${missing.length > 5 ? ', …' : ''}) among ${actual.length}`,
    { expected: [...expected].sort(), actual: [...actual].sort() });
}

/**
 * A lookup of something deleted does not answer it: refused (400 or 500 {"error"}), null (the
 * Errors 2 answer of a lookup that finds nothing), or an object that is not it. The answer is read
 * by the one reading every suite shares (readAnswer); a method that is not there is a gap of its
 * tier, and any other answer the response rules forbid fails with what came.
 */
export async function expectGone(ctx: ScenarioContext, sentences: readonly string[], method: 'get_entity' | 'get_conversation_metadata', params: Record<string, unknown>, id: string, what: string): Promise<void> {
  const { outcome, exchange } = await ctx.raw(method, params);
  const reading = readAnswer(outcome);
  if (reading.kind === 'absent' && outcome.kind === 'violation') throw await ctx.faultOf(method, outcome, exchange);
  if (reading.kind === 'transport') throw new TransportFault(method, reading.failure, reading.reason);
  const value = reading.kind === 'accepted' ? reading.value : undefined;
  const answered = isJsonObject(value) && value['id'] === id;
  const fine = reading.kind === 'refused' || reading.kind === 'null' || (isJsonObject(value) && !answered);
  check.by(...sentences).that(fine, `${method} of a deleted item answers an error, null or another object`, () => ({
    message: `${method}(${short(id)}) ${what}: expected an error (400 or 500 {"error"}) or null, got ${answered ? 'the deleted item itself' : describeReading(reading)}`,
    expected: 'an error or null',
    actual: value ?? describeReading(reading),
  }));
}
