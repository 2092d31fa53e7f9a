// Every scenario of the kit, sorted by tier then id.
import type { Scenario } from '../src/profiles/bridge/scenario.js';
import { TIER_RANK } from '../src/engine/grading.js';
import { bronze } from './bronze/index.js';
import { silver } from './silver/index.js';
import { gold } from './gold/index.js';
import { platinum } from './platinum/index.js';

export const ALL_SCENARIOS: readonly Scenario[] = [...bronze, ...silver, ...gold, ...platinum].sort(
  (a, b) => TIER_RANK[a.tier] - TIER_RANK[b.tier] || a.id.localeCompare(b.id),
);

export function findScenario(id: string): Scenario | undefined {
  return ALL_SCENARIOS.find((s) => s.id === id.toUpperCase());
}
