// The bridge client: HTTP calls to a conformance server, classified and recorded as evidence.
export {
  BridgeClient,
  InvalidTargetError,
  expectedKind,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
} from './client.js';
export type { BridgeClientOptions, CallOptions } from './client.js';
export { classifyResponse, classifyFailure, snippet, statusLine } from './classify.js';
export type { CallResult, Outcome, OutcomeKind, TransportFailure, ResponseFacts, FailureContext } from './classify.js';
export { formatExchange, displayText, printable, DISPLAY_CAP_BYTES } from '../../engine/evidence.js';
export type { Exchange } from '../../engine/evidence.js';
export {
  BridgeUsageError,
  InvalidHeaderError,
  parseHeaderArgs,
  splitHeaderEnv,
  redactHeaders,
  makeScrubber,
  RESERVED_HEADERS,
} from '../http/headers.js';
