// The clause map, both ways: for every sentence of the specifications (src/protocols/clauses/), the
// assertions that enforce it (scenario id and what the assertion checks), and the sentences no
// assertion checks, with the reason where that is on purpose; then the advisories (the kit's own
// readings) with the assertions that make them. One generator for every view of it: docs/clauses.md
// (from a recording run: every assertion), the Volume 5 part of docs/scenarios.md (from the
// scenarios' clauses), and `tck explain`.
import type { AssertionRecord } from '../engine/result.js';
import { ADVISORIES, SENTENCES, advisoryOf, sentenceOf, type Sentence, type SourceDoc } from '../protocols/clauses/index.js';

/** One assertion (or one scenario naming a clause) and what it cites. */
export interface Use {
  scenario: string;
  what: string;
  cites: readonly string[];
  /** Cited through the scenario's clauses, not by the assertion itself. */
  implicit?: boolean;
  advisory?: boolean;
}

/** A use as it counts for one sentence: directly, or `through` a name it is part of, or a rule it is enforced via. */
interface SentenceUse extends Use {
  through?: string;
}

/** Every assertion of these results (recorded with keepAssertions). */
export function usesOfResults(results: readonly { id: string; checked?: readonly AssertionRecord[] }[]): Use[] {
  return results.flatMap((r) =>
    (r.checked ?? []).map((c) => ({ scenario: r.id, what: c.what, cites: c.cites, ...(c.implicit ? { implicit: true } : {}), ...(c.advisory ? { advisory: true } : {}) })),
  );
}

/** Each scenario as one use of the clauses it names (no run needed: "clause → scenarios"). */
export function usesOfClauses(scenarios: readonly { id: string; title: string; clauses: readonly string[] }[]): Use[] {
  return scenarios.map((s) => ({ scenario: s.id, what: s.title, cites: s.clauses }));
}

/**
 * An assertion's text with what changes from run to run (ids the server made, times, ports, the
 * random part of the kit's own names) replaced, so a map generated twice reads the same.
 */
export function stableText(what: string): string {
  return what
    .replace(/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/g, '<id>')
    .replace(/\b[0-9a-f]{8}(?=…)/g, '<id>')
    .replace(/\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(:\d\d([.,]\d+)?)?([Zz]|[+-]\d\d:?\d\d)?/g, '<time>')
    .replace(/https?:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+/g, '<url>')
    .replace(/\b(tck-[a-z-]+?-)[0-9a-f]{8}\b/g, '$1<random>')
    .replace(/\b\d{13}\b/g, '<epoch ms>')
    // the kid of a signing key made for the run (a JWK thumbprint), named by the forged tokens' labels
    .replace(/\bkid "[A-Za-z0-9_-]{16,}"/g, 'kid "<kid>"');
}

/** Ids in the order a reader expects (numbers compared as numbers: SPEC-1.1.2 before SPEC-1.1.10). */
const byId = (a: string, b: string): number => a.localeCompare(b, 'en', { numeric: true });

/** Which uses count for which sentence: directly, through a name that includes it, or via the rules it is enforced through. */
export class ClauseIndex {
  private readonly byCite = new Map<string, Use[]>();
  /** The names (tables, clauses of several sentences) each sentence is part of. */
  private readonly partOf = new Map<string, string[]>();

  constructor(readonly uses: readonly Use[]) {
    for (const u of uses) for (const id of new Set(u.cites)) this.byCite.set(id, [...(this.byCite.get(id) ?? []), u]);
    for (const s of SENTENCES) for (const p of s.parts ?? []) this.partOf.set(p, [...(this.partOf.get(p) ?? []), s.id]);
  }

  /** The uses citing `id` itself. */
  direct(id: string): readonly Use[] {
    return this.byCite.get(id) ?? [];
  }

  /** Direct uses and those through a name it is part of (citing a table cites each row). */
  private own(id: string): SentenceUse[] {
    return [...this.direct(id), ...(this.partOf.get(id) ?? []).flatMap((name) => this.direct(name).map((u) => ({ ...u, through: name })))];
  }

  /** Every use that counts for the sentence `id`. */
  usesOf(id: string): SentenceUse[] {
    const s = sentenceOf(id);
    return [...this.own(id), ...(s?.via ?? []).flatMap((v) => this.own(v).map((u) => ({ ...u, through: u.through ?? v })))];
  }

  /** The ids cited that are neither sentences nor advisories. */
  unknown(): string[] {
    return [...this.byCite.keys()].filter((id) => sentenceOf(id) === undefined && advisoryOf(id) === undefined).sort(byId);
  }
}

/** The documents, in the order the map shows them. */
export const DOCUMENTS: readonly { doc: SourceDoc; title: string; source: string }[] = [
  { doc: 'bridge', title: 'Bridge protocol', source: '`bridge-protocol.md` (bridge protocol 0.1.0), quoted' },
  { doc: 'spec', title: 'Established SPEC.md, Volumes 1–5', source: "neo4j-labs/agent-memory-tck `SPEC.md` and its registry's clause ids, summarised in the kit's own words" },
  { doc: 'hosted', title: 'Hosted REST interface', source: '`hosted-rest-api.md`, quoted' },
  { doc: 'rfc', title: 'RFCs the hosted document names', source: "RFC 9728, 8414, 7517, 6750, 9110, 8725: the members and sections the kit cites, summarised in the kit's own words" },
];

