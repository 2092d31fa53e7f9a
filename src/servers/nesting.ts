// The nesting cap of the servers we ship: a robustness limit of ours, not a protocol rule.
// JSON.parse accepts any depth, but JSON.stringify, structuredClone and recursive copies overflow
// the stack a few thousand levels down; capping the depth on the way in keeps every stored value
// serialisable (a stored value that cannot be written back would break every later read of it).
// Shared by the bridge reference, the forwarder and the hosted REST service.

/** How deeply a parameter value may nest (arrays and objects). */
export const MAX_NESTING_DEPTH = 512;

/** Whether `value` nests deeper than `limit` levels; iterative, so any depth is safe to check. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The 400 message for the first of `keys` whose value in `params` nests beyond the cap. */
export function nestingIssue(params: Record<string, unknown>, keys: Iterable<string>): string | undefined {
  for (const key of keys) {
    if (nestsDeeperThan(params[key], MAX_NESTING_DEPTH)) return `${key}: nested more than ${MAX_NESTING_DEPTH} levels deep`;
  }
  return undefined;
}
