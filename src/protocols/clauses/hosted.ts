// The sentences of the hosted document(s) (see ./sentence.ts). TO BE COMPLETED (issue 21).
import type { Sentence } from './sentence.js';

export const HOSTED_SENTENCES: readonly Sentence[] = [];
