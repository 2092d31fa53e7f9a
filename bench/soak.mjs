// `npm run soak`: the long versions of the reliability tests (test/reliability/), on loopback,
// bounded in count and in time, deterministic by seed. Over the built kit (dist/).
//   node bench/soak.mjs [--seed N] [--requests N] [--seconds N] [--writes N] [--abuse a,b,…]
// 1. seeded fuzz of the servers (the bridge reference over MemoryStore and over HostedStore, as
//    `tck serve` runs it, and the hosted REST service): every answer < 500, except a 501 for a
//    Platinum method the served store does not have (the protocol's "not implemented"; a 500 is
//    still a failure), a JSON {error} for every refusal, no prototype pollution; 2. 16 concurrent
//    writers x --writes writes (default 1 000), nothing lost; 3. the attacks of bench/abuse.mjs
//    (pipelining, refused bodies, unknown ids, a large entity, a large answer, the work of one
//    request), all of them or those --abuse names. Exits 1 on the first broken rule.
// test/reliability/soak.test.ts runs a short one in `npm test`, so that this cannot rot.
import { spawnSync } from 'node:child_process';
import { body, seeded } from './fuzz.mjs';
import { startReferenceServer } from '../dist/src/servers/bridge/index.js';
import { DevIdentityProvider, HostedStore, ROUTES, startHostedServer } from '../dist/src/servers/hosted/index.js';
import { METHODS, METHOD_NAMES } from '../dist/src/protocols/bridge/index.js';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const SEED = arg('--seed', 17);
const REQUESTS = arg('--requests', 20_000);
const WRITES = arg('--writes', 1_000);
const abuseAt = process.argv.indexOf('--abuse');
const ABUSE = abuseAt < 0 ? [] : process.argv[abuseAt + 1].split(',');
const deadline = performance.now() + arg('--seconds', 600) * 1000;
const timeLeft = () => performance.now() < deadline;
const fail = (what) => {
  process.stderr.write(`soak: ${what}\n`);
  process.exit(1);
};
const log = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

/** `store`: the store served (MemoryStore leaves the Platinum methods out; HostedStore has them all). */
async function fuzzBridge(name, store) {
  const server = await startReferenceServer(store === undefined ? {} : { store });
  const random = seeded(SEED);
  const methods = METHOD_NAMES.filter((m) => m !== 'clear_all_data');
  // A method the served store does not have answers 501, "not implemented": the protocol's answer, not a crash.
  const absent = (method) => METHODS[method]?.tier === 'platinum' && typeof server.store[method] !== 'function';
  let n = 0;
  const statuses = {};
  try {
    for (; n < REQUESTS && timeLeft(); n++) {
      if (n % 2_000 === 1_999) server.store.clear_all_data({}); // keep the store small
      const method = random() < 0.95 ? methods[Math.floor(random() * methods.length)] : `no_${n}`;
      const r = await fetch(`${server.url}/${method}`, { method: 'POST', body: body(random) });
      const text = await r.text();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status >= 500 && !(r.status === 501 && absent(method))) fail(`${name} ${method} #${n} answered ${r.status}: ${text.slice(0, 200)}`);
      if (r.status === 501 && !absent(method)) fail(`${name} ${method} #${n} answered 501, though the store implements it`);
      if (r.status >= 400 && typeof JSON.parse(text).error !== 'string') fail(`${name} ${method} #${n}: ${r.status} without {"error"}`);
    }
  } finally {
    await server.close();
  }
  if (Object.keys(Object.prototype).length > 0) fail('Object.prototype was polluted');
  log({ soak: `fuzz ${name}`, seed: SEED, requests: n, statuses });
}

async function fuzzHosted() {
  // An identity provider in memory: nothing is written under the home directory.
  const server = await startHostedServer({ identityProviders: [(await DevIdentityProvider.generate()).trustedIssuer()] });
  const random = seeded(SEED + 1);
  const ids = ['00000000-0000-4000-8000-000000000001', 'x', '%2e%2e', 'graph'];
  let n = 0;
  const statuses = {};
  try {
    for (; n < REQUESTS && timeLeft(); n++) {
      const route = ROUTES[Math.floor(random() * ROUTES.length)];
      if (route.operation === 'revoke_api_key') continue;
      const path = route.path.replace(/:\w+/g, () => ids[Math.floor(random() * ids.length)]);
      const r = await fetch(`${server.baseUrl}${path}`, {
        method: route.method,
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        ...(route.method === 'POST' || route.method === 'PUT' ? { body: body(random) } : {}),
      });
      const text = await r.text();
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status >= 500) fail(`hosted ${route.method} ${path} #${n} answered ${r.status}: ${text.slice(0, 200)}`);
    }
  } finally {
    await server.close();
  }
  if (Object.keys(Object.prototype).length > 0) fail('Object.prototype was polluted');
  log({ soak: 'fuzz hosted', seed: SEED + 1, requests: n, statuses });
}

async function concurrency(clients = 16, writes = WRITES) {
  const server = await startReferenceServer();
  try {
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        for (let i = 0; i < writes && timeLeft(); i++) {
          const r = await fetch(`${server.url}/add_message`, { method: 'POST', body: JSON.stringify({ session_id: `c${c % 4}`, role: 'user', content: `client ${c} message ${i}` }) });
          await r.arrayBuffer();
          if (r.status !== 200) fail(`concurrent add_message answered ${r.status}`);
        }
      }),
    );
    const kept = server.store.snapshot().sessions.reduce((a, s) => a + s.messages.length, 0);
    log({ soak: 'concurrency', clients, writes, kept });
    if (timeLeft() && kept !== clients * writes) fail(`${clients * writes - kept} writes lost`);
  } finally {
    await server.close();
  }
}

await fuzzBridge('bridge', undefined);
await fuzzBridge('bridge over HostedStore', new HostedStore());
await fuzzHosted();
await concurrency();
if (timeLeft()) {
  const r = spawnSync(process.execPath, [new URL('./abuse.mjs', import.meta.url).pathname, ...ABUSE], { stdio: 'inherit', timeout: Math.max(1, Math.round(deadline - performance.now())) });
  // 143: stopped at the time limit, which is not a failure.
  if (r.status !== 0 && r.status !== 143 && r.signal !== 'SIGTERM') fail(`bench/abuse.mjs exited ${r.status ?? r.signal}`);
}
