// The hash of the suites' source: what a certification was graded by. It is taken over the
// TypeScript sources of the bridge suites (suites/index.ts and suites/{bronze,silver,gold}/), which
// ship with the package, so a run from source and a run of the built kit hash the same bytes.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TIERS = ['bronze', 'silver', 'gold'];

/**
 * The suites/ folder beside the kit: two levels up from src/certify/ (and from dist/bundle/, the
 * CLI bundle), three from dist/src/certify/.
 */
function suitesRoot(): string {
  for (const rel of ['../../suites/', '../../../suites/']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(new URL('index.ts', url))) return fileURLToPath(url);
  }
  throw new Error('agent-memory-tck: the suites/ sources are not beside the kit');
}

/** The suite files hashed, as paths relative to suites/ with "/" separators, sorted. */
export function suiteFiles(root = suitesRoot()): string[] {
  const out = ['index.ts'];
  const walk = (rel: string) => {
    for (const e of readdirSync(root + rel, { withFileTypes: true })) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts')) out.push(path);
    }
  };
  for (const tier of TIERS) walk(tier);
  return out.sort();
}

/**
 * "sha256:<hex>" over every suite file: its path, its length and its text (line ends made \n, so
 * a checkout with CRLF hashes the same), in path order.
 */
export function suiteHash(root = suitesRoot()): string {
  const h = createHash('sha256');
  for (const path of suiteFiles(root)) {
    const text = readFileSync(root + path, 'utf8').replace(/\r\n/g, '\n');
    h.update(`${path}\n${Buffer.byteLength(text)}\n`).update(text).update('\n');
  }
  return `sha256:${h.digest('hex')}`;
}
