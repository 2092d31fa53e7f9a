// `npm run mutation`: every Stryker config of the kit in turn (stryker.config.mjs, the bridge
// reference; stryker.<part>.config.mjs, the others), each with its own report under
// reports/mutation/. Stops at the first run that fails to complete.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const configs = readdirSync('.').filter((f) => /^stryker(\.[\w-]+)?\.config\.mjs$/.test(f)).sort();
for (const config of configs) {
  process.stdout.write(`\n== npx stryker run ${config}\n`);
  const run = spawnSync('npx', ['stryker', 'run', config], { stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}
