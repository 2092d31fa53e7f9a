// Misbehaving conformance servers: the reference implementation behind a raw node:http front
// whose faults can hang, dribble, lie, cut, reset, die or come back, one method at a time.
// Always on 127.0.0.1 and port 0 (a restart reuses the port it got); every loop and timer is
// bounded and ends with the server; `cleanUp()` in afterEach stops whatever a test started.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { MemoryStore, createDispatcher, type BridgeResponse } from '../../src/servers/bridge/index.js';
import { ReportSchema, type Report } from '../../src/report/model.js';

interface Call {
  /** The bridge method (the path without its slash). */
  method: string;
  /** 1 for the first request the server received. */
  n: number;
  body: unknown;
  req: http.IncomingMessage;
  res: http.ServerResponse;
  server: Hostile;
  /** What the reference implementation answers to this request (to send it altered). */
  reference(): Promise<BridgeResponse>;
}

/** Handles a request itself (returns true) or lets the reference implementation answer it. */
export type Fault = (call: Call) => boolean;

export interface Hostile {
  url: string;
  port: number;
  /** Requests received so far. */
  readonly requests: number;
  /** Methods of the requests received, in order. */
  readonly methods: string[];
  /** Stops listening and drops every connection: from now on connections are refused. */
  kill(): Promise<void>;
  /** Listens again on the same port (same store). */
  restart(): Promise<void>;
  /** A timer that dies with the server. */
  later(ms: number, fn: () => void): void;
  /** Calls `fn` every `ms` at most `times` times, while the server lives. */
  every(ms: number, times: number, fn: () => void): void;
  close(): Promise<void>;
}

const open = new Set<Hostile>();
const dirs = new Set<string>();

/** Closes every server still open and removes every directory made by outDir (use in afterEach). */
export async function cleanUp(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.all(all.map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

export async function hostile(fault: Fault = () => false): Promise<Hostile> {
  const dispatch = createDispatcher(new MemoryStore());
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const methods: string[] = [];
  let closed = false;
  let requests = 0;
  let port = 0;

  const server = http.createServer({ keepAlive: true }, (req, res) => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const method = (req.url ?? '/').slice(1);
      let body: unknown = {};
      try {
        const text = Buffer.concat(parts).toString('utf8');
        body = text === '' ? {} : JSON.parse(text);
      } catch {
        /* the kit always sends JSON */
      }
      methods.push(method);
      const reference = () => Promise.resolve(dispatch(method, body as Record<string, unknown>));
      if (fault({ method, n: ++requests, body, req, res, server: self, reference })) return;
      void reference().then((reply) => {
        if (res.destroyed || res.headersSent) return;
        if (reply.status === 204 || reply.body === undefined) {
          res.writeHead(reply.status).end();
          return;
        }
        const text = JSON.stringify(reply.body);
        res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
      });
    });
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  server.on('error', () => undefined);

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const kill = async () => {
    for (const s of sockets) s.destroy();
    if (server.listening) await new Promise<void>((r) => server.close(() => r()));
  };

  const self: Hostile = {
    url: '',
    port: 0,
    get requests() {
      return requests;
    },
    methods,
    kill,
    restart: () => (closed ? Promise.resolve() : listen()),
    later(ms, fn) {
      if (closed) return;
      const t = setTimeout(() => {
        timers.delete(t);
        if (!closed) fn();
      }, ms);
      timers.add(t);
    },
    every(ms, times, fn) {
      let left = times;
      const tick = () => {
        if (left-- <= 0) return;
        fn();
        self.later(ms, tick);
      };
      self.later(ms, tick);
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await kill();
    },
  };
  await listen();
  self.port = port;
  self.url = `http://127.0.0.1:${port}`;
  open.add(self);
  return self;
}

/** Writes `total` bytes of `fill` in 64 KiB chunks, minding backpressure, while the client reads. */
export function stream(res: http.ServerResponse, total: number, fill = 'x'): void {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

// ---------------------------------------------------------------------------------------------
// Driving the real CLI.

const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;

interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole process, in ms. */
  ms: number;
  /** performance.now() when it ended. */
  endedAt: number;
}

/**
 * Runs `tck …` as a child process (asynchronously: the hostile server lives in this process).
 * `onStart` gets the child, e.g. to send it a signal.
 */
export function tck(args: string[], options: { cwd?: string; onStart?: (child: ReturnType<typeof spawn>) => void } = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: '1', TCK_HEADERS: '', CI: '1', GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  // A hung kit must fail the test, not hang it.
  const guard = setTimeout(() => child.kill('SIGKILL'), 40_000);
  options.onStart?.(child);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      const endedAt = performance.now();
      resolve({ code, signal, stdout, stderr, ms: endedAt - started, endedAt });
    });
  });
}

/** Small timeouts, for the runs whose subject is a timeout. */
export const FAST = ['--request-timeout', '300', '--scenario-timeout', '2000', '--reconnect-window', '500'];
/** Timeouts no healthy call meets even on a loaded machine, for the runs whose subject is something else. */
export const SAFE = ['--request-timeout', '3000', '--scenario-timeout', '10000', '--reconnect-window', '500'];

/** A fresh directory under the system's temporary one, removed by cleanUp. */
export function outDir(prefix = 'tck-hostile-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

/**
 * `tck run --url URL --out <a fresh directory> …flags`: no stack trace in its output, and its
 * report.json exists, parses and matches the report schema.
 */
export async function runAgainst(url: string, flags: string[], options: Parameters<typeof tck>[1] = {}): Promise<{ run: CliRun; report: Report; dir: string }> {
  const dir = outDir();
  const run = await tck(['run', '--url', url, '--out', dir, ...flags], options);
  noStackTrace(run);
  return { run, report: readReport(dir), dir };
}

/** report.json of a run: it exists, parses, and matches the report schema. */
export function readReport(dir: string): Report {
  const report: unknown = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  return ReportSchema.parse(report);
}

/** Every file under `root`, relative to it. */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

export const byId = (report: Report, id: string) => {
  const s = report.scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no ${id} in the report`);
  return s;
};

/** Neither the kit's output nor its errors carry a stack trace. */
export function noStackTrace(run: CliRun): void {
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(run.stderr).not.toMatch(/internal error/);
}

export const count = (report: Report, outcome: string) => report.scenarios.filter((s) => s.outcome === outcome).length;

/**
 * A hang guard, not a performance target: the time a run is allowed when it should take about
 * `expectedMs`. Three times that plus 10 s, so a machine loaded by other work does not fail it,
 * while a run that waits out one timeout per scenario (minutes) still does. Performance figures
 * are measured by `npm run bench`.
 */
export const hangGuard = (expectedMs: number): number => expectedMs * 3 + 10_000;
