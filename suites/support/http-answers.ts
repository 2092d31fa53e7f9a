// How the hosted scenarios judge an HTTP answer: 2xx, a JSON object, a refusal, a string field, the
// items of a list; and an answer in a few words for failure messages. Failures go through the
// engine's check, naming the clause they break.
//
// Readings of what the document does not show, accepted here once for every scenario:
// - silent: a refused credential may be answered 401 or 403;
// - silent: creation may answer 200 or 201 (any 2xx), deletion 200, 202 or 204 with or without a body;
// - silent: error bodies (shape, fields) are not judged;
// - silent: extra fields are allowed everywhere (they must still be camelCase).
import { snippet, statusLine } from '../../src/profiles/bridge/classify.js';
import { check } from '../../src/engine/assert.js';
import type { Answer } from '../../src/profiles/hosted/context.js';
import { isJsonObject } from '../../src/util/json.js';
import { pause } from './time.js';
import { listItems } from '../../src/profiles/hosted/readings.js';

export { hasPair, holds, listItems, messagesIn } from '../../src/profiles/hosted/readings.js';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => isJsonObject(v);
export const is2xx = (a: Answer): boolean => a.status >= 200 && a.status < 300;
/** silent: 401 or 403 for a refused credential. */
export const isRefusal = (a: Answer): boolean => a.status === 401 || a.status === 403;

/** "200 OK {"conversations":[…]…}": an answer in a few words (the report scrubs any secret in it). */
export function said(a: Answer): string {
  return `${statusLine(a.status)}${a.text.trim() === '' ? ' with an empty body' : ` ${snippet(a.text, 160)}`}`;
}

/** A 2xx answer, else the scenario fails naming `rule`. */
export function check2xx(a: Answer, rule: string): Answer {
  check.by(rule).that(is2xx(a), `${a.operation} answers 2xx`, () => ({ message: `${rule}: ${a.operation} (${a.request}): expected a 2xx answer, got ${said(a)}`, expected: '2xx', actual: a.status }));
  return a;
}

/** A 2xx answer whose body is a JSON object. */
export function checkObject(a: Answer, rule: string): Json {
  check2xx(a, rule);
  check.by(rule).that(a.isJson && isObject(a.json), `${a.operation} answers a JSON object`, () => ({ message: `${rule}: ${a.operation} (${a.request}): expected a JSON object, got ${said(a)}`, expected: 'a JSON object', actual: a.text }));
  return a.json as Json;
}

/** A string field of an object, else the scenario fails naming `rule`. */
export function checkString(body: Json, field: string, rule: string, where: string): string {
  const v = body[field];
  check.by(rule).that(typeof v === 'string' && v !== '', `${where}: ${field} is a non-empty string`, () => ({ message: `${rule}: ${where}: expected a non-empty string ${field}, got ${JSON.stringify(v) ?? 'nothing'}`, expected: 'a string', actual: v }));
  return v as string;
}

/** The objects of a list answer (a bare array, or the array of an object; `preferred` names where to look first). */
export const itemsOf = (a: Answer, preferred: string[]): Json[] => ((a.isJson ? listItems(a.json, preferred) : undefined) ?? []).filter(isObject);

/**
 * A derived read (a search, a history) sent again while it does not yet show what `ok` wants, at most
 * `tries` times 200 ms apart: a service may index a write a moment after answering it (the official
 * clients poll their searches); one that never catches up still fails. The last answer.
 */
export async function eventually(read: () => Promise<Answer>, ok: (a: Answer) => boolean, tries = 5): Promise<Answer> {
  let a = await read();
  for (let i = 1; i < tries && !ok(a); i++) {
    await pause(200);
    a = await read();
  }
  return a;
}
