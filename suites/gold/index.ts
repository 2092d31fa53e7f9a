// The Gold suite: the scenario files of this folder.
import type { Scenario } from '../../src/profiles/bridge/scenario.js';
import { scenarios as crossMemory } from './cross-memory.js';
import { scenarios as relationships } from './relationships.js';
import { scenarios as merge } from './merge.js';
import { scenarios as similarTraces } from './similar-traces.js';
import { scenarios as multiAgent } from './multi-agent.js';
import { scenarios as fidelity } from './fidelity.js';
import { scenarios as concurrency } from './concurrency.js';
import { scenarios as histories2 } from './histories-2.js';

export const gold: Scenario[] = [
  ...crossMemory,
  ...relationships,
  ...merge,
  ...similarTraces,
  ...multiAgent,
  ...fidelity,
  ...concurrency,
  ...histories2,
];
