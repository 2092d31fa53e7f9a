// What a scenario's run produces, as zod schemas: the report (src/report/model.ts) is built from
// these, and every result type of the engine is inferred from them, never written twice.
import { z } from 'zod';
import { ExchangeSchema } from './evidence.js';
import { TIERS } from './scenario.js';

export const TierSchema = z.enum(TIERS);

const OUTCOMES = ['passed', 'failed', 'error', 'skipped', 'not-run'] as const;
export const OutcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** Failed or errored: what a gate, a diff and the failure lists count as a failure. */
export const isFailing = (outcome: Outcome): boolean => outcome === 'failed' || outcome === 'error';

/** How a run treats advisories (the kit's own readings): noted beside the verdict, or failures. */
export const ADVISORY_MODES = ['report', 'fail'] as const;
export const AdvisoryModeSchema = z.enum(ADVISORY_MODES);
export type AdvisoryMode = z.infer<typeof AdvisoryModeSchema>;

/** An advisory that did not hold: its id (ADV-…), what was found, and the values when comparable. */
export const AdvisoryNoteSchema = z.object({
  id: z.string(),
  message: z.string(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
});
export type AdvisoryNote = z.infer<typeof AdvisoryNoteSchema>;

/** One assertion a scenario made: the sentences (or the advisory) it enforces, and whether it held. */
export const AssertionRecordSchema = z.object({
  cites: z.array(z.string()),
  what: z.string(),
  passed: z.boolean(),
  /** Cited through the scenario's clauses, not by the assertion itself. */
  implicit: z.literal(true).optional(),
  /** An advisory (its cites are its one ADV- id). */
  advisory: z.literal(true).optional(),
});
export type AssertionRecord = z.infer<typeof AssertionRecordSchema>;

/** How a scenario ended, with its evidence: the part of a result every profile shares. */
export const EndingSchema = z.object({
  outcome: OutcomeSchema,
  /** True when the failure is a method answering 404/501. */
  notImplemented: z.boolean().optional(),
  message: z.string().optional(),
  /** A skipped scenario that lacked an input of the run: the flag that gives it (`--other-api-key`). */
  needs: z.string().optional(),
  expected: z.unknown().optional(),
  actual: z.unknown().optional(),
  /**
   * For a failure about one call's answer (its status or its shape): which of `exchanges` it is and
   * the statuses it should have answered with. Repro scripts check them (report format 1.x: optional).
   */
  judged: z.object({ exchange: z.number().int().nonnegative(), status: z.array(z.number().int()) }).optional(),
  /** For a failure: the sentences of the clause map the assertion that broke enforces. */
  cites: z.array(z.string()).optional(),
  /** How many assertions the scenario made (its body's and the profile's checks of each answer). */
  assertions: z.number().int().nonnegative().optional(),
  /** How many of those assertions were advisories (the kit's own readings). */
  advisoryChecks: z.number().int().nonnegative().optional(),
  /** Advisories that did not hold: never a failure of the scenario unless the run fails advisories. */
  advisories: z.array(AdvisoryNoteSchema).optional(),
  /** Every assertion made, when the run keeps them (the clause map, `tck explain`). */
  checked: z.array(AssertionRecordSchema).optional(),
  durationMs: z.number(),
  /** The HTTP exchanges of a scenario that did not pass (evidence); empty for passed ones. */
  exchanges: z.array(ExchangeSchema),
  notes: z.array(z.string()),
});
export type Ending = z.infer<typeof EndingSchema>;

/** What names a scenario in its result. */
const LabelSchema = z.object({
  id: z.string(),
  group: z.string(),
  clauses: z.array(z.string()),
  title: z.string(),
});

/** The label of a tiered (bridge) scenario. */
export const TieredLabelSchema = LabelSchema.extend({ tier: TierSchema });
export type ScenarioLabel = z.infer<typeof TieredLabelSchema>;

/** A tiered scenario's result: its label and how it ended. */
export const ScenarioResultSchema = TieredLabelSchema.extend(EndingSchema.shape);
export type ScenarioResult = z.infer<typeof ScenarioResultSchema>;

/** The counts of one level (a tier, a group) and whether the level's own requirement holds. */
export const LevelCountsSchema = z.object({
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  error: z.number().int(),
  skipped: z.number().int(),
  notRun: z.number().int(),
  /** This level's own requirement holds (regardless of lower levels): every one of its scenarios ran, and enough passed. */
  passes: z.boolean(),
  /** Present when only part of the level ran (a narrowed selection): how many scenarios it has in full. */
  inLevel: z.number().int().optional(),
  /**
   * Present when nothing of the level failed and its only shortfall is scenarios skipped for an
   * input the run lacked: the flags that would complete it. Such a level does not pass, and it is
   * not failed either: it is incomplete.
   */
  incomplete: z.array(z.string()).optional(),
});
export type LevelCounts = z.infer<typeof LevelCountsSchema>;

export const TierSummarySchema = LevelCountsSchema.extend({ tier: TierSchema });
export type TierSummary = z.infer<typeof TierSummarySchema>;
