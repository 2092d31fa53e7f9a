// Every silent point of the kit's table has at least three valid variants that read it differently
// from the reference (READINGS), each a server of the harness that explore must stay silent on
// (no-false-alarm.test.ts); and explore's oracle leaves every point of the table open (OPEN), so
// a point added to the table without telling explore fails here first. And the list of servers
// explore is held silent on (HELD_SILENT, explored in no-false-alarm.test.ts, npm run test:deep)
// holds every valid server of the harness but the PART_ONLY rows.
import { describe, expect, it } from 'vitest';
import { READINGS, SILENT_POINTS } from '../../src/engine/silent-points.js';
import { OPEN } from '../../src/explore/open.js';
import { HELD_SILENT, PART_ONLY, VALID_SERVERS } from './valid-servers.js';

const servers = new Set(VALID_SERVERS.map((s) => s.name));

/**
 * The Platinum points (issue 23), merged after the readings of issue 22 were written: each has the
 * harness's variant (and the Platinum suite's valid rows that read it), not yet three readings.
 */
const FEWER = new Set(['bulk-cap-over', 'platinum-step-order', 'observations-generated', 'conversation-session-id', 'platinum-list-default', 'conversation-newest', 'context-recent-window',
  'observations-limit-window', 'entity-extraction', 'delete-unknown', 'lookup-gone', 'limit-zero-lists', 'clear-session-traces', 'add-entity-existing', 'entity-name-case', 'delete-conversation-steps', 'history-mentions-form', 'cypher-graph-schema', 'workspace-id-form']);

describe('the readings of every silent point', () => {
  it.each(SILENT_POINTS.map((p) => [p.id, p] as const))('%s: three or more valid variants read it differently, its own among them', (id, point) => {
    const readings = READINGS[id] ?? [];
    expect(readings.length).toBeGreaterThanOrEqual(FEWER.has(id) ? 1 : 3);
    expect(readings.filter((name) => !servers.has(name))).toEqual([]);
    expect(readings).toContain(point.variant.name);
  });

  // (And the points of issue 32: readings independent servers took, one variant each so far.)
  it('the points with fewer readings are Platinum points, and each still has fewer than three (else it leaves the list)', () => {
    expect([...FEWER].filter((id) => (READINGS[id] ?? []).length >= 3 || !SILENT_POINTS.some((p) => p.id === id))).toEqual([]);
  });

  it('READINGS names no point the table does not have', () => {
    expect(Object.keys(READINGS).filter((id) => !SILENT_POINTS.some((p) => p.id === id))).toEqual([]);
  });

  it("explore's oracle leaves every point of the table open, and names no other", () => {
    const table = new Set(SILENT_POINTS.map((p) => p.id));
    expect(SILENT_POINTS.map((p) => p.id).filter((id) => OPEN[id] === undefined)).toEqual([]);
    expect(Object.keys(OPEN).filter((id) => !table.has(id))).toEqual([]);
  });
});

describe('the servers tck explore is held silent on', () => {
  it('every valid server of the harness is here, and more than a hundred of them', () => {
    expect(HELD_SILENT.length + Object.keys(PART_ONLY).length).toBe(VALID_SERVERS.length + 1);
    expect(HELD_SILENT.length).toBeGreaterThan(100);
  });
});
