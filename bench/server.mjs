// A reference server in a process of its own, for the bench: the kit's reference server (the
// parts of startReferenceServer, as `tck serve` runs it) with counting ids, so that a recorded
// request sequence replays to the same answers. Prints {"url","pid"} as one JSON line. SIGUSR2
// resets it to fresh (store cleared, ids from the start) and prints "reset"; SIGTERM stops it.
//   node bench/server.mjs [--latency MS] [--resident N] [--hosted]
import { startServer } from './lib.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? 0 : Number(process.argv[i + 1]);
};
const server = await startServer({ latencyMs: arg('--latency'), resident: arg('--resident'), hosted: process.argv.includes('--hosted') });
process.on('SIGUSR2', () => {
  server.reset();
  process.stdout.write('reset\n');
});
process.once('SIGTERM', () => server.close().then(() => process.exit(0)));
// Last: whoever reads the URL may signal at once.
process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid })}\n`);
