// `tck schema`, `tck list`, `tck explain`: what the kit checks, without running anything.
import { writeFile } from 'node:fs/promises';
import { ensureWritableDir, inWords } from './paths.js';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { ScenarioTier } from '../engine/scenario.js';
import type { Scenario } from '../profiles/bridge/scenario.js';
import { HOSTED_PROFILE, type HostedScenario } from '../profiles/hosted/scenario.js';
import { ReportSchema } from '../report/model.js';
import { jsonSchemas } from '../protocols/bridge/json-schema.js';
import { TckError } from '../engine/errors.js';

export async function schemaCommand(flags: { out?: string }): Promise<void> {
  const schemas: Record<string, unknown> = { ...jsonSchemas(), Report: z.toJSONSchema(ReportSchema, { unrepresentable: 'any' }) };
  if (!flags.out) {
    process.stdout.write(`${JSON.stringify(schemas, null, 2)}\n`);
    return;
  }
  const dir = resolve(flags.out);
  await ensureWritableDir(flags.out, '--out');
  for (const [name, schema] of Object.entries(schemas)) {
    await writeFile(join(dir, `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`).catch((err: unknown) => {
      throw new TckError(`cannot write ${join(dir, `${name}.schema.json`)}: ${inWords(err)}`);
    });
  }
  process.stdout.write(`wrote ${Object.keys(schemas).length} JSON Schemas to ${dir}\n`);
}

async function scenarios(): Promise<readonly Scenario[]> {
  return (await import('../../suites/index.js')).ALL_SCENARIOS;
}

async function hostedScenarios(): Promise<readonly HostedScenario[]> {
  return (await import('../../suites/hosted/index.js')).HOSTED_SCENARIOS;
}

/** A scenario of either profile as listed: the hosted profile's show "hosted" for a tier. */
type Listed = Pick<Scenario, 'id' | 'group' | 'clauses' | 'title' | 'asserts'> & { tier: ScenarioTier | typeof HOSTED_PROFILE };

export async function listCommand(flags: { tier?: ScenarioTier | typeof HOSTED_PROFILE; json?: boolean; markdown?: boolean }): Promise<void> {
  const bridge = flags.tier === HOSTED_PROFILE ? [] : (await scenarios()).filter((s) => !flags.tier || s.tier === flags.tier);
  const hosted = flags.tier === undefined || flags.tier === HOSTED_PROFILE ? await hostedScenarios() : [];
  if (flags.markdown) {
    const { renderCatalogue } = await import('../report/catalogue.js');
    const { PLATINUM_SENTENCES } = await import('../../suites/platinum/clauses.js');
    process.stdout.write(renderCatalogue(bridge, hosted, PLATINUM_SENTENCES));
    return;
  }
  const list: Listed[] = [...bridge, ...hosted.map((s): Listed => ({ ...s, tier: HOSTED_PROFILE }))];
  if (flags.json) {
    const rows = list.map(({ id, tier, group, clauses, title, asserts }) => ({ id, tier, group, clauses, title, asserts }));
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  for (const s of list) process.stdout.write(`${s.id}  ${s.tier.padEnd(6)}  ${s.clauses.join(',').padEnd(22)}  ${s.title}\n`);
  process.stdout.write(`${list.length} scenarios\n`);
}

export async function explainCommand(id: string): Promise<void> {
  const hosted = (await hostedScenarios()).find((x) => x.id === id.toUpperCase());
  const s: Listed | undefined = hosted ? { ...hosted, tier: HOSTED_PROFILE } : (await scenarios()).find((x) => x.id === id.toUpperCase());
  if (!s) throw new TckError(`unknown scenario ${id} (see \`tck list\`)`);
  process.stdout.write(
    [
      `${s.id}  ${s.title}`,
      `tier:     ${s.tier}${hosted ? ' (the hosted profile, graded per group)' : ''}`,
      `group:    ${s.group}`,
      `clauses:  ${s.clauses.join(', ')}`,
      `asserts:  ${s.asserts}`,
      `run it:   tck run --scenario ${s.id} --verbose ${hosted ? '--hosted [URL --api-key KEY]' : '[--url URL]'}`,
      '',
    ].join('\n'),
  );
}
