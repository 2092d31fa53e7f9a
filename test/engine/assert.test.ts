import { describe, expect, it } from 'vitest';
import { instant } from '../../src/engine/assert.js';

describe('instant', () => {
  it('reads every timestamp form the data model accepts as the same instant', () => {
    const ms = Date.parse('2026-01-02T03:04:05.500Z');
    for (const ts of ['2026-01-02T03:04:05.500Z', '2026-01-02t03:04:05.5z', '2026-01-02T03:04:05,5Z', '2026-01-02T05:04:05.5+02:00']) {
      expect(instant(ts), ts).toBe(ms);
    }
  });
  it('is NaN for what is not a timestamp', () => expect(instant('yesterday')).toBeNaN());
});
