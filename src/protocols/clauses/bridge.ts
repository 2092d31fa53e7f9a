// The sentences of the bridge document(s) (see ./sentence.ts). TO BE COMPLETED (issue 21).
import type { Sentence } from './sentence.js';

export const BRIDGE_SENTENCES: readonly Sentence[] = [];
