// `tck explore --hosted`: the quick part. The model and its judgements on a few faults and on the
// reference (nothing found), the command as a user meets it (a finding printed with its minimal
// sequence, method, URL, body, answer, expectation and sentence; the JSON and the curl script under
// --out; exit 1; no key printed), and bad input as one line and a documented exit code.
// The per-seed figures over every fault, and the independent service, are in hosted-found.test.ts (deep).
import { readFileSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawSequence, exploreHosted, sequenceSeed } from '../../src/explore/hosted.js';
import { sentenceOf } from '../../src/protocols/clauses/index.js';
import { startHostedVariant, type RunningVariant } from '../hosted/profile-harness.js';
import { tck, tempDir } from '../reporters/support.js';
import { HOSTED_FAULTS } from './hosted-faults.js';
import { HOSTED_EXPLORE_VALID } from './hosted-valid.js';

const fault = (name: string) => HOSTED_FAULTS.find((f) => f.name.startsWith(name))!;

describe('explore --hosted: the sequences', () => {
  it('are drawn from the seed alone, and reach every operation', () => {
    expect(drawSequence(sequenceSeed(7, 3), 40)).toEqual(drawSequence(sequenceSeed(7, 3), 40));
    expect(drawSequence(sequenceSeed(7, 3), 40)).not.toEqual(drawSequence(sequenceSeed(7, 4), 40));
    const kinds = new Set(Array.from({ length: 50 }, (_, i) => drawSequence(sequenceSeed(1, i), 40).map((o) => o.k)).flat());
    expect([...kinds].sort()).toEqual([
      'addEntity', 'addMessage', 'again', 'bulkAddMessages', 'createConversation', 'deleteConversation', 'deleteEntity', 'explainStep', 'getContext', 'getConversation',
      'getConversationMetadata', 'getEntity', 'getEntityGraph', 'getEntityHistory', 'getTrace', 'listConversations', 'listEntities', 'listSteps', 'mergeEntities',
      'recordStep', 'searchEntities', 'searchMessages', 'setFeedback', 'updateEntity',
    ]);
  });

  it('every sentence a finding cites is in the clause map', () => {
    const src = readFileSync(new URL('../../src/explore/hosted.ts', import.meta.url), 'utf8');
    const cited = new Set([...src.matchAll(/'((?:SPEC|HOSTED)-[\w.-]+?)'/g)].map((m) => m[1]!).filter((id) => !id.endsWith('-')));
    expect(cited.size).toBeGreaterThan(8);
    for (const id of cited) expect(sentenceOf(id), id).toBeDefined();
  });
});

describe('explore --hosted: finds, and finds nothing where nothing is wrong', () => {
  it('the reference hosted service: nothing found', async () => {
    const v = await startHostedVariant();
    try {
      const r = await exploreHosted({ baseUrl: v.server.baseUrl, apiKey: v.server.apiKey, seed: 1, runs: 25, maxSteps: 40, timeBudgetMs: 20_000 });
      expect(r.findings.map((f) => f.message)).toEqual([]);
      expect(r.sequences).toBe(25);
      // Everything was judged on answers of the service, not on refusals.
      expect(r.statuses['GET /conversations/{id}/messages']?.['200']).toBeGreaterThan(10);
      expect(r.statuses['GET /entities/{id}']?.['200']).toBeGreaterThan(10);
    } finally {
      await v.close();
    }
  }, 60_000);

  for (const [name, variant] of HOSTED_EXPLORE_VALID) {
    it(`finds nothing against a valid variant: ${name}`, async () => {
      const v = await startHostedVariant(variant());
      try {
        const r = await exploreHosted({ baseUrl: v.server.baseUrl, apiKey: v.server.apiKey, seed: 2, runs: 15, maxSteps: 40, timeBudgetMs: 15_000 });
        expect(r.findings.map((f) => f.message)).toEqual([]);
        expect(r.sequences).toBeGreaterThan(3);
      } finally {
        await v.close();
      }
    }, 60_000);
  }

  for (const name of ['the second delete', 'list_entities applies', 'message content cut']) {
    it(`finds: ${name}`, async () => {
      const f = fault(name);
      const v = await startHostedVariant(f.variant());
      try {
        const r = await exploreHosted({ baseUrl: v.server.baseUrl, apiKey: v.server.apiKey, seed: 1, runs: 300, maxSteps: 40, timeBudgetMs: 15_000, stopWhen: (x) => f.finds.test(x.message) });
        const hit = r.findings.find((x) => f.finds.test(x.message));
        expect(hit, r.findings.map((x) => x.message).join('\n')).toBeDefined();
        // Shrunk, replayed, and told with what was sent, what came back, what was expected, which sentence.
        expect(hit!.sequence.length).toBeLessThanOrEqual(hit!.shrunkFrom);
        expect(hit!.replayed).toBe(true);
        expect(hit!.cites.length).toBeGreaterThan(0);
        expect(hit!.request.url).toMatch(/^\/(conversations|entities)/);
        expect(hit!.expected).not.toBe('');
      } finally {
        await v.close();
      }
    }, 60_000);
  }
});

