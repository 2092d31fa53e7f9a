#!/usr/bin/env node
// Launcher: the CLI is bundled into dist/bundle/ by `npm run build` (run by `prepare` on install;
// scripts/bundle.mjs says why a bundle).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered here: loading the CLI (commander, the command table) would be most of the cold start.
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  import('../dist/bundle/main.mjs').then(
    (cli) => cli.main(process.argv),
    (err) => {
      if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
        process.stderr.write('tck: the kit is not built; run `npm run build` (npm install does it for you)\n');
        process.exit(2);
      }
      throw err;
    },
  );
}
