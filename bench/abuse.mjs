// Figures of the kit under abuse, for issue 17 (before/after): each attack runs against a server
// in a child process of its own, on loopback, bounded in count and time; the child's peak RSS is
// read from /proc (VmHWM). Built kit in dist/ (`npm run build` first).
//   node bench/abuse.mjs [pipelining|judge|unknown-ids|entity|refused|work|<work attack>] …   (default: all)
// Prints one JSON line per measurement. Linux only (/proc).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;

// ------------------------------------------------------------------------------- child: a server
// ABUSE_DIST: the built kit the server children load (default dist/; a copy of an older build
// measures "before").
const DIST = process.env.ABUSE_DIST ?? new URL('../dist', import.meta.url).pathname;

/** Data a `combined` child holds before the attack (argument 5 of --serve). */
function seedStore(store, seed) {
  const add = (name, description = 'a node') => store.add_entity({ name, entity_type: 'OBJECT', description }).id;
  const graph = (n, edges) => {
    const ids = Array.from({ length: n }, (_, i) => add(`node-${i}`));
    for (let i = 0; i < edges; i++) store.add_relationship({ source_id: ids[i % n], target_id: ids[(i + 1) % n], relationship_type: 'NEXT' });
  };
  if (seed === 'graph6000') graph(6_000, 6_000);
  else if (seed === 'graph2000') graph(2_000, 2_000);
  else if (seed === 'cycle12000') graph(12_000, 12_000);
  else if (seed === 'big60') {
    // 60 entities with 1 MiB descriptions of distinct words
    for (let e = 0; e < 60; e++) add(`big-${e}`, Array.from({ length: 131_072 }, (_, i) => `e${e}w${i}`).join(' ').slice(0, MiB));
  }
}

if (process.argv[2] === '--serve') {
  const kind = process.argv[3];
  const bigBytes = Number(process.argv[4] ?? MiB);
  const big = 'x'.repeat(bigBytes);
  if (kind === 'bridge') {
    const { startReferenceServer } = await import(`${DIST}/src/servers/bridge/index.js`);
    const server = await startReferenceServer();
    server.store.add_message({ session_id: 'big', role: 'user', content: big });
    server.store.add_message({ session_id: 'small', role: 'user', content: 'hello' });
    process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  } else {
    // hosted: the REST service alone; combined: the REST service and the bridge view (`tck serve`) over one store
    const { DevIdentityProvider, startCombinedServers, startHostedServer } = await import(`${DIST}/src/servers/hosted/index.js`);
    const options = { identityProviders: [(await DevIdentityProvider.generate()).trustedIssuer()] };
    const both = kind === 'combined' ? await startCombinedServers(options) : undefined;
    const server = both?.hosted ?? (await startHostedServer(options));
    server.store.add_message({ session_id: 'big', role: 'user', content: big });
    server.store.add_message({ session_id: 'small', role: 'user', content: 'hello' });
    const baseline = process.memoryUsage().rss;
    seedStore(server.store, process.argv[5]);
    const read = await server.keys.issue({ label: 'reader', scopes: ['read'], workspaceId: server.workspaceId });
    process.stdout.write(`${JSON.stringify({ url: server.url, bridgeUrl: both?.bridge.url, key: read.key, admin: server.apiKey, seededRssMiB: Math.round((process.memoryUsage().rss - baseline) / MiB) })}\n`);
  }
  process.once('SIGTERM', () => process.exit(0));
  await new Promise(() => {});
}

// ------------------------------------------------------------------------------- parent helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A sleep that does not keep the process alive (for races against a limit). */
const limit = (ms) => new Promise((r) => setTimeout(r, ms).unref());

function rssOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb('VmRSS') * 1024, peak: kb('VmHWM') * 1024 };
  } catch {
    return undefined;
  }
}

/** Server children still running: stopped if this process is stopped (e.g. by `npm run soak`'s time limit). */
const children = new Set();
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    for (const c of children) c.kill('SIGKILL');
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  });
}

