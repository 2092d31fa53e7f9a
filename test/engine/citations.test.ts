// Every assertion cites what it enforces; advisories are noted, never failures (unless asked).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssertionLog, check, withAssertionLog } from '../../src/engine/assert.js';
import { AssertionFailure } from '../../src/engine/faults.js';
import { BridgeClient } from '../../src/profiles/bridge/index.js';
import { runScenarios } from '../../src/profiles/bridge/driver.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';
import { MemoryStore, createDispatcher, startBridgeServer } from '../../src/servers/bridge/index.js';

const caught = (body: () => void): AssertionFailure => {
  try {
    body();
  } catch (err) {
    if (err instanceof AssertionFailure) return err;
    throw err;
  }
  throw new Error('expected the check to fail');
};

describe('check: citations', () => {
  it('a failure cites the sentences named with by(), else the scenario clauses, else the detail clause', () => {
    const log = new AssertionLog(['SPEC-2.2.1', 'SPEC-2.2.2']);
    withAssertionLog(log, () => {
      expect(caught(() => check.by('SPEC-2.2.2').equal(1, 2, 'limit')).cites).toEqual(['SPEC-2.2.2']);
      expect(caught(() => check.equal(1, 2, 'order')).cites).toEqual(['SPEC-2.2.1', 'SPEC-2.2.2']);
      const own = caught(() => check.fail('refused', { clause: 'HOSTED-AUTH-3' }));
      expect(own.cites).toEqual(['HOSTED-AUTH-3']);
      expect(own.message).toBe('HOSTED-AUTH-3: refused');
    });
    expect(log.records.map((r) => [r.cites, r.passed, r.implicit ?? false])).toEqual([
      [['SPEC-2.2.2'], false, false],
      [['SPEC-2.2.1', 'SPEC-2.2.2'], false, true],
      [['HOSTED-AUTH-3'], false, false],
    ]);
  });

  it('counts and keeps the checks that held, with what they were about', () => {
    const log = new AssertionLog(['SPEC-1.1.5']);
    withAssertionLog(log, () => {
      check.uuid('6f1c2a9e-0000-4000-8000-000000000000', 'conversation id');
      expect(check.by('SPEC-1.1.11').present('x', 'message id')).toBe('x');
    });
    expect(log.count).toBe(2);
    expect(log.records).toEqual([
      { cites: ['SPEC-1.1.5'], what: 'conversation id', passed: true, implicit: true },
      { cites: ['SPEC-1.1.11'], what: 'message id', passed: true },
    ]);
  });

  it('check.that records its description both ways, citing by(); its failure is built only when it fails', () => {
    const log = new AssertionLog(['HOSTED-READBACK']);
    let built = 0;
    const failure = () => {
      built++;
      return { message: 'HOSTED-AUTH-3: revoked key served (GET /conversations answered 200)', expected: '401 or 403', actual: 200, status: [401, 403] };
    };
    withAssertionLog(log, () => {
      check.by('HOSTED-AUTH-3').that(true, 'the next read with the revoked key is refused', failure);
      expect(built).toBe(0);
      const err = caught(() => check.by('HOSTED-AUTH-3').that(false, 'the next read with the revoked key is refused', failure));
      expect(built).toBe(1);
      expect(err.message).toBe('HOSTED-AUTH-3: revoked key served (GET /conversations answered 200)');
      expect([err.cites, err.expected, err.actual, err.judged?.status]).toEqual([['HOSTED-AUTH-3'], '401 or 403', 200, [401, 403]]);
      check.that(1, 'implicit', failure);
    });
    expect(log.records).toEqual([
      { cites: ['HOSTED-AUTH-3'], what: 'the next read with the revoked key is refused', passed: true },
      { cites: ['HOSTED-AUTH-3'], what: 'the next read with the revoked key is refused', passed: false },
      { cites: ['HOSTED-READBACK'], what: 'implicit', passed: true, implicit: true },
    ]);
  });

  it('check.ok with a detail clause cites that clause when it holds too', () => {
    const log = new AssertionLog(['SPEC-1.1.5']);
    withAssertionLog(log, () => check.ok(true, 'key listed', { clause: 'HOSTED-PAYLOAD-list_api_keys' }));
    expect(log.records).toEqual([{ cites: ['HOSTED-PAYLOAD-list_api_keys'], what: 'key listed', passed: true }]);
  });

  it('refuses to cite nothing or an advisory through by(), and an advisory id of another shape', () => {
    expect(() => check.by()).toThrow(/sentence ids/);
    expect(() => check.by('ADV-refuse-missing-param')).toThrow(/check.advise/);
    expect(() => check.advise('SPEC-2.1.1')).toThrow(/ADV-<kebab-name>/);
  });
});

