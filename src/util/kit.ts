// The kit's own name and version, read once from package.json (two levels up from src/util/ when
// run from source and from dist/bundle/ in the CLI bundle, three from dist/src/util/ when built).
import { existsSync, readFileSync } from 'node:fs';

function findPackageJson(): string {
  for (const rel of ['../../package.json', '../../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return readFileSync(url, 'utf8');
  }
  throw new Error('agent-memory-tck: package.json not found beside the kit');
}

const pkg = JSON.parse(findPackageJson()) as { name: string; version: string };

export const KIT_NAME = pkg.name;
export const KIT_VERSION = pkg.version;
