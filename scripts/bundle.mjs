#!/usr/bin/env node
// The second half of `npm run build`: the CLI bundled into dist/bundle/ with esbuild, which
// bin/tck.js runs. Why: a cold `tck run` spent about half of its CPU before the first request
// resolving, reading and compiling some 600 modules of dist/ and node_modules/
// (docs/performance.md); a bundle is a handful of files. `--splitting` keeps each command's modules in
// chunks of their own, so `tck run` still loads only what a run needs (the explorer, the hosted
// service, the certifier stay unread). dist/src/ (tsc's output) remains the library the package
// exports and what the bench imports.
//
// The bundle sits two levels below the package root, as dist/src/<folder>/ sits three: files
// the kit reads beside itself (package.json, suites/) are looked up at both depths.
//
// `node scripts/bundle.mjs --esbuild DIR` takes esbuild from DIR (a package folder) instead of the
// kit's node_modules: the GitHub Action installs the kit with `--omit=dev`, where esbuild (a
// development dependency) is absent, and builds with one it installs in a scratch folder.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles src/cli/main.ts of the checkout at `root` into `root`/dist/bundle/ (esbuild from `esbuildDir` when given). */
export async function bundle(root, esbuildDir) {
  const { build } = esbuildDir === undefined ? await import('esbuild') : createRequire(import.meta.url)(resolve(esbuildDir));
  const outdir = join(root, 'dist', 'bundle');
  rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/cli/main.ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    // CommonJS packages (undici, commander's helpers) call require() for Node's built-ins; an ES
    // module has none, so the bundle makes one.
    banner: { js: "import { createRequire as __tckCreateRequire } from 'node:module'; const require = __tckCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--esbuild');
  await bundle(fileURLToPath(new URL('..', import.meta.url)), at > 0 ? process.argv[at + 1] : undefined);
}
