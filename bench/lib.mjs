// Building blocks of the benchmark (bench/run.mjs): servers, a recorded Gold run, the bare replay
// loop, statistics. Plain ESM over the built kit in dist/ (`npm run build` first).
import { Client } from 'undici';
import { runTck } from '../dist/src/run/run.js';
import { MemoryStore, createDispatcher, startBridgeServer } from '../dist/src/servers/bridge/index.js';
import { HostedStore } from '../dist/src/servers/hosted/store.js';

/**
 * A UUID factory counting from 1: a fresh server hands out the same ids for the same request
 * sequence, so a recorded run replays to the same answers (with random ids every request naming
 * an id from the recording would be a 400 in the replay). `rewind()` restarts it from where
 * `mark()` was called.
 */
export function countingIds() {
  let n = 0;
  let marked = 0;
  const next = () => {
    n++;
    return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  };
  next.mark = () => {
    marked = n;
  };
  next.rewind = () => {
    n = marked;
  };
  return next;
}

/**
 * A MemoryStore holding `resident` messages that survive clear_all_data, so that the server really
 * holds that much data during every scenario (a plain preload would be gone at the first
 * clear_all_data, before the first scenario). The resident messages live in sessions of 100 under
 * ids no scenario uses, and their words are ones no scenario searches for; they are visible to
 * list_sessions and are scanned by every search_messages without a session_id.
 */
export class ResidentStore extends MemoryStore {
  #resident = new Set();

  constructor(resident, options) {
    super(options);
    for (let i = 0; i < resident; i++) {
      const session_id = `bench-resident-${Math.floor(i / 100)}`;
      this.add_message({ session_id, role: i % 2 === 0 ? 'user' : 'assistant', content: `zq${i % 4999} benchfill xv${i % 97}` });
      this.#resident.add(session_id);
    }
  }

  /** Everything but the resident sessions is cleared, in time proportional to the rest. */
  clear_all_data(params) {
    const sessions = this.sessions;
    const messages = this.messages;
    this.sessions = new Map();
    this.messages = new Map();
    super.clear_all_data(params);
    for (const [id, session] of sessions) {
      if (this.#resident.has(id)) continue;
      for (const rec of session.messages) messages.delete(rec.message.id);
      sessions.delete(id);
    }
    this.sessions = sessions;
    this.messages = messages;
  }
}

/**
 * Starts a reference server (startReferenceServer's parts: MemoryStore, createDispatcher,
 * startBridgeServer) with counting ids, optional resident data and optional latency added to
 * every response. `reset()` makes it as good as fresh: store cleared, ids counting from the start.
 */
export async function startServer({ latencyMs = 0, resident = 0, hosted = false } = {}) {
  const newId = countingIds();
  // hosted: the store `tck serve` serves (HostedStore, with the optional Platinum methods).
  const store = hosted ? new HostedStore({ newId }) : resident > 0 ? new ResidentStore(resident, { newId }) : new MemoryStore({ newId });
  newId.mark();
  const dispatch = createDispatcher(store);
  const delayed =
    latencyMs > 0
      ? (method, body) => new Promise((resolve) => setTimeout(() => resolve(dispatch(method, body)), latencyMs))
      : dispatch;
  const server = await startBridgeServer(delayed, { port: 0 });
  return {
    ...server,
    reset() {
      store.clear_all_data({});
      newId.rewind();
    },
  };
}

/**
 * One full Gold run (every tier) against `url`, the request sequence recorded by the client's
 * onExchange hook. Resolves to { ms, requests, achieved, passed, sequence }.
 */
export async function recordedRun(url, options = {}) {
  const sequence = [];
  const t0 = performance.now();
  const report = await runTck({
    url,
    onExchange: (ex) => sequence.push({ path: new URL(ex.url).pathname, body: JSON.stringify(ex.requestBody), status: ex.status }),
    ...options,
  });
  const ms = performance.now() - t0;
  const passed = report.scenarios.filter((s) => s.outcome === 'passed').length;
  return { ms, requests: sequence.length, achieved: report.achieved, passed, scenarios: report.scenarios.length, sequence };
}

/** A Gold run without recording (the run as a user has it). Resolves to { ms, achieved }. */
export async function plainRun(url) {
  const t0 = performance.now();
  const report = await runTck({ url });
  return { ms: performance.now() - t0, achieved: report.achieved };
}

const HEADERS = { 'content-type': 'application/json' };

/**
 * The floor: the recorded requests sent one after another by a bare loop over one undici
 * keep-alive connection, each response body read whole and nothing else done with it.
 * Resolves to { ms, statuses }.
 */
export async function replay(url, sequence) {
  const client = new Client(url, { pipelining: 1 });
  const statuses = new Array(sequence.length);
  try {
    const t0 = performance.now();
    for (let i = 0; i < sequence.length; i++) {
      const { path, body } = sequence[i];
      const res = await client.request({ path, method: 'POST', headers: HEADERS, body });
      await res.body.text();
      statuses[i] = res.statusCode;
    }
    return { ms: performance.now() - t0, statuses };
  } finally {
    await client.close();
  }
}

/** Indices where the replay's statuses differ from the recording's. */
export function statusMismatches(sequence, statuses) {
  const out = [];
  for (let i = 0; i < sequence.length; i++) if (sequence[i].status !== statuses[i]) out.push(i);
  return out;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Starts a server process (`node <args>`) that prints its URL on stdout: bench/server.mjs (one
 * JSON line) or `tck serve` ("… listening on URL"). Resolves to { url, pid, reset(), close(),
 * peakRssKb() }; reset() works for bench/server.mjs only.
 */
export async function spawnServer(args) {
  const { spawn } = await import('node:child_process');
  const { createInterface } = await import('node:readline');
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()?.resolve(line));
  child.once('exit', (code, signal) => {
    for (const w of waiting.splice(0)) w.reject(new Error(`${args.join(' ')} exited (${signal ?? code})`));
  });
  const nextLine = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  const first = await nextLine();
  const url = first.startsWith('{') ? JSON.parse(first).url : /listening on (\S+)/.exec(first)?.[1];
  if (!url) throw new Error(`no URL from ${args.join(' ')}: ${first}`);
  return {
    url,
    pid: child.pid,
    async reset() {
      const ack = nextLine();
      child.kill('SIGUSR2');
      if ((await ack) !== 'reset') throw new Error('the bench server did not reset');
    },
    peakRssKb: () => peakRssKb(child.pid),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Peak resident set size of a process in KiB (Linux /proc), or null where that is not available. */
export async function peakRssKb(pid) {
  try {
    const { readFile } = await import('node:fs/promises');
    const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
