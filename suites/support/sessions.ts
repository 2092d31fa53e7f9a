// list_sessions as the scenarios judge it: one entry per session, an entry that must be there, and
// exact message counts.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { check, show } from '../../src/engine/assert.js';
import type { SessionInfo } from '../../src/protocols/bridge/model.js';
import { citing, type Cites } from './cite.js';

/**
 * list_sessions with one entry per session (a second entry for a session id fails): SPEC-2.4.1 lists
 * the sessions, and SPEC-2.4.4 gives one session exactly one entry.
 */
export async function listSessions(bridge: BridgeApi, limit?: number): Promise<SessionInfo[]> {
  const list = await bridge.list_sessions(limit === undefined ? {} : { limit });
  const call = limit === undefined ? 'list_sessions()' : `list_sessions(limit=${limit})`;
  check.by('SPEC-2.4.1', 'SPEC-2.4.4').distinct(list.map((s) => s.session_id), `${call}: one entry per session`);
  return list;
}

/** The entry of `session_id` in a list_sessions answer, which must be there (SPEC-2.4.1: every active session is listed). */
export function entryOf(list: readonly SessionInfo[], session_id: string, after: string): SessionInfo {
  return check.by('SPEC-2.4.1').some(list, (s) => s.session_id === session_id, `list_sessions() ${after}: an entry for session ${show(session_id)}`);
}

/**
 * Requires exact message counts: `counts` maps session id -> expected message_count. A count of 0
 * also accepts a session that is no longer listed. A session with messages must be listed
 * (SPEC-2.4.1); its count is what `cites` names (default SPEC-2.4.2: accurate message counts).
 */
export async function expectCounts(bridge: BridgeApi, counts: Record<string, number>, after: string, cites: Cites = ['SPEC-2.4.2']): Promise<SessionInfo[]> {
  const list = await listSessions(bridge);
  for (const [session_id, n] of Object.entries(counts)) {
    const entry = list.find((s) => s.session_id === session_id);
    // silent: whether a session whose messages are all gone is still listed (with message_count 0)
    if (entry === undefined && n === 0) continue;
    if (entry === undefined) {
      return check.by('SPEC-2.4.1').fail(`list_sessions() ${after}: no entry for session ${show(session_id)} (expected message_count ${n})`, { expected: n, actual: list });
    }
    citing(cites).equal(entry.message_count, n, `list_sessions() ${after}: message_count of session ${show(session_id)}`);
  }
  return list;
}
