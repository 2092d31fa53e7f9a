// The report: one versioned object, described by a zod schema, that every output format renders.
import { z } from 'zod';
import { AdvisoryModeSchema, LevelCountsSchema, TierSchema, OutcomeSchema, ScenarioResultSchema as EngineScenarioResult, TierSummarySchema as EngineTierSummary } from '../engine/result.js';
import { HOSTED_GROUPS } from '../protocols/hosted/document.js';

export const REPORT_FORMAT_VERSION = '1.0';

const Outcome = OutcomeSchema;
const Tier = TierSchema;

/** A bridge scenario's result as the report carries it: the engine's result, and a repro script. */
export const ScenarioResultSchema = EngineScenarioResult.extend({
  /** For a failed or errored scenario: its requests as a runnable bash script of curl calls. */
  repro: z.string().optional(),
});

const TierSummarySchema = EngineTierSummary;

/** One recorded exchange, as a report (and a certification bundle) holds it. */
export { ExchangeSchema } from '../engine/evidence.js';

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

const HostedGroup = z.enum(HOSTED_GROUPS);

/** A scenario of the hosted profile: a bridge scenario's result with a group of the profile instead of a tier. */
export const HostedScenarioResultSchema = ScenarioResultSchema.omit({ tier: true }).extend({ group: HostedGroup });

export const HostedGroupSummarySchema = LevelCountsSchema.extend({ group: HostedGroup });

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
  /** Pass/fail per group: a group passes when every one of its scenarios passed (skipped and not run count against it; see `incomplete`). */
  groups: z.array(HostedGroupSummarySchema),
  /** Every group that has scenarios in this run passed. */
  passed: z.boolean(),
  /**
   * Not passed, yet nothing failed: each group passed or is incomplete (scenarios skipped for an
   * input the run lacked). The flags that would complete the run.
   */
  incomplete: z.array(z.string()).optional(),
  warnings: z.array(z.string()),
  durationMs: z.number(),
  scenarios: z.array(HostedScenarioResultSchema),
});

/**
 * The advisories of a run (the kit's own readings, src/protocols/clauses/advisories.ts): how the run
 * treated them, how many were checked, and those that did not hold, by id with the reason each is not
 * a rule. Under mode "report" they never fail a scenario; under "fail" each one that did not hold
 * failed its scenario.
 */
export const AdvisorySummarySchema = z.object({
  mode: AdvisoryModeSchema,
  /** Advisory assertions made, over every scenario. */
  checked: z.number().int().nonnegative(),
  /** How many did not hold. */
  failed: z.number().int().nonnegative(),
  byId: z.array(
    z.object({
      id: z.string(),
      /** A SECURITY advisory (docs/isolation.md): listed first, and shown first in every format. */
      security: z.literal(true).optional(),
      expects: z.string(),
      reason: z.string(),
      failed: z.number().int().nonnegative(),
      scenarios: z.array(z.object({ id: z.string(), message: z.string() })),
    }),
  ),
});

/**
 * The SECURITY advisories that did not hold (docs/isolation.md): the first member of report.json
 * after its format, so that no reader of the report misses them. Absent when none did not hold.
 */
const SecurityFindingsSchema = z.array(
  z.object({ id: z.string(), expects: z.string(), failed: z.number().int().positive(), scenarios: z.array(z.object({ id: z.string(), message: z.string() })) }),
);

/** One step of explore's minimal failing sequence: what was sent and what each side answered. */
const ExploreStep = z.object({
  call: z.string(),
  method: z.string(),
  request: z.record(z.string(), z.unknown()),
  server: z.object({ status: z.number().int(), body: z.unknown().optional() }).optional(),
  model: z.object({ status: z.number().int(), body: z.unknown().optional() }).optional(),
});

/** One distinct disagreement explore found: a rule of its oracle broken by a method, shrunk to a minimal sequence. */
const ExploreFinding = z.object({
  /** The rule of explore's oracle (src/explore/rules.ts), what it states, and the sentences it enforces. */
  rule: z.string(),
  states: z.string(),
  cites: z.array(z.string()),
  /** The method whose answer broke it. */
  method: z.string().optional(),
  message: z.string(),
  /** Every call of the minimal sequence. */
  steps: z.array(ExploreStep),
  /** The commands of the minimal sequence: a burst command makes several calls of one method. */
  commands: z.number().int(),
  foundAfter: z.object({ runs: z.number().int(), operations: z.number().int(), ms: z.number() }),
  /** Calls of the sequence in which it was first met. */
  originalLength: z.number().int(),
  shrinks: z.number().int(),
  /** The seed of the round that found it (the run's seed for the first). */
  seed: z.number().int(),
  path: z.string(),
  replayPath: z.string().optional(),
  replay: z.string(),
  curl: z.string(),
  scenario: z.string(),
});