/** A sentence counted in the totals: not a name for several (a table as a whole, a clause of several sentences). */
const counted = (s: Sentence): boolean => s.parts === undefined;

interface DocCoverage {
  total: number;
  covered: number;
  /** Not checked, on purpose (the sentence says why). */
  onPurpose: number;
}

/** Sentences covered by at least one use, per document (names of several sentences not counted). */
function coverage(index: ClauseIndex, filter: (s: Sentence) => boolean = () => true): Map<SourceDoc, DocCoverage> {
  const out = new Map<SourceDoc, DocCoverage>();
  for (const s of SENTENCES.filter((x) => counted(x) && filter(x))) {
    const c = out.get(s.doc) ?? { total: 0, covered: 0, onPurpose: 0 };
    c.total++;
    if (index.usesOf(s.id).length > 0) c.covered++;
    else if (s.unchecked !== undefined) c.onPurpose++;
    out.set(s.doc, c);
  }
  return out;
}

/** A markdown table cell: no line breaks, no bare `|`. */
const cell = (text: string): string => text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replaceAll('\n', '<br>');
const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Up to `n` ids, then how many more. */
function someIds(ids: readonly string[], n: number): string {
  return ids.length <= n ? ids.join(', ') : `${ids.slice(0, n).join(', ')} +${ids.length - n}`;
}

interface UseGroup {
  /** The assertion's text (run-to-run changes replaced). */
  what: string;
  scenarios: string[];
  count: number;
  through?: string;
  implicit: boolean;
}

/** Uses grouped by what they check (identical texts once), the assertions citing a sentence themselves first, the most widely made first. */
export function groupUses(uses: readonly SentenceUse[]): UseGroup[] {
  const groups = new Map<string, UseGroup>();
  for (const u of uses) {
    const what = stableText(u.what);
    const key = `${u.through ?? ''}\u0000${u.implicit ? 1 : 0}\u0000${what}`;
    const g = groups.get(key) ?? { what, scenarios: [], count: 0, implicit: !!u.implicit, ...(u.through !== undefined ? { through: u.through } : {}) };
    g.count++;
    if (!g.scenarios.includes(u.scenario)) g.scenarios.push(u.scenario);
    groups.set(key, g);
  }
  const rank = (g: UseGroup) => (g.through !== undefined ? 2 : g.implicit ? 1 : 0);
  return [...groups.values()]
    .map((g) => ({ ...g, scenarios: g.scenarios.sort(byId) }))
    .sort((a, b) => rank(a) - rank(b) || b.scenarios.length - a.scenarios.length || a.what.localeCompare(b.what) || (a.through ?? '').localeCompare(b.through ?? ''));
}

/** What a sentence's row says of the uses that count for it: its own, grouped, then each name or rule it counts through. */
function usesCell(uses: readonly SentenceUse[], shown: number, countUses = true): string {
  const scenarios = (list: readonly Use[]) => new Set(list.map((u) => u.scenario)).size;
  const plural = (n: number) => `${n} scenario${n === 1 ? '' : 's'}`;
  const groups = groupUses(uses.filter((u) => u.through === undefined));
  const lines = groups.slice(0, shown).map((g) => `${someIds(g.scenarios, 3)}: ${clip(g.what, 140)}${g.count > g.scenarios.length ? ` ×${g.count}` : ''}`);
  if (groups.length > shown) lines.push(`… ${groups.length - shown} more`);
  const through = [...new Set(uses.flatMap((u) => (u.through === undefined ? [] : [u.through])))].sort(byId);
  for (const t of through.slice(0, shown)) {
    const list = uses.filter((u) => u.through === t);
    lines.push(`through ${t}: ${list.length} in ${plural(scenarios(list))}`);
  }
  if (through.length > shown) lines.push(`… through ${through.length - shown} more`);
  return `${countUses ? `${uses.length} in ` : ''}${plural(scenarios(uses))}<br>${lines.map(cell).join('<br>')}`;
}

const keywordOf = (s: Sentence): string => (s.keyword ? ` (${s.keyword})` : '');

interface MapOptions {
  /** Which sentences (default: all). */
  filter?: (s: Sentence) => boolean;
  /** Markdown heading level of each document's section. */
  level?: number;
  /** The column heading of the uses ("assertions", "scenarios"). */
  usesAre?: string;
  /** How many groups of uses a row shows. */
  shown?: number;
  /** The section's heading, given the counts (default: the document's title and how many are checked). */
  title?: (c: DocCoverage) => string;
  /** Give each sentence's row an HTML anchor, `#<id in lower case>`, so other pages can link to one sentence. */
  anchors?: boolean;
}

/** The anchor docs/clauses.md gives a sentence's row: its id in lower case (`#bridge-response-6`). */
export const clauseAnchor = (id: string): string => id.toLowerCase().replace(/[^a-z0-9._-]/g, '-');

