// The sentences of the spec document(s) (see ./sentence.ts). TO BE COMPLETED (issue 21).
import type { Sentence } from './sentence.js';

export const SPEC_SENTENCES: readonly Sentence[] = [];
