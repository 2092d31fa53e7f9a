// The evidence record of one HTTP call to a target: what was sent, what came back, how long it took.
// Reports and recorders keep these; they never contain the values of extra request headers.
import { z } from 'zod';
import { cutAt } from '../util/words.js';

/**
 * One HTTP exchange with a target, whatever profile made it: the one evidence record that
 * recorders keep, reports carry and repro scripts replay. Header values are never in it.
 */
export const ExchangeSchema = z.object({
  /** The operation: the adapter method called (add_message), or a hosted operation (list_conversations). */
  method: z.string(),
  /** The full URL, base path included. */
  url: z.string(),
  /** The JSON body as sent: top-level null/undefined keys omitted (request rule 4). */
  requestBody: z.record(z.string(), z.unknown()),
  /** The body as sent, when it is not the JSON of requestBody (a scenario posting malformed JSON). */
  requestText: z.string().optional(),
  /** The extra request headers (authorization and the like), every value replaced by "***". */
  requestHeaders: z.record(z.string(), z.string()),
  /** HTTP status; undefined when no response headers arrived. */
  status: z.number().int().optional(),
  /** The response Content-Type header, as received. */
  contentType: z.string().optional(),
  /** The response body as text, cut at DISPLAY_CAP_BYTES with a marker saying how much was cut. */
  responseText: z.string().optional(),
  /** How many body bytes were received (before any display cut). */
  responseBytes: z.number().int().optional(),
  /** Wall time of the whole exchange, headers and body. */
  durationMs: z.number(),
  /** When the request started, ISO 8601. */
  startedAt: z.string(),
  /** For a transport failure: its reason (the same text as the outcome's reason). */
  transportError: z.string().optional(),
  /** The HTTP method when it is not POST (the hosted profile's GET, PUT, DELETE). */
  httpMethod: z.string().optional(),
  /** Which credential the request carried, in words (never its value). */
  credential: z.string().optional(),
  /**
   * Set when the request was sent twice: why the first attempt did not count (a pooled keep-alive
   * connection the server had closed, failing before any response byte). The rest of the record
   * is the second attempt's.
   */
  retried: z.string().optional(),
});
export type Exchange = z.infer<typeof ExchangeSchema>;

/** How much of a response body an Exchange keeps. */
const DISPLAY_CAP_BYTES = 64 * 1024;

/** How much of a body formatExchange prints. */
const FORMAT_CAP_CHARS = 2048;

/** The text of a body for an Exchange: whole up to DISPLAY_CAP_BYTES, then cut with a marker. */
export function displayText(buf: Buffer, text: string, cap = DISPLAY_CAP_BYTES): string {
  if (buf.length <= cap) return text;
  // Cut before a character, never inside one: a continuation byte (10xxxxxx) moves the cut back to its lead byte.
  let end = cap;
  while (end > 0 && (buf[end]! & 0xc0) === 0x80) end--;
  return `${buf.toString('utf8', 0, end)}…[truncated: ${buf.length - end} more bytes]`;
}

/**
 * Control characters other than newline and tab (C0, DEL and C1) and the bidirectional controls
 * (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) shown as \u escapes: text from a server
 * cannot drive the terminal it is printed on (escape sequences, carriage returns), nor reorder
 * what a reader sees of a line (a U+202E makes "exe.txt" read "txt.exe").
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = cutAt(text, max);
  return `${head}…[${text.length - head.length} more characters]`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * A human-readable rendering of an exchange, e.g.
 *
 *     POST /add_message {"session_id":"s1","role":"user","content":"hi"}
 *       authorization: ***
 *     → 200 application/json (143 bytes, 3 ms)
 *     {"id":"…", …}
 *
 * Bodies longer than about 2 KB are cut with a marker; control characters are escaped (printable).
 */
export function formatExchange(ex: Exchange): string {
  const lines: string[] = [];
  let body: string;
  try {
    body = JSON.stringify(ex.requestBody) ?? '';
  } catch {
    body = '<unserialisable body>';
  }
  lines.push(`${ex.httpMethod ?? 'POST'} ${pathOf(ex.url)} ${clip(ex.requestText ?? body, FORMAT_CAP_CHARS)}`);
  for (const name of Object.keys(ex.requestHeaders)) lines.push(`  ${name}: ***`);
  if (ex.retried !== undefined) lines.push(`  (retried: ${ex.retried})`);
  const ms = Math.round(ex.durationMs);
  if (ex.status === undefined) {
    lines.push(`→ no response (${ex.transportError ?? 'transport failure'}; ${ms} ms)`);
  } else {
    const size = ex.responseBytes === undefined ? '' : `${ex.responseBytes} bytes, `;
    lines.push(`→ ${ex.status} ${ex.contentType ?? '(no content-type)'} (${size}${ms} ms)`);
    if (ex.transportError !== undefined) lines.push(`  ${ex.transportError}`);
    if (ex.responseText !== undefined && ex.responseText !== '') {
      lines.push(clip(ex.responseText, FORMAT_CAP_CHARS));
    }
  }
  return printable(lines.join('\n'));
}
