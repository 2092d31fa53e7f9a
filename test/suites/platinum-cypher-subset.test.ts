// The Platinum scenarios stay inside the Cypher of docs/cypher-subset.md (issue 23, item 5): run on
// the reference, every query they send is either a read of the documented shape (one unlabelled
// node, `name` only, every column named with AS) or one of the page's reads of other shapes, answered
// 200, or one of the documented writes, refused; and every query the page lists is one the scenarios send.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runOnVariant, type Wrap } from '../harness/variants.js';
import { HostedStore } from '../../src/servers/hosted/store.js';
import { platinum } from '../../suites/platinum/index.js';

const VALUE = String.raw`(?:\$\w+|'(?:[^'\\]|\\')*'|"[^"]*")`;
/** The read shape of the page: MATCH (n) [WHERE n.name = value] RETURN item AS column [LIMIT n]. */
const READ = new RegExp(String.raw`^MATCH \(n\)(?: WHERE n\.name = ${VALUE})? RETURN (?:count\(n\)|n\.name|\$\w+) AS \w+(?: LIMIT \d+)?$`);
/**
 * The other shapes of the page (SCN-P-124), of which only that they run and how their counts agree is
 * checked: one relationship pattern counted (from one named node, or between two), a label, two equalities with AND, count(*).
 */
const OTHER = new RegExp(
  String.raw`^MATCH (?:\(a\)(?:-\[r(?::\w+)?\]->|<-\[r\]-|-\[r\]-)\(b\)(?: WHERE a\.name = \$x AND b\.name = \$y| WHERE a\.name = \$name)? RETURN count\(r\)|\(n(?::\w+)?\)(?: WHERE n\.name = \$\w+ AND n\.name = \$\w+)? RETURN count\([n*]\)) AS c$`,
);

/** The reads with the common clauses (SCN-P-128): ORDER BY, SKIP, STARTS WITH, CONTAINS, DISTINCT, count(DISTINCT …). */
const COMMON = new RegExp(
  String.raw`^MATCH \(n\) WHERE n\.name (?:STARTS WITH \$prefix|CONTAINS \$part) RETURN (?:DISTINCT n\.name AS name|n\.name AS name ORDER BY name(?: DESC SKIP \d+ LIMIT \d+)?|count\((?:DISTINCT n\.name|n)\) AS c)$`,
);

const page = readFileSync(new URL('../../docs/cypher-subset.md', import.meta.url), 'utf8');
/** The first `query` of the second column of each row of the page's tables under `heading`. */
function listed(heading: string): string[] {
  const section = page.slice(page.indexOf(heading), page.indexOf('\n## ', page.indexOf(heading) + 1));
  return [...section.matchAll(/^\| [^|]+ \| `([^`]+)`/gm)].map((m) => m[1]!);
}

describe('the Cypher of the Platinum scenarios', () => {
  it('is the read shape and the writes of docs/cypher-subset.md, and the page lists what they send', async () => {
    const sent: { cypher: string; status: number }[] = [];
    const record: Wrap = (next) => async (m, b: any) => {
      const res = await next(m, b);
      if (m === 'cypher_query') sent.push({ cypher: b.cypher, status: res.status });
      return res;
    };
    const results = await runOnVariant({ store: new HostedStore(), wrap: record }, platinum.map((s) => s.id));
    expect(results.filter((r) => r.outcome !== 'passed').map((r) => r.id)).toEqual([]);
    const writes = listed('## Writes');
    const reads = sent.filter((q) => q.status === 200).map((q) => q.cypher);
    const others = listed('## Reads of other shapes');
    const refused = sent.filter((q) => q.status !== 200).map((q) => q.cypher);
    const common = listed('## Reads with the common clauses');
    expect(reads.filter((q) => !READ.test(q) && !(OTHER.test(q) && others.includes(q)) && !(COMMON.test(q) && common.includes(q)))).toEqual([]);
    expect(others.filter((q) => !OTHER.test(q))).toEqual([]);
    expect(common.filter((q) => !COMMON.test(q))).toEqual([]);
    expect(refused.filter((q) => !writes.includes(q))).toEqual([]);
    const every = new Set(sent.map((q) => q.cypher));
    expect([...listed('## Reads'), ...others, ...common, ...writes].filter((q) => !every.has(q))).toEqual([]);
    expect([writes.length, listed('## Reads').length, others.length, common.length]).toEqual([7, 10, 15, 5]);
  }, 120_000);
});
