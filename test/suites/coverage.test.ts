// Traceability: every registry scenario of the established kit has its counterpart here (same id,
// tier and clause), every MUST clause of its Volumes 1-4 is checked, and the catalogue is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderCatalogue } from '../../src/catalogue.js';
import { ALL_SCENARIOS } from '../../suites/index.js';

const registry = JSON.parse(readFileSync(new URL('../../fixtures/established-registry.json', import.meta.url), 'utf8')) as {
  scenarios: { id: string; tier: string; clause: string }[];
};
const clauses = JSON.parse(readFileSync(new URL('../../fixtures/established-clauses.json', import.meta.url), 'utf8')) as {
  clauses: { clause: string; keyword: string }[];
};
const byId = new Map(ALL_SCENARIOS.map((s) => [s.id, s]));
const bridgeRegistry = registry.scenarios.filter((r) => r.tier !== 'platinum');

describe('coverage of the established registry', () => {
  it('holds the 178 bridge scenarios of the registry', () => expect(bridgeRegistry).toHaveLength(178));

  it('every registry scenario has a counterpart with the same id, tier and clause', () => {
    const missing = bridgeRegistry.filter((r) => {
      const s = byId.get(r.id);
      return !s || s.tier !== r.tier || !s.clauses.includes(r.clause);
    });
    expect(missing.map((r) => `${r.id} (${r.tier}, ${r.clause})`)).toEqual([]);
  });

  it('every MUST clause of Volumes 1-4 is checked by at least one scenario', () => {
    const checked = new Set(ALL_SCENARIOS.flatMap((s) => s.clauses));
    const unchecked = clauses.clauses.filter((c) => c.keyword === 'MUST' && !checked.has(c.clause)).map((c) => c.clause);
    expect(unchecked).toEqual([]);
  });

  it("ids are unique, and the kit's own ids start at 101", () => {
    const ids = ALL_SCENARIOS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    const registryIds = new Set(registry.scenarios.map((r) => r.id));
    const own = ids.filter((id) => !registryIds.has(id));
    expect(own.filter((id) => Number(id.slice(6)) < 101)).toEqual([]);
  });

  it('every scenario names a clause, a title and what it asserts', () => {
    const incomplete = ALL_SCENARIOS.filter((s) => s.clauses.length === 0 || !s.title.trim() || !s.asserts.trim() || !s.group.trim());
    expect(incomplete.map((s) => s.id)).toEqual([]);
  });
});

describe('docs/scenarios.md', () => {
  const path = new URL('../../docs/scenarios.md', import.meta.url);
  it('is current (regenerate with `npm run docs`)', () => {
    // `npm run docs` sets TCK_UPDATE_DOCS: the catalogue is rewritten, like a snapshot update.
    if (process.env.TCK_UPDATE_DOCS === '1') writeFileSync(path, renderCatalogue(ALL_SCENARIOS));
    expect(readFileSync(path, 'utf8')).toBe(renderCatalogue(ALL_SCENARIOS));
  });
});
