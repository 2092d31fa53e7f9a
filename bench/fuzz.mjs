// Seeded request generators of the reliability tests (test/reliability/) and of `npm run soak`:
// the same seed gives the same requests. Plain ESM, no dependency on the built kit.

/** mulberry32: a small deterministic generator in [0, 1). */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

const WORDS = ['alice', 'acme', '', ' ', 'é', '\u0000', '\u202e', '🙂', '__proto__', 'constructor', 'prototype', 'null', '-1', '1e309', 'x'.repeat(300)];
const KEYS = ['session_id', 'role', 'content', 'metadata', 'limit', 'threshold', 'query', 'name', 'entity_type', 'description', 'trace_id', 'step_id',
  'tool_name', 'arguments', 'result', 'status', '__proto__', 'constructor', 'source_id', 'target_id', 'properties', 'task', 'outcome', 'success'];

/** A random JSON value, nested at most `depth` levels. */
export function value(random, depth = 3) {
  const r = random();
  if (depth <= 0 || r < 0.45) {
    return pick(random, [null, true, false, 0, -1, 1.5, 2 ** 53, -0, pick(random, WORDS), pick(random, WORDS), '00000000-0000-4000-8000-000000000001', 'user', 'PERSON']);
  }
  if (r < 0.7) return Array.from({ length: Math.floor(random() * 4) }, () => value(random, depth - 1));
  return object(random, depth - 1);
}

/** A random JSON object whose keys are mostly parameter names (so that validation is reached). */
export function object(random, depth = 3) {
  const out = {};
  const n = Math.floor(random() * 6);
  for (let i = 0; i < n; i++) {
    const key = random() < 0.85 ? pick(random, KEYS) : pick(random, WORDS);
    // defineProperty: "__proto__" becomes an own key, as JSON.parse makes it.
    Object.defineProperty(out, key, { value: value(random, depth), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A random request body as text: usually a JSON object, sometimes broken or not an object. */
export function body(random) {
  const r = random();
  if (r < 0.05) return pick(random, ['', '{', '[]', 'null', '"x"', '{"a":}', '\xff\xfe', '{"session_id": "s"}x']);
  if (r < 0.1) return JSON.stringify(value(random));
  return JSON.stringify(object(random));
}
