// The scenario context: typed bridge calls that post, classify, validate and record, so that a
// scenario body holds only the behaviour it checks.
import type { BridgeClient, CallResult, Exchange } from './index.js';
import type { ConcurrencyShape } from './client.js';
import { ABSENT_METHOD, answersLikeAbsent, describeReading, existingMethodReason, readAnswer, snippet, statusLine } from './classify.js';
import { METHODS, type MethodName, type ParamsOf, type ResultOf } from '../../protocols/bridge/methods.js';
import { validate } from '../../protocols/bridge/validate.js';
import { validateList } from '../../protocols/bridge/validate-list.js';
import { check, recordImplicit, type Check } from '../../engine/assert.js';
import { answerCites, modelCites } from '../../protocols/clauses/index.js';
import { ProtocolFault, SchemaViolation, SkipScenario, TransportFault, UnexpectedError, type ScenarioFault } from '../../engine/faults.js';

/** A call answered against the protocol: the result of raw that no method's answer matches. */
type Violation = Extract<CallResult['outcome'], { kind: 'violation' }>;

/** Notes kept per scenario. */
const MAX_NOTES = 200;

/** `ctx.bridge.add_message({...})` and so on: one typed function per protocol method. */
export type BridgeApi = {
  [M in MethodName]: (params?: ParamsOf<M>) => Promise<ResultOf<M>>;
};

export interface ScenarioContext {
  bridge: BridgeApi;
  check: Check;
  /**
   * Calls `method` expecting the protocol's error answer (400 or 500 with {"error": string}); returns
   * the message. The expectation cites the scenario's clauses, or `cites` given; with `advise` it is
   * that advisory's (the kit's own reading): an answer that is not an error is then noted, and null returned.
   */
  expectError<M extends MethodName>(method: M, params: ParamsOf<M> | Record<string, unknown>, why: string, how?: { cites: string[] }): Promise<string>;
  expectError<M extends MethodName>(method: M, params: ParamsOf<M> | Record<string, unknown>, why: string, how: { advise: string }): Promise<string | null>;
  /**
   * The fault of an answer the protocol forbids (a `violation` of raw's result), named `call` (the
   * method by default). A 404 alone cannot tell a missing method from a method that answers "not
   * found": the fault is "not implemented" only when a method that does not exist gets the same
   * answer (asked here, probe-style, and kept as evidence). A 501 says so itself.
   */
  faultOf(method: MethodName, outcome: Violation, exchange: Exchange, call?: string): Promise<ProtocolFault>;
  /**
   * Runs `body` with calls that go out at once: over `shape.connections` sockets, each carrying
   * `shape.pipelining` requests in flight (HTTP/1.1 pipelining). Each call is posted, judged and
   * recorded as a `bridge` call is; the evidence keeps them in the order they were made. The
   * sockets are closed when `body` ends. (A target replayed from a bundle answers them in order.)
   * A batch on one connection that the server closed meanwhile rejects with ConnectionReopened.
   */
  concurrently<T>(shape: ConcurrencyShape, body: (bridge: BridgeApi) => Promise<T>): Promise<T>;
  /** Posts anything and returns the classified result unjudged (for protocol-shape scenarios). */
  raw(method: string, params?: Record<string, unknown>, opts?: { rawBody?: string }): Promise<CallResult>;
  /** Marks the scenario skipped with a reason. */
  skip(reason: string): never;
  /** Notes for the report (unknown fields, accepted readings). */
  note(text: string): void;
  readonly exchanges: readonly Exchange[];
}

/** What a Recorder needs of a client: the runner passes one that cancels and observes its calls. */
type Caller = Pick<BridgeClient, 'call'>;
/** Opens sockets of the given shape to the same target, their calls scoped as the Recorder's own. */
type Fork = (shape: ConcurrencyShape) => { caller: Caller; close(): Promise<void>; connectionsOpened(): number };

/**
 * A batch pipelined on one connection needed another: the server closed the connection while
 * requests were in flight behind an answer, and those were sent again on a new one. A server may
 * close a connection after any answer (silent: connection-close), and requests pipelined behind the
 * close may or may not have been processed, so what the batch stored cannot be judged.
 */
