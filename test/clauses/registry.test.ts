// The clause map's registry (src/protocols/clauses/): every quote is in its document, every id is
// unique and of the scheme, every name and reference points at an entry, and the tables the kit
// checks against (the zod model, the method table, the hosted endpoint tables) agree with the rows
// of the documents they cite.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADVISORIES, SENTENCES, advisoryOf, answerCites, modelCites, sentenceOf, type Sentence } from '../../src/protocols/clauses/index.js';
import { METHODS, type MethodName } from '../../src/protocols/bridge/methods.js';
import { MODEL } from '../../src/protocols/bridge/model.js';
import { DOCUMENT_ENDPOINTS } from '../../src/protocols/hosted/document.js';
import { fromRegistry } from '../../suites/platinum/clauses.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** The two documents of ../shared/spec, beside the checkout (as in CI). */
const SPEC_DIR = resolve(ROOT, '../shared/spec');
const DOCS = { bridge: resolve(SPEC_DIR, 'bridge-protocol.md'), hosted: resolve(SPEC_DIR, 'hosted-rest-api.md') } as const;

/**
 * The ids of the scheme (issue 21), per document; the ids beyond it are listed by name, each with
 * the sentence it names (see the registry's files).
 */
const SCHEME: Record<Sentence['doc'], RegExp> = {
  spec: /^SPEC-(\d+\.\d+\.\d+|V1-[A-Za-z]+\.[a-z_]+|V3-[a-z_]+|V5-\d+\.\d+\.\d+[a-z]?)$/,
  bridge: /^BRIDGE-(GENERAL-[1-6]|MODEL-[A-Za-z]+(\.[a-z_]+)?|STATES-[1-3]|ENDPOINT-[12]|REQUEST-[1-4]|RESPONSE-[1-6]|METHOD-[a-z_]+|LIFECYCLE-[a-z_]+|ERRORS-[1-3]|VERSION-[12]|SERVICE-[1-3]|LIMITS-port)$/,
  hosted: /^HOSTED-(AUTH-([1-8]|BEARER|KEY|TOKEN)|DISCOVERY-[1-3]|RESOURCE-[A-Za-z]+\.[A-Za-z_]+|KEYSTATE-[1-3]|ENDPOINT-[a-z_]+|PAYLOAD-[a-z_]+|LIMIT-key-lifetime|VERSION-[12])$/,
  rfc: /^RFC\d+-[A-Za-z0-9_.]+$/,
};
/** Ids beyond the scheme: sentences it has no id for, and the ids scenarios already cited (kept valid). */
const BEYOND_SCHEME = [
  'SPEC-V5-scope', 'BRIDGE-SERVICE-env', 'BRIDGE-LIMITS-port-env',
  'HOSTED-READBACK', 'HOSTED-CAMELCASE', 'HOSTED-SERVICE-1', 'HOSTED-SERVICE-2a', 'HOSTED-SERVICE-2b', 'HOSTED-SERVICE-3a', 'HOSTED-SERVICE-3b',
  'HOSTED-SERVICE-4', 'HOSTED-SERVICE-5', 'HOSTED-RESOURCE-casing', 'HOSTED-KEYSTATE-dashboard',
  'HOSTED-PATHS-1', 'HOSTED-PATHS-2', 'HOSTED-PATHS-3', 'HOSTED-PATHS-4', 'HOSTED-PATHS-5',
];
/** Names of several sentences: a resource table as a whole. */
const NAME = /^(BRIDGE-MODEL-[A-Za-z]+|HOSTED-RESOURCE-[A-Za-z]+|SPEC-V5-\d+\.\d+\.\d+)$/;

/**
 * Where a quote must be: between the heading its section names (the last part of "A › B", under
 * the heading of the part before it) and the next heading of that level or above.
 */
