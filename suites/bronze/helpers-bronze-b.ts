// Shared plumbing of the Bronze scenarios of part B (search, sessions, delete, clear, ordering,
// idempotency, protocol shape): writing a batch of messages, reading a conversation back as the
// fields that matter, one list_sessions entry per session, and comparing timestamps as instants.
import { isDeepStrictEqual } from 'node:util';
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { check, show } from '../../src/engine/assert.js';
import { AssertionFailure } from '../../src/engine/faults.js';
import type { Message, Role, SessionInfo } from '../../src/protocols/bridge/model.js';

/** What a conversation is judged on: the id handed out, the role and the content. */
export interface Written {
  id: string;
  role: string;
  content: string;
}

const view = (m: Written): Written => ({ id: m.id, role: m.role, content: m.content });

/** Adds `contents` to `session_id` in order (one call each), all with `role`. */
export async function addMessages(bridge: BridgeApi, session_id: string, contents: readonly string[], role: Role = 'user'): Promise<Message[]> {
  return addTurns(bridge, session_id, contents.map((content) => [role, content] as const));
}

/**
 * Adds `[role, content]` turns to `session_id` in order. Each returned message carries the id the
 * server handed out but the role and content as sent, so reading back is judged against what was
 * written, not against an echo.
 */
export async function addTurns(bridge: BridgeApi, session_id: string, turns: readonly (readonly [Role, string])[]): Promise<Message[]> {
  const out: Message[] = [];
  for (const [role, content] of turns) out.push({ ...(await bridge.add_message({ session_id, role, content })), role, content });
  return out;
}

/**
 * Reads `session_id` back and requires exactly `expected` (ids, roles, contents), in that order.
 * `after` says what happened before, for the message: "after deleting the first message".
 */
export async function expectConversation(bridge: BridgeApi, session_id: string, expected: readonly Written[], after: string): Promise<Message[]> {
  const conv = await bridge.get_conversation({ session_id });
  const call = `get_conversation(session_id=${show(session_id)})`;
  check.equal(conv.session_id, session_id, `${call}: session_id of the conversation`);
  const got = conv.messages.map(view);
  const want = expected.map(view);
  if (!isDeepStrictEqual(got, want)) {
    const i = got.findIndex((m, k) => !isDeepStrictEqual(m, want[k]));
    const detail = got.length !== want.length
      ? `expected ${want.length} message(s), got ${got.length}: contents ${show(got.map((m) => m.content))}`
      : `message ${i}: expected ${show(want[i])}, got ${show(got[i])}`;
    throw new AssertionFailure(`${call} ${after}: ${detail} (expected the messages written, in insertion order)`, want, got);
  }
  return conv.messages;
}

/** list_sessions with one entry per session (a second entry for a session id fails). */
export async function listSessions(bridge: BridgeApi, limit?: number): Promise<SessionInfo[]> {
  const list = await bridge.list_sessions(limit === undefined ? {} : { limit });
  const call = limit === undefined ? 'list_sessions()' : `list_sessions(limit=${limit})`;
  check.distinct(list.map((s) => s.session_id), `${call}: one entry per session`);
  return list;
}

/** The entry of `session_id` in a list_sessions answer, which must be there. */
export function entryOf(list: readonly SessionInfo[], session_id: string, after: string): SessionInfo {
  return check.some(list, (s) => s.session_id === session_id, `list_sessions() ${after}: an entry for session ${show(session_id)}`);
}

/**
 * Requires exact message counts: `counts` maps session id -> expected message_count. A count of 0
 * also accepts a session that is no longer listed.
 */
export async function expectCounts(bridge: BridgeApi, counts: Record<string, number>, after: string): Promise<SessionInfo[]> {
  const list = await listSessions(bridge);
  for (const [session_id, n] of Object.entries(counts)) {
    const entry = list.find((s) => s.session_id === session_id);
    // silent: whether a session whose messages are all gone is still listed (with message_count 0)
    if (entry === undefined && n === 0) continue;
    if (entry === undefined) {
      throw new AssertionFailure(`list_sessions() ${after}: no entry for session ${show(session_id)} (expected message_count ${n})`, n, list);
    }
    check.equal(entry.message_count, n, `list_sessions() ${after}: message_count of session ${show(session_id)}`);
  }
  return list;
}

/** A well-formed UUID that no server hands out in practice. */
export const UNKNOWN_ID = '6f1d2c3b-7a8e-4f00-9c1d-00000000dead';

export const ids = (list: readonly { id: string }[]): string[] => list.map((m) => m.id);

/** Every item of a search answer is a stored message with its stored role and content. */
export function checkStored(results: readonly Message[], stored: readonly Written[], call: string): void {
  const byId = new Map(stored.map((m) => [m.id, m]));
  for (const r of results) {
    const own = byId.get(r.id);
    if (own === undefined) throw new AssertionFailure(`${call}: result ${show(r.id)} is none of the messages stored by this scenario`, 'a stored message', r);
    check.equal(view(r), view(own), `${call}: result ${show(r.id)} must read as stored`);
  }
  check.distinct(ids(results), `${call}: each message at most once`);
}

const ISO_PARTS = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An ISO 8601 timestamp as a sortable instant: whole seconds since the epoch and the fraction of
 * a second as a digit string, so that any zone designator and any precision compare exactly.
 */
function instantOf(ts: string): { seconds: number; fraction: string } {
  const m = ISO_PARTS.exec(ts);
  if (!m) throw new AssertionFailure(`${show(ts)} is not an ISO 8601 date-time with a zone designator`, 'ISO 8601', ts);
  const [, date, hhmm, ss, frac, zone] = m;
  const ms = Date.parse(`${date}T${hhmm}:${ss ?? '00'}${zone === 'z' ? 'Z' : zone}`);
  return { seconds: ms / 1000, fraction: (frac ?? '').replace(/0+$/, '') };
}

/** Negative, zero or positive as `a` is before, at or after `b` (as instants, not strings). */
export function compareInstants(a: string, b: string): number {
  const x = instantOf(a);
  const y = instantOf(b);
  if (x.seconds !== y.seconds) return x.seconds - y.seconds;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  return fx < fy ? -1 : fx > fy ? 1 : 0;
}

/** delete_message, requiring `{"deleted": expected}` (extra fields allowed). */
export async function deleteMessage(bridge: BridgeApi, message_id: string, expected: boolean, why: string): Promise<void> {
  const result = await bridge.delete_message({ message_id });
  check.equal(result.deleted, expected, `delete_message(message_id=${message_id}) ${why}: deleted`);
}

/**
 * Where two JSON values first differ, as `path: before … after` (for messages about data that
 * should not have changed); undefined when they are equal.
 */
export function firstDifference(before: unknown, after: unknown, path = ''): string | undefined {
  if (isDeepStrictEqual(before, after)) return undefined;
  const here = path === '' ? '(the whole value)' : path;
  if (Array.isArray(before) && Array.isArray(after)) {
    if (before.length !== after.length) return `${here}: ${before.length} item(s) before, ${after.length} after`;
    for (let i = 0; i < before.length; i++) {
      const d = firstDifference(before[i], after[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(before) && isObject(after)) {
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const d = firstDifference(before[key], after[key], path === '' ? key : `${path}.${key}`);
      if (d !== undefined) return d;
    }
  }
  const text = (v: unknown) => (v === undefined ? 'absent' : show(v, 120));
  return `${here}: ${text(before)} before, ${text(after)} after`;
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
