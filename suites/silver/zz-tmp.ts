import { check, type Check } from '../../src/engine/assert.js';
export function f(c: Check, x: string | undefined) { c.ok(x !== undefined, 'm'); return x.length; }
export function g(x: string | undefined) { check.ok(x !== undefined, 'm'); return x.length; }
export function h(c: Check, x: unknown) { c.equal(x, 5 as number, 'm'); return x.toFixed(); }