export class ConnectionReopened extends Error {
  /** `result`: what the batch's body resolved to (its answers, some perhaps from requests sent twice). */
  constructor(readonly opened: number, readonly result: unknown) {
    super(`the server closed the connection the batch was pipelined on; ${opened} connections were opened`);
    this.name = 'ConnectionReopened';
  }
}

export class Recorder implements ScenarioContext {
  readonly exchanges: Exchange[] = [];
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();
  readonly check = check;
  readonly bridge: BridgeApi;
  private stopped = false;
  /** The last exchange pushed: each call's exchange is pushed after the one of the call made before it. */
  private pushed: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: Caller, private readonly fork?: Fork) {
    this.bridge = this.apiOf(client);
  }

  private apiOf(caller: Caller): BridgeApi {
    const api = {} as Record<MethodName, (params?: Record<string, unknown>) => Promise<unknown>>;
    for (const name of Object.keys(METHODS) as MethodName[]) {
      api[name] = (params) => this.invoke(name, params ?? {}, caller);
    }
    return api as unknown as BridgeApi;
  }

  async concurrently<T>(shape: ConcurrencyShape, body: (bridge: BridgeApi) => Promise<T>): Promise<T> {
    if (this.stopped) throw new SkipScenario('scenario stopped');
    // Without a way to open sockets (a replayed bundle), the calls share the scenario's own.
    const lane = this.fork?.(shape);
    let result: T;
    try {
      result = await body(lane === undefined ? this.bridge : this.apiOf(lane.caller));
    } finally {
      // Waits for the calls still in flight (a body that failed early leaves some), so their evidence is in.
      await lane?.close();
    }
    if (lane !== undefined && shape.connections === 1 && lane.connectionsOpened() > 1) throw new ConnectionReopened(lane.connectionsOpened(), result);
    return result;
  }

  /** After a timeout the body may still be running: it must not reach the server again. */
  stop(): void {
    this.stopped = true;
  }

  async raw(method: string, params: Record<string, unknown> = {}, opts?: { rawBody?: string }): Promise<CallResult> {
    return (await this.send(this.client, method, params, opts)).result;
  }

  /**
   * Calls `method` through `caller`; resolves to the result and the index of its exchange. Calls
   * made at once keep the order they were made in (each exchange waits for the one before).
   */
  private send(caller: Caller, method: string, params: Record<string, unknown>, opts?: { rawBody?: string }): Promise<{ result: CallResult; index: number }> {
    if (this.stopped) return Promise.reject(new SkipScenario('scenario stopped'));
    const call = caller.call(method, params, opts);
    const turn = this.pushed.then(() => call).then((result) => {
      this.exchanges.push(result.exchange);
      return { result, index: this.exchanges.length - 1 };
    });
    this.pushed = turn.catch(() => undefined);
    return turn;
  }

  note(text: string): void {
    // A Set, not notes.includes(): a scenario can be handed many notes (bounded per answer, not per scenario).
    if (this.noted.has(text) || this.notes.length >= MAX_NOTES) return;
    this.noted.add(text);
    this.notes.push(text);
  }

  skip(reason: string): never {
    throw new SkipScenario(reason);
  }

  expectError(method: MethodName, params: Record<string, unknown>, why: string, how?: { cites: string[] }): Promise<string>;
  expectError(method: MethodName, params: Record<string, unknown>, why: string, how: { advise: string }): Promise<string | null>;
  async expectError(method: MethodName, params: Record<string, unknown>, why: string, how?: { cites: string[] } | { advise: string }): Promise<string | null> {
    const { result: { outcome, exchange }, index } = await this.send(this.client, method, params);
    const judge = judgeOf(index, [400, 500]);
    const expectation = `${method} ${why}: expected 400 or 500 with {"error": string}`;
    // The one reading the suites and explore share (readAnswer): a 200 null is an answer that
    // accepted the call, told as such, not a data-model violation.
    const reading = readAnswer(outcome);
    switch (reading.kind) {
      case 'refused':
        recordOf(how)(expectation);
        return reading.message;
      case 'transport':
        throw judge(new TransportFault(method, reading.failure, reading.reason));
      case 'absent':
      case 'violation':
        throw judge(await this.faultOf(method, outcome as Violation, exchange));
      case 'null':
      case 'accepted': {
        const detail = { status: [400, 500], actual: outcome };
        const message = `${expectation}, got ${describeReading(reading)}`;
        if (how !== undefined && 'advise' in how) {
          check.advise(how.advise).fail(message, detail);
          return null;
        }
        return (how === undefined ? check : check.by(...how.cites)).fail(message, detail);
      }
    }
  }

  async faultOf(method: MethodName, outcome: Violation, exchange: Exchange, call: string = method): Promise<ProtocolFault> {
    if (!outcome.notImplemented || exchange.status !== 404) return new ProtocolFault(call, outcome.reason, outcome.notImplemented);
    const absent = (await this.raw(ABSENT_METHOD, {})).exchange;
    if (absent.status === undefined || answersLikeAbsent(exchange, absent, method)) return new ProtocolFault(call, outcome.reason, true);
    const said = `${statusLine(absent.status)}${absent.responseText ? ` ${snippet(absent.responseText)}` : ''}`;
    return new ProtocolFault(call, existingMethodReason(outcome.reason, method, `a method that does not exist (${ABSENT_METHOD}) answers ${said}`, METHODS[method].kind === 'object-or-null'));
  }

  private async invoke(method: MethodName, params: Record<string, unknown>, caller: Caller): Promise<unknown> {
    const { result: { outcome, exchange }, index } = await this.send(caller, method, params);
    const spec = METHODS[method];
    const judge = judgeOf(index, [spec.kind === 'void' ? 204 : 200]);
    // The checks every call makes: the answer's status and kind, then its data model.
    const answered = `${method} answers ${spec.kind === 'void' ? '204' : `200 (${spec.kind})`}`;
    const cite = <F extends ScenarioFault>(fault: F, cites: string[], what: string): F => {
      recordImplicit(cites, what, false);
      fault.cites = cites;
      return judge(fault);
    };
    switch (outcome.kind) {
      case 'transport':
        throw judge(new TransportFault(method, outcome.failure, outcome.reason));
      case 'violation':
        throw cite(await this.faultOf(method, outcome, exchange), answerCites(method), answered);
      case 'error':
        throw cite(new UnexpectedError(method, outcome.status, outcome.message), answerCites(method), answered);
      case 'void':
        recordImplicit(answerCites(method), answered, true);
        return undefined;
      case 'null':
        recordImplicit(answerCites(method), answered, true);
        return null;
      case 'deleted':
      case 'object':
      case 'list': {
        recordImplicit(answerCites(method), answered, true);
        const schema = spec.result;
        if (schema === null) return outcome.value;
        const body = outcome.value;
        const result = spec.kind === 'list' ? await validateList(schema, body as unknown[], () => this.stopped) : validate(schema, body);
        if (this.stopped) throw new SkipScenario('scenario stopped');
        const modelled = `${method}: the answer matches the data model`;
        if (!result.ok) throw cite(new SchemaViolation(method, result.issues), modelCites(method), modelled);
        recordImplicit(modelCites(method), modelled, true);
        for (const n of result.notes) this.note(`${method}: ${n}`);
        return body;
      }
    }
  }
}

