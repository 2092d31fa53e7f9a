// Bounds on what one scenario result keeps, whatever the server sent: a report stays writable
// (JSON.stringify of a report once hit "Invalid string length" on a 195 MiB message) and readable.
// Evidence bodies have their own bound (src/bridge/exchange.ts).

import { cutAt } from '../util/words.js';

/** Characters of a result's message, and of its expected/actual values once serialised. */
const MAX_RESULT_TEXT = 64 * 1024;

/** `text` cut at `max` characters, with a marker saying how much was left out. */
export function capText(text: string, max = MAX_RESULT_TEXT): string {
  if (text.length <= max) return text;
  const head = cutAt(text, max);
  return `${head}… [${text.length - head.length} more characters cut]`;
}

/** A value kept as is when its JSON is within `max`; otherwise the start of its JSON, marked as cut. */
export function capValue(value: unknown, max = MAX_RESULT_TEXT): unknown {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? capText(value, max) : value;
  let text: string | undefined;
  try {
    // A large list is measured by its head only: serialising all of it would cost what is being bounded.
    const head = Array.isArray(value) && value.length > 1000 ? value.slice(0, 1000) : value;
    text = JSON.stringify(head);
    if (head !== value) text = `${text} … (${(value as unknown[]).length} elements in all)`;
    else if (text === undefined || text.length <= max) return value;
  } catch {
    return '[a value that cannot be serialised]';
  }
  return capText(text ?? '', max);
}
