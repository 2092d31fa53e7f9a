// The Silver suite: the scenario files of this folder.
import type { Scenario } from '../../src/profiles/bridge/scenario.js';
import { scenarios as entities } from './entities.js';
import { scenarios as preferencesFacts } from './preferences-facts.js';
import { scenarios as search } from './search.js';
import { scenarios as related } from './related.js';
import { scenarios as reasoningTraces } from './reasoning-traces.js';
import { scenarios as toolCalls } from './tool-calls.js';
import { scenarios as fidelity } from './fidelity.js';
import { scenarios as concurrency } from './concurrency.js';
import { scenarios as histories2 } from './histories-2.js';

export const silver: Scenario[] = [
  ...entities,
  ...preferencesFacts,
  ...search,
  ...related,
  ...reasoningTraces,
  ...toolCalls,
  ...fidelity,
  ...concurrency,
  ...histories2,
];
