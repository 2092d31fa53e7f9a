// A small seeded generator (mulberry32): the same seed draws the same numbers, on every machine.
// Explore's concurrent programs and its hosted sequences draw from it (bench/fuzz.mjs keeps its own
// copy: a benchmark must not import the built kit).

/** Numbers in [0, 1), drawn from `seed`. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
