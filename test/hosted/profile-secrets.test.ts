// No secret reaches any output of a hosted run. The service under test is made to leak: it echoes
// every credential it is sent into its answers, lists plaintext keys, and fails enough rules that
// most scenarios report their exchanges as evidence. Every plaintext secret of the run (the API
// key, the identity-provider token, and every key, access token and refresh token the service
// issued) is then looked for in the console output (verbose), in every report file, and in the
// reproduction scripts `tck repro --report` prints: none may be there.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tck, type Ran } from '../reporters/support.js';
import {
  combine, jwksWithoutTheSigningKey, plaintextInList, refreshReusable, revocationDelayed, startHostedVariant, tokensRefusedByGraph, type HostedVariant, type RunningVariant,
} from './profile-harness.js';

const SECRET_FIELDS = new Set(['key', 'access_token', 'refresh_token']);

/** Every value of a secret field anywhere in a JSON value. */
function secretsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => secretsIn(v, found));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === 'string' && SECRET_FIELDS.has(k)) found.add(v);
      else secretsIn(v, found);
    }
  }
}

/** Records every credential it is sent and every secret it hands out, and echoes the credential into each JSON answer. */
function leakAndRecord(found: Set<string>): HostedVariant {
  return {
    intercept: () => async (request, next) => {
      const presented = request.authorization?.replace(/^\S+\s+/, '');
      if (presented !== undefined) found.add(presented);
      const reply = await next(request);
      secretsIn(reply.body, found);
      if (reply.body === null || typeof reply.body !== 'object' || Array.isArray(reply.body)) return reply;
      // Echoed twice: under a camelCase name, and under a snake_case one (which fails the naming rule too).
      return { ...reply, body: { ...reply.body, seenAuthorization: request.authorization ?? null, seen_credential: presented ?? null } };
    },
  };
}

const secrets = new Set<string>();
let variant: RunningVariant;
let idpToken: string;
let run: Ran;
let dir: string;
let repros: Ran[];

beforeAll(async () => {
  variant = await startHostedVariant(combine(leakAndRecord(secrets), plaintextInList, revocationDelayed, refreshReusable(), await jwksWithoutTheSigningKey(), tokensRefusedByGraph));
  idpToken = await (variant.options.idpToken as () => Promise<string>)();
  secrets.add(idpToken);
  secrets.add(variant.server.apiKey);
  dir = mkdtempSync(join(tmpdir(), 'tck-hosted-secrets-'));
  // Every hosted scenario (45 since issue 27) runs against it, verbose: more time than the helper's default.
  run = await tck(['run', '--hosted', variant.server.baseUrl, '--idp-token', idpToken, '--verbose', '-r', 'console,json,junit,html,md,badge', '-o', dir], {
    TCK_API_KEY: variant.server.apiKey,
  }, 150_000);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
  const failed = report.hosted.scenarios.filter((s: { outcome: string }) => s.outcome === 'failed' || s.outcome === 'error').map((s: { id: string }) => s.id);
  repros = await Promise.all(failed.map((id: string) => tck(['repro', id, '--report', join(dir, 'report.json')])));
}, 180_000);
afterAll(() => variant?.close());

describe('a hosted run against a service that leaks', () => {
  it('really leaked: many secrets, many failures with evidence, and redactions in the reports', () => {
    expect(run.code, run.stderr).toBe(1);
    expect(secrets.size).toBeGreaterThan(20);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const failed = report.hosted.scenarios.filter((s: { exchanges: unknown[] }) => s.exchanges.length > 0);
    expect(failed.length).toBeGreaterThanOrEqual(6);
    expect(repros.length).toBe(failed.length);
    expect(readFileSync(join(dir, 'report.json'), 'utf8').split('***').length).toBeGreaterThan(100);
  });

  it('no plaintext secret is in the console output, any report file, or any reproduction script', () => {
    const outputs: [string, string][] = [
      ['stdout', run.stdout],
      ['stderr', run.stderr],
      ...readdirSync(dir).map((f): [string, string] => [f, readFileSync(join(dir, f), 'utf8')]),
      ...repros.map((r, i): [string, string] => [`repro #${i}`, r.stdout + r.stderr]),
    ];
    expect(outputs.map(([name]) => name)).toEqual(expect.arrayContaining(['report.json', 'junit.xml', 'report.html', 'summary.md', 'badge.svg']));
    const leaks: string[] = [];
    for (const secret of secrets) {
      if (secret.length < 8) continue;
      for (const [name, text] of outputs) if (text.includes(secret)) leaks.push(`${name} holds ${secret.slice(0, 12)}…`);
    }
    expect(leaks).toEqual([]);
  });
});
