// One source of truth for silent points: explore's tolerances are keyed by the ids of the kit's
// silent-point table (src/engine/silent-points.ts), the one the scenarios and their valid variants
// cite. A tolerance not (yet) in the table says so (`own`); once the table names its point, `own`
// must go, so the two cannot drift apart unseen.
import { describe, expect, it } from 'vitest';
import { SILENT_POINTS, silentPoint } from '../../src/engine/silent-points.js';
import { TOLERANCES } from '../../src/explore/tolerances.js';

const entries = Object.entries(TOLERANCES) as [string, { own?: true }][];

describe('explore tolerances and the silent-point table', () => {
  it('every shared tolerance names a point of the table', () => {
    expect(entries.filter(([id, t]) => !t.own && silentPoint(id) === undefined).map(([id]) => id)).toEqual([]);
  });

  it('no tolerance marked own is a point the table already names', () => {
    expect(entries.filter(([id, t]) => t.own && silentPoint(id) !== undefined).map(([id]) => id)).toEqual([]);
  });

  it('the table is not empty and its ids are unique', () => {
    expect(SILENT_POINTS.length).toBeGreaterThan(15);
    expect(new Set(SILENT_POINTS.map((p) => p.id)).size).toBe(SILENT_POINTS.length);
  });
});
