// docs/scenarios.md: the catalogue of every scenario, generated from the suites (`npm run docs`).
import { TIERS, type ScenarioBase, type TieredScenario } from '../engine/scenario.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A sentence of a tier's clause map: its id, what it says, and why no scenario checks it (when none does on purpose). */
interface MappedSentence {
  id: string;
  text: string;
  unchecked?: string;
}

/**
 * The catalogue: the bridge suites by tier, then the hosted profile (when given) by group. With
 * `platinumSentences`, the Platinum tier also gets its sentence → scenarios map (from the clauses
 * each scenario names), the sentences no scenario checks listed as such.
 */
export function renderCatalogue(scenarios: readonly TieredScenario<never>[], hosted: readonly ScenarioBase<never>[] = [], platinumSentences: readonly MappedSentence[] = []): string {
  const lines = [
    '# Scenario catalogue',
    '',
    'Generated from `suites/` by `npm run docs`; a test keeps it current. Ids SCN-x-001…093 are the',
    "established TCK's registry ids (same clause); ids from 101 are this kit's own. `tck explain ID` prints one entry.",
    '',
  ];
  for (const tier of TIERS) {
    const rows = scenarios.filter((s) => s.tier === tier);
    lines.push(`## ${tier[0]!.toUpperCase()}${tier.slice(1)} (${rows.length})`, '');
    if (tier === 'platinum') {
      lines.push('Optional (`--tier platinum`): the established kit\'s Volume 5. Its clauses reuse Volume 4\'s numbers, so', 'they are named SPEC-V5-5.1.1 … SPEC-V5-5.5.1 here (the registry\'s SPEC-5.x.y of Volume 5).', '');
    }
    lines.push('| id | group | clauses | title | asserts |', '|---|---|---|---|---|');
    for (const s of rows) lines.push(`| ${s.id} | ${s.group} | ${s.clauses.join(', ')} | ${cell(s.title)} | ${cell(s.asserts)} |`);
    lines.push('');
    if (tier === 'platinum' && rows.length > 0 && platinumSentences.length > 0) lines.push(...sentenceMap(rows, platinumSentences));
  }
  if (hosted.length > 0) {
    lines.push(
      `## Hosted profile (${hosted.length})`,
      '',
      '`tck run --hosted [URL]` checks a hosted REST service against `hosted-rest-api.md`, graded pass/fail per group',
      '(resources, credentials, discovery) beside the bridge tiers. Clauses: HOSTED-… name the rules of that document',
      '(HOSTED-AUTH-n: rule n of its Authentication section), RFC…-member the members of the RFCs it names.',
      '',
      '| id | group | clauses | title | asserts |',
      '|---|---|---|---|---|',
    );
    for (const s of hosted) lines.push(`| ${s.id} | ${s.group} | ${s.clauses.join(', ')} | ${cell(s.title)} | ${cell(s.asserts)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Sentence → the scenarios that name it; then the sentences none names, with the reason when that is on purpose. */
function sentenceMap(rows: readonly TieredScenario<never>[], sentences: readonly MappedSentence[]): string[] {
  const by = (id: string) => rows.filter((s) => s.clauses.includes(id)).map((s) => s.id);
  const checked = sentences.filter((x) => by(x.id).length > 0);
  const unchecked = sentences.filter((x) => by(x.id).length === 0);
  return [
    '### Platinum: sentence → scenarios',
    '',
    `Each sentence of the Platinum tier (Volume 5, lettered where a clause holds two; the BaseAdapter rows, SPEC-V3-…, and hosted endpoint rows that say more) and the scenarios whose assertions cite it. ${checked.length} of ${sentences.length} are checked.`,
    '',
    '| sentence | says | scenarios |',
    '|---|---|---|',
    ...checked.map((x) => `| ${x.id} | ${cell(x.text)} | ${by(x.id).join(', ')} |`),
    '',
    ...(unchecked.length === 0 ? [] : ['Not checked by any scenario:', '', ...unchecked.map((x) => `- ${x.id}: ${cell(x.text)}${x.unchecked ? ` (${cell(x.unchecked)})` : ' (no scenario yet)'}`), '']),
  ];
}
