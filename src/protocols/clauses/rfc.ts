// The sentences of the rfc document(s) (see ./sentence.ts). TO BE COMPLETED (issue 21).
import type { Sentence } from './sentence.js';

export const RFC_SENTENCES: readonly Sentence[] = [];
