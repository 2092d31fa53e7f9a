// What docs/library.md promises the package exports is what src/index.ts (the package's entry) exports,
// both ways: its table of exports ("What the package exports") against the export
// declarations of src/index.ts (types included) and against what the module holds at run time.
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as tck from '../../src/index.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The first column of docs/library.md's export table: `name` or `type Name`, several per row. */
function documented(): string[] {
  const page = read('docs/library.md');
  const start = page.indexOf('\n## What the package exports\n');
  if (start < 0) return [];
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end < 0 ? undefined : end);
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

/** Every name src/index.ts exports, as `name` or `type Name`. */
function exported(): string[] {
  const source = ts.createSourceFile('index.ts', read('src/index.ts'), ts.ScriptTarget.ES2022);
  return source.statements.flatMap((statement) => {
    if (!ts.isExportDeclaration(statement)) return [];
    const clause = statement.exportClause;
    if (!clause) return ['export * (name what the entry exports)'];
    if (ts.isNamespaceExport(clause)) return [clause.name.text];
    return clause.elements.map((e) => `${statement.isTypeOnly || e.isTypeOnly ? 'type ' : ''}${e.name.text}`);
  });
}

describe('the library entry', () => {
  const promised = documented();

  it('finds the table of docs/library.md', () => {
    expect(promised).toContain('runTck');
    expect(promised).toContain('type Report');
  });

  it('exports every name docs/library.md documents, and documents every name it exports', () => {
    expect([...exported()].sort()).toEqual([...promised].sort());
  });

  it('holds every value docs/library.md documents at run time, and nothing else', () => {
    const values = promised.filter((name) => !name.startsWith('type '));
    expect(Object.keys(tck).sort()).toEqual(values.sort());
    for (const name of values) expect((tck as Record<string, unknown>)[name], name).toBeDefined();
  });

  it.each([
    'runTck', 'runHostedProfile', 'renderJson', 'renderJunit', 'renderHtml', 'renderMarkdown', 'renderBadge',
    'diffReports', 'evaluateBaseline', 'reproScript', 'selectScenarios', 'defineScenario', 'BridgeClient',
    'startReferenceServer', 'startHostedServer', 'startCombinedServers', 'createForwarder', 'grade',
  ])('exports the function %s', (name) => {
    expect(typeof (tck as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the scenarios, the report schema and the data-model schemas', () => {
    expect(tck.ALL_SCENARIOS.length).toBeGreaterThanOrEqual(178);
    expect(tck.HOSTED_SCENARIOS.length).toBeGreaterThan(0);
    expect(tck.ReportSchema.safeParse({}).success).toBe(false);
    expect(tck.schema.Message.safeParse({}).success).toBe(false);
  });

  it('a vendor embedding the hosted service can trust and mint development identity tokens', async () => {
    const idp = await tck.DevIdentityProvider.generate();
    const server = await tck.startHostedServer({ port: 0, identityProviders: [idp.trustedIssuer()] });
    try {
      const res = await fetch(`${server.baseUrl}/auth/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ subjectToken: await idp.mint({ subject: 'vendor' }) }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i) });
    } finally {
      await server.close();
    }
  });
});
