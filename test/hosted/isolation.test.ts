// Workspace isolation (issue 36, docs/isolation.md). The hosted reference service keeps each
// workspace's data apart, and the hosted profile's isolation scenarios (SCN-H-060…062) catch a
// service that breaks it on any one resource endpoint: each variant of isolation-variants.ts leaks
// on one endpoint only, and its scenario notes the SECURITY advisory ADV-workspace-isolation naming
// that endpoint (and fails under --advisories=fail), while the reference notes nothing.
import { describe, expect, it } from 'vitest';
import type { HostedScenarioResult } from '../../src/profiles/hosted/run.js';
import { combine, mapAnswer, runOnHostedVariant, startHostedVariant } from './profile-harness.js';
import { normalizeReport } from '../../src/report/load.js';
import { runTck } from '../../src/run/run.js';
import { ConsoleReporter } from '../../src/report/render/console.js';
import { githubAnnotations } from '../../src/report/render/github.js';
import { FILE_FORMATS } from '../../src/report/render/index.js';
import { ISOLATION_LEAKS, sharedStore } from './isolation-variants.js';

const IDS = ['SCN-H-060', 'SCN-H-061', 'SCN-H-062'];
const notes = (r: HostedScenarioResult) => (r.advisories ?? []).filter((a) => a.id === 'ADV-workspace-isolation').map((a) => a.message);

describe('workspace isolation', () => {
  it('the reference service isolates: the isolation scenarios pass with no advisory noted, under --advisories=fail too', async () => {
    const results = await runOnHostedVariant(undefined, IDS, { advisories: 'fail' });
    expect(results.map((r) => [r.id, r.outcome, r.message])).toEqual(IDS.map((id) => [id, 'passed', undefined]));
  });

  it('a service whose searches and queries echo the request (the query, the parameters) notes nothing: an echo is no data of another workspace', async () => {
    // Found by the independent hosted service (test/independent/hosted), whose entity search answers
    // {"query": …, "entities": […]}: the query named the other workspace's entity, and the echo read as a leak.
    const echo = (body: any, ctx: { body: Record<string, unknown> }) => (body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...ctx.body, ...body } : body);
    const echoing = combine(mapAnswer('search_entities', echo), mapAnswer('search_messages', echo), mapAnswer('cypher_query', echo));
    const results = await runOnHostedVariant(echoing, IDS, { advisories: 'fail' });
    expect(results.map((r) => [r.id, r.outcome, r.message])).toEqual(IDS.map((id) => [id, 'passed', undefined]));
  });

  it.each(ISOLATION_LEAKS)('%s: a service that %s is caught, on that endpoint alone', async (operation, scenario, _leak, variant, message) => {
    const [r] = await runOnHostedVariant(variant, [scenario]);
    expect(r!.outcome).toBe('passed');
    const found = notes(r!);
    expect(found.length, `${operation}: no note`).toBeGreaterThan(0);
    // Every note names the leaking operation, and one says what it leaked.
    expect(found.filter((m) => !m.startsWith(`SECURITY: ${operation} (`))).toEqual([]);
    expect(found.some((m) => message.test(m)), found.join('\n')).toBe(true);
  });

  it('a leak fails its scenario under --advisories=fail, the failure citing the advisory', async () => {
    const [, scenario, , variant] = ISOLATION_LEAKS.find((l) => l[0] === 'get_conversation_metadata')!;
    const [r] = await runOnHostedVariant(variant, [scenario], { advisories: 'fail' });
    expect(r!.outcome).toBe('failed');
    expect(r!.message).toMatch(/^advisory ADV-workspace-isolation \(--advisories=fail\): SECURITY: get_conversation_metadata/);
  });

  it('every resource endpoint has its leak', async () => {
    const { ROUTES } = await import('../../src/servers/hosted/index.js');
    const creations = ['create_conversation', 'add_entity'];
    const resources = ROUTES.filter((r) => !r.path.startsWith('/auth/') && !creations.includes(r.operation)).map((r) => r.operation);
    expect(ISOLATION_LEAKS.map((l) => l[0]).sort()).toEqual(resources.sort());
  });

  it('the service before issue 36 (one store for every workspace) leaks on every endpoint', async () => {
    const results = await runOnHostedVariant(sharedStore, IDS);
    const leaked = new Set(results.flatMap(notes).map((m) => /^SECURITY: (\w+) \(/.exec(m)![1]));
    expect([...leaked].sort()).toEqual(ISOLATION_LEAKS.map((l) => l[0]).sort());
  });

  it('a leak is a SECURITY finding that every format shows first, and none when the service isolates', async () => {
    const v = await startHostedVariant(ISOLATION_LEAKS.find((l) => l[0] === 'get_entity')![3]);
    let report;
    try {
      report = normalizeReport(await runTck({ hosted: v.options, scenarios: IDS }));
    } finally {
      await v.close();
    }
    expect(report.success).toBe(true);
    const lines: string[] = [];
    new ConsoleReporter({ stream: { write: (t: string) => lines.push(t) } }).onEnd(report);
    const text = lines.join('').trimStart();
    expect(text).toMatch(/^SECURITY: 1 finding \(ADV-workspace-isolation did not hold\): expected a credential reaches only its own workspace's data.*\n {2}SCN-H-061: SECURITY: get_entity \(GET/);
    const json = FILE_FORMATS.json.render(report);
    expect(Object.keys(JSON.parse(json)).slice(0, 3)).toEqual(['format', 'formatVersion', 'security']);
    expect(JSON.parse(json).security).toEqual([expect.objectContaining({ id: 'ADV-workspace-isolation', failed: 1, scenarios: [expect.objectContaining({ id: 'SCN-H-061' })] })]);
    const md = FILE_FORMATS.md.render(report);
    expect(md.split('\n').slice(2, 4)).toEqual(['> [!CAUTION]', expect.stringMatching(/^> \*\*SECURITY: 1 finding \(ADV-workspace-isolation did not hold\)/)]);
    const html = FILE_FORMATS.html.render(report);
    expect(html).toMatch(/<body>\n<section class="security" role="alert"><strong>SECURITY: 1 finding/);
    const junit = FILE_FORMATS.junit.render(report);
    expect(junit.indexOf('<testsuite name="agent-memory-tck SECURITY"')).toBeGreaterThan(0);
    expect(junit.indexOf('<testsuite name="agent-memory-tck SECURITY"')).toBeLessThan(junit.indexOf('<testsuite name="agent-memory-tck hosted'));
    expect(junit).toContain('<property name="tck.security.ADV-workspace-isolation" value="SCN-H-061: SECURITY: get_entity');
    expect(githubAnnotations(report)[0]).toMatch(/^::warning title=SECURITY%3A 1 finding \(ADV-workspace-isolation did not hold\)::SECURITY: 1 finding/);

    const clean = await startHostedVariant();
    try {
      const ok = normalizeReport(await runTck({ hosted: clean.options, scenarios: IDS }));
      expect(JSON.parse(FILE_FORMATS.json.render(ok)).security).toBeUndefined();
      expect(FILE_FORMATS.html.render(ok)).not.toContain('class="security"');
      expect(FILE_FORMATS.md.render(ok)).not.toContain('SECURITY');
    } finally {
      await clean.close();
    }
  });
});
