// The certification bundle: one JSON file a reviewer can check without the server. It holds the
// report of a full run with every scenario's exchanges (passed ones included), the setup and
// teardown exchanges, the kit and the hash of its suites, the implementation, and the entry for
// the established registry. `tck verify` replays it (verify.ts).
import { z } from 'zod';
import { ExchangeSchema, ReportSchema, type Report } from './model.js';
import { ReportFileError, firstIssue, readJsonFile } from './load.js';
import { RegistryEntrySchema, RegistrySchema, type RegistryEntry } from './registry.js';
import { TckError } from '../engine/errors.js';
import { AdvisoryModeSchema } from '../engine/result.js';

export const BUNDLE_FORMAT = 'agent-memory-tck/certification';
export const BUNDLE_FORMAT_VERSION = '1.0';

export const ImplementationSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  language: z.string().min(1),
  repository: z.url(),
});

export const BundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  formatVersion: z.literal(BUNDLE_FORMAT_VERSION),
  kit: z.object({ name: z.string(), version: z.string(), protocol: z.string() }),
  /** suiteHash() of the kit that graded the run. */
  suiteHash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  implementation: ImplementationSchema,
  /** The run's setup and teardown calls (absent when there was none). */
  setup: ExchangeSchema.optional(),
  teardown: ExchangeSchema.optional(),
  /** The report of the full run, every scenario with its exchanges. */
  report: ReportSchema,
  /** The entry for the registry; absent when no tier was reached (nothing to certify). */
  certification: RegistryEntrySchema.optional(),
  /**
   * The advisories (the kit's own readings) that did not hold, for a registry to show beside the
   * tier, which they never change: a certification reports them (mode "report"), never fails them.
   * Absent in bundles made before the clause map.
   */
  advisories: z
    .object({
      mode: AdvisoryModeSchema,
      failed: z.array(z.object({ id: z.string(), scenario: z.string(), message: z.string() })),
    })
    .optional(),
  /**
   * The SECURITY advisories (docs/isolation.md): those that did not hold in the run, and those the
   * certification could not check, with why. Recorded beside the tier, which they never change: no
   * sentence of the documents states them. Absent in bundles made before there were any.
   */
  security: z
    .object({
      findings: z.array(z.object({ id: z.string(), scenario: z.string(), message: z.string() })),
      notChecked: z.array(z.object({ id: z.string(), why: z.string() })),
    })
    .optional(),
});

export type Bundle = z.infer<typeof BundleSchema>;
export type Implementation = z.infer<typeof ImplementationSchema>;

/** A bundle file that cannot be read or is not a bundle (exit 2). */
class BundleFileError extends TckError {
  constructor(message: string) {
    super(message, 'TCK_BAD_FILE');
  }
}

/** The tier a registry entry records for a tier reached: the registry knows Bronze–Gold, and a Platinum server (Platinum is optional) is also Gold. */
export const registryTier = (tier: NonNullable<Report['achieved']>) => (tier === 'platinum' ? 'gold' : tier);

/**
 * Why a report cannot be certified, or undefined: the one rule `tck certify` (which then writes no
 * bundle) and `tck verify` (which then rejects the bundle) share. A certification records a tier
 * reached by scenarios that ran.
 */
export function notCertifiable(report: Report): string | undefined {
  const ran = report.scenarios.filter((s) => s.outcome !== 'not-run').length;
  if (ran === 0) return `no scenario ran (${report.scenarios.length} not run${report.warnings[0] ? `: ${report.warnings[0]}` : ''}): there is nothing to certify`;
  if (report.achieved === null) return 'the run reaches no tier (not even Bronze): there is nothing to certify';
  return undefined;
}

/** The registry entry of a report: undefined when it reached no tier. Validated against the registry schema. */
export function registryEntry(report: Report, impl: Implementation, reportUrl?: string): RegistryEntry | undefined {
  if (report.achieved === null) return undefined;
  const entry: RegistryEntry = {
    name: impl.name,
    version: impl.version,
    language: impl.language,
    tier: registryTier(report.achieved),
    tck_version: report.kit.version,
    ...(reportUrl !== undefined ? { report_url: reportUrl } : {}),
    repository: impl.repository,
    certified_at: report.endedAt,
  };
  // As a registry would hold it: one document, this entry its only certification.
  RegistrySchema.parse({ tck_version: report.kit.version, certifications: [entry] });
  return entry;
}

/** Reads a bundle: BundleFileError when it is not readable, not JSON, or not a bundle. */
export async function loadBundle(path: string): Promise<Bundle> {
  let data: unknown;
  try {
    data = await readJsonFile(path, 'bundle');
  } catch (err) {
    throw err instanceof ReportFileError ? new BundleFileError(err.message) : err;
  }
  return parseBundle(data, path);
}

export function parseBundle(data: unknown, name: string): Bundle {
  const parsed = BundleSchema.safeParse(data);
  if (!parsed.success) throw new BundleFileError(`${name} is not a certification bundle: ${firstIssue(parsed.error)}`);
  return parsed.data;
}
