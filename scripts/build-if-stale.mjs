#!/usr/bin/env node
// The `prepare` step: compile the kit to dist/ (tsc, then the CLI bundle of scripts/bundle.mjs)
// unless it is already up to date.
//
// Why not always compile: npm runs `prepare` not only on `npm install` but also when `npx tck` is
// run inside a checkout of the kit — npm's exec installs a package whose own bin matches the
// command into its npx cache (as a link to the checkout) and runs its `prepare` there. A full
// TypeScript build each time made the first `npx tck` after `npm install` take 17 s; with this
// check it takes about as long as any later one (docs/ci.md, "Installing it in your project").
//
// Up to date: dist/.build-stamp and dist/bundle/main.mjs exist and the stamp is newer than every
// file the build reads (src/, suites/, fixtures/, the tsconfig files, scripts/bundle.mjs). The stamp is dated when a build starts, so a file
// changed during a build makes the next prepare build again.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle } from './bundle.mjs';

const INPUTS = ['src', 'suites', 'fixtures', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle.mjs'];
const STAMP = join('dist', '.build-stamp');

/** The newest modification time (ms) among `paths` under `root`, directories walked. */
function newestInput(root) {
  let newest = 0;
  for (const p of INPUTS) {
    const path = join(root, p);
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    const files = st.isDirectory()
      ? readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath ?? e.path, e.name))
      : [path];
    for (const f of files) newest = Math.max(newest, statSync(f).mtimeMs);
  }
  return newest;
}

/** Whether dist/ under `root` must be built again. */
export function isStale(root) {
  let stamp;
  try {
    stamp = statSync(join(root, STAMP)).mtimeMs;
  } catch {
    return true;
  }
  // A checkout built before the CLI was bundled has a stamp and no bundle.
  if (!existsSync(join(root, 'dist', 'bundle', 'main.mjs'))) return true;
  return newestInput(root) > stamp;
}

async function build(root) {
  const started = new Date();
  const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  await bundle(root);
  const stamp = join(root, STAMP);
  writeFileSync(stamp, 'dist/ was built from the sources older than this file (scripts/build-if-stale.mjs)\n');
  utimesSync(stamp, started, started);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (isStale(root)) await build(root);
  else process.stdout.write('dist/ is up to date (scripts/build-if-stale.mjs)\n');
}
