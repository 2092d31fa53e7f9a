// The values `tck explore --hosted` draws from: small pools, so that sequences repeat values, meet
// namesakes and pile messages into few conversations, and classes of text that storage engines
// treat differently (control characters with NUL, NFC against NFD, characters NFKC folds, scripts
// other than Latin, astral emoji, spaces at the edges, quotes and escapes, the empty string, and
// lengths past the common column sizes: 10 001 and 70 000 characters). Every text holds the word
// "memory", so that searches for it meet more messages than their limit.

/** Message contents, one per class. */
export const CONTENTS: readonly string[] = [
  'the user prefers dark mode in memory',
  'nul\u0000 bell\u0007 esc\u001b[31m del\u007f memory',
  'Café crème memory',
  'Cafe\u0301 cre\u0300me memory',
  'ﬁle ① Ａcme™ memory ｶﾀｶﾅ',
  'Привет мир 你好 مرحبا memory',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🚀👩‍💻 memory',
  '  memory at the edges  ',
  'O\'Brien "quoted" \\ back <b>&amp;</b> 100% _sure_ \\u0041 memory',
  '',
  `memory ${'a'.repeat(9_994)}`,
  `memory ${'x'.repeat(69_986)} 🚀 end`,
  'memory',
];

/** Entity names before the sequence's tag: namesakes differing in case, Unicode forms, compatibility characters, edges. */
export const NAMES: readonly string[] = ['Alice', 'alice', 'ALICE', 'Zoë', 'Zoe\u0308', 'ﬁne Ａcme', 'Привет', '🚀 Rocket', ' Bob ', 'O\'Brien "x"', 'nul\u0000name'];

/** The five entity types of the bridge data model, in several casings (the casing a service keeps is its own). */
export const TYPES: readonly string[] = ['PERSON', 'person', 'Organization', 'LOCATION', 'event', 'OBJECT'];

export const ROLES: readonly string[] = ['user', 'assistant', 'system'];

/** List limits around the size of what a sequence makes; 100 is the clients' page. */
export const LIST_LIMITS: readonly (number | undefined)[] = [1, 2, 3, 5, 100, undefined];

/** Limits of a search, below the number of messages a sequence piles up. */
export const SEARCH_LIMITS: readonly number[] = [1, 2, 3];

/** Thresholds of a search: 0 keeps every hit; 0.1 nearly every one. */
export const THRESHOLDS: readonly number[] = [0, 0.1];

/** Feedback scores: inside [0, 1] and outside it (SPEC-V5-5.3.1b). */
export const SCORES: readonly number[] = [0, 0.25, 1, 50, -0.5, 1.5];

/** How many messages a bulk add carries: a few, the cap (100), one past it (101). */
export const BULK_SIZES: readonly number[] = [1, 2, 3, 5, 5, 3, 100, 101];

/** Limits of a read of messages: none, a small one, the clients' page and a large one. */
export const MESSAGE_LIMITS: readonly (number | undefined)[] = [undefined, 2, 100, 1000, 1000];
