// Faulty servers the command tests share (issue 24): wraps of the reference dispatcher.
import type { Wrap } from '../harness/variants.js';

const WRITES = /^(add_|start_|record_|complete_)/;

/** Every write answers 201 Created where the protocol says 200: a server no tier admits. */
export const createdToWrites: Wrap = (next) => async (m, body) => {
  const r = await next(m, body);
  return WRITES.test(m) && r.status === 200 ? { ...r, status: 201 } : r;
};

/** 401 to everything: a server behind authentication, asked without a credential. */
export const locked: Wrap = () => () => ({ status: 401, body: { error: 'missing bearer token' } });
