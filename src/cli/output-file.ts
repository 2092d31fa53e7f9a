// Writing a command's output file (its folder made first); a failure is one line and exit 2.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { TckError } from '../engine/errors.js';

/** Writes `text` to `file`; resolves to the absolute path written. */
export async function writeOutputFile(file: string, text: string): Promise<string> {
  const out = resolve(file);
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
  } catch (err) {
    throw new TckError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  return out;
}
