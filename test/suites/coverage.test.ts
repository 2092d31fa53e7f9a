// Traceability: every registry scenario of the established kit has its counterpart here (same id,
// tier and clause), and every MUST clause of its Volumes 1-5 is named by a scenario (the clause map,
// test/clauses/, checks what each assertion cites; it also keeps docs/ current).
// Volume 5 (Platinum) reuses Volume 4's clause numbers: its clauses are SPEC-V5-… here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SENTENCES } from '../../src/protocols/clauses/index.js';
import { ALL_SCENARIOS } from '../../suites/index.js';
import { HOSTED_SCENARIOS } from '../../suites/hosted/index.js';
import { VOLUME5_CLAUSES, fromRegistry, ofClause } from '../../suites/platinum/clauses.js';

const registry = JSON.parse(readFileSync(new URL('../../fixtures/established-registry.json', import.meta.url), 'utf8')) as {
  scenarios: { id: string; tier: string; clause: string }[];
};
/** The clauses of SPEC.md's Volumes 1, 2 and 4 (the registry of the clause map holds them with their keywords). */
const clauses = SENTENCES.filter((s) => /^SPEC-\d/.test(s.id) && s.keyword !== undefined).map((s) => ({ clause: s.id, keyword: s.keyword! }));
const byId = new Map(ALL_SCENARIOS.map((s) => [s.id, s]));
const bridgeRegistry = registry.scenarios.filter((r) => r.tier !== 'platinum');
const platinumRegistry = registry.scenarios.filter((r) => r.tier === 'platinum');

describe('coverage of the established registry', () => {
  it('holds the 178 bridge scenarios of the registry', () => expect(bridgeRegistry).toHaveLength(178));

  it('every registry scenario has a counterpart with the same id, tier and clause', () => {
    const missing = bridgeRegistry.filter((r) => {
      const s = byId.get(r.id);
      return !s || s.tier !== r.tier || !s.clauses.includes(r.clause);
    });
    expect(missing.map((r) => `${r.id} (${r.tier}, ${r.clause})`)).toEqual([]);
  });

  it('holds the 11 Platinum scenarios of the registry, each with its counterpart (same id, tier, the Volume 5 clause)', () => {
    expect(platinumRegistry.map((r) => r.id)).toEqual(Array.from({ length: 11 }, (_, i) => `SCN-P-${String(i + 1).padStart(3, '0')}`));
    const missing = platinumRegistry.filter((r) => {
      const s = byId.get(r.id);
      return !s || s.tier !== 'platinum' || !s.clauses.some((c) => ofClause(c, fromRegistry(r.clause)));
    });
    expect(missing.map((r) => `${r.id} (${r.tier}, ${r.clause})`)).toEqual([]);
  });

  it('every clause of Volume 5 (15, MUST and MAY) is checked by at least one Platinum scenario', () => {
    const checked = ALL_SCENARIOS.filter((s) => s.tier === 'platinum').flatMap((s) => s.clauses);
    expect(VOLUME5_CLAUSES).toHaveLength(15);
    expect(VOLUME5_CLAUSES.filter((c) => !checked.some((id) => ofClause(id, c.clause))).map((c) => c.clause)).toEqual([]);
  });

  it('every sentence of Volume 5 in the clause map is named by a Platinum scenario, or the map says why not', () => {
    const platinum = ALL_SCENARIOS.filter((s) => s.tier === 'platinum');
    const checked = new Set(platinum.flatMap((s) => s.clauses));
    const volume5 = SENTENCES.filter((x) => x.id.startsWith('SPEC-V5-') && x.parts === undefined);
    expect(volume5.length).toBeGreaterThanOrEqual(17);
    expect(volume5.filter((x) => x.unchecked === undefined && !checked.has(x.id)).map((x) => x.id)).toEqual([]);
    expect(volume5.filter((x) => x.unchecked !== undefined && checked.has(x.id)).map((x) => x.id)).toEqual([]);
    // A Volume 5 clause of two sentences is cited by its lettered ids only.
    expect([...checked].filter((id) => id === 'SPEC-V5-5.3.1' || id === 'SPEC-V5-5.5.1')).toEqual([]);
  });

  it('every MUST and MUST NOT clause of Volumes 1, 2 and 4 (150 clauses with a keyword) is checked by at least one scenario', () => {
    expect(clauses).toHaveLength(150);
    const checked = new Set(ALL_SCENARIOS.flatMap((s) => s.clauses));
    const unchecked = clauses.filter((c) => c.keyword.startsWith('MUST') && !checked.has(c.clause)).map((c) => c.clause);
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

describe('the hosted profile', () => {
  it('ids are SCN-H-nnn, unique among every scenario of the kit', () => {
    const ids = [...ALL_SCENARIOS, ...HOSTED_SCENARIOS].map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(HOSTED_SCENARIOS.map((s) => s.id).filter((id) => !/^SCN-H-\d{3}$/.test(id))).toEqual([]);
  });

  it('every scenario names a clause, a title, what it asserts and its group', () => {
    const incomplete = HOSTED_SCENARIOS.filter((s) => s.clauses.length === 0 || !s.title.trim() || !s.asserts.trim() || !['resources', 'credentials', 'discovery'].includes(s.group));
    expect(incomplete.map((s) => s.id)).toEqual([]);
  });

  it('checks every endpoint of the document and every rule of its Authentication section but the client-side one', () => {
    const clauses = new Set(HOSTED_SCENARIOS.flatMap((s) => s.clauses));
    const endpoints = ['list_conversations', 'create_conversation', 'get_conversation_metadata', 'delete_conversation', 'get_conversation', 'add_message',
      'bulk_add_messages', 'search_messages', 'get_context', 'get_observations', 'get_reflections', 'list_entities', 'add_entity', 'get_entity',
      'update_entity', 'delete_entity', 'set_entity_feedback', 'get_entity_history', 'merge_entities', 'get_entity_graph', 'search_entities',
      'record_step', 'list_steps', 'explain_step', 'record_tool_call', 'get_trace_by_conversation', 'get_entity_provenance', 'cypher_query',
      'list_api_keys', 'create_api_key', 'revoke_api_key', 'reveal_api_key', 'refresh_access_token', 'token_exchange'];
    const wanted = [...endpoints.map((o) => `HOSTED-ENDPOINT-${o}`), ...[1, 2, 3, 4, 5, 6, 7].map((n) => `HOSTED-AUTH-${n}`), 'HOSTED-AUTH-BEARER',
      'HOSTED-DISCOVERY-1', 'HOSTED-DISCOVERY-2', 'HOSTED-DISCOVERY-3', 'HOSTED-CAMELCASE'];
    expect(wanted.filter((c) => !clauses.has(c))).toEqual([]);
  });
});