function sectionText(doc: string, section: string): string | undefined {
  const lines = doc.split('\n');
  let from = 0;
  let to = lines.length;
  for (const part of section.split(' › ')) {
    const at = lines.findIndex((l, i) => i >= from && i < to && /^#{2,4} /.test(l) && l.replace(/^#+ /, '') === part);
    if (at < 0) return undefined;
    const level = lines[at]!.match(/^#+/)![0].length;
    const next = lines.findIndex((l, i) => i > at && /^#+ /.test(l) && l.match(/^#+/)![0].length <= level);
    from = at + 1;
    to = next < 0 ? to : Math.min(to, next);
  }
  return lines.slice(from, to).join('\n');
}

describe('the registry of sentences', () => {
  it('ids are unique, among the sentences and the advisories', () => {
    const ids = [...SENTENCES.map((s) => s.id), ...ADVISORIES.map((a) => a.id)];
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('every id is of the scheme, or one of the ids beyond it that are listed', () => {
    const off = SENTENCES.filter((s) => !SCHEME[s.doc].test(s.id) && !(s.parts && NAME.test(s.id)) && !BEYOND_SCHEME.includes(s.id)).map((s) => s.id);
    expect(off).toEqual([]);
    expect(BEYOND_SCHEME.filter((id) => sentenceOf(id) === undefined)).toEqual([]);
    expect(ADVISORIES.map((a) => a.id).filter((id) => !/^ADV-[a-z0-9]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
  });

  it('every entry says something: a section, a text, and a reason when it is unchecked on purpose', () => {
    const empty = SENTENCES.filter((s) => !s.section.trim() || !s.text.trim() || (s.unchecked !== undefined && !s.unchecked.trim()));
    expect(empty.map((s) => s.id)).toEqual([]);
  });

  it('names and rules point at entries: parts are sentences of the same document, via points at sentences, advisories near sentences', () => {
    const bad: string[] = [];
    for (const s of SENTENCES) {
      for (const p of s.parts ?? []) {
        const part = sentenceOf(p);
        if (part === undefined || part.doc !== s.doc || part.parts !== undefined) bad.push(`${s.id} part ${p}`);
      }
      for (const v of s.via ?? []) if (sentenceOf(v) === undefined || v === s.id) bad.push(`${s.id} via ${v}`);
      if (s.parts && s.unchecked) bad.push(`${s.id}: a name is checked through its parts, it has no reason of its own`);
    }
    for (const a of ADVISORIES) {
      if (a.near.length === 0 || !a.expects.trim() || !a.reason.trim()) bad.push(`${a.id}: expects, reason and near sentences are needed`);
      for (const n of a.near) if (sentenceOf(n) === undefined) bad.push(`${a.id} near ${n}`);
    }
    expect(bad).toEqual([]);
  });

  it('the sentences a profile cites for every call of every method exist (answerCites, modelCites)', () => {
    const missing = (Object.keys(METHODS) as MethodName[]).flatMap((m) => [...answerCites(m), ...modelCites(m)].filter((id) => sentenceOf(id) === undefined).map((id) => `${m}: ${id}`));
    expect(missing).toEqual([]);
  });

  it("every clause of the established registry's scenarios is an entry (Volume 5's as SPEC-V5-…)", () => {
    const registry = JSON.parse(readFileSync(resolve(ROOT, 'fixtures/established-registry.json'), 'utf8')) as { scenarios: { tier: string; clause: string }[] };
    const missing = registry.scenarios.map((r) => (r.tier === 'platinum' ? fromRegistry(r.clause) : r.clause)).filter((c) => sentenceOf(c) === undefined);
    expect(missing).toEqual([]);
  });

  it('the quoted documents keep their wording: every quote of the bridge and hosted documents is in its section, verbatim', (ctx) => {
    if (!existsSync(DOCS.bridge) || !existsSync(DOCS.hosted)) {
      ctx.skip(`the specifications are not beside the checkout (${SPEC_DIR}): the quotes cannot be checked here`);
      return;
    }
    const text = { bridge: readFileSync(DOCS.bridge, 'utf8'), hosted: readFileSync(DOCS.hosted, 'utf8') };
    const notFound = SENTENCES.filter((s) => s.doc === 'bridge' || s.doc === 'hosted').filter((s) => {
      const within = sectionText(text[s.doc as 'bridge' | 'hosted'], s.section);
      return within === undefined || !within.includes(s.text);
    });
    expect(notFound.map((s) => `${s.id} (${s.section}): ${s.text}`)).toEqual([]);
  });

  it('every row of the documents\' tables is an entry (the map leaves no row out)', (ctx) => {
    if (!existsSync(DOCS.bridge) || !existsSync(DOCS.hosted)) {
      ctx.skip(`the specifications are not beside the checkout (${SPEC_DIR})`);
      return;
    }
    const quoted = new Set(SENTENCES.flatMap((s) => s.text.split('\n')));
    const rows = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('| ') && !/^\|[-|]+$/.test(l));
    // The header row of each table is not a sentence.
    const headers = new Set(['| Field | Type | Notes |', '| Kind | Status | Body |', '| Path | Parameters | Returns |', '| Limit | Value |', '| Resource | Field | Type / meaning |',
      '| State | Trigger | Condition | Next state | Other effects |', '| Method | Path | Operation |', '| Operation | Sent | Returned |', '| Path | Content |', '| Limit | Value | Applies to |']);
    const missing = [...rows(DOCS.bridge), ...rows(DOCS.hosted)].filter((r) => !headers.has(r) && !quoted.has(r));
    expect(missing).toEqual([]);
  });
});

describe('the registry agrees with what the kit checks against', () => {
  const fields = (id: string) => SENTENCES.filter((s) => s.id.startsWith(`${id}.`)).map((s) => s.id.slice(id.length + 1)).sort();

  it('each bridge resource table has one row per field of the zod model that checks it, and no other', () => {
    for (const table of SENTENCES.filter((s) => s.id.startsWith('BRIDGE-MODEL-') && s.parts)) {
      const name = table.id.slice('BRIDGE-MODEL-'.length) as keyof typeof MODEL;
      expect(fields(table.id), table.id).toEqual(Object.keys(MODEL[name].shape).sort());
    }
  });

  it('each bridge method row names the method table\'s parameters, optional ones with ?', () => {
    for (const [name, spec] of Object.entries(METHODS)) {
      if (spec.tier === 'platinum') continue;
      const row = sentenceOf(spec.tier === 'lifecycle' ? `BRIDGE-LIFECYCLE-${name}` : `BRIDGE-METHOD-${name}`);
      expect(row, name).toBeDefined();
      const listed = row!.text.split('|')[2]!.trim();
      const params = Object.entries(spec.params.shape).map(([p, schema]) => `${p}${(schema as { safeParse(v: unknown): { success: boolean } }).safeParse(undefined).success ? '?' : ''}`);
      expect(listed === 'none' ? [] : listed.split(', '), name).toEqual(params);
    }
  });

  it('the hosted endpoint rows are the endpoint tables the hosted profile checks (same method, path and operation)', () => {
    const rows = SENTENCES.filter((s) => s.id.startsWith('HOSTED-ENDPOINT-')).map((s) => {
      const [method, path] = s.text.split('|').slice(1, 3).map((c) => c.trim());
      return `${method} ${path} ${s.id.slice('HOSTED-ENDPOINT-'.length)}`;
    });
    expect(rows).toEqual(DOCUMENT_ENDPOINTS.map((e) => `${e.method} ${e.path} ${e.operation}`));
    const operations = new Set(DOCUMENT_ENDPOINTS.map((e) => e.operation));
    expect(SENTENCES.filter((s) => s.id.startsWith('HOSTED-PAYLOAD-')).map((s) => s.id.slice('HOSTED-PAYLOAD-'.length)).filter((o) => !operations.has(o))).toEqual([]);
  });
});

describe('the established SPEC.md', () => {
  /** The established repository, fetched beside the project (locally; CI has no copy): SPEC.md at its HEAD. */
  const established = (): string | undefined => {
    const gitDir = process.env.TCK_ESTABLISHED_GIT ?? resolve(ROOT, '../.mirror/neo4j-labs+agent-memory-tck/repo');
    if (!existsSync(gitDir)) return undefined;
    try {
      return execFileSync('git', ['--git-dir', gitDir, 'show', 'HEAD:SPEC.md'], { encoding: 'utf8' });
    } catch {
      return undefined;
    }
  };

  it('every keyword clause of Volumes 1, 2 and 4 is an entry with its keyword, and no entry claims one SPEC.md does not state', (ctx) => {
    const spec = established();
    if (spec === undefined) {
      ctx.skip('the established repository is not fetched beside the project (set TCK_ESTABLISHED_GIT to its git dir)');
      return;
    }
    const volume5 = spec.indexOf('# Volume 5');
    const stated = new Map<string, string>();
    for (const m of spec.slice(0, volume5).matchAll(/\*\*(SPEC-\d+\.\d+\.\d+)(?:–(\d+\.\d+\.(\d+)))?\*\*: ([^\n]*)/g)) {
      const keyword = /MUST NOT/.test(m[4]!) ? 'MUST NOT' : /MUST/.test(m[4]!) ? 'MUST' : /SHOULD/.test(m[4]!) ? 'SHOULD' : 'MAY';
      const first = Number(m[1]!.split('.')[2]);
      const last = m[3] !== undefined ? Number(m[3]) : first;
      for (let n = first; n <= last; n++) stated.set(m[1]!.replace(/\.\d+$/, `.${n}`), keyword);
    }
    expect(stated.size).toBe(150);
    const mismatched = [...stated].filter(([id, keyword]) => sentenceOf(id)?.keyword !== keyword).map(([id, k]) => `${id}: SPEC.md ${k}, registry ${sentenceOf(id)?.keyword ?? 'missing'}`);
    expect(mismatched).toEqual([]);
    const claimed = SENTENCES.filter((s) => /^SPEC-\d/.test(s.id) && s.keyword !== undefined && !stated.has(s.id)).map((s) => s.id);
    expect(claimed).toEqual([]);
    for (const m of spec.slice(volume5).matchAll(/\*\*SPEC-(5\.\d+\.\d+)\*\*/g)) expect(sentenceOf(`SPEC-V5-${m[1]}`), m[1]).toBeDefined();
  });
});

describe('lookups', () => {
  it('sentenceOf and advisoryOf find entries by id and nothing else', () => {
    expect(sentenceOf('SPEC-2.2.1')?.keyword).toBe('MUST');
    expect(sentenceOf('BRIDGE-RESPONSE-6')?.text).toBe('| Error | 400 or 500 | object with string field error |');
    expect(sentenceOf('ADV-refuse-missing-param')).toBeUndefined();
    expect(advisoryOf('ADV-refuse-missing-param')?.near).toContain('BRIDGE-ERRORS-1');
    expect(advisoryOf('SPEC-2.2.1')).toBeUndefined();
  });
});