/** `tck explore`'s results: model-based testing against the reference model, not graded into tiers. */
export const ExploreSectionSchema = z.object({
  seed: z.number().int(),
  runs: z.number().int(),
  runsDone: z.number().int(),
  operations: z.number().int(),
  opsPerSecond: z.number(),
  maxSteps: z.number().int(),
  methods: z.array(z.string()),
  timeBudgetMs: z.number(),
  durationMs: z.number(),
  stoppedBy: z.enum(['completed', 'failure', 'time-budget', 'interrupted']),
  /** The silent points the oracle leaves open (ids of the silent-point table). */
  tolerances: z.array(z.string()),
  /** Methods explore would draw that the target does not implement (404/501): not drawn. */
  notImplemented: z.array(z.string()).optional(),
  /** Every distinct disagreement found (a rule broken by a method), grouped by rule. */
  findings: z.array(ExploreFinding).optional(),
  /** The first finding, in the shape of reports before findings existed. */
  failure: z.object({
    message: z.string(),
    /** The silent point whose tolerance the server fell outside of (reports before the rule oracle). */
    tolerance: z.string().optional(),
    rule: z.string().optional(),
    cites: z.array(z.string()).optional(),
    steps: z.array(ExploreStep),
    /** Runs, operations and milliseconds until the first failing sequence was met. */
    foundAfter: z.object({ runs: z.number().int(), operations: z.number().int(), ms: z.number() }),
    originalLength: z.number().int(),
    shrinks: z.number().int(),
    /** fast-check's replay: the seed, the path and the commands' replay path. */
    path: z.string(),
    replayPath: z.string().optional(),
    replay: z.string(),
    curl: z.string(),
    scenario: z.string(),
  }).optional(),
});

export const ReportSchema = z.object({
  format: z.literal('agent-memory-tck/report'),
  formatVersion: z.literal(REPORT_FORMAT_VERSION),
  /** The SECURITY advisories that did not hold (absent when none); written by the JSON reporter. */
  security: SecurityFindingsSchema.optional(),
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
    /**
     * `--only-failed REPORT`: the run re-ran what failed, errored or did not run in that report,
     * and how many of each (its verdict says what it covered).
     */
    rerun: z.object({ from: z.string(), failed: z.number().int(), error: z.number().int(), notRun: z.number().int() }).optional(),
  }),
  grading: z.object({
    rule: z.enum(['strict', 'established']),
    description: z.string(),
    required: z.record(Tier, z.number()),
  }),
  tiers: z.array(TierSummarySchema),
  achieved: Tier.nullable(),
  requestedTier: Tier,
  /** The requested tier was reached (a narrowed run: every selected scenario passed). */
  success: z.boolean(),
  /**
   * Present when the bridge run was narrowed (--scenario, --grep, --skip, --only-failed) to fewer
   * scenarios than the requested tier and those below it have: its verdict is the selection's, and
   * it reaches no tier (`achieved` is null). Absent in reports of format 1.0 before it existed.
   */
  narrowed: z
    .object({
      /** Every selected scenario passed. */
      passed: z.boolean(),
      /** Scenarios selected (those left out by --skip not counted). */
      selected: z.number().int(),
      /** Of those, how many passed. */
      passing: z.number().int(),
      /** Scenarios of the requested tier and every lower one, in full. */
      population: z.number().int(),
    })
    .optional(),
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
  /** `tck explore`'s results (a section of its own, not graded into tiers). */
  explore: ExploreSectionSchema.optional(),
  /** The run's advisories (absent in reports before the clause map: nothing was an advisory then). */
  advisories: AdvisorySummarySchema.optional(),
});

export type Gate = z.infer<typeof GateSchema>;
export type AdvisorySummary = z.infer<typeof AdvisorySummarySchema>;
export type ScenarioOutcome = z.infer<typeof Outcome>;
export { isFailing } from '../engine/result.js';
export type ReportScenario = z.infer<typeof ScenarioResultSchema>;
export type HostedSection = z.infer<typeof HostedSectionSchema>;
export type ExploreSection = z.infer<typeof ExploreSectionSchema>;
export type HostedReportScenario = z.infer<typeof HostedScenarioResultSchema>;
export type HostedGroupSummary = z.infer<typeof HostedGroupSummarySchema>;
/** A scenario of either kind, as the reporters list failures. */
export type AnyReportScenario = ReportScenario | HostedReportScenario;

/** Whether the bridge suites ran (reports before the hosted profile have no `profiles`). */
export const bridgeRan = (report: Pick<Report, 'profiles'>): boolean => report.profiles === undefined || report.profiles.includes('bridge');
export type Report = z.infer<typeof ReportSchema>;
