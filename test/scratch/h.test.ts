import { it } from 'vitest';
import { runOnHostedVariant, refreshCheckedThenSpent } from '../hosted/profile-harness.js';
it('h', async () => {
  const [r] = await runOnHostedVariant(refreshCheckedThenSpent(), ['SCN-H-059']);
  console.log(r!.outcome, r!.message, JSON.stringify((r as any).exchanges?.map((e: any) => [e.method ?? e.request, e.status, e.startedAt, e.durationMs])));
}, 60000);