/** Starts `node bench/abuse.mjs --serve kind bytes` and waits for its first JSON line. */
async function serve(kind, bigBytes, seed = '') {
  const child = spawn(process.execPath, ['--max-old-space-size=2048', new URL(import.meta.url).pathname, '--serve', kind, String(bigBytes), seed], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let died;
  const exited = new Promise((r) => child.once('exit', (code, signal) => (children.delete(child), r((died = { code, signal })))));
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    child.once('exit', () => reject(new Error(`${kind} server exited before listening`)));
  });
  child.stderr.resume();
  let peak = 0;
  const sampler = setInterval(() => {
    const r = rssOf(child.pid);
    if (r) peak = Math.max(peak, r.peak, r.rss);
  }, 20);
  return {
    ...info,
    pid: child.pid,
    get died() {
      return died;
    },
    get peak() {
      const r = rssOf(child.pid);
      return Math.max(peak, r?.peak ?? 0);
    },
    async stop() {
      clearInterval(sampler);
      if (died === undefined) child.kill('SIGTERM');
      await Promise.race([exited, sleep(3000)]);
      if (died === undefined) child.kill('SIGKILL');
    },
  };
}

/**
 * One request on a fresh connection; resolves with [ms, status, bytes, head] (status 0: no answer;
 * bytes: the answer's body size; head: its first 160 characters).
 */
function timed(url, path, { method = 'POST', body, headers = {}, timeoutMs = 10_000, keep = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(new URL(path, url), { method, headers: { 'content-type': 'application/json', ...headers }, agent: false, timeout: timeoutMs }, (res) => {
      let bytes = 0;
      let head = '';
      const all = [];
      res.on('data', (d) => {
        bytes += d.length;
        if (keep) all.push(d);
        if (head.length < 160) head += d.toString('utf8', 0, Math.min(d.length, 160));
      });
      res.on('end', () => resolve([performance.now() - started, res.statusCode, bytes, head.slice(0, 160), keep ? Buffer.concat(all).toString() : undefined]));
      res.on('error', () => resolve([performance.now() - started, 0, bytes, head]));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve([performance.now() - started, 0, 0, '']));
    req.end(body);
  });
}

const p99 = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
};
const mb = (bytes) => Math.round(bytes / MiB);
const print = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);

// ------------------------------------------------------------------------------- 1. pipelining
async function pipelining(kind, { connections = 3, requests = 400, bigBytes = 4 * MiB, seconds = 8 } = {}) {
  const server = await serve(kind, bigBytes);
  const { hostname, port } = new URL(server.url);
  const one =
    kind === 'bridge'
      ? `POST /get_conversation HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 20\r\n\r\n{"session_id":"big"}`
      : `GET /v1/conversations/big/messages HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${server.key}\r\n\r\n`;
  const sockets = [];
  for (let i = 0; i < connections; i++) {
    const s = net.connect(Number(port), hostname);
    s.on('error', () => undefined);
    s.once('connect', () => {
      s.pause(); // never read: the kernel's receive buffer fills, then the server's send buffer
      s.write(one.repeat(requests));
    });
    sockets.push(s);
  }
  const latencies = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const [path, opts] =
    kind === 'bridge'
      ? ['/get_conversation', { body: '{"session_id":"small"}' }]
      : ['/v1/conversations/small/messages', { method: 'GET', headers: { authorization: `Bearer ${server.key}` } }];
  while (performance.now() < until && server.died === undefined) {
    const [ms, status] = await timed(server.url, path, { ...opts, timeoutMs: 5000 });
    if (status === 200) latencies.push(ms);
    else failures++;
    await sleep(50);
  }
  const closedByServer = sockets.filter((s) => s.destroyed || s.readableEnded).length;
  if (server.died !== undefined) broken.push(`pipelining ${kind}: the server died (${JSON.stringify(server.died)})`);
  for (const s of sockets) s.destroy();
  const peak = server.peak;
  const died = server.died;
  await server.stop();
  print({
    measure: `pipelining ${kind}`,
    attack: `${connections} connections x ${requests} pipelined reads of a ${mb(bigBytes)} MiB message, never read`,
    peakRssMiB: mb(peak),
    serverDied: died ?? false,
    normalClient: { answered: latencies.length, failed: failures, p99Ms: Math.round(p99(latencies)) },
    attackSocketsClosedByServer: closedByServer,
  });
}

