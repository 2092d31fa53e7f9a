// Dead-server detection on its own: what counts as a connectivity failure, and the probe window.
import { describe, expect, it } from 'vitest';
import type { CallResult } from '../../src/profiles/bridge/index.js';
import { Liveness } from '../../src/engine/liveness.js';

const exchange = { method: 'm', url: 'u', requestBody: {}, requestHeaders: {}, durationMs: 0, startedAt: '' };
const refused: CallResult = { outcome: { kind: 'transport', failure: 'refused', reason: 'connection refused at http://h:1' }, exchange };
const answered = (status: number): CallResult => ({ outcome: { kind: 'violation', reason: 'x' }, exchange: { ...exchange, status } });
// A body that is not JSON is a transport outcome too, but the server did answer.
const html: CallResult = { outcome: { kind: 'transport', failure: 'invalid-json', reason: 'body is not JSON' }, exchange: { ...exchange, status: 200 } };

describe('Liveness', () => {
  it('counts only calls that got no status at all, and any answer resets the count', () => {
    const l = new Liveness(100);
    l.observe(refused);
    l.observe(refused);
    l.observe(html);
    expect(l.failures).toBe(0);
    l.observe(refused);
    l.observe(refused);
    expect(l.suspect).toBe(false);
    l.observe(refused);
    expect(l.suspect).toBe(true);
    l.observe(answered(503));
    expect(l.failures).toBe(0);
  });

  it('a target that answers the probe, whatever the status, is alive', async () => {
    const l = new Liveness(1_000);
    for (let i = 0; i < 3; i++) l.observe(refused);
    const calls: string[] = [];
    const verdict = await l.check(async (m) => (calls.push(m), answered(404)), 500, new AbortController().signal);
    expect(verdict).toEqual({ alive: true });
    expect(calls).toEqual(['clear_all_data']);
    expect(l.suspect).toBe(false);
  });

  it('comes back within the window: alive; stays away: dead after the window, with the last reason', async () => {
    const l = new Liveness(600);
    for (let i = 0; i < 3; i++) l.observe(refused);
    let n = 0;
    expect(await l.check(async () => (++n < 3 ? refused : answered(204)), 500, new AbortController().signal)).toEqual({ alive: true });
    for (let i = 0; i < 3; i++) l.observe(refused);
    const t0 = performance.now();
    const verdict = await l.check(async () => refused, 500, new AbortController().signal);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(550);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(verdict).toEqual({
      alive: false,
      reason: 'connection refused at http://h:1',
      summary: '3 consecutive calls got no answer, and neither did clear_all_data probes for 0.6 s (last: connection refused at http://h:1)',
    });
  });

  it('an aborted run ends the check at once', async () => {
    const l = new Liveness(10_000);
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const t0 = performance.now();
    expect(await l.check(async () => refused, 500, stop.signal)).toEqual({ alive: true });
    expect(performance.now() - t0).toBeLessThan(1_000);
  });
});
