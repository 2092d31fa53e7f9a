// Explore sends every parameter the interface requires (issue 32): a server that refuses a call
// missing a required parameter is right to, and explore must never make one and report the refusal
// as a disagreement (it did with set_entity_feedback without `confirmed`, 9 of 9 independent
// Platinum servers "broken"). What is required comes from the documents, not from what our store
// accepts: the bridge document's method rows ("a trailing ? marks an optional parameter"), the
// BaseAdapter rows of Volume 3 the clause map quotes, and, for the Platinum methods neither has,
// the signatures of SPEC.md Volume 5 and tck/adapters/base_adapter.py (written out below).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { METHODS, METHOD_NAMES, type MethodName } from '../../src/protocols/bridge/index.js';
import { sentenceOf } from '../../src/protocols/clauses/index.js';
import { drawnParams, explorableMethods } from '../../src/explore/commands.js';

/**
 * The Platinum signatures neither the bridge document nor the clause map's Volume 3 rows give,
 * as SPEC.md Volume 5 and base_adapter.py write them (a parameter with a default: `?`).
 */
const PLATINUM_SIGNATURES: Record<string, string> = {
  create_conversation: 'create_conversation(user_id, metadata?)',
  list_conversations: 'list_conversations(limit?)',
  get_context: 'get_context(conversation_id)',
  bulk_add_messages: 'bulk_add_messages(conversation_id, messages)',
  // SPEC-5.3.1: `set_entity_feedback(entity_id, user_score, confirmed)`; base_adapter.py: `*, user_score: float, confirmed: bool` (no default).
  set_entity_feedback: 'set_entity_feedback(entity_id, user_score, confirmed)',
  get_entity_history: 'get_entity_history(entity_id)',
  merge_entities: 'merge_entities(source_id, target_id)',
  explain_step: 'explain_step(step_id)',
  get_trace_by_conversation: 'get_trace_by_conversation(conversation_id)',
  get_entity_provenance: 'get_entity_provenance(entity_id)',
  record_step: 'record_step(conversation_id, reasoning, action_taken, result?)',
  cypher_query: 'cypher_query(cypher, params?)',
};

/** "a, b?, c" -> the required names (the table's "none": no parameter; "…": the rest, all optional). */
function requiredOf(list: string): string[] {
  if (list.trim() === 'none' || list.trim() === '') return [];
  return list.split(',').map((p) => p.trim()).filter((p) => p !== '…' && !p.endsWith('?'));
}

/** The required parameters of a method, as the documents state them. */
function documented(method: MethodName): string[] {
  const row = sentenceOf(`BRIDGE-METHOD-${method}`) ?? sentenceOf(`BRIDGE-LIFECYCLE-${method}`);
  if (row !== undefined) return requiredOf(row.text.split('|')[2]!);
  const signature = /^\w+\(([^)]*)\)/.exec(sentenceOf(`SPEC-V3-${method}`)?.text ?? PLATINUM_SIGNATURES[method] ?? '')?.[1];
  if (signature === undefined) throw new Error(`no document gives the signature of ${method}`);
  return requiredOf(signature);
}

const isRequired = (schema: { safeParse(v: unknown): { success: boolean } }) => !schema.safeParse(undefined).success;
const tableRequired = (method: MethodName) =>
  Object.entries(METHODS[method].params.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>).filter(([, s]) => isRequired(s)).map(([k]) => k);

describe('the method table is the documents\' table of required parameters', () => {
  it.each(METHOD_NAMES)('%s: required parameters as the documents give them', (method) => {
    expect(tableRequired(method).sort()).toEqual(documented(method).sort());
  });

  it('set_entity_feedback requires confirmed (SPEC-5.3.1, the BaseAdapter signature)', () => {
    expect(tableRequired('set_entity_feedback')).toContain('confirmed');
  });
});

describe('every explore command sends each required parameter', () => {
  it.each(explorableMethods(undefined, true))('%s', (method) => {
    const required = documented(method);
    for (const drawn of fc.sample(drawnParams(method), { numRuns: 200, seed: 32 })) {
      const sent = Object.keys(drawn).filter((k) => drawn[k] !== undefined);
      expect(required.filter((p) => !sent.includes(p)), `${method} drawn as ${JSON.stringify(drawn)}`).toEqual([]);
    }
  });
});