// ------------------------------------------------------------------------------- 2. judging
/** A bridge server (in this process) answering search_messages with `body`; the rest: the reference. */
async function fakeServer(body) {
  const { MemoryStore, createDispatcher } = await import('../dist/src/servers/bridge/index.js');
  const dispatch = createDispatcher(new MemoryStore());
  const server = http.createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', async () => {
      const method = (req.url ?? '/').slice(1);
      if (method === 'search_messages') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
        return;
      }
      const text = Buffer.concat(parts).toString();
      const reply = await dispatch(method, text ? JSON.parse(text) : {});
      if (reply.body === undefined) res.writeHead(reply.status).end();
      else res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

async function judge(variant, { elements = 1_000_000, limitSeconds = 90 } = {}) {
  const element =
    variant === 'invalid'
      ? '{"a":1}'
      : // valid for the model, with one field the model does not know (a note per element)
        '{"id":"00000000-0000-4000-8000-000000000001","role":"user","content":"x","timestamp":"2024-01-01T00:00:00Z","metadata":{},"x":1}';
  const body = Buffer.from(`[${Array(elements).fill(element).join(',')}]`);
  const server = await fakeServer(body);
  const out = mkdtempSync(join(tmpdir(), 'tck-abuse-'));
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/tck.js'), 'run', '--url', server.url, '--scenario', 'SCN-B-055', '--out', out, '--reporter', 'console,json,junit,html,md,badge', '--max-body', String(256 * MiB), '--quiet'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.resume();
  let peak = 0;
  const sampler = setInterval(() => {
    const r = rssOf(child.pid);
    if (r) peak = Math.max(peak, r.peak);
  }, 20);
  const killer = setTimeout(() => child.kill('SIGKILL'), limitSeconds * 1000);
  const [code, signal] = await new Promise((r) => child.once('exit', (c, s) => r([c, s])));
  clearTimeout(killer);
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const reports = readdirSync(out);
  let size = 0;
  for (const f of reports) size += readFileSync(join(out, f)).length;
  rmSync(out, { recursive: true, force: true });
  await server.close();
  print({
    measure: `judge ${variant} ${elements}-element search_messages answer (${mb(body.length)} MiB)`,
    seconds: Number(seconds.toFixed(1)),
    exit: code ?? signal,
    killedAtLimit: signal === 'SIGKILL',
    peakRssMiB: mb(peak),
    reports,
    reportBytes: size,
    stderr: stderr.trim().split('\n').slice(0, 2).join(' | ').slice(0, 200),
  });
}

