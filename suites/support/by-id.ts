// Lists judged by the ids of their items, with failure messages that name the items (entity
// names, trace tasks, message contents) rather than bare ids.
import { citing, type Cites } from './cite.js';

export const ids = (list: readonly { id: string }[]): string[] => list.map((m) => m.id);

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
 * Why an item is not where it should be, naming the field and its value against the one expected:
 * `message "Hi" (3f2a…) belongs to session "b", not "a"`; `found` undefined: the scenario never wrote it.
 */
export function misplaced(noun: string, item: Identified, field: string, found: string | undefined, want: string): string {
  return found === undefined
    ? `${noun} ${label(item)} is none of the ${noun}s this scenario wrote`
    : `${noun} ${label(item)} belongs to ${field} ${JSON.stringify(found)}, not ${JSON.stringify(want)}`;
}

/**
 * Every item of `list` has `want` as its `field`, as `owner` reads it (the item's own field, or where
 * the scenario wrote it); a failure names the first item that does not and where it belongs.
 */
export function allIn<T extends Identified>(list: readonly T[], want: string, owner: (item: T) => string | undefined, what: string, words: { noun: string; field: string }, cites?: Cites): void {
  citing(cites).every(list, (x) => owner(x) === want, what, (x) => misplaced(words.noun, x, words.field, owner(x), want));
}

/**
 * The ids of `actual` are exactly those of `expected`: in the same order when `ordered`, as a set
 * otherwise (duplicates in `actual` are then ignored only when `allowRepeats`).
 */
export function sameIds(
  actual: readonly Identified[],
  expected: readonly Identified[],
  what: string,
  options: { ordered?: boolean; allowRepeats?: boolean; cites?: Cites } = {},
): void {
  const got = ids(actual);
  const want = ids(expected);
  const norm = (ids: string[]) => (options.ordered ? ids : [...(options.allowRepeats ? new Set(ids) : ids)].sort());
  citing(options.cites).ok(
    JSON.stringify(norm(got)) === JSON.stringify(norm(want)),
    `${what}: expected ${options.ordered ? '' : 'exactly (any order) '}${labels(expected)}, got ${labels(actual)}`,
    { expected: want, actual: got },
  );
}

/** `item` is in `list`; returns its position. */
export function indexOfId(list: readonly Identified[], item: Identified, what: string, cites?: Cites): number {
  const at = list.findIndex((x) => x.id === item.id);
  citing(cites).ok(at >= 0, `${what}: expected ${label(item)} among the results, got ${labels(list)}`, {
    expected: item.id,
    actual: ids(list),
  });
  return at;
}

/** No item of `list` has the id of `item`. */
export function absentId(list: readonly Identified[], item: Identified, what: string, cites?: Cites): void {
  citing(cites).ok(!list.some((x) => x.id === item.id), `${what}: expected ${label(item)} not to be among the results, got ${labels(list)}`, {
    // Comparable with the actual ids: the same list without the item.
    expected: ids(list).filter((id) => id !== item.id),
    actual: ids(list),
  });
}
