// The scenario context: typed bridge calls that post, classify, validate and record, so that a
// scenario body holds only the behaviour it checks.
import type { BridgeClient, CallResult, Exchange } from './index.js';
import { ABSENT_METHOD, answersLikeAbsent, existingMethodReason, snippet, statusLine } from './classify.js';
import { METHODS, type MethodName, type ParamsOf, type ResultOf } from '../../protocols/bridge/methods.js';
import { validate } from '../../protocols/bridge/validate.js';
import { validateList } from '../../protocols/bridge/validate-list.js';
import { check, type Check } from '../../engine/assert.js';
import { AssertionFailure, ProtocolFault, SchemaViolation, SkipScenario, TransportFault, UnexpectedError, type ScenarioFault } from '../../engine/faults.js';

/** Notes kept per scenario. */
const MAX_NOTES = 200;

/** `ctx.bridge.add_message({...})` and so on: one typed function per protocol method. */
export type BridgeApi = {
  [M in MethodName]: (params?: ParamsOf<M>) => Promise<ResultOf<M>>;
};

export interface ScenarioContext {
  bridge: BridgeApi;
  check: Check;
  /** Calls `method` expecting the protocol's error answer (400 or 500 with {"error": string}); returns the message. */
  expectError<M extends MethodName>(method: M, params: ParamsOf<M> | Record<string, unknown>, why: string): Promise<string>;
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

export class Recorder implements ScenarioContext {
  readonly exchanges: Exchange[] = [];
  readonly notes: string[] = [];
  private readonly noted = new Set<string>();
  readonly check = check;
  readonly bridge: BridgeApi;
  private stopped = false;

  constructor(private readonly client: Caller) {
    const api = {} as Record<MethodName, (params?: Record<string, unknown>) => Promise<unknown>>;
    for (const name of Object.keys(METHODS) as MethodName[]) {
      api[name] = (params) => this.invoke(name, params ?? {});
    }
    this.bridge = api as unknown as BridgeApi;
  }

  /** After a timeout the body may still be running: it must not reach the server again. */
  stop(): void {
    this.stopped = true;
  }

  async raw(method: string, params: Record<string, unknown> = {}, opts?: { rawBody?: string }): Promise<CallResult> {
    if (this.stopped) throw new SkipScenario('scenario stopped');
    const result = await this.client.call(method, params, opts);
    this.exchanges.push(result.exchange);
    return result;
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

  async expectError(method: MethodName, params: Record<string, unknown>, why: string): Promise<string> {
    const { outcome, exchange } = await this.raw(method, params);
    const judge = judgeOf(this.exchanges.length - 1, [400, 500]);
    switch (outcome.kind) {
      case 'error':
        return outcome.message;
      case 'transport':
        throw judge(new TransportFault(method, outcome.failure, outcome.reason));
      case 'violation':
        throw judge(await this.faultOf(method, outcome, exchange));
      default:
        throw judge(new AssertionFailure(`${method} ${why}: expected 400 or 500 with {"error": string}, got ${describeOutcome(outcome)}`, undefined, outcome));
    }
  }

  /**
   * The fault of an answer the protocol forbids. A 404 alone cannot tell a missing method from a
   * method that answers "not found": the method is "not implemented" only when a method that does
   * not exist gets the same answer (asked here, probe-style, and kept as evidence). A 501 says so itself.
   */
  private async faultOf(method: MethodName, outcome: Extract<CallResult['outcome'], { kind: 'violation' }>, exchange: Exchange): Promise<ProtocolFault> {
    if (!outcome.notImplemented || exchange.status !== 404) return new ProtocolFault(method, outcome.reason, outcome.notImplemented);
    const absent = (await this.raw(ABSENT_METHOD, {})).exchange;
    if (absent.status === undefined || answersLikeAbsent(exchange, absent, method)) return new ProtocolFault(method, outcome.reason, true);
    const said = `${statusLine(absent.status)}${absent.responseText ? ` ${snippet(absent.responseText)}` : ''}`;
    return new ProtocolFault(method, existingMethodReason(outcome.reason, method, `a method that does not exist (${ABSENT_METHOD}) answers ${said}`, METHODS[method].kind === 'object-or-null'));
  }

  private async invoke(method: MethodName, params: Record<string, unknown>): Promise<unknown> {
    const { outcome, exchange } = await this.raw(method, params);
    const spec = METHODS[method];
    const judge = judgeOf(this.exchanges.length - 1, [spec.kind === 'void' ? 204 : 200]);
    switch (outcome.kind) {
      case 'transport':
        throw judge(new TransportFault(method, outcome.failure, outcome.reason));
      case 'violation':
        throw judge(await this.faultOf(method, outcome, exchange));
      case 'error':
        throw judge(new UnexpectedError(method, outcome.status, outcome.message));
      case 'void':
        return undefined;
      case 'null':
        return null;
      case 'deleted':
      case 'object':
      case 'list': {
        const schema = spec.result;
        if (schema === null) return outcome.value;
        const body = outcome.value;
        const result = spec.kind === 'list' ? await validateList(schema, body as unknown[], () => this.stopped) : validate(schema, body);
        if (this.stopped) throw new SkipScenario('scenario stopped');
        if (!result.ok) throw judge(new SchemaViolation(method, result.issues));
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
