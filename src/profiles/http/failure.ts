// A failure to get a complete HTTP answer, classified and named for the vendor of the server:
// refused, reset, timed out (and in which phase: before or after the status line), unresolvable,
// too large. Shared by every profile's client through the transport (transport.ts).

export type TransportFailure =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'dns'
  | 'invalid-json'
  | 'too-large'
  | 'redirect'
  | 'other';

/** A transport failure as an outcome: the `transport` member of every client's outcome union. */
export interface TransportOutcome {
  kind: 'transport';
  failure: TransportFailure;
  reason: string;
}

/** Context for naming a transport failure. */
interface FailureContext {
  method: string;
  url: string;
  /** Origin the client connects to, e.g. http://127.0.0.1:3001 */
  origin: string;
  host: string;
  timeoutMs: number;
  /** The client's own whole-exchange timer fired. */
  timedOut: boolean;
  /** Status, when headers had arrived before the failure. */
  status?: number | undefined;
  /** Body bytes received before the failure. */
  bytes?: number | undefined;
  /** The Content-Length the headers announced, if any. */
  declaredBytes?: number | undefined;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : Number(s.toFixed(s < 1 ? 2 : 1))} s`;
}

/** The error codes of an error, its cause and (for AggregateError) its members. */
function codesOf(err: unknown, depth = 0): string[] {
  if (typeof err !== 'object' || err === null || depth > 3) return [];
  const out: string[] = [];
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') out.push(code);
  const errors = (err as { errors?: unknown }).errors;
  if (Array.isArray(errors)) for (const e of errors) out.push(...codesOf(e, depth + 1));
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined) out.push(...codesOf(cause, depth + 1));
  return out;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  try {
    return String(err);
  } catch {
    return 'unknown error';
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);

/**
 * Classifies an error raised while sending the request or reading the response. Never throws.
 */
export function classifyFailure(err: unknown, ctx: FailureContext): TransportOutcome {
  const codes = codesOf(err);
  const has = (set: ReadonlySet<string>) => codes.some((c) => set.has(c));

  if (ctx.timedOut || has(TIMEOUT_CODES)) {
    const reason =
      ctx.status === undefined
        ? `${ctx.method}: no response within ${seconds(ctx.timeoutMs)}`
        : `${ctx.method}: response not complete within ${seconds(ctx.timeoutMs)} ` +
          `(status ${ctx.status} received, then ${ctx.bytes ?? 0} bytes of body)`;
    return { kind: 'transport', failure: 'timeout', reason };
  }
  if (codes.includes('ECONNREFUSED')) {
    return { kind: 'transport', failure: 'refused', reason: `connection refused at ${ctx.origin}` };
  }
  if (has(DNS_CODES)) {
    const code = codes.find((c) => DNS_CODES.has(c));
    return { kind: 'transport', failure: 'dns', reason: `cannot resolve host ${ctx.host} (${code})` };
  }
  // Raised while the header lines are read, so after the status line: the server answered.
  if (codes.includes('UND_ERR_HEADERS_OVERFLOW')) {
    return { kind: 'transport', failure: 'too-large', reason: 'response headers too large (the status line arrived, then more header bytes than the client reads)' };
  }
  if (has(RESET_CODES)) {
    const got = ctx.bytes ?? 0;
    if (ctx.status !== undefined && ctx.declaredBytes !== undefined && got < ctx.declaredBytes && !codes.includes('ECONNRESET')) {
      return {
        kind: 'transport',
        failure: 'reset',
        reason: `body cut short: status ${ctx.status} announced Content-Length ${ctx.declaredBytes}, but the connection closed after ${got} bytes`,
      };
    }
    const when =
      ctx.status === undefined
        ? 'before any response'
        : `after status ${ctx.status} and ${ctx.bytes ?? 0} bytes of body`;
    return {
      kind: 'transport',
      failure: 'reset',
      reason: `connection reset at ${ctx.origin} ${when} (${messageOf(err)})`,
    };
  }
  // https:// against a server that speaks plain HTTP: OpenSSL's two lines, said in one.
  if (codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || codes.includes('ERR_SSL_PACKET_LENGTH_TOO_LONG') || /wrong version number|packet length too long/i.test(messageOf(err))) {
    return { kind: 'transport', failure: 'other', reason: `the server at ${ctx.origin} does not speak TLS; try ${ctx.origin.replace(/^https:/, 'http:')}` };
  }
  const code = codes[0];
  return {
    kind: 'transport',
    failure: 'other',
    reason: `${ctx.method}: ${messageOf(err)}${code !== undefined ? ` (${code})` : ''}`,
  };
}
