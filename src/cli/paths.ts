// Checks of the paths a command will write to or read from, made before anything runs: a report
// directory that turns out unwritable after a 20-minute run, or a /proc path that never answers,
// must be one line at the start instead.
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { TckError } from '../engine/errors.js';

/** Bound on the whole check: a path that does not answer (a FUSE mount, /proc) is refused, not waited on. */
const CHECK_MS = 3_000;

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

/** An errno error in words: "permission denied (EACCES)". */
export function inWords(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code && ERRNO_WORDS[code] ? `${ERRNO_WORDS[code]} (${code})` : err instanceof Error ? err.message : String(err);
}

/** The file system did not answer: the call it hangs in keeps the process alive, so the CLI exits at once after saying so. */
export class FileSystemHangs extends TckError {}

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FileSystemHangs(`${what}: no answer from the file system within ${CHECK_MS / 1000} s`)), CHECK_MS);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** `dir` is (or can be made) a directory this process can write to: creates it, writes and removes a probe file. */
export async function ensureWritableDir(dir: string, flag: string): Promise<void> {
  const path = resolve(dir);
  const what = `${flag} ${dir}`;
  await bounded(
    (async () => {
      try {
        await mkdir(path, { recursive: true });
        if (!(await stat(path)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'EEXIST' });
      } catch (err) {
        throw new TckError(`${what} is not a directory that can be written: ${inWords(err)}`);
      }
      const probe = join(path, `.tck-write-check-${process.pid}`);
      try {
        await writeFile(probe, '');
      } catch (err) {
        throw new TckError(`${what} is not writable: ${inWords(err)}`);
      } finally {
        await rm(probe, { force: true }).catch(() => undefined);
      }
    })(),
    what,
  );
}

/** A file argument that must name a readable file ('' and directories refused in words). */
export async function ensureReadableFile(file: string, what: string): Promise<void> {
  if (file.trim() === '') throw new TckError(`${what}: an empty path names no file`, 'TCK_BAD_FILE');
  await bounded(
    stat(resolve(file)).then(
      (s) => {
        if (s.isDirectory()) throw new TckError(`${what} ${file} is a directory, not a report file`, 'TCK_BAD_FILE');
      },
      (err: unknown) => {
        throw new TckError(`${what} ${file}: ${inWords(err)}`, 'TCK_BAD_FILE');
      },
    ),
    `${what} ${file}`,
  );
}