/** Marks a fault as one of the answer of exchange `exchange`, which should have had one of `status` (repro scripts check it). */
const judgeOf = (exchange: number, status: number[]) => <F extends ScenarioFault>(fault: F): F => {
  fault.judged = { exchange, status };
  return fault;
};

export function describeOutcome(outcome: CallResult['outcome']): string {
  switch (outcome.kind) {
    case 'void':
      return '204 (empty)';
    case 'null':
      return '200 null';
    case 'error':
      return `${outcome.status} {"error": ${JSON.stringify(outcome.message)}}`;
    case 'transport':
    case 'violation':
      return outcome.reason;
    default:
      return `200 ${preview(outcome.value)}`;
  }
}

/** The first 200 characters of a value's JSON, without serialising all of a huge list. */
function preview(value: unknown): string {
  const head = Array.isArray(value) && value.length > 20 ? [...value.slice(0, 20), `… ${value.length - 20} more`] : value;
  return JSON.stringify(head).slice(0, 200);
}

/** Records a held expectation of an error answer, citing what `how` names (the scenario's clauses by default). */
function recordOf(how: { cites: string[] } | { advise: string } | undefined): (what: string) => void {
  if (how === undefined) return (what) => check.ok(true, what);
  if ('advise' in how) return (what) => check.advise(how.advise).ok(true, what);
  return (what) => check.by(...how.cites).ok(true, what);
}
