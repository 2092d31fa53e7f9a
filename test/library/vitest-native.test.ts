// agent-memory-tck/vitest as a vendor uses it: every selected scenario registered as its own live
// vitest test (describe per tier, it per scenario), here against the embedded reference server.
// In a vendor's project: `import { registerScenarios } from 'agent-memory-tck/vitest'` and a `url`.
import { describe, expect, it } from 'vitest';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { assertPassed, registerScenarios, runScenarioOnce } from '../../src/vitest.js';
import { findScenario } from '../../suites/index.js';
import { mapResponse, withVariant } from '../harness/variants.js';

registerScenarios({ name: 'agent-memory-tck/vitest on the reference server', grep: 'get_conversation|list_sessions' });

describe('a scenario test fails with the kit evidence, and skips with its reason', () => {
  it('a faulty server makes the scenario test throw the message, the clauses and the exchanges', async () => {
    const lossy = mapResponse('get_conversation', (body) => ({ ...body, messages: body.messages.slice(0, -1) }));
    await withVariant({ wrap: lossy }, async (url) => {
      const client = new BridgeClient({ url });
      try {
        const result = await runScenarioOnce(client, findScenario('SCN-B-043')!);
        expect(result.outcome).toBe('failed');
        let thrown: Error | undefined;
        try {
          assertPassed(result, () => {});
        } catch (err) {
          thrown = err as Error;
        }
        expect(thrown?.name).toBe('SCN-B-043 failed');
        expect(thrown?.message).toMatch(/^FAIL SCN-B-043 .*\nclauses: SPEC-[\d.]+/);
        expect(thrown?.message).toMatch(/exchanges \(\d+\):\n {2}POST \/clear_all_data/);
      } finally {
        await client.close();
      }
    });
  });

  it('a skipped scenario calls skip with the reason and does not throw', () => {
    const reasons: string[] = [];
    assertPassed({ id: 'X', tier: 'bronze', group: 'g', clauses: [], title: 't', outcome: 'skipped', message: 'why', durationMs: 0, exchanges: [], notes: [] }, (r) => reasons.push(r));
    expect(reasons).toEqual(['why']);
  });
});

describe('the package export', () => {
  it('agent-memory-tck/vitest is the built src/vitest.ts, and the suites sources it hashes ship too', async () => {
    const { readFile } = await import('node:fs/promises');
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.exports['./vitest']).toEqual({ types: './dist/src/vitest.d.ts', default: './dist/src/vitest.js' });
    expect(pkg.files).toContain('suites/');
    expect(pkg.peerDependenciesMeta.vitest.optional).toBe(true);
  });
});
