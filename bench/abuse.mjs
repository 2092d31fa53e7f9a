// Figures of the kit under abuse, for issue 17 (before/after): each attack runs against a server
// in a child process of its own, on loopback, bounded in count and time; the child's peak RSS is
// read from /proc (VmHWM). Built kit in dist/ (`npm run build` first).
//   node bench/abuse.mjs [pipelining|judge|unknown-ids|entity|refused] …   (default: all)
// Prints one JSON line per measurement. Linux only (/proc).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;

// ------------------------------------------------------------------------------- child: a server
if (process.argv[2] === '--serve') {
  const kind = process.argv[3];
  const bigBytes = Number(process.argv[4] ?? MiB);
  const big = 'x'.repeat(bigBytes);
  if (kind === 'bridge') {
    const { startReferenceServer } = await import('../dist/src/servers/bridge/index.js');
    const server = await startReferenceServer();
    server.store.add_message({ session_id: 'big', role: 'user', content: big });
    server.store.add_message({ session_id: 'small', role: 'user', content: 'hello' });
    process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  } else {
    const { DevIdentityProvider, startHostedServer } = await import('../dist/src/servers/hosted/index.js');
    const server = await startHostedServer({ identityProviders: [(await DevIdentityProvider.generate()).trustedIssuer()] });
    server.store.add_message({ session_id: 'big', role: 'user', content: big });
    server.store.add_message({ session_id: 'small', role: 'user', content: 'hello' });
    const read = await server.keys.issue({ label: 'reader', scopes: ['read'], workspaceId: server.workspaceId });
    process.stdout.write(`${JSON.stringify({ url: server.url, key: read.key, admin: server.apiKey })}\n`);
  }
  process.once('SIGTERM', () => process.exit(0));
  await new Promise(() => {});
}

// ------------------------------------------------------------------------------- parent helpers
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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
async function serve(kind, bigBytes) {
  const child = spawn(process.execPath, ['--max-old-space-size=2048', new URL(import.meta.url).pathname, '--serve', kind, String(bigBytes)], {
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

/** One request on a fresh connection; resolves with [ms, status] (status 0: no answer). */
function timed(url, path, { method = 'POST', body, headers = {}, timeoutMs = 10_000 } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = http.request(new URL(path, url), { method, headers: { 'content-type': 'application/json', ...headers }, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve([performance.now() - started, res.statusCode]));
      res.on('error', () => resolve([performance.now() - started, 0]));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve([performance.now() - started, 0]));
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
