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
import { printable } from '../engine/evidence.js';
import type { Advisory, Sentence } from '../protocols/clauses/index.js';
import type { Recording } from '../run/record.js';

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
    process.stdout.write(renderCatalogue(bridge, hosted));
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

/** The longest id an error message repeats. */
const SHOWN_ID = 80;

/**
 * `tck explain ID`: a scenario, with the sentence each of its assertions enforces (from a run
 * against the embedded reference); a sentence of the clause map, with the assertions that enforce
 * it (from a run of every scenario that could cite it); or an advisory. Anything else: one line, exit 2.
 */
export async function explainCommand(raw: string): Promise<void> {
  process.stdout.write(await explainText(raw));
}

/** How explain runs scenarios against the embedded references (a test hands in one recording for all). */
type Recorder = (options: { scenarios?: readonly string[]; only?: 'bridge' | 'hosted' }) => Promise<Recording>;

const recordNow: Recorder = async (options) => (await import('../run/record.js')).recordAssertions(options);

/** What `tck explain ID` prints. */
export async function explainText(raw: string, record: Recorder = recordNow): Promise<string> {
  const id = raw.trim();
  const key = id.toUpperCase();
  const [bridge, hosted, clauses] = await Promise.all([scenarios(), hostedScenarios(), import('../protocols/clauses/index.js')]);
  const hostedOne = hosted.find((x) => x.id === key);
  const bridgeOne = bridge.find((x) => x.id === key);
  if (hostedOne ?? bridgeOne) {
    const s: Listed = hostedOne ? { ...hostedOne, tier: HOSTED_PROFILE } : bridgeOne!;
    return `${[...scenarioHeader(s, hostedOne !== undefined), '', ...(await scenarioAssertions(s.id, record))].join('\n')}\n`;
  }
  const sentence = clauses.SENTENCES.find((x) => x.id.toLowerCase() === id.toLowerCase());
  const advisory = clauses.ADVISORIES.find((x) => x.id.toLowerCase() === id.toLowerCase());
  if (sentence ?? advisory) {
    return `${(await (sentence ? sentenceLines(sentence, record) : advisoryLines(advisory!, record))).join('\n')}\n`;
  }
  const { nearest } = await import('../util/words.js');
  const near = nearest(id, [...bridge.map((x) => x.id), ...hosted.map((x) => x.id), ...clauses.SENTENCES.map((x) => x.id), ...clauses.ADVISORIES.map((x) => x.id)]);
  const shown = printable(id.length > SHOWN_ID ? `${id.slice(0, SHOWN_ID)}…` : id);
  throw new TckError(`unknown id ${JSON.stringify(shown)}: no scenario, sentence of the clause map or advisory has it${near ? ` — did you mean ${near}?` : ''} (see \`tck list\` and docs/clauses.md)`);
}

function scenarioHeader(s: Listed, hosted: boolean): string[] {
  return [
    `${s.id}  ${s.title}`,
    `tier:     ${s.tier}${hosted ? ' (the hosted profile, graded per group)' : ''}`,
    `group:    ${s.group}`,
    `clauses:  ${s.clauses.join(', ')}`,
    `asserts:  ${s.asserts}`,
    `run it:   npx tck run --scenario ${s.id} --verbose ${hosted ? '--hosted [URL --api-key KEY]' : '[--url URL]'}`,
  ];
}

/** A sentence in one line: its id (and keyword), padded, then its text (a name: what it names). */
function sentenceLine(s: Sentence | undefined, id: string, pad: number): string {
  const head = `${id}${s?.keyword ? ` (${s.keyword})` : ''}`.padEnd(pad);
  if (s === undefined) return `${head}  (not in the clause map)`;
  return `${head}  ${s.parts ? namesOf(s) : s.text.replace(/\n/g, ' ')}`;
}

/** What a name of several sentences names: a table's fields, or the sentences. */
function namesOf(s: Sentence): string {
  const parts = s.parts ?? [];
  return parts.every((p) => p.startsWith(`${s.id}.`)) ? `the table of ${parts.map((p) => p.slice(s.id.length + 1)).join(', ')}` : `names ${parts.join(', ')}`;
}

