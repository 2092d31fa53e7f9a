// The established TCK's certification registry (its certifications/schema.json), as zod: the
// document a registry holds, and one entry of it, which a certification bundle carries.
import { z } from 'zod';

/** One certification, as the established registry lists it. */
export const RegistryEntrySchema = z.object({
  /** Implementation name. */
  name: z.string(),
  /** Implementation version. */
  version: z.string(),
  /** Implementation language (Python, TypeScript, Go, …). */
  language: z.string(),
  /** Highest achieved compliance tier. */
  tier: z.enum(['bronze', 'silver', 'gold']),
  /** TCK version tested against. */
  tck_version: z.string(),
  /** Path to the compliance report JSON. */
  report_url: z.string().optional(),
  /** URL of the implementation's repository (JSON Schema format "uri"). */
  repository: z.url().optional(),
  /** Certification time (JSON Schema format "date-time"). */
  certified_at: z.iso.datetime({ offset: true }),
});

/** The registry document: the TCK version it is compatible with, and its certifications. */
export const RegistrySchema = z.object({
  tck_version: z.string(),
  certifications: z.array(RegistryEntrySchema),
});

export type RegistryEntry = z.infer<typeof RegistryEntrySchema>;
