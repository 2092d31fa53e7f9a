// Scenario selection: --tier (cumulative), --grep, --scenario, --skip.
import { TckError } from './errors.js';
import { didYouMean } from '../util/words.js';
import { TIER_RANK } from './grading.js';
import { DEFAULT_TIER, type ScenarioTier } from './scenario.js';
import type { ScenarioBase } from './scenario.js';

export interface Selection {
  tier?: ScenarioTier;
  grep?: string;
  scenarios?: string[];
  skip?: string[];
}

/** What selection looks at; a scenario without a tier (the hosted profile's) ignores --tier. */
type Selectable = Pick<ScenarioBase<never>, 'id' | 'title' | 'clauses' | 'group'> & { tier?: ScenarioTier };

/**
 * The id meant, when a typo can tell it: SCN-B-43 is SCN-B-043; a number that is no scenario
 * (SCN-B-999) gets no guess (another number would be a different scenario, not a typo's fix).
 */
function guessOf(id: string, known: readonly string[]): string {
  const m = /^(SCN-[A-Z]+-)0*(\d+)$/i.exec(id);
  if (m === null) return didYouMean(id, known);
  const padded = known.find((k) => k.toUpperCase() === `${m[1]!.toUpperCase()}${m[2]!.padStart(3, '0')}`);
  return padded === undefined ? '' : ` (did you mean '${padded}'?)`;
}

/** "; SCN-B-001 to SCN-B-071 exist": the ids of the same prefix, when there are any. */
function rangeOf(id: string, known: readonly string[]): string {
  const prefix = /^(SCN-[A-Z]+-)/i.exec(id)?.[1]?.toUpperCase();
  const same = prefix === undefined ? [] : known.filter((k) => k.startsWith(prefix)).sort();
  return same.length === 0 ? '' : `; ${same[0]} to ${same.at(-1)} exist`;
}

export function selectScenarios<S extends Selectable>(all: readonly S[], sel: Selection): S[] {
  const known = new Set(all.map((s) => s.id));
  for (const id of [...(sel.scenarios ?? []), ...(sel.skip ?? [])]) {
    if (!known.has(id)) throw new SelectionError(`unknown scenario ${id}${guessOf(id, [...known])}${rangeOf(id, [...known])} (see \`npx tck list\`)`);
  }
  let grep: RegExp | undefined;
  try {
    grep = sel.grep ? new RegExp(sel.grep, 'i') : undefined;
  } catch {
    throw new SelectionError(`--grep: not a valid regular expression: ${sel.grep}`);
  }
  const max = TIER_RANK[sel.tier ?? DEFAULT_TIER];
  // --scenario of a tier above --tier would be dropped without a word: say so instead.
  const above = all.filter((s) => sel.scenarios?.includes(s.id) && s.tier !== undefined && TIER_RANK[s.tier] > max);
  if (above.length > 0) {
    throw new SelectionError(`${above.map((s) => `${s.id} is a ${s.tier} scenario`).join(', ')}, above --tier ${sel.tier ?? `${DEFAULT_TIER} (the default)`}: raise --tier or leave it out`);
  }
  return all.filter(
    (s) =>
      (s.tier === undefined || TIER_RANK[s.tier] <= max) &&
      (!sel.scenarios?.length || sel.scenarios.includes(s.id)) &&
      !sel.skip?.includes(s.id) &&
      (!grep || grep.test(`${s.id} ${s.title} ${s.clauses.join(' ')} ${s.group}`)),
  );
}

export class SelectionError extends TckError {
  constructor(message: string) {
    super(message, 'TCK_SELECTION');
  }
}
