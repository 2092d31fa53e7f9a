// Writing a command's output file, whose path ensureWritableFile (paths.ts) checked before the
// command did its work; a failure is still one line and exit 2.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TckError } from '../engine/errors.js';
import { inWords } from '../util/words.js';

/** Writes `text` to `file`; resolves to the absolute path written. */
export async function writeOutputFile(file: string, text: string): Promise<string> {
  const out = resolve(file);
  try {
    await writeFile(out, text);
  } catch (err) {
    throw new TckError(`cannot write ${out}: ${inWords(err)}`);
  }
  return out;
}
