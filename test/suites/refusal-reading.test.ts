// The one reading of a refused, absent or null answer (readAnswer, src/profiles/bridge/classify.ts),
// shared by suites/support/refusals.ts, expectGone, the context's expectError and explore. Issue 32:
// a server answering 200 null for a deleted conversation or entity was reported as a data-model
// violation by SCN-P-112, SCN-P-117 and SCN-P-125 before their own rule ("an error or null") was
// asked; every Platinum server failed them, so the faulty ones proved nothing there.
import { describe, expect, it } from 'vitest';
import { classifyResponse, type Outcome } from '../../src/profiles/bridge/index.js';
import { readAnswer } from '../../src/profiles/bridge/classify.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { PLATINUM_VARIANTS } from '../harness/valid-variants.js';
import { runOnVariant, type Wrap } from '../harness/variants.js';
import { CATALOGUE } from './variants/platinum-catalogue.js';
import { run } from './variants/platinum-base.js';

const facts = (status: number, text: string) => ({ status, text, bytes: Buffer.byteLength(text) });
const read = (kind: Parameters<typeof classifyResponse>[0], status: number, text: string) => readAnswer(classifyResponse(kind, facts(status, text)));

describe('readAnswer: one reading of every answer', () => {
  it('reads a 200 null as null for every response kind that has a body, an object row included', () => {
    for (const kind of ['object', 'object-or-null', 'list', 'deleted'] as const) expect(read(kind, 200, 'null')).toEqual({ kind: 'null' });
  });
  it('reads 400/500 {"error"} as refused, 404/501 as absent, a wrong shape as a violation', () => {
    expect(read('object', 400, '{"error":"no such entity"}')).toEqual({ kind: 'refused', status: 400, message: 'no such entity' });
    expect(read('object', 500, '{"error":"x"}')).toMatchObject({ kind: 'refused', status: 500 });
    expect(read('object', 501, '')).toMatchObject({ kind: 'absent' });
    expect(read('object', 200, '[1]')).toMatchObject({ kind: 'violation', reason: expect.stringMatching(/a JSON object expected, got an array/) });
    expect(read('object', 200, '"null"')).toMatchObject({ kind: 'violation' });
    expect(read('object', 400, '{"message":"x"}')).toMatchObject({ kind: 'violation' });
  });
  it('reads what the method answers as accepted (204: no value)', () => {
    expect(read('object', 200, '{"id":"a"}')).toEqual({ kind: 'accepted', value: { id: 'a' } });
    expect(read('void', 204, '')).toEqual({ kind: 'accepted', value: undefined });
  });
  it('a call that must succeed still fails on a 200 null where its row names an object', () => {
    const o: Outcome = classifyResponse('object', facts(200, 'null'));
    expect(o).toMatchObject({ kind: 'violation', reason: 'a JSON object expected, got null' });
  });
});

const GONE = ['SCN-P-112', 'SCN-P-117', 'SCN-P-125'];
const nullVariant = PLATINUM_VARIANTS.find(([name]) => /answers 200 null/.test(name))!;

describe('SCN-P-112, SCN-P-117, SCN-P-125 on a lookup of what is gone', () => {
  it('pass on a server answering 200 null for a deleted or cleared conversation or entity', async () => {
    const results = await runOnVariant(nullVariant[1](), GONE);
    expect(results.map((r) => [r.id, r.outcome, r.message ?? ''])).toEqual(GONE.map((id) => [id, 'passed', '']));
  }, 60_000);

  it.each(CATALOGUE.filter((f) => /keeps answering a deleted conversation|delete_entity hides the entity/.test(f.fault)))('still fail a server answering the deleted item ($id: $fault)', async (f) => {
    const [id, message] = f.caught!;
    const [r] = await run(f.variant, [id]);
    expect([r!.outcome, r!.message]).toEqual(['failed', expect.stringMatching(message)]);
  }, 60_000);

  it('fail a server answering 200 with something that is neither null nor an object, naming what came', async () => {
    const wrong: Wrap = (next) => async (method, body: any) => {
      const res = await next(method, body);
      return (method === 'get_entity' || method === 'get_conversation_metadata') && res.status >= 400 ? { status: 200, body: 'gone' } : res;
    };
    const results = await runOnVariant({ store: new HostedStore(), wrap: wrong }, GONE);
    expect(results.map((r) => [r.id, r.outcome, /expected an error \(400 or 500 \{"error"\}\) or null, got a JSON object expected, got a string: "gone"/.test(r.message ?? '') ? 'named' : r.message])).toEqual(GONE.map((id) => [id, 'failed', 'named']));
  }, 60_000);
});
