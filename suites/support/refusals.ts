// Calls the kit expects a server to refuse where no sentence says it must (a missing or wrongly
// typed parameter, a status outside the six, a trace that does not exist, a body that is not JSON),
// and what the text does say about them:
// - whether the call is refused at all is the kit's reading: an ADVISORY (its id is the caller's);
// - a refusal is the protocol's error answer: 400 or 500 with {"error": string} saying what went
//   wrong (BRIDGE-ERRORS-1, BRIDGE-RESPONSE-6), checked as a rule;
// - an answer that accepts the call is an answer of the method: its kind and its data model are
//   checked as rules (BRIDGE-METHOD-<method>, BRIDGE-MODEL-<Resource>).
import { check, show } from '../../src/engine/assert.js';
import { ProtocolFault, SchemaViolation, TransportFault } from '../../src/engine/faults.js';
import type { ScenarioContext } from '../../src/profiles/bridge/context.js';
import { describeReading, readAnswer } from '../../src/profiles/bridge/classify.js';
import { METHODS, type MethodName } from '../../src/protocols/bridge/methods.js';
import { validate } from '../../src/protocols/bridge/validate.js';
import { validateList } from '../../src/protocols/bridge/validate-list.js';
import { answerCites, modelCites } from '../../src/protocols/clauses/index.js';

type Params = Record<string, unknown>;

/** `add_message(session_id="a", role="user")`: a call as a failure message shows it. */
export function callText(method: string, params: Params): string {
  return `${method}(${Object.entries(params).map(([k, v]) => `${k}=${show(v, 40)}`).join(', ')})`;
}

/** What the error answer of a failed call must be (bridge-protocol.md, Errors 1 and the Error row of the response table). */
const ERROR_RULE = ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'] as const;
const ERROR_WORDS = '(BRIDGE-ERRORS-1: a failed call answers 400 or 500 with {"error": string} saying what went wrong)';

/** How a call the kit expects refused was answered. */
type Refusal = { refused: true; status: number; message: string } | { refused: false; value: unknown };

/**
 * What an answer accepting the call is judged by, besides its data model: `advise`, the advisory
 * that notes it (the kit's reading that it should be refused); `judge`, the rules the accepted
 * answer must still keep (it is called with the answer and the call in words).
 */
export interface OnAccepted {
  advise?: string;
  judge?: (value: unknown, call: string) => void;
}

/**
 * Posts a call that the kit expects refused and judges the answer by what the text says: an error
 * answer must be well-formed with a non-empty error text (a rule); an answer of another status or
 * shape breaks the response rules (a protocol fault, citing them); an answer accepting the call is
 * noted under `accepted.advise`, must still be the method's answer matching the data model (rules)
 * and keep what `accepted.judge` checks.
 */
export async function expectRefusal(
  ctx: ScenarioContext,
  method: MethodName,
  params: Params,
  why: string,
  accepted: OnAccepted,
  opts?: { rawBody?: string },
): Promise<Refusal> {
  const call = opts?.rawBody === undefined ? `${callText(method, params)} (${why})` : `${method} with the body ${show(opts.rawBody)} (${why})`;
  const { outcome, exchange } = await ctx.raw(method, params, opts);
  // The one reading every suite, the context's expectError and explore share (readAnswer).
  const reading = readAnswer(outcome);
  switch (reading.kind) {
    case 'transport':
      throw new TransportFault(method, reading.failure, reading.reason);
    case 'absent':
    case 'violation': {
      // A 2xx of the wrong shape breaks the method's answer; a method the server does not have is
      // a gap of its tier, graded like every other call to it (told apart from a 404 of a method
      // that exists the way every call's is: ctx.faultOf); anything else, the error answer.
      if (exchange.status !== undefined && exchange.status >= 200 && exchange.status < 300) {
        const fault = new ProtocolFault(call, reading.reason);
        fault.cites = answerCites(method);
        throw fault;
      }
      const fault = await ctx.faultOf(method, outcome as Extract<typeof outcome, { kind: 'violation' }>, exchange, call);
      if (fault.notImplemented) throw fault;
      const wrong = new ProtocolFault(call, `${fault.reason} ${ERROR_WORDS}`);
      wrong.cites = [...ERROR_RULE];
      throw wrong;
    }
    case 'refused':
      // The kit's reading held: counted, so the clause map shows which calls test it.
      if (accepted.advise !== undefined) check.advise(accepted.advise).ok(true, `${call}: refused`);
      check.by(...ERROR_RULE).ok(reading.message.trim() !== '', `${call}: the error text must say what went wrong, got ${show(reading.message)} ${ERROR_WORDS}`, {
        expected: 'a non-empty error text',
        actual: reading.message,
      });
      return { refused: true, status: reading.status, message: reading.message };
    case 'null':
    case 'accepted': {
      if (accepted.advise !== undefined) check.advise(accepted.advise).fail(`${call}: expected 400 or 500 with {"error": string}, got ${describeReading(reading)}`, { status: [400, 500], actual: outcome });
      const value = reading.kind === 'null' ? null : reading.value;
      const schema = METHODS[method].result;
      if (schema !== null && value !== undefined && value !== null) {
        const result = Array.isArray(value) ? await validateList(schema, value, () => false) : validate(schema, value);
        if (!result.ok) {
          const fault = new SchemaViolation(call, result.issues);
          fault.cites = modelCites(method);
          throw fault;
        }
      }
      accepted.judge?.(value, call);
      return { refused: false, value };
    }
  }
}