/** Runs the scenario against the embedded reference and lists its assertions, identical ones once, each with the sentences it enforces. */
async function scenarioAssertions(id: string, record: Recorder): Promise<string[]> {
  const [{ stableText }, { sentenceOf, advisoryOf }] = await Promise.all([import('../report/clause-map.js'), import('../protocols/clauses/index.js')]);
  const recording = await record({ scenarios: [id] });
  const result = [...recording.bridge, ...recording.hosted].find((r) => r.id === id);
  if (result === undefined) return ['(it could not be run against the embedded reference: no assertion to show)'];
  const groups = new Map<string, { what: string; cites: readonly string[]; implicit: boolean; advisory: boolean; count: number }>();
  for (const c of result.checked ?? []) {
    const what = stableText(c.what);
    const k = `${what}\u0000${c.cites.join(' ')}\u0000${c.implicit ? 1 : 0}`;
    const g = groups.get(k) ?? { what, cites: c.cites, implicit: !!c.implicit, advisory: !!c.advisory, count: 0 };
    g.count++;
    groups.set(k, g);
  }
  const where = 'tier' in result ? 'the embedded reference server' : 'the embedded hosted reference service';
  const made = result.assertions ?? result.checked?.length ?? 0;
  const lines = [`Assertions (${made} made against ${where}; identical ones shown once, ×n), each with the sentences it enforces:`];
  if (result.outcome !== 'passed') lines.push(`  (against ${where} it ended ${result.outcome}${result.message ? `: ${result.message.split('\n')[0]}` : ''}; what came after is not shown)`);
  if (made > (result.checked?.length ?? 0)) lines.push(`  (the first ${result.checked?.length ?? 0} are kept)`);
  if (groups.size === 0) lines.push('  none recorded: its checks ran only where they failed (write them as check.ok(condition, …) so that they count)');
  const pad = Math.max(0, ...[...groups.values()].flatMap((g) => g.cites.map((c) => c.length + (sentenceOf(c)?.keyword ? sentenceOf(c)!.keyword!.length + 3 : 0))));
  for (const g of groups.values()) {
    lines.push(`  ${g.what}${g.count > 1 ? `  ×${g.count}` : ''}${g.implicit ? "  (the scenario's clauses)" : ''}`);
    for (const c of g.cites) {
      const a = advisoryOf(c);
      lines.push(`      ${a ? `${c.padEnd(pad)}  ADVISORY: ${a.expects}` : sentenceLine(sentenceOf(c), c, pad)}`);
    }
  }
  const cited = new Set([...groups.values()].flatMap((g) => g.cites));
  const silent = result.clauses.filter((c) => !cited.has(c));
  if (silent.length > 0) lines.push(`  No recorded assertion cites ${silent.join(', ')}: a check that records nothing when it holds (\`if (ok) return\`) is not counted; check.ok(condition, …) is.`);
  const advised = [...new Set([...groups.values()].filter((g) => g.advisory).flatMap((g) => g.cites))].sort();
  lines.push('', advised.length === 0 ? 'Advisories it may raise: none (every assertion enforces a sentence).' : 'Advisories it may raise (never a failure, unless a run is given --advisories fail):');
  for (const a of advised.map(advisoryOf)) if (a) lines.push(...advisoryText(a).map((l) => `  ${l}`));
  if (result.advisories?.length) lines.push('', `Against ${where}, ${result.advisories.length} advisor${result.advisories.length === 1 ? 'y' : 'ies'} did not hold:`, ...result.advisories.map((n) => `  ${n.id}: ${n.message}`));
  return lines;
}

function advisoryText(a: Advisory): string[] {
  return [`${a.id}: expects ${a.expects}`, `  why it is not a rule: ${a.reason}`, `  nearest sentences: ${a.near.join(', ')}`];
}

const DOC_NAMES: Record<Sentence['doc'], string> = {
  bridge: 'bridge-protocol.md (quoted)',
  hosted: 'hosted-rest-api.md (quoted)',
  spec: "the established SPEC.md (the kit's summary)",
  rfc: "the RFC (the kit's summary)",
};

