// The Platinum suite (optional): the established kit's Volume 5, the hosted-service operations
// over the bridge. Selected only by `--tier platinum`.
import type { Scenario } from '../../src/profiles/bridge/scenario.js';
import { scenarios as conversations } from './conversations.js';
import { scenarios as knowledge } from './knowledge.js';
import { scenarios as reasoning } from './reasoning.js';
import { scenarios as cypher } from './cypher.js';
import { scenarios as histories2 } from './histories-2.js';

export const platinum: Scenario[] = [...conversations, ...knowledge, ...reasoning, ...cypher, ...histories2];
