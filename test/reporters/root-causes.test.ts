// Issue 24, item 5: root causes group by what went wrong — method, rule, status class, the shape
// of the difference — never by the text of the body a server sent; an invisible culprit (BOM, NUL,
// no-break space) is named; a failure that repeats another cause in a later call is a follow-on.
import { describe, expect, it } from 'vitest';
import { causeLine, causesOf, rootCount } from '../../src/report/causes.js';
import { classifyResponse } from '../../src/profiles/bridge/classify.js';
import { normalizeReport } from '../../src/report/load.js';
import { runTck } from '../../src/run/run.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { mapRequest, mapResponse, withVariant } from '../harness/variants.js';
import { createdToWrites } from '../cli/faulty.js';
import { reportOn } from './support.js';

const camel = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(camel) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), camel(x)])) : v;
const failing = (r: { scenarios: { outcome: string }[] }) => r.scenarios.filter((s) => s.outcome === 'failed' || s.outcome === 'error');

describe('one defect, one cause', () => {
  it('201 Created to every write: one cause across the write methods, whatever each body held', async () => {
    const report = await reportOn(createdToWrites, { tier: 'gold' });
    const causes = causesOf(report.scenarios);
    expect(failing(report).length).toBeGreaterThan(200);
    expect(causes).toHaveLength(1);
    expect(causeLine(causes[0]!)).toMatch(/^add_message, add_entity, .* and \d+ more: 200 expected, got 201 Created with body .* — \d+ scenarios$/);
    expect(causes[0]!.scenarios).toHaveLength(failing(report).length);
  }, 120_000);

  it('a byte-order mark before every body: named, and one cause for (nearly) every failure', async () => {
    const report = await withVariant({ http: { bodyPrefix: '\ufeff' } }, async (url) => normalizeReport(await runTck({ url, requestTimeoutMs: 5_000 })));
    const causes = causesOf(report.scenarios);
    expect(rootCount(causes)).toBeLessThanOrEqual(2);
    expect(causes[0]!.scenarios.length).toBeGreaterThan(failing(report).length * 0.95);
    expect(causeLine(causes[0]!)).toMatch(/: body is not JSON because of a byte-order mark \(U\+FEFF\) at its start \(without it, the body is JSON\): \\uFEFF\{/);
    expect(report.warnings[0]).toMatch(/^setup: expected 200 \{"ok": true\}, got 200: body is not JSON because of a byte-order mark/);
  }, 120_000);

  it.each([
    ['\u0000{"ok":true}', 'a NUL character (U+0000) at its start'],
    ['{"ok":\u00a0true}', 'a non-breaking space (U+00A0) at offset 6'],
    ['{"ok":true}\u200b', 'a zero-width space (U+200B) at offset 11'],
  ])('an invisible culprit is named: %j', (text, named) => {
    const outcome = classifyResponse('object', { status: 200, text, bytes: Buffer.byteLength(text) });
    expect(outcome).toMatchObject({ kind: 'transport', reason: expect.stringContaining(`body is not JSON because of ${named} (without it, the body is JSON): `) });
    expect((outcome as { reason: string }).reason).not.toMatch(/[\u0000\u00a0\u200b]/);
  });

  it('camelCase fields in list_sessions: one cause, whether the list has one element or several', async () => {
    const report = await reportOn(mapResponse('list_sessions', (list) => camel(list)), { tier: 'gold' });
    const causes = causesOf(report.scenarios);
    expect(failing(report).length).toBeGreaterThan(5);
    expect(causes).toHaveLength(1);
    expect(causeLine(causes[0]!)).toMatch(/^list_sessions: response does not match the data model: .*sessionId is present/);
  }, 120_000);

  it('a relationship stored reversed: one cause; the graph showing it again is a follow-on, "same cause as"', async () => {
    const reversed = mapRequest('add_relationship', (b) => ({ ...b, source_id: b.target_id, target_id: b.source_id }));
    const report = await withVariant({ wrap: reversed, store: new HostedStore() }, async (url) => normalizeReport(await runTck({ url, tier: 'platinum', requestTimeoutMs: 5_000 })));
    const causes = causesOf(report.scenarios);
    expect(failing(report).length).toBeGreaterThanOrEqual(3);
    expect(rootCount(causes)).toBe(1);
    expect(causeLine(causes[0]!)).toMatch(/^add_relationship: .*source and target swapped: .* — 3 scenarios$/);
    const followOns = causes.filter((c) => c.sameAs !== undefined);
    expect(followOns.length).toBeGreaterThan(0);
    expect(causeLine(followOns[0]!)).toMatch(/^same cause as the add_relationship failure \(source and target swapped\), seen in a later call: get_entity_graph: /);
  }, 120_000);
});
