// Starts the independent implementation (test/independent/, Python 3.11 and its standard library,
// written blind from the specifications: it never saw the kit) as a vendor would run it, and runs
// the built `tck` against it as a vendor would. Each server is a child process on a free port; a
// fault of FAULTS.md is chosen with INDEPENDENT_FAULT.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const HERE = new URL('.', import.meta.url).pathname;
const BIN = new URL('../../bin/tck.js', import.meta.url).pathname;
const PYTHON = process.env.TCK_PYTHON ?? 'python3';

export interface Started<T> {
  info: T;
  stop: () => Promise<void>;
}

/** The hosted service's start-up line: everything the hosted profile takes as input. */
export interface HostedInputs {
  url: string;
  api_key: string;
  workspace: string;
  other_api_key: string;
  idp_token: string;
  expired_token: string;
  expired_idp_token: string;
}

function start<T>(script: string, fault: string | undefined, parse: (line: string) => T | undefined): Promise<Started<T>> {
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
  delete env.INDEPENDENT_FAULT;
  if (fault) env.INDEPENDENT_FAULT = fault;
  const child = spawn(PYTHON, [join(HERE, script), '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const stop = () => stopChild(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (void stop(), reject(new Error(`${script} did not print its start-up line within 15 s: ${stderr}`))), 15_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const info = parse(line.trim());
      if (info === undefined) return;
      clearTimeout(timer);
      lines.close();
      child.stdout!.resume();
      resolve({ info, stop });
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${script} exited (${code}) before it was ready: ${stderr}`))));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    child.kill('SIGTERM');
  });
}

/** The independent bridge server (Bronze to Platinum): its URL. */
export function startBridge(fault?: string): Promise<Started<{ url: string }>> {
  return start('bridge/server.py', fault, (line) => {
    const m = /^listening on (http:\/\/\S+)$/.exec(line);
    return m ? { url: m[1]!.replace(/\/$/, '') } : undefined;
  });
}

/** The independent hosted REST service: its origin and the inputs it hands a test run. */
export function startHosted(fault?: string): Promise<Started<HostedInputs>> {
  return start('hosted/server.py', fault, (line) => {
    if (!line.startsWith('{')) return undefined;
    const info = JSON.parse(line) as HostedInputs;
    return typeof info.url === 'string' ? info : undefined;
  });
}

/** The flags that give the hosted profile every input the service handed out. */
export function hostedFlags(h: HostedInputs): string[] {
  return [
    '--hosted', h.url, '--api-key', h.api_key, '--workspace', h.workspace, '--other-api-key', h.other_api_key,
    '--idp-token', h.idp_token, '--expired-token', h.expired_token, '--expired-idp-token', h.expired_idp_token,
  ];
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  out: string;
}

/** The built `tck` with these arguments, its reports in a fresh directory (`out`). */
export function tck(args: string[], timeoutMs = 300_000): Promise<Ran> {
  const out = mkdtempSync(join(tmpdir(), 'tck-independent-'));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', TCK_HEADERS: '' };
  for (const k of ['GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CI', 'TCK_URL', 'FORCE_COLOR', 'TCK_API_KEY', 'TCK_TOKEN', 'TCK_IDP_TOKEN', 'TCK_OTHER_API_KEY', 'TCK_WORKSPACE', 'TCK_EXPIRED_TOKEN', 'TCK_EXPIRED_IDP_TOKEN']) delete env[k];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args, '--out', out], { cwd: out, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr, out })));
  });
}

interface ReportScenario {
  id: string;
  outcome: string;
  message?: string;
}

/** The run's report.json, read as the parts of it a caller names. */
export function reportOf<T>(ran: Ran): T {
  return JSON.parse(readFileSync(join(ran.out, 'report.json'), 'utf8')) as T;
}

/** Every scenario of the run's report.json that did not pass (failed, errored, skipped or not run), with its message. */
export function failures(ran: Ran): string[] {
  const report = reportOf<{
    scenarios?: ReportScenario[];
    hosted?: { scenarios?: ReportScenario[] };
  }>(ran);
  const all = [...(report.scenarios ?? []), ...(report.hosted?.scenarios ?? [])];
  return all.filter((s) => s.outcome !== 'passed').map((s) => `${s.id} ${s.outcome}: ${s.message ?? ''}`);
}

/** The SECURITY advisories the run's report.json records as not holding, each scenario's message. */
export function securityFindings(ran: Ran): string[] {
  const report = reportOf<{ security?: { id: string; scenarios?: { id: string; message: string }[] }[] }>(ran);
  return (report.security ?? []).flatMap((s) => (s.scenarios ?? []).map((x) => `${s.id} ${x.id}: ${x.message}`));
}
