// Small helpers shared by the Gold scenarios: creating named entities and traces in one line, and
// comparing lists by id with failure messages that name the items (entity names, trace tasks).
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import { check } from '../../src/engine/assert.js';
import type { Entity, EntityType, ReasoningTrace } from '../../src/protocols/bridge/index.js';

/** Anything with an id and, perhaps, something readable to call it by. */
interface Identified {
  id: string;
  name?: unknown;
  task?: unknown;
  content?: unknown;
  preference?: unknown;
}

/** `Acme (3f2a…)`: the readable part of an item, then the start of its id. */
export function label(item: Identified): string {
  const text = [item.name, item.task, item.content, item.preference].find((v): v is string => typeof v === 'string');
  return text === undefined ? item.id : `${JSON.stringify(text)} (${item.id.slice(0, 8)}…)`;
}

const labels = (items: readonly Identified[]) => `[${items.map(label).join(', ')}]`;

/**
 * The ids of `actual` are exactly those of `expected`: in the same order when `ordered`, as a set
 * otherwise (duplicates in `actual` are then ignored only when `allowRepeats`).
 */
export function sameIds(
  actual: readonly Identified[],
  expected: readonly Identified[],
  what: string,
  options: { ordered?: boolean; allowRepeats?: boolean } = {},
): void {
  const got = actual.map((x) => x.id);
  const want = expected.map((x) => x.id);
  const norm = (ids: string[]) => (options.ordered ? ids : [...(options.allowRepeats ? new Set(ids) : ids)].sort());
  check.ok(
    JSON.stringify(norm(got)) === JSON.stringify(norm(want)),
    `${what}: expected ${options.ordered ? '' : 'exactly (any order) '}${labels(expected)}, got ${labels(actual)}`,
    { expected: want, actual: got },
  );
}

/** `item` is in `list`; returns its position. */
export function indexOfId(list: readonly Identified[], item: Identified, what: string): number {
  const at = list.findIndex((x) => x.id === item.id);
  check.ok(at >= 0, `${what}: expected ${label(item)} among the results, got ${labels(list)}`, {
    expected: item.id,
    actual: list.map((x) => x.id),
  });
  return at;
}

/** No item of `list` has the id of `item`. */
export function absentId(list: readonly Identified[], item: Identified, what: string): void {
  check.ok(!list.some((x) => x.id === item.id), `${what}: expected ${label(item)} not to be among the results, got ${labels(list)}`, {
    expected: `no ${item.id}`,
    actual: list.map((x) => x.id),
  });
}

type EntitySpec = readonly [name: string, type: EntityType, description?: string];

/** Creates one entity per key, in key order: `const { alice } = await addEntities(bridge, { alice: ['Alice', 'PERSON'] })`. */
export async function addEntities<K extends string>(bridge: BridgeApi, specs: Record<K, EntitySpec>): Promise<Record<K, Entity>> {
  const out = {} as Record<K, Entity>;
  for (const key of Object.keys(specs) as K[]) {
    const [name, entity_type, description] = specs[key];
    out[key] = await bridge.add_entity(description === undefined ? { name, entity_type } : { name, entity_type, description });
  }
  return out;
}

/** Starts a trace and, when `success` is given (true or false), completes it with that flag. */
export async function addTrace(bridge: BridgeApi, session_id: string, task: string, success?: boolean): Promise<ReasoningTrace> {
  const trace = await bridge.start_trace({ session_id, task });
  if (success === undefined) return trace;
  return bridge.complete_trace({ trace_id: trace.id, outcome: success ? 'done' : 'gave up', success });
}