/** The map of one document's sentences (those `filter` keeps): covered ones with their uses, then the rest. */
export function renderDocument(index: ClauseIndex, doc: (typeof DOCUMENTS)[number], options: MapOptions = {}): string[] {
  const filter = options.filter ?? (() => true);
  const h = '#'.repeat(options.level ?? 2);
  const usesAre = options.usesAre ?? 'assertions';
  const idCell = (s: Sentence) => `${options.anchors ? `<a id="${clauseAnchor(s.id)}"></a>` : ''}${s.id}${keywordOf(s)}`;
  const all = SENTENCES.filter((s) => s.doc === doc.doc && filter(s)).sort((a, b) => byId(a.id, b.id));
  if (all.length === 0) return [];
  const c = coverage(index, filter).get(doc.doc) ?? { total: 0, covered: 0, onPurpose: 0 };
  const title = options.title?.(c) ?? `${doc.title}: ${c.covered} of ${c.total} sentences checked`;
  const out = [`${h} ${title}`, '', `Source: ${doc.source}.`, ''];
  const covered = all.filter((s) => index.usesOf(s.id).length > 0);
  const rest = all.filter((s) => counted(s) && index.usesOf(s.id).length === 0);
  if (covered.length > 0) {
    out.push(`| id | sentence | ${usesAre} |`, '|---|---|---|');
    for (const s of covered) {
      const what = s.parts ? `names ${s.parts.join(', ')}` : s.text;
      out.push(`| ${idCell(s)} | ${cell(clip(what, 300))} | ${usesCell(index.usesOf(s.id), options.shown ?? 4, usesAre !== 'scenarios')} |`);
    }
    out.push('');
  }
  if (rest.length > 0) {
    out.push(`${h}# ${usesAre === 'scenarios' ? 'Named by no scenario' : 'Not checked'} (${rest.length})`, '', '| id | sentence | why |', '|---|---|---|');
    for (const s of rest) out.push(`| ${idCell(s)} | ${cell(clip(s.text, 300))} | ${cell(s.unchecked ?? `no ${usesAre === 'scenarios' ? 'scenario names it' : 'assertion checks it yet'}`)} |`);
    out.push('');
  }
  return out;
}

/** The advisories: what each expects, why it is not a rule, the sentences nearest, and the assertions that make it. */
function renderAdvisories(index: ClauseIndex, level = 2): string[] {
  const h = '#'.repeat(level);
  const out = [
    `${h} Advisories: the kit's own readings (${ADVISORIES.length})`,
    '',
    'No sentence states these. An assertion citing one is run and reported in every format, counted apart, and never fails',
    'a scenario or a tier unless the run asks for it (`--advisories fail`).',
    '',
    '| id | expects | why it is not a rule | nearest sentences | assertions |',
    '|---|---|---|---|---|',
  ];
  for (const a of [...ADVISORIES].sort((x, y) => byId(x.id, y.id))) {
    const uses = index.direct(a.id);
    out.push(`| ${a.id} | ${cell(a.expects)} | ${cell(a.reason)} | ${a.near.join(', ')} | ${uses.length === 0 ? 'none yet' : usesCell(uses, 6)} |`);
  }
  out.push('');
  return out;
}

/** docs/clauses.md: the summary, each document's map, and the advisories. */
export function renderClauseMap(uses: readonly Use[]): string {
  const index = new ClauseIndex(uses);
  const totals = coverage(index);
  const lines = [
    '# Clause map',
    '',
    'Generated by `npm run docs` from a run of every scenario (Bronze to Platinum, and the hosted profile) against the',
    'embedded reference servers, keeping every assertion and the sentences it cites; a test keeps it current.',
    '`npx tck explain ID` shows one scenario\'s assertions with their sentences, or one sentence with its assertions.',
    'Each sentence\'s row has an anchor, its id in lower case (`clauses.md#bridge-response-6`), for other pages to link.',
    '',
    'A sentence is checked when an assertion cites it, or cites a name that includes it (a table as a whole: the check',
    'of an answer against the data model checks every row), or cites a rule it is enforced through ("through …").',
    'An assertion that cites nothing itself enforces its scenario\'s clauses. Identical assertions are shown once, with',
    'their scenarios; ×n counts them. Ids, times and the random parts of names are shown as <id>, <time>, <random>.',
    '',
    '| document | sentences | checked | not checked, on purpose | not checked |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const d of DOCUMENTS) {
    const c = totals.get(d.doc) ?? { total: 0, covered: 0, onPurpose: 0 };
    lines.push(`| ${d.title} | ${c.total} | ${c.covered} | ${c.onPurpose} | ${c.total - c.covered - c.onPurpose} |`);
  }
  lines.push('');
  const unknown = index.unknown();
  if (unknown.length > 0) lines.push(`**Cited but not in the clause map:** ${unknown.join(', ')}`, '');
  for (const d of DOCUMENTS) lines.push(...renderDocument(index, d, { anchors: true }));
  lines.push(...renderAdvisories(index));
  return `${lines.join('\n').trimEnd()}\n`;
}

