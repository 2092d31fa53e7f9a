// A bridge scenario: the engine's tiered scenario with the bridge's ScenarioContext.
import type { TieredScenario } from '../../engine/scenario.js';
import type { ScenarioContext } from './context.js';

export type Scenario = TieredScenario<ScenarioContext>;

export function defineScenario(s: Scenario): Scenario {
  if (!/^SCN-[BSGP]-\d{3}$/.test(s.id)) throw new Error(`bad scenario id ${s.id}`);
  const letter = s.id[4];
  if ({ B: 'bronze', S: 'silver', G: 'gold', P: 'platinum' }[letter as 'B'] !== s.tier) {
    throw new Error(`${s.id}: id letter does not match tier ${s.tier}`);
  }
  return s;
}
