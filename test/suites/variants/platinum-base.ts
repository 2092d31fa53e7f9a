// What every Platinum variant is made of: the hosted reference store (the store that implements
// Volume 5), a wrap over its dispatcher, and how to run scenarios on one.
import { HostedStore } from '../../../src/servers/hosted/store.js';
import { runOnVariant, type Dispatch, type Wrap } from '../../harness/variants.js';

/** A clock one second further on each reading, so created_at values differ (and order is visible). */
function tickingStore(): HostedStore {
  let t = Date.parse('2026-01-01T00:00:00Z');
  return new HostedStore({ now: () => new Date((t += 1000)) });
}

/** A variant: a wrap over the hosted reference store (a store of its own, or a ticking clock, when asked). */
export type V = { wrap?: Wrap; ticking?: boolean; store?: () => HostedStore };
export const run = (v: V | undefined, ids: string[]) =>
  runOnVariant({ store: v?.store ? v.store() : v?.ticking ? tickingStore() : new HostedStore(), ...(v?.wrap ? { wrap: v.wrap } : {}) }, ids);

export const intercept = (handle: (next: Dispatch, method: string, body: any) => ReturnType<Dispatch>): Wrap => (next) => (m, b) => handle(next, m, b);
