// Workspace isolation (issue 36, docs/isolation.md). The hosted reference service keeps each
// workspace's data apart, and the hosted profile's isolation scenarios (SCN-H-060…062) catch a
// service that breaks it on any one resource endpoint: each variant of isolation-variants.ts leaks
// on one endpoint only, and its scenario notes the SECURITY advisory ADV-workspace-isolation naming
// that endpoint (and fails under --advisories=fail), while the reference notes nothing.
import { describe, expect, it } from 'vitest';
import type { HostedScenarioResult } from '../../src/profiles/hosted/run.js';
import { runOnHostedVariant } from './profile-harness.js';
import { ISOLATION_LEAKS, sharedStore } from './isolation-variants.js';

const IDS = ['SCN-H-060', 'SCN-H-061', 'SCN-H-062'];
const notes = (r: HostedScenarioResult) => (r.advisories ?? []).filter((a) => a.id === 'ADV-workspace-isolation').map((a) => a.message);

describe('workspace isolation', () => {
  it('the reference service isolates: the isolation scenarios pass with no advisory noted, under --advisories=fail too', async () => {
    const results = await runOnHostedVariant(undefined, IDS, { advisories: 'fail' });
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
});

