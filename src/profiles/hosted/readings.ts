// How a hosted answer is read where the document does not show its shape, once for the hosted
// scenarios (suites/support/http-answers.ts) and `tck explore --hosted` (src/explore/hosted.ts):
// - silent: a list may be a bare array or an object holding one array;
// - silent: where the messages of an answer sit;
// - silent: which field shows a value (an answer "shows" it anywhere).
import { isJsonObject } from '../../util/json.js';

type Json = Record<string, unknown>;

/** The items of a list answer: a bare array, or the array of an object (`preferred` names first, else its only array). */
export function listItems(json: unknown, preferred: string[]): unknown[] | undefined {
  if (Array.isArray(json)) return json;
  if (!isJsonObject(json)) return undefined;
  for (const name of preferred) if (Array.isArray(json[name])) return json[name];
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

/** Whether a JSON value holds `text` as a string anywhere (an answer "shows" a value). */
export function holds(json: unknown, text: string): boolean {
  if (typeof json === 'string') return json === text;
  if (Array.isArray(json)) return json.some((v) => holds(v, text));
  return isJsonObject(json) && Object.values(json).some((v) => holds(v, text));
}

/** Whether `json` has `key: value` somewhere. */
export function hasPair(json: unknown, key: string, value: unknown): boolean {
  if (Array.isArray(json)) return json.some((v) => hasPair(v, key, value));
  return isJsonObject(json) && (json[key] === value || Object.values(json).some((v) => hasPair(v, key, value)));
}

/**
 * The message objects of an answer (a string content), wherever they sit: a `messages` array when the
 * answer has one, else every object of it; `keys` narrows where.
 */
export function messagesIn(json: unknown, keys?: string[]): Json[] {
  if (keys !== undefined) return isJsonObject(json) ? keys.flatMap((k) => (Array.isArray(json[k]) ? messagesIn(json[k]) : [])) : [];
  if (Array.isArray(json)) return json.filter(isJsonObject).flatMap((m) => (typeof m.content === 'string' ? [m] : messagesIn(Object.values(m))));
  if (!isJsonObject(json)) return [];
  return Array.isArray(json.messages) ? messagesIn(json.messages) : messagesIn(Object.values(json).filter((v) => typeof v === 'object'));
}
