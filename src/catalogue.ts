// docs/scenarios.md: the catalogue of every scenario, generated from the suites (`npm run docs`).
import type { Scenario } from './engine/scenario.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function renderCatalogue(scenarios: readonly Scenario[]): string {
  const lines = [
    '# Scenario catalogue',
    '',
    'Generated from `suites/` by `npm run docs`; a test keeps it current. Ids SCN-x-001…093 are the',
    "established TCK's registry ids (same clause); ids from 101 are this kit's own. `tck explain ID` prints one entry.",
    '',
  ];
  for (const tier of ['bronze', 'silver', 'gold'] as const) {
    const rows = scenarios.filter((s) => s.tier === tier);
    lines.push(`## ${tier[0]!.toUpperCase()}${tier.slice(1)} (${rows.length})`, '');
    lines.push('| id | group | clauses | title | asserts |', '|---|---|---|---|---|');
    for (const s of rows) lines.push(`| ${s.id} | ${s.group} | ${s.clauses.join(', ')} | ${cell(s.title)} | ${cell(s.asserts)} |`);
    lines.push('');
  }
  return lines.join('\n');
}