/** The uses of an id, from a run of every scenario that could cite it, as lines: identical assertions once, with their scenarios. */
async function usesLines(id: string, only: 'bridge' | 'hosted' | undefined, through: boolean, record: Recorder): Promise<string[]> {
  const { ClauseIndex, groupUses, usesOfResults } = await import('../report/clause-map.js');
  if (process.stderr.isTTY) process.stderr.write(`running ${only === undefined ? 'every scenario' : `the ${only} scenarios`} against the embedded reference to see what cites ${id}…\n`);
  const recording = await record(only ? { only } : {});
  const index = new ClauseIndex(usesOfResults([...recording.bridge, ...recording.hosted]));
  const uses = through ? index.usesOf(id) : index.direct(id);
  if (uses.length === 0) return ['No assertion cites it.'];
  const scenarios = new Set(uses.map((u) => u.scenario)).size;
  const groups = groupUses(uses);
  const shown = 40;
  const lines = [`Assertions that enforce it (${uses.length} in ${scenarios} scenario${scenarios === 1 ? '' : 's'}, against the embedded references; identical ones once, ×n):`];
  for (const g of groups.slice(0, shown)) {
    const ids = g.scenarios.length <= 6 ? g.scenarios.join(', ') : `${g.scenarios.slice(0, 6).join(', ')} +${g.scenarios.length - 6}`;
    lines.push(`  ${ids}: ${g.what}${g.count > g.scenarios.length ? `  ×${g.count}` : ''}${g.through ? `  (through ${g.through})` : ''}${g.implicit ? "  (the scenario's clauses)" : ''}`);
  }
  if (groups.length > shown) lines.push(`  … ${groups.length - shown} more (docs/clauses.md has the whole map)`);
  return lines;
}

async function sentenceLines(s: Sentence, record: Recorder): Promise<string[]> {
  const { SENTENCES } = await import('../protocols/clauses/index.js');
  const partOf = SENTENCES.filter((x) => x.parts?.includes(s.id)).map((x) => x.id);
  const lines = [
    `${s.id}${s.keyword ? ` (${s.keyword})` : ''}`,
    `source:   ${DOC_NAMES[s.doc]}, ${s.section}`,
    ...(s.parts ? [`names:    ${s.parts.join(', ')} (citing it cites each)`] : s.text.split('\n').map((l, i) => `${i === 0 ? 'text:     ' : '          '}${l}`)),
    ...(partOf.length ? [`part of:  ${partOf.join(', ')} (an assertion citing that counts for it)`] : []),
    ...(s.via ? [`through:  ${s.via.join(', ')} (the kit enforces it through these)`] : []),
    ...(s.unchecked ? [`not checked, on purpose: ${s.unchecked}`] : []),
    '',
  ];
  const only = s.doc === 'rfc' ? 'hosted' : s.doc === 'hosted' ? undefined : 'bridge';
  const named = [...(await scenarios()), ...(await hostedScenarios())].filter((x) => x.clauses.includes(s.id) || partOf.some((p) => x.clauses.includes(p))).map((x) => x.id);
  return [...lines, ...(await usesLines(s.id, only, true, record)), '', named.length === 0 ? 'No scenario names it in its clauses.' : `Scenarios that name it in their clauses: ${named.join(', ')}`];
}

async function advisoryLines(a: Advisory, record: Recorder): Promise<string[]> {
  const { sentenceOf } = await import('../protocols/clauses/index.js');
  const pad = Math.max(...a.near.map((n) => n.length));
  return [
    `${a.id}  (an advisory: the kit's own reading, never a failure unless a run is given --advisories fail)`,
    `expects:  ${a.expects}`,
    `why it is not a rule: ${a.reason}`,
    'nearest sentences:',
    ...a.near.map((n) => `  ${sentenceLine(sentenceOf(n), n, pad)}`),
    '',
    ...(await usesLines(a.id, undefined, false, record)),
  ];
}
