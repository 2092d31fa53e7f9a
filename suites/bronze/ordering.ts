import type { Scenario } from '../../src/engine/scenario.js';

export const scenarios: Scenario[] = [];
