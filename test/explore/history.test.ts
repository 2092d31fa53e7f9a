// What the default generator draws for issue 34 (src/explore/history.ts), read off the requests a
// seeded exploration of the reference sends: a read asked again with identical arguments right
// after writes that change it (read → write → the same read), namesake keys of one sequence, NUL in
// message content, and a filtered read with limit 1 around a match outside its filter and one
// inside. That these histories find the faults they are for is faults.test.ts's (faults-34.ts).
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/index.js';
import { namesakes } from '../../src/explore/history.js';
import { exploreVariant } from './faults.js';

/** The exchanges of seed 1's first 40 sequences on the reference (Bronze–Gold), split into sequences at clear_all_data. */
async function sequencesSent(): Promise<Exchange[][]> {
  const all: Exchange[] = [];
  const s = await exploreVariant({}, { seed: 1, runs: 40, timeBudgetMs: 120_000, onExchange: (e) => all.push(e) });
  expect(s.findings ?? []).toEqual([]);
  const out: Exchange[][] = [];
  for (const e of all) {
    if (e.method === 'clear_all_data' || out.length === 0) out.push([]);
    out.at(-1)!.push(e);
  }
  return out;
}

const same = (a: Exchange, b: Exchange) => a.method === b.method && JSON.stringify(a.requestBody) === JSON.stringify(b.requestBody);

/** The (read, write) pairs that occur as read → write(s) → the identical read, with at most three calls between. */
function histories(seqs: Exchange[][]): Set<string> {
  const out = new Set<string>();
  for (const seq of seqs) {
    for (let i = 0; i < seq.length; i++) {
      for (let k = i + 2; k <= i + 4 && k < seq.length; k++) {
        if (!same(seq[i]!, seq[k]!)) continue;
        for (const w of seq.slice(i + 1, k)) out.add(`${seq[i]!.method} ← ${w.method}`);
      }
    }
  }
  return out;
}

describe('the default generator draws histories, namesakes and limits beside filters', () => {
  it('namesakes: case, Unicode normal form, a trailing space, LIKE wildcards, a control character', () => {
    expect(namesakes('s-1')).toEqual(expect.arrayContaining(['S-1', 's-1 ', 's_1', 's-1%', 's-1\u0001']));
    expect(namesakes('Caf\u00e9')).toContain('Cafe\u0301');
    expect(namesakes('alice ')).toContain('alice');
    expect(namesakes('s-1')).not.toContain('s-1');
  });

  it('seed 1 sends each read again with identical arguments after the writes that change it, namesakes in one sequence, NUL in content, filtered reads of limit 1', async () => {
    const seqs = await sequencesSent();
    const seen = histories(seqs);
    for (const pair of [
      'get_conversation ← add_message', 'get_conversation ← delete_message', 'get_conversation ← clear_session', 'search_messages ← add_message',
      'list_sessions ← clear_session', 'get_entity_by_name ← add_entity', 'search_entities ← add_entity', 'get_related_entities ← merge_duplicate_entities',
      'get_trace_with_steps ← add_step', 'get_trace_with_steps ← record_tool_call', 'list_traces ← start_trace', 'get_similar_traces ← complete_trace',
      'search_preferences ← add_preference',
    ]) expect(seen, pair).toContain(pair);
    // A session id and one of its namesakes, both written to in one sequence.
    const pairs = seqs.filter((seq) => {
      const ids = new Set(seq.filter((e) => e.method === 'add_message').map((e) => String(e.requestBody.session_id)));
      return [...ids].some((id) => namesakes(id).some((n) => ids.has(n)));
    });
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    expect(seqs.flat().some((e) => e.method === 'add_message' && String(e.requestBody.content).includes('\u0000'))).toBe(true);
    // search_messages(session_id, limit 1) after a match added outside the session (a namesake of it) and one inside.
    const filtered = seqs.flat().filter((e, i, all) => e.method === 'search_messages' && e.requestBody.limit === 1 && typeof e.requestBody.session_id === 'string'
      && all[i - 1]?.method === 'add_message' && all[i - 1]!.requestBody.session_id === e.requestBody.session_id
      && all[i - 2]?.method === 'add_message' && namesakes(String(e.requestBody.session_id)).includes(String(all[i - 2]!.requestBody.session_id)));
    expect(filtered.length).toBeGreaterThan(0);
  }, 120_000);
});