// ------------------------------------------------------------------------------- 3. unknown ids
async function unknownIds({ reads = 200, idBytes = 4 * MiB } = {}) {
  const server = await serve('bridge', 1);
  const before = rssOf(server.pid)?.rss ?? 0;
  const statuses = {};
  for (let i = 0; i < reads && server.died === undefined; i++) {
    const id = `${i}-`.padEnd(idBytes, 'z');
    const [, status] = await timed(server.url, '/get_conversation', { body: JSON.stringify({ session_id: id }) });
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
  await sleep(200);
  const after = rssOf(server.pid)?.rss ?? 0;
  const peak = server.peak;
  await server.stop();
  print({ measure: `unknown session ids`, attack: `${reads} get_conversation with distinct ${mb(idBytes)} MiB ids`, statuses, rssBeforeMiB: mb(before), rssAfterMiB: mb(after), peakRssMiB: mb(peak) });
}

// ------------------------------------------------------------------------------- 4. large entity
async function entity({ descriptionBytes = Number(process.env.DESC_MIB ?? 15) * MiB, searches = 10 } = {}) {
  const server = await serve('bridge', 1);
  const description = Array.from({ length: Math.ceil(descriptionBytes / 8) }, (_, i) => `w${i % 100000}`).join(' ').slice(0, descriptionBytes);
  const [, added] = await timed(server.url, '/add_entity', { body: JSON.stringify({ name: 'Big', entity_type: 'OBJECT', description }), timeoutMs: 60_000 });
  await timed(server.url, '/add_entity', { body: JSON.stringify({ name: 'Alice', entity_type: 'PERSON', description: 'a person' }) });
  const times = [];
  for (let i = 0; i < searches; i++) {
    const [ms, status] = await timed(server.url, '/search_entities', { body: JSON.stringify({ query: 'alice' }), timeoutMs: 60_000 });
    if (status === 200) times.push(ms);
  }
  const peak = server.peak;
  await server.stop();
  print({ measure: 'search_entities beside one large entity', addEntityStatus: added, descriptionMiB: mb(descriptionBytes), searches: times.length, p99Ms: Math.round(p99(times)), peakRssMiB: mb(peak) });
}

// ------------------------------------------------------------------------------- 5. refused bodies
/** Declares a 1 GiB body, writes as fast as the server reads it; how much did it read, how fast did it answer. */
async function refused(kind, { declared = 1024 * MiB, limitSeconds = 20 } = {}) {
  const server = await serve(kind, 1);
  const { hostname, port } = new URL(server.url);
  const head =
    kind === 'bridge'
      ? `POST /no_such_method HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`
      : `POST /v1/conversations HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${declared}\r\n\r\n`;
  const started = performance.now();
  const result = await new Promise((resolve) => {
    const s = net.connect(Number(port), hostname);
    const chunk = Buffer.alloc(MiB, 'a');
    let written = 0;
    let answerMs;
    let status;
    const done = (how) => {
      clearTimeout(timer);
      s.destroy();
      resolve({ how, writtenMiB: mb(written), answerMs: answerMs === undefined ? null : Math.round(answerMs), status, closeMs: Math.round(performance.now() - started) });
    };
    const timer = setTimeout(() => done('still reading at the time limit'), limitSeconds * 1000);
    s.on('data', (d) => {
      if (answerMs === undefined) {
        answerMs = performance.now() - started;
        status = Number(/^HTTP\/1\.1 (\d+)/.exec(d.toString())?.[1]);
      }
    });
    s.on('error', () => done('closed by server (error)'));
    s.on('close', () => done('closed by server'));
    s.on('connect', () => {
      s.write(head);
      const pump = () => {
        while (written < declared && !s.destroyed) {
          written += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
      };
      pump();
    });
  });
  await server.stop();
  print({ measure: `refused request with a declared 1 GiB body (${kind}: ${kind === 'bridge' ? '404 path' : 'no credential'})`, ...result });
}

// ------------------------------------------------------------------------------- 6. work per request
// Issue 25: small requests that cost a lot of work. Each runs against a `combined` child (the REST
// service and the bridge view over one HostedStore, as `tck serve` runs); while it runs, a small
// request (get_conversation of a one-message session) goes every 100 ms on a fresh connection:
// the longest of those is the time the server was frozen. Peak RSS: the child's VmHWM.

const deep = (levels) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const wideObject = (keys) => `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i % 10}`).join(',')}}`;

const returning = (item, times) => JSON.stringify({ cypher: `MATCH (a) RETURN ${Array(times).fill(item).join(',')}` });

/**
 * The attacks: name, the data the server holds (seedStore), what is sent, the request bodies
 * (built before the measurement, so that building them does not stall this process's probes) and
 * the requests, resolving to [ms, status, bytes, head] per answer.
 */
const WORK = [
  {
    name: 'cypher-return-nodes', seed: 'graph6000', what: 'cypher_query MATCH (a) RETURN a,a,… x1000 (2 KB) over 6 000 entities, bridge',
    bodies: () => ({ q: returning('a', 1_000) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/cypher_query', { body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'cypher-return-props', seed: 'graph2000', what: 'cypher_query MATCH (a) RETURN a.name x300 000 (2.1 MB) over 2 000 entities, bridge',
    bodies: () => ({ q: returning('a.name', 300_000) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/cypher_query', { body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'cypher-read-key', seed: 'graph2000', what: 'POST /v1/query MATCH (a) RETURN a.name x4 000 (28 KB) with a read-only key',
    bodies: () => ({ q: returning('a.name', 4_000) }),
    run: (s, b) => Promise.all([timed(s.url, '/v1/query', { headers: { authorization: `Bearer ${s.key}` }, body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'cypher-within-bounds', seed: 'graph2000', what: 'cypher_query MATCH (a) RETURN a.name x50 over 2 000 entities (100 000 values: the most the bounds accept)',
    bodies: () => ({ q: returning('a.name', 50) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/cypher_query', { body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'cypher-quotes', seed: '', what: "cypher_query of a 2 MB text '\\'\\'\\'… (a quote no quote closes), bridge",
    bodies: () => ({ q: Buffer.from(JSON.stringify({ cypher: `'${"\\'".repeat(1_000_000)}` })) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/cypher_query', { body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'deep-exchange', seed: '', what: '/v1/auth/exchange, no credential, a 16 MB body nested 8e6 deep',
    bodies: () => ({ deep: Buffer.from(`{"a":${deep(8e6 - 1)}}`) }),
    run: (s, b) => Promise.all([timed(s.url, '/v1/auth/exchange', { body: b.deep, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'deep-exchange-x6', seed: '', what: '6 of those at once',
    bodies: () => ({ deep: Buffer.from(`{"a":${deep(8e6 - 1)}}`) }),
    run: (s, b) => Promise.all(Array.from({ length: 6 }, () => timed(s.url, '/v1/auth/exchange', { body: b.deep, timeoutMs: LIMIT_MS }))),
  },
  {
    name: 'deep-unknown-key', seed: '', what: 'bridge get_conversation, a 10 MB body nested 5e6 deep under an unknown key',
    bodies: () => ({ deep: Buffer.from(`{"session_id":"s","x":${deep(5e6)}}`) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/get_conversation', { body: b.deep, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'wide-add-message', seed: '', what: 'bridge add_message with metadata of 1e6 keys (9 MB), then get_conversation of it',
    bodies: () => ({ wide: Buffer.from(`{"session_id":"wide","role":"user","content":"x","metadata":${wideObject(1e6)}}`) }),
    run: async (s, b) => [
      await timed(s.bridgeUrl, '/add_message', { body: b.wide, timeoutMs: LIMIT_MS }),
      await timed(s.bridgeUrl, '/get_conversation', { body: '{"session_id":"wide"}', timeoutMs: LIMIT_MS }),
    ],
  },
  {
    name: 'wide-within-bounds', seed: '', what: 'bridge add_message with metadata of 49 990 keys (0.5 MB: within the value cap), then get_conversation of it',
    bodies: () => ({ wide: Buffer.from(`{"session_id":"wide","role":"user","content":"x","metadata":${wideObject(49_990)}}`) }),
    run: async (s, b) => [
      await timed(s.bridgeUrl, '/add_message', { body: b.wide, timeoutMs: LIMIT_MS }),
      await timed(s.bridgeUrl, '/get_conversation', { body: '{"session_id":"wide"}', timeoutMs: LIMIT_MS }),
    ],
  },
  {
    name: 'wide-hosted', seed: '', what: 'REST add_message with metadata of 1e6 keys, with the key; then /v1/auth/exchange with it and no credential',
    bodies: () => ({
      message: Buffer.from(`{"role":"user","content":"x","metadata":${wideObject(1e6)}}`),
      exchange: Buffer.from(`{"subjectToken":"x","metadata":${wideObject(1e6)}}`),
    }),
    run: async (s, b) => [
      await timed(s.url, '/v1/conversations/wide/messages', { headers: { authorization: `Bearer ${s.admin}` }, body: b.message, timeoutMs: LIMIT_MS }),
      await timed(s.url, '/v1/auth/exchange', { body: b.exchange, timeoutMs: LIMIT_MS }),
    ],
  },
  {
    name: 'search-huge-query', seed: 'big60', what: 'bridge search_entities with a 15 MiB query over 60 entities of 1 MiB descriptions',
    bodies: () => ({ q: Buffer.from(JSON.stringify({ query: Array.from({ length: (15 * MiB) / 8 }, (_, i) => `q${i}`).join(' ').slice(0, 15 * MiB - 100) })) }),
    run: (s, b) => Promise.all([timed(s.bridgeUrl, '/search_entities', { body: b.q, timeoutMs: LIMIT_MS })]),
  },
  {
    name: 'related-cycle', seed: 'cycle12000', what: 'bridge get_related_entities depth 2^31 on a 12 000-entity cycle',
    bodies: () => ({}),
    run: async (s) => {
      const id = JSON.parse((await timed(s.bridgeUrl, '/get_entity_by_name', { body: '{"name":"node-0"}', keep: true }))[4]).id;
      return Promise.all([timed(s.bridgeUrl, '/get_related_entities', { body: JSON.stringify({ entity_id: id, depth: 2 ** 31 }), timeoutMs: LIMIT_MS })]);
    },
  },
  {
    name: 'related-cycle-within-bounds', seed: 'cycle12000', what: 'bridge get_related_entities depth 1 000 (the most the bound accepts) on a 12 000-entity cycle',
    bodies: () => ({}),
    run: async (s) => {
      const id = JSON.parse((await timed(s.bridgeUrl, '/get_entity_by_name', { body: '{"name":"node-0"}', keep: true }))[4]).id;
      return Promise.all([timed(s.bridgeUrl, '/get_related_entities', { body: JSON.stringify({ entity_id: id, depth: 1_000 }), timeoutMs: LIMIT_MS })]);
    },
  },
];
const LIMIT_MS = Number(process.env.ABUSE_LIMIT_S ?? 120) * 1000;

async function work({ name, seed, what, bodies, run }) {
  const prepared = bodies();
  const server = await serve('combined', 1, seed);
  const probe = () => timed(server.bridgeUrl, '/get_conversation', { body: '{"session_id":"small"}', timeoutMs: LIMIT_MS });
  const probes = [];
  let attacking = true;
  const loop = (async () => {
    while (attacking && server.died === undefined) {
      probes.push(await probe());
      await sleep(100);
    }
  })();
  await sleep(300);
  const idle = probes.length;
  const started = performance.now();
  const answers = await Promise.race([run(server, prepared).catch((err) => [[0, 0, 0, String(err)]]), limit(LIMIT_MS).then(() => undefined)]);
  const attackMs = performance.now() - started;
  attacking = false;
  if (answers !== undefined) await Promise.race([loop, limit(LIMIT_MS)]);
  const peak = server.peak;
  const died = server.died;
  await server.stop();
  const frozen = Math.max(0, ...probes.slice(idle).map(([ms]) => ms));
  // What a small request took before the attack began: the machine's own latency, for scale.
  const idleMs = Math.max(0, ...probes.slice(0, idle).map(([ms]) => ms));
  // What the soak holds the servers to: every attack answered, none with a 5xx, the server alive.
  if (answers === undefined) broken.push(`work ${name}: no answer within ${LIMIT_MS / 1000} s`);
  else for (const [, status, , head] of answers) if (status === 0 || status >= 500) broken.push(`work ${name}: answered ${status || 'nothing'} ${head}`);
  if (died !== undefined) broken.push(`work ${name}: the server died (${JSON.stringify(died)})`);
  print({
    measure: `work ${name}`,
    attack: what,
    load: loadavg()[0],
    answers: answers === undefined ? `none within ${LIMIT_MS / 1000} s` : answers.map(([ms, status, bytes, head]) => ({ status, ms: Math.round(ms), bytes, head: status >= 400 ? head : undefined })),
    attackMs: Math.round(attackMs),
    frozenMs: Math.round(frozen),
    idleMs: Math.round(idleMs),
    probes: probes.length,
    probesFailed: probes.filter(([, status]) => status !== 200).length,
    peakRssMiB: mb(peak),
    seededRssMiB: server.seededRssMiB,
    serverDied: died ?? false,
  });
}

/** Broken rules (bench/soak.mjs runs this file and fails on a non-zero exit). */
const broken = [];

const which = process.argv.slice(2);
const want = (name) => which.length === 0 || which.includes(name);
if (want('pipelining')) {
  await pipelining('bridge');
  await pipelining('hosted');
}
if (want('judge')) {
  await judge('invalid');
  await judge('valid');
}
if (want('unknown-ids')) await unknownIds();
if (want('entity')) await entity();
if (want('refused')) {
  await refused('bridge');
  await refused('hosted');
}
for (const attack of WORK) {
  if (want('work') || want(attack.name)) await work(attack);
}
if (broken.length > 0) {
  process.stderr.write(`${broken.join('\n')}\n`);
  process.exit(1);
}
