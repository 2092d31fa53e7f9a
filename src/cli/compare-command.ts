// `tck compare A.json B.json …`: implementations side by side (src/report/compare.ts, src/report/render/compare.ts).
import { resolve } from 'node:path';
import { compare, loadComparable } from '../report/compare.js';
import { renderCompareHtml, renderCompareMarkdown, renderCompareText } from '../report/render/compare.js';
import { EXIT, TckError } from '../engine/errors.js';
import { writeOutputFile } from './output-file.js';
import { ensureReadableFile, ensureWritableFile } from './paths.js';

interface CompareFlags {
  md?: string;
  html?: string;
  all?: boolean;
}

export async function compareCommand(files: string[], flags: CompareFlags): Promise<number> {
  if (files.length < 2) throw new TckError('compare needs at least two reports or bundles');
  // Where the pages go, and what is read, are checked before anything is compared.
  if (flags.md !== undefined) await ensureWritableFile(flags.md, '--md');
  if (flags.html !== undefined) await ensureWritableFile(flags.html, '--html');
  for (const f of files) await ensureReadableFile(f, 'compare');
  const inputs = [];
  for (const f of files) {
    inputs.push(await loadComparable(resolve(f)));
  }
  const c = compare(inputs);
  process.stdout.write(renderCompareText(c, { all: !!flags.all }));
  for (const [file, render] of [
    [flags.md, renderCompareMarkdown],
    [flags.html, renderCompareHtml],
  ] as const) {
    if (file === undefined) continue;
    await writeOutputFile(file, render(c));
  }
  return EXIT.ok;
}
