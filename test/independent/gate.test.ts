// The gate on the independent implementation (issue 32): a server the kit's authors did not write,
// written blind from the specifications in Python, correct by its author's reading of them. The kit
// must find nothing on it — every Platinum scenario (every tier below it too), every hosted scenario
// with every input the service hands out, and tck explore over three seeds with its default budget
// and the Platinum methods. A failure here is a disagreement to decide by the text: where the server
// breaks a sentence, mend the server; where the kit demanded what no sentence states, mend the kit.
// Deep project (vitest.config.ts): about four minutes, most of it explore's budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failures, hostedFlags, securityFindings, startBridge, startHosted, tck, type HostedInputs, type Started } from './harness.js';

describe('the independent bridge server (Python, written blind)', () => {
  let bridge: Started<{ url: string }>;
  beforeAll(async () => (bridge = await startBridge()));
  afterAll(async () => bridge?.stop());

  it('tck run --tier platinum finds nothing: every scenario of every tier passes', async () => {
    const ran = await tck(['run', '--url', bridge.info.url, '--tier', 'platinum', '--reporter', 'json']);
    expect(failures(ran)).toEqual([]);
    expect(ran.code, ran.stderr).toBe(0);
  }, 300_000);

  it.each([1, 2, 3])('tck explore --seed %i (default budget, Platinum methods drawn) finds nothing', async (seed) => {
    const ran = await tck(['explore', '--url', bridge.info.url, '--seed', String(seed), '--reporter', 'json']);
    expect(ran.code, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  }, 300_000);
});

describe('the independent hosted service (Python, written blind)', () => {
  let hosted: Started<HostedInputs>;
  beforeAll(async () => (hosted = await startHosted()));
  afterAll(async () => hosted?.stop());

  it('tck run --hosted with every input finds nothing: every hosted scenario passes, no group incomplete, no SECURITY finding', async () => {
    const ran = await tck(['run', ...hostedFlags(hosted.info), '--reporter', 'json']);
    expect(failures(ran)).toEqual([]);
    expect(ran.code, ran.stderr).toBe(0);
    // The service keeps each workspace's data apart (its README): a SECURITY advisory noted against
    // it is the kit's false alarm (an echoed query once read as a leak: docs/false-alarms.md).
    expect(securityFindings(ran)).toEqual([]);
  }, 300_000);
});
