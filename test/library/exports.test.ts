// What the README promises the package exports is what src/index.ts (the package's entry) exports.
import { describe, expect, it } from 'vitest';
import * as tck from '../../src/index.js';

describe('the library entry', () => {
  it.each([
    'runTck', 'runHostedProfile', 'renderJson', 'renderJunit', 'renderHtml', 'renderMarkdown', 'renderBadge',
    'diffReports', 'evaluateBaseline', 'reproScript', 'selectScenarios', 'defineScenario', 'BridgeClient',
    'startReferenceServer', 'startHostedServer', 'createForwarder', 'grade',
  ])('exports the function %s', (name) => {
    expect(typeof (tck as Record<string, unknown>)[name]).toBe('function');
  });
  it('exports the scenarios, the report schema and the data-model schemas', () => {
    expect(tck.ALL_SCENARIOS.length).toBeGreaterThanOrEqual(178);
    expect(tck.HOSTED_SCENARIOS.length).toBeGreaterThan(0);
    expect(tck.ReportSchema.safeParse({}).success).toBe(false);
    expect(tck.schema.Message.safeParse({}).success).toBe(false);
  });
});
