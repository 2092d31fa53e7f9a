// The explore section in words, for every reporter: a summary line, and the minimal failing
// sequence as readable steps with the server's and the model's answers side by side.
import type { ExploreSection } from '../model.js';

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const answer = (a: { status: number; body?: unknown } | undefined) => (a === undefined ? '(not called)' : `${a.status} ${a.body === undefined ? '' : clip(JSON.stringify(a.body))}`);

export function exploreSummary(e: ExploreSection): string {
  const verdict = e.failure ? 'FOUND A DISAGREEMENT' : 'nothing found';
  return `Explore: ${verdict} — ${e.runsDone} sequences, ${e.operations} operations in ${(e.durationMs / 1000).toFixed(1)} s (${e.opsPerSecond} ops/s), seed ${e.seed}, ${e.stoppedBy}`;
}

/** The failure as lines: message, steps (server | model), replay line. */
export function exploreFailureLines(e: ExploreSection): string[] {
  const f = e.failure;
  if (!f) return [];
  return [
    `  ${f.message}${f.tolerance ? ` [silent point: ${f.tolerance}]` : ''}`,
    `  minimal sequence: ${f.steps.length} steps (from ${f.originalLength}, ${f.shrinks} shrinks; first met after ${f.foundAfter.runs} sequences, ${f.foundAfter.operations} operations, ${(f.foundAfter.ms / 1000).toFixed(1)} s)`,
    ...f.steps.flatMap((s, i) => [
      `  ${i + 1}. ${s.call}`,
      `       server: ${answer(s.server)}`,
      `       model:  ${answer(s.model)}`,
    ]),
    `  replay: ${f.replay}`,
  ];
}
