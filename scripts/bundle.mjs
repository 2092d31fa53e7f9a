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
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Bundles src/cli/main.ts of the checkout at `root` into `root`/dist/bundle/. */
export async function bundle(root) {
  const { build } = await import('esbuild');
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
  await bundle(fileURLToPath(new URL('..', import.meta.url)));
}
