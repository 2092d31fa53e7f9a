#!/usr/bin/env node
// Launcher: the CLI is compiled to dist/ by `npm run build` (run by `prepare` on install).
import('../dist/src/cli/main.js').then(
  (cli) => cli.main(process.argv),
  (err) => {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
      process.stderr.write('tck: the kit is not built; run `npm run build` (npm install does it for you)\n');
      process.exit(2);
    }
    throw err;
  },
);
