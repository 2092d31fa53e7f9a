// The report: one versioned object, described by a zod schema, that every output format renders.
import { z } from 'zod';

export const REPORT_FORMAT_VERSION = '1.0';

const Exchange = z.object({
  method: z.string(),
  url: z.string(),
  requestBody: z.record(z.string(), z.unknown()),
  requestHeaders: z.record(z.string(), z.string()),
  status: z.number().int().optional(),
  contentType: z.string().optional(),
  responseText: z.string().optional(),
  responseBytes: z.number().int().optional(),
  durationMs: z.number(),
  startedAt: z.string(),
  transportError: z.string().optional(),
  /** Hosted profile: the HTTP method (`method` then holds the operation, e.g. list_conversations). */
  httpMethod: z.string().optional(),
  /** Hosted profile: which credential the request carried, in words (never its value). */
  credential: z.string().optional(),
});

/** One recorded exchange, as a report (and a certification bundle) holds it. */
export const ExchangeSchema = Exchange;

const Outcome = z.enum(['passed', 'failed', 'error', 'skipped', 'not-run']);
const Tier = z.enum(['bronze', 'silver', 'gold']);

export const ScenarioResultSchema = z.object({
  id: z.string(),
  tier: Tier,
  group: z.string(),
  clauses: z.array(z.string()),
  title: z.string(),
  outcome: Outcome,
  notImplemented: z.boolean().optional(),
  message: z.string().optional(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  durationMs: z.number(),
  exchanges: z.array(Exchange),
  notes: z.array(z.string()),
  /** For a failed or errored scenario: its requests as a runnable bash script of curl calls. */
  repro: z.string().optional(),
});

export const TierSummarySchema = z.object({
  tier: Tier,
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  error: z.number().int(),
  skipped: z.number().int(),
  notRun: z.number().int(),
  passes: z.boolean(),
});

/** A baseline gate's verdict (`--baseline FILE`): which failures were known, which are new, which got fixed. */
export const GateSchema = z.object({
  baseline: z.string(),
  passed: z.boolean(),
  /** Listed in the baseline and failed or errored here: allowed. */
  known: z.array(z.object({ id: z.string(), outcome: Outcome, reason: z.string() })),
  /** Failed or errored here and not listed: fails the gate. */
  unexpected: z.array(z.object({ id: z.string(), outcome: Outcome })),
  /** Listed and passed here: fails the gate until removed from the baseline. */
  fixed: z.array(z.string()),
  /** Listed but not part of this run (not selected, skipped or not run): neither allowed nor fixed. */
  unchecked: z.array(z.string()),
});

const HostedGroup = z.enum(['resources', 'credentials', 'discovery']);

/** A scenario of the hosted profile: a bridge scenario's result with a group of the profile instead of a tier. */
export const HostedScenarioResultSchema = ScenarioResultSchema.omit({ tier: true }).extend({ group: HostedGroup });

export const HostedGroupSummarySchema = TierSummarySchema.omit({ tier: true }).extend({ group: HostedGroup });

/** The hosted profile's part of a report: its own target, grade and scenarios, beside the bridge tiers. */
export const HostedSectionSchema = z.object({
  profile: z.literal('hosted'),
  target: z.object({
    /** The REST base URL (…/v1). */
    url: z.string(),
    /** Where the discovery documents are. */
    origin: z.string(),
    /** The embedded hosted reference service. */
    embedded: z.boolean(),
    /** The kind of the run's credential. */
    credential: z.enum(['api-key', 'access-token']),
    /** Where the identity-provider tokens of the exchange came from ("none": those scenarios skipped). */
    idpToken: z.enum(['minted', 'given', 'none']),
  }),
  /** Pass/fail per group: a group passes when every one of its scenarios passed (skipped and not run count against it). */
  groups: z.array(HostedGroupSummarySchema),
  /** Every group that has scenarios in this run passed. */
  passed: z.boolean(),
  warnings: z.array(z.string()),
  durationMs: z.number(),
  scenarios: z.array(HostedScenarioResultSchema),
});

export const ReportSchema = z.object({
  format: z.literal('agent-memory-tck/report'),
  formatVersion: z.literal(REPORT_FORMAT_VERSION),
  kit: z.object({ name: z.string(), version: z.string(), protocol: z.string() }),
  target: z.object({
    url: z.string(),
    embedded: z.boolean(),
    protocolVersion: z.string().optional(),
  }),
  startedAt: z.string(),
  endedAt: z.string(),
  durationMs: z.number(),
  environment: z.object({ node: z.string(), platform: z.string(), arch: z.string() }),
  selection: z.object({
    tier: Tier,
    grep: z.string().optional(),
    scenarios: z.array(z.string()).optional(),
    skip: z.array(z.string()).optional(),
  }),
  grading: z.object({
    rule: z.enum(['strict', 'established']),
    description: z.string(),
    required: z.record(Tier, z.number()),
  }),
  tiers: z.array(TierSummarySchema),
  achieved: Tier.nullable(),
  requestedTier: Tier,
  /** The requested tier was reached. */
  success: z.boolean(),
  warnings: z.array(z.string()),
  interrupted: z.boolean(),
  scenarios: z.array(ScenarioResultSchema),
  gate: GateSchema.optional(),
  /**
   * What ran (absent: the bridge suites only, as in reports before the hosted profile). In a
   * hosted-only run the bridge fields are empty (no scenarios, no tier reached) and `success` is
   * the hosted verdict; when both ran, `success` needs both.
   */
  profiles: z.array(z.enum(['bridge', 'hosted'])).optional(),
  /** The hosted profile's results (`tck run --hosted`), graded on their own. */
  hosted: HostedSectionSchema.optional(),
});

export type Gate = z.infer<typeof GateSchema>;
export type ScenarioOutcome = z.infer<typeof Outcome>;

/** Failed or errored: what a gate, a diff and the failure lists count as a failure. */
export const isFailing = (outcome: ScenarioOutcome): boolean => outcome === 'failed' || outcome === 'error';
export type ReportScenario = z.infer<typeof ScenarioResultSchema>;
export type HostedSection = z.infer<typeof HostedSectionSchema>;
export type HostedReportScenario = z.infer<typeof HostedScenarioResultSchema>;
export type HostedGroupSummary = z.infer<typeof HostedGroupSummarySchema>;
/** A scenario of either kind, as the reporters list failures. */
export type AnyReportScenario = ReportScenario | HostedReportScenario;

/** Whether the bridge suites ran (reports before the hosted profile have no `profiles`). */
export const bridgeRan = (report: Pick<Report, 'profiles'>): boolean => report.profiles === undefined || report.profiles.includes('bridge');
export type Report = z.infer<typeof ReportSchema>;
