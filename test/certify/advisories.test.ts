// A certification records the advisories that did not hold (ids, scenarios, what was found) and the
// mode, for a registry to show beside the tier, which they never change; `tck verify` replays them
// like the verdicts, refuses a bundle that hides or invents one, and prints them beside the tier.
import { describe, expect, it } from 'vitest';
import { certify } from '../../src/certify/certify.js';
import { verifyBundle } from '../../src/certify/verify.js';
import { verifiedText } from '../../src/cli/certify-command.js';
import { parseBundle, type Bundle } from '../../src/report/bundle.js';
import { defineScenario, type Scenario } from '../../src/profiles/bridge/scenario.js';

const implementation = { name: 'advised', version: '1.0.0', language: 'TypeScript', repository: 'https://github.com/example/advised' };
const MISSED = 'add_message without session_id answered 200';
const advised: Scenario = defineScenario({
  id: 'SCN-B-901', tier: 'bronze', group: 'advisories', clauses: ['SPEC-2.1.1'], title: 'an advisory that does not hold', asserts: 'test',
  async run({ bridge, check }) {
    await bridge.add_message({ session_id: 's', role: 'user', content: 'x' });
    check.advise('ADV-refuse-missing-param').ok(false, MISSED);
  },
});
const plain: Scenario = defineScenario({ id: 'SCN-B-902', tier: 'bronze', group: 'advisories', clauses: ['SPEC-2.1.1'], title: 'holds', asserts: 'test', run: async ({ check }) => void check.ok(true, 'holds') });
const suite = [advised, plain];

let made: Promise<Bundle> | undefined;
const bundle = () => (made ??= certify({ implementation, suite }));
const copy = (b: Bundle): Bundle => parseBundle(JSON.parse(JSON.stringify(b)), 'copy');
const verify = (b: Bundle) => verifyBundle(b, { suite, hash: b.suiteHash });

describe('certification and advisories', () => {
  it('the bundle records the advisories that did not hold and the mode; the tier is the one its scenarios reach', async () => {
    const b = await bundle();
    expect(b.advisories).toEqual({ mode: 'report', failed: [{ id: 'ADV-refuse-missing-param', scenario: 'SCN-B-901', message: MISSED }] });
    expect(b.report.scenarios.every((s) => s.outcome === 'passed')).toBe(true);
    expect(b.certification?.tier).toBe('bronze');
  });

  it('verify replays them: an untouched bundle verifies', async () => {
    expect((await verify(await bundle())).problems).toEqual([]);
  });

  it('verify refuses a bundle that hides an advisory, invents one, or fails them', async () => {
    const hidden = copy(await bundle());
    hidden.advisories!.failed = [];
    expect((await verify(hidden)).problems).toEqual(['advisories: the bundle says none did not hold, the replay finds SCN-B-901 ADV-refuse-missing-param']);
    const invented = copy(await bundle());
    invented.advisories!.failed.push({ id: 'ADV-refuse-wrong-type', scenario: 'SCN-B-902', message: 'made up' });
    expect((await verify(invented)).problems[0]).toMatch(/^advisories: the bundle says SCN-B-901 ADV-refuse-missing-param, SCN-B-902 ADV-refuse-wrong-type did not hold/);
    const failing = copy(await bundle());
    failing.advisories!.mode = 'fail';
    expect((await verify(failing)).problems[0]).toBe('the bundle fails advisories: a certification reports them beside the tier and never fails them');
  });

  it('tck verify prints them beside the tier, then one line each', async () => {
    expect(verifiedText(await bundle(), 2)).toBe(
      "verified: advised 1.0.0 reaches BRONZE — a bundle of the kit's own embedded reference server, not of an implementation's server (1 advisory did not hold, which never changes the tier: ADV-refuse-missing-param in SCN-B-901); 2 scenarios replayed from the bundle, every verdict and the suite hash match\n" +
        `  ADV-refuse-missing-param SCN-B-901: ${MISSED}\n`,
    );
    const none = copy(await bundle());
    none.advisories!.failed = [];
    expect(verifiedText(none, 2)).toBe("verified: advised 1.0.0 reaches BRONZE — a bundle of the kit's own embedded reference server, not of an implementation's server; 2 scenarios replayed from the bundle, every verdict and the suite hash match\n");
  });

  it('the bundle records the SECURITY advisories: none found, workspace isolation not checked (a bridge run) and why; verify refuses a record that does not match', async () => {
    const b = await bundle();
    expect(b.security).toEqual({ findings: [], notChecked: [{ id: 'ADV-workspace-isolation', why: expect.stringMatching(/bridge protocol, which has no credentials and no workspaces; .*tck run --hosted URL/) }] });
    const hidden = copy(b);
    hidden.security!.notChecked = [];
    expect((await verify(hidden)).problems).toEqual(["the bundle's security record does not match its report (SECURITY advisories that did not hold, and those not checked)"]);
  });
});
