// The coverage matrix: generated from the method tables, covered by what the fixed scenarios and
// seeded explorations (bridge and hosted) really send (never by hand), docs/coverage.md current, and no cell left
// uncovered without a written reason.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { coverageMatrix, figures, matrixCells, renderCoverage, trailCells, type Matrix } from '../../src/report/coverage.js';
import { EXPLORE_SAMPLE, exploreTrails, fixedTrails, HOSTED_EXPLORE_SAMPLE, hostedExploreTrails } from './trails.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

let matrix: Matrix;
beforeAll(async () => {
  const [fixed, explored, classed, hostedExplored] = await Promise.all([
    fixedTrails(), exploreTrails(), exploreTrails({ seed: EXPLORE_SAMPLE.seed, runs: EXPLORE_SAMPLE.classesRuns }, true), hostedExploreTrails(),
  ]);
  for (const e of [explored, classed]) {
    expect(e.findings, 'the exploration of the reference finds nothing').toBe(0);
    expect(e.runsDone, 'the exploration ran every sequence (the sample is fixed, never cut by time)').toBe(EXPLORE_SAMPLE.runs);
  }
  expect(hostedExplored.findings, 'the hosted exploration of the reference finds nothing').toBe(0);
  expect(hostedExplored.sequences, 'the hosted exploration ran every sequence (the sample is fixed, never cut by time)').toBe(HOSTED_EXPLORE_SAMPLE.runs);
  matrix = coverageMatrix({ fixed: fixed.bridge, hosted: fixed.hosted, explore: explored.trails, classes: classed.trails, hostedExplore: hostedExplored.trails });
  if (process.env.TCK_MATRIX_FIGURES === '1') console.log(JSON.stringify(figures(matrix.cells)));
}, 600_000);

describe('the coverage matrix', () => {
  it('every cell is covered by a fixed scenario or an exploration, or says why not', () => {
    expect(matrix.unexplained.map((c) => c.id)).toEqual([]);
  });

  it('every written reason explains at least one uncovered cell (none is stale)', () => {
    expect(matrix.staleReasons.map((r) => String(r.cells))).toEqual([]);
  });

  it('docs/coverage.md is current (regenerate with `npm run docs`)', () => {
    const path = resolve(ROOT, 'docs/coverage.md');
    const text = renderCoverage(matrix, EXPLORE_SAMPLE, HOSTED_EXPLORE_SAMPLE);
    if (process.env.TCK_UPDATE_DOCS === '1') writeFileSync(path, text);
    expect(readFileSync(path, 'utf8'), 'docs/coverage.md is stale: run `npm run docs`').toBe(text);
  });
});

describe('the cells and the classification of what was sent', () => {
  it('every cell id is unique, and every method of the table has cells', () => {
    const ids = matrixCells().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('each value class is recognised in a request', () => {
    const call = (method: string, params: Record<string, unknown>, status = 200, body?: unknown) => ({ method, params, status, body });
    const cells = trailCells({
      source: 't',
      calls: [
        call('add_message', { session_id: ' s', role: 'USER', content: 'Cafe\u0301 \u0001 مرحبا 🚀 "q"', metadata: { a: { b: 0.1 }, 'ключ': [2 ** 40] } }),
        call('add_message', { session_id: 's', role: 'user', content: 'Café'.padEnd(1200, 'x'), metadata: {} }),
        call('get_conversation', { session_id: 's', limit: 11 }),
        call('add_entity', { name: 'A', entity_type: 'PERSON' }, 200, { id: '00000000-0000-4000-8000-000000000001' }),
        call('add_entity', { name: 'A', entity_type: 'PERSON' }, 200, { id: '00000000-0000-4000-8000-000000000002' }),
        call('add_entity', { name: 'C', entity_type: 'PERSON' }, 200, { id: '00000000-0000-4000-8000-000000000003' }),
        call('get_entity_by_name', { name: 'A' }),
        call('add_relationship', { source_id: '00000000-0000-4000-8000-000000000001', target_id: '00000000-0000-4000-8000-000000000002', relationship_type: 'K' }),
        call('add_relationship', { source_id: '00000000-0000-4000-8000-000000000002', target_id: '00000000-0000-4000-8000-000000000001', relationship_type: 'K' }),
        call('get_related_entities', { entity_id: '00000000-0000-4000-8000-000000000001', depth: 2 }),
        call('merge_duplicate_entities', { source_id: '00000000-0000-4000-8000-000000000001', target_id: '00000000-0000-4000-8000-000000000002' }),
        call('merge_duplicate_entities', { source_id: '00000000-0000-4000-8000-000000000002', target_id: '00000000-0000-4000-8000-000000000003' }),
        call('delete_message', { message_id: 'nope' }, 400),
        call('delete_message', { message_id: '00000000-0000-4000-8000-000000000003' }),
        call('search_messages', { query: 'x', session_id: 's', limit: 2, threshold: 0.1 }),
        call('get_entity_by_name', { name: 'A' }),
      ],
    });
    for (const id of [
      'value/add_message/content/nfd', 'value/add_message/content/control', 'value/add_message/content/non-latin', 'value/add_message/content/astral',
      'value/add_message/content/escapes', 'value/add_message/content/nfc', 'value/add_message/content/long', 'value/add_message/session_id/edge-space',
      'value/add_message/role/case-variant', 'value/add_message/role/member:user', 'value/add_message/metadata/float32-lossy', 'value/add_message/metadata/beyond-int32',
      'value/add_message/metadata/non-latin-key', 'value/add_message/metadata/nested', 'value/add_message/metadata/array-value', 'value/add_message/metadata/empty',
      'value/get_conversation/limit/page-edge', 'value/delete_message/message_id/malformed', 'value/delete_message/message_id/other-kind',
      'value/search_messages/threshold/float32-lossy', 'value/search_messages/threshold/fraction',
      'history/get_entity_by_name/two of one kind/namesakes', 'history/get_entity_by_name/read → write → read/merge_duplicate_entities',
      'history/merge_duplicate_entities/chain/A → B → C', 'graph/get_related_entities/cycle/get_related_entities depth>=2',
      'limit-filter/search_messages/session_id/limit + filter', 'limit-filter/search_messages/threshold/limit + filter',
      'framing/delete_message/answer/error', 'framing/delete_message/answer/success',
    ]) expect(cells, id).toContain(id);
    expect(cells).not.toContain('history/get_conversation/read → write → read/add_message');
    expect(cells).not.toContain('graph/get_related_entities/self-loop/get_related_entities depth>=2');
  });
});
