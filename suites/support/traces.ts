// Creating a reasoning trace, completed or not, in one line.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { ReasoningTrace } from '../../src/protocols/bridge/index.js';

/** Starts a trace and, when `success` is given (true or false), completes it with that flag. */
export async function addTrace(bridge: BridgeApi, session_id: string, task: string, success?: boolean): Promise<ReasoningTrace> {
  const trace = await bridge.start_trace({ session_id, task });
  if (success === undefined) return trace;
  return bridge.complete_trace({ trace_id: trace.id, outcome: success ? 'done' : 'gave up', success });
}
