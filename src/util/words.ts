// Words for what a person typed or what the system said: errno codes in plain words, the nearest
// of a list of known names ("did you mean …"), and text cut without splitting a character.

const ERRNO_WORDS: Record<string, string> = {
  ENOENT: 'does not exist',
  EEXIST: 'exists and is not a directory',
  ENOTDIR: 'a part of it is a file, not a directory',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'is a directory',
  ENOSPC: 'no space left on the device',
};

/** An errno error in words: "permission denied (EACCES)"; any other error, its message. */
export function inWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && ERRNO_WORDS[code] ? `${ERRNO_WORDS[code]} (${code})` : err instanceof Error ? err.message : String(err);
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name nearest to `word` (case ignored) when it is near enough to be a slip — at most
 * two edits, or half the word — else undefined.
 */
export function nearest(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const best = known.map((k) => ({ k, d: distance(w, k.toLowerCase()) })).sort((a, b) => a.d - b.d)[0];
  return best && best.d <= Math.max(2, Math.floor(word.length / 2)) ? best.k : undefined;
}

/** " (did you mean 'x'?)" for the nearest known name, or "". */
export function didYouMean(word: string, known: readonly string[]): string {
  const near = nearest(word, known);
  return near === undefined || near === word ? '' : ` (did you mean '${near}'?)`;
}

/**
 * The first `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair (an
 * emoji, a rare CJK character): a cut text never ends in half a character.
 */
export function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** Characters a person cannot see in a terminal or an editor, by name. */
const INVISIBLE: Record<string, string> = {
  '\u0000': 'a NUL character (U+0000)',
  '\u00a0': 'a non-breaking space (U+00A0)',
  '\u00ad': 'a soft hyphen (U+00AD)',
  '\u200b': 'a zero-width space (U+200B)',
  '\u200c': 'a zero-width non-joiner (U+200C)',
  '\u200d': 'a zero-width joiner (U+200D)',
  '\u2028': 'a line separator (U+2028)',
  '\u2029': 'a paragraph separator (U+2029)',
  '\u202f': 'a narrow non-breaking space (U+202F)',
  '\u2060': 'a word joiner (U+2060)',
  '\ufeff': 'a byte-order mark (U+FEFF)',
};
// eslint-disable-next-line no-control-regex
const INVISIBLE_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u00a0\u00ad\u200b-\u200d\u2028\u2029\u202f\u2060\ufeff]/g;

/** The name of an invisible character: "a byte-order mark (U+FEFF)", "a control character (U+001B)". */
function invisibleName(ch: string): string {
  return INVISIBLE[ch] ?? `a control character (U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
}

/** The invisible characters of `text` (NUL, BOM, no-break and zero-width spaces, controls but tab and line ends), in order, each once. */
export function invisiblesIn(text: string): { name: string; char: string; first: number }[] {
  const found = new Map<string, number>();
  for (const m of text.matchAll(INVISIBLE_CHARS)) if (!found.has(m[0])) found.set(m[0], m.index);
  return [...found].map(([char, first]) => ({ name: invisibleName(char), char, first }));
}

/** The text with every invisible character written as its \uXXXX escape, so it shows. */
export function showInvisibles(text: string): string {
  return text.replace(INVISIBLE_CHARS, (ch) => `\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}
