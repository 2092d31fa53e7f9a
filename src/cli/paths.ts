// Checks of the paths a command will write to or read from, made before anything runs: a report
// directory that turns out unwritable after a 20-minute run, or a /proc path that never answers,
// must be one line at the start instead. Every command checks every path it will write through
// these two functions, under one bound.
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { TckError } from '../engine/errors.js';
import { inWords } from '../util/words.js';

export { inWords };

/** Bound on the whole check: a path that does not answer (a FUSE mount, /proc) is refused, not waited on. */
const CHECK_MS = 3_000;

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

/**
 * Makes `path` and its missing parents one level at a time. Node's own recursive mkdir spins
 * forever under /proc (it keeps retrying a parent the kernel refuses); one level at a time, the
 * first refusal is the answer.
 */
async function makeDirs(path: string): Promise<void> {
  const missing: string[] = [];
  let at = path;
  for (;;) {
    try {
      const s = await stat(at);
      if (!s.isDirectory()) throw Object.assign(new Error(`${at} is a file`), { code: at === path ? 'EEXIST' : 'ENOTDIR' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (at === parse(at).root) throw err;
      missing.unshift(at);
      at = dirname(at);
    }
  }
  for (const dir of missing) {
    try {
      await mkdir(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw Object.assign(new Error(`${dir} cannot be created (${code ?? (err as Error).message})`), { code: 'ECREATE' });
    }
  }
}

/** What makeDirs ran into, in words: "/proc/x cannot be created (ENOENT)", "… exists and is not a directory (EEXIST)". */
const dirProblem = (dir: string, err: unknown) => ((err as NodeJS.ErrnoException).code === 'ECREATE' ? (err as Error).message : `${dir} ${inWords(err)}`);

/** Writes and removes a probe file in `dir` (which exists). */
async function probeWrite(dir: string): Promise<void> {
  const probe = join(dir, `.tck-write-check-${process.pid}`);
  try {
    await writeFile(probe, '');
  } finally {
    await rm(probe, { force: true }).catch(() => undefined);
  }
}

/** `dir` is (or can be made) a directory this process can write to: creates it, writes and removes a probe file. */
export async function ensureWritableDir(dir: string, flag: string): Promise<void> {
  if (dir.trim() === '') throw new TckError(`${flag}: an empty path names no directory`);
  const path = resolve(dir);
  const what = `${flag} ${dir}`;
  await bounded(
    (async () => {
      try {
        await makeDirs(path);
      } catch (err) {
        throw new TckError(`${what} is not a directory that can be written: ${(err as NodeJS.ErrnoException).code === 'ECREATE' ? (err as Error).message : inWords(err)}`);
      }
      try {
        await probeWrite(path);
      } catch (err) {
        throw new TckError(`${what} is not writable: ${inWords(err)}`);
      }
    })(),
    what,
  );
}

/**
 * `file` can be written: its folder is (or can be made) a writable directory and the path itself
 * is not a directory. Nothing is left behind but the folders it made.
 */
export async function ensureWritableFile(file: string, flag: string): Promise<void> {
  if (file.trim() === '') throw new TckError(`${flag}: an empty path names no file`);
  const path = resolve(file);
  const what = `${flag} ${file}`;
  await bounded(
    (async () => {
      try {
        await makeDirs(dirname(path));
      } catch (err) {
        throw new TckError(`${what} cannot be written: its folder ${dirProblem(dirname(path), err)}`);
      }
      const existing = await stat(path).catch(() => undefined);
      if (existing?.isDirectory()) throw new TckError(`${what} cannot be written: it is a directory; name a file (in it, or elsewhere)`);
      try {
        await probeWrite(dirname(path));
      } catch (err) {
        throw new TckError(`${what} cannot be written: its folder ${dirname(path)} is not writable: ${inWords(err)}`);
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
        if (s.isDirectory()) throw new TckError(`${what} ${file} is a directory, not a file`, 'TCK_BAD_FILE');
      },
      (err: unknown) => {
        throw new TckError(`${what} ${file}: ${inWords(err)}`, 'TCK_BAD_FILE');
      },
    ),
    `${what} ${file}`,
  );
}
