// The kit's default limits, in one place: the CLI's option defaults, the clients, the runner and
// the servers all read them here, and docs/running.md's option table states the same values.
export const DEFAULT_LIMITS = {
  /** Bound on each HTTP exchange (connect, headers and body): --request-timeout. */
  requestTimeoutMs: 10_000,
  /** Bound on each scenario, its isolation included: --scenario-timeout. */
  scenarioTimeoutMs: 30_000,
  /** Largest response body a client accepts, and largest request body a server of the kit reads: --max-body. */
  maxBodyBytes: 16 * 1024 * 1024,
  /** Bound on the whole run: --max-time. */
  maxTimeMs: 3_600_000,
  /** How long a target that stopped answering gets to come back: --reconnect-window. */
  reconnectWindowMs: 10_000,
  /** How long the vendor's server started by --server gets to start answering: --server-timeout. */
  serverStartMs: 30_000,
  /** How long an idle pooled connection of a client is kept. */
  keepAliveMs: 10_000,
} as const;