describe('check.advise: advisories', () => {
  it('in a report run, a failed advisory is noted and the body goes on', () => {
    const log = new AssertionLog(['BRIDGE-ERRORS-1']);
    const results = withAssertionLog(log, () => [check.advise('ADV-refuse-missing-param').ok(false, 'add_message without session_id answered 200'), check.advise('ADV-refuse-missing-param').equal(1, 1, 'same')]);
    expect(results).toEqual([false, true]);
    expect(log.advisories).toEqual([{ id: 'ADV-refuse-missing-param', message: 'add_message without session_id answered 200' }]);
    expect(log.records[0]).toMatchObject({ cites: ['ADV-refuse-missing-param'], passed: false, advisory: true });
  });

  it('with --advisories=fail, a failed advisory fails like any check and says it is one', () => {
    const log = new AssertionLog([], 'fail');
    const failure = caught(() => withAssertionLog(log, () => check.advise('ADV-refuse-wrong-type').equal('x', 'y', 'content')));
    expect(failure.message).toBe('advisory ADV-refuse-wrong-type (--advisories=fail): content: expected "y", got "x"');
    expect(failure.cites).toEqual(['ADV-refuse-wrong-type']);
  });
});

describe('the runner reports assertions, cites and advisories', () => {
  let server: Awaited<ReturnType<typeof startBridgeServer>>;
  let client: BridgeClient;
  beforeAll(async () => {
    server = await startBridgeServer(createDispatcher(new MemoryStore()), { port: 0 });
    client = new BridgeClient({ url: server.url, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });
  const scenario = (id: string, run: Scenario['run']): Scenario => defineScenario({ id, tier: 'bronze', group: 'test', clauses: ['SPEC-2.1.1'], title: id, asserts: 'test', run });
  const advised: Scenario['run'] = async ({ bridge, check }) => {
    // The reference accepts an empty session id: an advisory of the kind the kit notes.
    await bridge.add_message({ session_id: 's', role: 'user', content: 'x' });
    check.advise('ADV-refuse-missing-param').ok(false, 'an advisory that does not hold');
    check.equal(1, 1, 'a rule that holds');
  };

  it('a passed scenario counts its checks, the profile\'s checks of each answer included, and keeps them when asked', async () => {
    const { results } = await runScenarios(client, [scenario('SCN-B-901', advised)], { keepAssertions: true });
    const r = results[0]!;
    expect(r.outcome).toBe('passed');
    expect(r.advisories).toEqual([{ id: 'ADV-refuse-missing-param', message: 'an advisory that does not hold' }]);
    // clear_all_data (status), add_message (status, model), the advisory, the rule.
    expect(r.assertions).toBe(5);
    expect(r.checked?.map((c) => c.cites)).toEqual([
      ['BRIDGE-LIFECYCLE-clear_all_data', 'BRIDGE-RESPONSE-4'],
      ['BRIDGE-METHOD-add_message', 'BRIDGE-RESPONSE-1'],
      ['BRIDGE-METHOD-add_message', 'BRIDGE-MODEL-Message'],
      ['ADV-refuse-missing-param'],
      ['SPEC-2.1.1'],
    ]);
  });

  it('--advisories=fail fails the same scenario, citing the advisory', async () => {
    const { results } = await runScenarios(client, [scenario('SCN-B-901', advised)], { advisories: 'fail' });
    expect(results[0]).toMatchObject({ outcome: 'failed', cites: ['ADV-refuse-missing-param'] });
  });

  it('a data-model failure cites the method row and the model', async () => {
    const broken = await startBridgeServer(async (m, b) => (m === 'add_message' ? { status: 200, body: { id: 'x' } } : createDispatcher(new MemoryStore())(m, b)), { port: 0 });
    const c = new BridgeClient({ url: broken.url, timeoutMs: 2_000 });
    try {
      const { results } = await runScenarios(c, [scenario('SCN-B-902', async ({ bridge }) => void (await bridge.add_message({ session_id: 's', role: 'user', content: 'x' })))]);
      expect(results[0]).toMatchObject({ outcome: 'failed', cites: ['BRIDGE-METHOD-add_message', 'BRIDGE-MODEL-Message'] });
    } finally {
      await c.close();
      await broken.close();
    }
  });
});
