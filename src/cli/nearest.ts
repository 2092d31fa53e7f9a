// "Did you mean …?": the nearest of some names to a word typed wrong.

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The name nearest to `word` (case ignored), when it is near enough to be what was meant. */
export function nearest(word: string, names: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const near = names.map((n) => ({ n, d: distance(w, n.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return near && near.d <= Math.max(2, Math.floor(word.length / 2)) ? near.n : undefined;
}
