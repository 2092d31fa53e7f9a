// A linearizability checker (Wing & Gong's search, with Lowe's memo of visited configurations, as
// Knossos and Porcupine do it): does some serial order of a concurrent history, consistent with real
// time (a call answered before another was sent comes first), explain every answer by a sequential
// model? The search is bounded: past `budget` model steps it gives up and says so ("unknown"),
// which is never reported as a finding.

/** One call of a history: who made it, what it was, what came back, and when (ms, one clock). */
export interface Op<C, A> {
  client: number;
  call: C;
  answer: A;
  invokedMs: number;
  answeredMs: number;
}

/** The sequential model: from a state, a call and the answer the server gave, the next state, or why that answer cannot be. */
export interface SequentialModel<S, C, A> {
  init(): S;
  step(state: S, call: C, answer: A): { ok: true; next: S } | { ok: false; why: string };
  /** A key of a state: equal keys, equal states (the memo). */
  key(state: S): string;
}

export type Verdict =
  | { kind: 'linearizable'; order: number[]; steps: number }
  /** No serial order explains the history; `why` is the answer the longest attempt could not explain. */
  | { kind: 'not-linearizable'; why: string; at: number; steps: number }
  | { kind: 'unknown'; steps: number };

/**
 * Searches for a serial order of `ops` that the model explains. An op may go next when no op still
 * to place was answered before it was sent. Configurations (ops placed, model state) already seen
 * are not searched again.
 */
export function linearize<S, C, A>(given: readonly Op<C, A>[], model: SequentialModel<S, C, A>, budget = 200_000): Verdict {
  // Candidates are tried in the order they were sent: the order a correct server most often took them in.
  const byTime = given.map((op, index) => ({ op, index })).sort((a, b) => a.op.invokedMs - b.op.invokedMs);
  const ops = byTime.map((x) => x.op);
  const original = (i: number) => (i < 0 ? i : byTime[i]!.index);
  const n = ops.length;
  const placed = new Uint8Array(n);
  const order: number[] = [];
  const seen = new Set<string>();
  let steps = 0;
  let deepest = { depth: -1, why: '', at: -1 };

  const search = (state: S): boolean | 'budget' => {
    if (order.length === n) return true;
    const memo = `${placed.join('')}|${model.key(state)}`;
    if (seen.has(memo)) return false;
    seen.add(memo);
    // The earliest answer among the ops still to place: an op sent after it cannot go before it.
    let horizon = Infinity;
    for (let i = 0; i < n; i++) if (placed[i] === 0 && ops[i]!.answeredMs < horizon) horizon = ops[i]!.answeredMs;
    for (let i = 0; i < n; i++) {
      if (placed[i] === 1 || ops[i]!.invokedMs > horizon) continue;
      if (++steps > budget) return 'budget';
      const r = model.step(state, ops[i]!.call, ops[i]!.answer);
      if (!r.ok) {
        if (order.length > deepest.depth) deepest = { depth: order.length, why: r.why, at: i };
        continue;
      }
      placed[i] = 1;
      order.push(i);
      const found = search(r.next);
      if (found !== false) return found;
      order.pop();
      placed[i] = 0;
    }
    return false;
  };

  const found = search(model.init());
  if (found === 'budget') return { kind: 'unknown', steps };
  if (found) return { kind: 'linearizable', order: order.map(original), steps };
  return { kind: 'not-linearizable', why: deepest.why, at: original(deepest.at), steps };
}
