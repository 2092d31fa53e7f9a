// The first call every command makes to a bridge target (run, probe, explore, repro, certify),
// and the three situations in which nothing can be tested there, each one line with the same exit
// code on every command (docs/exit-codes.md):
//   nothing answers (no HTTP status at all)           TargetUnreachable, exit 3
//   every call is refused for its credentials (401/403) TargetRefused, exit 2, how to pass one
//   it is no bridge server (404/405/501 or a web page)  TargetRefused, exit 2, check the URL
// Only harmless calls tell them apart: setup, then two reads (get_conversation, list_sessions).
import { printable, type Exchange } from '../../engine/evidence.js';
import { answered } from '../../engine/liveness.js';
import { TargetRefused, TargetUnreachable } from '../../engine/runner.js';
import type { CallResult } from './classify.js';
import type { BridgeClient } from './client.js';

type Transport = Pick<BridgeClient, 'call' | 'url'>;

/** 401 or 403: the server refused the request's credentials (or their absence). */
const refusesCredentials = (exchange: Exchange) => exchange.status === 401 || exchange.status === 403;
const statusOf = (exchange: Exchange) => `${exchange.status}${exchange.status === 401 ? ' Unauthorized' : exchange.status === 403 ? ' Forbidden' : ''}`;

/** An answer that says "no such method here": 404, 405, 501, or a web page; otherwise undefined. */
function foreign(exchange: Exchange): string | undefined {
  const html = /html/i.test(exchange.contentType ?? '');
  if (exchange.status === undefined || (![404, 405, 501].includes(exchange.status) && !html)) return undefined;
  return `${exchange.status}${html ? ' with an HTML page' : ''}`;
}

/** The line of a target that refuses the credentials; `nothing`: what the command did not do ("no scenario was run"). */
export function credentialsLine(url: string, answers: readonly string[], sent: readonly string[], nothing: string): string {
  const how = sent.length > 0
    ? `the header${sent.length === 1 ? '' : 's'} sent (${sent.join(', ')}) ${sent.length === 1 ? 'was' : 'were'} refused: check the credential given with --header or TCK_HEADERS`
    : "no credential was sent: pass it with --header 'Authorization: Bearer …' (repeatable) or TCK_HEADERS";
  return printable(`${url} refuses the credentials: ${answers.join(', ')}; ${how}; ${nothing}`);
}

const CONFIRM = [['get_conversation', { session_id: 'tck-contact' }], ['list_sessions', {}]] as const;

/**
 * Calls setup and returns its answer, unless nothing can be tested at the target: then throws
 * TargetUnreachable (nothing answered) or TargetRefused (credentials refused, or no bridge server;
 * two harmless reads confirm it, since one odd answer of setup is a protocol error of setup).
 */
export async function firstContact(client: Transport, nothing: string, signal?: AbortSignal): Promise<CallResult> {
  const first = await client.call('setup', {}, signal ? { signal } : {});
  if (signal?.aborted) return first;
  // Unreachable (exit 3) only when no HTTP status came at all: a status, whatever its body (too
  // large, not JSON, cut short) or headers, or a redirect, proves a server answers.
  if (first.outcome.kind === 'transport' && !answered(first)) throw new TargetUnreachable(client.url, first.outcome.reason);
  for (const [test, line] of [
    [(ex: Exchange) => (refusesCredentials(ex) ? statusOf(ex) : undefined), (answers: string[]) => credentialsLine(client.url, answers, Object.keys(first.exchange.requestHeaders), nothing)],
    [foreign, (answers: string[]) => printable(`${client.url} is not a bridge server: ${answers.join(', ')}; ${nothing} (is the URL the bridge's base URL, with its path prefix?)`)],
  ] as const) {
    const said = test(first.exchange);
    if (said === undefined) continue;
    const answers = [`setup ${said}`];
    for (const [method, params] of CONFIRM) {
      const r = await client.call(method, params, signal ? { signal } : {});
      const again = test(r.exchange);
      if (again === undefined) return first;
      answers.push(`${method} ${again}`);
    }
    throw new TargetRefused(client.url, line(answers));
  }
  return first;
}
