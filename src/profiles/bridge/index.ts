// The bridge client: HTTP calls to a conformance server, classified and recorded as evidence.
export {
  BridgeClient,
  InvalidTargetError,
} from './client.js';
export { classifyResponse } from './classify.js';
export { classifyFailure } from '../http/failure.js';
export type { CallResult, Outcome, ResponseFacts } from './classify.js';
export { formatExchange, displayText } from '../../engine/evidence.js';
export type { Exchange } from '../../engine/evidence.js';
export {
  InvalidHeaderError,
  parseHeaderArgs,
  splitHeaderEnv,
  redactHeaders,
  makeScrubber,
} from '../http/headers.js';
