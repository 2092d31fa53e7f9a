// The explore section in words, for every reporter: a summary line, and the minimal failing
// sequence as readable steps with the server's and the model's answers side by side.
import type { ExploreSection } from '../model.js';
import { cutAt } from '../../util/words.js';

type Failure = NonNullable<ExploreSection['failure']>;
type Step = Failure['steps'][number];
/** What every reporter shows of one finding (a finding of `findings`, or the old single `failure`). */
type Finding = Pick<Failure, 'message' | 'tolerance' | 'steps' | 'foundAfter' | 'originalLength' | 'shrinks' | 'replay'>;

const clip = (text: string, max = 160) => (text.length > max ? `${cutAt(text, max - 1)}…` : text);
const answer = (a: { status: number; body?: unknown } | undefined) => (a === undefined ? '(not called)' : `${a.status} ${a.body === undefined ? '' : clip(JSON.stringify(a.body))}`);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The findings of a section: every distinct one, or (reports before findings existed) the one failure. */
export function findingsOf(e: ExploreSection): Finding[] {
  if (e.findings !== undefined && e.findings.length > 0) return e.findings;
  return e.failure ? [e.failure] : [];
}

export function exploreSummary(e: ExploreSection): string {
  const n = findingsOf(e).length;
  const verdict = n > 1 ? `FOUND ${n} DISAGREEMENTS` : n === 1 ? 'FOUND A DISAGREEMENT' : e.runsDone === 0 || e.operations === 0 ? 'NOTHING CHECKED' : 'nothing found';
  return `Explore: ${verdict} — ${plural(e.runsDone, 'sequence')}, ${plural(e.operations, 'operation')} in ${(e.durationMs / 1000).toFixed(1)} s (${e.opsPerSecond} ops/s), seed ${e.seed}, ${e.stoppedBy}`;
}

/**
 * The ids the server handed out in the steps before each one, by the expression that names them
 * in explore-scenario.ts and explore-repro.sh's order: r1.id for step 1's answer, r3[0].id for the
 * first element of step 3's list.
 */
function handedOut(steps: readonly Step[]): Map<string, string>[] {
  const known = new Map<string, string>();
  const before: Map<string, string>[] = [];
  const walk = (value: unknown, path: string, depth: number) => {
    if (depth > 3 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      value.slice(0, 50).forEach((v, i) => walk(v, `${path}[${i}]`, depth + 1));
      return;
    }
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'string' && !known.has(v)) known.set(v, `${path}.id`);
      else if (typeof v === 'object') walk(v, `${path}.${k}`, depth + 1);
    }
  };
  steps.forEach((s, i) => {
    before.push(new Map(known));
    if (s.server !== undefined && s.server.status < 300) walk(s.server.body, `r${i + 1}`, 0);
  });
  return before;
}

/** A step as called, each id the server handed out earlier named by the step that answered it. */
function callOf(step: Step, ids: Map<string, string>): string {
  const args = Object.entries(step.request).map(([k, v]) => {
    const named = typeof v === 'string' ? ids.get(v) : undefined;
    const shown = named ?? JSON.stringify(v) ?? 'undefined';
    return `${k}: ${shown.length > 60 ? `${cutAt(shown, 57)}…"` : shown}`;
  });
  return `${step.method}(${args.join(', ')})`;
}

/**
 * Every finding as lines, one block each ("finding 2 of 3" heads a block when there are several):
 * message, steps (server | model), replay line.
 */
export function exploreFailureLines(e: ExploreSection): string[] {
  const all = findingsOf(e);
  return all.flatMap((f, i) => [...(all.length > 1 ? [`${i === 0 ? '' : '\n'}finding ${i + 1} of ${all.length}:`] : []), ...findingLines(f)]);
}

/** One finding as lines: message, steps (server | model), replay line. */
export function findingLines(f: Finding): string[] {
  const ids = handedOut(f.steps);
  return [
    // The silent point, when one applies, is the reading the server's answer fell outside of.
    `  ${f.message}${f.tolerance ? ` (outside what the silent point ${f.tolerance} allows)` : ''}`,
    `  minimal sequence: ${plural(f.steps.length, 'step')} (from ${f.originalLength}, ${plural(f.shrinks, 'shrink')}; first met after ${plural(f.foundAfter.runs, 'sequence')}, ${plural(f.foundAfter.operations, 'operation')}, ${(f.foundAfter.ms / 1000).toFixed(1)} s)`,
    ...f.steps.flatMap((s, i) => [
      `  ${i + 1}. ${callOf(s, ids[i]!)}`,
      // No server answer recorded: the call was made, and its answer is what the message says.
      `       server: ${s.server === undefined ? '(its answer is the finding above)' : answer(s.server)}`,
      `       model:  ${s.model === undefined && s.server === undefined ? '(not asked: the server\'s answer failed first)' : answer(s.model)}`,
    ]),
    `  replay: ${f.replay}`,
  ];
}
