// Baselines for CI gates. A baseline lists scenarios that are known to fail, each with a reason.
// Against a baseline the gate passes when every failure of the run is listed, and no listed
// scenario passes any more ("fixed: remove SCN-… from the baseline"), so a baseline stays honest:
// a vendor adopts the kit before reaching a tier, and never regresses.
import { cutAt } from '../util/words.js';
import { TckError } from '../engine/errors.js';
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { firstIssue } from './load.js';
import { isFailing, type Gate, type Report } from './model.js';

export const BaselineSchema = z
  .object({
    format: z.literal('agent-memory-tck/baseline'),
    formatVersion: z.literal('1.0'),
    /** Where and when it was written (informative). */
    generated: z.object({ at: z.string(), kit: z.string(), target: z.string() }).optional(),
    scenarios: z.array(
      z.object({
        id: z.string().regex(/^SCN-[BSG]-\d{3}$/, 'a scenario id such as SCN-B-043'),
        reason: z.string().trim().min(1, 'say why this scenario may fail'),
      }),
    ),
  })
  .superRefine((b, ctx) => {
    const seen = new Set<string>();
    b.scenarios.forEach((s, i) => {
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: ['scenarios', i, 'id'], message: `${s.id} is listed twice` });
      seen.add(s.id);
    });
  });

export type Baseline = z.infer<typeof BaselineSchema>;

/** A baseline file that cannot be read or is not a baseline. */
export class BaselineError extends TckError {
  constructor(message: string) {
    super(message, 'TCK_BAD_FILE');
  }
}

export async function loadBaseline(path: string): Promise<Baseline> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    const why = err instanceof SyntaxError ? `not JSON (${err.message})` : ((err as NodeJS.ErrnoException).code ?? String(err));
    throw new BaselineError(`cannot read baseline ${path}: ${why}`);
  }
  const parsed = BaselineSchema.safeParse(data);
  if (!parsed.success) throw new BaselineError(`baseline ${path} is not valid: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** The gate's verdict for a run against a baseline (`name` is how the baseline is shown). */
export function evaluateBaseline(report: Report, baseline: Baseline, name: string): Gate {
  const listed = new Map(baseline.scenarios.map((s) => [s.id, s.reason]));
  const outcome = new Map(report.scenarios.map((s) => [s.id, s.outcome]));
  const gate: Gate = { baseline: name, passed: false, known: [], unexpected: [], fixed: [], unchecked: [] };
  for (const s of report.scenarios) {
    const reason = listed.get(s.id);
    if (isFailing(s.outcome)) {
      if (reason === undefined) gate.unexpected.push({ id: s.id, outcome: s.outcome });
      else gate.known.push({ id: s.id, outcome: s.outcome, reason });
    } else if (reason !== undefined && s.outcome === 'passed') {
      gate.fixed.push(s.id);
    }
  }
  for (const { id } of baseline.scenarios) {
    const o = outcome.get(id);
    if (o === undefined || o === 'skipped' || o === 'not-run') gate.unchecked.push(id);
  }
  // An interrupted run has not checked what it did not run: it cannot pass a gate.
  gate.passed = gate.unexpected.length === 0 && gate.fixed.length === 0 && !report.interrupted;
  return gate;
}

/**
 * The current failures of a run as a baseline. A scenario already in `previous` keeps its reason;
 * a new one gets its outcome and the first line of its message, to be edited into a reason.
 */
export function baselineFrom(report: Report, previous?: Baseline): Baseline {
  const reasons = new Map(previous?.scenarios.map((s) => [s.id, s.reason]));
  return {
    format: 'agent-memory-tck/baseline',
    formatVersion: '1.0',
    generated: { at: report.endedAt, kit: `${report.kit.name} ${report.kit.version}`, target: report.target.url },
    scenarios: report.scenarios
      .filter((s) => isFailing(s.outcome))
      .map((s) => ({
        id: s.id,
        reason: reasons.get(s.id) ?? `${s.outcome}: ${cutAt((s.message ?? s.title).split('\n')[0]!, 240)}`,
      })),
  };
}

export async function writeBaseline(path: string, baseline: Baseline): Promise<void> {
  await writeFile(path, `${JSON.stringify(BaselineSchema.parse(baseline), null, 2)}\n`);
}
