// docs/scenarios.md: the catalogue of every scenario, generated from the suites (`npm run docs`).
import { TIERS, type ScenarioBase, type TieredScenario } from '../engine/scenario.js';
import { ClauseIndex, DOCUMENTS, renderDocument, usesOfClauses } from './clause-map.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/**
 * The catalogue: the bridge suites by tier, then the hosted profile (when given) by group; the
 * Platinum tier also gets Volume 5's clause → scenarios map, the clauses no scenario names listed as such.
 */
export function renderCatalogue(scenarios: readonly TieredScenario<never>[], hosted: readonly ScenarioBase<never>[] = []): string {
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
    if (tier === 'platinum') lines.push(...volume5(rows));
  }
  if (hosted.length > 0) {
    lines.push(
      `## Hosted profile (${hosted.length})`,
      '',
      '`tck run --hosted [URL]` checks a hosted REST service against `hosted-rest-api.md`, graded per group (resources,',
      'credentials, discovery: passed, failed, or incomplete when scenarios were skipped for an input the run lacked)',
      'beside the bridge tiers. Clauses: HOSTED-… name the rules of that document',
      '(HOSTED-AUTH-1 … HOSTED-AUTH-8: the numbered rules of its Authentication section), RFC…-member the members of the RFCs it names.',
      '',
      '| id | group | clauses | title | asserts |',
      '|---|---|---|---|---|',
    );
    for (const s of hosted) lines.push(`| ${s.id} | ${s.group} | ${s.clauses.join(', ')} | ${cell(s.title)} | ${cell(s.asserts)} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** Volume 5's clauses, each with the Platinum scenarios that name it, and those none names (docs/clauses.md has every assertion). */
function volume5(scenarios: readonly TieredScenario<never>[]): string[] {
  const spec = DOCUMENTS.find((d) => d.doc === 'spec')!;
  return renderDocument(new ClauseIndex(usesOfClauses(scenarios)), spec, {
    filter: (s) => s.id.startsWith('SPEC-V5-'),
    level: 3,
    usesAre: 'scenarios',
    shown: 8,
    title: (c) => `Volume 5 clauses and the scenarios that name them: ${c.covered} of ${c.total}`,
  });
}