describe('tck explore --hosted (the command)', () => {
  let v: RunningVariant;
  beforeAll(async () => void (v = await startHostedVariant(fault('the second delete').variant())));
  afterAll(() => v.close());

  it('a finding: FOUND, the minimal sequence, the sentence; the JSON and a curl script under --out; exit 1; the key never shown', async () => {
    const out = tempDir('tck-explore-hosted-');
    const r = await tck(['explore', '--hosted', v.server.baseUrl, '--seed', '1', '--runs', '40', '--time-budget', '20000', '-o', out], { TCK_API_KEY: v.server.apiKey });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^Explore: FOUND 1 DISAGREEMENT \(\d+ sequences?, \d+ requests \(\d+ a sequence\) in [\d.]+ s; seed 1\)$/m);
    expect(r.stdout).toMatch(/^1\. delete_conversation: delete_conversation \(DELETE \/conversations\/[\w-]+\) again answered 500/m);
    expect(r.stdout).toContain('   sentence: SPEC-V5-5.1.3 — "delete_conversation can be repeated without harm"');
    expect(r.stdout).toMatch(/ {7}DELETE \/conversations\/[\w-]+ -> 204\n {7}DELETE \/conversations\/[\w-]+ -> 500/);
    expect(r.stdout).toMatch(/^ {3}expected: 204 \(as the first delete\), or 404\/410$/m);
    expect(r.stdout).toMatch(/replay: {3}npx tck explore --hosted http:\/\/127\.0\.0\.1:\d+\/v1 --seed 1 --runs \d+/);
    expect(r.stdout + r.stderr).not.toContain(v.server.apiKey);
    expect(readdirSync(out).sort()).toEqual(['explore-hosted-repro.sh', 'explore-hosted.json']);
    const json = JSON.parse(readFileSync(join(out, 'explore-hosted.json'), 'utf8'));
    expect(json.findings).toHaveLength(1);
    expect(json.findings[0].sentences[0]).toEqual({ id: 'SPEC-V5-5.1.3', text: sentenceOf('SPEC-V5-5.1.3')!.text });
    const script = readFileSync(join(out, 'explore-hosted-repro.sh'), 'utf8');
    expect(script).toContain('TCK_API_KEY');
    expect(script).not.toContain(v.server.apiKey);
  }, 60_000);

  it('bad input: one line and the documented exit code', async () => {
    const html = createServer((_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    const htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`;
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(dead.address() as { port: number }).port}`;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    try {
      const key = { TCK_API_KEY: 'nams_abcdefghijklmnopqrstu' };
      const [noKey, badUrl, wrongKey, nothing, page, withUrl] = await Promise.all([
        tck(['explore', '--hosted', v.server.baseUrl]),
        tck(['explore', '--hosted', 'not a url'], key),
        tck(['explore', '--hosted', v.server.baseUrl, '--api-key', 'nams_wrongwrongwrongwrong']),
        tck(['explore', '--hosted', deadUrl], key),
        tck(['explore', '--hosted', htmlUrl], key),
        tck(['explore', '--hosted', v.server.baseUrl, '--url', 'http://127.0.0.1:1'], key),
      ]);
      expect([noKey.code, noKey.stderr]).toEqual([2, 'tck: --hosted URL needs a credential: --api-key KEY (or TCK_API_KEY)\n']);
      expect([badUrl.code, badUrl.stderr]).toEqual([2, 'tck: --hosted URL is not a URL: "not a url"\n']);
      expect(wrongKey.code).toBe(2);
      expect(wrongKey.stderr).toMatch(/^tck: http:\/\/127\.0\.0\.1:\d+\/v1 refuses the run's API key: GET \/conversations answered 401; check --api-key KEY \(or TCK_API_KEY\); nothing was explored\n$/);
      expect(nothing.code).toBe(3);
      expect(nothing.stderr).toMatch(/^tck: cannot reach the hosted service at http:\/\/127\.0\.0\.1:\d+\/v1: .*connection refused.*\n$/);
      expect(page.code).toBe(2);
      expect(page.stderr).toMatch(/^tck: http:\/\/127\.0\.0\.1:\d+\/v1 is not a hosted REST service: GET \/conversations answered 200 with an HTML page, .*nothing was explored .*\n$/);
      expect([withUrl.code, withUrl.stderr]).toEqual([2, 'tck: --url does not apply to tck explore --hosted (it draws every resource endpoint of the hosted REST interface)\n']);
      for (const x of [noKey, badUrl, wrongKey, nothing, page, withUrl]) expect(x.stderr.split('\n')).toHaveLength(2);
    } finally {
      html.close();
    }
  }, 60_000);
});
